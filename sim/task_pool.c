#define _POSIX_C_SOURCE 200809L
#include "task_pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

#define MAX_WORKERS 64
/* Polls of the task counter before a waiting thread goes to sleep: a fixed-step loop hands out
 * work every few tens of microseconds, less than a sleeping thread takes to wake in a VM, so a
 * worker polls for about that long (~20 µs) first. A thread that finds no work in that time
 * sleeps on a condition variable instead of spinning on (a world with one car never hands out
 * work, and its worker must not burn a core meanwhile; on an oversubscribed machine a spinning
 * worker also steals the core the caller needs). */
#define SPINS_BEFORE_SLEEP 4000

struct task_pool {
  int workers; /* including the caller */
  pthread_t threads[MAX_WORKERS];
  atomic_ulong generation; /* bumped for each task */
  atomic_int pending;      /* helper threads still working on the current task */
  atomic_bool quit;
  atomic_int sleepers;     /* helper threads asleep (or about to be) on wake */
  pthread_mutex_t lock;
  pthread_cond_t wake;     /* a new task or quit */
  pthread_cond_t done;     /* pending reached 0 while the caller slept */
  atomic_bool caller_asleep;
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
    unsigned long now = atomic_load_explicit(&p->generation, memory_order_acquire);
    for (int spins = 0; now == seen && !atomic_load_explicit(&p->quit, memory_order_relaxed); ++spins) {
      if (spins < SPINS_BEFORE_SLEEP) {
        now = atomic_load_explicit(&p->generation, memory_order_acquire);
        continue;
      }
      /* Sleep: the counter is checked again under the lock, and enqueue bumps it before it
       * takes the lock to signal, so a task cannot slip by between the check and the wait. */
      pthread_mutex_lock(&p->lock);
      atomic_fetch_add(&p->sleepers, 1);
      while ((now = atomic_load(&p->generation)) == seen && !atomic_load(&p->quit))
        pthread_cond_wait(&p->wake, &p->lock);
      atomic_fetch_sub(&p->sleepers, 1);
      pthread_mutex_unlock(&p->lock);
    }
    if (atomic_load(&p->quit)) break;
    seen = now;
    run_share(p, start.index);
    if (atomic_fetch_sub(&p->pending, 1) == 1 && atomic_load(&p->caller_asleep)) {
      pthread_mutex_lock(&p->lock);
      pthread_cond_signal(&p->done);
      pthread_mutex_unlock(&p->lock);
    }
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
  atomic_init(&p->sleepers, 0);
  atomic_init(&p->caller_asleep, false);
  if (pthread_mutex_init(&p->lock, NULL) != 0) {
    free(p);
    return NULL;
  }
  if (pthread_cond_init(&p->wake, NULL) != 0) {
    pthread_mutex_destroy(&p->lock);
    free(p);
    return NULL;
  }
  if (pthread_cond_init(&p->done, NULL) != 0) {
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    free(p);
    return NULL;
  }
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
  pthread_mutex_lock(&p->lock);
  atomic_store(&p->quit, true);
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->lock);
  for (int i = 1; i < p->workers; ++i) pthread_join(p->threads[i], NULL);
  pthread_cond_destroy(&p->wake);
  pthread_cond_destroy(&p->done);
  pthread_mutex_destroy(&p->lock);
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
  atomic_fetch_add(&p->generation, 1); /* seq_cst: ordered before the sleepers load below */
  if (atomic_load(&p->sleepers) > 0) {
    pthread_mutex_lock(&p->lock);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
  }
  run_share(p, 0);
  return p;
}

static void finish(void *handle, void *user) {
  task_pool *p = user;
  (void)handle;
  for (int spins = 0; atomic_load_explicit(&p->pending, memory_order_acquire) > 0; ++spins) {
    if (spins < SPINS_BEFORE_SLEEP) continue;
    pthread_mutex_lock(&p->lock);
    atomic_store(&p->caller_asleep, true);
    while (atomic_load(&p->pending) > 0) pthread_cond_wait(&p->done, &p->lock);
    atomic_store(&p->caller_asleep, false);
    pthread_mutex_unlock(&p->lock);
  }
}

void task_pool_attach(task_pool *pool, grip_world_def *def) {
  def->enqueue_task = enqueue;
  def->finish_task = finish;
  def->task_context = pool;
  def->worker_count = pool->workers;
}
