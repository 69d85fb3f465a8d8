/* What the threads stepping one world write is kept apart (docs/performance.md, "Twenty-ninth
 * session"): of the collision pass's per-slot arrays, those the stepping threads write at every
 * car each start on a 4,096-byte page of their own and the others on a 64-byte cache line, none
 * overlapping another or running past the block; growing the arrays keeps every slot's contents;
 * the collision pass's per-step fields do not share a cache line with the arrays' addresses; and
 * and on several workers a world of up to 4,096 slots steps worker 0's range of vehicles from
 * the top down and any other worker's from the bottom up, with the same result either way (one
 * worker, or a larger world: upwards). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collision.h"
#include "grip/grip.h"
#include "test.h"

typedef struct span {
  const char *name;
  uintptr_t start;
  size_t bytes;
  size_t align; /* what the start must be a multiple of */
} span;

static int by_start(const void *a, const void *b) {
  uintptr_t x = ((const span *)a)->start, y = ((const span *)b)->start;
  return (x > y) - (x < y);
}

/* The arrays of c, with what the stepping threads write (collision_begin_slot, _end_slot and the
 * wall pass: the pose at the start, the velocity at the end, the contact record, the reach, the
 * active flag and the walls' distance) on pages. */
static int spans_of(const collision_world *c, span out[]) {
  size_t n = (size_t)c->capacity, page = 4096, line = 64;
  int k = 0;
  out[k++] = (span){"start_position", (uintptr_t)c->start_position, n * sizeof *c->start_position, page};
  out[k++] = (span){"start_rotation", (uintptr_t)c->start_rotation, n * sizeof *c->start_rotation, page};
  out[k++] = (span){"end_velocity", (uintptr_t)c->end_velocity, n * sizeof *c->end_velocity, page};
  out[k++] = (span){"contacts", (uintptr_t)c->contacts, n * sizeof *c->contacts, page};
  out[k++] = (span){"reach_min", (uintptr_t)c->reach_min, 3 * n * sizeof *c->reach_min, page};
  out[k++] = (span){"reach_max", (uintptr_t)c->reach_max, 3 * n * sizeof *c->reach_max, page};
  out[k++] = (span){"active", (uintptr_t)c->active, n * sizeof *c->active, page};
  out[k++] = (span){"wall_clear", (uintptr_t)c->wall_clear, n * 3 * sizeof(double), page}; /* x, y, distance */
  out[k++] = (span){"order", (uintptr_t)c->order, n * sizeof *c->order, line};
  out[k++] = (span){"order_active", (uintptr_t)c->order_active, n * sizeof *c->order_active, line};
  out[k++] = (span){"near", (uintptr_t)c->near, n * sizeof *c->near, line};
  out[k++] = (span){"near_order", (uintptr_t)c->near_order, n * sizeof *c->near_order, line};
  out[k++] = (span){"box_min", (uintptr_t)c->box_min, 3 * n * sizeof *c->box_min, line};
  out[k++] = (span){"box_max", (uintptr_t)c->box_max, 3 * n * sizeof *c->box_max, line};
  /* (private records: their size at least, six bounds, a position, a rotation and a flag) */
  out[k++] = (span){"last_box", (uintptr_t)c->last_box, n * (13 * sizeof(double) + 1), line};
  out[k++] = (span){"hitched", (uintptr_t)c->hitched, 2 * n * sizeof *c->hitched, line};
  return k;
}

static void check_layout(const collision_world *c) {
  span s[16];
  int n = spans_of(c, s);
  int misaligned = 0, overlapping = 0, outside = 0;
  uintptr_t block = (uintptr_t)c->block;
  for (int i = 0; i < n; ++i) {
    if (s[i].start % s[i].align != 0) {
      misaligned++;
      fprintf(stderr, "  %s at %#lx, not a multiple of %zu\n", s[i].name, (unsigned long)s[i].start, s[i].align);
    }
    if (s[i].start < block || s[i].start + s[i].bytes > block + c->block_bytes) outside++;
  }
  qsort(s, (size_t)n, sizeof s[0], by_start);
  for (int i = 0; i + 1 < n; ++i)
    if (s[i].start + s[i].bytes > s[i + 1].start) overlapping++;
  CHECK(misaligned == 0);
  CHECK(overlapping == 0);
  CHECK(outside == 0);
  CHECK(block % 4096 == 0 && c->block_bytes % 4096 == 0);
  /* what the world reports holding: the block and one cache line per worker's wall count */
  CHECK(grip_collision_bytes(c) == c->block_bytes + (size_t)c->workers * 64);
}

