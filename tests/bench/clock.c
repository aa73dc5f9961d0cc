/*
 * tests/bench/clock.c - the clock this core runs at now, for bench.sh.
 *
 * A virtual machine's host may run its cores at any clock from below their
 * base to their turbo, and change it from one second to the next: on the
 * 2-core machine of the README, a minute's readings went from 1.8 to
 * 3.3 GHz. The time of the same work moves with it, so bench.sh reads the
 * clock before and after each timed run and also reports cycles per game,
 * which do not move with the clock.
 *
 * The clock is read as a chain of dependent additions, one a cycle, timed
 * in CPU time (so that time the process was not running does not count).
 * Each adds a register to itself: newer processors fold the addition of a
 * constant into register renaming, at no cycle at all.
 * Prints the clock in GHz; prints nothing and exits 1 where the chain
 * cannot be written (processors other than x86 and ARM64, compilers
 * without GNU asm).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define ADD1(x) __asm__ volatile("add %0, %0" : "+r"(x))
#elif defined(__GNUC__) && defined(__aarch64__)
#define ADD1(x) __asm__ volatile("add %0, %0, %0" : "+r"(x))
#endif

static double cpu_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(void)
{
#ifdef ADD1
	/* 8 additions a turn of the loop: the chain, 8 cycles, hides the
	 * loop's own instructions */
	enum { TURNS = 25000000, PER_TURN = 8 };
	unsigned long x = 1; /* doubled 200 million times: its value is of no use */
	double t0 = cpu_seconds();
	for (long i = 0; i < TURNS; i++) {
		ADD1(x); ADD1(x); ADD1(x); ADD1(x);
		ADD1(x); ADD1(x); ADD1(x); ADD1(x);
	}
	double t = cpu_seconds() - t0;
	if (t <= 0)
		return 1;
	printf("%.2f\n", (double)TURNS * PER_TURN / t / 1e9);
	return 0;
#else
	return 1;
#endif
}
