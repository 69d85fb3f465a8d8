#define _GNU_SOURCE /* the affinity calls (Linux) */
#include "core_latency.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#define BATCHES 5

bool sim_two_cpus(int *cpu_a, int *cpu_b) {
#if defined(__linux__)
  cpu_set_t allowed;
  if (pthread_getaffinity_np(pthread_self(), sizeof allowed, &allowed) != 0) return false;
  int found = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE && found < 2; ++cpu) {
    if (!CPU_ISSET(cpu, &allowed)) continue;
    if (found++ == 0) *cpu_a = cpu;
    else *cpu_b = cpu;
  }
  return found == 2;
#else
  (void)cpu_a;
  (void)cpu_b;
  return false;
#endif
}

#if defined(__linux__)
/* The counter, alone in its cache line: the caller writes odd values, the other thread answers
 * with the next even one. */
typedef struct ping {
  _Alignas(64) atomic_long counter;
  char pad[64 - sizeof(atomic_long)];
  long round_trips;
  int cpu;
  atomic_int pinned; /* 1: pinned and answering, -1: could not be pinned */
} ping;

static bool pin_to(int cpu) {
  if (cpu < 0 || cpu >= CPU_SETSIZE) return false;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  return pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0;
}

static void *answer(void *arg) {
  ping *p = arg;
  if (!pin_to(p->cpu)) {
    atomic_store(&p->pinned, -1);
    return NULL;
  }
  atomic_store(&p->pinned, 1);
  for (long i = 0; i < BATCHES * p->round_trips; ++i) {
    while (atomic_load_explicit(&p->counter, memory_order_acquire) != 2 * i + 1) {
    }
    atomic_store_explicit(&p->counter, 2 * i + 2, memory_order_release);
  }
  return NULL;
}

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return 1e9 * (double)t.tv_sec + (double)t.tv_nsec;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
#endif

double sim_core_to_core_ns(int cpu_a, int cpu_b, int round_trips) {
#if defined(__linux__)
  if (round_trips < 1 || cpu_a == cpu_b) return NAN; /* on one CPU each answer would wait for a time slice */
  cpu_set_t before;
  if (pthread_getaffinity_np(pthread_self(), sizeof before, &before) != 0) return NAN;
  ping *p = aligned_alloc(64, sizeof *p);
  if (!p) return NAN;
  atomic_init(&p->counter, 0);
  atomic_init(&p->pinned, 0);
  p->round_trips = round_trips;
  p->cpu = cpu_b;
  double one_way[BATCHES], result = NAN;
  pthread_t other;
  if (!pin_to(cpu_a) || pthread_create(&other, NULL, answer, p) != 0) {
    pthread_setaffinity_np(pthread_self(), sizeof before, &before);
    free(p);
    return NAN;
  }
  int pinned;
  while ((pinned = atomic_load(&p->pinned)) == 0) sched_yield();
  if (pinned == 1) {
    long sent = 0;
    for (int b = 0; b < BATCHES; ++b) {
      double start = now_ns();
      for (long i = 0; i < round_trips; ++i, ++sent) {
        atomic_store_explicit(&p->counter, 2 * sent + 1, memory_order_release);
        while (atomic_load_explicit(&p->counter, memory_order_acquire) != 2 * sent + 2) {
        }
      }
      one_way[b] = (now_ns() - start) / (2.0 * round_trips);
    }
    qsort(one_way, BATCHES, sizeof one_way[0], by_value);
    result = one_way[BATCHES / 2];
  }
  pthread_join(other, NULL);
  pthread_setaffinity_np(pthread_self(), sizeof before, &before);
  free(p);
  return result;
#else
  (void)cpu_a;
  (void)cpu_b;
  (void)round_trips;
  return NAN;
#endif
}
