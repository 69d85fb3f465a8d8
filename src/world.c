/* The world: vehicle storage with generational handles, the fixed step, queries. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collision.h"
#include "gmath.h"
#include "hitch.h"
#include "isa.h"
#include "timer.h"
#include "vehicle_internal.h"

/* What the threads stepping the vehicles are told of a step (step_range). */
typedef struct step_task {
  grip_world *world;
  double dt;
  bool worker0_downwards;
} step_task;

struct grip_world {
  grip_world_def def;
  step_task step; /* the step's task: its world set at creation, the rest written only when it
                     changes (grip_world_step) */
  grip_plane default_plane; /* the ground when the caller gives none */
  vehicle *vehicles;
  vehicle_cold *colds; /* per slot, what a vehicle's step does not read (vehicle.cold points here) */
  int capacity;
  int used; /* slots ever used (alive or free) */
  int alive;
  collision_world collision; /* contacts and their scratch space, per slot */
  vehicle_type_registry types; /* car types shared by the vehicles (vehicle_type.c) */
  bool profiling;               /* grip_world_enable_profile */
  grip_profile profile;         /* zeros while not profiling */
  hitch *hitches;               /* slots, alive or free (grip_create_hitch) */
  int hitch_used, hitch_capacity;
};

#define HITCH_VELOCITY_ITERATIONS 4 /* Gauss–Seidel sweeps: one is exact for a lone hitch */
#define HITCH_POSITION_ITERATIONS 4
#define HITCH_TOLERANCE 1e-5        /* m: the position pass stops once every gap is under it */

grip_world_def grip_default_world_def(void) {
  return (grip_world_def){.gravity = {0.0, 0.0, -9.81},
                          .air_density = 1.29,
                          .ground = {0, 0},
                          .vehicle_capacity = 16,
                          .enqueue_task = 0,
                          .finish_task = 0,
                          .task_context = 0,
                          .worker_count = 1,
                          .barrier = {.query = 0, .context = 0, .distance_rate = 0.0},
                          .restitution = 0.3,
                          .friction = 0.5,
                          .bounds_min = {-INFINITY, -INFINITY, -INFINITY},
                          .bounds_max = {INFINITY, INFINITY, INFINITY},
                          .void_depth = 1000.0,
                          .max_ground_slope = GRIP_DEFAULT_MAX_GROUND_SLOPE};
}

grip_world *grip_create_world(const grip_world_def *def) {
  if (!def || !finite3_ok(def->gravity) || !(def->air_density >= 0.0) || def->vehicle_capacity < 0 ||
      !(def->restitution >= 0.0 && def->restitution <= 1.0) || !(def->friction >= 0.0 && isfinite(def->friction)) ||
      !(def->bounds_min.x < def->bounds_max.x && def->bounds_min.y < def->bounds_max.y &&
        def->bounds_min.z < def->bounds_max.z) ||
      !(def->void_depth > 0.0 && isfinite(def->void_depth)) ||
      !(def->max_ground_slope > 0.0 && def->max_ground_slope <= 0.5 * GRIP_PI))
    return NULL;
  /* Aligned as its type asks (the collision pass's per-step fields sit on cache lines of their
   * own, collision.h), which calloc does not promise. */
  grip_world *w = aligned_alloc(_Alignof(grip_world), sizeof *w);
  if (!w) return NULL;
  memset(w, 0, sizeof *w);
  w->def = *def;
  w->step.world = w;
  w->default_plane = grip_default_plane();
  if (!w->def.ground.raycast) w->def.ground = grip_plane_ground(&w->default_plane);
  w->capacity = def->vehicle_capacity > 0 ? def->vehicle_capacity : 16;
  w->vehicles = calloc((size_t)w->capacity, sizeof *w->vehicles);
  w->colds = calloc((size_t)w->capacity, sizeof *w->colds);
  if (!w->vehicles || !w->colds || !grip_collision_reserve(&w->collision, w->capacity) ||
      !grip_collision_set_workers(&w->collision, w->def.enqueue_task ? w->def.worker_count : 1)) {
    grip_collision_free(&w->collision);
    free(w->colds);
    free(w->vehicles);
    free(w);
    return NULL;
  }
  return w;
}

