/* The world on terrain and tracks: placing from far above, static ride height after a drop, a
 * tilted heightfield against the analytic slope plane, and grass against asphalt (rolling
 * resistance while coasting, grip while cornering). */
#include <string.h>

#include "grip/grip.h"
#include "grip/heightfield.h"
#include "grip/track.h"
#include "test.h"

#define G 9.81
#define RHO 1.29

static grip_heightfield *make_heightfield(double grade, double base, const grip_surface *surface) {
  enum { N = 121 };
  static double h[N * N];
  for (int r = 0; r < N; ++r)
    for (int c = 0; c < N; ++c) h[r * N + c] = base + grade * (-60.0 + c);
  grip_heightfield_def d = grip_default_heightfield_def();
  d.origin_x = -60.0;
  d.origin_y = -60.0;
  d.dx = d.dy = 1.0;
  d.rows = d.cols = N;
  d.heights = h;
  d.surfaces = surface;
  d.surface_count = surface ? 1 : 0;
  grip_heightfield *hf = NULL;
  grip_heightfield_create(&d, &hf);
  return hf;
}

static grip_world *world_on(grip_ground ground) {
  grip_world_def wd = grip_default_world_def();
  wd.ground = ground;
  return grip_create_world(&wd);
}

static void neutral(grip_world *world, grip_vehicle_id id, double brake) {
  grip_vehicle_input in = grip_default_vehicle_input();
  in.automatic = false;
  in.gear = 0;
  in.brake = brake;
  in.handbrake = brake;
  grip_vehicle_set_input(world, id, &in);
}

/* grip_vehicle_place casts from z = 1e4 down; the heightfield answers that long ray. Dropped
 * from 0.3 m above its rest pose, the car settles within 2 s with its design-frame origin on the
 * ground (the springs are preloaded for design ride height). */
static void drop_on_heightfield(void) {
  grip_heightfield *hf = make_heightfield(0.0, 123.4, NULL);
  grip_world *world = world_on(grip_heightfield_ground(hf));
  grip_vehicle_def car = grip_default_vehicle_def();
  grip_vehicle_id id = grip_create_vehicle(world, &car);
  CHECK(grip_vehicle_place(world, id, 3.3, -7.1, 0.7) == GRIP_OK);
  grip_vehicle_state s;
  grip_vehicle_get_state(world, id, &s);
  CHECK_NEAR(s.pose.position.z, 123.4, 1e-9);
  CHECK_NEAR(s.pose.position.x, 3.3, 1e-12);
  /* no ground outside the grid: placing there fails */
  CHECK(grip_vehicle_place(world, id, 500.0, 0.0, 0.0) == GRIP_INVALID_ARGUMENT);
  CHECK(grip_vehicle_place(world, id, 3.3, -7.1, 0.7) == GRIP_OK);
  grip_vehicle_get_state(world, id, &s);
  grip_pose p = s.pose;
  p.position.z += 0.3;
  grip_vehicle_set_pose(world, id, p);
  neutral(world, id, 1.0);
  double worst_late = 0.0;
  for (int i = 0; i < 1500; ++i) {
    grip_world_step(world, 0.002);
    grip_vehicle_get_state(world, id, &s);
    if (i >= 999) worst_late = fmax(worst_late, fabs(s.pose.position.z - 123.4)); /* 2 s .. 3 s */
  }
  CHECK(worst_late < 0.005);
  CHECK(fabs(s.linear_velocity.z) < 0.01);
  printf("  heightfield drop: |z - ground| <= %.4f m after 2 s\n", worst_late);
  grip_destroy_world(world);
  grip_heightfield_destroy(hf);
}

/* A track segment climbing 5 % (cubic profile with equal end slopes: exactly linear): placed at
 * 50 m the origin sits at z = 2.5 with the car tilted by atan(0.05); dropped 0.3 m and braked,
 * it settles on the surface. */
