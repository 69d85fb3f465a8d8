/* Drivetrain figures from the design notes, measured on the running car, and the
 * differential equations checked against their definitions. */
#include <string.h>

#include "grip/grip.h"
#include "manoeuvre.h"
#include "engine.h"
#include "gmath.h"
#include "test.h"
#include "vehicle_internal.h"

#define PI 3.14159265358979323846

/* Accelerates in a fixed gear at full throttle from a rolling start and returns the state at
 * the step where the engine crosses `rpm`, with the engine's angular acceleration (rad/s²)
 * over that step. */
static grip_vehicle_state through_rpm(grip_vehicle_def *car, int gear, double start_speed, double rpm,
                                      double *engine_accel) {
  grip_vehicle_id id;
  grip_world *world = sim_world_with_car(car, &id);
  grip_vehicle_input in = grip_default_vehicle_input();
  in.throttle = 1.0;
  in.automatic = false;
  in.gear = gear;
  grip_vehicle_set_input(world, id, &in);
  grip_vehicle_set_velocity(world, id, (grip_vec3){start_speed, 0, 0});
  grip_vehicle_state s, prev;
  grip_vehicle_get_state(world, id, &s);
  const double dt = 0.0005;
  for (int i = 0; i < 40000; ++i) {
    prev = s;
    grip_world_step(world, dt);
    grip_vehicle_get_state(world, id, &s);
    if (i > 400 && prev.engine_rpm < rpm && s.engine_rpm >= rpm) break;
  }
  *engine_accel = (s.engine_rpm - prev.engine_rpm) * 2.0 * PI / 60.0 / dt;
  grip_destroy_world(world);
  return s;
}

static double wheel_drive_force(const grip_vehicle_state *s, double radius) {
  double t = 0;
  for (int i = 0; i < GRIP_WHEEL_COUNT; ++i) t += s->wheels[i].drive_torque;
  return t / radius;
}

/* Design notes §4: 475 N·m × 2.66 × 3.42 × 0.7 / 0.33 m = 9,166 N -> 6.4 m/s² on 1439 kg.
 * While accelerating, the engine's own inertia takes I_e·dω_e/dt of its torque first. */
static void corvette_first_gear_force(void) {
  grip_vehicle_def car = grip_default_vehicle_def();
  car.axles[0].wheel_radius = car.axles[1].wheel_radius = 0.33;
  double accel;
  grip_vehicle_state s = through_rpm(&car, 1, 10.0, 4400.0, &accel);
  CHECK_NEAR(s.engine_rpm, 4400.0, 10.0);
  CHECK_NEAR(s.engine_torque, 475.0, 0.5);
  double force = wheel_drive_force(&s, 0.33);
  double static_force = force / (1.0 - car.engine.inertia * accel / s.engine_torque);
  CHECK(accel > 50.0); /* the car is really accelerating: inertia matters (~40 N·m) */
  CHECK_REL(force, 9166.0 * (1.0 - car.engine.inertia * accel / 475.0), 0.005);
  CHECK_REL(static_force, 9166.0, 0.005);
  CHECK_NEAR(static_force / s.mass, 6.4, 0.05);
  CHECK_NEAR(s.mass, 1439.0, 0.5);
}

/* 4400 rpm in first with r = 0.34 m is 17.2 m/s (62 km/h): rolling (undriven) wheels. */
static void corvette_first_gear_speed(void) {
  grip_vehicle_def car = grip_default_vehicle_def();
  double accel;
  grip_vehicle_state s = through_rpm(&car, 1, 10.0, 4400.0, &accel);
  double rolling = 0.5 * (s.wheels[0].spin + s.wheels[1].spin); /* undriven front wheels */
  double road = rolling * 0.34;
  /* The driven tyres slip a few % under the drive force, so the car is a little slower than
   * the engine speed implies; the rolling front wheels give the road speed. */
  CHECK_NEAR(road * 2.66 * 3.42 / 0.34 * 60.0 / (2.0 * PI), 4400.0 / (1.0 + s.wheels[2].slip_ratio), 25.0);
  CHECK_NEAR(4400.0 * 2.0 * PI / 60.0 / (2.66 * 3.42) * 0.34, 17.2, 0.05);
  CHECK_NEAR(road * (1.0 + s.wheels[2].slip_ratio), 17.2, 0.1);
}