void grip_destroy_world(grip_world *world) {
  if (!world) return;
  for (int i = 0; i < world->used; ++i)
    if (world->vehicles[i].alive) grip_destroy_vehicle(world, (grip_vehicle_id){(uint32_t)i + 1, world->vehicles[i].generation});
  grip_collision_free(&world->collision);
  grip_vehicle_type_registry_free(&world->types);
  free(world->hitches);
  free(world->colds);
  free(world->vehicles);
  free(world);
}

void grip_world_set_ground(grip_world *world, grip_ground ground) {
  world->def.ground = ground.raycast ? ground : grip_plane_ground(&world->default_plane);
}

grip_ground grip_world_get_ground(const grip_world *world) { return world->def.ground; }

void grip_world_set_barrier(grip_world *world, grip_barrier barrier) {
  world->def.barrier = barrier.query ? barrier : (grip_barrier){.query = 0, .context = 0, .distance_rate = 0.0};
  grip_collision_forget_walls(&world->collision); /* what the old walls said proves nothing now */
}

static vehicle *lookup(const grip_world *world, grip_vehicle_id id) {
  if (!world || id.index == 0 || (int)id.index > world->used) return NULL;
  vehicle *v = &world->vehicles[id.index - 1];
  return v->alive && v->generation == id.generation ? v : NULL;
}

bool grip_vehicle_is_valid(const grip_world *world, grip_vehicle_id id) { return lookup(world, id) != NULL; }

int grip_world_vehicle_count(const grip_world *world) { return world->alive; }

/* An array of `capacity` elements of `size` bytes grown to `grown`, the new elements zeroed
 * (slot arrays: a zeroed slot is a dead one of generation 0); NULL without memory, the array
 * then unchanged. */
static void *grow_zeroed(void *array, size_t size, int capacity, int grown) {
  char *more = realloc(array, (size_t)grown * size);
  if (more) memset(more + (size_t)capacity * size, 0, (size_t)(grown - capacity) * size);
  return more;
}

grip_vehicle_id grip_create_vehicle(grip_world *world, const grip_vehicle_def *def) {
  if (!world || !def || grip_vehicle_def_validate(def, NULL, 0) != GRIP_OK) return GRIP_NULL_VEHICLE;
  /* The car type (definition, derived constants, tyre tables, full MF parameters) is shared by
   * every vehicle created from an equal definition; a new one is the only allocation. */
  const vehicle_type *type = grip_vehicle_type_acquire(&world->types, def, world->def.gravity);
  if (!type) return GRIP_NULL_VEHICLE;
  /* The per-wheel state, sized for this type's wheel count (the vehicle's own allocation). */
  vehicle wheels;
  memset(&wheels, 0, sizeof wheels);
  if (!grip_vehicle_alloc_wheels(&wheels, type, world->def.moving_ground)) {
    grip_vehicle_type_release(&world->types, type);
    return GRIP_NULL_VEHICLE;
  }
  int slot = -1;
  if (world->alive < world->used) /* a free slot to reuse (else creating N cars costs N²) */
    for (int i = 0; i < world->used; ++i)
      if (!world->vehicles[i].alive) {
        slot = i;
        break;
      }
  if (slot < 0) {
    if (world->used == world->capacity) {
      int grown = world->capacity * 2;
      if (!grip_collision_reserve(&world->collision, grown)) {
        grip_vehicle_free_wheels(&wheels);
        grip_vehicle_type_release(&world->types, type);
        return GRIP_NULL_VEHICLE;
      }
      vehicle_cold *colds = grow_zeroed(world->colds, sizeof *colds, world->capacity, grown);
      if (colds) {
        world->colds = colds; /* (it may have moved: each vehicle's pointer follows it) */
        for (int i = 0; i < world->used; ++i) world->vehicles[i].cold = &colds[i];
      }
      vehicle *more = colds ? grow_zeroed(world->vehicles, sizeof *more, world->capacity, grown) : NULL;
      if (!more) {
        grip_vehicle_free_wheels(&wheels);
        grip_vehicle_type_release(&world->types, type);
        return GRIP_NULL_VEHICLE;
      }
      world->vehicles = more;
      world->capacity = grown;
    }
    slot = world->used++;
  }
  vehicle *v = &world->vehicles[slot];
  uint32_t generation = v->generation + 1;
  memset(v, 0, sizeof *v);
  v->generation = generation;
  v->alive = true;
  v->wheel_count = wheels.wheel_count;
  v->wheels = wheels.wheels;
  v->wheel_force = wheels.wheel_force;
  v->cold = &world->colds[slot];
  memset(v->cold, 0, sizeof *v->cold);
  v->diffs = wheels.diffs;
  v->tyres = wheels.tyres;
  v->ground_motion = wheels.ground_motion;
  v->ground_hint = wheels.ground_hint;
  v->wheel_bytes = wheels.wheel_bytes;
  grip_vehicle_init(v, type, def->pose, def->velocity);
  /* The world's wall slope as the cosine the step compares normals with (one cos per vehicle
   * created, none per step). */
  v->ground_min_up = cos(world->def.max_ground_slope);
  grip_vehicle_forget_ground(v);
  grip_collision_reset_slot(&world->collision, slot);
  world->alive++;
  return (grip_vehicle_id){(uint32_t)slot + 1, generation};
}

