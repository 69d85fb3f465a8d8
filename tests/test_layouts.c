/* Drive layouts and tyre models: FWD and AWD drive, the centre differential splits torque as
 * defined, and a car on full Magic-Formula tyres from a .tir file drives and brakes. */
#include <string.h>

#include "grip/grip.h"
#include "grip/mf_tyre.h"
#include "manoeuvre.h"
#include "test.h"
#include "tir.h"

static void front_wheel_drive(void) {
  grip_vehicle_def car = grip_default_vehicle_def();
  car.drivetrain.layout = GRIP_DRIVE_FWD;
  car.drivetrain.front.type = GRIP_DIFF_OPEN;
  accel_result r = sim_accel(&car, 0.002, 40.0, 0.05);
  /* Same power, less traction on the lighter, unloading front axle: slower, but it goes. */
  grip_vehicle_def base = grip_default_vehicle_def();
  accel_result rwd = sim_accel(&base, 0.002, 40.0, 0.05);
  CHECK(r.t_0_100_s > rwd.t_0_100_s);
  CHECK(r.t_0_100_s < 2.0 * rwd.t_0_100_s);
}

/* AWD with an open centre differential of front share s: the axle torques split s : 1−s. */
static void all_wheel_drive_split(void) {
  grip_vehicle_def car = grip_default_vehicle_def();
  car.drivetrain.layout = GRIP_DRIVE_AWD;
  car.drivetrain.front.type = car.drivetrain.rear.type = car.drivetrain.centre.type = GRIP_DIFF_OPEN;
  car.drivetrain.centre.front_split = 0.4;
  grip_vehicle_id id;
  grip_world *world = sim_world_with_car(&car, &id);
  grip_vehicle_set_velocity(world, id, (grip_vec3){10, 0, 0});
  grip_vehicle_input in = grip_default_vehicle_input();
  in.throttle = 0.5;
  grip_vehicle_set_input(world, id, &in);
  for (int i = 0; i < 500; ++i) grip_world_step(world, 0.002);
  grip_vehicle_state s;
  grip_vehicle_get_state(world, id, &s);
  double front = s.wheels[0].drive_torque + s.wheels[1].drive_torque;
  double rear = s.wheels[2].drive_torque + s.wheels[3].drive_torque;
  CHECK(front > 100.0);
  CHECK_REL(front / (front + rear), 0.4, 1e-6);
  CHECK_REL(s.wheels[0].drive_torque, s.wheels[1].drive_torque, 1e-9); /* open axle diff */
  grip_destroy_world(world);
  accel_result r = sim_accel(&car, 0.002, 40.0, 0.05);
  CHECK(r.t_0_100_s > 3.0 && r.t_0_100_s < 10.0);
}

/* Full MF tyres (MF 6.1 from MFeval's sample file) on the built-in car. */
static void full_mf_tyres(void) {
  static grip_mf_params params;
  grip_load_error err;
  grip_load_error_clear(&err);
  if (grip_tir_load(GRIP_SOURCE_DIR "/tests/data/mfeval/MagicFormula61_Paramerters.tir", &params, &err) != 0)
    TEST_SKIP("MFeval reference .tir not available");
  grip_vehicle_def car = grip_default_vehicle_def();
  for (int a = 0; a < 2; ++a) {
    car.axles[a].tyre.model = GRIP_TYRE_FULL_MF;
    car.axles[a].tyre.mf = &params;
  }
  grip_world_def wd = grip_default_world_def();
  grip_world *world = grip_create_world(&wd);
  grip_vehicle_id id = grip_create_vehicle(world, &car);
  CHECK(grip_vehicle_is_valid(world, id));
  grip_destroy_world(world);
  accel_result r = sim_accel(&car, 0.002, 40.0, 0.05);
  CHECK(r.t_0_100_s > 3.0 && r.t_0_100_s < 10.0);
  /* Locked-wheel stop: the tyre's own sliding friction at the static load sets the distance
   * (drag ignored: it shortens the stop by a few %). */
  brake_result b = sim_brake(&car, 100.0, 0.002);
  grip_tyre_input in = {.fz = 3500, .kappa = -1.0, .alpha = 0, .gamma = 0, .vx = 27.8, .friction_scale = 1};
  grip_tyre_output out;
  grip_mf_evaluate(&params, &in, &out);
  double mu = fabs(out.fx) / 3500.0, v = 100.0 / 3.6;
  CHECK(b.wheels_locked);
  CHECK_REL(b.distance_m, v * v / (2.0 * mu * 9.81), 0.08);
  printf("  MF 6.1 car: 0-100 %.2f s, stop %.2f m (mu_lock %.3f -> %.2f m)\n", r.t_0_100_s, b.distance_m, mu,
         v * v / (2.0 * mu * 9.81));
}

int main(void) {
  RUN_TEST(front_wheel_drive);
  RUN_TEST(all_wheel_drive_split);
  RUN_TEST(full_mf_tyres);
  return TEST_RESULT();
}