/* 200 N·m × 3.5 × 4.1 / 0.3 m = 9,567 N (100 kW hatchback example, lossless). */
static void hatchback_example_force(void) {
  grip_vehicle_def car = grip_default_vehicle_def();
  grip_engine_def *e = &car.engine;
  e->curve_points = 2;
  e->curve_rpm[0] = 1000;
  e->curve_rpm[1] = 7000;
  e->curve_torque[0] = e->curve_torque[1] = 200.0;
  e->rev_limit_rpm = 7000;
  car.gearbox.ratios[0] = 3.5;
  car.gearbox.final_drive = 4.1;
  car.gearbox.efficiency = 1.0;
  car.clutch.max_torque = 400;
  car.axles[0].wheel_radius = car.axles[1].wheel_radius = 0.3;
  double accel;
  grip_vehicle_state s = through_rpm(&car, 1, 8.0, 3000.0, &accel);
  double force = wheel_drive_force(&s, 0.3);
  CHECK_REL(force / (1.0 - car.engine.inertia * accel / 200.0), 9567.0, 0.005);
}

/* The differentials against their defining equations. */
static void differential_equations(void) {
  diff_runtime st = {DIFF_MODE_LOCKED, 0, 0};
  admittance l = {10.0, 0.02}, r = {14.0, 0.05};
  torque_split t;
  grip_diff_def d = {.type = GRIP_DIFF_OPEN};
  admittance in = grip_diff_reduce(&d, &st, 0.5, l, r, &t);
  double T = 300.0;
  double tl = t.a_left * T + t.b_left, tr = t.a_right * T + t.b_right;
  CHECK_NEAR(tl, 150.0, 1e-9); /* open: equal torque */
  CHECK_NEAR(tr, 150.0, 1e-9);
  CHECK_NEAR(in.p + in.q * T, 0.5 * ((l.p + l.q * tl) + (r.p + r.q * tr)), 1e-9); /* mean speed */

  d.type = GRIP_DIFF_LOCKED;
  in = grip_diff_reduce(&d, &st, 0.5, l, r, &t);
  tl = t.a_left * T + t.b_left;
  tr = t.a_right * T + t.b_right;
  CHECK_NEAR(tl + tr, T, 1e-9);
  CHECK_NEAR(l.p + l.q * tl, r.p + r.q * tr, 1e-9); /* spool: one speed */
  CHECK_NEAR(in.p + in.q * T, l.p + l.q * tl, 1e-9);

  d.type = GRIP_DIFF_VISCOUS;
  d.viscous_coefficient = 40.0;
  in = grip_diff_reduce(&d, &st, 0.5, l, r, &t);
  tl = t.a_left * T + t.b_left;
  tr = t.a_right * T + t.b_right;
  double wl = l.p + l.q * tl, wr = r.p + r.q * tr;
  CHECK_NEAR(tl - 0.5 * T, 40.0 * (wr - wl), 1e-9); /* transfer = c·Δω */
  CHECK_NEAR(tl + tr, T, 1e-9);

  d.type = GRIP_DIFF_LIMITED_SLIP;
  d.preload = 50.0;
  d.locking_coefficient = 0.25;
  st = (diff_runtime){DIFF_MODE_SLIPPING, 1.0, T};
  in = grip_diff_reduce(&d, &st, 0.5, l, r, &t);
  tl = t.a_left * T + t.b_left;
  tr = t.a_right * T + t.b_right;
  CHECK_NEAR(tl - tr, 2.0 * (50.0 + 0.25 * T), 1e-9); /* transfer at its limit */

  /* Centre differential with a 40/60 split: open -> 40 % of torque to the front. */
  d.type = GRIP_DIFF_OPEN;
  in = grip_diff_reduce(&d, &st, 0.4, l, r, &t);
  CHECK_NEAR(t.a_left * T + t.b_left, 0.4 * T, 1e-9);
  (void)in;
}

