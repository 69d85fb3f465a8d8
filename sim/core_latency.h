/* How long a cache line takes to pass from one CPU to another: on a VM whose two vCPUs sit on
 * one die at one time and on two dies at another, what two threads stepping one world gain
 * depends on it (docs/performance.md, "Twenty-ninth session"), so grip bench reports it beside
 * every figure taken on several threads. */
#ifndef GRIP_CORE_LATENCY_H
#define GRIP_CORE_LATENCY_H

#include <stdbool.h>

/* The first two CPUs the calling thread may run on; false with fewer than two (or off Linux). */
bool sim_two_cpus(int *cpu_a, int *cpu_b);

/* Two threads, one pinned to cpu_a (the caller, for the call) and one to cpu_b, pass a counter
 * back and forth round_trips times in each of 5 batches; returns the median of the batches' time
 * one way, ns. A batch stops after ~20 ms whatever it has done, so the call takes ~0.1 s at most
 * where the two threads cannot run at once (under valgrind, on a loaded machine); NAN if one
 * answer takes 0.2 s. NAN too when either thread cannot be pinned there (a CPU not allowed, off
 * Linux), when they are one CPU, or when round_trips < 1. The caller's affinity is as it was on
 * return. */
double sim_core_to_core_ns(int cpu_a, int cpu_b, int round_trips);

#endif
