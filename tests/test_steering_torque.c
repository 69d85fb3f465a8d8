/* Torque at the steering wheel (force feedback, issue 12): against the tyre model evaluated
 * independently at the measured slips and loads, its fall past the aligning moment's peak, and
 * a parked car. */
#include <string.h>

#include "car_file.h"
#include "cornering.h"
#include "grip/grip.h"
#include "manoeuvre.h"
#include "test.h"

#define PI 3.14159265358979323846

static grip_car shipped;

static const grip_vehicle_def *load_car(const char *file) {
  char path[512];
  snprintf(path, sizeof path, "%s/data/cars/%s", GRIP_SOURCE_DIR, file);
  grip_load_error err;
  if (grip_car_load(path, &shipped, &err) != 0) {
    fprintf(stderr, "%s: %s\n", path, err.message);
    return NULL;
  }
  return &shipped.def;
}

/* The kingpin moment of the steered tyres from the tyre model evaluated afresh at the state's
 * load, slip ratio and slip angle, through the ratio: T = Σ(Mz − t_m·Fy) / r. */
static double expected_torque(const grip_vehicle_def *car, const grip_vehicle_state *s, double *front_fy) {
  double kingpin = 0.0;
  *front_fy = 0.0;
  for (int i = 0; i < GRIP_WHEEL_COUNT; ++i) {
    if (car->axles[i / 2].steer_ratio == 0.0 || !s->wheels[i].in_contact) continue;
    grip_tyre_input in = {.fz = s->wheels[i].load, .kappa = s->wheels[i].slip_ratio,
                          .alpha = s->wheels[i].slip_angle, .gamma = 0.0, .vx = s->speed,
                          .friction_scale = car->assists.grip_multiplier};
    grip_tyre_output out;
    grip_simple_mf_evaluate(&car->axles[i / 2].tyre.simple, &in, &out);
    kingpin += out.mz - car->steering.mechanical_trail * out.fy;
    *front_fy += out.fy;
  }
  return kingpin / car->steering.ratio;
}

/* Steady cornering over cars, speeds, steering angles (both ways) and time steps: the reported
 * torque equals the independent figure within 2 %. */
static void steady_matches_tyre_model(void) {
  const char *cars[] = {"corvette-c5.ini", "hatchback-100kw.ini", "single-seater.ini"};
  const double speeds[] = {40.0, 80.0};
  const double steers[] = {20.0, -60.0};
  const double dts[] = {0.001, 0.004, 0.01};
  for (int c = 0; c < 3; ++c) {
    const grip_vehicle_def *car = load_car(cars[c]);
    CHECK(car != NULL);
    if (!car) continue;
    for (int v = 0; v < 2; ++v)
      for (int k = 0; k < 2; ++k)
        for (int d = 0; d < 3; ++d) {
          grip_vehicle_state s;
          memset(&s, 0, sizeof s);
          double steer = steers[k] * car->steering.ratio / 16.0; /* similar road-wheel angle per car */
          steady_result r = sim_steady_state(car, speeds[v], steer, dts[d], &s);
          double fy;
          double expected = expected_torque(car, &s, &fy);
          CHECK(r.steady);
          CHECK_REL(s.steering_torque, expected, 0.02);
          CHECK(s.steering_torque * steer < 0.0); /* self-centring */
          CHECK(r.steering_torque_nm == s.steering_torque);
          if (d == 0 && v == 1)
            printf("  %-20s %3.0f km/h %6.1f deg: %7.3f N*m, from the tyre model %7.3f N*m\n", cars[c], speeds[v],
                   steer, s.steering_torque, expected);
        }
  }
}

/* Rising steering at a fixed speed: once the front slip angle passes the aligning moment's
 * peak, the front lateral force still rises while the wheel torque falls. */
