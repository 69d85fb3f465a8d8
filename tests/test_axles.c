/* Any number of axles (1..GRIP_MAX_AXLES, one or two wheels each).
 *
 * - Static loads of a three-axle vehicle follow from the springs: with equal springs the body's
 *   heave and pitch make the loads linear in x, F_i = W/n + β·(x_i − x̄), and the moment balance
 *   about the CG gives β = −W·(x̄ − x_cg)/Σ(x_i − x̄)² (derived in the comment of
 *   equal_spring_loads, a route independent of grip's 2×2 solve). With unequal springs the
 *   loads must still hold the body level at design ride height: the settled car's every wheel
 *   sits at its design compression, the body unpitched.
 * - A three-wheeler (one front wheel on the centre line): three wheels, the front one carrying
 *   the lever-rule share, on the centre line; it drives off.
 * - Steering: an axle's steer_ratio scales its angle (rear steer turns against the front);
 *   with full Ackermann every steered wheel of a three-axle truck points at one turn centre on
 *   the line of the unsteered tandem's mean x.
 * - grip_vehicle_get_wheels gives every wheel and the count, whatever the capacity. */
#include <string.h>

#include "grip/grip.h"
#include "test.h"

#define G 9.81

static grip_world *flat_world(void) {
  grip_world_def wd = grip_default_world_def();
  return grip_create_world(&wd);
}

/* The default car with a third axle: the rear axle copied to x_mid and x_rear. */
static grip_vehicle_def three_axle_def(double x_mid, double x_rear, double k_mid, double k_rear) {
  grip_vehicle_def d = grip_default_vehicle_def();
  d.axle_count = 3;
  d.axles[2] = d.axles[1];
  d.axles[1].x = x_mid;
  d.axles[2].x = x_rear;
  d.axles[1].suspension.spring_rate = k_mid;
  d.axles[1].suspension.bump_stop_rate = 10 * k_mid;
  d.axles[2].suspension.spring_rate = k_rear;
  d.axles[2].suspension.bump_stop_rate = 10 * k_rear;
  d.axles[1].handbrake = false;
  d.body.dimensions.x = 6.0;
  return d;
}

/* Equal springs k on every axle: the body sinks z and pitches θ, wheel deflection z + θ·d_i
 * (d_i = x_i − x_cg), so F_i = k·(z + θ·d_i) is linear in x: F_i = W/n + β·(x_i − x̄) (the mean
 * of F is W/n, x̄ the mean axle x). Moment about the CG: Σ F_i·(x_i − x_cg) = 0 →
 * (W/n)·Σ(x_i − x_cg) + β·Σ(x_i − x̄)(x_i − x_cg) = 0 → W·(x̄ − x_cg) + β·Σ(x_i − x̄)² = 0. */
static void equal_spring_loads(int n, const double x[], double x_cg, double weight, double load[]) {
  double mean = 0.0, spread = 0.0;
  for (int i = 0; i < n; ++i) mean += x[i] / n;
  for (int i = 0; i < n; ++i) spread += (x[i] - mean) * (x[i] - mean);
  double beta = -weight * (mean - x_cg) / spread;
  for (int i = 0; i < n; ++i) load[i] = weight / n + beta * (x[i] - mean);
}

/* Settles the car 3 s on flat ground; fills the wheels. */
static int settle(const grip_vehicle_def *d, grip_wheel_state wheels[GRIP_MAX_WHEELS], grip_vehicle_state *s) {
  grip_world *w = flat_world();
  grip_vehicle_id id = grip_create_vehicle(w, d);
  CHECK(id.index != 0);
  if (!id.index) {
    grip_destroy_world(w);
    return 0;
  }
  CHECK(grip_vehicle_place(w, id, 0, 0, 0) == GRIP_OK);
  grip_vehicle_input in = grip_default_vehicle_input();
  in.brake = 1.0;
  grip_vehicle_set_input(w, id, &in);
  for (int k = 0; k < 1500; ++k) grip_world_step(w, 0.002);
  int n = grip_vehicle_get_wheels(w, id, wheels, GRIP_MAX_WHEELS);
  grip_vehicle_get_state(w, id, s);
  grip_destroy_world(w);
  return n;
}

