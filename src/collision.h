/* Collisions between vehicles' chassis boxes and against the world's walls (docs/physics.md,
 * "Collisions"). A vehicle meets the walls on the thread that steps it, right after its step
 * (collision_end_slot): that touches only the vehicle and its own slot. The pairs of vehicles
 * are found and resolved after every vehicle has been stepped, on one thread, in a fixed
 * order. Not public. */
#ifndef GRIP_COLLISION_H
#define GRIP_COLLISION_H

#include "vehicle_internal.h"

/* One worker's count of wall contact points in a step, alone in its cache line. */
typedef struct worker_points {
  int points;
  char pad[64 - sizeof(int)];
} worker_points;

/* Per-slot arrays, sized with the world's vehicle capacity (grown only when a vehicle is
 * created). */
typedef struct collision_world {
  int capacity;
  grip_vec3 *start_position;      /* CG at the start of the step */
  grip_quat *start_rotation;      /* rotation at the start of the step */
  grip_vec3 *end_velocity;        /* velocity after the vehicle step, before the contacts */
  grip_vehicle_contacts *contacts; /* what grip_vehicle_get_contacts reports */
  int *order;                     /* broad phase, first pass: the active slots sorted along the
                                     sweep axis by their reach, order_count of them; the next
                                     step's sort starts from it */
  int order_count;
  unsigned char *listed;          /* per slot: among order's first order_count */
  double *reach_min, *reach_max;  /* broad phase, first pass: 3 per slot, m, the bounds of the CG
                                     over the step widened by the box's reach (collision_end_slot) */
  unsigned char *near;            /* per slot: its reach meets another's in this step's pass */
  int *near_order;                /* broad phase, second pass: the near slots sorted by box_min */
  double *box_min, *box_max;      /* broad phase, second pass: 3 per slot, m, the chassis box's
                                     bounds over the step, taken for near slots only */
  struct pose_box *last_box;      /* per slot: the box's bounds at the pose they were last taken
                                     for, which is usually the next step's start pose */
  unsigned char *active;          /* alive and in the world after its step: takes part in contacts */
  int *hitched;                   /* 2 per slot: the slots it is hitched to without collisions, -1 none */
  struct wall_clear *wall_clear;  /* per slot: the walls' distance from the CG where wall_pass last
                                     asked the barrier, and that position */
  bool pairs_possible;            /* two or more vehicles alive this step: the broad phase runs and
                                     needs the reaches (a lone car's step skips them) */
  int step_points, step_vehicle_points; /* contact points recorded in this step's pass, all and
                                           car-car: without any, the passes after the pairs
                                           need not read every slot's record */
  worker_points *wall_points; /* per worker of the world's task system: the wall contact points
                                 its share of the vehicles met in this step */
  int workers;
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

/* Per slot, around that vehicle's step (on the thread that steps it, while the vehicle is in
 * its cache): collision_begin_slot before it remembers the pose and clears the per-step counts;
 * collision_end_slot after it keeps what the collision pass needs of the vehicle in the
 * compact per-slot arrays (velocity, ground counts, whether it takes part, the bounds of its
 * reach over the step), so that the pass over all slots reads those instead of every
 * vehicle's cache lines, and resolves the vehicle's contacts with the walls (def's barrier); it
 * returns the wall contact points it recorded, for the worker's count. Both are called for every slot below the
 * world's used count, alive or not. */
void grip_collision_begin_slot(collision_world *c, int slot, const vehicle *v);
int grip_collision_end_slot(collision_world *c, int slot, vehicle *v, const grip_world_def *def, double dt);

/* Before the vehicles' phase of a step: clears the workers' wall counts. */
void grip_collision_begin_step(collision_world *c);

/* After every slot's collision_end_slot: finds and resolves the vehicles' contacts with one
 * another. */
void grip_collision_step(collision_world *c, vehicle *vehicles, int used, const grip_world_def *def, double dt);

#endif
