/* The task pool (sim/task_pool.c) hands each item of each task to exactly one thread, whatever
 * the item count and thread count, with tasks following each other faster than a helper wakes
 * and slower than its poll lasts (it sleeps and is woken for each); a world stepped on it gives
 * the same state hash as one stepped on the calling thread, on a plane and between the walls of
 * a track, where each worker meets the walls for its own vehicles and counts their contact
 * points; the caller claims its share from the top down and a helper its own from the bottom up;
 * every item still runs once across the generation counter's wrap; a thread out of work leaves
 * a share's last items to an owner at work on them and keeping up, and shares them with one on a
 * slower CPU or takes them from one stalled in an item;
 * and, on Linux, a thread leaves a CPU when asked to, with its affinity as it was. */
#define _GNU_SOURCE /* sched_getcpu, the affinity calls (Linux) */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "grip/grip.h"
#include "grip/track.h"
#include "task_pool.h"
#include "test.h"

#define MAX_ITEMS 5000
#define PI 3.14159265358979323846

typedef struct counts {
  atomic_int hits[MAX_ITEMS];
  atomic_int ranges_bad;
  int workers;
} counts;

static void count_items(int start, int end, int worker, void *context) {
  counts *c = context;
  if (start < 0 || end > MAX_ITEMS || start >= end || worker < 0 || worker >= c->workers)
    atomic_fetch_add(&c->ranges_bad, 1);
  for (int i = start; i < end && i >= 0 && i < MAX_ITEMS; ++i) atomic_fetch_add(&c->hits[i], 1);
}

/* A pool of `workers` threads wired into *def (a default world definition); NULL (a failed
 * check) when it cannot be made. */
static task_pool *attached_pool(int workers, grip_world_def *def) {
  task_pool *pool = task_pool_create(workers);
  CHECK(pool != NULL);
  *def = grip_default_world_def();
  if (pool) task_pool_attach(pool, def);
  return pool;
}

/* Every item of every task exactly once: 3,000 tasks of 1 to 5,000 items back to back (a fixed
 * pseudo-random sequence), on 2, 3 and 4 threads. */
static void every_item_once(void) {
  static counts c;
  for (int workers = 2; workers <= 4; ++workers) {
    grip_world_def def;
    task_pool *pool = attached_pool(workers, &def);
    if (!pool) return;
    CHECK(def.worker_count == workers);
    unsigned seed = 12345u;
    int wrong = 0;
    for (int task = 0; task < 3000; ++task) {
      seed = seed * 1103515245u + 12345u;
      int n = 1 + (int)((seed >> 8) % MAX_ITEMS);
      if (task % 7 == 0) n = 1 + task % 13; /* some tiny tasks */
      for (int i = 0; i < n; ++i) atomic_store(&c.hits[i], 0);
      atomic_store(&c.ranges_bad, 0);
      c.workers = workers;
      void *h = def.enqueue_task(count_items, n, 1, &c, def.task_context);
      if (h) def.finish_task(h, def.task_context);
      for (int i = 0; i < n; ++i) wrong += atomic_load(&c.hits[i]) != 1;
      wrong += atomic_load(&c.ranges_bad);
    }
    CHECK(wrong == 0);
    task_pool_destroy(pool);
  }
}

/* A world from wd stepped on `threads` threads (*pool: NULL for one, else destroy it after the
 * world). */
static grip_world *world_on_threads(grip_world_def wd, int threads, task_pool **pool) {
  *pool = threads > 1 ? task_pool_create(threads) : NULL;
  if (*pool) task_pool_attach(*pool, &wd);
  return grip_create_world(&wd);
}

