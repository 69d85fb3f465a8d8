/* The shipped cars of more than two axles or one-wheel axles, each against an independent
 * expectation: data/cars/truck-6x4.ini (a 6x4 tractor) and data/cars/three-wheeler.ini
 * (a Reliant Robin: one front wheel).
 * - top speed against the drag/power balance of the file's own figures (or the rev limit in top
 *   gear when gearing-limited), dt 0.002 / 0.005 / 0.01;
 * - the truck's low-speed off-tracking against the tandem's kinematic formula
 *   (docs/physics.md, "Off-tracking of a tandem");
 * - the three-wheeler's steady-state limit against the tricycle rollover threshold
 *   (t/2)(a/L)/h, and that it tips rather than slides;
 * - static axle loads against the sourced ones in the files' comments;
 * - the tools' readings of every wheel (brake lock, skidpad slip angles). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "car_file.h"
#include "car_layout.h"
#include "cornering.h"
#include "grip/grip.h"
#include "manoeuvre.h"
#include "test.h"

#define G_ 9.81
#define RHO_ 1.29 /* the world's default air density (docs/physics.md) */
#define PI_ 3.14159265358979323846

static grip_car load_car(const char *name) {
  char path[512];
  snprintf(path, sizeof path, GRIP_SOURCE_DIR "/data/cars/%s.ini", name);
  grip_car car;
  grip_load_error err;
  memset(&car, 0, sizeof car);
  int rc = grip_car_load(path, &car, &err);
  CHECK(rc == 0);
  char msg[256];
  CHECK(grip_vehicle_def_validate(&car.def, msg, sizeof msg) == GRIP_OK);
  return car;
}

/* Top speed from the file's figures: in each gear, the speed where the wheel power
 * T(rpm)·ω_e·η equals ½ρCdA·v³ + f·m·g·v (bisection), capped at the rev limit; the best gear.
 * *limited says whether the rev limit (gearing) or the balance (drag) decides. */
static double expected_top_speed(const grip_vehicle_def *d, bool *gearing_limited) {
  double m = d->body.mass + d->fuel.mass;
  double r = car_driven_wheel_radius(d);
  double f = 0.012 * d->axles[d->axle_count - 1].tyre.rolling_resistance;
  double k = 0.5 * RHO_ * d->aero.drag_coefficient * d->aero.frontal_area;
  double best = 0.0;
  *gearing_limited = false;
  for (int g = 0; g < d->gearbox.forward_gears; ++g) {
    double x = d->gearbox.ratios[g] * d->gearbox.final_drive;
    double v_lim = d->engine.rev_limit_rpm * PI_ / 30.0 / x * r;
    double lo = 0.0, hi = v_lim;
    bool limited = true;
    for (int it = 0; it < 100; ++it) {
      double v = 0.5 * (lo + hi);
      double rpm = v / r * x * 30.0 / PI_;
      double drive = grip_engine_curve_torque(&d->engine, rpm) * x * d->gearbox.efficiency / r;
      if (drive > k * v * v + f * m * G_) lo = v;
      else hi = v, limited = false;
    }
    if (lo > best) best = lo, *gearing_limited = limited;
  }
  return best;
}

static void check_top_speed(const char *name, bool expect_gearing) {
  grip_car car = load_car(name);
  bool gearing;
  double v_star = expected_top_speed(&car.def, &gearing) * 3.6;
  CHECK(gearing == expect_gearing);
  const double dts[] = {0.002, 0.005, 0.01};
  for (int i = 0; i < 3; ++i) {
    accel_result a = sim_accel(&car.def, dts[i], 400.0, 0.01);
    printf("  %-14s dt %.3f: top %.2f km/h in gear %d, expected %.2f km/h (%s-limited)\n", name, dts[i],
           a.top_speed_kmh, a.top_gear, v_star, gearing ? "gearing" : "drag");
    CHECK_REL(a.top_speed_kmh, v_star, 0.025);
  }
}

static void test_truck_top_speed(void) { check_top_speed("truck-6x4", true); }
static void test_three_wheeler_top_speed(void) { check_top_speed("three-wheeler", false); }

