#define _GNU_SOURCE /* sched_getcpu and the affinity calls (Linux); POSIX 2008 too */
#include "task_pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#define MAX_WORKERS 64
/* How long a waiting thread polls before it goes to sleep. A fixed-step loop hands out work
 * every few tens of microseconds, less than a sleeping thread takes to wake in a VM (50–100 µs),
 * so a helper polls for HELPER_POLL_NS after its last task, and the caller, waiting for the
 * chunks a helper claimed, for CALLER_POLL_NS. The budgets are in time, not in polls: 4,000
 * polls once took ~2 µs, so a helper slept between two steps of 100 cars, and the caller slept
 * while a helper finished its chunk, and two threads were slower than one. A thread that finds
 * nothing in its budget sleeps on a condition variable instead of polling on (a world with one
 * car never hands out work, and its helper must not burn a core meanwhile; on an oversubscribed
 * machine a polling helper also takes the core the caller needs). */
#define HELPER_POLL_NS 200000
#define CALLER_POLL_NS 1000000
/* Polls between two reads of the clock. */
#define POLLS_PER_CLOCK 32

/* How a task is handed out. Its items are split into one contiguous share per thread, and each
 * thread steps its own share first, so a vehicle is stepped by the same thread from one step to
 * the next and its state stays in that core's cache (with one claim word for all, the thread
 * that came first took the first chunks, which vehicles a core stepped changed from step to
 * step, and at 100 cars two threads were 0.86x one). A thread that has finished its own share
 * takes chunks of the others', so a helper that wakes late (tens of µs in a VM) does not hold
 * the caller back. A claim takes 1/CHUNK_DIVISOR of what is left of a share (at least one
 * item): the last claims are small, and threads run out of work at nearly the same time. */
#define CHUNK_DIVISOR 6
/* A claim word: generation (16 bits, for waking), and the share's unclaimed items [next, end)
 * (24 bits each): a claim from the bottom raises next, one from the top lowers end
 * (run_share). Everything a claim decides on is in the one word, so a compare-and-swap can only
 * take items of the task that is current at that moment. */
#define CLAIM_ITEM_BITS 24
#define CLAIM_ITEM_MASK ((1ull << CLAIM_ITEM_BITS) - 1)
#define CLAIM_MAX_ITEMS ((int)CLAIM_ITEM_MASK)

/* One thread's share, alone in its cache line (64 bytes apart whatever the allocation's
 * alignment), so that claims on two shares do not contend. */
typedef struct share_claim {
  atomic_ullong word; /* generation << 48 | end << 24 | next */
  char pad[64 - sizeof(atomic_ullong)];
} share_claim;

struct task_pool {
  int workers; /* including the caller */
  pthread_t threads[MAX_WORKERS];
  share_claim share[MAX_WORKERS]; /* share[0] is the caller's; its word is published last */
  unsigned generation;            /* the caller's count of tasks */
  atomic_int done_items;          /* items of the current task stepped so far */
  atomic_bool quit;
  atomic_int sleepers;     /* helper threads asleep (or about to be) on wake */
  pthread_mutex_t lock;
  pthread_cond_t wake;     /* a new task or quit */
  pthread_cond_t done;     /* done_items reached item_count while the caller slept */
  atomic_bool caller_asleep;
  atomic_int caller_cpu;   /* the CPU the caller last woke the helpers from (-1: unknown) */
  grip_task_fn *task;
  void *task_context;
  int item_count;
};

typedef struct worker_start {
  task_pool *pool;
  int index;
} worker_start;

static unsigned claim_generation(unsigned long long w) { return (unsigned)(w >> (2 * CLAIM_ITEM_BITS)); }

/* A new task is out (or the pool quits). */
static bool new_task(task_pool *p, unsigned seen) {
  return claim_generation(atomic_load_explicit(&p->share[0].word, memory_order_acquire)) != seen ||
         atomic_load_explicit(&p->quit, memory_order_relaxed);
}

/* Every item of the current task is done. */
static bool task_done(task_pool *p, unsigned seen) {
  (void)seen;
  return atomic_load_explicit(&p->done_items, memory_order_acquire) >= p->item_count;
}

/* A hint to the core that this thread is polling (x86's pause: lets a sibling hyper-thread run,
 * and spends less power); nothing elsewhere. */