static void unlink_hitch(grip_world *world, hitch *h);

void grip_destroy_vehicle(grip_world *world, grip_vehicle_id id) {
  vehicle *v = lookup(world, id);
  if (!v) return;
  int slot = (int)id.index - 1;
  for (int i = 0; i < world->hitch_used; ++i) {
    hitch *h = &world->hitches[i];
    if (h->alive && (h->slot_tow == slot || h->slot_trailer == slot)) unlink_hitch(world, h);
  }
  grip_vehicle_type_release(&world->types, v->type);
  grip_vehicle_free_wheels(v);
  v->type = NULL;
  v->def = NULL;
  v->alive = false;
  world->alive--;
}

const char *grip_step_instruction_set(void) {
#if GRIP_HOT_CLONES_BUILT
  /* the test the copies' resolvers make (src/isa.h) */
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) return "avx2";
#endif
  return "baseline";
}

size_t grip_world_memory(const grip_world *world, size_t *shared) {
  if (!world) return 0;
  size_t types = grip_vehicle_type_registry_bytes(&world->types);
  if (shared) *shared = types;
  size_t wheels = 0;
  for (int i = 0; i < world->used; ++i)
    if (world->vehicles[i].alive) wheels += world->vehicles[i].wheel_bytes;
  return sizeof *world + (size_t)world->capacity * (sizeof *world->vehicles + sizeof *world->colds) +
         grip_collision_bytes(&world->collision) + types + wheels;
}

/* --- stepping -------------------------------------------------------------------------- */

/* Worker 0 steps its ranges from the top down in worlds of up to this many slots on several
 * workers (step_range). In larger worlds the vehicles' state no longer fits the caches, the
 * hardware prefetchers follow a descending stream less well than an ascending one, and stepping
 * downwards cost more than it saved: 11 % more time a step with 100,000 cars on two threads
 * (and 38 % on one thread with 10,000), against 1.5–4.5 % less from 1,000 to 4,000 cars and
 * 20–24 % less with 100 in the host's slow phases (docs/performance.md, "Twenty-ninth session"). */
#define DOWNWARDS_MAX_SLOTS 4096

