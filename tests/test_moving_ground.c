/* Moving ground and the wall slope (the ground contract, docs/embedding.md).
 *
 * A ground may report its own velocity at the hit point (a lift, a ferry, a moving platform) and
 * an opaque handle of what was hit: the tyres measure slip relative to that velocity, and in
 * forces mode each wheel's force carries the handle. The platform here is the plane z = 0 whose
 * callback reports a velocity the test sets (its geometry does not change: an endless platform).
 *
 * - A braked car on a platform moving at a constant velocity moves with it: no relative motion,
 *   no slip, wheels still (without the ground velocity it would skid to a stop in the world).
 * - A braked car on a platform that accelerates is carried while the acceleration is below the
 *   tyres' grip limit and slides behind it above: the limit from the tyres' peak μ at the loads
 *   of the accelerating car (load transfer m·a·h/L, solved below), not from the simulation.
 * - The world's max_ground_slope decides which of two ramps (15° and 35°) a car can drive onto:
 *   with the default (87°) both, with 25° only the 15° one (the 35° face is then a wall).
 *
 * dt 0.002 and 0.01 (the tested range's ends are 0.001..0.01). */
#include <string.h>

#include "grip/grip.h"
#include "test.h"

#define G 9.81

typedef struct platform {
  grip_vec3 velocity; /* m/s, world */
  int tag;            /* its address is the body handle */
} platform;

static bool platform_raycast(void *context, const grip_ground_query *query, grip_vec3 origin, grip_vec3 direction,
                             double max_distance, grip_ground_hit *hit) {
  platform *p = context;
  grip_plane plane = grip_default_plane();
  if (!grip_plane_raycast(&plane, query, origin, direction, max_distance, hit)) return false;
  hit->velocity = p->velocity;
  hit->body = p;
  return true;
}

typedef struct run {
  grip_world *world;
  grip_vehicle_id id;
  platform ground;
} run;

/* The default car at rest on the platform, heading `heading`, brake and handbrake full. The run
 * must not move after this (the world keeps a pointer to r->ground). */
static void start(run *r, double heading, grip_chassis_mode mode) {
  grip_world_def wd = grip_default_world_def();
  wd.ground = (grip_ground){platform_raycast, &r->ground};
  wd.moving_ground = true;
  r->world = grip_create_world(&wd);
  grip_vehicle_def def = grip_default_vehicle_def();
  def.chassis_mode = mode;
  r->id = grip_create_vehicle(r->world, &def);
  CHECK(grip_vehicle_place(r->world, r->id, 0.0, 0.0, heading) == GRIP_OK);
  grip_vehicle_input in = grip_default_vehicle_input();
  in.brake = 1.0;
  in.handbrake = 1.0;
  in.gear = 0; /* neutral: only the brakes hold the wheels */
  CHECK(grip_vehicle_set_input(r->world, r->id, &in) == GRIP_OK);
}

static double horizontal(grip_vec3 a) { return sqrt(a.x * a.x + a.y * a.y); }