/* Engine map: the built-in LS1 curve's published figures; parametric curve peak. */
static void engine_curve(void) {
  grip_vehicle_def car = grip_default_vehicle_def();
  double best_power = 0, best_rpm = 0, best_torque = 0, torque_rpm = 0;
  for (double rpm = 1000; rpm <= 6000; rpm += 10) {
    double t = grip_engine_curve_torque(&car.engine, rpm);
    double p = t * rpm * 2 * PI / 60;
    if (p > best_power) best_power = p, best_rpm = rpm;
    if (t > best_torque) best_torque = t, torque_rpm = rpm;
  }
  CHECK_NEAR(best_torque, 475.0, 0.01);
  CHECK_NEAR(torque_rpm, 4400.0, 1.0);
  CHECK_REL(best_power, 257000.0, 0.002); /* 345 hp */
  CHECK_NEAR(best_rpm, 5600.0, 1.0);

  grip_torque_curve_params p = {300, 4000, 3000, 4000, 1000, 7000};
  grip_engine_def e = car.engine;
  CHECK(grip_engine_curve_from_params(&e, &p, 31) == GRIP_OK);
  CHECK_NEAR(grip_engine_curve_torque(&e, 4000), 300.0, 1e-9);
  CHECK_NEAR(grip_engine_curve_torque(&e, 1000), 0.0, 1e-9); /* 3000 rpm below = width_low */
  CHECK_NEAR(grip_engine_curve_torque(&e, 6000), 300.0 * (1 - 0.25), 1e-9);
  CHECK(grip_engine_curve_from_params(&e, &p, 1) == GRIP_INVALID_ARGUMENT);
}

/* What a curve given as points and "linear between them" must do, for curves of 2 to 32
 * unevenly spaced points: pass through every point exactly, be continuous there (one rpm step
 * either side within the slope times the step), be linear inside each piece (at its quarter,
 * middle and three-quarter points the weighted mean of the piece's ends, to rounding), and stay
 * at the end values beyond both ends. */
static void engine_curve_pieces(void) {
  grip_engine_def e = grip_default_vehicle_def().engine;
  int checked = 0, failed = 0;
  for (int n = 2; n <= GRIP_MAX_CURVE_POINTS; ++n) {
    e.curve_points = n;
    for (int i = 0; i < n; ++i) {
      e.curve_rpm[i] = 800.0 + 250.0 * i + 37.0 * (i * i % 7); /* increasing, uneven */
      e.curve_torque[i] = 100.0 + 60.0 * sin(0.9 * i);
    }
    double t_first = e.curve_torque[0], t_last = e.curve_torque[n - 1];
    failed += grip_engine_curve_torque(&e, 0.5 * e.curve_rpm[0]) != t_first;
    failed += grip_engine_curve_torque(&e, e.curve_rpm[n - 1] + 900.0) != t_last;
    checked += 2;
    for (int i = 0; i < n; ++i) {
      double rpm = e.curve_rpm[i], torque = e.curve_torque[i];
      failed += grip_engine_curve_torque(&e, rpm) != torque;
      /* the steepest neighbouring piece bounds the change over one ulp of rpm */
      double slope = 0.0;
      if (i > 0) slope = fmax(slope, fabs((torque - e.curve_torque[i - 1]) / (rpm - e.curve_rpm[i - 1])));
      if (i + 1 < n) slope = fmax(slope, fabs((e.curve_torque[i + 1] - torque) / (e.curve_rpm[i + 1] - rpm)));
      for (int side = -1; side <= 1; side += 2) {
        double near = nextafter(rpm, side * INFINITY);
        failed += !(fabs(grip_engine_curve_torque(&e, near) - torque) <= slope * fabs(near - rpm) + 1e-12 * fabs(torque));
      }
      checked += 3;
      if (i + 1 == n) continue;
      for (int q = 1; q <= 3; ++q) {
        double f = 0.25 * q;
        double want = (1.0 - f) * torque + f * e.curve_torque[i + 1];
        double got = grip_engine_curve_torque(&e, rpm + f * (e.curve_rpm[i + 1] - rpm));
        failed += !(fabs(got - want) <= 1e-12 * fabs(want));
        ++checked;
      }
    }
  }
  printf("  %d look-ups on 31 curves, %d off\n", checked, failed);
  CHECK(checked > 2000);
  CHECK(failed == 0);
}

