/* The robot's recovery: every shipped car, put down in the run-off of the built-in track facing
 * the barrier, facing the wrong way, or beside the road pointing across it, gets back onto the
 * road and drives on along it. Expectations are geometric (the road's half width, distance
 * covered along the centre line), not the robot's own figures. */
#include <math.h>
#include <string.h>

#include "car_file.h"
#include "grip/grip.h"
#include "robot.h"
#include "test.h"
#include "track_file.h"

#define PI 3.14159265358979323846

static const char *const shipped[] = {"corvette-c5", "hatchback-100kw", "kart", "offroad-4wd", "single-seater"};

typedef struct recovery {
  double back_on_road_s; /* s until the car's centre is within the road's half width (INFINITY: never) */
  double progress_m;     /* m along the centre line from the start, after the run */
  double min_z;          /* m, lowest z of the car's reference point */
} recovery;

/* Places the car at distance s, lateral `lat` (+ left), heading = the track's heading +
 * `rel_heading`, and lets the robot drive for `seconds`. */
static recovery recover(const grip_track *track, const grip_vehicle_def *car, double s, double lat, double rel_heading,
                        double seconds, double dt) {
  recovery out = {INFINITY, 0.0, INFINITY};
  grip_track_ground_context gctx;
  grip_world_def wd = grip_default_world_def();
  wd.ground = grip_track_ground(&gctx, track);
  wd.barrier = grip_track_barriers(&gctx, track);
  grip_world *world = grip_create_world(&wd);
  grip_vehicle_id id = grip_create_vehicle(world, car);
  grip_track_point p = grip_track_point_at(track, s);
  double x = p.position.x - sin(p.heading) * lat, y = p.position.y + cos(p.heading) * lat;
  CHECK(grip_vehicle_place(world, id, x, y, p.heading + rel_heading) == GRIP_OK);
  robot *bot = robot_create(track, grip_vehicle_get_def(world, id), NULL, wd.air_density);
  double L = grip_track_length(track), last = s, progress = 0.0;
  grip_vehicle_state st;
  long steps = lround(seconds / dt);
  for (long i = 0; i < steps; ++i) {
    grip_vehicle_get_state(world, id, &st);
    grip_vehicle_input in = robot_drive(bot, &st, NULL, 0, dt);
    grip_vehicle_set_input(world, id, &in);
    grip_world_step(world, dt);
    grip_vehicle_get_state(world, id, &st);
    grip_track_location loc = grip_track_locate_full(track, st.pose.position.x, st.pose.position.y);
    double d = loc.distance - last;
    if (d > 0.5 * L) d -= L;
    if (d < -0.5 * L) d += L;
    progress += d;
    last = loc.distance;
    if (st.pose.position.z < out.min_z) out.min_z = st.pose.position.z;
    if (isinf(out.back_on_road_s) && fabs(loc.lateral) < 0.5 * grip_track_point_at(track, loc.distance).width)
      out.back_on_road_s = (double)(i + 1) * dt;
  }
  out.progress_m = progress;
  robot_destroy(bot);
  grip_destroy_world(world);
  return out;
}

/* The built-in track at s = 400 m (the straight after turn 1; road half width 6 m, kerb 1 m,
 * run-off 8 m of grass, barrier at 15 m on either side). Cases: in the run-off 12 m right of
 * the centre, nose to the barrier (90° right of the road's direction); the same on the left;
 * on the road facing backwards; in the run-off facing backwards. Each car must be back on the
 * road within 20 s and then cover at least 200 m along the track within 40 s in all. */
static void every_car_recovers(void) {
  grip_track *t = NULL;
  grip_load_error err;
  grip_load_error_clear(&err);
  CHECK(grip_track_open("default", &t, NULL, 0, &err) == 0);
  static const struct {
    double lat, rel_heading;
    const char *what;
  } cases[] = {
      {-12.0, -0.5 * PI, "run-off right, nose to the barrier"},
      {12.0, 0.5 * PI, "run-off left, nose to the barrier"},
      {0.0, PI, "road, facing backwards"},
      {-10.0, PI, "run-off right, facing backwards"},
      {-12.0, -0.25 * PI, "run-off right, 45 deg to the barrier"},
  };
  for (size_t c = 0; c < sizeof shipped / sizeof shipped[0]; ++c) {
    char path[512];
    snprintf(path, sizeof path, GRIP_SOURCE_DIR "/data/cars/%s.ini", shipped[c]);
    static grip_car car;
    CHECK(grip_car_load(path, &car, &err) == 0);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
      recovery r = recover(t, &car.def, 400.0, cases[k].lat, cases[k].rel_heading, 40.0, 0.005);
      printf("  %-16s %-38s back on the road after %5.1f s, %6.1f m along the track\n", shipped[c], cases[k].what,
             r.back_on_road_s, r.progress_m);
      CHECK(r.back_on_road_s < 20.0);
      CHECK(r.progress_m > 200.0);
    }
  }
  grip_track_destroy(t);
}

