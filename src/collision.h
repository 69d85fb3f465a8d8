/* Collisions between vehicles' chassis boxes and against the world's walls (docs/physics.md,
 * "Collisions"). A vehicle meets the walls on the thread that steps it, right after its step
 * (collision_end_slot): that touches only the vehicle and its own slot. The pairs of vehicles
 * are found and resolved after every vehicle has been stepped, on one thread, in a fixed
 * order. Not public. */
#ifndef GRIP_COLLISION_H
#define GRIP_COLLISION_H

#include <math.h>

#include "gmath.h"
#include "lanes.h"
#include "vehicle_internal.h"

/* One worker's count of wall contact points in a step, alone in its cache line. */
typedef struct worker_points {
  int points;
  char pad[64 - sizeof(int)];
} worker_points;

/* Per-slot arrays, sized with the world's vehicle capacity (grown only when a vehicle is
 * created). */
typedef struct collision_world {
  /* Set when the arrays are made or grown, read by the threads stepping the vehicles: kept apart
   * from the fields below, which the collision pass writes at every step, so that a helper
   * thread does not have to fetch these lines again from the caller's core at every step. */
  int capacity;
  int workers;
  void *block;                    /* the one allocation that holds every per-slot array below */
  size_t block_bytes;
  grip_vec3 *start_position;      /* CG at the start of the step */
  grip_quat *start_rotation;      /* rotation at the start of the step */
  grip_vec3 *end_velocity;        /* velocity after the vehicle step, before the contacts */
  grip_vehicle_contacts *contacts; /* what grip_vehicle_get_contacts reports */
  double *reach_min, *reach_max;  /* broad phase, first pass: 3 per slot, m, the bounds of the CG
                                     over the step widened by the box's reach (collision_end_slot) */
  unsigned char *active;          /* alive and in the world after its step: takes part in contacts */
  struct wall_clear *wall_clear;  /* per slot: the walls' distance from the CG where wall_pass last
                                     asked the barrier, and that position */
  worker_points *wall_points;     /* per worker of the world's task system: the wall contact points
                                     its share of the vehicles met in this step */
  bool pairs_possible;            /* two or more vehicles alive: the broad phase runs and needs the
                                     reaches (a lone car's step skips them); written when it changes */
  /* Only the collision pass reads these. */
  int *order;                     /* broad phase, first pass: the active slots sorted along the
                                     first pass's axis by their reach, order_count of them; the
                                     next step's sort starts from it */
  unsigned char *order_active;    /* per slot: active when the order was last made, of order_used
                                     slots: the slots in order */
  unsigned char *near;            /* per slot: its reach meets another's in this step's pass */
  int *near_order;                /* broad phase: the near slots as the first pass met them
                                     (near_count of them), then sorted by box_min */
  double *box_min, *box_max;      /* broad phase, second pass: 3 per slot, m, the chassis box's
                                     bounds over the step, taken for near slots only */
  struct pose_box *last_box;      /* per slot: the box's bounds at the pose they were last taken
                                     for, which is usually the next step's start pose */
  int *hitched;                   /* 2 per slot: the slots it is hitched to without collisions, -1 none */
  /* Written by the collision pass at every step, on cache lines of their own. */
  _Alignas(64) int order_count;
  int order_used;
  int first_axis;                 /* the first pass's sweep axis (0: x, 1: y), and its age in steps */
  unsigned axis_age;
  int near_count;
  int step_points, step_vehicle_points; /* contact points recorded in this step's pass, all and
                                           car-car: without any, the passes after the pairs
                                           need not read every slot's record */
  /* (the struct's size is a multiple of its 64-byte alignment: what follows it in grip_world
   * starts on a line of its own) */
} collision_world;

/* One wall-point count per worker (grip_world_def.worker_count, at least 1). False: out of
 * memory. */
bool grip_collision_set_workers(collision_world *c, int workers);

/* Grows the arrays to hold capacity slots, keeping their contents. False: out of memory (the
 * old arrays stay valid). */
bool grip_collision_reserve(collision_world *c, int capacity);
void grip_collision_free(collision_world *c);
/* Heap bytes held by the per-slot arrays. */
size_t grip_collision_bytes(const collision_world *c);

/* Hitched pairs that do not collide with each other (world.c, grip_create_hitch). */
void grip_collision_set_hitched(collision_world *c, int a, int b);
void grip_collision_clear_hitched(collision_world *c, int a, int b);

/* Clears a slot's contact record (a new vehicle). */
void grip_collision_reset_slot(collision_world *c, int slot);

/* Forgets every slot's wall distance (the walls were replaced). */
void grip_collision_forget_walls(collision_world *c);

/* The wall pass of collision_end_slot: the vehicle against def's barrier; the points recorded. */
int grip_collision_wall_pass(collision_world *c, vehicle *v, int slot, const grip_world_def *def, double dt);

#define CAR_SLOP 0.005 /* m of penetration left between two cars (as WALL_SLOP for walls) */

