#define _GNU_SOURCE /* sched_getcpu and the affinity calls (Linux); POSIX 2008 too */
#include "task_pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
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
/* A claim word: generation (16 bits), and the share's unclaimed items [next, end) (24 bits
 * each): a claim from the bottom raises next, one from the top lowers end (run_share).
 * Everything a claim decides on is in the one word, so a compare-and-swap can only take items
 * of the task that is current at that moment. The task word has the same generation bits and
 * the task's item count in the low 24. */
#define CLAIM_ITEM_BITS 24
#define CLAIM_ITEM_MASK ((1ull << CLAIM_ITEM_BITS) - 1)
#define CLAIM_MAX_ITEMS ((int)CLAIM_ITEM_MASK)
#define GENERATION_SHIFT (2 * CLAIM_ITEM_BITS)
/* A thread that has run out of its own work takes the last items of a share whose owner is
 * working on it (fewer than GATED_ITEMS left) only once the owner is late: after twice the time
 * those items take the thief itself, plus GATED_SLACK_NS. Each item taken from a working owner
 * moves its state to the thief's core and back at the next step, ~1,200 TSC ticks a car against
 * ~700 in the VM's slow phases, and the owner would have finished them at about that time; an
 * owner preempted for a time slice still has its items taken (docs/performance.md, "Thirtieth
 * session"). More items left than GATED_ITEMS, or an owner that has not started, are taken at
 * once. */
#define GATED_ITEMS 16
#define GATED_SLACK_NS 2000
/* ...and only from an owner that keeps up: one that has claimed, since the task began, at least
 * GATED_PACE_NUM/GATED_PACE_DEN of what the thief runs in that time at its own pace. The owner's
 * count leaves out its chunk in progress (one item, near a share's end), and what thieves took
 * from its share: an earlier rule judged the owner by the items left in its share, and so counted
 * what the thief itself had taken as the owner's progress. On this VM the two vCPUs at times run
 * up to 1.5x apart (docs/performance.md, "Twenty-eighth session"); with the owner on a vCPU 1.43x
 * slower, that rule took a few of its items and then waited for the rest, through most of the
 * 23,000 TSC ticks between the two threads' ends of a 78,000-tick step ("Thirty-first session").
 * 3/4 lies between that owner's 0.70 of the thief's pace, whose items are now shared, and an
 * owner at the same pace but a chunk or a late start behind, 0.8 or more (16 of 20 in
 * tests/test_task_pool.c's working_owner_keeps_its_last_items), who keeps them. */
#define GATED_PACE_NUM 3
#define GATED_PACE_DEN 4

/* Cache lines of their own, 64 bytes apart and aligned (the pool is allocated so): what one
 * thread writes at every task is never on a line another reads or writes for a different
 * reason. */
#define LINE 64

/* One thread's share of the current task. */
typedef struct share_claim {
  _Alignas(LINE) atomic_ullong word; /* generation << 48 | end << 24 | next */
} share_claim;

/* The generation whose own share a thread has finished: what a thief waiting for its last
 * items polls, on a line apart from the claim word, which the owner writes at every claim. */
typedef struct share_finished {
  _Alignas(LINE) atomic_uint generation;
} share_finished;

struct task_pool {
  /* Read by every thread at every task; set at creation, or written only when they change. */
  int workers; /* including the caller */
  grip_task_fn *task;
  void *task_context;
  atomic_int sleepers;     /* helper threads asleep (or about to be) on wake */
  atomic_bool caller_asleep;
  atomic_int caller_cpu;   /* the CPU the caller last woke the helpers from (-1: unknown) */
  atomic_bool quit;
  /* The task word: generation << 48 | item count, written by the caller once a task. */
  _Alignas(LINE) atomic_ullong task_word;
  /* Items the helpers have run since the pool was made: a helper adds its items once a share it
   * took any from. The caller counts its own apart, so this line passes from core to core only
   * when a helper has something to say. */
  _Alignas(LINE) atomic_ullong helper_items;
  /* The caller's alone. */
  _Alignas(LINE) unsigned generation;    /* the caller's count of tasks, 1..0xffff */
  unsigned long long helper_items_expected; /* helper_items once the current task is done */
  share_claim share[MAX_WORKERS];        /* share[0] is the caller's */
  share_finished finished[MAX_WORKERS];
  pthread_mutex_t lock;
  pthread_cond_t wake;     /* a new task or quit */
  pthread_cond_t done;     /* the helpers' items reached what the caller waits for while it slept */
  pthread_t threads[MAX_WORKERS];
};

typedef struct worker_start {
  task_pool *pool;
  int index;
} worker_start;

static unsigned word_generation(unsigned long long w) { return (unsigned)(w >> GENERATION_SHIFT); }
static int word_next(unsigned long long w) { return (int)(w & CLAIM_ITEM_MASK); }
static int word_end(unsigned long long w) { return (int)((w >> CLAIM_ITEM_BITS) & CLAIM_ITEM_MASK); }

/* The generation before g (1..0xffff; 0 is "nothing yet"). */
static unsigned previous_generation(unsigned g) { return g == 1 ? 0xffffu : g - 1; }