static uint64_t run_world(int vehicles, int threads) {
  task_pool *pool;
  grip_world *world = world_on_threads(grip_default_world_def(), threads, &pool);
  grip_vehicle_def car = grip_default_vehicle_def();
  for (int i = 0; i < vehicles; ++i) {
    grip_vehicle_id id = grip_create_vehicle(world, &car);
    grip_vehicle_place(world, id, 0.0, 30.0 * i, 0.0);
    grip_vehicle_input in = grip_default_vehicle_input();
    in.throttle = 0.2 + 0.8 * (i % 5) / 4.0;
    in.steering = 0.1 * ((i % 7) - 3);
    grip_vehicle_set_input(world, id, &in);
  }
  for (int k = 0; k < 300; ++k) grip_world_step(world, 0.002);
  uint64_t h = grip_world_state_hash(world);
  grip_destroy_world(world);
  task_pool_destroy(pool);
  return h;
}

/* A world of 2, 37 and 250 cars gives one state hash on 1, 2 and 3 threads. */
static void same_bits_on_any_thread_count(void) {
  int sizes[] = {2, 37, 250};
  for (int k = 0; k < 3; ++k) {
    uint64_t one = run_world(sizes[k], 1);
    CHECK(run_world(sizes[k], 2) == one);
    CHECK(run_world(sizes[k], 3) == one);
  }
}


/* Cars 12 m apart in two rows on a 12 m road between walls 15 m either side of the centre
 * line (a straight track of grip_default_track_segment_def), each sent at 15–30 m/s towards a
 * wall at ±30° from 1–5 m off the centre line: every car strikes one, at its own moment. Returns the
 * state hash after 1.5 s; *wall_steps counts the steps with wall contacts, *mismatched the steps
 * where the world's profile (the workers' counts summed) disagrees with the cars' own records. */
static uint64_t run_walls(int vehicles, int threads, int *wall_steps, int *mismatched) {
  grip_track_segment_def seg = grip_default_track_segment_def();
  seg.length = 12.0 * vehicles + 400.0;
  grip_track_def td = {&seg, 1, {0, 0, 0}, 0.0};
  grip_track *track = NULL;
  CHECK(grip_track_build(&td, &track) == GRIP_OK);
  grip_track_ground_context ctx;
  grip_world_def wd = grip_default_world_def();
  wd.ground = grip_track_ground(&ctx, track);
  wd.barrier = grip_track_barriers(&ctx, track);
  task_pool *pool;
  grip_world *world = world_on_threads(wd, threads, &pool);
  grip_world_enable_profile(world, true);
  grip_vehicle_def car = grip_default_vehicle_def();
  grip_vehicle_id *ids = calloc((size_t)vehicles, sizeof *ids);
  for (int i = 0; i < vehicles; ++i) {
    ids[i] = grip_create_vehicle(world, &car);
    double side = i % 2 ? 1.0 : -1.0, heading = side * PI / 6.0, speed = 15.0 + 2.5 * (i % 7);
    grip_vehicle_place(world, ids[i], 50.0 + 12.0 * (i / 2), side * (1.0 + (i % 5)), heading);
    grip_vehicle_set_velocity(world, ids[i], (grip_vec3){speed * cos(heading), speed * sin(heading), 0.0});
  }
  *wall_steps = *mismatched = 0;
  for (int k = 0; k < 300; ++k) {
    grip_world_step(world, 0.005);
    grip_profile p = grip_world_get_profile(world);
    int walls = 0;
    for (int i = 0; i < vehicles; ++i) {
      grip_vehicle_contacts c;
      grip_vehicle_get_contacts(world, ids[i], &c);
      walls += c.wall_count;
    }
    *wall_steps += walls > 0;
    *mismatched += p.wall_contacts != walls;
  }
  uint64_t h = grip_world_state_hash(world);
  free(ids);
  grip_destroy_world(world);
  task_pool_destroy(pool);
  grip_track_destroy(track);
  return h;
}

/* Between walls: 2, 37 and 120 cars give one state hash on 1, 2 and 3 threads, the walls are
 * struck in many steps, and the profile's wall points are the cars' own in every step. */
static void walls_on_any_thread_count(void) {
  int sizes[] = {2, 37, 120};
  for (int k = 0; k < 3; ++k) {
    int steps1, bad1, steps, bad;
    uint64_t one = run_walls(sizes[k], 1, &steps1, &bad1);
    CHECK(steps1 >= (sizes[k] > 2 ? 100 : 1));
    CHECK(bad1 == 0);
    for (int threads = 2; threads <= 3; ++threads) {
      CHECK(run_walls(sizes[k], threads, &steps, &bad) == one);
      CHECK(steps == steps1);
      CHECK(bad == 0);
    }
    printf("  %d cars: walls struck in %d of 300 steps\n", sizes[k], steps1);
  }
}