/* The coarse bounds of a car over the step: every point of its box lies within box_reach of
 * the CG (vehicle.c), so at both poses the box lies within the CG's bounds over the step, min
 * and max of the start and end CG, widened by box_reach and CAR_SLOP. They contain
 * swept_bounds' box, which is within those distances of the same CG, once widened by REACH_ROUND
 * for the rounding of both (a few ulps of the coordinates and of the reach). No rotation is
 * needed: each car's share of the broad phase is a few comparisons, and the exact boxes are
 * taken only where two reaches meet. */
#define REACH_ROUND 1e-12 /* relative: of |coordinate| and of the reach, far above the rounding's ~1e-15 */
static inline void grip_collision_reach_bounds(collision_world *c, int slot, const vehicle *v) {
  double reach = (v->type->box_reach + CAR_SLOP) * (1.0 + REACH_ROUND);
  grip_vec3 p0 = c->start_position[slot], p1 = v->position;
  lane lo = lane_min((lane){p0.x, p0.y}, (lane){p1.x, p1.y}), hi = lane_max((lane){p0.x, p0.y}, (lane){p1.x, p1.y});
  lane_store(&c->reach_min[3 * slot], lo - (reach + REACH_ROUND * lane_abs(lo)));
  lane_store(&c->reach_max[3 * slot], hi + (reach + REACH_ROUND * lane_abs(hi)));
  double lo_z = mind(p0.z, p1.z), hi_z = maxd(p0.z, p1.z);
  c->reach_min[3 * slot + 2] = lo_z - (reach + REACH_ROUND * fabs(lo_z));
  c->reach_max[3 * slot + 2] = hi_z + (reach + REACH_ROUND * fabs(hi_z));
}

/* Asks for a cache line the caller is about to write, in the exclusive state: x86's PREFETCHW
 * (CPUs without it execute its encoding as a no-op), written as assembly since a compiler given
 * no -march emits a read prefetch for __builtin_prefetch; the plain builtin elsewhere. */
static inline void grip_prefetch_for_write(const void *p) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __asm__ volatile("prefetchw %0" : : "m"(*(const char *)p));
#else
  __builtin_prefetch(p, 1, 3);
#endif
}

/* Per slot, around that vehicle's step (on the thread that steps it, while the vehicle is in
 * its cache): collision_begin_slot before it remembers the pose and clears the per-step counts;
 * collision_end_slot after it keeps what the collision pass needs of the vehicle in the
 * compact per-slot arrays (velocity, ground counts, whether it takes part, the bounds of its
 * reach over the step), so that the pass over all slots reads those instead of every
 * vehicle's cache lines, and resolves the vehicle's contacts with the walls (def's barrier); it
 * returns the wall contact points it recorded, for the worker's count. Both are called for every
 * slot below the world's used count, alive or not; inline in the world's step loop. */
static inline void grip_collision_begin_slot(collision_world *c, int slot, const vehicle *v) {
  /* The reach written after the step was read by the broad phase on the caller's core: ask for
   * its cache lines now, so that the stores after the step do not wait for them. */
  grip_prefetch_for_write(&c->reach_min[3 * slot]);
  grip_prefetch_for_write(&c->reach_min[3 * slot + 2]);
  grip_prefetch_for_write(&c->reach_max[3 * slot]);
  grip_prefetch_for_write(&c->reach_max[3 * slot + 2]);
  c->start_position[slot] = v->position;
  c->start_rotation[slot] = v->rotation;
  grip_vehicle_contacts *k = &c->contacts[slot];
  k->count = k->wall_count = k->vehicle_count = 0;
  k->impulse = 0.0;
}

static inline int grip_collision_end_slot(collision_world *c, int slot, vehicle *v, const grip_world_def *def,
                                         double dt) {
  c->end_velocity[slot] = v->velocity;
  c->contacts[slot].ground_count = v->ground_points;
  c->contacts[slot].ground_impulse = v->ground_impulse;
  /* A vehicle in forces mode has its collisions resolved by the caller's engine. */
  unsigned char active = v->alive && !v->out_of_world && v->def->chassis_mode == GRIP_CHASSIS_OWN;
  /* Written only when it changes: 64 slots share a cache line, and threads stepping neighbouring
   * slots would otherwise pass the line back and forth at every vehicle. */
  if (c->active[slot] != active) c->active[slot] = active;
  if (c->active[slot] && c->pairs_possible) grip_collision_reach_bounds(c, slot, v);
  return c->active[slot] && def->barrier.query ? grip_collision_wall_pass(c, v, slot, def, dt) : 0;
}


/* Before the vehicles' phase of a step: clears the workers' wall counts. */
void grip_collision_begin_step(collision_world *c);

/* After every slot's collision_end_slot: finds and resolves the vehicles' contacts with one
 * another. */
void grip_collision_step(collision_world *c, vehicle *vehicles, int used, const grip_world_def *def, double dt);

#endif
