// SPDX-License-Identifier: GPL-2.0
/*
 * loadtime - time finit_module() and delete_module() of one module, again
 * and again
 *
 * usage: loadtime FILE.ko NAME WARMUP COUNT
 *
 * Loads FILE.ko and unloads NAME WARMUP + COUNT times and prints, for the
 * last COUNT, the nanoseconds finit_module() took and the nanoseconds of
 * CPU time delete_module() took, one load a line. Timing is taken around
 * the system calls only, so the same run compares kernels. An unload
 * waits for RCU grace periods, which end on timer ticks: its wall time
 * is the tick's phase more than the work done, which its CPU time is.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long long clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

static long long cpu_ns(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

int main(int argc, char *argv[])
{
	int warmup, count, i, fd;
	long long t0, t1, t2, t3;

	if (argc != 5) {
		fprintf(stderr, "usage: loadtime FILE.ko NAME WARMUP COUNT\n");
		return 2;
	}
	warmup = atoi(argv[3]);
	count = atoi(argv[4]);
	for (i = 0; i < warmup + count; i++) {
		fd = open(argv[1], O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			perror(argv[1]);
			return 1;
		}
		t0 = now_ns();
		if (syscall(SYS_finit_module, fd, "", 0)) {
			fprintf(stderr, "loadtime: %s: %s\n", argv[1], strerror(errno));
			close(fd);
			return 1;
		}
		t1 = now_ns();
		close(fd);
		t2 = cpu_ns();
		if (syscall(SYS_delete_module, argv[2], O_NONBLOCK)) {
			fprintf(stderr, "loadtime: unload %s: %s\n", argv[2], strerror(errno));
			return 1;
		}
		t3 = cpu_ns();
		if (i >= warmup)
			printf("%lld %lld\n", t1 - t0, t3 - t2);
	}
	return 0;
}