static void step_range(int start, int end, int worker, void *context) {
  /* Read once, into registers: the world's step task (grip_world_step). */
  const step_task t = *(const step_task *)context;
  grip_world *world = t.world;
  collision_world *c = &world->collision;
  vehicle *vehicles = world->vehicles;
  int wall_points = 0;
  /* On several workers, worker 0 steps its range from the top down and the others from the
   * bottom up (up to DOWNWARDS_MAX_SLOTS). Each vehicle's step reads and writes only that
   * vehicle and its own slots, so the order changes no result; but a core's hardware
   * prefetchers run ahead of a stream of stores into the slots that come next, and with a task
   * pool that gives worker 0 (the caller) the first share of the slots and the next worker the
   * share above it (sim/task_pool.c), worker 0 stepping upwards took the cache lines of the next
   * worker's first vehicles and slots from that worker's core at every step
   * (docs/performance.md, "Twenty-ninth session"). */
  bool downwards = worker == 0 && t.worker0_downwards;
  for (int k = start; k < end; ++k) {
    int i = downwards ? end - 1 - (k - start) : k;
    vehicle *v = &vehicles[i];
    grip_collision_begin_slot(c, i, v);
    if (v->alive) grip_vehicle_step(v, &world->def, t.dt);
    wall_points += grip_collision_end_slot(c, i, v, &world->def, t.dt);
  }
  /* Each worker adds to its own count (a task system that breaks the worker contract by giving
   * an index beyond worker_count shares the first). Written only with contacts to count. */
  if (wall_points > 0) c->wall_points[worker >= 0 && worker < c->workers ? worker : 0].points += wall_points;
}

static void record_profile(grip_world *world, double t0, double t1, double t2);

grip_result grip_world_step(grip_world *world, double dt) {
  if (!world || !(dt >= 1e-4 && dt <= 0.02)) return GRIP_INVALID_ARGUMENT;
  /* The task lives in the world, rewritten only when it changes: a helper thread reads it at
   * every step, and a task on the caller's stack, written anew each step, was a cache line that
   * helper fetched from the caller's core before it could start. */
  bool downwards = world->def.enqueue_task && world->def.worker_count > 1 && world->used <= DOWNWARDS_MAX_SLOTS;
  if (world->step.dt != dt) world->step.dt = dt;
  if (world->step.worker0_downwards != downwards) world->step.worker0_downwards = downwards;
  /* Written only when it changes: the threads stepping the vehicles read it at every car. */
  bool pairs_possible = world->alive >= 2;
  if (world->collision.pairs_possible != pairs_possible) world->collision.pairs_possible = pairs_possible;
  grip_collision_begin_step(&world->collision);
  double t0 = world->profiling ? grip_timer_now() : 0.0;
  if (world->def.enqueue_task && world->def.finish_task && world->used > 1) {
    void *handle = world->def.enqueue_task(step_range, world->used, 1, &world->step, world->def.task_context);
    if (handle) world->def.finish_task(handle, world->def.task_context);
  } else {
    step_range(0, world->used, 0, &world->step);
  }
  double t1 = world->profiling ? grip_timer_now() : 0.0;
  grip_collision_step(&world->collision, world->vehicles, world->used, &world->def, dt);
  if (world->hitch_used > 0) {
    grip_hitch_solve_velocities(world->hitches, world->hitch_used, world->vehicles, dt, HITCH_VELOCITY_ITERATIONS);
    grip_hitch_solve_positions(world->hitches, world->hitch_used, world->vehicles, HITCH_POSITION_ITERATIONS,
                               HITCH_TOLERANCE);
  }
  if (world->profiling) record_profile(world, t0, t1, grip_timer_now());
  return GRIP_OK;
}

/* --- hitches ---------------------------------------------------------------------------- */

grip_hitch_def grip_default_hitch_def(void) {
  return (grip_hitch_def){
      .kind = GRIP_HITCH_BALL, .tow = GRIP_NULL_VEHICLE, .trailer = GRIP_NULL_VEHICLE, .collide = false};
}

static hitch *lookup_hitch(const grip_world *world, grip_hitch_id id) {
  if (!world || id.index == 0 || (int)id.index > world->hitch_used) return NULL;
  hitch *h = &world->hitches[id.index - 1];
  return h->alive && h->generation == id.generation ? h : NULL;
}

bool grip_hitch_is_valid(const grip_world *world, grip_hitch_id id) { return lookup_hitch(world, id) != NULL; }

