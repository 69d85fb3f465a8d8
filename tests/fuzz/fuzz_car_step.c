/* Fuzz harness: a car file is loaded from memory and, when accepted, driven for 500 steps of
 * 2 ms on flat ground (full throttle, steering to the left, then braking): no NaN or inf may
 * appear in any field of the vehicle's state. */
#include "fuzz_common.h"

#include <math.h>

#include "car_file.h"
#include "grip/grip.h"

static int finite3(grip_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

static int state_finite(const grip_vehicle_state *s) {
  if (!finite3(s->pose.position) || !isfinite(s->pose.rotation.w) ||
      !isfinite(s->pose.rotation.x) || !isfinite(s->pose.rotation.y) ||
      !isfinite(s->pose.rotation.z) || !finite3(s->center_of_mass) ||
      !finite3(s->linear_velocity) || !finite3(s->angular_velocity) ||
      !finite3(s->acceleration) || !finite3(s->local_velocity) ||
      !finite3(s->local_acceleration) || !isfinite(s->speed) || !isfinite(s->engine_rpm) ||
      !isfinite(s->engine_torque) || !isfinite(s->clutch_engagement) ||
      !isfinite(s->fuel_mass) || !isfinite(s->mass) || !isfinite(s->time))
    return 0;
  return 1;
}

/* Every wheel of any count (grip_vehicle_get_wheels). */
static int wheels_finite(const grip_wheel_state *wheels, int n) {
  for (int w = 0; w < n; ++w) {
    const grip_wheel_state *ws = &wheels[w];
    if (!finite3(ws->contact_point) || !finite3(ws->contact_normal) || !isfinite(ws->load) ||
        !isfinite(ws->slip_ratio) || !isfinite(ws->slip_angle) || !isfinite(ws->fx) ||
        !isfinite(ws->fy) || !isfinite(ws->mz) || !isfinite(ws->spin) ||
        !isfinite(ws->rotation) || !isfinite(ws->steer_angle) || !isfinite(ws->compression) ||
        !isfinite(ws->suspension_force) || !isfinite(ws->drive_torque) ||
        !isfinite(ws->brake_torque) || !isfinite(ws->tyre_surface_temperature) ||
        !isfinite(ws->tyre_carcass_temperature) || !isfinite(ws->tyre_gas_temperature) ||
        !isfinite(ws->tyre_pressure) || !isfinite(ws->tread_depth) || !isfinite(ws->tyre_grip) ||
        !isfinite(ws->tyre_sliding_power))
      return 0;
  }
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  grip_car *car = malloc(sizeof *car);
  FUZZ_REQUIRE(car != NULL);
  grip_load_error err;
  grip_load_error_clear(&err);
  if (grip_car_parse(text, "fuzz.ini", NULL, car, &err) == 0) {
    grip_world_def wd = grip_default_world_def();
    grip_world *world = grip_create_world(&wd);
    FUZZ_REQUIRE(world != NULL);
    grip_vehicle_id id = grip_create_vehicle(world, &car->def);
    FUZZ_REQUIRE(grip_vehicle_is_valid(world, id));
    FUZZ_REQUIRE(grip_vehicle_place(world, id, 0.0, 0.0, 0.0) == GRIP_OK);
    grip_vehicle_input in = grip_default_vehicle_input();
    grip_vehicle_state s;
    grip_wheel_state wheels[GRIP_MAX_WHEELS];
    for (int i = 0; i < 500; ++i) {
      if (i == 0) {
        in.throttle = 1.0;
        in.steering = 0.3;
      } else if (i == 350) {
        in.throttle = 0.0;
        in.brake = 1.0;
        in.steering = -0.5;
      }
      if (i == 0 || i == 350) FUZZ_REQUIRE(grip_vehicle_set_input(world, id, &in) == GRIP_OK);
      FUZZ_REQUIRE(grip_world_step(world, 0.002) == GRIP_OK);
      FUZZ_REQUIRE(grip_vehicle_get_state(world, id, &s) == GRIP_OK);
      FUZZ_REQUIRE(state_finite(&s));
      int n = grip_vehicle_get_wheels(world, id, wheels, GRIP_MAX_WHEELS);
      FUZZ_REQUIRE(n >= 1 && n <= GRIP_MAX_WHEELS && n == s.wheel_count);
      FUZZ_REQUIRE(wheels_finite(wheels, n));
    }
    grip_destroy_world(world);
  } else {
    FUZZ_REQUIRE(err.message[0] != '\0');
  }
  free(car);
  free(text);
  return 0;
}