/* Several capacities, the arrays grown from each to the next with every slot's record kept. */
static void arrays_apart(void) {
  collision_world c;
  memset(&c, 0, sizeof c);
  CHECK(grip_collision_set_workers(&c, 3));
  const int capacities[] = {1, 16, 100, 171, 1000, 4097};
  int kept_wrong = 0;
  for (int k = 0; k < 6; ++k) {
    int old = c.capacity;
    CHECK(grip_collision_reserve(&c, capacities[k]));
    CHECK(c.capacity == capacities[k]);
    check_layout(&c);
    for (int i = 0; i < old; ++i) { /* written below at the previous capacity */
      kept_wrong += c.start_position[i].x != i || c.reach_max[3 * i + 2] != -i || c.contacts[i].impacts != i ||
                    c.hitched[2 * i + 1] != i + 1 || c.active[i] != (i & 1);
    }
    for (int i = old; i < c.capacity; ++i) /* new slots start empty */
      kept_wrong += c.active[i] != 0 || c.hitched[2 * i] != -1 || c.contacts[i].impacts != 0;
    for (int i = 0; i < c.capacity; ++i) {
      c.start_position[i].x = i;
      c.reach_max[3 * i + 2] = -i;
      c.contacts[i].impacts = i;
      c.hitched[2 * i + 1] = i + 1;
      c.active[i] = (unsigned char)(i & 1);
    }
  }
  CHECK(kept_wrong == 0);
  CHECK(grip_collision_reserve(&c, 10)); /* smaller: nothing changes */
  CHECK(c.capacity == 4097);
  /* the pass's per-step fields start a cache line after the last field the workers read */
  CHECK((uintptr_t)&c.order_count % 64 == 0);
  CHECK((uintptr_t)&c.order_count >= (uintptr_t)&c.hitched + sizeof c.hitched);
  CHECK(sizeof c % 64 == 0); /* and what follows it in the world starts on a line of its own */
  grip_collision_free(&c);
}

/* A task system that runs every task inline as one given worker. */
typedef struct inline_worker {
  int worker;
} inline_worker;

static void *run_inline(grip_task_fn *task, int item_count, int min_range, void *task_context, void *user) {
  (void)min_range;
  task(0, item_count, ((inline_worker *)user)->worker, task_context);
  return NULL;
}

static void finish_nothing(void *handle, void *user) {
  (void)handle;
  (void)user;
}

/* A plane that records which car asks, by the ray's x (car k stands at x = 40 k). */
typedef struct order_ground {
  grip_plane plane;
  int *order;
  int count, capacity;
} order_ground;

static bool record_ray(void *context, const grip_ground_query *query, grip_vec3 origin, grip_vec3 direction,
                       double max_distance, grip_ground_hit *hit) {
  order_ground *g = context;
  int car = (int)lround(origin.x / 40.0);
  if ((g->count == 0 || g->order[g->count - 1] != car) && g->count < g->capacity) g->order[g->count++] = car;
  return grip_plane_raycast(&g->plane, query, origin, direction, max_distance, hit);
}

/* cars cars stepped 100 steps by a task system running every task inline as `worker`, of
 * `workers`; order[] gets the order in which the cars asked for the ground in the last step. */
static uint64_t run_order(int cars, int worker, int workers, int *order, int *count) {
  order_ground g = {grip_default_plane(), order, 0, cars + 1};
  inline_worker w = {worker};
  grip_world_def wd = grip_default_world_def();
  wd.ground = (grip_ground){record_ray, &g};
  wd.enqueue_task = run_inline;
  wd.finish_task = finish_nothing;
  wd.task_context = &w;
  wd.worker_count = workers;
  grip_world *world = grip_create_world(&wd);
  CHECK(world != NULL);
  if (!world) return 0;
  grip_vehicle_def car = grip_default_vehicle_def();
  grip_vehicle_input in = grip_default_vehicle_input();
  in.throttle = 0.6;
  for (int k = 0; k < cars; ++k) {
    grip_vehicle_id id = grip_create_vehicle(world, &car);
    grip_vehicle_place(world, id, 40.0 * k, 0.0, 0.0);
    grip_vehicle_set_input(world, id, &in);
  }
  int steps = cars > 100 ? 2 : 100; /* every step goes in the same order: a large world needs few */
  for (int s = 1; s < steps; ++s) grip_world_step(world, 0.005);
  g.count = 0; /* the last step recorded */
  grip_world_step(world, 0.005);
  *count = g.count;
  uint64_t hash = grip_world_state_hash(world);
  grip_destroy_world(world);
  return hash;
}

/* Counts the places where order[] is not 0, 1, ... n-1 (upwards) or n-1, ..., 0 (downwards). */
static int out_of_order(const int *order, int count, int n, bool downwards) {
  int wrong = count != n;
  for (int k = 0; k < n && k < count; ++k) wrong += order[k] != (downwards ? n - 1 - k : k);
  return wrong;
}

static void workers_step_in_their_order(void) {
  enum { SMALL = 7, LARGE = 4097 }; /* DOWNWARDS_MAX_SLOTS (world.c) is 4,096 */
  static int order[LARGE + 1];
  int count = 0;
  /* Two workers, a small world: worker 0 from the top down, worker 1 from the bottom up, and the
   * same state either way. */
  uint64_t h0 = run_order(SMALL, 0, 2, order, &count);
  CHECK(out_of_order(order, count, SMALL, true) == 0);
  uint64_t h1 = run_order(SMALL, 1, 2, order, &count);
  CHECK(out_of_order(order, count, SMALL, false) == 0);
  CHECK(h0 == h1);
  /* One worker: upwards (no other worker's slots to keep away from). */
  uint64_t h2 = run_order(SMALL, 0, 1, order, &count);
  CHECK(out_of_order(order, count, SMALL, false) == 0);
  CHECK(h2 == h0);
  /* Beyond DOWNWARDS_MAX_SLOTS: every worker upwards. */
  run_order(LARGE, 0, 2, order, &count);
  CHECK(out_of_order(order, count, LARGE, false) == 0);
}

int main(void) {
  RUN_TEST(arrays_apart);
  RUN_TEST(workers_step_in_their_order);
  return TEST_RESULT();
}
