/* The C side of the Python package's bit-for-bit tests: runs a scenario through grip's C API
 * directly (no Python shim) and prints the world's state hash and each car's figures with 17
 * significant digits. python/tests/test_bitexact.py runs the same scenarios from Python and
 * compares. Usage:
 *   grip_c_reference flat CAR N STEPS DT
 *       N cars on flat ground at (0, 30 i), heading 0.1 i, inputs that differ per car
 *       (throttle (i mod 4)/3, brake 0.2 when i mod 5 = 4, steering ((i mod 7) - 3)/6)
 *   grip_c_reference track TRACK CAR STEPS DT STEER PEDAL
 *       one car on the track (surface and barriers) at the race's grid slot 0, constant inputs:
 *       steering STEER, throttle max(PEDAL, 0), brake max(-PEDAL, 0)
 *   grip_c_reference robots TRACK CAR K STEPS DT
 *       K cars at grid slots 0..K-1, each driven by the robot that sees the others */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "car_file.h"
#include "race.h"
#include "robot.h"
#include "track_file.h"

static grip_car car;

static void print_cars(const grip_world *world, const grip_vehicle_id *ids, int n) {
  printf("hash %" PRIu64 "\n", grip_world_state_hash(world));
  for (int i = 0; i < n; ++i) {
    grip_vehicle_state s;
    grip_vehicle_get_state(world, ids[i], &s);
    printf("car %d %.17g %.17g %.17g %.17g\n", i, s.pose.position.x, s.pose.position.y, s.speed, s.engine_rpm);
  }
}

static int load(const char *car_spec, const char *track_spec, grip_track **track) {
  grip_load_error err;
  grip_load_error_clear(&err);
  if (grip_car_open(car_spec, &car, &err) != 0 ||
      (track_spec && grip_track_open(track_spec, track, NULL, 0, &err) != 0)) {
    fprintf(stderr, "grip_c_reference: %s\n", err.message);
    return -1;
  }
  return 0;
}

static int run_flat(int n, int steps, double dt) {
  grip_plane plane = grip_default_plane();
  grip_world_def wd = grip_default_world_def();
  wd.ground = grip_plane_ground(&plane);
  grip_world *world = grip_create_world(&wd);
  grip_vehicle_id *ids = calloc((size_t)n, sizeof *ids);
  for (int i = 0; i < n; ++i) {
    ids[i] = grip_create_vehicle(world, &car.def);
    grip_vehicle_place(world, ids[i], 0.0, 30.0 * i, 0.1 * i);
    grip_vehicle_input in = grip_default_vehicle_input();
    in.throttle = (i % 4) / 3.0;
    in.brake = i % 5 == 4 ? 0.2 : 0.0;
    in.steering = ((i % 7) - 3) / 6.0;
    grip_vehicle_set_input(world, ids[i], &in);
  }
  for (int k = 0; k < steps; ++k) grip_world_step(world, dt);
  print_cars(world, ids, n);
  free(ids);
  grip_destroy_world(world);
  return 0;
}

static grip_world *track_world(const grip_track *track, grip_track_ground_context *ctx) {
  grip_world_def wd = grip_default_world_def();
  wd.ground = grip_track_ground(ctx, track);
  wd.barrier = grip_track_barriers(ctx, track);
  return grip_create_world(&wd);
}

static int run_track(const grip_track *track, int steps, double dt, double steer, double pedal) {
  grip_track_ground_context ctx;
  grip_world *world = track_world(track, &ctx);
  race_slot slot = race_grid_slot(track, 0);
  grip_vehicle_id id = grip_create_vehicle(world, &car.def);
  grip_vehicle_place(world, id, slot.x, slot.y, slot.heading);
  grip_vehicle_input in = grip_default_vehicle_input();
  in.steering = steer;
  in.throttle = fmax(pedal, 0.0);
  in.brake = fmax(-pedal, 0.0);
  grip_vehicle_set_input(world, id, &in);
  for (int k = 0; k < steps; ++k) grip_world_step(world, dt);
  print_cars(world, &id, 1);
  grip_destroy_world(world);
  return 0;
}