/* A robot boxed in at a standstill. The built-in track at s = 400 m, the corvette: a row of
 * parked cars (brakes on, no driver) 1 m ahead across the whole width between the barriers, 3 m
 * apart, so no way forward; with `behind`, one more parked car 0.5 m behind the robot's car.
 * With a car behind, backing out would hit it: the robot must not ask for reverse, nor its car
 * touch the one behind, in 30 s. With none, the row ahead is a wreck
 * to back away from: the robot must ask for reverse within 30 s, but not before 8 s (the wait
 * behind a standing car is 4 × stuck_time, 2 s, from the moment it stands; a queue that starts
 * moving within that time must find the car still in it). */
typedef struct placed {
  grip_vehicle_id id;
  double s, lat; /* m along the track, m to its left */
} placed;

static void boxed_in(bool behind, double *backs_at, int *touches_behind) {
  grip_track *t = NULL;
  grip_load_error err;
  grip_load_error_clear(&err);
  CHECK(grip_track_open("default", &t, NULL, 0, &err) == 0);
  static grip_car car;
  CHECK(grip_car_load(GRIP_SOURCE_DIR "/data/cars/corvette-c5.ini", &car, &err) == 0);
  grip_track_ground_context gctx;
  grip_world_def wd = grip_default_world_def();
  wd.ground = grip_track_ground(&gctx, t);
  wd.barrier = grip_track_barriers(&gctx, t);
  wd.vehicle_capacity = 16;
  grip_world *world = grip_create_world(&wd);
  enum { MAX_PARKED = 12 };
  grip_vehicle_id parked[MAX_PARKED];
  int n = 0;
  const double s0 = 400.0, length = car.def.body.dimensions.x, width = car.def.body.dimensions.y;
  for (double lat = -13.5; lat <= 13.5 + 1e-9; lat += 3.0) parked[n++] = grip_create_vehicle(world, &car.def);
  grip_vehicle_id me = grip_create_vehicle(world, &car.def), back = GRIP_NULL_VEHICLE;
  if (behind) back = grip_create_vehicle(world, &car.def);
  placed places[MAX_PARKED + 2];
  int m = 0;
  for (int k = 0; k < n; ++k) places[m++] = (placed){parked[k], s0 + length + 1.0, -13.5 + 3.0 * k};
  places[m++] = (placed){me, s0, 0.0};
  if (behind) places[m++] = (placed){back, s0 - length - 0.5, 0.0};
  for (int k = 0; k < m; ++k) {
    grip_track_point p = grip_track_point_at(t, places[k].s);
    CHECK(grip_vehicle_place(world, places[k].id, p.position.x - sin(p.heading) * places[k].lat,
                             p.position.y + cos(p.heading) * places[k].lat, p.heading) == GRIP_OK);
  }
  grip_vehicle_input hold = grip_default_vehicle_input();
  hold.brake = 1.0;
  for (int k = 0; k < m; ++k)
    if (places[k].id.index != me.index) grip_vehicle_set_input(world, places[k].id, &hold);
  robot *bot = robot_create(t, grip_vehicle_get_def(world, me), NULL, wd.air_density);
  robot_car_view views[MAX_PARKED + 2];
  grip_vehicle_state st;
  double dt = 0.005;
  *backs_at = INFINITY;
  *touches_behind = 0;
  for (long i = 0; i < lround(30.0 / dt); ++i) {
    int nv = 0;
    for (int k = 0; k < m; ++k) {
      if (places[k].id.index == me.index) continue;
      grip_vehicle_get_state(world, places[k].id, &st);
      grip_track_location loc = grip_track_locate_full(t, st.pose.position.x, st.pose.position.y);
      views[nv++] = (robot_car_view){loc.distance, loc.lateral, st.speed, length, width};
    }
    grip_vehicle_get_state(world, me, &st);
    grip_vehicle_input in = robot_drive(bot, &st, views, nv, dt);
    grip_vehicle_set_input(world, me, &in);
    grip_world_step(world, dt);
    grip_vehicle_get_state(world, me, &st);
    if (isinf(*backs_at) && in.gear == GRIP_GEAR_REVERSE) *backs_at = (double)i * dt;
    if (behind) {
      grip_vehicle_contacts c;
      grip_vehicle_get_contacts(world, back, &c);
      *touches_behind += c.vehicle_count > 0;
    }
  }
  robot_destroy(bot);
  grip_destroy_world(world);
  grip_track_destroy(t);
}

static void waits_in_a_queue(void) {
  double backs_at;
  int touches;
  boxed_in(true, &backs_at, &touches);
  printf("  boxed in, a car behind: backs out at %.2f s, steps touching the car behind %d\n", backs_at, touches);
  CHECK(touches == 0);
  CHECK(isinf(backs_at));
  boxed_in(false, &backs_at, &touches);
  printf("  boxed in, nothing behind: backs out at %.2f s\n", backs_at);
  CHECK(backs_at >= 8.0);
  CHECK(backs_at < 30.0);
}

int main(void) {
  RUN_TEST(every_car_recovers);
  RUN_TEST(waits_in_a_queue);
  return TEST_RESULT();
}