/* Static axle loads: the truck's sourced 5900 kg on the steer axle and 1650 kg on each tandem
 * axle (3300 kg over the tandem); the three-wheeler's 40 % of 436 kg on its front wheel. The
 * core's spring equilibrium (grip_vehicle_static_axle_loads) within 1 %, and a car settled in a
 * world carries the same within 2 % (sum of its wheels' loads per axle). */
static void check_loads(const char *name, const double *expect_kg, int axles) {
  grip_car car = load_car(name);
  double loads[GRIP_MAX_AXLES];
  CHECK(grip_vehicle_static_axle_loads(&car.def, G_, loads) == axles);
  grip_vehicle_id id;
  grip_world *w = sim_world_with_car(&car.def, &id);
  CHECK(w != NULL);
  if (!w) return;
  for (int i = 0; i < 400; ++i) grip_world_step(w, 0.005);
  grip_wheel_state wheels[GRIP_MAX_WHEELS];
  int n = grip_vehicle_get_wheels(w, id, wheels, GRIP_MAX_WHEELS);
  car_layout l;
  car_layout_of(&car.def, &l);
  CHECK(n == l.wheel_count);
  for (int a = 0; a < axles; ++a) {
    double settled = 0.0;
    for (int k = 0; k < l.axle_wheels[a]; ++k) settled += wheels[l.axle_first_wheel[a] + k].load;
    printf("  %-14s axle %d: %.0f kg sourced, %.1f kg static, %.1f kg settled\n", name, a + 1, expect_kg[a],
           loads[a] / G_, settled / G_);
    CHECK_REL(loads[a] / G_, expect_kg[a], 0.01);
    CHECK_REL(settled / G_, expect_kg[a], 0.02);
  }
  grip_destroy_world(w);
}

static void test_static_loads(void) {
  const double truck[] = {5900.0, 1650.0, 1650.0};
  check_loads("truck-6x4", truck, 3);
  const double robin[] = {0.4 * 436.0, 0.6 * 436.0};
  check_loads("three-wheeler", robin, 2);
}

/* Off-tracking: at low speed the tandem's two axles take equal and opposite forces about the
 * turn centre, which the moment balance puts s²/(4L) behind the tandem's centre; so
 * R_front² − R_tandem² = L² + s²/2 (docs/physics.md), L the wheelbase to the tandem centre and
 * s the tandem spread. Naive two-axle geometry (L² alone) is 6.6 % off for this truck. */
static void test_truck_off_tracking(void) {
  grip_car car = load_car("truck-6x4");
  const grip_vehicle_def *d = &car.def;
  double x_t = 0.5 * (d->axles[1].x + d->axles[2].x), L = d->axles[0].x - x_t, s = d->axles[1].x - d->axles[2].x;
  double expect = L * L + 0.5 * s * s;
  const double dts[] = {0.002, 0.005, 0.01};
  for (int i = 0; i < 3; ++i) {
    for (double steer_deg = 150.0; steer_deg <= 450.0; steer_deg += 300.0) {
      grip_vehicle_state st;
      steady_result r = sim_steady_state(d, 8.0, steer_deg, dts[i], &st);
      CHECK(r.steady);
      double wz = sim_yaw_rate(&st);
      double vx = st.local_velocity.x, vy = st.local_velocity.y, xc = d->body.center_of_mass.x;
      /* planar velocity of a point on the centre line at x: (vx, vy + ω·(x − x_cg)) */
      double vfy = vy + wz * (d->axles[0].x - xc), vty = vy + wz * (x_t - xc);
      double rf = sqrt(vx * vx + vfy * vfy) / fabs(wz), rt = sqrt(vx * vx + vty * vty) / fabs(wz);
      double measured = rf * rf - rt * rt;
      printf("  dt %.3f steer %3.0f deg: R_front %.3f m, R_tandem %.3f m, off-tracking %.3f m; "
             "R_f^2 - R_t^2 = %.3f m^2 vs L^2 + s^2/2 = %.3f (L^2 = %.3f)\n",
             dts[i], steer_deg, rf, rt, rf - rt, measured, expect, L * L);
      CHECK_REL(measured, expect, 0.05);
    }
  }
}

