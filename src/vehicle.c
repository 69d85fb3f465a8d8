/* Vehicle step: inputs -> steering -> suspension -> tyres -> drivetrain -> chassis.
 * The physics and the integration choices are written up in docs/physics.md. */
#include <math.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include "gmath.h"
#include "ground_contact.h"
#include "ground_plane.h"
#include "isa.h"
#include "lanes.h"
#include "steering_torque.h"
#include "tyre_simple_set.h"
#include "v4.h"
#include "vehicle_internal.h"


/* A full-MF tyre's lateral peak friction coefficient at load fz (grip_tyre_peak_mu). Out of
 * line: it evaluates the Magic Formula, and the tyre step asks only near standstill. */
__attribute__((noinline, cold)) static double full_mf_peak_mu_y(const grip_tyre_def *tyre, double fz) {
  double mu_y;
  grip_tyre_peak_mu(tyre, fz, NULL, &mu_y);
  return mu_y;
}

static double total_mass(const vehicle *v) { return v->body_mass + v->fuel_mass; }

bool grip_vehicle_alloc_wheels(vehicle *v, const vehicle_type *type, bool moving_ground) {
  int n = type->wheel_count;
  /* What every step reads and writes, side by side: the wheels, the differentials and the ground
   * hints; and after them, only for a car that uses them, the tyre state, a moving ground's
   * motion and forces-mode forces (NULL otherwise). A world's cars are allocated one after
   * another, so their blocks lie in a row that the step runs through, and bytes a step does not
   * read are holes in that stream: with the tyre state's and the rest's ~600 bytes in every
   * block, the step took 1.22× the time at 10,000 cars and 1.35× at 100,000 against the dense
   * layout before, for 3 % fewer bytes (docs/performance.md, "Thirty-second session"). Each
   * array's size is a multiple of 8 bytes, so the next is aligned for its doubles and pointers. */
  bool external = type->def.chassis_mode == GRIP_CHASSIS_EXTERNAL;
  size_t wheels = (size_t)n * sizeof(wheel_runtime), diffs = (size_t)type->diff_count * sizeof(diff_runtime);
  size_t hints = ((size_t)(n + 1) * sizeof(int) + 7) / 8 * 8;
  size_t tyres = type->tyre_state_on ? (size_t)n * sizeof(tyre_runtime) : 0;
  size_t motion = moving_ground ? (size_t)n * sizeof(wheel_ground_motion) : 0;
  size_t forces = external ? (size_t)n * sizeof(grip_vec3) : 0;
  size_t bytes = wheels + diffs + hints + tyres + motion + forces;
  char *block = calloc(1, bytes);
  if (!block) return false;
  v->wheel_count = n;
  size_t at = 0;
  v->wheels = (wheel_runtime *)(void *)block;
  v->diffs = (diff_runtime *)(void *)(block + (at += wheels));
  v->ground_hint = (int *)(void *)(block + (at += diffs));
  at += hints;
  v->tyres = tyres ? (tyre_runtime *)(void *)(block + at) : NULL;
  at += tyres;
  v->ground_motion = motion ? (wheel_ground_motion *)(void *)(block + at) : NULL;
  at += motion;
  v->wheel_force = forces ? (grip_vec3 *)(void *)(block + at) : NULL;
  v->wheel_bytes = bytes;
  return true;
}

void grip_vehicle_free_wheels(vehicle *v) {
  free(v->wheels);
  v->wheels = NULL;
  v->wheel_force = NULL;
  v->diffs = NULL;
  v->tyres = NULL;
  v->ground_motion = NULL;
  v->ground_hint = NULL;
  v->wheel_bytes = 0;
  v->wheel_count = 0;
}

void grip_vehicle_reset_motion(vehicle *v) {
  const grip_vehicle_def *d = v->def;
  v->rotation = quat_normalize(v->cold->spawn_pose.rotation);
  v->position = v3_add(v->cold->spawn_pose.position, quat_rotate(v->rotation, v->com_design));
  v->velocity = v->cold->spawn_velocity;
  v->angular_velocity = v3(0, 0, 0);
  v->acceleration = v3(0, 0, 0);
  v->out_of_world = false;
  v->ground_points = 0;
  v->ground_impulse = 0.0;
  double forward = v3_dot(v->cold->spawn_velocity, quat_rotate(v->rotation, v3(1, 0, 0)));
  for (int i = 0; i < v->wheel_count; ++i) {
    wheel_runtime *w = &v->wheels[i];
    const wheel_config *c = &v->type->wheels[i];
    w->spin = forward / c->radius;
    w->deflection_x = w->deflection_y = 0.0;
    w->compression = w->prev_compression = d->axles[c->axle].suspension.droop_travel;
    w->levelling = 0.0;
    w->was_in_contact = false;
    w->drive_torque = 0.0;
  }
  v->engine_omega = d->drivetrain.layout == GRIP_DRIVE_NONE ? 0.0 : d->engine.idle_rpm * RPM_TO_RAD_PER_S;
  v->steering_torque = 0.0;
  v->clutch_locked = false;
  v->clutch_torque = 0.0;
  v->shift_timer = 0.0;
  v->shift_cooldown = 0.0;
  for (int k = 0; k < v->type->diff_count; ++k) v->diffs[k] = (diff_runtime){DIFF_MODE_LOCKED, 0.0, 0.0};
  for (int i = 0; i < v->wheel_count; ++i) v->wheels[i].abs_pressure = 1.0;
  v->tc_torque_factor = 1.0;
  v->esc_reference = 0.0;
  v->abs_active = v->tc_active = v->esc_active = false;
}

/* Each axle's share of brakes.max_torque: its brake_share, or the two-axle front_bias shorthand
 * when every axle's is 0 (first axle front_bias, last axle the rest). */
static double brake_share(const grip_vehicle_def *d, int a) {
  bool shares = false;
  for (int k = 0; k < d->axle_count; ++k) shares = shares || d->axles[k].brake_share != 0.0;
  if (shares) return d->axles[a].brake_share;
  if (d->axle_count == 1) return 1.0;
  if (a == 0) return d->brakes.front_bias;
  return a == d->axle_count - 1 ? 1.0 - d->brakes.front_bias : 0.0;
}