/* Busy for about `ns` (an item that takes a helper long enough to wake and claim its share). */
static void spin_ns(long ns) {
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  do clock_gettime(CLOCK_MONOTONIC, &b);
  while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < ns);
}

typedef struct woken_items {
  atomic_int hits[16];
  atomic_int ranges_bad;
  atomic_int helper_items, helper_apart; /* items the helper ran, and of them away from caller_cpu */
  int caller_cpu;
} woken_items;

static void slow_items(int start, int end, int worker, void *context) {
  woken_items *c = context;
  if (start < 0 || end > 16 || start >= end || worker < 0 || worker > 1) atomic_fetch_add(&c->ranges_bad, 1);
  for (int i = start; i < end && i >= 0 && i < 16; ++i) {
    atomic_fetch_add(&c->hits[i], 1);
    if (worker == 1) {
      atomic_fetch_add(&c->helper_items, 1);
#if defined(__linux__)
      atomic_fetch_add(&c->helper_apart, sched_getcpu() != c->caller_cpu);
#endif
    }
    spin_ns(50000);
  }
}

/* Tasks 1 ms apart, more than a helper polls (200 µs): it sleeps before each and is woken for
 * it, and every item still runs once. How many of the helper's items ran away from the caller's
 * CPU is printed, not checked: the scheduler may put them together again at any time. */
static void every_item_once_after_sleeps(void) {
  static woken_items c;
  grip_world_def def;
  task_pool *pool = attached_pool(2, &def);
  if (!pool) return;
  int wrong = 0;
  atomic_store(&c.helper_items, 0);
  atomic_store(&c.helper_apart, 0);
  for (int task = 0; task < 60; ++task) {
    struct timespec pause = {0, 1000000};
    nanosleep(&pause, NULL);
    int n = 2 + task % 15;
    for (int i = 0; i < n; ++i) atomic_store(&c.hits[i], 0);
    atomic_store(&c.ranges_bad, 0);
#if defined(__linux__)
    c.caller_cpu = sched_getcpu();
#endif
    void *h = def.enqueue_task(slow_items, n, 1, &c, def.task_context);
    if (h) def.finish_task(h, def.task_context);
    for (int i = 0; i < n; ++i) wrong += atomic_load(&c.hits[i]) != 1;
    wrong += atomic_load(&c.ranges_bad);
  }
  CHECK(wrong == 0);
  printf("  helper: %d items, %d of them off the caller's CPU\n", atomic_load(&c.helper_items),
         atomic_load(&c.helper_apart));
  task_pool_destroy(pool);
}

/* The order of the claims: the caller (worker 0) claims its own share, the first, from the top
 * down, and a helper its share from the bottom up; a thread taking chunks of another's share
 * takes them from the other end. Shares are [i·n/W, (i+1)·n/W). Each worker records the chunks
 * it ran in order; the items of one share are slow (20 µs) so that the other thread runs out of
 * its own share first and takes some of them. */
#define ORDER_ITEMS 64
#define ORDER_CHUNKS 256
typedef struct claim_order {
  int start[2][ORDER_CHUNKS], end[2][ORDER_CHUNKS], count[2];
  int slow_share; /* whose items are slow */
  int items;
} claim_order;

static void record_chunks(int start, int end, int worker, void *context) {
  claim_order *o = context;
  if (worker < 0 || worker > 1 || o->count[worker] >= ORDER_CHUNKS) return;
  o->start[worker][o->count[worker]] = start;
  o->end[worker][o->count[worker]] = end;
  o->count[worker]++;
  int half = o->items / 2;
  for (int i = start; i < end; ++i) spin_ns((i >= half) == (o->slow_share == 1) ? 20000 : 1000);
}

