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
/* A batch ends after this long whatever it has done, and a single answer waited for this long
 * gives up: where the two threads cannot run at once (valgrind runs one thread at a time, or a
 * loaded machine), a round trip takes a time slice and the full count would take minutes. */
#define BATCH_BUDGET_NS 20e6
#define ANSWER_LIMIT_NS 200e6

/* The counter, alone in its cache line: the caller writes odd values, the other thread answers
 * with the next even one until told to stop. */
typedef struct ping {
  _Alignas(64) atomic_long counter;
  _Alignas(64) atomic_bool stop; /* written once, at the end */
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
  for (long expect = 1;; expect += 2) {
    while (atomic_load_explicit(&p->counter, memory_order_acquire) != expect)
      if (atomic_load_explicit(&p->stop, memory_order_relaxed)) return NULL;
    atomic_store_explicit(&p->counter, expect + 1, memory_order_release);
  }
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
  atomic_init(&p->stop, false);
  atomic_init(&p->pinned, 0);
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
  bool answered = pinned == 1;
  long sent = 0;
  for (int b = 0; b < BATCHES && answered; ++b) {
    double start = now_ns();
    long done = 0;
    while (done < round_trips && answered) {
      atomic_store_explicit(&p->counter, 2 * sent + 1, memory_order_release);
      /* the clock is read only once the answer is late, so that it does not weigh on the figure */
      double waiting_since = -1.0;
      for (long polls = 1; atomic_load_explicit(&p->counter, memory_order_acquire) != 2 * sent + 2; ++polls) {
        if (polls % 4096 != 0) continue;
        if (waiting_since < 0.0) {
          waiting_since = now_ns();
        } else if (now_ns() - waiting_since > ANSWER_LIMIT_NS) {
          answered = false; /* the other thread never got to run */
          break;
        }
      }
      if (!answered) break;
      ++sent;
      ++done;
      if (done % 8 == 0 && now_ns() - start > BATCH_BUDGET_NS) break;
    }
    if (answered) one_way[b] = (now_ns() - start) / (2.0 * (double)done);
  }
  atomic_store(&p->stop, true);
  if (answered) {
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
