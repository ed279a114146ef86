// SPDX-License-Identifier: GPL-2.0
/*
 * Print the host's TSC frequency in kHz, measured against
 * CLOCK_MONOTONIC_RAW over 200 ms. Under TCG the guest's TSC runs at the
 * host's rate, but a tinyconfig guest has no HPET or ACPI PM timer to
 * calibrate it against and falls back to the 4 ms jiffies clocksource;
 * bench/run.sh passes this figure as tsc_early_khz= instead.
 */
#include <stdio.h>
#include <stdint.h>
#include <time.h>
#include <x86intrin.h>

static uint64_t ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

int main(void)
{
	struct timespec pause = { .tv_nsec = 200 * 1000 * 1000 };
	uint64_t t0 = ns(), c0 = __rdtsc(), t1, c1;

	nanosleep(&pause, NULL);
	c1 = __rdtsc();
	t1 = ns();
	printf("%llu\n", (unsigned long long)((c1 - c0) * 1000000 / (t1 - t0)));
	return 0;
}
