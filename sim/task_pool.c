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

/* Chunks per thread a task is cut into: a helper that wakes late (tens of µs in a VM, more on a
 * loaded machine) then finds the caller has taken its share of the chunks instead of the caller
 * waiting for a fixed half; more chunks would put more chunk edges, where two threads write the
 * collision pass's per-slot arrays in one cache line, between the threads. */
#define CHUNKS_PER_THREAD 4
/* The claim word: generation (16 bits, for waking), item count and next unclaimed item (24 bits
 * each). Everything a claim decides on is in the one word, so a helper's compare-and-swap can
 * only take items of the task that is current at that moment. */
#define CLAIM_ITEM_BITS 24
#define CLAIM_ITEM_MASK ((1ull << CLAIM_ITEM_BITS) - 1)
#define CLAIM_MAX_ITEMS ((int)CLAIM_ITEM_MASK)

struct task_pool {
  int workers; /* including the caller */
  pthread_t threads[MAX_WORKERS];
  atomic_ullong claim;     /* generation << 48 | item_count << 24 | next item */
  unsigned generation;     /* the caller's count of tasks */
  atomic_int done_items;   /* items of the current task stepped so far */
  atomic_bool quit;
  atomic_int sleepers;     /* helper threads asleep (or about to be) on wake */
  pthread_mutex_t lock;
  pthread_cond_t wake;     /* a new task or quit */
  pthread_cond_t done;     /* done_items reached item_count while the caller slept */
  atomic_bool caller_asleep;
  grip_task_fn *task;
  void *task_context;
  int item_count;
};

typedef struct worker_start {
  task_pool *pool;
  int index;
} worker_start;

static unsigned claim_generation(unsigned long long w) { return (unsigned)(w >> (2 * CLAIM_ITEM_BITS)); }

/* Claims and runs chunks of the current task until none is left. A claim succeeds only against
 * the current word, and a task cannot end before its claimed chunks are counted done, so the
 * task and its context read after a claim are that task's. Which thread steps which
 * vehicle does not change a world's results (each vehicle's step reads only itself). */
static void run_chunks(task_pool *p, int index) {
  unsigned long long w = atomic_load_explicit(&p->claim, memory_order_acquire);
  for (;;) {
    int count = (int)((w >> CLAIM_ITEM_BITS) & CLAIM_ITEM_MASK), next = (int)(w & CLAIM_ITEM_MASK);
    if (next >= count) return;
    /* the chunk size follows from the word alone */
    int chunk = (count + CHUNKS_PER_THREAD * p->workers - 1) / (CHUNKS_PER_THREAD * p->workers);
    int end = next + chunk < count ? next + chunk : count;
    unsigned long long claimed = (w & ~CLAIM_ITEM_MASK) | (unsigned long long)end;
    if (!atomic_compare_exchange_weak_explicit(&p->claim, &w, claimed, memory_order_acq_rel,
                                               memory_order_acquire))
      continue; /* w now holds the current word */
    p->task(next, end, index, p->task_context);
    if (atomic_fetch_add(&p->done_items, end - next) + (end - next) == count && /* seq_cst: see finish */
        index != 0 && atomic_load(&p->caller_asleep)) {
      pthread_mutex_lock(&p->lock);
      pthread_cond_signal(&p->done);
      pthread_mutex_unlock(&p->lock);
    }
    w = claimed;
  }
}

static void *worker_main(void *arg) {
  worker_start start = *(worker_start *)arg;
  free(arg);
  task_pool *p = start.pool;
  unsigned seen = 0;
  for (;;) {
    unsigned now = claim_generation(atomic_load_explicit(&p->claim, memory_order_acquire));
    for (int spins = 0; now == seen && !atomic_load_explicit(&p->quit, memory_order_relaxed); ++spins) {
      if (spins < SPINS_BEFORE_SLEEP) {
        now = claim_generation(atomic_load_explicit(&p->claim, memory_order_acquire));
        continue;
      }
      /* Sleep: the word is checked again under the lock, and enqueue publishes it before it
       * takes the lock to signal, so a task cannot slip by between the check and the wait. */
      pthread_mutex_lock(&p->lock);
      atomic_fetch_add(&p->sleepers, 1);
      while ((now = claim_generation(atomic_load(&p->claim))) == seen && !atomic_load(&p->quit))
        pthread_cond_wait(&p->wake, &p->lock);
      atomic_fetch_sub(&p->sleepers, 1);
      pthread_mutex_unlock(&p->lock);
    }
    if (atomic_load(&p->quit)) break;
    seen = now;
    run_chunks(p, start.index);
  }
  return NULL;
}

task_pool *task_pool_create(int workers) {
  if (workers < 1 || workers > MAX_WORKERS) return NULL;
  task_pool *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  atomic_init(&p->claim, 0);
  atomic_init(&p->done_items, 0);
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
  if (p->workers == 1 || item_count > CLAIM_MAX_ITEMS) {
    task(0, item_count, 0, task_context);
    return NULL;
  }
  p->task = task;
  p->task_context = task_context;
  p->item_count = item_count;
  atomic_store_explicit(&p->done_items, 0, memory_order_relaxed);
  p->generation = (p->generation + 1) & 0xffffu;
  if (p->generation == 0) p->generation = 1; /* 0 is the helpers' "nothing seen yet" */
  unsigned long long w = (unsigned long long)p->generation << (2 * CLAIM_ITEM_BITS) |
                         (unsigned long long)item_count << CLAIM_ITEM_BITS;
  atomic_store(&p->claim, w); /* seq_cst: the fields above first, and before the sleepers load */
  if (atomic_load(&p->sleepers) > 0) {
    pthread_mutex_lock(&p->lock);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
  }
  run_chunks(p, 0);
  return p;
}

/* Waits for the chunks the helpers claimed (the caller has run out of chunks to claim). */
static void finish(void *handle, void *user) {
  task_pool *p = user;
  (void)handle;
  for (int spins = 0; atomic_load_explicit(&p->done_items, memory_order_acquire) < p->item_count; ++spins) {
    if (spins < SPINS_BEFORE_SLEEP) continue;
    pthread_mutex_lock(&p->lock);
    atomic_store(&p->caller_asleep, true);
    while (atomic_load(&p->done_items) < p->item_count) pthread_cond_wait(&p->done, &p->lock);
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