bool grip_vehicle_type_init(vehicle_type *t, grip_vec3 gravity) {
  grip_vehicle_def *d = &t->def;
  t->com_design = d->body.center_of_mass;
  grip_ground_box_points(t);
  t->box_reach = v3_length(v3_sub(d->body.box_center, t->com_design)) + 0.5 * v3_length(d->body.dimensions);
  t->body_mass = d->body.mass;
  t->any_system = d->systems.abs.enabled || d->systems.tc.enabled || d->systems.esc.enabled;
  t->inertia = d->body.inertia;
  if (t->inertia.x <= 0.0 || t->inertia.y <= 0.0 || t->inertia.z <= 0.0) {
    /* Uniform box: I = m/12·(a² + b²). */
    grip_vec3 s = d->body.dimensions;
    double m = d->body.mass / 12.0;
    t->inertia = v3(m * (s.y * s.y + s.z * s.z), m * (s.x * s.x + s.z * s.z), m * (s.x * s.x + s.y * s.y));
    d->body.inertia = t->inertia;
  }
  t->inv_inertia = v3(1.0 / t->inertia.x, 1.0 / t->inertia.y, 1.0 / t->inertia.z);
  /* Wheels axle by axle, left before right; one wheel on an axle of zero track. */
  t->axle_count = d->axle_count;
  t->wheel_count = 0;
  t->any_full_mf = false;
  for (int a = 0; a < t->axle_count; ++a) {
    t->axle_first_wheel[a] = t->wheel_count;
    t->axle_wheels[a] = d->axles[a].half_track > 0.0 ? 2 : 1;
    t->wheel_count += t->axle_wheels[a];
    t->any_full_mf = t->any_full_mf || t->mf[a];
  }
  t->two_by_two = t->axle_count == 2 && t->wheel_count == 4;
  for (int k = 0; k < GRIP_MAX_WINGS; ++k) {
    double angle = k < d->aero.wing_count ? d->aero.wings[k].angle : 0.0;
    t->wing_sin[k] = sin(angle);
    t->wing_cos[k] = cos(angle);
  }
  /* Steering geometry: the turn centre on the unsteered axles' mean x. */
  double unsteered_x = 0.0;
  int unsteered = 0;
  t->first_steered_axle = -1;
  for (int a = 0; a < t->axle_count; ++a) {
    if (d->axles[a].steer_ratio == 0.0) {
      unsteered_x += d->axles[a].x;
      ++unsteered;
    } else if (t->first_steered_axle < 0) {
      t->first_steered_axle = a;
    }
  }
  t->steer_reference_x = unsteered > 0 ? unsteered_x / unsteered : t->com_design.x;
  t->steer_length = t->first_steered_axle >= 0 ? d->axles[t->first_steered_axle].x - t->steer_reference_x
                                                : d->axles[0].x - d->axles[t->axle_count - 1].x;
  double weight = (d->body.mass + d->fuel.mass) * v3_length(gravity);
  double share[GRIP_MAX_AXLES];
  grip_static_axle_shares(d, share);
  for (int a = 0; a < t->axle_count; ++a) {
    const grip_axle_def *axle = &d->axles[a];
    const grip_suspension_def *s = &axle->suspension;
    int count = t->axle_wheels[a];
    double per_wheel = count == 2 ? 0.5 : 1.0;
    for (int k = 0; k < count; ++k) {
      int i = t->axle_first_wheel[a] + k;
      wheel_config *w = &t->wheels[i];
      memset(w, 0, sizeof *w);
      w->axle = a;
      w->partner = count == 2 ? t->axle_first_wheel[a] + 1 - k : -1;
      w->left = count == 2 && k == 0;
      w->side = count == 2 ? (k == 0 ? 1.0 : -1.0) : 0.0;
      w->radius = axle->wheel_radius;
      w->inertia = axle->wheel_inertia;
      w->max_length = s->bump_travel + s->droop_travel;
      /* Wheel centre at design ride height is (x, ±half_track, radius); the hardpoint is that
       * point raised by the bump travel. */
      grip_vec3 design = v3(axle->x, w->side * axle->half_track, axle->wheel_radius);
      w->hardpoint = v3_sub(v3_add(design, v3(0, 0, s->bump_travel)), t->com_design);
      double box_top = d->body.box_center.z + 0.5 * d->body.dimensions.z - t->com_design.z;
      w->ray_lift = clampd(box_top - w->hardpoint.z, 0.0, w->radius);
      w->ray_start = v3_add(w->hardpoint, v3(0, 0, w->ray_lift));
      w->ray_reach = w->ray_lift + w->radius + w->max_length;
      w->mf_def = &axle->tyre.simple;
      w->mf_cache = &t->tyre_cache[a];
      w->static_load = per_wheel * weight * share[a];
      /* The spring is preloaded so that the car sits at design ride height under its weight. */
      w->spring_zero = s->droop_travel - w->static_load / s->spring_rate;
      w->levelling_rate = s->levelling_time > 0.0 ? 1.0 / s->levelling_time : 0.0;
      w->brake_torque = d->brakes.max_torque * per_wheel * brake_share(d, a);
      w->handbrake = axle->handbrake;
      w->steer_ratio = axle->steer_ratio;
      w->relax_x = axle->tyre.relaxation_length_x;
      w->relax_y = axle->tyre.relaxation_length_y;
      w->inv_relax_x = 1.0 / w->relax_x;
      w->inv_relax_y = 1.0 / w->relax_y;
      w->inv_low_speed = 1.0 / axle->tyre.low_speed;
      w->rolling_resistance = axle->tyre.rolling_resistance;
      w->low_speed_damping = axle->tyre.low_speed_damping;
      /* w->driven: grip_drivetrain_type_init, from the driveline tree */
    }
  }
  grip_ground_wheel_reach(t);
  grip_drivetrain_type_init(t);
  grip_tyre_state_type_init(t);
  for (int a = 0; a < t->axle_count; ++a) {
    if (t->mf[a]) continue; /* full MF: no tables */
    if (!grip_simple_mf_cache_init(&t->tyre_cache[a], &d->axles[a].tyre.simple)) {
      grip_vehicle_type_free(t);
      return false;
    }
  }
  for (int i = 0; i < t->wheel_count; ++i) {
    const wheel_config *w = &t->wheels[i];
    wheel_constants *k = &t->wheel_set;
    k->radius[i] = w->radius;
    k->relax_x[i] = w->relax_x;
    k->relax_y[i] = w->relax_y;
    k->inv_relax_x[i] = w->inv_relax_x;
    k->inv_relax_y[i] = w->inv_relax_y;
    k->inv_low_speed[i] = w->inv_low_speed;
    k->rolling_resistance[i] = w->rolling_resistance;
    k->low_speed_damping[i] = w->low_speed_damping;
  }
  if (!t->any_full_mf) {
    const grip_simple_mf_def *defs[GRIP_MAX_WHEELS];
    const simple_mf_cache *caches[GRIP_MAX_WHEELS];
    for (int i = 0; i < t->wheel_count; ++i) {
      defs[i] = t->wheels[i].mf_def;
      caches[i] = t->wheels[i].mf_cache;
    }
    grip_simple_mf_set_fill(&t->tyre_set, t->wheel_count, defs, caches);
  }
  return true;
}

void grip_vehicle_type_free(vehicle_type *t) {
  for (int a = 0; a < GRIP_MAX_AXLES; ++a) grip_simple_mf_cache_free(&t->tyre_cache[a]);
}

void grip_vehicle_init(vehicle *v, const vehicle_type *type, grip_pose pose, grip_vec3 velocity) {
  v->type = type;
  v->def = &type->def;
  const grip_vehicle_def *d = v->def;
  v->com_design = type->com_design;
  v->inertia = type->inertia;
  v->body_mass = type->body_mass;
  v->fuel_mass = d->fuel.mass;
  v->cold->spawn_pose = pose;
  v->cold->spawn_velocity = velocity;
  for (int i = 0; i < v->wheel_count; ++i) memset(&v->wheels[i], 0, sizeof v->wheels[i]);
  v->gear = d->gearbox.automatic && d->drivetrain.layout != GRIP_DRIVE_NONE ? 1 : 0;
  v->target_gear = v->gear;
  v->input = grip_default_vehicle_input();
  v->input.automatic = d->gearbox.automatic;
  v->input.gear = d->gearbox.automatic ? 1 : 0;
  v->filtered = v->input;
  v->time = 0.0;
  v->steer_delta = NAN; /* no wheel angles yet */
  grip_vehicle_reset_motion(v);
  grip_tyre_state_init(v);
}

/* --- inputs and steering --------------------------------------------------------------- */

static double ramp(double current, double target, double rate, double dt) {
  if (rate <= 0.0) return target;
  double step = rate * dt;
  return current + clampd(target - current, -step, step);
}

STEP_INLINE void filter_inputs(vehicle *v, double dt) {
  const grip_input_filter_def *f = &v->def->input_filter;
  grip_vehicle_input *o = &v->filtered;
  const grip_vehicle_input *in = &v->input;
  o->throttle = ramp(o->throttle, in->throttle, f->throttle_rate, dt);
  o->brake = ramp(o->brake, in->brake, f->brake_rate, dt);
  o->steering = ramp(o->steering, in->steering, 2.0 * f->steer_rate, dt);
  o->handbrake = in->handbrake;
  o->clutch = in->clutch;
  o->gear = in->gear;
  o->automatic = in->automatic;
}