static void torque_falls_past_aligning_peak(void) {
  const char *cars[] = {"corvette-c5.ini", "hatchback-100kw.ini"};
  for (int c = 0; c < 2; ++c) {
    const grip_vehicle_def *car = load_car(cars[c]);
    CHECK(car != NULL);
    if (!car) continue;
    double prev_torque = 0.0, prev_fy = 0.0, prev_mz = 0.0;
    int falling_while_rising = 0, mz_past_peak = 0;
    for (double steer = 40.0; steer <= 200.0; steer += 20.0) {
      grip_vehicle_state s;
      memset(&s, 0, sizeof s);
      steady_result r = sim_steady_state(car, 60.0, steer * car->steering.ratio / 16.0, 0.002, &s);
      CHECK(r.steady);
      double fy = s.wheels[0].fy + s.wheels[1].fy;
      double mz = s.wheels[0].mz + s.wheels[1].mz;
      double torque = -s.steering_torque; /* what the driver holds */
      if (steer > 40.0) {
        bool mz_falls = fabs(mz) < fabs(prev_mz);
        if (mz_falls) mz_past_peak++;
        if (mz_falls && fy > prev_fy && torque < prev_torque) falling_while_rising++;
      }
      printf("  %-20s %5.0f deg: slip %6.2f deg, front Fy %7.0f N, Mz %7.1f N*m, wheel %6.2f N*m\n", cars[c], steer,
             s.wheels[0].slip_angle * 180.0 / PI, fy, mz, torque);
      prev_torque = torque;
      prev_fy = fy;
      prev_mz = mz;
    }
    CHECK(mz_past_peak >= 2);
    CHECK(falling_while_rising >= 2);
  }
}

/* Parked: zero and still, with the wheel straight or held turned, over time steps; while the
 * wheel is being turned the column's damping and friction alone resist it. */
static void parked_is_zero_and_stable(void) {
  const double dts[] = {0.001, 0.005, 0.01};
  for (int d = 0; d < 3; ++d) {
    double dt = dts[d];
    grip_vehicle_def car = grip_default_vehicle_def();
    grip_vehicle_id id;
    grip_world *world = sim_world_with_car(&car, &id);
    CHECK(world != NULL);
    if (!world) return;
    grip_vehicle_input in = grip_default_vehicle_input();
    in.gear = 0;
    grip_vehicle_state s;
    double lo = 1e9, hi = -1e9;
    int steps = (int)(4.0 / dt + 0.5);
    /* 0..1 s settle straight; 1..2 s turn the wheel at a constant rate to half lock; 2..4 s held. */
    double ramp_seconds = 1.0, target = 0.5;
    double rate = target * car.steering.max_wheel_angle / ramp_seconds; /* rad/s at the wheel */
    double expected_turning = -car.steering.column_damping * rate - car.steering.column_friction * tanh(rate / 0.05);
    double turning_sum = 0.0;
    int turning_n = 0;
    for (int i = 0; i < steps; ++i) {
      double t = i * dt;
      if (t >= 1.0 && t < 2.0) in.steering = target * (t - 1.0 + dt) / ramp_seconds;
      if (t >= 2.0) in.steering = target;
      grip_vehicle_set_input(world, id, &in);
      grip_world_step(world, dt);
      grip_vehicle_get_state(world, id, &s);
      CHECK(isfinite(s.steering_torque));
      if ((t > 0.5 && t < 1.0) || t > 2.5) {
        if (s.steering_torque < lo) lo = s.steering_torque;
        if (s.steering_torque > hi) hi = s.steering_torque;
      }
      if (t > 1.1 && t < 1.9) {
        turning_sum += s.steering_torque;
        turning_n++;
      }
    }
    CHECK_NEAR(lo, 0.0, 0.01);
    CHECK_NEAR(hi, 0.0, 0.01);
    CHECK_NEAR(hi - lo, 0.0, 0.005);
    CHECK_REL(turning_sum / turning_n, expected_turning, 0.05);
    printf("  parked dt %.3f: held %.2g..%.2g N*m, turning %.3f N*m (column alone %.3f)\n", dt, lo, hi,
           turning_sum / turning_n, expected_turning);
    grip_destroy_world(world);
  }
}

int main(void) {
  RUN_TEST(steady_matches_tyre_model);
  RUN_TEST(torque_falls_past_aligning_peak);
  RUN_TEST(parked_is_zero_and_stable);
  return TEST_RESULT();
}
