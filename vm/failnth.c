// SPDX-License-Identifier: GPL-2.0
/*
 * nsa-failnth N MODULE.ko: load MODULE.ko with finit_module() while the
 * kernel fails the Nth fault-injection point of this thread (its Nth slab
 * allocation with failslab: Documentation/fault-injection/), and print
 *
 *	<result> <injected>
 *
 * where <result> is "ok" or the errno's name (ENOMEM, ...) and <injected>
 * is 1 if the Nth point was reached and failed, 0 if the load took fewer.
 * The fault must be armed in the thread that makes the system call, so
 * this cannot be a shell loop around insmod. Exit 0 unless it could not
 * run at all (2).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *errname(int e)
{
	switch (e) {
	case ENOMEM: return "ENOMEM";
	case ENOEXEC: return "ENOEXEC";
	case EACCES: return "EACCES";
	case EEXIST: return "EEXIST";
	case ENOENT: return "ENOENT";
	case EINVAL: return "EINVAL";
	case EBUSY: return "EBUSY";
	case EFAULT: return "EFAULT";
	default: return "EOTHER";
	}
}

int main(int argc, char **argv)
{
	char buf[32];
	int nth, mod, ret, err;
	ssize_t len;

	if (argc != 3) {
		fprintf(stderr, "usage: nsa-failnth N MODULE.ko\n");
		return 2;
	}
	mod = open(argv[2], O_RDONLY | O_CLOEXEC);
	if (mod < 0) {
		fprintf(stderr, "nsa-failnth: %s: %s\n", argv[2], strerror(errno));
		return 2;
	}
	nth = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	if (nth < 0) {
		fprintf(stderr, "nsa-failnth: /proc/thread-self/fail-nth: %s\n",
			strerror(errno));
		return 2;
	}
	len = snprintf(buf, sizeof(buf), "%d", atoi(argv[1]));
	if (write(nth, buf, len) != len) {
		fprintf(stderr, "nsa-failnth: arming fail-nth: %s\n", strerror(errno));
		return 2;
	}
	ret = syscall(SYS_finit_module, mod, "", 0);
	err = errno;
	/* Reading it back: 0 once the fault was injected, else what is left. */
	len = pread(nth, buf, sizeof(buf) - 1, 0);
	buf[len > 0 ? len : 0] = '\0';
	/* Disarm before anything else allocates. */
	if (write(nth, "0", 1) != 1)
		return 2;
	printf("%s %d\n", ret ? errname(err) : "ok", atoi(buf) == 0);
	return 0;
}