static void drop_on_track(void) {
  grip_track_segment_def seg = grip_default_track_segment_def();
  seg.length = 200.0;
  seg.z_start = 0.0;
  seg.z_end = 10.0;
  seg.slope_start = seg.slope_end = 0.05;
  grip_track_def td = {&seg, 1, {0, 0, 0}, 0.0};
  grip_track *track = NULL;
  CHECK(grip_track_build(&td, &track) == GRIP_OK);
  grip_track_ground_context ctx;
  grip_world *world = world_on(grip_track_ground(&ctx, track));
  grip_vehicle_def car = grip_default_vehicle_def();
  grip_vehicle_id id = grip_create_vehicle(world, &car);
  CHECK(grip_vehicle_place(world, id, 50.0, 1.0, 0.0) == GRIP_OK);
  grip_vehicle_state s;
  grip_vehicle_get_state(world, id, &s);
  CHECK_NEAR(s.pose.position.z, 2.5, 1e-9);
  /* pitch: the car's x axis climbs at the grade */
  double q2 = 2.0 * (s.pose.rotation.x * s.pose.rotation.z - s.pose.rotation.w * s.pose.rotation.y);
  CHECK_NEAR(q2, 0.05 / sqrt(1.0025), 1e-9); /* world z of the body x axis = sin(pitch) */
  grip_pose p = s.pose;
  p.position.z += 0.3;
  grip_vehicle_set_pose(world, id, p);
  neutral(world, id, 1.0);
  for (int i = 0; i < 1000; ++i) grip_world_step(world, 0.002);
  grip_vehicle_get_state(world, id, &s);
  grip_track_location loc = grip_track_locate(track, s.pose.position.x, s.pose.position.y, -1);
  /* the origin lies on the ground plane under it: vertical offset = normal offset / cos */
  CHECK_NEAR(s.pose.position.z, loc.z, 0.005);
  printf("  track drop: origin %.4f m above the surface\n", s.pose.position.z - loc.z);
  grip_destroy_world(world);
  grip_track_destroy(track);
}

/* Free rolling on a 20 % heightfield ramp and on grip_slope_plane(0.2): the same car, the same
 * ground geometry, so the same motion (within 1 %). Both roll back down at about
 * a = g·(sin θ − f·cos θ)·m/(m + ΣI/r²). */
static void tilted_heightfield_equals_slope(void) {
  grip_heightfield *hf = make_heightfield(0.2, 0.0, NULL);
  grip_plane plane = grip_slope_plane(0.2, 0.0);
  grip_vec3 moved[2];
  for (int k = 0; k < 2; ++k) {
    grip_world *world = world_on(k == 0 ? grip_heightfield_ground(hf) : grip_plane_ground(&plane));
    grip_vehicle_def car = grip_default_vehicle_def();
    grip_vehicle_id id = grip_create_vehicle(world, &car);
    CHECK(grip_vehicle_place(world, id, 0.0, 0.0, 0.0) == GRIP_OK);
    neutral(world, id, 0.0);
    grip_vehicle_state s0, s;
    grip_vehicle_get_state(world, id, &s0);
    for (int i = 0; i < 1500; ++i) grip_world_step(world, 0.002);
    grip_vehicle_get_state(world, id, &s);
    moved[k] = (grip_vec3){s.pose.position.x - s0.pose.position.x, s.pose.position.y - s0.pose.position.y,
                           s.pose.position.z - s0.pose.position.z};
    grip_destroy_world(world);
  }
  double d = sqrt(pow(moved[0].x - moved[1].x, 2) + pow(moved[0].y - moved[1].y, 2) + pow(moved[0].z - moved[1].z, 2));
  double len = sqrt(moved[1].x * moved[1].x + moved[1].y * moved[1].y + moved[1].z * moved[1].z);
  CHECK(d <= 0.01 * len);
  grip_vehicle_def car = grip_default_vehicle_def();
  double m = car.body.mass + car.fuel.mass;
  double spin = 2.0 * (car.axles[0].wheel_inertia / pow(car.axles[0].wheel_radius, 2) +
                       car.axles[1].wheel_inertia / pow(car.axles[1].wheel_radius, 2));
  double th = atan(0.2);
  double a = G * (sin(th) - 0.012 * car.axles[0].tyre.rolling_resistance * cos(th)) * m / (m + spin);
  CHECK_REL(len, 0.5 * a * 9.0, 0.05);
  CHECK(moved[1].x < 0.0);
  printf("  slope: heightfield %.4f m vs plane %.4f m (|diff| %.2e), analytic %.3f m\n",
         sqrt(moved[0].x * moved[0].x + moved[0].y * moved[0].y + moved[0].z * moved[0].z), len, d,
         0.5 * a * 9.0);
  grip_heightfield_destroy(hf);
}

static grip_surface smooth_grass(void) {
  grip_surface s = grip_surface_preset("grass");
  s.roughness_amplitude = 0.0;
  return s;
}

/* Coasting in neutral on a straight track, one car on the road and one on the grass run-off:
 * m_eff·a = −½ρCdA·v² − f·m·g with m_eff = m + ΣI/r² (the wheels spin down too). Solving the
 * measured deceleration for f gives the surface's rolling resistance: 0.012 on asphalt, 0.06 on
 * grass, a difference in deceleration of 0.048·g·m/m_eff ≈ 0.46 m/s². */