/* Road-wheel angles from the steering input: ratio, speed reduction, Ackermann. */
STEP_INLINE void steer_wheels(vehicle *v, double forward_speed) {
  const grip_steering_def *s = &v->def->steering;
  double input = v->filtered.steering;
  if (s->speed_reduction_speed > 0.0) {
    double r = forward_speed / s->speed_reduction_speed;
    input /= 1.0 + r * r;
  }
  double delta = input * s->max_wheel_angle / s->ratio; /* bicycle-model angle */
  double assist = v->def->assists.steering_assist;
  if (assist > 0.0 && forward_speed > 2.0) {
    /* Counter-steer by the rear axle's slip angle: near zero in normal cornering, large when the
     * rear slides out (its velocity then points outside the turn). */
    grip_vec3 local = quat_unrotate(v->rotation, v->velocity);
    grip_vec3 w_local = quat_unrotate(v->rotation, v->angular_velocity);
    double vy_rear = local.y + w_local.z * (v->type->steer_reference_x - v->com_design.x);
    double lock = s->max_wheel_angle / s->ratio;
    delta = clampd(delta + assist * atan2(vy_rear, forward_speed), -lock, lock);
  }
  /* The wheel angles and their sines and cosines depend on delta alone: while it holds (a
   * steady input, as on a straight or in a steady turn) last step's are still right. */
  if (delta == v->steer_delta) return;
  v->steer_delta = delta;
  const vehicle_type *t = v->type;
  double length = t->steer_length;
  bool ackermann = fabs(delta) > 1e-9 && s->ackermann != 0.0 && t->first_steered_axle >= 0 && length > 0.0;
  /* Full Ackermann: every wheel points at the turn centre on the line of the unsteered axles
   * (the rear axle of a car), at radius R = L/tan(delta_1) from the car's centre line, delta_1
   * the first steered axle's angle (one tan for all wheels). An axle's own angle before
   * Ackermann is its steer_ratio × delta. */
  double radius = ackermann ? length / tan(fabs(t->wheels[t->axle_first_wheel[t->first_steered_axle]].steer_ratio * delta)) : 0.0;
  for (int i = 0; i < v->wheel_count; ++i) {
    wheel_runtime *w = &v->wheels[i];
    const wheel_config *c = &t->wheels[i];
    w->steer = 0.0;
    w->steer_sin = 0.0;
    w->steer_cos = 1.0;
    if (c->steer_ratio == 0.0) continue;
    double own = c->steer_ratio * delta;
    double angle = own;
    if (ackermann) {
      const grip_axle_def *axle = &v->def->axles[c->axle];
      double y = axle->half_track * c->side * signd(delta);
      double full = signd(delta) * atan((axle->x - t->steer_reference_x) / (radius - y));
      angle = own + s->ackermann * (full - own);
    }
    w->steer = angle;
    if (angle != 0.0) fast_sincos(angle, &w->steer_sin, &w->steer_cos);
  }
}

/* --- suspension ------------------------------------------------------------------------ */

/* What wheel i's ray found (hit, when found) from origin, straight down the body's -up: the
 * wheel's contact, compression and surface (hit's, which the caller passes apart: on grip's
 * plane its own, so that GCC sees it set where the ray misses); a wall or nothing leaves it in
 * the air. Without check_wall the caller has found the hit no wall. */
STEP_INLINE void wheel_touch(vehicle *v, int i, bool found, const grip_ground_hit *hit, const grip_surface *surface,
                             grip_vec3 origin, grip_vec3 up,
                             bool moving, bool check_wall) {
  wheel_runtime *w = &v->wheels[i];
  const wheel_config *c = &v->type->wheels[i];
  w->in_contact = found;
  if (w->in_contact) {
    double length = hit->distance - c->ray_lift - c->radius; /* hardpoint to wheel centre */
    w->compression = c->max_length - length;
    w->contact_point = hit->point;
    w->contact_normal = hit->normal;
    w->surface_friction = surface->friction;
    w->surface_rolling_resistance = surface->rolling_resistance;
    w->surface_id = surface->id;
    if (moving) v->ground_motion[i] = (wheel_ground_motion){hit->velocity, hit->body};
    /* A wall, not ground (the world's max_ground_slope); a NaN normal counts as a wall. */
    if (check_wall && !(v3_dot(hit->normal, up) >= v->ground_min_up)) w->in_contact = false;
  }
  w->hit_known = w->in_contact;
  if (!w->in_contact) {
    if (moving) v->ground_motion[i] = (wheel_ground_motion){v3(0, 0, 0), NULL};
    w->compression = 0.0;
    w->contact_normal = up;
    w->contact_point = v3_mad(origin, v3_neg(up), c->ray_reach);
  }
}

/* Wheel i's ray: where it starts, how far it looks, and where its hit's flatness will be looked
 * up (cleared first). */
STEP_INLINE void ray_set_up(vehicle *v, const mat3 *rot, int i, bool moving, grip_vec3 origins[],
                            double reach[], grip_ground_hit hits[], ground_flat_ref *flat[]) {
  const wheel_config *c = &v->type->wheels[i];
  origins[i] = v3_add(v->position, mat3_mul(rot, c->ray_start));
  reach[i] = c->ray_reach;
  if (moving) { /* a moving ground's callback may leave them alone where it stands still */
    hits[i].velocity = v3(0, 0, 0);
    hits[i].body = NULL;
  }
  wheel_runtime *w = &v->wheels[i];
  w->flat.track = NULL;
  w->flat.plane = false;
  flat[i] = &w->flat;
}

/* The wheels' rays on a ground other than the plane: all the rays first, then what follows from
 * them, so that a ray's result is not waited for before the next ray is cast; a track's rays in
 * one call (190 instructions fewer a car-step than a call each). Out of the step's line: inside
 * it, its arrays (a query per wheel) had the compiler lay out the plane's path otherwise, at 42
 * instructions more a vehicle-step. */
STEP_INLINE void ground_rays_n(vehicle *v, const grip_world_def *world, const mat3 *rot, int n, bool moving,
                               bool track, bool constant_count) {
  grip_raycast_fn *raycast = world->ground.raycast;
  grip_vec3 up = mat3_column(rot, 2), down = v3_neg(up);
  ground_ray_batch rays;
  grip_vec3 *origins = rays.origin;
  grip_ground_hit *hits = rays.hit;
  bool *found = rays.found;
  grip_ground_query *queries = rays.query;
  double *reach = rays.max_distance;
  ground_flat_ref **flat = rays.flat;
  rays.direction = down;
  /* A count the compiler knows here (constant_count: ground_rays) in one loop, which it unrolls.
   * Any other count with the queries in a loop of their own: in one loop, the compiler checked
   * ~40 pairs of addresses at every call for a vector copy of it (~300 instructions for three
   * wheels). */
  if (constant_count) {
    for (int i = 0; i < n; ++i) {
      ray_set_up(v, rot, i, moving, origins, reach, hits, flat);
      queries[i] = grip_vehicle_ground_query(v, i);
    }
  } else {
    for (int i = 0; i < n; ++i) ray_set_up(v, rot, i, moving, origins, reach, hits, flat);
    for (int i = 0; i < n; ++i) queries[i] = grip_vehicle_ground_query(v, i);
  }
  if (track) {
    grip_track_raycast_flat_n(world->ground.context, n, &rays);
  } else {
    for (int i = 0; i < n; ++i)
      found[i] = raycast && raycast(world->ground.context, &queries[i], origins[i], down, reach[i], &hits[i]);
  }
  for (int i = 0; i < n; ++i) wheel_touch(v, i, found[i], &hits[i], &hits[i].surface, origins[i], up, moving, true);
}

/* ground_rays_n with the count a constant for the usual car (on a track, where the ground does
 * not move, and on any other ground), and on a track for a three-wheeler (−270 instructions a
 * step against the generic count) and a three-axle truck (−180); any other count, or those two
 * on another ground, generic (their copies for any ground cost the usual car ~10 instructions a
 * step on a heightfield, through the register allocation of this function's start). */
GRIP_HOT_CLONES
static void ground_rays(vehicle *v, const grip_world_def *world, const mat3 *rot, int n, bool moving, bool track) {
  if (n == 4 && track) ground_rays_n(v, world, rot, 4, false, true, true); /* the usual car on a track */
  else if (n == 4) ground_rays_n(v, world, rot, 4, moving, false, true);
  else if (n == 3 && track) ground_rays_n(v, world, rot, 3, false, true, true);
  else if (n == 6 && track) ground_rays_n(v, world, rot, 6, false, true, true);
  else ground_rays_n(v, world, rot, n, moving, track, false);
}

/* The wheels' rays on grip's own plane, in a loop of their own: it asks no query and moves not.
 * Without check_wall the caller has found the plane's normal no wall, and wheel_touch does not
 * ask again for each wheel. */
STEP_INLINE void plane_rays(vehicle *v, const grip_plane *ground, const mat3 *rot, int n, grip_vec3 up,
                            bool check_wall) {
  grip_vec3 down = v3_neg(up);
  for (int i = 0; i < n; ++i) {
    const wheel_config *c = &v->type->wheels[i];
    grip_vec3 origin = v3_add(v->position, mat3_mul(rot, c->ray_start));
    v->wheels[i].flat.track = NULL; /* (u and t are read only with a track's claims) */
    v->wheels[i].flat.plane = true;
    grip_ground_hit hit;
    bool hit_found = plane_raycast(ground, origin, down, c->ray_reach, &hit);
    wheel_touch(v, i, hit_found, &hit, &ground->surface, origin, up, false, check_wall);
  }
}

