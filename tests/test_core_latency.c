/* grip bench's core-to-core figure (sim/core_latency.c): two CPUs found among those the thread
 * may use; a cache line's time one way between them finite and between 5 ns and 100 µs (a
 * transfer between two cores takes tens to a few hundred ns; a VM that deschedules a vCPU for a
 * while is outvoted by the median of 5 batches); NAN where it cannot be measured (one CPU twice,
 * a CPU the thread may not use, no round trips); far more round trips than fit in its time
 * budget measured within it; and the caller's affinity as it was. */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include "core_latency.h"
#include "test.h"

int main(void) {
#if defined(__linux__)
  cpu_set_t before, after;
  CHECK(pthread_getaffinity_np(pthread_self(), sizeof before, &before) == 0);
  if (CPU_COUNT(&before) < 2) TEST_SKIP("fewer than two CPUs");
  int a = -1, b = -1;
  CHECK(sim_two_cpus(&a, &b));
  CHECK(a >= 0 && b > a && CPU_ISSET(a, &before) && CPU_ISSET(b, &before));
  int below_a = 0; /* a is the first allowed, b the second */
  for (int cpu = 0; cpu < a; ++cpu) below_a += CPU_ISSET(cpu, &before) != 0;
  for (int cpu = a + 1; cpu < b; ++cpu) below_a += CPU_ISSET(cpu, &before) != 0;
  CHECK(below_a == 0);
  double ns = sim_core_to_core_ns(a, b, 2000);
  printf("  CPU %d to CPU %d: %.1f ns one way\n", a, b, ns);
  CHECK(isfinite(ns) && ns >= 5.0 && ns <= 100000.0);
  CHECK(pthread_getaffinity_np(pthread_self(), sizeof after, &after) == 0 && CPU_EQUAL(&before, &after));
  /* Asked for far more round trips than fit in the batches' time (10 million, ~5 s a batch at
   * 250 ns one way): each batch stops after ~20 ms, and the figure is that of the trips done. */
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  double capped = sim_core_to_core_ns(a, b, 10000000);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double took = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  printf("  10 million round trips asked: %.1f ns one way, in %.3f s\n", capped, took);
  CHECK(isfinite(capped) && capped >= 5.0 && capped <= 100000.0);
  CHECK(took < 1.0);
  CHECK(isnan(sim_core_to_core_ns(a, a, 2000)));
  CHECK(isnan(sim_core_to_core_ns(a, b, 0)));
  CHECK(isnan(sim_core_to_core_ns(-1, b, 100)));
  CHECK(isnan(sim_core_to_core_ns(a, CPU_SETSIZE, 100)));
  int outside = -1;
  for (int cpu = 0; cpu < CPU_SETSIZE && outside < 0; ++cpu)
    if (!CPU_ISSET(cpu, &before)) outside = cpu;
  if (outside >= 0) CHECK(isnan(sim_core_to_core_ns(a, outside, 100))); /* the other thread cannot go there */
  if (outside >= 0) CHECK(isnan(sim_core_to_core_ns(outside, b, 100))); /* nor the caller */
  CHECK(pthread_getaffinity_np(pthread_self(), sizeof after, &after) == 0 && CPU_EQUAL(&before, &after));
#else
  TEST_SKIP("CPU affinity is Linux only here");
#endif
  return TEST_RESULT();
}