static void claims_move_apart(void) {
  static claim_order o;
  grip_world_def def;
  task_pool *pool = attached_pool(2, &def);
  if (!pool) return;
  int compared[2][2] = {{0, 0}, {0, 0}}, wrong = 0, covered_wrong = 0;
  for (int task = 0; task < 40; ++task) {
    memset(&o, 0, sizeof o);
    o.items = ORDER_ITEMS;
    o.slow_share = task % 2;
    void *h = def.enqueue_task(record_chunks, ORDER_ITEMS, 1, &o, def.task_context);
    if (h) def.finish_task(h, def.task_context);
    int hits[ORDER_ITEMS] = {0};
    for (int w = 0; w < 2; ++w) {
      int last[2] = {-1, -1};
      for (int k = 0; k < o.count[w]; ++k) {
        int share = o.start[w][k] >= ORDER_ITEMS / 2;
        if (o.end[w][k] > (share + 1) * ORDER_ITEMS / 2) wrong++; /* a chunk within one share */
        for (int i = o.start[w][k]; i < o.end[w][k]; ++i) hits[i]++;
        bool from_top = w == share ? share == 0 : share != 0;
        if (last[share] >= 0) {
          compared[w][w != share]++;
          if (from_top ? o.start[w][k] >= last[share] : o.start[w][k] <= last[share]) wrong++;
        }
        last[share] = o.start[w][k];
      }
    }
    for (int i = 0; i < ORDER_ITEMS; ++i) covered_wrong += hits[i] != 1;
  }
  CHECK(wrong == 0);
  CHECK(covered_wrong == 0);
  /* the order was checked on each thread's own share, and on chunks taken from the other's */
  CHECK(compared[0][0] > 0 && compared[1][0] > 0);
  CHECK(compared[0][1] + compared[1][1] > 0);
  printf("  chunk pairs compared: caller %d own, %d taken; helper %d own, %d taken\n", compared[0][0],
         compared[0][1], compared[1][0], compared[1][1]);
  task_pool_destroy(pool);
}

/* Every item once across the generation counter's wrap: 140,000 tasks (the claim words carry
 * 16 bits of it, so it wraps twice) of 1 to 40 items, on 2 and 3 threads. A share's word is
 * opened for a task only from the generation before it (run_share), so a wrong step at the wrap
 * runs items twice, or never and hangs. */
static void every_item_once_across_wraps(void) {
  static counts c;
  for (int workers = 2; workers <= 3; ++workers) {
    grip_world_def def;
    task_pool *pool = attached_pool(workers, &def);
    if (!pool) return;
    c.workers = workers;
    int wrong = 0;
    for (int task = 0; task < 140000; ++task) {
      int n = 1 + task % 40;
      for (int i = 0; i < n; ++i) atomic_store_explicit(&c.hits[i], 0, memory_order_relaxed);
      void *h = def.enqueue_task(count_items, n, 1, &c, def.task_context);
      if (h) def.finish_task(h, def.task_context);
      for (int i = 0; i < n; ++i) wrong += atomic_load_explicit(&c.hits[i], memory_order_relaxed) != 1;
    }
    wrong += atomic_load(&c.ranges_bad);
    CHECK(wrong == 0);
    task_pool_destroy(pool);
  }
}

/* Items that sleep for their time (a thread asleep leaves the CPU to the other, so a loaded
 * machine delays neither), recording which worker ran each. The shares are [0, 20) and [20, 40). */
#define GATE_ITEMS 40
#define HELPER_FIRST (GATE_ITEMS / 2)
typedef struct gated_items {
  atomic_int worker[GATE_ITEMS];
  long caller_item_ns, helper_item_ns; /* an item on either thread (a slower vCPU: the helper's) */
  int stall_item;                      /* the helper's item that takes stall_ns when it runs it */
  long stall_ns;
} gated_items;

static void sleep_ns(long ns) {
  struct timespec t = {ns / 1000000000L, ns % 1000000000L};
  while (nanosleep(&t, &t) != 0) {
  }
}

