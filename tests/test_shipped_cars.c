/* Every shipped car loads cleanly and accelerates within the bands of docs/car-format.md: 0-100
 * km/h within [t_min, 2.6 t_min] (t_min the larger of the power bound and the traction bound),
 * top speed within [0.90, 1.01] of the power-balance speed (capped by the limiter). */
#include <string.h>

#include "car_file.h"
#include "manoeuvre.h"
#include "test.h"

#define G 9.80665
#define RHO 1.29
#define PI_ 3.14159265358979323846

static grip_car car;

/* Peak power, W, scanning the curve every rpm from idle to the limiter. */
static double peak_power(const grip_engine_def *e) {
  double best = 0;
  for (double rpm = e->idle_rpm; rpm <= e->rev_limit_rpm; rpm += 1.0)
    best = fmax(best, grip_engine_curve_torque(e, rpm) * rpm * PI_ / 30.0);
  return best;
}

static void check_car(const char *name, double expect_power_kw) {
  char path[512];
  snprintf(path, sizeof path, GRIP_SOURCE_DIR "/data/cars/%s.ini", name);
  grip_load_error err;
  int rc = grip_car_load(path, &car, &err);
  if (rc) fprintf(stderr, "%s\n", err.message);
  CHECK(rc == 0);
  if (rc) return;
  CHECK(car.warning_count == 0);
  const grip_vehicle_def *d = &car.def;
  double m = d->body.mass + d->fuel.mass;
  double P = peak_power(&d->engine);
  CHECK_REL(P, expect_power_kw * 1e3, 0.002); /* the figure stated in the car's comments */
  double eta = d->gearbox.efficiency;
  double v100 = 100 / 3.6;
  double t_power = 0.5 * m * v100 * v100 / (P * eta);
  /* Traction bound with load transfer; CG of body and fuel together. */
  double xcg = (d->body.mass * d->body.center_of_mass.x + d->fuel.mass * d->fuel.position.x) / m;
  double h = (d->body.mass * d->body.center_of_mass.z + d->fuel.mass * d->fuel.position.z) / m;
  double L = d->axles[0].x - d->axles[1].x;
  double front = (xcg - d->axles[1].x) / L;
  double a;
  if (d->drivetrain.layout == GRIP_DRIVE_RWD) {
    double mu = d->axles[1].tyre.simple.longitudinal.mu;
    a = mu * G * (1 - front) / (1 - mu * h / L);
  } else if (d->drivetrain.layout == GRIP_DRIVE_FWD) {
    double mu = d->axles[0].tyre.simple.longitudinal.mu;
    a = mu * G * front / (1 + mu * h / L);
  } else {
    a = G * fmin(d->axles[0].tyre.simple.longitudinal.mu, d->axles[1].tyre.simple.longitudinal.mu);
  }
  double t_traction = v100 / a;
  double t_min = fmax(t_power, t_traction);
  /* Power-balance top speed. */
  double cda = 0.5 * RHO * d->aero.drag_coefficient * d->aero.frontal_area, ca = -0.5 * RHO * d->aero.frontal_area *
      (d->aero.lift_coefficient_front + d->aero.lift_coefficient_rear);
  for (int k = 0; k < d->aero.wing_count; ++k) {
    double n = 4 * RHO * d->aero.wings[k].area * sin(d->aero.wings[k].angle);
    ca += n * cos(d->aero.wings[k].angle);
    cda += fabs(n * sin(d->aero.wings[k].angle));
  }
  double f = 0.012 * 0.5 * (d->axles[0].tyre.rolling_resistance + d->axles[1].tyre.rolling_resistance);
  double lo = 0, hi = 200;
  for (int i = 0; i < 100; ++i) {
    double v = 0.5 * (lo + hi);
    if (cda * v * v * v + f * (m * G + fmax(ca, 0) * v * v) * v < P * eta) lo = v;
    else hi = v;
  }
  double r = d->drivetrain.layout == GRIP_DRIVE_FWD ? d->axles[0].wheel_radius : d->axles[1].wheel_radius;
  double x_top = d->gearbox.ratios[d->gearbox.forward_gears - 1] * d->gearbox.final_drive;
  double v_lim = d->engine.rev_limit_rpm * PI_ / 30 / x_top * r;
  double v_star = fmin(lo, v_lim) * 3.6;
  accel_result res = sim_accel(d, 0.002, 180.0, 0.05);
  printf("  %-16s 0-100 %.2f s in [%.2f, %.2f] (power %.2f, traction %.2f); top %.1f km/h in [%.1f, %.1f]\n",
         name, res.t_0_100_s, t_min, 2.6 * t_min, t_power, t_traction, res.top_speed_kmh, 0.90 * v_star, 1.01 * v_star);
  CHECK(res.t_0_100_s >= t_min && res.t_0_100_s <= 2.6 * t_min);
  CHECK(res.top_speed_kmh >= 0.90 * v_star && res.top_speed_kmh <= 1.01 * v_star);
}

static void test_corvette(void) { check_car("corvette-c5", 257.0); }      /* GM: 257 kW at 5600 rpm */
static void test_hatchback(void) { check_car("hatchback-100kw", 100.0); } /* design notes: 100 kW */
static void test_single_seater(void) { check_car("single-seater", 418.9); }
static void test_offroad(void) { check_car("offroad-4wd", 160.35); }
static void test_kart(void) { check_car("kart", 24.5); }

int main(void) {
  RUN_TEST(test_corvette);
  RUN_TEST(test_hatchback);
  RUN_TEST(test_single_seater);
  RUN_TEST(test_offroad);
  RUN_TEST(test_kart);
  return TEST_RESULT();
}
