/*
 * input.c - plain, gzip and zstd inputs behind one FILE*.
 *
 * A compressed input is a stream made with fopencookie(): its read function
 * fills a block of compressed bytes from the file and decompresses into the
 * reader's buffer, so memory stays at two blocks and the decompressor's
 * state (a zstd window is at most 128 MiB, libzstd's default limit). The
 * magic numbers are read with the first bytes; plain text is handed back
 * as the FILE it is, after ungetc() of its first byte, except in the one
 * case where more than one byte had to be read to tell (text that starts
 * with "(" or byte 0x1f but is not compressed): then a stream that gives
 * those bytes back first, and the rest of the file after them.
 */
#define _GNU_SOURCE /* fopencookie */
#include "common/input.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#define IN_BLOCK 65536

enum kind { KIND_PLAIN, KIND_GZIP, KIND_ZSTD };

struct cookie {
	enum kind kind;
	FILE *raw;
	unsigned char *in;        /* compressed bytes (or the plain bytes read ahead) */
	size_t in_pos, in_len;
	uint64_t raw_read;        /* bytes read from raw (the magic included) */
	uint64_t text;            /* bytes given to the reader */
	bool in_frame;            /* a compressed stream is open: its end is still to come */
	bool failed, done;
	bool zeros;               /* gzip: after a member, zero bytes only (as gzip ignores them) */
	bool keep_raw;            /* raw is the caller's: closing the stream leaves it open */
	z_stream z;
	ZSTD_DStream *zs;
	/* zstd: the current frame's first bytes (its header, at most
	 * ZSTD_FRAMEHEADERSIZE_MAX = 18), its bytes taken and its text given,
	 * to hold the frame to the size its header declares */
	unsigned char frame_head[18];
	size_t head_len;
	uint64_t frame_in, frame_out;
};

/* The message of this thread's last damaged input, for carc_input_strerror. */
static _Thread_local char failure[256];

static const char *kind_name(enum kind k) { return k == KIND_GZIP ? "gzip" : "zstd"; }

/* Damaged data: the message, and the read error that carries it. */
static ssize_t fail(struct cookie *c, const char *what)
{
	uint64_t at = c->raw_read - (c->in_len - c->in_pos); /* bytes of the file taken so far */
	snprintf(failure, sizeof failure, "the %s data %s at byte %llu of the file, after %llu bytes of text",
		 kind_name(c->kind), what, (unsigned long long)at, (unsigned long long)c->text);
	c->failed = true;
	errno = EBADMSG;
	return -1;
}

/* More compressed bytes into c->in, when it is used up. 0 at the end of
 * the file, -1 on a read error (errno set). */