STEP_INLINE void suspension(vehicle *v, const grip_world_def *world, const mat3 *rot, double dt, int n, bool car) {
  bool moving = world->moving_ground; /* the ground reports its velocity and bodies */
  double inv_dt = 1.0 / dt;
  grip_vec3 up = mat3_column(rot, 2);
  /* grip's own track and plane say how flat the ground is around each hit (ground_flat.h), which
   * spares the body's probe rays that could not touch; a user's ground, or one that moves, does
   * not. */
  grip_raycast_fn *raycast = world->ground.raycast;
  bool track = !moving && raycast == grip_track_raycast;
  bool plane = !moving && raycast == grip_plane_raycast;
  /* Cast from above the hardpoint (ray_lift, up to one radius, inside the body box) so that a
   * compression past the bump stop is still seen. */
  if (plane) {
    /* The plane's normal is every hit's: whether it is a wall (wheel_touch) is asked once. */
    const grip_plane *ground = world->ground.context;
    if (v3_dot(ground->normal, up) >= v->ground_min_up) plane_rays(v, ground, rot, n, up, false);
    else plane_rays(v, ground, rot, n, up, true);
  } else {
    ground_rays(v, world, rot, n, moving, track);
  }
  /* car: the usual car's specialisation, two axles of two wheels (vehicle_step_n) */
  int axles = car ? 2 : v->type->axle_count;
  for (int a = 0; a < axles; ++a) {
    const grip_suspension_def *s = &v->def->axles[a].suspension;
    int first = car ? 2 * a : v->type->axle_first_wheel[a], count = car ? 2 : v->type->axle_wheels[a];
    wheel_runtime *pair[2] = {&v->wheels[first], &v->wheels[first + count - 1]};
    /* the bar: none on a one-wheel axle */
    double roll = count == 2 ? s->anti_roll_rate * (pair[0]->compression - pair[1]->compression) : 0.0;
    double levelling_rate = v->type->wheels[first].levelling_rate;
    if (levelling_rate > 0.0) {
      /* The axle's levelling valve: air in while the axle sits below design ride height (its
       * wheels' mean compression above droop_travel), out while above, at a first-order rate;
       * both springs alike, so roll is left to the springs and the bar. The preload it adds is
       * held between none below the spring's own and the force clamp. */
      double mean = 0.0;
      int touching = 0;
      for (int k = 0; k < count; ++k)
        if (pair[k]->in_contact) mean += pair[k]->compression, ++touching;
      if (touching > 0) {
        double shift = dt * levelling_rate * (mean / touching - s->droop_travel);
        for (int k = 0; k < count; ++k)
          pair[k]->levelling = clampd(pair[k]->levelling + shift, -s->droop_travel, s->max_force / s->spring_rate);
      }
    }
    for (int k = 0; k < count; ++k) {
      wheel_runtime *w = pair[k];
      const wheel_config *c = &v->type->wheels[first + k];
      if (!w->in_contact) {
        w->load = 0.0;
        continue;
      }
      double spring = s->spring_rate * (w->compression - c->spring_zero);
      if (c->levelling_rate > 0.0) spring += s->spring_rate * w->levelling;
      double rate = w->was_in_contact ? (w->compression - w->prev_compression) * inv_dt : 0.0;
      double damper = (rate > 0.0 ? s->bump_damping : s->rebound_damping) * rate;
      double stop = w->compression > c->max_length ? s->bump_stop_rate * (w->compression - c->max_length) : 0.0;
      double bar = k == 0 ? roll : -roll;
      w->load = clampd(spring + damper + stop + bar, 0.0, s->max_force); /* the tyre's load: the strut's force */
    }
  }
}

/* --- tyres ----------------------------------------------------------------------------- */

/* Contact kinematics, relaxation, and the linearised longitudinal response for the drivetrain
 * solve. Lateral force is final here; longitudinal force is settled by the drivetrain.
 *
 * The wheels on the ground are worked on two at a time, side by side in lanes (lanes.h): each
 * lane takes the operations a wheel worked on alone would, so the results are those of one
 * wheel at a time, bit for bit. A block with fewer wheels than lanes repeats its first wheel in
 * the spare lanes: they work out that wheel's results again, bit for bit, and store them where
 * it does, so that every lane is stored without a test. */
typedef struct tyre_block {
  /* the lanes' wheel_runtime and wheel_config, and their wheels' indices (a spare lane repeats
   * the first) */
  void *wheel[LANES];
  const void *config[LANES];
  int at[LANES];
  lane vx, inv_denom_x, u_pred, deflection_x, deflection_y, deflection_y_new;
  lane_mask clamped_x;
} tyre_block;

/* The tyres of the n wheels on the ground, contact[k] the k-th of them (k itself with
 * every_wheel). */