/* A new task is out (or the pool quits). */
static bool new_task(task_pool *p, unsigned long long seen) {
  return word_generation(atomic_load_explicit(&p->task_word, memory_order_acquire)) != seen ||
         atomic_load_explicit(&p->quit, memory_order_relaxed);
}

/* The helpers have run every item of the current task the caller did not. */
static bool helpers_done(task_pool *p, unsigned long long expected) {
  return atomic_load_explicit(&p->helper_items, memory_order_acquire) >= expected;
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

/* Polls until stop(p, arg) says to, or budget_ns has passed: returns true when stopped. */
typedef bool poll_fn(task_pool *p, unsigned long long arg);

static bool poll_for(task_pool *p, unsigned long long arg, poll_fn *stop, long long budget_ns) {
  long long start = -1;
  for (int polls = 0;; ++polls) {
    if (stop(p, arg)) return true;
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

/* The claim word of share j of a task of n items on the pool's threads, before any claim: thread
 * j's [j·n/W, (j+1)·n/W). */
static unsigned long long opened_share(const task_pool *p, int j, unsigned generation, int n) {
  long long begin = (long long)n * j / p->workers, end = (long long)n * (j + 1) / p->workers;
  return (unsigned long long)generation << GENERATION_SHIFT | (unsigned long long)end << CLAIM_ITEM_BITS |
         (unsigned long long)begin;
}

/* Waits, polling, until share j's owner has finished it in task `generation` (true) or until
 * `deadline` (false). The owner may have finished this task's share and the next tasks' since
 * (the helpers' counts do not wait for their stealing), so any change of its finished
 * generation from what it was when the wait began ends the wait: the owner writes this task's
 * before any later one. */
static bool wait_for_owner(task_pool *p, int j, unsigned generation, long long deadline) {
  unsigned before = atomic_load_explicit(&p->finished[j].generation, memory_order_acquire);
  if (before == generation) return true;
  for (int polls = 1;; ++polls) {
    if (atomic_load_explicit(&p->finished[j].generation, memory_order_acquire) != before) return true;
    if (polls % POLLS_PER_CLOCK == 0 && monotonic_ns() >= deadline) return false;
    poll_pause();
  }
}

/* Claims and runs chunks of share j of task `generation` (n items) until none is left there;
 * returns the items it ran. task_start_ns is when this thread began the task (monotonic_ns) and
 * per_item_ns what an item of its own share took it (0: unknown), for the wait before taking
 * another's last items.
 *
 * A share's word is opened for the task by the first thread to look at it (its owner, nearly
 * always): the caller publishes only the task word, and the line of a helper's share stays in
 * that helper's core. A word still at the task before's generation is opened by a
 * compare-and-swap, so it is opened once; every share is opened in every task (the caller
 * looks at each before the task can end), so a word is always at the current generation or the
 * one before it. A claim succeeds only against the current word of the share, and a task
 * cannot end before its claimed items are counted done (run_chunks), so the task and its
 * context read after a claim are that task's. Which thread steps which vehicle does not change
 * a world's results (each vehicle's step reads only itself).
 *
 * The caller claims its own share (the first, share 0) from the top down and the helpers theirs
 * from the bottom up, so the two streams of work move away from the boundary between their
 * shares (a world steps worker 0's ranges from the top down too, world.c); a thread that takes
 * chunks of another's share takes them from the other end, away from where its owner works. */
static int run_share(task_pool *p, int j, unsigned generation, int n, int index, long long task_start_ns,
                     double per_item_ns) {
  int ran = 0;
  bool owner = j == index, from_top = owner ? j == 0 : j != 0, waited = false;
  unsigned long long opened = opened_share(p, j, generation, n);
  unsigned long long w = atomic_load_explicit(&p->share[j].word, memory_order_acquire);
  for (;;) {
    unsigned g = word_generation(w);
    if (g != generation) {
      if (g != previous_generation(generation) && g != 0) return ran; /* a later task: its threads take it */
      if (!atomic_compare_exchange_weak_explicit(&p->share[j].word, &w, opened, memory_order_acq_rel,
                                                 memory_order_acquire))
        continue; /* w now holds the current word */
      w = opened;
    }
    int end = word_end(w), next = word_next(w);
    if (next >= end) return ran;
    /* Another's share with its last items left and its owner at work on it, and a pace of this
     * thread's own to go by: the items the owner has claimed (the owner claims from its own end,
     * thieves from the other), and whether that keeps up with this thread's pace. */
    int owner_claimed = j == 0 ? word_end(opened) - end : next - word_next(opened);
    if (!owner && !waited && end - next < GATED_ITEMS && owner_claimed > 0 && per_item_ns > 0.0) {
      long long now = monotonic_ns();
      double owner_ns = (double)(owner_claimed - 1) * per_item_ns; /* at this thread's pace */
      if (owner_ns * GATED_PACE_DEN >= (double)(now - task_start_ns) * GATED_PACE_NUM) {
        waited = true;
        long long deadline = now + (long long)(2.0 * (end - next) * per_item_ns) + GATED_SLACK_NS;
        if (wait_for_owner(p, j, generation, deadline)) return ran;
        w = atomic_load_explicit(&p->share[j].word, memory_order_acquire);
        continue;
      }
    }
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

/* A helper's items of the current task done: counted, and the caller woken if it sleeps. */
static void count_helper_items(task_pool *p, int items) {
  atomic_fetch_add(&p->helper_items, (unsigned long long)items); /* seq_cst: see finish */
  if (atomic_load(&p->caller_asleep)) {
    pthread_mutex_lock(&p->lock);
    pthread_cond_signal(&p->done);
    pthread_mutex_unlock(&p->lock);
  }
}

/* Thread `index` steps its own share of the task in task_word, then what is left of the
 * others'; returns the items it ran. A helper counts its items done once a share it ran any of
 * (a count per chunk passed the counter's cache line between the cores at every chunk), its own
 * share's first, before it looks at the others. */
static int run_chunks(task_pool *p, unsigned long long task_word, int index) {
  unsigned generation = word_generation(task_word);
  int n = (int)(task_word & CLAIM_ITEM_MASK);
  long long start = monotonic_ns();
  int ran = run_share(p, index, generation, n, index, start, 0.0);
  double per_item_ns = ran > 0 ? (double)(monotonic_ns() - start) / ran : 0.0;
  atomic_store_explicit(&p->finished[index].generation, generation, memory_order_release);
  if (index != 0 && ran > 0) count_helper_items(p, ran);
  for (int k = 1; k < p->workers; ++k) {
    int taken = run_share(p, (index + k) % p->workers, generation, n, index, start, per_item_ns);
    if (index != 0 && taken > 0) count_helper_items(p, taken);
    ran += taken;
  }
  return ran;
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
    if (!poll_for(p, seen, new_task, HELPER_POLL_NS)) {
      /* Sleep: the word is checked again under the lock, and enqueue publishes it before it
       * looks for sleepers and takes the lock to signal, so a task cannot slip by between the
       * check and the wait. */
      pthread_mutex_lock(&p->lock);
      atomic_fetch_add(&p->sleepers, 1);
      while (word_generation(atomic_load(&p->task_word)) == seen && !atomic_load(&p->quit))
        pthread_cond_wait(&p->wake, &p->lock);
      atomic_fetch_sub(&p->sleepers, 1);
      pthread_mutex_unlock(&p->lock);
      leave_callers_cpu(p);
    }
    if (atomic_load(&p->quit)) break;
    unsigned long long task_word = atomic_load_explicit(&p->task_word, memory_order_acquire);
    seen = word_generation(task_word);
    run_chunks(p, task_word, start.index);
  }
  return NULL;
}

task_pool *task_pool_create(int workers) {
  if (workers < 1 || workers > MAX_WORKERS) return NULL;
  /* aligned as its lines are (struct task_pool), and every field zero */
  task_pool *p = aligned_alloc(_Alignof(task_pool), sizeof *p);
  if (!p) return NULL;
  memset(p, 0, sizeof *p);
  for (int i = 0; i < MAX_WORKERS; ++i) {
    atomic_init(&p->share[i].word, 0);
    atomic_init(&p->finished[i].generation, 0);
  }
  atomic_init(&p->task_word, 0);
  atomic_init(&p->helper_items, 0);
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
  /* Written only when they change (a world steps with the same task and context every step),
   * so that their line stays in every core's cache. */
  if (p->task != task) p->task = task;
  if (p->task_context != task_context) p->task_context = task_context;
  p->generation = (p->generation + 1) & 0xffffu;
  if (p->generation == 0) p->generation = 1; /* 0 is the helpers' "nothing seen yet" */
  /* The task word alone announces the task: each share's word is opened by the first thread to
   * look at it (run_share). Every share of the task before is used up (finish waited for all its
   * items). seq_cst: the fields above first, and before the sleepers load. */
  unsigned long long task_word = (unsigned long long)p->generation << GENERATION_SHIFT | (unsigned long long)item_count;
  atomic_store(&p->task_word, task_word);
  if (atomic_load(&p->sleepers) > 0) {
#if defined(__linux__)
    atomic_store_explicit(&p->caller_cpu, sched_getcpu(), memory_order_relaxed); /* leave_callers_cpu */
#endif
    pthread_mutex_lock(&p->lock);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
  }
  int ran = run_chunks(p, task_word, 0);
  /* Claims are exclusive: the helpers run exactly the items the caller did not. */
  p->helper_items_expected += (unsigned long long)(item_count - ran);
  return p;
}

/* Waits for the chunks the helpers claimed (the caller has run out of chunks to claim). */
static void finish(void *handle, void *user) {
  task_pool *p = user;
  (void)handle;
  unsigned long long expected = p->helper_items_expected;
  if (!poll_for(p, expected, helpers_done, CALLER_POLL_NS)) {
    pthread_mutex_lock(&p->lock);
    atomic_store(&p->caller_asleep, true); /* seq_cst: before the count is read again */
    while (atomic_load(&p->helper_items) < expected) pthread_cond_wait(&p->done, &p->lock);
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