static int refill(struct cookie *c)
{
	if (c->in_pos < c->in_len)
		return 1;
	errno = 0;
	size_t n = fread(c->in, 1, IN_BLOCK, c->raw);
	c->in_pos = 0;
	c->in_len = n;
	c->raw_read += n;
	if (n)
		return 1;
	if (ferror(c->raw)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

/* Compressed bytes to go on with: 1; 0 at the end of the file after a
 * whole stream (the input is done); -1 on a read error, or when the file
 * ends inside a stream. */
static int more_compressed(struct cookie *c)
{
	int got = refill(c);
	if (got == 0 && c->in_frame) {
		fail(c, "is cut short");
		return -1;
	}
	if (got == 0)
		c->done = true;
	return got;
}

static ssize_t read_gzip(struct cookie *c, char *buf, size_t size)
{
	c->z.next_out = (unsigned char *)buf;
	c->z.avail_out = size > UINT32_MAX ? UINT32_MAX : (uInt)size;
	uInt want = c->z.avail_out;
	while (c->z.avail_out == want) {
		int got = more_compressed(c);
		if (got < 0)
			return -1;
		if (got == 0)
			break;
		if (!c->in_frame && (c->zeros || !c->in[c->in_pos])) {
			/* zero bytes after the last member: gzip ignores them
			 * ("trailing zero bytes ignored"), and so does carc, as
			 * long as nothing else follows */
			c->zeros = true;
			while (c->in_pos < c->in_len && !c->in[c->in_pos])
				c->in_pos++;
			if (c->in_pos < c->in_len)
				return fail(c, "has other bytes after the zero bytes that follow its end");
			continue;
		}
		if (!c->in_frame) { /* another member follows the last one */
			inflateReset(&c->z);
			c->in_frame = true;
		}
		c->z.next_in = c->in + c->in_pos;
		c->z.avail_in = (uInt)(c->in_len - c->in_pos);
		int ret = inflate(&c->z, Z_NO_FLUSH);
		c->in_pos = c->in_len - c->z.avail_in;
		if (ret == Z_STREAM_END)
			c->in_frame = false;
		else if (ret != Z_OK && ret != Z_BUF_ERROR)
			return fail(c, ret == Z_MEM_ERROR ? "could not be unpacked (out of memory)"
					   : c->z.msg && strstr(c->z.msg, "header") ? "is not gzip data"
										: "is damaged");
	}
	return (ssize_t)(want - c->z.avail_out);
}

static ssize_t read_zstd(struct cookie *c, char *buf, size_t size)
{
	ZSTD_outBuffer out = {buf, size, 0};
	while (out.pos == 0) {
		int got = more_compressed(c);
		if (got < 0)
			return -1;
		if (got == 0)
			break;
		/* the frame's header, as its bytes come (they are taken in order) */
		for (size_t k = c->in_pos + (c->head_len - c->frame_in);
		     c->head_len < sizeof c->frame_head && k < c->in_len; k++)
			c->frame_head[c->head_len++] = c->in[k];
		ZSTD_inBuffer in = {c->in, c->in_len, c->in_pos};
		size_t out_before = out.pos;
		size_t ret = ZSTD_decompressStream(c->zs, &out, &in);
		c->frame_in += in.pos - c->in_pos;
		c->frame_out += out.pos - out_before;
		c->in_pos = in.pos;
		if (ZSTD_isError(ret))
			return fail(c, ZSTD_getErrorCode(ret) == ZSTD_error_frameParameter_windowTooLarge
					       ? "needs a window over 128 MiB"
					       : "is damaged");
		c->in_frame = ret != 0; /* 0: a frame ended where the input does */
		if (!ret) { /* a frame ended: it must hold what its header says */
			unsigned long long declared = ZSTD_getFrameContentSize(c->frame_head, c->head_len);
			if (declared != ZSTD_CONTENTSIZE_UNKNOWN && declared != ZSTD_CONTENTSIZE_ERROR && declared != c->frame_out)
				return fail(c, "is damaged (a frame holds another size than its header declares)");
			c->head_len = 0;
			c->frame_in = c->frame_out = 0;
		}
	}
	return (ssize_t)out.pos;
}

static ssize_t read_plain(struct cookie *c, char *buf, size_t size)
{
	if (c->in_pos < c->in_len) { /* the bytes read to tell what the input is */
		size_t n = c->in_len - c->in_pos < size ? c->in_len - c->in_pos : size;
		memcpy(buf, c->in + c->in_pos, n);
		c->in_pos += n;
		return (ssize_t)n;
	}
	errno = 0;
	size_t n = fread(buf, 1, size, c->raw);
	if (!n && ferror(c->raw)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return (ssize_t)n;
}

static ssize_t cookie_read(void *p, char *buf, size_t size)
{
	struct cookie *c = p;
	if (c->failed) {
		errno = EBADMSG;
		return -1;
	}
	if (c->done || !size)
		return 0;
	ssize_t n = c->kind == KIND_GZIP ? read_gzip(c, buf, size)
		    : c->kind == KIND_ZSTD ? read_zstd(c, buf, size) : read_plain(c, buf, size);
	if (n > 0)
		c->text += (uint64_t)n;
	return n;
}

static int cookie_close(void *p)
{
	struct cookie *c = p;
	if (c->kind == KIND_GZIP)
		inflateEnd(&c->z);
	if (c->zs)
		ZSTD_freeDStream(c->zs);
	if (c->raw != stdin && !c->keep_raw)
		fclose(c->raw);
	free(c->in);
	free(c);
	return 0;
}

/* A stream over raw of the given kind, the n bytes already read from it
 * (magic) coming first. NULL with errno when it cannot be made. */
static FILE *wrap(FILE *raw, enum kind kind, const unsigned char *head, size_t n, bool keep_raw)
{
	struct cookie *c = calloc(1, sizeof *c);
	if (!c || !(c->in = malloc(IN_BLOCK)))
		goto nomem;
	c->kind = kind;
	c->raw = raw;
	c->keep_raw = keep_raw;
	memcpy(c->in, head, n);
	c->in_len = n;
	c->raw_read = n;
	c->in_frame = kind != KIND_PLAIN;
	if (kind == KIND_GZIP && inflateInit2(&c->z, 15 + 16) != Z_OK) /* 15 + 16: a gzip window and header */
		goto nomem;
	if (kind == KIND_ZSTD && !(c->zs = ZSTD_createDStream()))
		goto nomem;
	FILE *f = fopencookie(c, "r", (cookie_io_functions_t){cookie_read, NULL, NULL, cookie_close});
	if (f)
		return f;
	if (kind == KIND_GZIP)
		inflateEnd(&c->z);
nomem:
	if (c) {
		if (c->zs)
			ZSTD_freeDStream(c->zs);
		free(c->in);
	}
	free(c);
	errno = ENOMEM;
	return NULL;
}

FILE *carc_input_open(const char *path)
{
	FILE *raw = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!raw)
		return NULL;
	FILE *f = carc_input_stream(raw, false);
	if (!f) {
		int err = errno;
		if (raw != stdin)
			fclose(raw);
		errno = err;
	}
	return f;
}

FILE *carc_input_stream(FILE *raw, bool keep_raw)
{
	failure[0] = '\0';
	static const unsigned char zstd_magic[4] = {0x28, 0xb5, 0x2f, 0xfd};
	unsigned char head[4];
	int c = getc(raw);
	if (c == EOF) {
		clearerr(raw); /* the reader reads again, and sees the end or the error itself */
		return raw;
	}
	if (c != 0x1f && c != 0x28) {
		ungetc(c, raw);
		return raw;
	}
	head[0] = (unsigned char)c;
	size_t n = 1, want = c == 0x1f ? 2 : 4;
	while (n < want && (c = getc(raw)) != EOF)
		head[n++] = (unsigned char)c;
	enum kind kind = KIND_PLAIN;
	if (n == 2 && head[0] == 0x1f && head[1] == 0x8b)
		kind = KIND_GZIP;
	else if (n == 4 && !memcmp(head, zstd_magic, 4))
		kind = KIND_ZSTD;
	if (ferror(raw))
		clearerr(raw);
	return wrap(raw, kind, head, n, keep_raw);
}

void carc_input_close(FILE *f)
{
	if (f && f != stdin)
		fclose(f);
}

const char *carc_input_strerror(int err)
{
	return err == EBADMSG && failure[0] ? failure : strerror(err);
}