static void three_axle_static_loads_follow_the_springs(void) {
  /* Equal springs: the closed form. */
  grip_vehicle_def d = three_axle_def(-0.9, -2.2, 40000.0, 40000.0);
  d.axles[0].suspension.spring_rate = 40000.0;
  double weight = (d.body.mass + d.fuel.mass) * G;
  const double x[3] = {d.axles[0].x, d.axles[1].x, d.axles[2].x};
  double expect[3];
  equal_spring_loads(3, x, d.body.center_of_mass.x, weight, expect);
  grip_wheel_state wheels[GRIP_MAX_WHEELS];
  grip_vehicle_state s;
  int n = settle(&d, wheels, &s);
  CHECK(n == 6);
  CHECK(s.wheel_count == 6);
  printf("  equal springs: axle loads expected %.1f %.1f %.1f N\n", expect[0], expect[1], expect[2]);
  for (int a = 0; a < 3 && n == 6; ++a) {
    double load = wheels[2 * a].load + wheels[2 * a + 1].load;
    printf("  axle %d: %.1f N (left %.1f, right %.1f)\n", a, load, wheels[2 * a].load, wheels[2 * a + 1].load);
    CHECK_REL(load, expect[a], 0.002);
  }
  /* The public figure is the same solution. */
  double api[GRIP_MAX_AXLES];
  CHECK(grip_vehicle_static_axle_loads(&d, G, api) == 3);
  for (int a = 0; a < 3; ++a) CHECK_REL(api[a], expect[a], 1e-9);
  /* The lever rule would give the two rear axles the same share as one axle at their mean:
   * the springs' answer differs, the middle axle carrying more than the last here. */
  CHECK(expect[1] > expect[2] + 500.0);

  /* Unequal springs: the body must sit level at design ride height on them. */
  grip_vehicle_def u = three_axle_def(-1.0, -2.3, 25000.0, 60000.0);
  n = settle(&u, wheels, &s);
  CHECK(n == 6);
  double total = 0.0, moment = 0.0;
  grip_vec3 cg = s.center_of_mass;
  for (int i = 0; i < n; ++i) {
    int a = i / 2;
    total += wheels[i].load;
    moment += wheels[i].load * (wheels[i].contact_point.x - cg.x);
    double design = u.axles[a].suspension.droop_travel; /* compression at design ride height */
    CHECK_NEAR(wheels[i].compression, design, 2e-4);
  }
  double pitch = 2.0 * asin(s.pose.rotation.y);
  printf("  unequal springs: total %.1f N (weight %.1f), moment %.2f N*m, pitch %.2e rad, pose z %.2e m\n", total,
         (u.body.mass + u.fuel.mass) * G, moment, pitch, s.pose.position.z);
  CHECK_REL(total, (u.body.mass + u.fuel.mass) * G, 1e-3);
  CHECK_NEAR(moment, 0.0, 20.0);
  CHECK_NEAR(pitch, 0.0, 2e-4);
  CHECK_NEAR(s.pose.position.z, 0.0, 2e-4);
}