static void constant_velocity_platform(double dt) {
  run r = {.ground = {{9.0, -4.0, 0.0}, 0}};
  start(&r, 0.4, GRIP_CHASSIS_OWN);
  /* The car starts at the platform's velocity (its wheels rolling with that speed, which the
   * brakes stop in the first hundredths of a second). */
  CHECK(grip_vehicle_set_velocity(r.world, r.id, r.ground.velocity) == GRIP_OK);
  grip_vehicle_state s;
  int steps = (int)lround(3.0 / dt), settle = (int)lround(1.0 / dt);
  grip_vec3 p0 = {0, 0, 0};
  double worst_slip = 0.0, worst_spin = 0.0;
  for (int k = 0; k < steps; ++k) {
    grip_world_step(r.world, dt);
    grip_vehicle_get_state(r.world, r.id, &s);
    if (k == settle) p0 = s.center_of_mass;
    if (k > settle)
      for (int i = 0; i < GRIP_WHEEL_COUNT; ++i) {
        worst_slip = fmax(worst_slip, fabs(s.wheels[i].slip_ratio));
        worst_spin = fmax(worst_spin, fabs(s.wheels[i].spin));
      }
  }
  double t = (steps - 1 - settle) * dt;
  /* Relative to the platform: displacement over the last 2 s and velocity. */
  grip_vec3 moved = {s.center_of_mass.x - p0.x - r.ground.velocity.x * t,
                     s.center_of_mass.y - p0.y - r.ground.velocity.y * t, 0.0};
  grip_vec3 rel = {s.linear_velocity.x - r.ground.velocity.x, s.linear_velocity.y - r.ground.velocity.y, 0.0};
  printf("  dt %.3f: relative drift %.2e m over %.1f s, relative speed %.2e m/s, |slip| %.2e, |spin| %.2e rad/s\n",
         dt, horizontal(moved), t, horizontal(rel), worst_slip, worst_spin);
  CHECK_NEAR(horizontal(moved), 0.0, 1e-3);
  CHECK_NEAR(horizontal(rel), 0.0, 1e-3);
  /* The slip ratio the tyre sees is its carcass deflection over the relaxation length: the
   * stop leaves a deflection that the braked wheels hold against each other, a few thousandths,
   * far from the ~0.1 of sliding. */
  CHECK_NEAR(worst_slip, 0.0, 0.01);
  CHECK_NEAR(worst_spin, 0.0, 1e-3);
  CHECK(s.wheels[0].in_contact && s.wheels[3].in_contact);
  grip_destroy_world(r.world);
}

static void braked_car_moves_with_a_platform(void) {
  constant_velocity_platform(0.002);
  constant_velocity_platform(0.01);
}

/* An upturned car lying on its roof on the platform, the platform then set moving at 4 m/s (dt
 * 0.002 and 0.01): only the body box touches it, and box friction (the world's μ = 0.5) must
 * drag the car along at μ·g until it moves with the platform: 4/(0.5·9.81) = 0.82 s, over
 * which the car covers v²/(2μg) = 1.63 m. (Against a box contact that took the ground as
 * still, the car lay where it was while the platform slid away under it.) */
static void upturned_car_slides_until_it_moves_with_the_platform(void) {
  for (int d = 0; d < 2; ++d) {
    double dt = d ? 0.01 : 0.002;
    run r = {.ground = {{0.0, 0.0, 0.0}, 0}};
    start(&r, 0.0, GRIP_CHASSIS_OWN);
    const grip_vehicle_def *def = grip_vehicle_get_def(r.world, r.id);
    double roof = def->body.box_center.z + 0.5 * def->body.dimensions.z - def->body.center_of_mass.z;
    grip_pose upturned = {{0.0, 0.0, roof + def->body.center_of_mass.z + 0.05}, {0.0, 1.0, 0.0, 0.0}};
    CHECK(grip_vehicle_set_pose(r.world, r.id, upturned) == GRIP_OK);
    for (int k = 0; k < (int)lround(1.0 / dt); ++k) grip_world_step(r.world, dt); /* settle on the roof */
    grip_vehicle_state s;
    grip_vehicle_get_state(r.world, r.id, &s);
    double x0 = s.center_of_mass.x;
    CHECK(s.pose.rotation.x * s.pose.rotation.x > 0.99); /* still on its roof */
    const double v = 4.0, mu = grip_default_world_def().friction;
    r.ground.velocity = (grip_vec3){v, 0.0, 0.0};
    double caught = -1.0;
    for (int k = 0; k < (int)lround(3.0 / dt); ++k) {
      grip_world_step(r.world, dt);
      grip_vehicle_get_state(r.world, r.id, &s);
      if (caught < 0.0 && s.linear_velocity.x > v - 0.05) caught = (k + 1) * dt;
    }
    double slide = s.center_of_mass.x - x0 - v * (3.0 - caught); /* covered before moving with it */
    printf("  dt %.3f: with the platform after %.3f s (%.3f expected), %.3f m covered by then (%.3f), final "
           "relative speed %.2e m/s\n",
           dt, caught, v / (mu * G), slide, v * v / (2.0 * mu * G), fabs(s.linear_velocity.x - v));
    CHECK_REL(caught, v / (mu * G), 0.1);
    CHECK_REL(slide, v * v / (2.0 * mu * G), 0.1);
    CHECK(fabs(s.linear_velocity.x - v) < 0.05);
    grip_destroy_world(r.world);
  }
}