/* The three-wheeler's steady-state limit: min(μ·g, the tricycle threshold (t/2)(a/L)/h·g),
 * here the threshold (0.69 g < μ 0.85): the inner rear wheel's load in steady circles falls
 * linearly with a_y; where the line reaches zero is the measured limit (within 5 %), and the
 * skidpad ends with the car tipping (a wheel up), not sliding. */
static void test_three_wheeler_rollover(void) {
  grip_car car = load_car("three-wheeler");
  const grip_vehicle_def *d = &car.def;
  double threshold = car_tricycle_rollover_g(d);
  double mu = d->axles[1].tyre.simple.lateral.mu;
  printf("  rollover threshold %.3f g, tyre mu %.2f: predicted %s\n", threshold, mu, threshold < mu ? "tips" : "slides");
  CHECK(threshold < mu);
  const double dts[] = {0.002, 0.005, 0.01};
  for (int i = 0; i < 3; ++i) {
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int n = 0;
    for (double kmh = 30.0; kmh <= 48.0; kmh += 3.0) {
      grip_vehicle_state st;
      steady_result r = sim_steady_state(d, kmh, 60.0, dts[i], &st);
      if (!r.steady) continue;
      double inner = st.wheels[1].load < st.wheels[2].load ? st.wheels[1].load : st.wheels[2].load;
      sx += r.lateral_g, sy += inner, sxx += r.lateral_g * r.lateral_g, sxy += r.lateral_g * inner, ++n;
    }
    CHECK(n >= 5);
    double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx), icpt = (sy - slope * sx) / n;
    double zero = -icpt / slope;
    printf("  dt %.3f: inner rear load %.0f N %+.0f N/g over %d circles: zero at %.3f g (threshold %.3f g)\n", dts[i],
           icpt, slope, n, zero, threshold);
    CHECK_REL(zero, threshold, 0.05);
  }
  skidpad_result sk = sim_skidpad(d, 40.0, 0.002);
  printf("  skidpad R 40: %s, a wheel lifted at %.3f g, best 1 s mean %.3f g\n", sk.limit_behaviour, sk.wheel_lift_g,
         sk.max_lateral_g);
  CHECK(strcmp(sk.limit_behaviour, "rollover") == 0);
  CHECK(sk.max_lateral_g < mu);
}

/* grip brake reads every wheel, not the first four: with three times its brakes every one of
 * the truck's six wheels locks; with the last axle's brakes off (its share moved to the
 * second), the first four lock and the last two do not, so "every wheel locked" must be false.
 * The three-wheeler's three lock at full pedal. A locked tyre slides at about its mu: each stop
 * takes at least v²/(2·μ_max·g). */
static void test_brake_every_wheel(void) {
  grip_car truck = load_car("truck-6x4"), robin = load_car("three-wheeler");
  grip_vehicle_def strong = truck.def, tandem_off = truck.def;
  strong.brakes.max_torque *= 3.0;
  tandem_off.brakes.max_torque *= 3.0;
  tandem_off.axles[1].brake_share += tandem_off.axles[2].brake_share;
  tandem_off.axles[2].brake_share = 0.0;
  brake_result bs = sim_brake(&strong, 80.0, 0.002), bo = sim_brake(&tandem_off, 80.0, 0.002);
  brake_result br = sim_brake(&robin.def, 80.0, 0.002);
  double v = 80.0 / 3.6;
  printf("  truck x3 brakes: %.1f m, all locked %d; last axle unbraked: all locked %d; three-wheeler %.1f m, %.2f g, "
         "all locked %d\n", bs.distance_m, bs.wheels_locked, bo.wheels_locked, br.distance_m, br.peak_decel_g,
         br.wheels_locked);
  CHECK(bs.wheels_locked);
  CHECK(!bo.wheels_locked);
  CHECK(br.wheels_locked);
  CHECK(bs.distance_m >= 0.95 * v * v / (2 * 0.9 * G_));
  CHECK(br.distance_m >= 0.95 * v * v / (2 * 0.85 * G_));
}

/* driver/car_layout.h on the shipped cars: wheel order, driven wheels, radius and the turning
 * line, against what each file says (axles, layout or tree, radii). */
