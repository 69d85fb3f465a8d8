/* The two clocks the tools time themselves with (POSIX): benchmarks, races, the viewer's frame
 * budget. Not the core's (src/timer.h is the step profile's). Callers define _POSIX_C_SOURCE
 * (200809L) before any include. */
#ifndef GRIP_SIM_CLOCKS_H
#define GRIP_SIM_CLOCKS_H

#include <time.h>

/* s since an arbitrary origin, monotonic wall time: only differences mean anything. */
static inline double clock_wall_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* s of CPU time the whole process (every thread) has used: on a shared machine the wall clock
 * also counts the time other jobs held the cores; this counts only this process's. */
static inline double clock_cpu_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
