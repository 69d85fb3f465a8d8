/* Solid ground (docs/physics.md, "Solid ground"): the body box rests on every kind of ground in
 * every orientation and never passes through it; a car pushed down by another stays on top; a
 * world has edges (out_of_world).
 *
 * Expectations are independent of the engine: each ground's height comes from its own formula
 * (the plane's equation, the heightfield's generating function, the user callback's function)
 * or, for tracks, from the track geometry query; energies from m·g·z + ½·m·v² + ½·ωᵀIω. */
#include <math.h>
#include <string.h>

#include "grip/grip.h"
#include "grip/heightfield.h"
#include "test.h"
#include "track_file.h"

#define PI 3.14159265358979323846
#define G 9.81

/* --- the grounds, each with its own height function --------------------------------------- */

typedef enum { PLANE, SLOPE, HEIGHTFIELD, CALLBACK, TRACK, TORCS_TRACK, GROUND_KINDS } ground_kind;
static const char *ground_names[GROUND_KINDS] = {"plane", "slope 20 %", "heightfield", "callback", "track",
                                                 "torcs track"};

#define SLOPE_GRADE 0.2
/* The heightfield's generating function (m): gentle waves, sampled every 1 m on 121 x 121. */
static double wave_height(double x, double y) { return 0.4 * sin(x / 9.0) * cos(y / 11.0); }
/* The user callback's ground: a different function, raycast by marching and bisection here. */
static double callback_height(double x, double y) { return 1.5 + 0.3 * sin(0.25 * x + 0.1 * y); }

static bool callback_raycast(void *context, const grip_ground_query *query, grip_vec3 o, grip_vec3 d, double max_distance, grip_ground_hit *hit) {
  (void)context;
  (void)query;
  double f0 = o.z - callback_height(o.x, o.y);
  if (f0 < 0.0) return false; /* starts below the ground */
  const double step = 0.02;
  double t0 = 0.0;
  for (double t1 = step; t0 < max_distance; t1 += step) {
    t1 = fmin(t1, max_distance);
    grip_vec3 p = {o.x + d.x * t1, o.y + d.y * t1, o.z + d.z * t1};
    if (p.z - callback_height(p.x, p.y) <= 0.0) {
      double lo = t0, hi = t1;
      for (int k = 0; k < 50; ++k) {
        double mid = 0.5 * (lo + hi);
        grip_vec3 q = {o.x + d.x * mid, o.y + d.y * mid, o.z + d.z * mid};
        if (q.z - callback_height(q.x, q.y) > 0.0) lo = mid; else hi = mid;
      }
      grip_vec3 q = {o.x + d.x * hi, o.y + d.y * hi, o.z + d.z * hi};
      double c = 0.3 * cos(0.25 * q.x + 0.1 * q.y);
      grip_vec3 n = {-0.25 * c, -0.1 * c, 1.0};
      double len = sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
      hit->point = q;
      hit->normal = (grip_vec3){n.x / len, n.y / len, n.z / len};
      hit->distance = hi;
      hit->surface = grip_default_surface();
      return true;
    }
    t0 = t1;
    if (t1 >= max_distance) break;
  }
  return false;
}

typedef struct ground_setup {
  ground_kind kind;
  grip_plane plane;
  grip_heightfield *hf;
  grip_track *track;
  grip_track_ground_context track_ctx, barrier_ctx;
  double x, y; /* where to drop the car */
} ground_setup;

static bool ground_setup_init(ground_setup *g, ground_kind kind) {
  memset(g, 0, sizeof *g);
  g->kind = kind;
  if (kind == HEIGHTFIELD) {
    static double heights[121 * 121];
    for (int r = 0; r < 121; ++r)
      for (int c = 0; c < 121; ++c) heights[r * 121 + c] = wave_height(c - 60.0, r - 60.0);
    grip_heightfield_def def = grip_default_heightfield_def();
    def.origin_x = def.origin_y = -60.0;
    def.rows = def.cols = 121;
    def.heights = heights;
    if (grip_heightfield_create(&def, &g->hf) != GRIP_OK) return false;
    g->x = 7.0, g->y = -4.0;
  } else if (kind == TRACK || kind == TORCS_TRACK) {
    grip_load_error err;
    if (grip_track_open(kind == TRACK ? "default" : "torcs:e-track-4", &g->track, NULL, 0, &err) != 0) return false;
    /* On the road 300 m from the start (a bend on the built-in track). */
    grip_track_point p = grip_track_point_at(g->track, 300.0);
    g->x = p.position.x, g->y = p.position.y;
  } else {
    g->plane = kind == SLOPE ? grip_slope_plane(SLOPE_GRADE, 0.0) : grip_default_plane();
    g->x = 3.0, g->y = 2.0;
  }
  return true;
}