grip_hitch_id grip_create_hitch(grip_world *world, const grip_hitch_def *def) {
  if (!world || !def) return GRIP_NULL_HITCH;
  vehicle *tow = lookup(world, def->tow), *trailer = lookup(world, def->trailer);
  if (!tow || !trailer || tow == trailer || !finite3_ok(def->tow_point) || !finite3_ok(def->trailer_point) ||
      (def->kind != GRIP_HITCH_BALL && def->kind != GRIP_HITCH_FIFTH_WHEEL))
    return GRIP_NULL_HITCH;
  if (tow->def->chassis_mode != GRIP_CHASSIS_OWN || trailer->def->chassis_mode != GRIP_CHASSIS_OWN)
    return GRIP_NULL_HITCH;
  int slot_tow = (int)def->tow.index - 1, slot_trailer = (int)def->trailer.index - 1, slot = -1;
  for (int i = 0; i < world->hitch_used; ++i) {
    const hitch *h = &world->hitches[i];
    if (!h->alive) {
      if (slot < 0) slot = i;
    } else if (h->slot_tow == slot_tow || h->slot_trailer == slot_trailer) {
      return GRIP_NULL_HITCH; /* one trailer per vehicle, one towing vehicle per trailer */
    }
  }
  if (slot < 0) {
    if (world->hitch_used == world->hitch_capacity) {
      int grown = world->hitch_capacity ? 2 * world->hitch_capacity : 4;
      hitch *more = grow_zeroed(world->hitches, sizeof *more, world->hitch_capacity, grown);
      if (!more) return GRIP_NULL_HITCH;
      world->hitches = more;
      world->hitch_capacity = grown;
    }
    slot = world->hitch_used++;
  }
  hitch *h = &world->hitches[slot];
  uint32_t generation = h->generation + 1;
  *h = (hitch){.alive = true,
               .generation = generation,
               .slot_tow = slot_tow,
               .slot_trailer = slot_trailer,
               .point_tow = def->tow_point,
               .point_trailer = def->trailer_point,
               .lock_roll = def->kind == GRIP_HITCH_FIFTH_WHEEL};
  if (!def->collide) grip_collision_set_hitched(&world->collision, slot_tow, slot_trailer);
  return (grip_hitch_id){(uint32_t)slot + 1, generation};
}

static void unlink_hitch(grip_world *world, hitch *h) {
  grip_collision_clear_hitched(&world->collision, h->slot_tow, h->slot_trailer);
  h->alive = false;
}

void grip_destroy_hitch(grip_world *world, grip_hitch_id id) {
  hitch *h = lookup_hitch(world, id);
  if (h) unlink_hitch(world, h);
}

grip_result grip_hitch_get_state(const grip_world *world, grip_hitch_id id, grip_hitch_state *state) {
  const hitch *h = lookup_hitch(world, id);
  if (!h || !state) return GRIP_INVALID_ARGUMENT;
  const vehicle *tow = &world->vehicles[h->slot_tow];
  state->force = h->force;
  state->local_force = quat_unrotate(tow->rotation, state->force);
  state->gap = h->gap;
  state->roll_moment = h->roll_moment;
  state->roll_error = h->roll_error;
  return GRIP_OK;
}

/* --- profile ---------------------------------------------------------------------------- */

static void record_profile(grip_world *world, double t0, double t1, double t2) {
  grip_profile *p = &world->profile;
  p->step = t2 - t0;
  p->vehicles = t1 - t0;
  p->collisions = t2 - t1;
  p->vehicles_stepped = world->alive;
  /* The collision pass's own counts: the sums of the slots' records, without reading each
   * slot's record, which a thread stepping it wrote on another core. */
  p->wall_contacts = world->collision.step_points - world->collision.step_vehicle_points;
  p->vehicle_contacts = world->collision.step_vehicle_points;
  p->steps++;
  p->total_step += p->step;
  p->total_vehicles += p->vehicles;
  p->total_collisions += p->collisions;
}