STEP_INLINE void tyres_on_ground(vehicle *v, wheel_scratch *sc, const mat3 *rot, double dt,
                                bool moving, const int contact[GRIP_MAX_WHEELS], int n, bool every_wheel) {
  double inv_dt = 1.0 / dt;
  double grip = v->def->assists.grip_multiplier;
#define CONTACT(k) (every_wheel ? (k) : contact[k])
  /* The tyre frame, the contact patch's velocity and the carcass's relaxation, a block of wheels
   * at a time; the Magic Formula's inputs into arrays for the batch below. */
  enum { ROOM = (GRIP_MAX_WHEELS + LANES - 1) / LANES * LANES };
  _Static_assert(ROOM == GRIP_MAX_WHEELS, "the batch's arrays hold a spare lane's tyre");
  tyre_inputs batch;
  double *fz = batch.fz, *kappa = batch.kappa, *tan_alpha = batch.tan_alpha, *scale = batch.friction_scale;
  const grip_simple_mf_def **mf_def = batch.def;
  const simple_mf_cache **mf_cache = batch.cache;
  tyre_block blocks[ROOM / LANES];
  int block_count = 0;
  const lane3 forward = lane3_of(mat3_column(rot, 0));
  const lane3 position = lane3_of(v->position), velocity = lane3_of(v->velocity);
  const lane3 angular_velocity = lane3_of(v->angular_velocity);
  const lane3 up = lane3_of(v3(0.0, 0.0, 1.0)); /* the tyre frame of a zero tangent */
  const bool paired = every_wheel && n % LANES == 0; /* block k: wheels 2k and 2k + 1, no spare lane */
  for (int first = 0; first < n; first += LANES) {
    tyre_block *blk = &blocks[block_count++];
    const void *w[LANES];
    for (int l = 0; l < LANES; ++l) {
      int i = blk->at[l] = CONTACT(lane_item(first, l, n));
      const wheel_config *c = &v->type->wheels[i];
      w[l] = blk->wheel[l] = &v->wheels[i];
      blk->config[l] = c;
      if (!every_wheel || v->type->any_full_mf) { /* the type's set has them for every wheel */
        mf_def[first + l] = c->mf_def;
        mf_cache[first + l] = c->mf_cache;
      }
    }
    const void *const *c = blk->config;
    const int *at = blk->at;
#define W(field) lane_gather(w, offsetof(wheel_runtime, field))
    /* the scratch's lanes: with every wheel of an even count, wheels first and first + 1 */
#define S_GET(field) (paired ? lane_load(&sc->field[first]) : lane_pick(sc->field, at))
#define S_PUT(field, value) (paired ? lane_store(&sc->field[first], (value)) : lane_put(sc->field, at, (value)))
#define C(field)                                                                                          \
  (paired ? lane_load(&v->type->wheel_set.field[first]) : lane_gather(c, offsetof(wheel_config, field)))
    lane3 nrm = lane3_gather(w, offsetof(wheel_runtime, contact_normal));
    /* the (steered) wheel's heading projected on the contact plane */
    lane steer = W(steer);
    lane3 steered = lane3_rotate(rot, (lane3){W(steer_cos), W(steer_sin), lane_of(0.0)});
    lane3 heading = lane3_select(steer != 0.0, steered, forward);
    lane3 tangent = lane3_mad(heading, nrm, -lane3_dot(heading, nrm));
    /* 1/|t| as |t|·(1/|t|²): the square root and the division run side by side. */
    lane length2 = lane3_dot(tangent, tangent);
    lane length = lane_sqrt(length2);
    lane inv_length = length * (1.0 / length2);
    lane3 lon = lane3_select(length > 0.0, lane3_scale(tangent, inv_length), up); /* v3_normalize */
    lane3 lat = lane3_cross(nrm, lon);
    S_PUT(long_x, lon.x);
    S_PUT(long_y, lon.y);
    S_PUT(long_z, lon.z);
    S_PUT(lat_x, lat.x);
    S_PUT(lat_y, lat.y);
    S_PUT(lat_z, lat.z);
    /* Contact-patch velocity relative to the ground under it (a still ground: none to take). */
    lane3 arm = lane3_sub(lane3_gather(w, offsetof(wheel_runtime, contact_point)), position);
    lane3 vel = lane3_add(velocity, lane3_cross(angular_velocity, arm));
    if (moving) {
      const void *motion[LANES];
      for (int l = 0; l < LANES; ++l) motion[l] = &v->ground_motion[at[l]];
      vel = lane3_sub(vel, lane3_gather(motion, offsetof(wheel_ground_motion, velocity)));
    }
    lane vx = lane3_dot(vel, lon), vy = lane3_dot(vel, lat);
    S_PUT(vx, vx);
    S_PUT(vy, vy);

    /* Carcass deflections (Pacejka's first-order relaxation), backward Euler:
     *   du/dt = (omega·r − vx) − |vx|·u/sigma_x,   dv/dt = vy − |vx|·v/sigma_y
     * Transient slips: kappa' = u/sigma_x, tan(alpha') = v/sigma_y. The two denominators
     * 1 + dt|vx|/sigma share one division. */
    lane speed = lane_abs(vx);
    lane inv_relax_x = C(inv_relax_x), inv_relax_y = C(inv_relax_y), radius = C(radius);
    lane denom_x = 1.0 + dt * speed * inv_relax_x;
    lane denom_y = 1.0 + dt * speed * inv_relax_y;
    lane inv_both = 1.0 / (denom_x * denom_y);
    /* Rolling resistance f·Fz acts as a friction torque f·Fz·r on the wheel. */
    lane load = W(load);
    lane friction_torque = S_GET(friction_torque) +
                           C(rolling_resistance) * W(surface_rolling_resistance) * load * radius;
    S_PUT(friction_torque, friction_torque);
    blk->inv_denom_x = denom_y * inv_both;
    S_PUT(inv_denom_x, blk->inv_denom_x);
    blk->deflection_x = W(deflection_x);
    lane u = (blk->deflection_x + dt * (W(spin) * radius - vx)) * blk->inv_denom_x;
    lane u_max = MAX_TRANSIENT_KAPPA * C(relax_x);
    blk->clamped_x = lane_abs(u) > u_max;
    blk->u_pred = lane_clamp(u, -u_max, u_max);
    lane y_max = tan(MAX_TRANSIENT_ALPHA) * C(relax_y);
    blk->deflection_y = W(deflection_y);
    blk->deflection_y_new = lane_clamp((blk->deflection_y + dt * vy) * (denom_x * inv_both), -y_max, y_max);
    blk->vx = vx;
    lane_store(&fz[first], load);
    lane_store(&kappa[first], blk->u_pred * inv_relax_x);
    lane_store(&tan_alpha[first], blk->deflection_y_new * inv_relax_y);
    /* The tyre state's temperature-window and wear factor, read only while it is on (it lies
     * in the cold part of the wheels' allocation); it was read as exactly 1 while off, and
     * x·1.0 is x, so a car without it keeps its figures bit for bit. */
    lane friction_scale = W(surface_friction) * grip;
    if (v->type->tyre_state_on) {
      const void *tyre[LANES];
      for (int l = 0; l < LANES; ++l) tyre[l] = &v->tyres[at[l]];
      friction_scale = friction_scale * lane_gather(tyre, offsetof(tyre_runtime, tyre_grip));
    }
    lane_store(&scale[first], friction_scale);
  }

  /* Tyre forces: the simple MF for all the wheels on it at once, the full MF one by one. */
  tyre_results out;
  if (!v->type->any_full_mf) {
    /* every wheel: the type's constants as they lie, wheel k at [k] */
    if (every_wheel && n == 4) grip_simple_mf_evaluate_set_n(4, &v->type->tyre_set, &batch, false, &out);
    else if (every_wheel) grip_simple_mf_evaluate_set(n, &v->type->tyre_set, &batch, false, &out);
    else grip_simple_mf_evaluate_batch(n, &batch, false, &out);
  } else {
    for (int j = 0; j < n; ++j) {
      const grip_mf_params *mf = v->type->mf[v->type->wheels[CONTACT(j)].axle];
      grip_tyre_output one;
      if (mf) {
        /* The full Magic Formula (ISO-W, same force signs as grip's ISO 8855 frame), at the
         * tyre's gauge pressure when the tyre state is on (0: the .tir's INFLPRES). */
        grip_tyre_input in = {.fz = fz[j], .kappa = kappa[j], .alpha = fast_atan(tan_alpha[j]), .gamma = 0.0,
                              .vx = sc->vx[CONTACT(j)], .friction_scale = scale[j]};
        double pressure = v->type->tyre_state_on ? maxd(v->tyres[CONTACT(j)].pressure, 1.0) : 0.0;
        grip_mf_evaluate_at_pressure(mf, &in, pressure, &one);
      } else {
        grip_simple_mf_evaluate_tan(mf_def[j], mf_cache[j], fz[j], kappa[j], tan_alpha[j], scale[j], &one);
      }
      tyre_results_put(&out, j, &one);
    }
  }
  /* a spare lane's: its block's first */
  for (int j = n; j < block_count * LANES; ++j) {
    out.fx[j] = out.fx[j - j % LANES];
    out.fy[j] = out.fy[j - j % LANES];
    out.mz[j] = out.mz[j - j % LANES];
    out.dfx_dkappa[j] = out.dfx_dkappa[j - j % LANES];
  }

  /* Low-speed carcass damping, fading out with speed, and the linear response of Fx to the
   * wheel's new spin: dFx/domega' = dFx/dkappa·dkappa'/domega' + damping·du'/domega', with
   * du'/domega' = dt·r/(1 + dt|vx|/sigma_x). */
  for (int k = 0; k < block_count; ++k) {
    const tyre_block *blk = &blocks[k];
    int first = k * LANES;
    const void *const *c = blk->config;
    void *const *w_out = blk->wheel;
    const int *at = blk->at;
    lane fade = lane_clamp(1.0 - lane_abs(blk->vx) * C(inv_low_speed), lane_of(0.0), lane_of(1.0));
    lane damping = C(low_speed_damping) * fade;
    lane du_domega = dt * C(radius) * blk->inv_denom_x;
    lane fx0 = lane_load(&out.fx[first]) + damping * (blk->u_pred - blk->deflection_x) * inv_dt;
    S_PUT(fx0, fx0);
    lane response = lane_max(lane_load(&out.dfx_dkappa[first]), lane_of(0.0)) * du_domega *
                        C(inv_relax_x) +
                    damping * du_domega * inv_dt;
    S_PUT(k, lane_select(blk->clamped_x, lane_of(0.0), response));
    /* The damping acts through the contact patch, so it cannot take the lateral force past
     * what friction allows, unless the Magic Formula's own force is larger: a car struck
     * broadside at standstill (the carcass deflecting at 6 m/s) drew 22 kN a tyre from it at
     * 3.6 kN of load, and tripped over its wheels. */
    lane fy_mf = lane_load(&out.fy[first]);
    lane fy_damped = fy_mf - damping * (blk->deflection_y_new - blk->deflection_y) * inv_dt;
    lane_mask damped = damping > 0.0;
    lane fy = lane_select(damped, fy_damped, fy_mf);
    /* Only a force larger than the Magic Formula's can pass the cap. */
    lane_mask capped = damped & (lane_abs(fy_damped) > lane_abs(fy_mf));
    for (int l = 0; l < LANES; ++l) {
      if (!capped[l]) continue;
      int j = first + l;
      const wheel_config *config = c[l];
      int axle = config->axle;
      double mu_y = v->type->mf[axle] ? full_mf_peak_mu_y(&v->def->axles[axle].tyre, fz[j])
                                      : grip_simple_mf_loaded_mu(config->mf_def, config->mf_def->lateral.mu, fz[j]);
      double cap = maxd(mu_y * fz[j] * scale[j], fabs(fy_mf[l]));
      fy[l] = clampd(fy[l], -cap, cap);
    }
    lane_scatter(w_out, offsetof(wheel_runtime, fy), fy);
    lane_scatter(w_out, offsetof(wheel_runtime, mz), lane_load(&out.mz[first]));
    lane_scatter(w_out, offsetof(wheel_runtime, deflection_y), blk->deflection_y_new);
    lane_scatter(w_out, offsetof(wheel_runtime, tan_alpha), lane_load(&tan_alpha[first]));
#undef W
#undef C
#undef S_GET
#undef S_PUT
  }
#undef CONTACT
}