/* The largest acceleration a (m/s²) the default car's four braked tyres can give it: the sum of
 * μ_peak(Fz_i)·Fz_i over the wheels equals m·a, with the loads of the accelerating car (static
 * split by the CG position, m·a·h/L moved to the rear axle). Fixed-point iteration. */
static double grip_limit(const grip_vehicle_def *d) {
  double m = d->body.mass + d->fuel.mass, w = m * G;
  double xf = d->axles[0].x, xr = d->axles[1].x, l = xf - xr;
  double h = d->body.center_of_mass.z;
  double front_share = (d->body.center_of_mass.x - xr) / l;
  double a = G;
  for (int it = 0; it < 100; ++it) {
    double transfer = m * a * h / l;
    double ff = 0.5 * (w * front_share - transfer), fr = 0.5 * (w * (1.0 - front_share) + transfer);
    double mu_f, mu_r;
    grip_tyre_peak_mu(&d->axles[0].tyre, ff, &mu_f, NULL);
    grip_tyre_peak_mu(&d->axles[1].tyre, fr, &mu_r, NULL);
    a = 2.0 * (mu_f * ff + mu_r * fr) / m;
  }
  return a;
}

/* Platform accelerating at `accel` from rest: the car's mean acceleration over the last second
 * of three and its speed behind the platform's at the end. */
static void accelerating_platform(double accel, double dt, double *car_accel, double *lag) {
  run r = {.ground = {{0, 0, 0}, 0}};
  start(&r, 0.0, GRIP_CHASSIS_OWN);
  for (int k = 0; k < (int)lround(0.5 / dt); ++k) grip_world_step(r.world, dt); /* settle on the springs */
  grip_vehicle_state s;
  int steps = (int)lround(3.0 / dt);
  double v2 = 0.0, v3 = 0.0;
  for (int k = 1; k <= steps; ++k) {
    r.ground.velocity.x = accel * k * dt;
    grip_world_step(r.world, dt);
    grip_vehicle_get_state(r.world, r.id, &s);
    if (k == (int)lround(2.0 / dt)) v2 = s.linear_velocity.x;
  }
  v3 = s.linear_velocity.x;
  *car_accel = v3 - v2;
  *lag = r.ground.velocity.x - v3;
  grip_destroy_world(r.world);
}

static void accelerating_platform_carries_the_car_to_its_grip_limit(void) {
  grip_vehicle_def d = grip_default_vehicle_def();
  double limit = grip_limit(&d);
  printf("  grip limit (tyres' peak mu at the loads of the accelerating car): %.3f m/s^2 = %.3f g\n", limit,
         limit / G);
  CHECK(limit > 0.7 * G && limit < 1.3 * G);
  const double dts[2] = {0.002, 0.01};
  for (int k = 0; k < 2; ++k) {
    double a_car, lag;
    /* Below the limit: carried, the car keeps the platform's speed. */
    accelerating_platform(0.9 * limit, dts[k], &a_car, &lag);
    printf("  dt %.3f, platform 0.9 x limit: car %.3f m/s^2, lag %.4f m/s\n", dts[k], a_car, lag);
    CHECK_REL(a_car, 0.9 * limit, 0.02);
    /* within a step's worth of the platform's speed (the ground velocity of step k is a·k·dt) */
    CHECK_NEAR(lag, 0.0, 1.5 * 0.9 * limit * dts[k]);
    /* Above it: the tyres slide and the car falls behind, at most at the limit. */
    accelerating_platform(1.15 * limit, dts[k], &a_car, &lag);
    printf("  dt %.3f, platform 1.15 x limit: car %.3f m/s^2, lag %.3f m/s\n", dts[k], a_car, lag);
    CHECK(a_car <= 1.02 * limit);
    CHECK(a_car >= 0.6 * limit); /* the sliding tyres still push it (the MF's slide/peak ratio ~0.9) */
    CHECK(lag > 0.1 * limit);
  }
}