static int run_robots(const grip_track *track, int n, int steps, double dt) {
  grip_track_ground_context ctx;
  grip_world *world = track_world(track, &ctx);
  robot_params params = robot_default_params();
  grip_vehicle_id ids[RACE_MAX_CARS] = {{0, 0}};
  robot *bots[RACE_MAX_CARS];
  robot_car_view views[RACE_MAX_CARS], others[RACE_MAX_CARS];
  int hints[RACE_MAX_CARS];
  for (int i = 0; i < n; ++i) {
    race_slot slot = race_grid_slot(track, i);
    ids[i] = grip_create_vehicle(world, &car.def);
    grip_vehicle_place(world, ids[i], slot.x, slot.y, slot.heading);
    bots[i] = robot_create(track, &car.def, &params, grip_default_world_def().air_density);
    hints[i] = -1;
  }
  grip_vehicle_state st;
  for (int k = 0; k < steps; ++k) {
    for (int i = 0; i < n; ++i) {
      grip_vehicle_get_state(world, ids[i], &st);
      grip_track_location loc = grip_track_locate(track, st.pose.position.x, st.pose.position.y, hints[i]);
      hints[i] = loc.segment;
      views[i] = (robot_car_view){loc.distance, loc.lateral, st.speed, car.def.body.dimensions.x,
                                  car.def.body.dimensions.y};
    }
    for (int i = 0; i < n; ++i) {
      int m = 0;
      for (int j = 0; j < n; ++j)
        if (j != i) others[m++] = views[j];
      grip_vehicle_get_state(world, ids[i], &st);
      grip_wheel_state wheels[GRIP_MAX_WHEELS]; /* a truck's six: the robot reads them all */
      int wheel_count = grip_vehicle_get_wheels(world, ids[i], wheels, GRIP_MAX_WHEELS);
      if (wheel_count > GRIP_WHEEL_COUNT) robot_set_wheels(bots[i], wheels, wheel_count);
      grip_vehicle_input in = robot_drive(bots[i], &st, others, m, dt);
      if (wheel_count > GRIP_WHEEL_COUNT) robot_set_wheels(bots[i], NULL, 0);
      grip_vehicle_set_input(world, ids[i], &in);
    }
    grip_world_step(world, dt);
  }
  print_cars(world, ids, n);
  for (int i = 0; i < n; ++i) robot_destroy(bots[i]);
  grip_destroy_world(world);
  return 0;
}

int main(int argc, char **argv) {
  grip_track *track = NULL;
  int rc = 2;
  if (argc == 6 && strcmp(argv[1], "flat") == 0) {
    if (load(argv[2], NULL, NULL) != 0) return 1;
    rc = run_flat(atoi(argv[3]), atoi(argv[4]), atof(argv[5]));
  } else if (argc == 8 && strcmp(argv[1], "track") == 0) {
    if (load(argv[3], argv[2], &track) != 0) return 1;
    rc = run_track(track, atoi(argv[4]), atof(argv[5]), atof(argv[6]), atof(argv[7]));
  } else if (argc == 7 && strcmp(argv[1], "robots") == 0) {
    if (load(argv[3], argv[2], &track) != 0) return 1;
    int n = atoi(argv[4]);
    if (n < 1 || n > RACE_MAX_CARS) return 2;
    rc = run_robots(track, n, atoi(argv[5]), atof(argv[6]));
  } else {
    fprintf(stderr, "usage: grip_c_reference flat CAR N STEPS DT | track TRACK CAR STEPS DT STEER PEDAL | "
                    "robots TRACK CAR K STEPS DT\n");
  }
  grip_track_destroy(track);
  return rc;
}