STEP_INLINE void tyres(vehicle *v, wheel_scratch *sc, const mat3 *rot, double dt, int n_wheels,
                      bool moving) {
  const grip_brake_def *b = &v->def->brakes;
  double handbrake = b->handbrake_torque * v->filtered.handbrake;
  int contact[GRIP_MAX_WHEELS], n = 0;

  /* Brakes, and the wheels in the air. */
  for (int i = 0; i < n_wheels; ++i) {
    wheel_runtime *w = &v->wheels[i];
    const wheel_config *c = &v->type->wheels[i];
    double friction = c->brake_torque * v->filtered.brake;
    if (c->handbrake) friction += handbrake;
    sc->friction_torque[i] = friction;
    if (!w->in_contact) {
      w->deflection_x = w->deflection_y = 0.0;
      sc->fx0[i] = sc->k[i] = w->fy = w->mz = w->fx = 0.0;
      w->kappa = w->tan_alpha = 0.0;
      sc->inv_denom_x[i] = 1.0;
      continue;
    }
    contact[n++] = i;
  }
  /* With every wheel on the ground (nearly always) the k-th in contact is wheel k: a copy of the
   * rest for that case, whose wheels' places the compiler knows (n_wheels a constant 4 for the
   * usual car). */
  if (n == n_wheels) tyres_on_ground(v, sc, rot, dt, moving, contact, n_wheels, true);
  else tyres_on_ground(v, sc, rot, dt, moving, contact, n, false);
}

/* After the drivetrain solve: carcass deflection from the final wheel speed. */
STEP_INLINE void tyres_finish(vehicle *v, const wheel_scratch *sc, double dt, int n) {
  for (int i = 0; i < n; ++i) {
    wheel_runtime *w = &v->wheels[i];
    const wheel_config *c = &v->type->wheels[i];
    if (!w->in_contact) {
      w->fx = 0.0;
      continue;
    }
    double sx = c->relax_x;
    double u = (w->deflection_x + dt * (w->spin * c->radius - sc->vx[i])) * sc->inv_denom_x[i];
    u = clampd(u, -MAX_TRANSIENT_KAPPA * sx, MAX_TRANSIENT_KAPPA * sx);
    w->deflection_x = u;
    w->kappa = u * c->inv_relax_x;
  }
}

/* --- chassis --------------------------------------------------------------------------- */

/* Force (N, world, at the CG) and torque (N·m, world, about the CG) on the chassis from the
 * wheels, aerodynamics and arcade aids, added to *force and *torque (which start with gravity
 * in grip's own mode, with zero in forces mode: the sum's order stays that of before forces
 * mode, so grip's own mode is bit-identical). wheel_force (may be NULL) gets each wheel's
 * force. */
STEP_INLINE void chassis_forces(const vehicle *v, const wheel_scratch *sc, const grip_world_def *world,
                                const mat3 *rot, grip_vec3 *force_io, grip_vec3 *torque_io,
                                grip_vec3 wheel_force[GRIP_MAX_WHEELS], int n) {
  /* The wheels' sums with x, y and z in one vector each (v4.h: the same bits as gmath.h). */
  v4 force4 = v4_of(*force_io), torque4 = v4_of(*torque_io), position = v4_of(v->position);
  for (int i = 0; i < n; ++i) {
    const wheel_runtime *w = &v->wheels[i];
    if (wheel_force) wheel_force[i] = v3(0, 0, 0);
    if (!w->in_contact) continue;
    v4 normal = v4_of(w->contact_normal);
    v4 f = normal * w->load;
    f += v4_xyz(sc->long_x[i], sc->long_y[i], sc->long_z[i]) * w->fx;
    f += v4_xyz(sc->lat_x[i], sc->lat_y[i], sc->lat_z[i]) * w->fy;
    if (wheel_force) wheel_force[i] = v4_vec3(f);
    force4 += f;
    torque4 += v4_cross(v4_of(w->contact_point) - position, f);
    torque4 += normal * w->mz;
  }

  /* Aerodynamics in still air. */
  const grip_aero_def *aero = &v->def->aero;
  double rho = world->air_density;
  grip_vec3 fwd = mat3_column(rot, 0);
  grip_vec3 up = mat3_column(rot, 2);
  grip_vec3 force = v4_vec3(force4);
  grip_vec3 torque = v4_vec3(torque4);
  double speed2 = v3_dot(v->velocity, v->velocity);
  double vx = v3_dot(v->velocity, fwd);
  double q = 0.5 * rho * vx * vx; /* dynamic pressure on the car's own axis, Pa */
  if (speed2 > 0.0) {
    /* Drag −½·rho·Cd·A·|v|·v at the centre of pressure. */
    grip_vec3 drag = v3_scale(v->velocity, -0.5 * rho * aero->drag_coefficient * aero->frontal_area * sqrt(speed2));
    grip_vec3 at = v3_scale(up, aero->center_of_pressure_z - v->com_design.z);
    force = v3_add(force, drag);
    torque = v3_add(torque, v3_cross(at, drag));
    /* Lift at the first and the last axle, ½·rho·CL·A·vx²·ground effect along the body's up
     * (negative CL pushes down); the ground effect from the mean underbody clearance over the
     * wheels. */
    double ground_effect = 1.0;
    if (aero->ground_effect_gain > 0.0) {
      double clearance = 0.0, share = 1.0 / n;
      for (int i = 0; i < n; ++i) {
        const wheel_runtime *w = &v->wheels[i];
        const wheel_config *c = &v->type->wheels[i];
        clearance += share * (aero->ride_height + v->def->axles[c->axle].suspension.droop_travel - w->compression);
      }
      ground_effect = grip_aero_ground_effect(aero, clearance);
    }
    for (int end = 0; end < 2; ++end) {
      double cl = end == 0 ? aero->lift_coefficient_front : aero->lift_coefficient_rear;
      if (cl == 0.0) continue;
      int a = end == 0 ? 0 : v->type->axle_count - 1;
      grip_vec3 lift = v3_scale(up, q * cl * aero->frontal_area * ground_effect);
      grip_vec3 arm = v3_scale(fwd, v->def->axles[a].x - v->com_design.x);
      force = v3_add(force, lift);
      torque = v3_add(torque, v3_cross(arm, lift));
    }
    /* Wings as flat plates: normal force 4·rho·A·sin(angle)·vx² (TORCS's wing model, design
     * notes §4); its components are downforce (·cos) and drag (·sin). */
    for (int k = 0; k < aero->wing_count; ++k) {
      const grip_wing_def *wg = &aero->wings[k];
      double sin_angle = v->type->wing_sin[k], cos_angle = v->type->wing_cos[k];
      double normal = 4.0 * rho * wg->area * sin_angle * vx * vx;
      grip_vec3 f = v3_add(v3_scale(up, -normal * cos_angle), v3_scale(fwd, -signd(vx) * fabs(normal * sin_angle)));
      grip_vec3 arm = mat3_mul(rot, v3(wg->x - v->com_design.x, 0, wg->z - v->com_design.z));
      force = v3_add(force, f);
      torque = v3_add(torque, v3_cross(arm, f));
    }
  }

  /* Arcade aids (off by default). */
  const grip_assist_def *aid = &v->def->assists;
  if (aid->yaw_damping > 0.0) torque = v3_mad(torque, up, -aid->yaw_damping * v3_dot(v->angular_velocity, up));
  if (aid->max_roll > 0.0 || aid->max_pitch > 0.0) {
    /* Roll and pitch of the body relative to world up. Beyond the limit a spring of
     * k = 10·m·g N·m/rad per radian of excess pushes back, critically damped
     * (c = 2·sqrt(k·I)) so the body returns to the limit without swinging past it. */
    grip_vec3 left = mat3_column(rot, 1);
    double roll = asin(clampd(v3_dot(left, v3(0, 0, 1)), -1.0, 1.0));
    double pitch = asin(clampd(-v3_dot(fwd, v3(0, 0, 1)), -1.0, 1.0));
    double k = 10.0 * total_mass(v) * 9.81;
    if (aid->max_roll > 0.0 && fabs(roll) > aid->max_roll) {
      double c = 2.0 * sqrt(k * v->inertia.x);
      torque = v3_mad(torque, fwd, -signd(roll) * (fabs(roll) - aid->max_roll) * k - c * v3_dot(v->angular_velocity, fwd));
    }
    if (aid->max_pitch > 0.0 && fabs(pitch) > aid->max_pitch) {
      double c = 2.0 * sqrt(k * v->inertia.y);
      torque = v3_mad(torque, left, -signd(pitch) * (fabs(pitch) - aid->max_pitch) * k - c * v3_dot(v->angular_velocity, left));
    }
  }
  *force_io = force;
  *torque_io = torque;
}