/* Forces mode: each wheel's force names what the wheel stands on. */
static void forces_mode_wheels_carry_the_ground_body(void) {
  run r = {.ground = {{3.0, 0.0, 0.0}, 0}};
  start(&r, 0.0, GRIP_CHASSIS_EXTERNAL);
  grip_vehicle_state s;
  grip_vehicle_get_state(r.world, r.id, &s);
  CHECK(grip_vehicle_set_chassis_state(r.world, r.id, s.pose, (grip_vec3){0, 0, 0}, (grip_vec3){0, 0, 0}) == GRIP_OK);
  grip_world_step(r.world, 0.01);
  grip_chassis_forces f;
  CHECK(grip_vehicle_get_chassis_forces(r.world, r.id, &f) == GRIP_OK);
  double push = 0.0;
  for (int i = 0; i < GRIP_WHEEL_COUNT; ++i) {
    CHECK(f.wheels[i].in_contact);
    CHECK(f.wheels[i].ground_body == &r.ground);
    push += f.wheels[i].force.x;
  }
  /* The platform slides forward under the braked wheels: they pull the car forward. */
  printf("  forces mode on a platform moving at 3 m/s: wheels' x force %.0f N\n", push);
  CHECK(push > 1000.0);
  grip_destroy_world(r.world);
  /* grip's own grounds hand back no body. */
  grip_world_def wd = grip_default_world_def();
  grip_world *world = grip_create_world(&wd);
  grip_vehicle_def def = grip_default_vehicle_def();
  def.chassis_mode = GRIP_CHASSIS_EXTERNAL;
  grip_vehicle_id id = grip_create_vehicle(world, &def);
  grip_vehicle_get_state(world, id, &s);
  grip_vehicle_set_chassis_state(world, id, s.pose, (grip_vec3){0, 0, 0}, (grip_vec3){0, 0, 0});
  grip_world_step(world, 0.01);
  grip_vehicle_get_chassis_forces(world, id, &f);
  for (int i = 0; i < GRIP_WHEEL_COUNT; ++i) CHECK(f.wheels[i].in_contact && f.wheels[i].ground_body == NULL);
  grip_destroy_world(world);
}

/* --- the wall slope ---------------------------------------------------------------------- */

/* Flat ground z = 0 up to RAMP_X, then a ramp rising along +x at `angle`: free space is above
 * both planes, so a ray from free space leaves it at the nearer of its two crossings. */
#define RAMP_X 12.0
typedef struct ramp {
  double angle; /* rad */
} ramp;

static bool ramp_raycast(void *context, const grip_ground_query *query, grip_vec3 o, grip_vec3 d, double max_distance,
                         grip_ground_hit *hit) {
  (void)query;
  const ramp *r = context;
  double s = sin(r->angle), c = cos(r->angle);
  /* planes n·p = offset: the floor (0,0,1)·p = 0 and the ramp (−s, 0, c)·p = −s·RAMP_X */
  const grip_vec3 n[2] = {{0, 0, 1}, {-s, 0, c}};
  const double offset[2] = {0.0, -s * RAMP_X};
  double best = INFINITY;
  int which = -1;
  for (int k = 0; k < 2; ++k) {
    double above = n[k].x * o.x + n[k].y * o.y + n[k].z * o.z - offset[k];
    if (above < 0.0) return false; /* the origin is inside the ground */
    double denom = n[k].x * d.x + n[k].y * d.y + n[k].z * d.z;
    if (denom >= 0.0) continue;
    double t = -above / denom;
    if (t < best) best = t, which = k;
  }
  if (which < 0 || best > max_distance) return false;
  hit->point = (grip_vec3){o.x + best * d.x, o.y + best * d.y, o.z + best * d.z};
  hit->normal = n[which];
  hit->distance = best;
  hit->surface = grip_default_surface();
  return true;
}