static void poll_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

static long long monotonic_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Polls until *stop says to, or budget_ns has passed: returns true when stopped by *stop. */
typedef bool poll_fn(task_pool *p, unsigned seen);

static bool poll_for(task_pool *p, unsigned seen, poll_fn *stop, long long budget_ns) {
  long long start = -1;
  for (int polls = 0;; ++polls) {
    if (stop(p, seen)) return true;
    if (polls % POLLS_PER_CLOCK == 0) {
      long long now = monotonic_ns();
      if (start < 0)
        start = now;
      else if (now - start >= budget_ns)
        return false;
    }
    poll_pause();
  }
}

/* The current task's generation: share[0]'s word is published after every other share's. */
static unsigned current_generation(task_pool *p) {
  return claim_generation(atomic_load_explicit(&p->share[0].word, memory_order_acquire));
}

/* Claims and runs chunks of share j of task `generation` until none is left there; returns the
 * items it ran. A claim succeeds only against the current word of the share, and a task cannot
 * end before its claimed items are counted done (run_chunks), so the task and its context read
 * after a claim are that task's. Which thread steps which vehicle does not change a world's
 * results (each vehicle's step reads only itself).
 *
 * The caller claims its own share (the first, share 0) from the top down and the helpers theirs
 * from the bottom up, so the two streams of work move away from the boundary between their
 * shares (a world steps worker 0's ranges from the top down too, world.c); a thread that takes
 * chunks of another's share takes them from the other end, away from where its owner works. */
static int run_share(task_pool *p, int j, unsigned generation, int index) {
  int ran = 0;
  bool owner = j == index, from_top = owner ? j == 0 : j != 0;
  unsigned long long w = atomic_load_explicit(&p->share[j].word, memory_order_acquire);
  for (;;) {
    if (claim_generation(w) != generation) return ran; /* a later task: its own threads take it */
    int end = (int)((w >> CLAIM_ITEM_BITS) & CLAIM_ITEM_MASK), next = (int)(w & CLAIM_ITEM_MASK);
    if (next >= end) return ran;
    /* guided: a share's claims shrink with what is left of it, so the last ones are small */
    int size = (end - next + CHUNK_DIVISOR - 1) / CHUNK_DIVISOR;
    int first = from_top ? end - size : next, stop = first + size;
    unsigned long long claimed = from_top ? (w & ~(CLAIM_ITEM_MASK << CLAIM_ITEM_BITS)) |
                                                (unsigned long long)first << CLAIM_ITEM_BITS
                                          : (w & ~CLAIM_ITEM_MASK) | (unsigned long long)stop;
    if (!atomic_compare_exchange_weak_explicit(&p->share[j].word, &w, claimed, memory_order_acq_rel,
                                               memory_order_acquire))
      continue; /* w now holds the current word */
    p->task(first, stop, index, p->task_context);
    ran += size;
    w = claimed;
  }
}

/* Thread `index` steps its own share of task `generation`, then what is left of the others',
 * then counts what it ran done, once (a count per chunk passed the counter's cache line between
 * the cores at every chunk). */
static void run_chunks(task_pool *p, unsigned generation, int index) {
  int ran = 0;
  for (int k = 0; k < p->workers; ++k) ran += run_share(p, (index + k) % p->workers, generation, index);
  if (ran == 0) return;
  int total = p->item_count; /* read while the items run here are not yet counted: the task is current */
  if (atomic_fetch_add(&p->done_items, ran) + ran == total && /* seq_cst: see finish */
      index != 0 && atomic_load(&p->caller_asleep)) {
    pthread_mutex_lock(&p->lock);
    pthread_cond_signal(&p->done);
    pthread_mutex_unlock(&p->lock);
  }
}

bool task_pool_leave_cpu(int cpu) {
#if defined(__linux__)
  cpu_set_t allowed, others;
  if (cpu < 0 || cpu >= CPU_SETSIZE || pthread_getaffinity_np(pthread_self(), sizeof allowed, &allowed) != 0 ||
      !CPU_ISSET(cpu, &allowed) || CPU_COUNT(&allowed) < 2)
    return false;
  others = allowed;
  CPU_CLR(cpu, &others);
  /* Allowed elsewhere only, the thread is moved before the call returns; allowed its old CPUs
   * again, it stays where it is now. */
  if (pthread_setaffinity_np(pthread_self(), sizeof others, &others) != 0) return false;
  pthread_setaffinity_np(pthread_self(), sizeof allowed, &allowed);
  return true;
#else
  (void)cpu;
  return false;
#endif
}