static void ground_setup_free(ground_setup *g) {
  grip_heightfield_destroy(g->hf);
  grip_track_destroy(g->track);
}

static grip_world *make_world(ground_setup *g, grip_world_def *wd) {
  if (g->kind == HEIGHTFIELD) wd->ground = grip_heightfield_ground(g->hf);
  else if (g->kind == CALLBACK) wd->ground = (grip_ground){callback_raycast, NULL};
  else if (g->track) {
    wd->ground = grip_track_ground(&g->track_ctx, g->track);
    wd->barrier = grip_track_barriers(&g->barrier_ctx, g->track);
  } else wd->ground = grip_plane_ground(&g->plane);
  return grip_create_world(wd);
}

/* The ground's height under (x, y), from the ground's own definition. */
static double ground_height(const ground_setup *g, double x, double y) {
  switch (g->kind) {
    case PLANE: return 0.0;
    case SLOPE: return SLOPE_GRADE * x;
    case HEIGHTFIELD: return wave_height(x, y);
    case CALLBACK: return callback_height(x, y);
    default: return grip_track_locate(g->track, x, y, -1).z;
  }
}

/* --- the body box and the car's energy -------------------------------------------------- */

static grip_vec3 rotate(grip_quat q, grip_vec3 v) {
  grip_vec3 u = {q.x, q.y, q.z};
  grip_vec3 t = {2 * (u.y * v.z - u.z * v.y), 2 * (u.z * v.x - u.x * v.z), 2 * (u.x * v.y - u.y * v.x)};
  return (grip_vec3){v.x + q.w * t.x + (u.y * t.z - u.z * t.y), v.y + q.w * t.y + (u.z * t.x - u.x * t.z),
                     v.z + q.w * t.z + (u.x * t.y - u.y * t.x)};
}