static void test_layouts(void) {
  struct {
    const char *name;
    int wheels, driven_count;
    unsigned driven_mask; /* bit i: wheel i driven */
  } cases[] = {{"truck-6x4", 6, 4, 0x3c}, {"three-wheeler", 3, 2, 0x6}, {"corvette-c5", 4, 2, 0xc},
               {"hatchback-100kw", 4, 2, 0x3}, {"offroad-4wd", 4, 4, 0xf}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    grip_car car = load_car(cases[k].name);
    car_layout l;
    car_layout_of(&car.def, &l);
    unsigned mask = 0;
    for (int i = 0; i < l.wheel_count; ++i) mask |= l.driven[i] ? 1u << i : 0u;
    printf("  %-16s %d wheels, driven mask 0x%x, driven radius %.3f m, turning line x %.4f m\n", cases[k].name,
           l.wheel_count, mask, car_driven_wheel_radius(&car.def), car_reference_x(&car.def));
    CHECK(l.wheel_count == cases[k].wheels);
    CHECK(l.driven_count == cases[k].driven_count);
    CHECK(mask == cases[k].driven_mask);
  }
  grip_car truck = load_car("truck-6x4"), robin = load_car("three-wheeler");
  CHECK_NEAR(car_driven_wheel_radius(&truck.def), 0.51, 1e-12);
  CHECK_NEAR(car_reference_x(&truck.def), 0.5 * (-1.165 - 2.535), 1e-12); /* the tandem's centre */
  CHECK_NEAR(car_effective_wheelbase(&truck.def), 3.70, 1e-12);
  CHECK_NEAR(car_driven_wheel_radius(&robin.def), 0.24, 1e-12);
  CHECK(car_has_single_wheel_axle(&robin.def) && !car_has_single_wheel_axle(&truck.def));
  CHECK(isinf(car_tricycle_rollover_g(&truck.def)));
  /* (t/2)(a/L)/h with the fuel: 0.6225 · (1.0795 + 0.2159)/2.159 / ((416·0.55 + 20·0.35)/436) */
  CHECK_NEAR(car_tricycle_rollover_g(&robin.def), 0.6225 * (1.2954 / 2.159) / ((416 * 0.55 + 20 * 0.35) / 436.0), 1e-9);
}

/* The skidpad's understeer gradient (0.2-0.3 g, read from the one front wheel or the first
 * axle's two) against the single-track model of the same car (sim/cornering.c: a one-wheel axle's
 * tyre at its whole load; a truck's tandem lumped on its centre line at one slip angle). The
 * three-wheeler's model is exact to the model's assumptions (5 %); the truck's tandem scrubs in
 * the turn, which the lumped model leaves out (20 %). dt 0.002 and 0.005. */
static void test_understeer_gradient(void) {
  const char *names[] = {"three-wheeler", "truck-6x4"};
  const double tol[] = {0.05, 0.20};
  const double dts[] = {0.002, 0.005};
  for (int k = 0; k < 2; ++k) {
    grip_car car = load_car(names[k]);
    for (int i = 0; i < 2; ++i) {
      skidpad_result r = sim_skidpad(&car.def, 40.0, dts[i]);
      printf("  %-14s dt %.3f: K %.3f deg/g measured, single-track model %.3f deg/g (%s at the limit)\n", names[k],
             dts[i], r.understeer_gradient_deg_per_g, r.bicycle_understeer_gradient_deg_per_g, r.limit_behaviour);
      CHECK(r.samples_linear > 10);
      CHECK_REL(r.understeer_gradient_deg_per_g, r.bicycle_understeer_gradient_deg_per_g, tol[k]);
    }
  }
}

int main(void) {
  RUN_TEST(test_understeer_gradient);
  RUN_TEST(test_layouts);
  RUN_TEST(test_static_loads);
  RUN_TEST(test_truck_top_speed);
  RUN_TEST(test_three_wheeler_top_speed);
  RUN_TEST(test_truck_off_tracking);
  RUN_TEST(test_three_wheeler_rollover);
  RUN_TEST(test_brake_every_wheel);
  return TEST_RESULT();
}