static void grass_rolling_resistance(void) {
  grip_track_segment_def seg = grip_default_track_segment_def();
  seg.length = 1000.0;
  for (int k = 0; k < 2; ++k) seg.side[k].runoff_surface = smooth_grass();
  grip_track_def td = {&seg, 1, {0, 0, 0}, 0.0};
  grip_track *track = NULL;
  CHECK(grip_track_build(&td, &track) == GRIP_OK);
  grip_track_ground_context ctx, bctx;
  grip_world *world = world_on(grip_track_ground(&ctx, track));
  grip_world_set_barrier(world, grip_track_barriers(&bctx, track));
  grip_vehicle_def car = grip_default_vehicle_def();
  grip_vehicle_id ids[2];
  double lateral[2] = {0.0, -11.0}; /* road; grass (road edge 6 m, kerb to 7 m, run-off to 15 m) */
  for (int k = 0; k < 2; ++k) {
    ids[k] = grip_create_vehicle(world, &car);
    CHECK(grip_vehicle_place(world, ids[k], 10.0, lateral[k], 0.0) == GRIP_OK);
    grip_vehicle_set_velocity(world, ids[k], (grip_vec3){15.0, 0, 0});
    neutral(world, ids[k], 0.0);
  }
  double v[2][2];
  for (int i = 1; i <= 750; ++i) {
    grip_world_step(world, 0.002);
    if (i == 250 || i == 750)
      for (int k = 0; k < 2; ++k) {
        grip_vehicle_state s;
        grip_vehicle_get_state(world, ids[k], &s);
        v[k][i == 750] = s.speed;
        CHECK(s.wheels[0].surface_id == (k == 0 ? 0 : 2));
      }
  }
  double m = car.body.mass + car.fuel.mass;
  double spin = 2.0 * (car.axles[0].wheel_inertia / pow(car.axles[0].wheel_radius, 2) +
                       car.axles[1].wheel_inertia / pow(car.axles[1].wheel_radius, 2));
  double f[2], decel[2];
  for (int k = 0; k < 2; ++k) {
    decel[k] = (v[k][0] - v[k][1]) / 1.0;
    double vm = 0.5 * (v[k][0] + v[k][1]);
    double drag = 0.5 * RHO * car.aero.drag_coefficient * car.aero.frontal_area * vm * vm;
    f[k] = ((m + spin) * decel[k] - drag) / (m * G);
  }
  double rr = car.axles[0].tyre.rolling_resistance;
  CHECK_REL(f[0], 0.012 * rr, 0.05);
  CHECK_REL(f[1], 0.060 * rr, 0.05);
  CHECK_REL(decel[1] - decel[0], 0.048 * rr * G * m / (m + spin), 0.05);
  CHECK(grip_vehicle_contact_count(world, ids[1]) == 0); /* far from the barrier */
  printf("  coasting: decel road %.4f, grass %.4f m/s² (diff %.4f, expected %.4f); f = %.4f, %.4f\n", decel[0],
         decel[1], decel[1] - decel[0], 0.048 * rr * G * m / (m + spin), f[0], f[1]);
  grip_destroy_world(world);
  grip_track_destroy(track);
}

/* Fixed steering beyond the limit at 20 m/s on an all-asphalt and an all-grass heightfield: the
 * largest lateral tyre force scales with the surface's friction multiplier, 0.6. */
static void grass_cornering(void) {
  grip_surface surfaces[2] = {grip_default_surface(), smooth_grass()};
  surfaces[1].rolling_resistance = surfaces[0].rolling_resistance; /* isolate friction */
  double peak[2];
  for (int k = 0; k < 2; ++k) {
    grip_heightfield *hf = make_heightfield(0.0, 0.0, &surfaces[k]);
    grip_world *world = world_on(grip_heightfield_ground(hf));
    grip_vehicle_def car = grip_default_vehicle_def();
    grip_vehicle_id id = grip_create_vehicle(world, &car);
    grip_vehicle_place(world, id, -40.0, 0.0, 0.0);
    grip_vehicle_set_velocity(world, id, (grip_vec3){20.0, 0, 0});
    grip_vehicle_input in = grip_default_vehicle_input();
    in.automatic = false;
    in.gear = 0;
    in.steering = 0.5;
    grip_vehicle_set_input(world, id, &in);
    peak[k] = 0.0;
    for (int i = 0; i < 1500; ++i) {
      grip_world_step(world, 0.002);
      grip_vehicle_state s;
      grip_vehicle_get_state(world, id, &s);
      peak[k] = fmax(peak[k], fabs(s.local_acceleration.y) * s.mass);
    }
    grip_destroy_world(world);
    grip_heightfield_destroy(hf);
  }
  CHECK(peak[0] > 0.8 * 1439.0 * G); /* saturated on asphalt */
  CHECK_REL(peak[1] / peak[0], 0.6, 0.05);
  printf("  cornering: peak lateral force asphalt %.0f N, grass %.0f N, ratio %.3f\n", peak[0], peak[1],
         peak[1] / peak[0]);
}

int main(void) {
  RUN_TEST(drop_on_heightfield);
  RUN_TEST(drop_on_track);
  RUN_TEST(tilted_heightfield_equals_slope);
  RUN_TEST(grass_rolling_resistance);
  RUN_TEST(grass_cornering);
  return TEST_RESULT();
}
