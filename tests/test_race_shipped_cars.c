/* Every shipped car (the five .ini files in data/cars) races 3 laps alone on the built-in track: it finishes,
 * spends under 5 s off the road, and its best lap lies within a band of an estimate made
 * another way: a point-mass lap of the centre line whose cornering limit is the car's own
 * skidpad figure (sim_skidpad: the full model held on a 40 m circle, not the race or the
 * robot's plan), its braking that same friction, its acceleration the engine's peak power
 * against drag. */
#include <string.h>

#include "car_file.h"
#include "cornering.h"
#include "grip/grip.h"
#include "race.h"
#include "test.h"
#include "track_file.h"

#define G 9.81
#define RHO 1.29
#define PI 3.14159265358979323846

static const char *const shipped[] = {"corvette-c5", "hatchback-100kw", "kart", "offroad-4wd", "single-seater"};

/* s, a flying lap of a point mass along the centre line (1 m steps): corner speeds
 * v = sqrt(a_lat(v)·r) with a_lat(v) = mu·(g + CA·v²/m), mu taken from the skidpad; then a
 * backward braking pass at the same friction and a forward pass with the engine's peak power
 * (P/v, at most mu·g) less drag and rolling resistance (1.2 % of the weight). */
static double point_mass_lap(const grip_track *t, const grip_vehicle_def *car, double skid_g, double skid_v) {
  double m = car->body.mass + car->fuel.mass;
  grip_aero_coefficients ac = grip_vehicle_aero_coefficients(car, RHO, car->aero.ride_height);
  double ca = ac.downforce_front + ac.downforce_rear;
  double mu = skid_g * G / (G + ca * skid_v * skid_v / m);
  double p_max = 0.0;
  for (double rpm = 100.0; rpm <= car->engine.rev_limit_rpm; rpm += 10.0)
    p_max = fmax(p_max, grip_engine_curve_torque(&car->engine, rpm) * rpm * 2.0 * PI / 60.0);
  p_max *= car->gearbox.efficiency;
  double L = grip_track_length(t);
  int n = (int)ceil(L);
  double ds = L / n;
  double *v = malloc((size_t)n * sizeof *v);
  for (int i = 0; i < n; ++i) {
    double k = fabs(grip_track_point_at(t, i * ds).curvature);
    double den = 1.0 - mu * ca / m / fmax(k, 1e-9);
    v[i] = (k < 1e-6 || den <= 0.0) ? 200.0 : sqrt(mu * G / k / den);
  }
  for (int pass = 0; pass < 2; ++pass)
    for (int j = 2 * n - 1; j >= 0; --j) {
      int i = j % n, next = (i + 1) % n;
      double a = mu * (G + ca * v[next] * v[next] / m) + ac.drag * v[next] * v[next] / m;
      v[i] = fmin(v[i], sqrt(v[next] * v[next] + 2.0 * a * ds));
    }
  int slow = 0;
  for (int i = 1; i < n; ++i)
    if (v[i] < v[slow]) slow = i;
  double time = 0.0;
  double u = v[slow];
  for (int j = 0; j < n; ++j) {
    int i = (slow + j) % n, next = (i + 1) % n;
    double drive = fmin(p_max / fmax(u, 1.0), mu * (m * G + ca * u * u));
    double a = (drive - ac.drag * u * u - 0.012 * m * G) / m;
    double w = sqrt(fmax(0.0, u * u + 2.0 * fmax(a, 0.0) * ds));
    w = fmin(w, v[next]);
    time += 2.0 * ds / (u + w);
    u = w;
  }
  free(v);
  return time;
}

static void shipped_cars_three_laps(void) {
  grip_track *t = NULL;
  grip_load_error err;
  grip_load_error_clear(&err);
  CHECK(grip_track_open("default", &t, NULL, 0, &err) == 0);
  for (size_t c = 0; c < sizeof shipped / sizeof shipped[0]; ++c) {
    char path[512];
    snprintf(path, sizeof path, GRIP_SOURCE_DIR "/data/cars/%s.ini", shipped[c]);
    static grip_car car;
    CHECK(grip_car_load(path, &car, &err) == 0);
    skidpad_result sk = sim_skidpad(&car.def, 40.0, 0.002);
    double estimate = point_mass_lap(t, &car.def, sk.max_lateral_g, sk.limit_speed_kmh / 3.6);
    const double dts[] = {0.01, 0.005, 0.002};
    for (int d = 0; d < 3; ++d) {
      race_config cfg = race_default_config();
      cfg.track = t;
      cfg.car = &car.def;
      cfg.car_name = shipped[c];
      cfg.dt = dts[d];
      race_result res;
      CHECK(race_run(&cfg, &res) == 0);
      const race_car_result *r = &res.results[0];
      printf("  %-16s dt %.3f: %d laps, best %.3f s (point-mass estimate %.3f s, skidpad %.3f g: x%.3f), off road %.2f s\n",
             shipped[c], dts[d], r->laps, r->best_lap_s, estimate, sk.max_lateral_g, r->best_lap_s / estimate,
             r->off_track_s);
      CHECK(r->finished && r->laps == 3);
      CHECK(r->off_track_s < 5.0);
      /* The robot keeps a margin (mu_factor 0.85); the estimate ignores the racing line's wider
       * radii (faster) and gear changes (slower): the best lap is within 15 % of it. */
      CHECK(r->best_lap_s > 0.85 * estimate && r->best_lap_s < 1.15 * estimate);
      race_result_free(&res);
    }
  }
  grip_track_destroy(t);
}

int main(void) {
  RUN_TEST(shipped_cars_three_laps);
  return TEST_RESULT();
}