/* A helper that slept was woken by the caller (enqueue), and Linux tends to wake a thread on the
 * waker's CPU when it expects them to share data. There the helper polls between tasks while the
 * caller, preempted by it, cannot hand out the next: the helper's poll runs out, it sleeps, the
 * caller wakes it again onto its own CPU, and so on. On the 2-core VM that cycle held 11–12 % of
 * the 100-car bench's steps back by more than 100 µs (714–1,331 sleeps in 10,000 steps); a
 * helper that leaves the caller's CPU when it wakes there broke it (51–63 sleeps), and two
 * threads took 599–703 ns a vehicle-step instead of 666–757 in the same runs. */
static void leave_callers_cpu(task_pool *p) {
#if defined(__linux__)
  int cpu = sched_getcpu();
  if (cpu >= 0 && cpu == atomic_load_explicit(&p->caller_cpu, memory_order_relaxed)) task_pool_leave_cpu(cpu);
#else
  (void)p;
#endif
}

static void *worker_main(void *arg) {
  worker_start start = *(worker_start *)arg;
  free(arg);
  task_pool *p = start.pool;
  unsigned seen = 0;
  for (;;) {
    unsigned now;
    if (!poll_for(p, seen, new_task, HELPER_POLL_NS)) {
      /* Sleep: the word is checked again under the lock, and enqueue publishes it before it
       * takes the lock to signal, so a task cannot slip by between the check and the wait. */
      pthread_mutex_lock(&p->lock);
      atomic_fetch_add(&p->sleepers, 1);
      while ((now = claim_generation(atomic_load(&p->share[0].word))) == seen && !atomic_load(&p->quit))
        pthread_cond_wait(&p->wake, &p->lock);
      atomic_fetch_sub(&p->sleepers, 1);
      pthread_mutex_unlock(&p->lock);
      leave_callers_cpu(p);
    }
    if (atomic_load(&p->quit)) break;
    seen = now = current_generation(p);
    run_chunks(p, now, start.index);
  }
  return NULL;
}

task_pool *task_pool_create(int workers) {
  if (workers < 1 || workers > MAX_WORKERS) return NULL;
  task_pool *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  for (int i = 0; i < MAX_WORKERS; ++i) atomic_init(&p->share[i].word, 0);
  atomic_init(&p->done_items, 0);
  atomic_init(&p->quit, false);
  atomic_init(&p->sleepers, 0);
  atomic_init(&p->caller_asleep, false);
  atomic_init(&p->caller_cpu, -1);
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
  /* The shares, thread i's [i·n/W, (i+1)·n/W); share 0 last, since its word announces the task.
   * Every share of the task before is used up (finish waited for all its items), so a helper
   * that reads a share before its word is replaced finds nothing to claim there. */
  unsigned long long gen = (unsigned long long)p->generation << (2 * CLAIM_ITEM_BITS);
  for (int i = p->workers - 1; i >= 0; --i) {
    long long begin = (long long)item_count * i / p->workers, end = (long long)item_count * (i + 1) / p->workers;
    atomic_store(&p->share[i].word, gen | (unsigned long long)end << CLAIM_ITEM_BITS | (unsigned long long)begin);
  } /* seq_cst: the fields above first, and before the sleepers load */
  if (atomic_load(&p->sleepers) > 0) {
#if defined(__linux__)
    atomic_store_explicit(&p->caller_cpu, sched_getcpu(), memory_order_relaxed); /* leave_callers_cpu */
#endif
    pthread_mutex_lock(&p->lock);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
  }
  run_chunks(p, p->generation, 0);
  return p;
}

/* Waits for the chunks the helpers claimed (the caller has run out of chunks to claim). */
static void finish(void *handle, void *user) {
  task_pool *p = user;
  (void)handle;
  if (!poll_for(p, 0, task_done, CALLER_POLL_NS)) {
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