void grip_world_enable_profile(grip_world *world, bool enabled) {
  if (!world) return;
  world->profiling = enabled;
  world->profile = (grip_profile){0};
}

grip_profile grip_world_get_profile(const grip_world *world) {
  return world ? world->profile : (grip_profile){0};
}

/* --- inputs and state ------------------------------------------------------------------ */

grip_result grip_vehicle_set_input(grip_world *world, grip_vehicle_id id, const grip_vehicle_input *in) {
  vehicle *v = lookup(world, id);
  if (!v) return GRIP_INVALID_ID;
  bool ok = in && isfinite(in->throttle) && in->throttle >= 0.0 && in->throttle <= 1.0 &&
            isfinite(in->brake) && in->brake >= 0.0 && in->brake <= 1.0 && isfinite(in->steering) &&
            in->steering >= -1.0 && in->steering <= 1.0 && isfinite(in->handbrake) &&
            in->handbrake >= 0.0 && in->handbrake <= 1.0 && isfinite(in->clutch) && in->clutch >= 0.0 &&
            in->clutch <= 1.0 && in->gear >= -1 &&
            (in->gear <= v->def->gearbox.forward_gears || v->def->drivetrain.layout == GRIP_DRIVE_NONE);
  if (!ok) return GRIP_INVALID_ARGUMENT; /* a vehicle with no engine takes any gear and ignores it */
  v->input = *in;
  return GRIP_OK;
}

grip_vehicle_input grip_vehicle_get_input(const grip_world *world, grip_vehicle_id id) {
  vehicle *v = lookup(world, id);
  return v ? v->input : grip_default_vehicle_input();
}

grip_result grip_vehicle_get_state(const grip_world *world, grip_vehicle_id id, grip_vehicle_state *state) {
  vehicle *v = lookup(world, id);
  if (!v || !state) return GRIP_INVALID_ID;
  grip_vehicle_fill_state(v, state);
  return GRIP_OK;
}

grip_result grip_vehicle_get_motion(const grip_world *world, grip_vehicle_id id, grip_vehicle_motion *motion) {
  vehicle *v = lookup(world, id);
  if (!v || !motion) return GRIP_INVALID_ID;
  grip_vehicle_fill_motion(v, motion);
  return GRIP_OK;
}

const grip_vehicle_def *grip_vehicle_get_def(const grip_world *world, grip_vehicle_id id) {
  vehicle *v = lookup(world, id);
  return v ? v->def : NULL;
}

grip_result grip_vehicle_set_pose(grip_world *world, grip_vehicle_id id, grip_pose pose) {
  vehicle *v = lookup(world, id);
  if (!v) return GRIP_INVALID_ID;
  if (!finite3_ok(pose.position) || !isfinite(pose.rotation.w) || !isfinite(pose.rotation.x) ||
      !isfinite(pose.rotation.y) || !isfinite(pose.rotation.z))
    return GRIP_INVALID_ARGUMENT;
  v->cold->spawn_pose = pose;
  v->cold->spawn_velocity = v3(0, 0, 0);
  grip_vehicle_reset_motion(v);
  grip_vehicle_forget_ground(v);
  return GRIP_OK;
}

grip_result grip_vehicle_set_velocity(grip_world *world, grip_vehicle_id id, grip_vec3 velocity) {
  vehicle *v = lookup(world, id);
  if (!v) return GRIP_INVALID_ID;
  if (!finite3_ok(velocity)) return GRIP_INVALID_ARGUMENT;
  v->velocity = velocity;
  double forward = v3_dot(velocity, quat_rotate(v->rotation, v3(1, 0, 0)));
  for (int i = 0; i < v->wheel_count; ++i) {
    v->wheels[i].spin = forward / v->type->wheels[i].radius;
    v->wheels[i].deflection_x = 0.0;
  }
  grip_drivetrain_match_speed(v);
  return GRIP_OK;
}