static void three_wheeler_has_one_front_wheel(void) {
  grip_vehicle_def d = grip_default_vehicle_def();
  d.axles[0].half_track = 0.0; /* one wheel on the centre line */
  grip_wheel_state wheels[GRIP_MAX_WHEELS];
  grip_vehicle_state s;
  int n = settle(&d, wheels, &s);
  CHECK(n == 3);
  double weight = (d.body.mass + d.fuel.mass) * G;
  double xf = d.axles[0].x, xr = d.axles[1].x;
  double front = weight * (d.body.center_of_mass.x - xr) / (xf - xr);
  printf("  three-wheeler: front %.1f N (lever rule %.1f), rear %.1f + %.1f N\n", wheels[0].load, front,
         wheels[1].load, wheels[2].load);
  CHECK_REL(wheels[0].load, front, 2e-3);
  CHECK_REL(wheels[1].load, 0.5 * (weight - front), 2e-3);
  CHECK_REL(wheels[2].load, 0.5 * (weight - front), 2e-3);
  CHECK_NEAR(wheels[0].contact_point.y, 0.0, 1e-6);
  /* It drives off: 5 s of full throttle. */
  grip_world *w = flat_world();
  grip_vehicle_id id = grip_create_vehicle(w, &d);
  grip_vehicle_place(w, id, 0, 0, 0);
  grip_vehicle_input in = grip_default_vehicle_input();
  in.throttle = 1.0;
  grip_vehicle_set_input(w, id, &in);
  for (int k = 0; k < 2500; ++k) grip_world_step(w, 0.002);
  grip_vehicle_get_state(w, id, &s);
  printf("  three-wheeler after 5 s full throttle: %.1f km/h\n", 3.6 * s.speed);
  CHECK(s.speed > 20.0);
  CHECK(s.wheel_count == 3);
  grip_destroy_world(w);
}

/* Road-wheel angles after a steering input held 0.5 s, standing. */
static int steer_angles(const grip_vehicle_def *d, double input, grip_wheel_state wheels[GRIP_MAX_WHEELS]) {
  grip_world *w = flat_world();
  grip_vehicle_id id = grip_create_vehicle(w, d);
  CHECK(id.index != 0);
  grip_vehicle_place(w, id, 0, 0, 0);
  grip_vehicle_input in = grip_default_vehicle_input();
  in.steering = input;
  in.brake = 1.0;
  grip_vehicle_set_input(w, id, &in);
  for (int k = 0; k < 50; ++k) grip_world_step(w, 0.01);
  int n = grip_vehicle_get_wheels(w, id, wheels, GRIP_MAX_WHEELS);
  grip_destroy_world(w);
  return n;
}

static void steer_ratio_and_one_turn_centre(void) {
  /* Rear steer at −0.3 of the front, parallel steer: the angles scale exactly. */
  grip_vehicle_def d = grip_default_vehicle_def();
  d.steering.ackermann = 0.0;
  d.axles[1].steer_ratio = -0.3;
  grip_wheel_state wh[GRIP_MAX_WHEELS];
  int n = steer_angles(&d, 0.5, wh);
  CHECK(n == 4);
  double delta = 0.5 * d.steering.max_wheel_angle / d.steering.ratio;
  CHECK_NEAR(wh[0].steer_angle, delta, 1e-12);
  CHECK_NEAR(wh[2].steer_angle, -0.3 * delta, 1e-12);
  CHECK_NEAR(wh[3].steer_angle, -0.3 * delta, 1e-12);

  /* A truck: steered front axle, unsteered tandem; full Ackermann points every steered wheel at
   * one centre on the line x = mean of the tandem's x, at R from the centre line. */
  grip_vehicle_def t = three_axle_def(-1.0, -2.3, 40000.0, 40000.0);
  t.steering.ackermann = 1.0;
  n = steer_angles(&t, 0.6, wh);
  CHECK(n == 6);
  double x_ref = 0.5 * (t.axles[1].x + t.axles[2].x), length = t.axles[0].x - x_ref;
  double y_left = t.axles[0].half_track, y_right = -t.axles[0].half_track;
  double radius = y_left + length / tan(wh[0].steer_angle); /* from the left wheel */
  printf("  truck, full Ackermann: left %.4f rad, right %.4f rad, turn radius %.2f m\n", wh[0].steer_angle,
         wh[1].steer_angle, radius);
  CHECK_NEAR(tan(wh[1].steer_angle), length / (radius - y_right), 1e-9);
  CHECK(wh[0].steer_angle > wh[1].steer_angle); /* the inner (left) wheel turns more */
  for (int i = 2; i < 6; ++i) CHECK(wh[i].steer_angle == 0.0);
}

