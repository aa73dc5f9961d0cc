/*
 * keyhash.h - a keyed hash for the tables that hold what strangers write
 * (players' names, game ids): SipHash-2-4 (Aumasson and Bernstein, "SipHash:
 * a fast short-input PRF", 2012), written from that paper's specification.
 *
 * A plain hash such as FNV-1a lets anyone who knows it write names that all
 * land in one slot, and an open-addressing table then costs time quadratic
 * in their number (issue 30: 24 s for 4.7 MB of such names). Under a key
 * the writer of the input does not know, names collide only by chance.
 *
 * The key is drawn once a process, on first use, from /dev/urandom; where
 * that cannot be read (a chroot without /dev), from the time, the process id
 * and the addresses the system placed the program at, which differ between
 * runs but are not secret: a fallback, not a promise. So a table's order
 * differs from run to run: callers must never let it show in their output
 * (the archive commands sort, or keep the order of first appearance).
 */
#ifndef CARC_KEYHASH_H
#define CARC_KEYHASH_H

#include <stddef.h>
#include <stdint.h>

/* SipHash-2-4 of the n bytes at p under the 16-byte key (little-endian
 * words k0 = key[0..7], k1 = key[8..15]), as the paper defines it. */
uint64_t carc_siphash24(const uint8_t key[16], const void *p, size_t n);

/* SipHash-2-4 of the n bytes at p under this process's secret key. Safe to
 * call from several threads (the key is drawn once, under pthread_once). */
uint64_t carc_keyed_hash(const void *p, size_t n);

#endif
