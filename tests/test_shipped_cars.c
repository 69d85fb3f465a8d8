/* Every shipped car loads cleanly and accelerates within the bands of docs/car-format.md: 0-100
 * km/h within [t_min, 2.6 t_min] (t_min the larger of the power bound and the traction bound),
 * top speed within [0.90, 1.01] of the power-balance speed (capped by the limiter). */
#include <string.h>

#include "car_file.h"
#include "cornering.h"
#include "manoeuvre.h"
#include "grip/mf_tyre.h"
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

/* Skidpad on R = 40 m: the maximum lateral acceleration lies in the band documented for the car
 * in docs/car-format.md, and within [0.78, 1.01] of the friction limit computed from its tyres
 * (static and aero loads, roll-stiffness-shared load transfer, load sensitivity). The full model
 * measures 6-10 % under that limit even with an open differential, parallel steer, no drag and
 * no rolling resistance (the driven axle's thrust, the steered wheels' angle to the path, the
 * slow speed ramp's 1 s averages); a limited-slip or locked differential takes more, since it
 * adds a yaw moment against the turn. A locked axle (the kart) is checked with its differential
 * opened, and must then be faster: a spool scrubs its inner tyre. */
static void check_skidpad(const char *name, double band_low_g, double band_high_g) {
  grip_vehicle_def d = car.def;
  double limit = tyre_limit_lateral_g(&d, 40.0, 9.81, RHO);
  skidpad_result r = sim_skidpad(&d, 40.0, 0.002);
  printf("  %-16s skidpad R40 %.3f g in [%.2f, %.2f], friction limit %.3f g (%.1f %%), K %.2f deg/g, %s\n", name,
         r.max_lateral_g, band_low_g, band_high_g, limit, 100.0 * (r.max_lateral_g / limit - 1.0),
         r.understeer_gradient_deg_per_g, r.limit_behaviour);
  CHECK(r.max_lateral_g >= band_low_g && r.max_lateral_g <= band_high_g);
  /* Every shipped car is set up to understeer gently: stable for a robot and a beginner. */
  CHECK(r.understeer_gradient_deg_per_g > 0.0);
  grip_diff_def *diff = d.drivetrain.layout == GRIP_DRIVE_FWD ? &d.drivetrain.front : &d.drivetrain.rear;
  if (diff->type == GRIP_DIFF_LOCKED) {
    diff->type = GRIP_DIFF_OPEN;
    skidpad_result open = sim_skidpad(&d, 40.0, 0.002);
    printf("  %-16s with an open differential %.3f g (%.1f %%)\n", name, open.max_lateral_g,
           100.0 * (open.max_lateral_g / limit - 1.0));
    CHECK(open.max_lateral_g > 1.1 * r.max_lateral_g);
    r = open;
  }
  CHECK(r.max_lateral_g >= 0.78 * limit && r.max_lateral_g <= 1.01 * limit);
}

/* Peak longitudinal friction coefficient of an axle's tyre at its static wheel load. */
static double longitudinal_mu(const grip_tyre_def *t, double fz) {
  if (t->model == GRIP_TYRE_FULL_MF) {
    grip_mf_output o;
    grip_mf_evaluate_full(t->mf, fz, 0.0, 0.0, 0.0, 20.0, 0.0, &o);
    return o.mux;
  }
  return t->simple.longitudinal.mu;
}

static void check_car_file(const char *path, const char *name, double expect_power_kw) {
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
  double mu_f = longitudinal_mu(&d->axles[0].tyre, 0.5 * m * G * front);
  double mu_r = longitudinal_mu(&d->axles[1].tyre, 0.5 * m * G * (1 - front));
  if (d->drivetrain.layout == GRIP_DRIVE_RWD) a = mu_r * G * (1 - front) / (1 - mu_r * h / L);
  else if (d->drivetrain.layout == GRIP_DRIVE_FWD) a = mu_f * G * front / (1 + mu_f * h / L);
  else a = G * fmin(mu_f, mu_r);
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

static void check_car(const char *name, double expect_power_kw) {
  char path[512];
  snprintf(path, sizeof path, GRIP_SOURCE_DIR "/data/cars/%s.ini", name);
  check_car_file(path, name, expect_power_kw);
}

/* Peak power: GM's 257 kW at 5600 rpm; the design notes' 100 kW; the others as their files state.
 * Skidpad bands: docs/car-format.md, "Shipped cars". */
static void test_corvette(void) {
  check_car("corvette-c5", 257.0);
  check_skidpad("corvette-c5", 0.82, 0.95);
}
static void test_hatchback(void) {
  check_car("hatchback-100kw", 100.0);
  check_skidpad("hatchback-100kw", 0.80, 0.92);
}
static void test_single_seater(void) {
  check_car("single-seater", 418.9);
  check_skidpad("single-seater", 1.75, 2.05);
}
static void test_offroad(void) {
  check_car("offroad-4wd", 160.35);
  check_skidpad("offroad-4wd", 0.72, 0.85);
}
static void test_kart(void) {
  check_car("kart", 24.5);
  check_skidpad("kart", 1.02, 1.20);
}

/* A car file whose tyres come from a .tir file (`tir =`), driven end to end: the hatchback on
 * TNO's MF 6.2 205/60 R15 (the MFeval reference set), through the same accel and skidpad checks
 * with the friction taken from the .tir's own mu_x and mu_y. */
static void test_tir_car(void) {
  const char *tir = GRIP_SOURCE_DIR "/tests/data/mfeval/TNO_car205_60R15.tir";
  FILE *probe = fopen(tir, "r");
  if (!probe) TEST_SKIP("MFeval reference .tir not available");
  fclose(probe);
  const char *path = GRIP_BINARY_DIR "/test_shipped_cars_tir.ini";
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (!f) return;
  fprintf(f, "[car]\nbase = %s\nname = hatchback on MF 6.2\n[tyre.front]\ntir = %s\n[tyre.rear]\ntir = %s\n",
          GRIP_SOURCE_DIR "/data/cars/hatchback-100kw.ini", tir, tir);
  fclose(f);
  check_car_file(path, "hatchback-mf62", 100.0);
  for (int a = 0; a < 2; ++a) {
    CHECK(car.def.axles[a].tyre.model == GRIP_TYRE_FULL_MF);
    CHECK(car.def.axles[a].tyre.mf == &car.tyre_params[a]);
    CHECK(strstr(car.tir_path[a], "TNO_car205_60R15.tir") != NULL);
    CHECK_NEAR(car.tyre_params[a].FNOMIN, 4000.0, 0.0); /* the file's nominal load */
  }
  /* The .tir's lateral friction is lower than the shipped hatchback's simple tyres (friction
   * limits 0.87 g against 0.94 g), so the band sits below the hatchback's. */
  check_skidpad("hatchback-mf62", 0.65, 0.85);
  remove(path);
}

int main(void) {
  RUN_TEST(test_corvette);
  RUN_TEST(test_hatchback);
  RUN_TEST(test_single_seater);
  RUN_TEST(test_offroad);
  RUN_TEST(test_kart);
  RUN_TEST(test_tir_car);
  return TEST_RESULT();
}