/* The default car from x = 0 towards the ramp at 9 m/s, half throttle for 4 s: how high its
 * centre of mass rose above where it started. */
static double ramp_rise(double ramp_angle, double max_ground_slope, double dt) {
  ramp r = {ramp_angle};
  grip_world_def wd = grip_default_world_def();
  wd.ground = (grip_ground){ramp_raycast, &r};
  wd.max_ground_slope = max_ground_slope;
  grip_world *world = grip_create_world(&wd);
  CHECK(world != NULL);
  if (!world) return NAN;
  grip_vehicle_def def = grip_default_vehicle_def();
  grip_vehicle_id id = grip_create_vehicle(world, &def);
  CHECK(grip_vehicle_place(world, id, 0.0, 0.0, 0.0) == GRIP_OK);
  CHECK(grip_vehicle_set_velocity(world, id, (grip_vec3){9.0, 0.0, 0.0}) == GRIP_OK);
  grip_vehicle_input in = grip_default_vehicle_input();
  in.throttle = 0.5;
  grip_vehicle_set_input(world, id, &in);
  grip_vehicle_state s;
  grip_vehicle_get_state(world, id, &s);
  double z0 = s.center_of_mass.z, top = z0;
  for (int k = 0; k < (int)lround(4.0 / dt); ++k) {
    grip_world_step(world, dt);
    grip_vehicle_get_state(world, id, &s);
    top = fmax(top, s.center_of_mass.z);
  }
  grip_destroy_world(world);
  return top - z0;
}

static void wall_slope_decides_which_ramp_the_car_drives_onto(void) {
  const double deg = GRIP_PI / 180.0;
  const double dts[2] = {0.002, 0.01};
  for (int k = 0; k < 2; ++k) {
    double dt = dts[k];
    double gentle_default = ramp_rise(15 * deg, GRIP_DEFAULT_MAX_GROUND_SLOPE, dt);
    double steep_default = ramp_rise(35 * deg, GRIP_DEFAULT_MAX_GROUND_SLOPE, dt);
    double gentle_25 = ramp_rise(15 * deg, 25 * deg, dt);
    double steep_25 = ramp_rise(35 * deg, 25 * deg, dt);
    printf("  dt %.3f: rise on 15/35 deg ramps, limit 87 deg: %.2f / %.2f m; limit 25 deg: %.2f / %.2f m\n", dt,
           gentle_default, steep_default, gentle_25, steep_25);
    CHECK(gentle_default > 0.5);
    CHECK(steep_default > 0.5);
    CHECK(gentle_25 > 0.5);
    CHECK(steep_25 < 0.05);
  }
  /* The setting's range. */
  grip_world_def wd = grip_default_world_def();
  wd.max_ground_slope = 0.0;
  CHECK(grip_create_world(&wd) == NULL);
  wd.max_ground_slope = 0.5 * GRIP_PI + 1e-9;
  CHECK(grip_create_world(&wd) == NULL);
  wd.max_ground_slope = NAN;
  CHECK(grip_create_world(&wd) == NULL);
}

int main(void) {
  RUN_TEST(braked_car_moves_with_a_platform);
  RUN_TEST(upturned_car_slides_until_it_moves_with_the_platform);
  RUN_TEST(accelerating_platform_carries_the_car_to_its_grip_limit);
  RUN_TEST(forces_mode_wheels_carry_the_ground_body);
  RUN_TEST(wall_slope_decides_which_ramp_the_car_drives_onto);
  return TEST_RESULT();
}