grip_result grip_vehicle_set_fuel(grip_world *world, grip_vehicle_id id, double fuel_mass) {
  vehicle *v = lookup(world, id);
  if (!v) return GRIP_INVALID_ID;
  if (!isfinite(fuel_mass) || fuel_mass < 0.0 || fuel_mass > v->def->fuel.capacity) return GRIP_INVALID_ARGUMENT;
  v->fuel_mass = fuel_mass;
  return GRIP_OK;
}

grip_result grip_vehicle_place(grip_world *world, grip_vehicle_id id, double x, double y, double heading) {
  vehicle *v = lookup(world, id);
  if (!v) return GRIP_INVALID_ID;
  if (!isfinite(x) || !isfinite(y) || !isfinite(heading)) return GRIP_INVALID_ARGUMENT;
  grip_ground g = world->def.ground;
  const double top = 1e4;
  grip_ground_hit hit;
  grip_ground_query query = grip_no_vehicle_query();
  query.user_data = v->def->user_data;
  if (!g.raycast(g.context, &query, v3(x, y, top), v3(0, 0, -1), 2.0 * top, &hit)) return GRIP_INVALID_ARGUMENT;
  /* Yaw by heading, then tilt world z onto the ground normal (shortest arc). */
  grip_quat yaw = quat_from_axis_angle(v3(0, 0, 1), heading);
  grip_vec3 n = hit.normal;
  grip_vec3 axis = v3_cross(v3(0, 0, 1), n);
  double s = v3_length(axis);
  grip_quat tilt = quat_identity();
  if (s > 1e-12) tilt = quat_from_axis_angle(v3_scale(axis, 1.0 / s), atan2(s, n.z));
  grip_pose pose = {.position = hit.point, .rotation = quat_normalize(quat_mul(tilt, yaw))};
  /* The springs are preloaded for design ride height: the design frame's origin sits on the
   * ground at rest. */
  return grip_vehicle_set_pose(world, id, pose);
}

/* --- forces mode ---------------------------------------------------------------------- */

grip_result grip_vehicle_set_chassis_state(grip_world *world, grip_vehicle_id id, grip_pose pose,
                                           grip_vec3 linear_velocity, grip_vec3 angular_velocity) {
  vehicle *v = lookup(world, id);
  if (!v) return GRIP_INVALID_ID;
  grip_quat q = pose.rotation;
  double norm2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
  if (v->def->chassis_mode != GRIP_CHASSIS_EXTERNAL || !finite3_ok(pose.position) || !isfinite(norm2) ||
      !(norm2 > 1e-12) || !finite3_ok(linear_velocity) || !finite3_ok(angular_velocity))
    return GRIP_INVALID_ARGUMENT;
  v->rotation = quat_normalize(q);
  v->position = v3_add(pose.position, quat_rotate(v->rotation, v->com_design));
  v->velocity = linear_velocity;
  v->angular_velocity = angular_velocity;
  return GRIP_OK;
}

static void grip_fill_wheel_force(const vehicle *v, int i, bool moving, grip_wheel_force *o);

grip_result grip_vehicle_get_chassis_forces(const grip_world *world, grip_vehicle_id id, grip_chassis_forces *out) {
  vehicle *v = lookup(world, id);
  if (!v || !out) return GRIP_INVALID_ID;
  if (v->def->chassis_mode != GRIP_CHASSIS_EXTERNAL) return GRIP_INVALID_ARGUMENT;
  memset(out, 0, sizeof *out);
  out->force = v->cold->chassis_force;
  out->torque = v->cold->chassis_torque;
  out->center_of_mass = v->position;
  out->mass = v->body_mass + v->fuel_mass;
  out->inertia = v->inertia;
  for (int i = 0; i < v->wheel_count && i < GRIP_WHEEL_COUNT; ++i) grip_fill_wheel_force(v, i, world->def.moving_ground, &out->wheels[i]);
  return GRIP_OK;
}