static void gated_item(int start, int end, int worker, void *context) {
  gated_items *g = context;
  for (int i = start; i < end; ++i) {
    atomic_store(&g->worker[i], worker);
    sleep_ns(worker == 0 ? g->caller_item_ns : i == g->stall_item ? g->stall_ns : g->helper_item_ns);
  }
}

/* Runs `tasks` such tasks on two threads, each once the helper is polling (a task of two quick
 * items just before); counts in *present those the helper took part in (it ran its first item)
 * and returns how many of those ran every item of [from, to) on `worker`. */
static int gated_tasks(const gated_items *times, int tasks, int from, int to, int worker, int *present) {
  static gated_items g, warm;
  g.caller_item_ns = times->caller_item_ns;
  g.helper_item_ns = times->helper_item_ns;
  g.stall_item = times->stall_item;
  g.stall_ns = times->stall_ns;
  warm.caller_item_ns = warm.helper_item_ns = 1000;
  warm.stall_item = -1;
  *present = 0;
  grip_world_def def;
  task_pool *pool = attached_pool(2, &def);
  if (!pool) return 0;
  int matched = 0;
  for (int task = 0; task < tasks; ++task) {
    void *h = def.enqueue_task(gated_item, 2, 1, &warm, def.task_context);
    if (h) def.finish_task(h, def.task_context);
    for (int i = 0; i < GATE_ITEMS; ++i) atomic_store(&g.worker[i], -1);
    h = def.enqueue_task(gated_item, GATE_ITEMS, 1, &g, def.task_context);
    if (h) def.finish_task(h, def.task_context);
    if (atomic_load(&g.worker[HELPER_FIRST]) != 1) continue; /* the helper was not there */
    ++*present;
    bool all = true;
    for (int i = from; i < to; ++i) all = all && atomic_load(&g.worker[i]) == worker;
    matched += all;
  }
  task_pool_destroy(pool);
  return matched;
}

/* A thread that has run out of work does not take the last items (fewer than 16) of a share
 * whose owner is working through them and keeping up: it waits up to twice the time they take
 * it. Items of 3 ms, the helper's first 10.5 ms (its first chunk is items 20–23): when the
 * caller has run its 20 items (60 ms), the helper is in item 37 with 38–39 left, 7.5 ms of work
 * with the one it is in, within the caller's wait of 12 ms. It keeps up: 17 items claimed before
 * the one it is in, where the caller's pace would have run 20 (3/4 of that is 15). Taken at once
 * (as before the wait), item 39 would run on the caller. */
static void working_owner_keeps_its_last_items(void) {
  gated_items times = {.caller_item_ns = 3000000, .helper_item_ns = 3000000, .stall_item = HELPER_FIRST,
                       .stall_ns = 10500000};
  int present, kept = gated_tasks(&times, 6, HELPER_FIRST, GATE_ITEMS, 1, &present);
  /* one task in six may be disturbed (the helper held off its CPU for over 5 ms) */
  CHECK(present >= 4);
  CHECK(kept >= present - 1);
  printf("  the helper kept all of its share in %d of %d tasks it ran\n", kept, present);
}

/* ...but an owner on a slower CPU has its last items shared at once, and goes on sharing them
 * while it lags. Helper items of 1.5 ms against the caller's 1 ms leave the helper 6 items
 * (34–39) when the caller has run its 20, and 13 claimed before the one it is in, under 3/4 of
 * the caller's 20: the caller takes item 39 then. At 21 ms the helper has claimed 15 where the
 * caller would have run 21, still under 3/4 of its pace, so the caller goes on (38, 37, then 36)
 * while the helper runs 34 and 35, and the task ends at ~25 ms. Without the owner's pace the
 * caller would wait up to 12 ms and the helper finish them all in ~10; with the thirtieth
 * session's rule, which judged the helper by the items left in its share (4 after the caller's
 * theft), the caller took 39 and waited for the helper to run 35–38 itself, to ~28.5 ms. */