/* The step's engine starts its curve look-up at the piece of the step before (engine.c): any
 * starting piece, stale or out of range, gives the bits of a look-up from scratch, and leaves
 * the piece that holds rpm (curve_rpm[i − 1] < rpm <= curve_rpm[i]) for the next. Rpms at the
 * points, one ulp either side, inside the pieces, beyond both ends, and NaN; full throttle, so
 * that the torque is the curve's. */
static void engine_curve_any_start(void) {
  grip_engine_def e = grip_default_vehicle_def().engine;
  int checked = 0, failed = 0, misplaced = 0;
  for (int n = 1; n <= GRIP_MAX_CURVE_POINTS; ++n) {
    e.curve_points = n;
    for (int i = 0; i < n; ++i) {
      e.curve_rpm[i] = 700.0 + 300.0 * i + 41.0 * (i * i % 5);
      e.curve_torque[i] = 150.0 + 80.0 * cos(0.7 * i);
    }
    double rpms[4 * GRIP_MAX_CURVE_POINTS + 4];
    int count = 0;
    for (int i = 0; i < n; ++i) {
      rpms[count++] = e.curve_rpm[i];
      rpms[count++] = nextafter(e.curve_rpm[i], -INFINITY);
      rpms[count++] = nextafter(e.curve_rpm[i], INFINITY);
      if (i + 1 < n) rpms[count++] = e.curve_rpm[i] + 0.37 * (e.curve_rpm[i + 1] - e.curve_rpm[i]);
    }
    rpms[count++] = 0.5 * e.curve_rpm[0];
    rpms[count++] = e.curve_rpm[n - 1] + 1000.0;
    rpms[count++] = NAN;
    for (int k = 0; k < count; ++k) {
      double omega = rpms[k] / RAD_PER_S_TO_RPM;
      int fresh = 0;
      engine_output want = grip_engine_torque(&e, omega, 1.0, &fresh);
      double rpm = omega * RAD_PER_S_TO_RPM; /* as the engine works it out */
      for (int start = -3; start <= n + 3; ++start) {
        int piece = start;
        engine_output got = grip_engine_torque(&e, omega, 1.0, &piece);
        failed += memcmp(&got.torque, &want.torque, sizeof got.torque) != 0;
        ++checked;
        if (n >= 2 && rpm > e.curve_rpm[0] && rpm < e.curve_rpm[n - 1])
          misplaced += !(piece >= 1 && piece < n && e.curve_rpm[piece - 1] < rpm && rpm <= e.curve_rpm[piece]);
      }
    }
  }
  printf("  %d look-ups from every starting piece, %d with other bits, %d leaving another piece\n", checked, failed,
         misplaced);
  CHECK(checked > 10000);
  CHECK(failed == 0);
  CHECK(misplaced == 0);
}

/* Idle: in neutral with no throttle the governor holds the engine within 2 % of idle; at the
 * limiter it never exceeds the limit by more than one step's rise. */
static void idle_and_limiter(void) {
  grip_vehicle_def car = grip_default_vehicle_def();
  grip_vehicle_id id;
  grip_world *world = sim_world_with_car(&car, &id);
  grip_vehicle_input in = grip_default_vehicle_input();
  in.gear = 0;
  grip_vehicle_set_input(world, id, &in);
  for (int i = 0; i < 3000; ++i) grip_world_step(world, 0.002);
  grip_vehicle_state s;
  grip_vehicle_get_state(world, id, &s);
  CHECK_NEAR(s.engine_rpm, 800.0, 16.0);
  in.throttle = 1.0;
  grip_vehicle_set_input(world, id, &in);
  double peak = 0;
  for (int i = 0; i < 3000; ++i) {
    grip_world_step(world, 0.002);
    grip_vehicle_get_state(world, id, &s);
    if (s.engine_rpm > peak) peak = s.engine_rpm;
  }
  CHECK(peak > 5900.0);
  CHECK(peak < 6000.0 + 60.0);
  grip_destroy_world(world);
}

int main(void) {
  RUN_TEST(corvette_first_gear_force);
  RUN_TEST(corvette_first_gear_speed);
  RUN_TEST(hatchback_example_force);
  RUN_TEST(differential_equations);
  RUN_TEST(engine_curve);
  RUN_TEST(engine_curve_pieces);
  RUN_TEST(engine_curve_any_start);
  RUN_TEST(idle_and_limiter);
  return TEST_RESULT();
}