static void get_wheels_gives_any_count(void) {
  grip_world *w = flat_world();
  grip_vehicle_def d = three_axle_def(-1.0, -2.3, 40000.0, 40000.0);
  grip_vehicle_id id = grip_create_vehicle(w, &d);
  CHECK(grip_vehicle_get_wheels(w, id, NULL, 0) == 6);
  grip_wheel_state two[2];
  memset(two, 0, sizeof two);
  grip_world_step(w, 0.01);
  CHECK(grip_vehicle_get_wheels(w, id, two, 2) == 6);
  grip_vehicle_state s;
  grip_vehicle_get_state(w, id, &s);
  CHECK(memcmp(&two[1], &s.wheels[1], sizeof two[1]) == 0);
  CHECK(grip_vehicle_get_wheels(w, GRIP_NULL_VEHICLE, two, 2) == 0);
  /* Eight axles: sixteen wheels; one axle (a wheel pair on its own) is a valid definition. */
  grip_vehicle_def e = grip_default_vehicle_def();
  e.axle_count = GRIP_MAX_AXLES;
  e.body.dimensions.x = 12.0;
  for (int a = 0; a < GRIP_MAX_AXLES; ++a) {
    e.axles[a] = grip_default_vehicle_def().axles[a == 0 ? 0 : 1];
    e.axles[a].x = 5.0 - 1.4 * a;
  }
  e.body.center_of_mass.x = 0.1;
  grip_vehicle_id eight = grip_create_vehicle(w, &e);
  CHECK(grip_vehicle_get_wheels(w, eight, NULL, 0) == GRIP_MAX_WHEELS);
  e.axle_count = GRIP_MAX_AXLES + 1;
  CHECK(grip_create_vehicle(w, &e).index == 0);
  e.axle_count = 0;
  CHECK(grip_create_vehicle(w, &e).index == 0);
  grip_destroy_world(w);
}

/* --- rollover threshold of a tricycle (tilt table) --------------------------------------- */

/* Quasi-static tipping of a rigid vehicle on its outer wheels, derived here. A tricycle with its
 * one wheel in front at (a, 0) from the CG, rear wheels at (−b, ±t/2), CG height h, L = a + b,
 * tips about the line from the front wheel's contact to the outer rear one's. A lateral force
 * m·ay and the weight m·g at the CG: the moment about that line, with its direction
 * u = (L, −t/2, 0)/N and r − P = (−a, 0, h) from the front contact P to the CG, is
 * u·((r − P) × (0, m·ay, −m·g)) = m·(a·g·t/2 − L·h·ay)/N, zero at
 *     ay/g = (t/2)·(a/L)/h,
 * the four-wheeler's static stability factor (t/2)/h scaled by the share a/L of the wheelbase
 * the CG lies behind the front wheel (CG on the rear axle: the SSF; CG on the front wheel: 0).
 * On a tilt table at angle φ, gravity's components give ay/g = tan φ: the car tips when
 * tan φ exceeds the threshold. Stiff springs and tyres with grip above tan φ make it rigid and
 * keep it from sliding; it stands braked, crosswise on the table (left side uphill). */
/* A tilt table: the plane through the origin whose normal leans by *angle (rad) towards −y
 * (its uphill side is +y), turned slowly by the test. */
static bool table_raycast(void *context, const grip_ground_query *q, grip_vec3 o, grip_vec3 d, double max_distance,
                          grip_ground_hit *hit) {
  const double *angle = context;
  grip_plane p = grip_default_plane();
  p.normal = (grip_vec3){0.0, -sin(*angle), cos(*angle)};
  return grip_plane_raycast(&p, q, o, d, max_distance, hit);
}

/* The table angle (rad) at which the car, braked and crosswise on it (left side uphill), first
 * lifts a wheel off it, the table turning at 1 degree per second from level. */