static void slow_owner_shares_its_last_items(void) {
  gated_items times = {.caller_item_ns = 1000000, .helper_item_ns = 1500000, .stall_item = -1, .stall_ns = 0};
  int present, shared = gated_tasks(&times, 10, GATE_ITEMS - 3, GATE_ITEMS, 0, &present);
  /* The helper's 13 claims stand only 2 under 3/4 of the caller's pace: a sleep that overshoots by
   * a few hundred µs on a loaded machine (ThreadSanitizer beside the rest of the suite) brings
   * the two paces within the rule's margin. Such a task may go either way: 4 of 6 were seen once
   * in a fresh clone's `make test`. Most must share, where the thirtieth session's rule shared
   * in none (0 of 6). */
  CHECK(present >= 6);
  CHECK(2 * shared > present);
  printf("  the caller ran the slow helper's last 3 items in %d of %d tasks\n", shared, present);
}

/* ...and an owner stalled inside an item (50 ms, as a thread preempted for a time slice) has its
 * last items taken: helper items of 0.1 ms reach item 36 long before the caller has run its 20 of
 * 1 ms; item 36 stalls, and the caller, after waiting twice the 3 items' time at its own pace
 * plus 2 µs, runs 37–39. With no deadline the helper would run them after its stall. */
static void stalled_owner_loses_its_last_items(void) {
  gated_items times = {.caller_item_ns = 1000000, .helper_item_ns = 100000, .stall_item = 36, .stall_ns = 50000000};
  int present, taken = gated_tasks(&times, 4, 37, GATE_ITEMS, 0, &present);
  CHECK(present >= 2);
  CHECK(taken == present);
  printf("  the caller took the stalled helper's last 3 items in %d of %d tasks\n", taken, present);
}

#if defined(__linux__)
/* task_pool_leave_cpu from each CPU the thread may use: it runs elsewhere after, with the same
 * affinity; allowed one CPU, or asked to leave one it is not allowed or none, it stays. */
static void leaving_a_cpu(void) {
  cpu_set_t allowed, now, one;
  CHECK(pthread_getaffinity_np(pthread_self(), sizeof allowed, &allowed) == 0);
  int cpus = CPU_COUNT(&allowed), tried = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &allowed)) continue;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    CHECK(pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0); /* onto cpu */
    CHECK(sched_getcpu() == cpu);
    CHECK(!task_pool_leave_cpu(cpu)); /* cpu is all it may use */
    CHECK(sched_getcpu() == cpu);
    CHECK(pthread_getaffinity_np(pthread_self(), sizeof now, &now) == 0 && CPU_EQUAL(&now, &one));
    CHECK(pthread_setaffinity_np(pthread_self(), sizeof allowed, &allowed) == 0); /* it stays on cpu */
    CHECK(task_pool_leave_cpu(cpu) == (cpus >= 2));
    if (cpus >= 2) CHECK(sched_getcpu() != cpu);
    CHECK(pthread_getaffinity_np(pthread_self(), sizeof now, &now) == 0 && CPU_EQUAL(&now, &allowed));
    ++tried;
  }
  CHECK(tried == cpus);
  CHECK(!task_pool_leave_cpu(-1));
  CHECK(!task_pool_leave_cpu(CPU_SETSIZE));
  int outside = -1;
  for (int cpu = 0; cpu < CPU_SETSIZE && outside < 0; ++cpu)
    if (!CPU_ISSET(cpu, &allowed)) outside = cpu;
  if (outside >= 0) CHECK(!task_pool_leave_cpu(outside));
  printf("  left each of %d CPUs\n", tried);
}
#endif

int main(void) {
  RUN_TEST(every_item_once);
  RUN_TEST(every_item_once_after_sleeps);
  RUN_TEST(claims_move_apart);
  RUN_TEST(every_item_once_across_wraps);
  RUN_TEST(working_owner_keeps_its_last_items);
  RUN_TEST(slow_owner_shares_its_last_items);
  RUN_TEST(stalled_owner_loses_its_last_items);
#if defined(__linux__)
  RUN_TEST(leaving_a_cpu);
#endif
  RUN_TEST(same_bits_on_any_thread_count);
  RUN_TEST(walls_on_any_thread_count);
  return TEST_RESULT();
}