STEP_INLINE void integrate_body(vehicle *v, const wheel_scratch *sc, const grip_world_def *world,
                                const mat3 *rot, double dt, int n) {
  grip_vec3 force = v3_scale(world->gravity, total_mass(v));
  grip_vec3 torque = v3(0, 0, 0);
  chassis_forces(v, sc, world, rot, &force, &torque, NULL, n);

  /* Semi-implicit (symplectic) Euler on the 6-DOF body. */
  double inv_mass = 1.0 / total_mass(v);
  grip_vec3 old_velocity = v->velocity;
  v->velocity = v3_mad(v->velocity, force, dt * inv_mass);
  /* Angular: world inertia I_w = R·I·Rᵀ; dw/dt = I_w⁻¹·(tau − w × I_w·w). */
  grip_vec3 w_body = mat3_mul_transposed(rot, v->angular_velocity);
  grip_vec3 t_body = mat3_mul_transposed(rot, torque);
  grip_vec3 iw = v3(v->inertia.x * w_body.x, v->inertia.y * w_body.y, v->inertia.z * w_body.z);
  grip_vec3 net = v3_sub(t_body, v3_cross(w_body, iw));
  grip_vec3 inv_i = v->type->inv_inertia;
  w_body = v3_add(w_body, v3(dt * net.x * inv_i.x, dt * net.y * inv_i.y, dt * net.z * inv_i.z));
  v->angular_velocity = mat3_mul(rot, w_body);
  v->position = v3_mad(v->position, v->velocity, dt);
  grip_vec3 wv = v->angular_velocity;
  grip_quat spin = {0.0, wv.x, wv.y, wv.z};
  grip_quat dq = quat_mul(spin, v->rotation);
  v->rotation = quat_normalize((grip_quat){v->rotation.w + 0.5 * dt * dq.w, v->rotation.x + 0.5 * dt * dq.x,
                                           v->rotation.y + 0.5 * dt * dq.y, v->rotation.z + 0.5 * dt * dq.z});
  v->acceleration = v3_scale(v3_sub(v->velocity, old_velocity), 1.0 / dt);
}



/* Holds a vehicle that has left the world where it is: no motion, wheels stopped. */
static void hold_out_of_world(vehicle *v) {
  v->out_of_world = true;
  v->velocity = v->angular_velocity = v->acceleration = v3(0, 0, 0);
  for (int i = 0; i < v->wheel_count; ++i) {
    wheel_runtime *w = &v->wheels[i];
    w->spin = w->deflection_x = w->deflection_y = 0.0;
    w->in_contact = false;
    w->load = w->fx = w->fy = w->mz = 0.0;
  }
  v->steering_torque = 0.0;
}

/* Torque at the steering wheel from the steered tyres in contact (steering_torque.h); the
 * wheel's rate is that of the filtered steering input over this step. */
STEP_INLINE void steering_feedback(vehicle *v, double previous_steering, double dt, int n) {
  /* The kingpin moment summed here, wheel by wheel: passing the forces through arrays on the
   * stack had the callee load two of them at once, a load that store forwarding cannot serve. */
  double kingpin = 0.0;
  for (int i = 0; i < n; ++i) {
    const wheel_runtime *w = &v->wheels[i];
    if (!w->in_contact || v->type->wheels[i].steer_ratio == 0.0) continue;
    kingpin = grip_steering_kingpin_moment(&v->def->steering, kingpin, w->fy, w->mz);
  }
  double rate = (v->filtered.steering - previous_steering) * v->def->steering.max_wheel_angle / dt;
  v->steering_torque = grip_steering_wheel_torque(&v->def->steering, kingpin, rate);
}

/* The step for a vehicle of n wheels: grip_vehicle_step calls it with n a constant 4 for the
 * usual car, two axles of two wheels (so that its per-wheel loops compile as they did for a
 * fixed four), and with the vehicle's own count otherwise (n may be 4 there too: four axles of
 * one wheel, say). */
STEP_INLINE void vehicle_step_n(vehicle *v, const grip_world_def *world, double dt, int n, bool car) {
  if (v->out_of_world) return;
  grip_vec3 start_position = v->position;
  grip_quat start_rotation = v->rotation;

  double previous_steering = v->filtered.steering;
  filter_inputs(v, dt);
  mat3 rot = mat3_from_quat(v->rotation);
  steer_wheels(v, v3_dot(v->velocity, mat3_column(&rot, 0)));
  suspension(v, world, &rot, dt, n, car);
  wheel_scratch scratch; /* this step's tyre frame and linearised response */
  wheel_scratch *sc = &scratch;
  tyres(v, sc, &rot, dt, n, world->moving_ground);
  steering_feedback(v, previous_steering, dt, n);
  /* No fuel, no combustion: the engine only brakes. */
  if (v->def->engine.fuel_per_joule > 0.0 && v->fuel_mass <= 0.0) v->filtered.throttle = 0.0;
  if (grip_systems_on(v)) {
    /* ABS, traction control, ESC: they change this step's brake torques and may cut the engine
     * torque (through the throttle the engine sees, the driver's kept for the filter). */
    double driver_throttle = v->filtered.throttle;
    v->filtered.throttle *= grip_systems_step(v, sc, &rot, world, dt);
    grip_drivetrain_step(v, sc, dt);
    v->filtered.throttle = driver_throttle;
  } else {
    grip_drivetrain_step(v, sc, dt);
  }
  tyres_finish(v, sc, dt, n);
  if (v->type->tyre_state_on) grip_tyre_state_step(v, sc, dt);
  bool external = v->def->chassis_mode == GRIP_CHASSIS_EXTERNAL;
  if (external) {
    /* Forces mode: the caller's engine integrates the body and resolves its contacts. */
    v->cold->chassis_force = v->cold->chassis_torque = v3(0, 0, 0);
    chassis_forces(v, sc, world, &rot, &v->cold->chassis_force, &v->cold->chassis_torque, v->wheel_force, n);
    /* What the body would accelerate at under grip's forces and gravity alone. */
    v->acceleration = v3_mad(world->gravity, v->cold->chassis_force, 1.0 / total_mass(v));
    v->ground_points = 0;
    v->ground_impulse = 0.0;
  } else {
    integrate_body(v, sc, world, &rot, dt, n);
    grip_ground_contact_step(v, world, &start_position, &start_rotation, &rot, dt); /* rot: of start_rotation */
  }

  double work = v->engine_torque * v->engine_omega * dt;
  if (work > 0.0) v->fuel_mass = maxd(0.0, v->fuel_mass - v->def->engine.fuel_per_joule * work);
  for (int i = 0; i < n; ++i) {
    wheel_runtime *w = &v->wheels[i];
    w->rotation += w->spin * dt;
    if (w->rotation >= 2.0 * GRIP_PI || w->rotation < 0.0) w->rotation -= 2.0 * GRIP_PI * floor(w->rotation / (2.0 * GRIP_PI));
    w->prev_compression = w->compression;
    w->was_in_contact = w->in_contact;
  }
  v->time += dt;

  /* Safety net: nothing non-finite may leave a step. Should a force ever blow up, the car is
   * put back where the step began, at rest. */
  /* A sum of the values is finite exactly when every value is finite (a NaN or an infinity in
   * it makes it NaN or infinite), unless it overflows, which takes a value near 10³⁰⁸ / 39, a
   * state as blown-up as any: and s − s is 0 exactly when s is finite. One addition a value and no
   * branch (this runs every step; needs IEEE arithmetic, which -ffast-math would not give). */
  double sum = v->position.x + v->position.y + v->position.z + v->velocity.x + v->velocity.y + v->velocity.z +
               v->angular_velocity.x + v->angular_velocity.y + v->angular_velocity.z + v->rotation.w +
               v->engine_omega;
  /* The wheels two at a time in lanes (a spare lane repeats its pair's first wheel): the sum's
   * order does not matter, only whether it is finite. */
  lane wheels_sum = lane_of(0.0);
  for (int i = 0; i < n; i += LANES) {
    const void *w[LANES];
    for (int l = 0; l < LANES; ++l) w[l] = &v->wheels[lane_item(i, l, n)];
#define W(field) lane_gather(w, offsetof(wheel_runtime, field))
    wheels_sum += W(spin) + W(deflection_x) + W(deflection_y) + W(fx) + W(fy) + W(compression) + W(load);
#undef W
  }
  for (int l = 0; l < LANES; ++l) sum += wheels_sum[l];
  bool ok = sum - sum == 0.0;
  if (external) {
    ok = ok && finite3_ok(v->cold->chassis_force) && finite3_ok(v->cold->chassis_torque);
    for (int i = 0; i < n; ++i) ok = ok && finite3_ok(v->wheel_force[i]);
  }
  /* The tyres' temperatures follow the sliding power: a body that blew up may have driven them
   * past any number before its own state went non-finite. */
  bool tyres_ok = true;
  if (v->type->tyre_state_on)
    for (int i = 0; i < n; ++i) {
      const tyre_runtime *w = &v->tyres[i];
      tyres_ok = tyres_ok && isfinite(w->temp_surface) && isfinite(w->temp_carcass) && isfinite(w->temp_gas) &&
                 isfinite(w->pressure) && isfinite(w->tread_depth) && isfinite(w->tyre_grip) && isfinite(w->sliding_power);
    }
  if (!tyres_ok) grip_tyre_state_init(v); /* back to the definition's starting state */
  if (!ok || !tyres_ok) {
    v->cold->spawn_pose.position = v3_sub(start_position, quat_rotate(start_rotation, v->com_design));
    v->cold->spawn_pose.rotation = start_rotation;
    v->cold->spawn_velocity = v3(0, 0, 0);
    grip_vehicle_reset_motion(v);
    /* What the blown-up step left in the wheels' outputs (forces, slips, loads, the contact it
     * found: a user's ground that answered NaN there) goes too: at rest, in the air until the
     * next step casts again. Nothing is checked per ray: a non-finite answer makes the step's
     * state non-finite, and this net catches it at no cost to the steps that do not blow up. */
    for (int i = 0; i < n; ++i) {
      wheel_runtime *w = &v->wheels[i];
      w->fx = w->fy = w->mz = w->kappa = w->tan_alpha = 0.0;
      w->load = w->applied_friction = 0.0;
      w->in_contact = w->hit_known = false;
      if (!isfinite(w->rotation)) w->rotation = 0.0;
      if (!finite3_ok(w->contact_point) || !finite3_ok(w->contact_normal)) {
        w->contact_point = v->position;
        w->contact_normal = v3(0, 0, 1);
      }
    }
    v->cold->chassis_force = v->cold->chassis_torque = v3(0, 0, 0);
    if (v->wheel_force)
      for (int i = 0; i < n; ++i) v->wheel_force[i] = v3(0, 0, 0);
  }
  if (!external && grip_ground_left_world(v, world, n)) hold_out_of_world(v);
}