static grip_quat quat_mul(grip_quat a, grip_quat b) {
  return (grip_quat){a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                     a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
}

static grip_quat axis_angle(double x, double y, double z, double angle) {
  return (grip_quat){cos(0.5 * angle), x * sin(0.5 * angle), y * sin(0.5 * angle), z * sin(0.5 * angle)};
}

/* The 8 corners of the body box in the world. */
static void box_corners(const grip_vehicle_def *d, const grip_vehicle_state *s, grip_vec3 out[8]) {
  for (int i = 0; i < 8; ++i) {
    grip_vec3 local = {d->body.box_center.x + ((i & 1) ? 0.5 : -0.5) * d->body.dimensions.x,
                       d->body.box_center.y + ((i & 2) ? 0.5 : -0.5) * d->body.dimensions.y,
                       d->body.box_center.z + ((i & 4) ? 0.5 : -0.5) * d->body.dimensions.z};
    grip_vec3 w = rotate(s->pose.rotation, local);
    out[i] = (grip_vec3){s->pose.position.x + w.x, s->pose.position.y + w.y, s->pose.position.z + w.z};
  }
}

/* Lowest height (m) of a box corner above the ground under it (< 0: inside the ground). */
static double lowest_clearance(const ground_setup *g, const grip_vehicle_def *d, const grip_vehicle_state *s) {
  grip_vec3 c[8];
  box_corners(d, s, c);
  double lowest = INFINITY;
  for (int i = 0; i < 8; ++i) lowest = fmin(lowest, c[i].z - ground_height(g, c[i].x, c[i].y));
  return lowest;
}

static double energy(const grip_vehicle_def *d, const grip_vehicle_state *s) {
  grip_vec3 v = s->linear_velocity, w = s->angular_velocity;
  grip_quat q = s->pose.rotation, qi = {q.w, -q.x, -q.y, -q.z};
  grip_vec3 wb = rotate(qi, w), I = d->body.inertia;
  return s->mass * G * s->center_of_mass.z + 0.5 * s->mass * (v.x * v.x + v.y * v.y + v.z * v.z) +
         0.5 * (I.x * wb.x * wb.x + I.y * wb.y * wb.y + I.z * wb.z * wb.z);
}

/* grip_vehicle_get_motion against grip_vehicle_get_state: each field its namesake's bits, and
 * the padding zero (the expectation is built on a zeroed struct from the state's fields). */
static bool motion_matches_state(const grip_world *world, grip_vehicle_id id) {
  grip_vehicle_state s;
  grip_vehicle_motion m, want;
  memset(&m, 0xA5, sizeof m); /* what the call does not write shows */
  if (grip_vehicle_get_state(world, id, &s) != GRIP_OK || grip_vehicle_get_motion(world, id, &m) != GRIP_OK)
    return false;
  memset(&want, 0, sizeof want);
  want.pose = s.pose;
  want.center_of_mass = s.center_of_mass;
  want.linear_velocity = s.linear_velocity;
  want.angular_velocity = s.angular_velocity;
  want.local_velocity = s.local_velocity;
  want.speed = s.speed;
  want.fuel_mass = s.fuel_mass;
  want.time = s.time;
  want.out_of_world = s.out_of_world;
  return memcmp(&m, &want, sizeof m) == 0;
}

/* --- dropping a car -------------------------------------------------------------------- */

typedef struct drop_result {
  bool finite, stayed_in_world;
  bool motion_matches; /* grip_vehicle_get_motion equal to the state's fields at every step */
  double worst_clearance; /* m, lowest corner clearance over the whole run */
  double final_clearance; /* m, at the end */
  double final_speed;     /* m/s */
  double energy_rise;     /* J, largest rise of the energy over any 0.5 s after the first touch */
  double energy_start, energy_end;
} drop_result;

/* Drops the built-in car in orientation q (about its box centre), its lowest box corner 2 m
 * above the ground under it, and lets it settle for `seconds`, brakes on. */
static drop_result drop(ground_kind kind, grip_quat q, double dt, double seconds) {
  drop_result r = {true, true, true, INFINITY, INFINITY, 0.0, 0.0, 0.0, 0.0};
  ground_setup g;
  if (!ground_setup_init(&g, kind)) {
    r.finite = false;
    return r;
  }
  grip_world_def wd = grip_default_world_def();
  grip_world *world = make_world(&g, &wd);
  grip_vehicle_def car = grip_default_vehicle_def();
  grip_vehicle_id id = grip_create_vehicle(world, &car);
  /* Place with the box centre over (x, y), then lift so the lowest corner is 2 m up. */
  grip_vec3 bc = rotate(q, car.body.box_center);
  grip_pose pose = {{g.x - bc.x, g.y - bc.y, 0.0}, q};
  grip_vehicle_set_pose(world, id, pose);
  grip_vehicle_state s;
  grip_vehicle_get_state(world, id, &s);
  pose.position.z += 2.0 - lowest_clearance(&g, &car, &s);
  grip_vehicle_set_pose(world, id, pose);
  grip_vehicle_input in = grip_default_vehicle_input();
  in.brake = 1.0;
  in.handbrake = 1.0;
  in.gear = 0;
  grip_vehicle_set_input(world, id, &in);

  grip_vehicle_get_state(world, id, &s);
  r.energy_start = energy(&car, &s);
  int steps = (int)lround(seconds / dt), window = (int)lround(0.5 / dt);
  double window_start = r.energy_start;
  bool touched = false;
  for (int i = 1; i <= steps; ++i) {
    grip_world_step(world, dt);
    grip_vehicle_get_state(world, id, &s);
    r.motion_matches = r.motion_matches && motion_matches_state(world, id);
    double clearance = lowest_clearance(&g, &car, &s);
    double e = energy(&car, &s);
    r.finite = r.finite && isfinite(e) && isfinite(clearance);
    r.stayed_in_world = r.stayed_in_world && !s.out_of_world;
    r.worst_clearance = fmin(r.worst_clearance, clearance);
    if (!touched && clearance < 0.05) {
      touched = true;
      window_start = e;
    }
    if (touched && i % window == 0) {
      r.energy_rise = fmax(r.energy_rise, e - window_start);
      window_start = e;
    }
  }
  r.final_clearance = lowest_clearance(&g, &car, &s);
  r.final_speed = sqrt(s.linear_velocity.x * s.linear_velocity.x + s.linear_velocity.y * s.linear_velocity.y +
                       s.linear_velocity.z * s.linear_velocity.z);
  r.energy_end = energy(&car, &s);
  grip_destroy_world(world);
  ground_setup_free(&g);
  return r;
}

static void dropped_cars_rest_on_every_ground(void) {
  const struct {
    const char *name;
    grip_quat q;
  } orientations[] = {
      {"upright", {1, 0, 0, 0}},
      {"on its roof", axis_angle(1, 0, 0, PI)},
      {"on its left side", axis_angle(1, 0, 0, -0.5 * PI)},
      {"on its right side", axis_angle(1, 0, 0, 0.5 * PI)},
      {"nose down", axis_angle(0, 1, 0, 0.5 * PI)},
      {"tail down", axis_angle(0, 1, 0, -0.5 * PI)},
      {"tumbled 1", quat_mul(axis_angle(0, 0, 1, 0.8), quat_mul(axis_angle(0, 1, 0, 0.5), axis_angle(1, 0, 0, 2.3)))},
      {"tumbled 2", quat_mul(axis_angle(0, 0, 1, -2.0), quat_mul(axis_angle(0, 1, 0, -1.1), axis_angle(1, 0, 0, 0.7)))},
  };
  const double dts[] = {0.001, 0.005, 0.01};
  int n_orient = (int)(sizeof orientations / sizeof orientations[0]);
  for (int k = 0; k < GROUND_KINDS; ++k) {
    ground_setup probe;
    if (!ground_setup_init(&probe, (ground_kind)k)) {
      printf("  %-12s skipped (not installed)\n", ground_names[k]);
      continue;
    }
    ground_setup_free(&probe);
    double worst = INFINITY, worst_final = INFINITY, max_speed = 0.0, max_rise = 0.0;
    for (int o = 0; o < n_orient; ++o)
      for (int t = 0; t < 3; ++t) {
        drop_result r = drop((ground_kind)k, orientations[o].q, dts[t], 5.0);
        CHECK(r.finite);
        CHECK(r.stayed_in_world);
        CHECK(r.motion_matches);
        /* Never through the ground: no corner ever more than 3 cm inside it, and at rest every
         * corner above it within 2 cm. */
        CHECK(r.worst_clearance > -0.03);
        CHECK(r.final_clearance > -0.02);
        /* At rest, and the energy falls: no 0.5 s window after the first touch gains more than
         * 2 % of the drop's m·g·h (what the suspension springs, whose energy is not counted, give
         * back when a car falls over onto its wheels: up to 1.5 % seen), and most of the drop's
         * energy is gone. */
        CHECK(r.final_speed < 0.05);
        CHECK(r.energy_rise < 0.02 * 1439.0 * G * 2.0);
        CHECK(r.energy_end < r.energy_start - 0.5 * 1439.0 * G * 2.0);
        if (getenv("GRIP_TEST_VERBOSE") || !(r.worst_clearance > -0.03 && r.final_clearance > -0.02 && r.final_speed < 0.05))
          printf("  FAILED %s %s dt %.3f: worst %.4f final %.4f speed %.4f rise %.1f J\n", ground_names[k],
                 orientations[o].name, dts[t], r.worst_clearance, r.final_clearance, r.final_speed, r.energy_rise);
        worst = fmin(worst, r.worst_clearance);
        worst_final = fmin(worst_final, r.final_clearance);
        max_speed = fmax(max_speed, r.final_speed);
        max_rise = fmax(max_rise, r.energy_rise);
      }
    printf("  %-12s %d drops: deepest corner %.4f m, at rest %.4f m, final speed <= %.4f m/s, energy rise <= %.1f J\n",
           ground_names[k], 3 * n_orient, -worst, -worst_final, max_speed, max_rise);
  }
}

/* The same plane through a user's callback: a ground the step cannot tell from any other. */
static bool forwarded_plane_raycast(void *context, const grip_ground_query *query, grip_vec3 o, grip_vec3 d,
                                    double max_distance, grip_ground_hit *hit) {
  return grip_plane_raycast(context, query, o, d, max_distance, hit);
}

/* On grip's own plane the body's probe is left out where the box clears the plane for certain
 * (src/ground_contact.h, grip_ground_clear_of_own_plane), which must change nothing: the same
 * plane through a user's callback (where the probe and the gate over the wheels run as on any
 * ground) gives the same state, bit for bit, at every step. Cars dropped in five orientations
 * onto the flat plane and the 20 % slope (resting on their roof, side and wheels at the end), and
 * a car driven round at full lock, at three step sizes. */
static void own_plane_gate_changes_nothing(void) {
  const grip_quat orientations[] = {
      {1, 0, 0, 0},
      axis_angle(1, 0, 0, PI),
      axis_angle(1, 0, 0, -0.5 * PI),
      axis_angle(0, 1, 0, 0.5 * PI),
      quat_mul(axis_angle(0, 0, 1, 0.8), quat_mul(axis_angle(0, 1, 0, 0.5), axis_angle(1, 0, 0, 2.3))),
  };
  const double dts[] = {0.001, 0.005, 0.01};
  int runs = 0, steps_compared = 0, differ = 0;
  for (int k = PLANE; k <= SLOPE; ++k)
    for (int o = 0; o <= 5; ++o)
      for (int t = 0; t < 3; ++t) {
        ground_setup g;
        CHECK(ground_setup_init(&g, (ground_kind)k));
        grip_world *worlds[2];
        grip_vehicle_id ids[2];
        grip_vehicle_def car = grip_default_vehicle_def();
        bool driven = o == 5; /* upright, driven round */
        grip_quat q = driven ? orientations[0] : orientations[o];
        for (int w = 0; w < 2; ++w) {
          grip_world_def wd = grip_default_world_def();
          wd.ground = w == 0 ? grip_plane_ground(&g.plane) : (grip_ground){forwarded_plane_raycast, &g.plane};
          worlds[w] = grip_create_world(&wd);
          ids[w] = grip_create_vehicle(worlds[w], &car);
          grip_vec3 bc = rotate(q, car.body.box_center);
          grip_pose pose = {{g.x - bc.x, g.y - bc.y, 0.0}, q};
          grip_vehicle_set_pose(worlds[w], ids[w], pose);
          grip_vehicle_state s;
          grip_vehicle_get_state(worlds[w], ids[w], &s);
          /* dropped from 1 m; the driven car set down on its wheels */
          pose.position.z += (driven ? 0.25 : 1.0) - lowest_clearance(&g, &car, &s);
          grip_vehicle_set_pose(worlds[w], ids[w], pose);
          grip_vehicle_input in = grip_default_vehicle_input();
          if (driven) {
            in.throttle = 0.6;
            in.steering = 1.0;
          } else {
            in.brake = 1.0;
            in.gear = 0;
          }
          grip_vehicle_set_input(worlds[w], ids[w], &in);
        }
        int n = (int)lround(4.0 / dts[t]);
        bool same = true;
        for (int i = 0; i < n && same; ++i) {
          grip_world_step(worlds[0], dts[t]);
          grip_world_step(worlds[1], dts[t]);
          same = grip_world_state_hash(worlds[0]) == grip_world_state_hash(worlds[1]);
          ++steps_compared;
        }
        CHECK(same);
        if (!same) {
          ++differ;
          printf("  DIFFER %s orientation %d dt %.3f\n", ground_names[k], o, dts[t]);
        }
        ++runs;
        for (int w = 0; w < 2; ++w) grip_destroy_world(worlds[w]);
        ground_setup_free(&g);
      }
  printf("  %d runs, %d steps compared, %d differ\n", runs, steps_compared, differ);
}

/* A car dropped onto another car's roof: the lower one is pushed down, not through the ground. */
static void car_pushed_down_by_another_stays_on_the_ground(void) {
  const double dts[] = {0.001, 0.005, 0.01};
  for (int k = 0; k < GROUND_KINDS; ++k) {
    ground_setup g;
    if (!ground_setup_init(&g, (ground_kind)k)) continue;
    for (int t = 0; t < 3; ++t) {
      grip_world_def wd = grip_default_world_def();
      grip_world *world = make_world(&g, &wd);
      grip_vehicle_def car = grip_default_vehicle_def();
      grip_vehicle_id low = grip_create_vehicle(world, &car), high = grip_create_vehicle(world, &car);
      grip_vehicle_place(world, low, g.x, g.y, 0.0);
      grip_vehicle_state s;
      grip_vehicle_get_state(world, low, &s);
      /* The upper car upside down, its roof 1 m above the lower car's roof. */
      grip_pose pose = {{g.x, g.y, s.pose.position.z + 2.0 * (car.body.box_center.z + 0.5 * car.body.dimensions.z) + 1.0},
                        axis_angle(1, 0, 0, PI)};
      grip_vehicle_set_pose(world, high, pose);
      grip_vehicle_input in = grip_default_vehicle_input();
      in.brake = 1.0;
      in.gear = 0;
      grip_vehicle_set_input(world, low, &in);
      grip_vehicle_set_input(world, high, &in);
      double worst = INFINITY;
      bool touched = false;
      int steps = (int)lround(4.0 / dts[t]);
      for (int i = 0; i < steps; ++i) {
        grip_world_step(world, dts[t]);
        grip_vehicle_state sl, sh;
        grip_vehicle_get_state(world, low, &sl);
        grip_vehicle_get_state(world, high, &sh);
        double cl_ = lowest_clearance(&g, &car, &sl), ch_ = lowest_clearance(&g, &car, &sh);
        if (getenv("GRIP_TEST_VERBOSE") && fmin(cl_, ch_) < -0.01) {
          grip_vehicle_contacts cc;
          grip_vehicle_get_contacts(world, high, &cc);
          printf("    %s dt %.3f t %.3f low %.4f high %.4f vc %d gc %d\n", ground_names[k], dts[t], sl.time, cl_, ch_, cc.vehicle_count, cc.ground_count);
        }
        worst = fmin(worst, fmin(cl_, ch_));
        grip_vehicle_contacts c;
        grip_vehicle_get_contacts(world, low, &c);
        touched = touched || c.vehicle_count > 0;
      }
      CHECK(touched);
      CHECK(worst > -0.03);
      if (t == 2) printf("  %-12s stacked cars: deepest corner %.4f m in the ground\n", ground_names[k], -worst);
      grip_destroy_world(world);
    }
    ground_setup_free(&g);
  }
}

/* Wheel rays start inside the body box: a car with a shallow box (its top below hardpoint +
 * wheel radius) on its roof on a plane rests on the box with no wheel touching the ground. */
static void wheel_rays_start_inside_the_box(void) {
  grip_world_def wd = grip_default_world_def();
  grip_world *world = grip_create_world(&wd);
  grip_vehicle_def car = grip_default_vehicle_def();
  car.body.dimensions.z = 0.35; /* roof at 0.13 + 0.35 = 0.48 m, below hardpoint + r ≈ 0.75 m */
  car.body.box_center.z = 0.13 + 0.5 * 0.35;
  grip_vehicle_id id = grip_create_vehicle(world, &car);
  grip_pose pose = {{0, 0, 1.0}, axis_angle(1, 0, 0, PI)};
  grip_vehicle_set_pose(world, id, pose);
  grip_vehicle_state s;
  for (int i = 0; i < 3000; ++i) grip_world_step(world, 0.002);
  grip_vehicle_get_state(world, id, &s);
  int touching = 0;
  for (int w = 0; w < 4; ++w) touching += s.wheels[w].in_contact;
  CHECK(touching == 0);
  /* The roof rests on the plane: the box top (0.48 m above the design origin) is at z ≈ 0. */
  CHECK_NEAR(s.pose.position.z, 0.48, 0.01);
  grip_destroy_world(world);
}

/* --- the world's edges ------------------------------------------------------------------ */

/* A car driven off the edge of a heightfield with no ground outside stops there, out of the
 * world, instead of falling forever; placing it again brings it back. */
static void driving_off_a_terrain_edge_leaves_the_world(void) {
  static double heights[61 * 61];
  for (int i = 0; i < 61 * 61; ++i) heights[i] = 100.0; /* a 60 m plateau 100 m up */
  grip_heightfield_def hd = grip_default_heightfield_def();
  hd.rows = hd.cols = 61;
  hd.heights = heights;
  grip_heightfield *hf;
  CHECK(grip_heightfield_create(&hd, &hf) == GRIP_OK);
  grip_world_def wd = grip_default_world_def();
  wd.ground = grip_heightfield_ground(hf);
  grip_world *world = grip_create_world(&wd);
  grip_vehicle_def car = grip_default_vehicle_def();
  grip_vehicle_id id = grip_create_vehicle(world, &car);
  CHECK(grip_vehicle_place(world, id, 30.0, 30.0, 0.0) == GRIP_OK);
  grip_vehicle_set_velocity(world, id, (grip_vec3){15.0, 0, 0});
  grip_vehicle_input in = grip_default_vehicle_input();
  in.throttle = 0.5;
  grip_vehicle_set_input(world, id, &in);
  grip_vehicle_state s;
  double left_at = -1.0;
  for (int i = 0; i < 2000 && left_at < 0.0; ++i) {
    grip_world_step(world, 0.005);
    grip_vehicle_get_state(world, id, &s);
    if (s.out_of_world) left_at = s.time;
  }
  CHECK(left_at > 0.0);
  /* It stops where it left: the centre of mass just past the edge (x = 60 m), at the plateau's
   * height, within the ~1 s the edge takes to reach (30 m at 15+ m/s). */
  CHECK(s.center_of_mass.x > 60.0 && s.center_of_mass.x < 62.0);
  CHECK_NEAR(s.center_of_mass.z, 100.5, 0.5);
  CHECK(left_at < 2.2);
  grip_vec3 held = s.center_of_mass;
  for (int i = 0; i < 200; ++i) grip_world_step(world, 0.005);
  grip_vehicle_get_state(world, id, &s);
  CHECK(s.out_of_world);
  CHECK(s.center_of_mass.x == held.x && s.center_of_mass.y == held.y && s.center_of_mass.z == held.z);
  CHECK(s.linear_velocity.x == 0.0 && s.linear_velocity.z == 0.0);
  CHECK(motion_matches_state(world, id)); /* out of the world too */
  grip_vehicle_motion m;
  CHECK(grip_vehicle_get_motion(world, id, &m) == GRIP_OK && m.out_of_world);
  CHECK(grip_vehicle_get_motion(world, GRIP_NULL_VEHICLE, &m) == GRIP_INVALID_ID);
  CHECK(grip_vehicle_get_motion(world, id, NULL) == GRIP_INVALID_ID);
  /* Placed back on the plateau it drives again. */
  CHECK(grip_vehicle_place(world, id, 30.0, 30.0, 0.0) == GRIP_OK);
  grip_world_step(world, 0.005);
  grip_vehicle_get_state(world, id, &s);
  CHECK(!s.out_of_world);
  printf("  terrain edge: left the world at t = %.3f s, held at x = %.3f m, z = %.3f m\n", left_at, held.x, held.z);
  grip_destroy_world(world);
  grip_heightfield_destroy(hf);
}

/* A flat ground at z = 0 whose answer under one wheel turns bad once armed: one of the hit's
 * numbers (point, normal, distance, surface friction or rolling resistance, velocity) set to
 * `bad`, in a world with moving_ground. */
typedef enum { BAD_POINT, BAD_NORMAL, BAD_DISTANCE, BAD_FRICTION, BAD_ROLLING, BAD_VELOCITY, BAD_FIELDS } bad_field;
static const char *const bad_field_names[BAD_FIELDS] = {"point", "normal", "distance", "friction",
                                                        "rolling resistance", "velocity"};

typedef struct bad_ground {
  int wheel;
  bad_field field;
  double bad;
  bool armed;
} bad_ground;

static bool bad_ground_raycast(void *context, const grip_ground_query *query, grip_vec3 o, grip_vec3 d,
                               double max_distance, grip_ground_hit *hit) {
  const bad_ground *g = context;
  if (!(d.z < 0.0) || o.z < 0.0) return false;
  double t = -o.z / d.z;
  if (t > max_distance) return false;
  hit->point = (grip_vec3){o.x + d.x * t, o.y + d.y * t, 0.0};
  hit->normal = (grip_vec3){0.0, 0.0, 1.0};
  hit->distance = t;
  hit->surface = grip_default_surface();
  if (!g->armed || !query || query->wheel != g->wheel) return true;
  switch (g->field) {
    case BAD_POINT: hit->point.z = g->bad; break;
    case BAD_NORMAL: hit->normal.x = g->bad; break;
    case BAD_DISTANCE: hit->distance = g->bad; break;
    case BAD_FRICTION: hit->surface.friction = g->bad; break;
    case BAD_ROLLING: hit->surface.rolling_resistance = g->bad; break;
    default: hit->velocity = (grip_vec3){g->bad, 0.0, 0.0}; break;
  }
  return true;
}

/* Every number of the state finite, the wheels' too. */
static bool state_finite(const grip_vehicle_state *s) {
  bool ok = isfinite(s->pose.position.x) && isfinite(s->pose.position.y) && isfinite(s->pose.position.z) &&
            isfinite(s->pose.rotation.w) && isfinite(s->pose.rotation.x) && isfinite(s->linear_velocity.x) &&
            isfinite(s->linear_velocity.y) && isfinite(s->linear_velocity.z) && isfinite(s->angular_velocity.x) &&
            isfinite(s->angular_velocity.y) && isfinite(s->angular_velocity.z) && isfinite(s->acceleration.x) &&
            isfinite(s->engine_rpm) && isfinite(s->engine_torque) && isfinite(s->steering_torque) && isfinite(s->speed);
  for (int k = 0; k < s->wheel_count; ++k) {
    const grip_wheel_state *w = &s->wheels[k];
    ok = ok && isfinite(w->contact_point.x) && isfinite(w->contact_point.z) && isfinite(w->contact_normal.x) &&
         isfinite(w->contact_normal.z) && isfinite(w->load) && isfinite(w->slip_ratio) && isfinite(w->slip_angle) &&
         isfinite(w->fx) && isfinite(w->fy) && isfinite(w->mz) && isfinite(w->spin) && isfinite(w->rotation) &&
         isfinite(w->compression) && isfinite(w->suspension_force) && isfinite(w->drive_torque) &&
         isfinite(w->brake_torque);
  }
  return ok;
}

/* No NaN or inf leaves a step, whatever a user's ground answers. A hit with a non-finite or
 * absurd number (NaN, +inf, −inf, 1e308 in any of point, normal, distance, friction, rolling
 * resistance, velocity) either changes nothing that matters (the car drives on at its speed) or
 * blows the step up: then the step's safety net puts the car back where the step began, at
 * rest, and clears what the wheels report. Under each of the four wheels, at three step sizes;
 * once the ground is sane again the car drives on. */
static void bad_ground_answers_change_nothing_finite(void) {
  const double dts[] = {0.001, 0.005, 0.01};
  const double bads[] = {NAN, INFINITY, -INFINITY, 1e308};
  int cases = 0, put_back = 0;
  for (int f = 0; f < BAD_FIELDS; ++f) {
    bool field_ok = true;
    for (int t = 0; t < 3; ++t)
      for (int b = 0; b < 4; ++b)
        for (int wheel = 0; wheel < 4; ++wheel) {
          bad_ground g = {wheel, (bad_field)f, bads[b], false};
          grip_world_def wd = grip_default_world_def();
          wd.ground = (grip_ground){bad_ground_raycast, &g};
          wd.moving_ground = true;
          grip_world *world = grip_create_world(&wd);
          grip_vehicle_def car = grip_default_vehicle_def();
          grip_vehicle_id id = grip_create_vehicle(world, &car);
          grip_vehicle_place(world, id, 0.0, 0.0, 0.3);
          grip_vehicle_set_velocity(world, id, (grip_vec3){20.0, 0.0, 0.0});
          grip_vehicle_input in = grip_default_vehicle_input();
          in.throttle = 0.3;
          in.steering = 0.1;
          grip_vehicle_set_input(world, id, &in);
          for (int i = 0; i < (int)lround(0.25 / dts[t]); ++i) grip_world_step(world, dts[t]);
          grip_vehicle_state before, after;
          grip_vehicle_get_state(world, id, &before);
          g.armed = true;
          grip_world_step(world, dts[t]);
          grip_vehicle_get_state(world, id, &after);
          bool finite = state_finite(&after);
          bool back = after.linear_velocity.x == 0.0 && after.linear_velocity.y == 0.0 &&
                      after.angular_velocity.z == 0.0 && fabs(after.pose.position.x - before.pose.position.x) < 1e-9 &&
                      fabs(after.pose.position.y - before.pose.position.y) < 1e-9;
          /* on at its speed, or put back at rest where the step began */
          bool missed = back || after.speed > 15.0;
          g.armed = false;
          for (int i = 0; i < (int)lround(1.0 / dts[t]); ++i) grip_world_step(world, dts[t]);
          grip_vehicle_state later;
          grip_vehicle_get_state(world, id, &later);
          bool drives = state_finite(&later) && later.speed > 0.3; /* from rest: ~0.9 m/s after 1 s */
          if (!(finite && missed && drives))
            printf("  FAILED %s = %g under wheel %d, dt %.3f: finite %d, on or back %d, drives %d\n", bad_field_names[f],
                   bads[b], wheel, dts[t], finite, missed, drives);
          field_ok = field_ok && finite && missed && drives;
          put_back += back;
          ++cases;
          grip_destroy_world(world);
        }
    CHECK(field_ok);
  }
  printf("  %d bad answers: every state finite; %d steps put the car back at rest, the others drove on\n", cases,
         put_back);
}

/* The world's bounds: a car that crosses bounds_max.x is out of the world right there. */
static void crossing_the_bounds_leaves_the_world(void) {
  const double dts[] = {0.001, 0.005, 0.01};
  for (int t = 0; t < 3; ++t) {
    grip_world_def wd = grip_default_world_def();
    wd.bounds_min = (grip_vec3){-50, -50, -10};
    wd.bounds_max = (grip_vec3){50, 50, 100};
    grip_world *world = grip_create_world(&wd);
    grip_vehicle_def car = grip_default_vehicle_def();
    grip_vehicle_id id = grip_create_vehicle(world, &car);
    grip_vehicle_place(world, id, 0, 0, 0);
    grip_vehicle_set_velocity(world, id, (grip_vec3){20.0, 0, 0});
    grip_vehicle_state s;
    for (int i = 0; i < (int)(5.0 / dts[t]); ++i) grip_world_step(world, dts[t]);
    grip_vehicle_get_state(world, id, &s);
    CHECK(s.out_of_world);
    /* Held within one step's travel past the edge. */
    CHECK(s.center_of_mass.x > 50.0 && s.center_of_mass.x < 50.0 + 21.0 * dts[t]);
    grip_destroy_world(world);
  }
  /* Bounds that are empty or not numbers are refused. */
  grip_world_def bad = grip_default_world_def();
  bad.bounds_min.x = 10.0, bad.bounds_max.x = -10.0;
  CHECK(grip_create_world(&bad) == NULL);
  bad = grip_default_world_def();
  bad.bounds_max.z = NAN;
  CHECK(grip_create_world(&bad) == NULL);
  bad = grip_default_world_def();
  bad.void_depth = 0.0;
  CHECK(grip_create_world(&bad) == NULL);
}

int main(void) {
  RUN_TEST(dropped_cars_rest_on_every_ground);
  RUN_TEST(own_plane_gate_changes_nothing);
  RUN_TEST(bad_ground_answers_change_nothing_finite);
  RUN_TEST(car_pushed_down_by_another_stays_on_the_ground);
  RUN_TEST(wheel_rays_start_inside_the_box);
  RUN_TEST(driving_off_a_terrain_edge_leaves_the_world);
  RUN_TEST(crossing_the_bounds_leaves_the_world);
  return TEST_RESULT();
}
