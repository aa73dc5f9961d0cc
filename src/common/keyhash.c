/*
 * keyhash.c - SipHash-2-4 and the process's key (keyhash.h).
 */
#include "common/keyhash.h"

#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

static uint64_t load64(const uint8_t *p)
{
	uint64_t w = 0;
	for (int i = 7; i >= 0; i--)
		w = w << 8 | p[i];
	return w;
}

/* One SipRound on the state v[0..3]. */
static void sip_round(uint64_t v[4])
{
	v[0] += v[1];
	v[1] = ROTL(v[1], 13);
	v[1] ^= v[0];
	v[0] = ROTL(v[0], 32);
	v[2] += v[3];
	v[3] = ROTL(v[3], 16);
	v[3] ^= v[2];
	v[0] += v[3];
	v[3] = ROTL(v[3], 21);
	v[3] ^= v[0];
	v[2] += v[1];
	v[1] = ROTL(v[1], 17);
	v[1] ^= v[2];
	v[2] = ROTL(v[2], 32);
}

uint64_t carc_siphash24(const uint8_t key[16], const void *p, size_t n)
{
	const uint8_t *in = p;
	uint64_t k0 = load64(key), k1 = load64(key + 8);
	uint64_t v[4] = {k0 ^ UINT64_C(0x736f6d6570736575), k1 ^ UINT64_C(0x646f72616e646f6d),
			 k0 ^ UINT64_C(0x6c7967656e657261), k1 ^ UINT64_C(0x7465646279746573)};
	size_t whole = n - n % 8;
	for (size_t i = 0; i < whole; i += 8) {
		uint64_t m = load64(in + i);
		v[3] ^= m;
		sip_round(v);
		sip_round(v);
		v[0] ^= m;
	}
	/* the last block: the remaining bytes, and n mod 256 in the top byte */
	uint64_t b = (uint64_t)(n & 0xff) << 56;
	for (size_t i = whole; i < n; i++)
		b |= (uint64_t)in[i] << (8 * (i - whole));
	v[3] ^= b;
	sip_round(v);
	sip_round(v);
	v[0] ^= b;
	v[2] ^= 0xff;
	for (int r = 0; r < 4; r++)
		sip_round(v);
	return v[0] ^ v[1] ^ v[2] ^ v[3];
}

static uint8_t process_key[16];
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void draw_key(void)
{
	FILE *f = fopen("/dev/urandom", "rb");
	size_t got = f ? fread(process_key, 1, sizeof process_key, f) : 0;
	if (f)
		fclose(f);
	if (got == sizeof process_key)
		return;
	/* the fallback: what differs between runs, mixed through the hash */
	struct timespec ts = {0};
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t seed[4] = {(uint64_t)ts.tv_sec, (uint64_t)ts.tv_nsec, (uint64_t)getpid(),
			    (uint64_t)(uintptr_t)&seed ^ (uint64_t)(uintptr_t)&draw_key};
	static const uint8_t fixed[16] = {0x63, 0x61, 0x72, 0x63, 0x20, 0x6b, 0x65, 0x79,
					  0x20, 0x66, 0x61, 0x6c, 0x6c, 0x62, 0x61, 0x63};
	uint64_t a = carc_siphash24(fixed, seed, sizeof seed);
	seed[0] ^= a;
	uint64_t b = carc_siphash24(fixed, seed, sizeof seed);
	for (int i = 0; i < 8; i++) {
		process_key[i] = (uint8_t)(a >> (8 * i));
		process_key[8 + i] = (uint8_t)(b >> (8 * i));
	}
}

uint64_t carc_keyed_hash(const void *p, size_t n)
{
	pthread_once(&key_once, draw_key);
	return carc_siphash24(process_key, p, n);
}