int grip_vehicle_get_wheel_forces(const grip_world *world, grip_vehicle_id id, grip_wheel_force *wheels, int capacity) {
  vehicle *v = lookup(world, id);
  if (!v || v->def->chassis_mode != GRIP_CHASSIS_EXTERNAL) return 0;
  for (int i = 0; i < v->wheel_count && i < capacity; ++i) grip_fill_wheel_force(v, i, world->def.moving_ground, &wheels[i]);
  return v->wheel_count;
}

int grip_vehicle_get_wheels(const grip_world *world, grip_vehicle_id id, grip_wheel_state *wheels, int capacity) {
  vehicle *v = lookup(world, id);
  if (!v) return 0;
  for (int i = 0; i < v->wheel_count && i < capacity; ++i) grip_vehicle_fill_wheel(v, i, &wheels[i]);
  return v->wheel_count;
}

static void grip_fill_wheel_force(const vehicle *v, int i, bool moving, grip_wheel_force *o) {
  {
    const wheel_runtime *w = &v->wheels[i];
    memset(o, 0, sizeof *o);
    /* The step's safety net has checked the forces; the point and Mz come from the ground and
     * the tyre and are checked here, so nothing non-finite reaches the caller's engine. */
    o->in_contact = w->in_contact;
    o->force = v->wheel_force[i];
    o->point = finite3_ok(w->contact_point) ? w->contact_point : v->position;
    o->aligning_torque = w->in_contact && isfinite(w->mz) ? w->mz : 0.0;
    o->ground_body = w->in_contact && moving ? v->ground_motion[i].body : NULL;
  }
}

/* --- contacts ------------------------------------------------------------------------- */

grip_result grip_vehicle_get_contacts(const grip_world *world, grip_vehicle_id id, grip_vehicle_contacts *contacts) {
  vehicle *v = lookup(world, id);
  if (!v || !contacts) return GRIP_INVALID_ID;
  *contacts = world->collision.contacts[id.index - 1];
  return GRIP_OK;
}

int grip_vehicle_contact_count(const grip_world *world, grip_vehicle_id id) {
  vehicle *v = lookup(world, id);
  return v ? world->collision.contacts[id.index - 1].count : 0;
}

/* --- determinism ----------------------------------------------------------------------- */

static uint64_t hash_bytes(uint64_t h, const void *data, size_t size) {
  const unsigned char *p = data;
  for (size_t i = 0; i < size; ++i) {
    h ^= p[i];
    h *= 1099511628211ull; /* FNV-1a 64 */
  }
  return h;
}

static uint64_t hash_double(uint64_t h, double x) { return hash_bytes(h, &x, sizeof x); }

uint64_t grip_world_state_hash(const grip_world *world) {
  uint64_t h = 14695981039346656037ull;
  for (int i = 0; i < world->used; ++i) {
    const vehicle *v = &world->vehicles[i];
    if (!v->alive) continue;
    const double body[] = {v->position.x, v->position.y, v->position.z, v->rotation.w, v->rotation.x,
                           v->rotation.y, v->rotation.z, v->velocity.x, v->velocity.y, v->velocity.z,
                           v->angular_velocity.x, v->angular_velocity.y, v->angular_velocity.z,
                           v->engine_omega, v->fuel_mass, v->clutch_torque, v->shift_timer};
    for (size_t k = 0; k < sizeof body / sizeof body[0]; ++k) h = hash_double(h, body[k]);
    h = hash_bytes(h, &v->gear, sizeof v->gear);
    h = hash_bytes(h, &v->out_of_world, sizeof v->out_of_world);
    for (int k = 0; k < v->wheel_count; ++k) {
      const wheel_runtime *w = &v->wheels[k];
      h = hash_double(h, w->spin);
      h = hash_double(h, w->deflection_x);
      h = hash_double(h, w->deflection_y);
      h = hash_double(h, w->compression);
      if (v->type->tyre_state_on) { /* only then: a car with it off hashes as before */
        const tyre_runtime *t = &v->tyres[k];
        h = hash_double(h, t->temp_surface);
        h = hash_double(h, t->temp_carcass);
        h = hash_double(h, t->temp_gas);
        h = hash_double(h, t->tread_depth);
      }
    }
  }
  return h;
}
