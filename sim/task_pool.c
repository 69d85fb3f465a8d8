#define _POSIX_C_SOURCE 200809L
#include "task_pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#define MAX_WORKERS 64
/* Spin this many polls before yielding the core: a fixed-step loop hands out work every few
 * tens of microseconds, far less than a sleeping thread takes to wake in a VM. */
#define SPINS_BEFORE_YIELD 20000

struct task_pool {
  int workers; /* including the caller */
  pthread_t threads[MAX_WORKERS];
  atomic_ulong generation; /* bumped for each task */
  atomic_int pending;      /* helper threads still working on the current task */
  atomic_bool quit;
  grip_task_fn *task;
  void *task_context;
  int item_count;
};

typedef struct worker_start {
  task_pool *pool;
  int index;
} worker_start;

static void run_share(task_pool *p, int index) {
  int per = (p->item_count + p->workers - 1) / p->workers;
  int start = index * per, end = start + per;
  if (end > p->item_count) end = p->item_count;
  if (start < end) p->task(start, end, index, p->task_context);
}

static void *worker_main(void *arg) {
  worker_start start = *(worker_start *)arg;
  free(arg);
  task_pool *p = start.pool;
  unsigned long seen = 0;
  for (;;) {
    int spins = 0;
    unsigned long now;
    while ((now = atomic_load_explicit(&p->generation, memory_order_acquire)) == seen &&
           !atomic_load_explicit(&p->quit, memory_order_relaxed))
      if (++spins > SPINS_BEFORE_YIELD) sched_yield();
    if (atomic_load(&p->quit)) break;
    seen = now;
    run_share(p, start.index);
    atomic_fetch_sub_explicit(&p->pending, 1, memory_order_release);
  }
  return NULL;
}

task_pool *task_pool_create(int workers) {
  if (workers < 1 || workers > MAX_WORKERS) return NULL;
  task_pool *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  atomic_init(&p->generation, 0);
  atomic_init(&p->pending, 0);
  atomic_init(&p->quit, false);
  p->workers = 1;
  for (int i = 1; i < workers; ++i) {
    worker_start *arg = malloc(sizeof *arg);
    if (!arg) break;
    *arg = (worker_start){p, i};
    if (pthread_create(&p->threads[i], NULL, worker_main, arg) != 0) {
      free(arg);
      break;
    }
    p->workers = i + 1;
  }
  return p;
}

void task_pool_destroy(task_pool *p) {
  if (!p) return;
  atomic_store(&p->quit, true);
  for (int i = 1; i < p->workers; ++i) pthread_join(p->threads[i], NULL);
  free(p);
}

static void *enqueue(grip_task_fn *task, int item_count, int min_range, void *task_context, void *user) {
  task_pool *p = user;
  (void)min_range;
  p->task = task;
  p->task_context = task_context;
  p->item_count = item_count;
  if (p->workers == 1) {
    task(0, item_count, 0, task_context);
    return NULL;
  }
  atomic_store_explicit(&p->pending, p->workers - 1, memory_order_relaxed);
  atomic_fetch_add_explicit(&p->generation, 1, memory_order_release);
  run_share(p, 0);
  return p;
}

static void finish(void *handle, void *user) {
  task_pool *p = user;
  (void)handle;
  int spins = 0;
  while (atomic_load_explicit(&p->pending, memory_order_acquire) > 0)
    if (++spins > SPINS_BEFORE_YIELD) sched_yield();
}

void task_pool_attach(task_pool *pool, grip_world_def *def) {
  def->enqueue_task = enqueue;
  def->finish_task = finish;
  def->task_context = pool;
  def->worker_count = pool->workers;
}
