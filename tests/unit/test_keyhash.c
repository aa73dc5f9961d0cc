/*
 * test_keyhash.c - the keyed hash (common/keyhash.c): SipHash-2-4 gives the
 * paper's own test values, and the process's key is one key (the same
 * input hashes the same within a run) and not all zeros.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/keyhash.h"

static void test_keyhash_siphash24_vectors(void **state)
{
	(void)state;
	/* Aumasson and Bernstein, SipHash (2012), appendix A and the
	 * reference vectors: key 00 01 .. 0f, message 00 01 .. (n-1). */
	uint8_t key[16], msg[64];
	for (int i = 0; i < 16; i++)
		key[i] = (uint8_t)i;
	for (int i = 0; i < 64; i++)
		msg[i] = (uint8_t)i;
	assert_true(carc_siphash24(key, msg, 15) == UINT64_C(0xa129ca6149be45e5));
	assert_true(carc_siphash24(key, msg, 0) == UINT64_C(0x726fdb47dd0e0e31));
}

static void test_keyhash_process_key(void **state)
{
	(void)state;
	static const uint8_t zero[16];
	const char *name = "Anna";
	uint64_t h = carc_keyed_hash(name, 4);
	assert_true(h == carc_keyed_hash("Anna", 4));
	assert_true(h != carc_keyed_hash("anna", 4));
	/* one chance in 2^64 of failing by luck */
	assert_true(h != carc_siphash24(zero, name, 4));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keyhash_siphash24_vectors),
		cmocka_unit_test(test_keyhash_process_key),
	};
	return cmocka_run_group_tests_name("keyhash", tests, NULL, NULL);
}
