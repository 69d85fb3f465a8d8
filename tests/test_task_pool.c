/* The task pool (sim/task_pool.c) hands each item of each task to exactly one thread, whatever
 * the item count and thread count, with tasks following each other faster than a helper wakes;
 * and a world stepped on it gives the same state hash as one stepped on the calling thread. */
#include <stdatomic.h>
#include <string.h>

#include "grip/grip.h"
#include "task_pool.h"
#include "test.h"

#define MAX_ITEMS 5000

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

/* Every item of every task exactly once: 3,000 tasks of 1 to 5,000 items back to back (a fixed
 * pseudo-random sequence), on 2, 3 and 4 threads. */
static void every_item_once(void) {
  static counts c;
  for (int workers = 2; workers <= 4; ++workers) {
    task_pool *pool = task_pool_create(workers);
    CHECK(pool != NULL);
    if (!pool) return;
    grip_world_def def = grip_default_world_def();
    task_pool_attach(pool, &def);
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

static uint64_t run_world(int vehicles, int threads) {
  grip_world_def wd = grip_default_world_def();
  task_pool *pool = threads > 1 ? task_pool_create(threads) : NULL;
  if (pool) task_pool_attach(pool, &wd);
  grip_world *world = grip_create_world(&wd);
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

int main(void) {
  RUN_TEST(every_item_once);
  RUN_TEST(same_bits_on_any_thread_count);
  return TEST_RESULT();
}