static double tilt_table_lift_angle(const grip_vehicle_def *d) {
  double angle = 0.0;
  grip_world_def wd = grip_default_world_def();
  wd.ground = (grip_ground){table_raycast, &angle};
  grip_world *w = grip_create_world(&wd);
  grip_vehicle_id id = grip_create_vehicle(w, d);
  CHECK(id.index != 0);
  CHECK(grip_vehicle_place(w, id, 0.0, 0.0, 0.0) == GRIP_OK);
  grip_vehicle_input in = grip_default_vehicle_input();
  in.brake = 1.0;
  in.handbrake = 1.0;
  in.gear = 0;
  grip_vehicle_set_input(w, id, &in);
  const double dt = 0.002, rate = GRIP_PI / 180.0;
  for (int k = 0; k < 500; ++k) grip_world_step(w, dt); /* settle on the level table */
  grip_wheel_state wh[GRIP_MAX_WHEELS];
  double lift = NAN;
  for (int k = 0; k < 60000 && isnan(lift); ++k) {
    angle += rate * dt;
    grip_world_step(w, dt);
    int n = grip_vehicle_get_wheels(w, id, wh, GRIP_MAX_WHEELS);
    for (int i = 0; i < n; ++i)
      if (!wh[i].in_contact || wh[i].load <= 0.0) lift = angle;
  }
  grip_destroy_world(w);
  return lift;
}

static grip_vehicle_def rigid(grip_vehicle_def d) {
  for (int a = 0; a < d.axle_count; ++a) {
    grip_suspension_def *s = &d.axles[a].suspension;
    s->spring_rate = 400000.0;
    s->bump_stop_rate = 4e6;
    s->bump_damping = s->rebound_damping = 20000.0;
    s->anti_roll_rate = 0.0;
    s->max_force = 1e6;
    d.axles[a].tyre.simple.longitudinal.mu = d.axles[a].tyre.simple.lateral.mu = 1.6;
  }
  return d;
}

static void tricycle_rollover_threshold(void) {
  grip_vehicle_def tri = grip_default_vehicle_def();
  tri.axles[0].half_track = 0.0;
  tri.body.center_of_mass.z = 0.85; /* a tall tricycle: it tips before it slides */
  tri = rigid(tri);
  double a = tri.axles[0].x - tri.body.center_of_mass.x, l = tri.axles[0].x - tri.axles[1].x;
  double h = tri.body.center_of_mass.z, t2 = tri.axles[1].half_track;
  double threshold = t2 * (a / l) / h;
  grip_vehicle_def four = rigid(grip_default_vehicle_def());
  four.body.center_of_mass.z = 1.1;
  double ssf = 0.5 * (four.axles[0].half_track + four.axles[1].half_track) / four.body.center_of_mass.z;
  double tri_lift = tilt_table_lift_angle(&tri), four_lift = tilt_table_lift_angle(&four);
  printf("  tricycle: threshold tan = %.3f (%.2f deg; SSF of its rear track %.3f), lifts a wheel at %.2f deg\n",
         threshold, atan(threshold) * 180.0 / GRIP_PI, t2 / h, tri_lift * 180.0 / GRIP_PI);
  printf("  four-wheeler: SSF %.3f (%.2f deg), lifts a wheel at %.2f deg\n", ssf, atan(ssf) * 180.0 / GRIP_PI,
         four_lift * 180.0 / GRIP_PI);
  CHECK(threshold < 0.75 * t2 / h); /* the one front wheel makes it tip much earlier */
  CHECK_REL(tan(tri_lift), threshold, 0.05);
  CHECK_REL(tan(four_lift), ssf, 0.05);
}

int main(void) {
  RUN_TEST(three_axle_static_loads_follow_the_springs);
  RUN_TEST(three_wheeler_has_one_front_wheel);
  RUN_TEST(steer_ratio_and_one_turn_centre);
  RUN_TEST(get_wheels_gives_any_count);
  RUN_TEST(tricycle_rollover_threshold);
  return TEST_RESULT();
}