GRIP_HOT_CLONES
static void vehicle_step_cloned(vehicle *v, const grip_world_def *world, double dt) {
  if (v->type->two_by_two) vehicle_step_n(v, world, dt, 4, true);
  else vehicle_step_n(v, world, dt, v->wheel_count, false);
}

void grip_vehicle_step(vehicle *v, const grip_world_def *world, double dt) {
  vehicle_step_cloned(v, world, dt);
}

void grip_vehicle_fill_state(const vehicle *v, grip_vehicle_state *s) {
  /* Every byte zeroed before it is written, padding too; the wheels that are filled zero
   * themselves (grip_vehicle_fill_wheel), so only the rest is cleared here: a robot reads this
   * state every step, and clearing its 1.2 kB twice showed in a race's profile. */
  int filled = v->wheel_count < GRIP_WHEEL_COUNT ? v->wheel_count : GRIP_WHEEL_COUNT;
  size_t wheels_at = offsetof(grip_vehicle_state, wheels), wheels_end = wheels_at + sizeof s->wheels;
  memset(s, 0, wheels_at);
  memset(&s->wheels[filled], 0, (size_t)(GRIP_WHEEL_COUNT - filled) * sizeof s->wheels[0]);
  memset((char *)s + wheels_end, 0, sizeof *s - wheels_end);
  s->pose.rotation = v->rotation;
  s->pose.position = v3_sub(v->position, quat_rotate(v->rotation, v->com_design));
  s->center_of_mass = v->position;
  s->linear_velocity = v->velocity;
  s->angular_velocity = v->angular_velocity;
  s->acceleration = v->acceleration;
  s->local_velocity = quat_unrotate(v->rotation, v->velocity);
  s->local_acceleration = quat_unrotate(v->rotation, v->acceleration);
  s->speed = s->local_velocity.x;
  s->engine_rpm = v->engine_omega / RPM_TO_RAD_PER_S;
  s->engine_torque = v->engine_torque;
  s->clutch_engagement = v->clutch_engagement;
  s->gear = v->shift_timer > 0.0 ? v->gear : v->gear;
  s->shifting = v->shift_timer > 0.0;
  s->fuel_mass = v->fuel_mass;
  s->mass = total_mass(v);
  s->time = v->time;
  s->out_of_world = v->out_of_world;
  s->steering_torque = v->steering_torque;
  /* What the systems did in the last step; nothing while they are all off (their runtime then
   * keeps the values of the last step they ran). */
  bool systems = grip_systems_on(v);
  s->abs_active = systems && v->abs_active;
  s->tc_active = systems && v->tc_active;
  s->esc_active = systems && v->esc_active;
  s->esc_yaw_rate_reference = systems ? v->esc_reference : 0.0;
  s->tc_torque_factor = systems ? v->tc_torque_factor : 1.0;
  s->wheel_count = v->wheel_count;
  for (int i = 0; i < filled; ++i) grip_vehicle_fill_wheel(v, i, &s->wheels[i]);
}

GRIP_HOT_CLONES
static void vehicle_fill_motion_cloned(const vehicle *v, grip_vehicle_motion *m) {
  memset(m, 0, sizeof *m); /* padding too */
  /* the same expressions as grip_vehicle_fill_state's: the same bits */
  m->pose.rotation = v->rotation;
  m->pose.position = v3_sub(v->position, quat_rotate(v->rotation, v->com_design));
  m->center_of_mass = v->position;
  m->linear_velocity = v->velocity;
  m->angular_velocity = v->angular_velocity;
  m->local_velocity = quat_unrotate(v->rotation, v->velocity);
  m->speed = m->local_velocity.x;
  m->fuel_mass = v->fuel_mass;
  m->time = v->time;
  m->out_of_world = v->out_of_world;
}

void grip_vehicle_fill_motion(const vehicle *v, grip_vehicle_motion *m) {
  vehicle_fill_motion_cloned(v, m);
}

void grip_vehicle_fill_wheel(const vehicle *v, int i, grip_wheel_state *o) {
  {
    const wheel_runtime *w = &v->wheels[i];
    memset(o, 0, sizeof *o);
    o->in_contact = w->in_contact;
    o->contact_point = w->contact_point;
    o->contact_normal = w->contact_normal;
    o->load = w->load;
    o->slip_ratio = w->kappa;
    o->slip_angle = fast_atan(w->tan_alpha); /* the angle only when asked for: an atan a wheel a step */
    o->fx = w->fx;
    o->fy = w->fy;
    o->mz = w->mz;
    o->spin = w->spin;
    o->rotation = w->rotation;
    o->steer_angle = w->steer;
    o->compression = w->compression;
    o->suspension_force = w->load; /* (the same force: the strut's, on the tyre) */
    o->drive_torque = w->drive_torque;
    o->brake_torque = w->applied_friction;
    o->surface_id = w->surface_id;
    o->tyre_grip = 1.0;
    if (v->type->tyre_state_on) {
      const tyre_runtime *t = &v->tyres[i];
      o->tyre_surface_temperature = t->temp_surface;
      o->tyre_carcass_temperature = t->temp_carcass;
      o->tyre_gas_temperature = t->temp_gas;
      o->tyre_pressure = t->pressure;
      o->tread_depth = t->tread_depth;
      o->tyre_grip = t->tyre_grip;
      o->tyre_sliding_power = t->sliding_power;
    }
  }
}
