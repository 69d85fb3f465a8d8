/* Hitches (grip_create_hitch; docs/physics.md §9 "Hitches"): the two points stay together
 * (within 1 mm at every step size from 0.001 to 0.01 s, on a plane, a slope and a wavy user
 * ground, through a lane change and an emergency stop); at a steady speed the hitch carries the
 * trailer's aerodynamic drag and rolling resistance (computed from the car's definition and its
 * wheel loads, not measured through the hitch); the pair does not collide with itself;
 * destroying a vehicle ends its hitch; bad arguments are refused; determinism.
 *
 * The trailer here is a second built-in car in neutral: what the hitch must hold does not depend
 * on what is hitched. */
#include <math.h>
#include <string.h>

#include "grip/grip.h"
#include "test.h"

#define KMH (1.0 / 3.6)

/* A gently rolling ground: z = A·sin(2πx/L)·cos(2πy/L), 0.15 m over 40 m. */
static bool wavy_raycast(void *context, const grip_ground_query *query, grip_vec3 origin, grip_vec3 direction,
                         double max_distance, grip_ground_hit *hit) {
  (void)context;
  (void)query;
  const double a = 0.15, k = 2.0 * 3.14159265358979323846 / 40.0;
  /* march down the ray (directions here point down), then bisect */
  double lo = 0.0, hi = -1.0;
  for (double s = 0.0; s <= max_distance; s += 0.05) {
    grip_vec3 p = {origin.x + s * direction.x, origin.y + s * direction.y, origin.z + s * direction.z};
    if (p.z <= a * sin(k * p.x) * cos(k * p.y)) {
      hi = s;
      break;
    }
    lo = s;
  }
  if (hi < 0.0) return false;
  for (int i = 0; i < 40; ++i) {
    double mid = 0.5 * (lo + hi);
    grip_vec3 p = {origin.x + mid * direction.x, origin.y + mid * direction.y, origin.z + mid * direction.z};
    if (p.z <= a * sin(k * p.x) * cos(k * p.y))
      hi = mid;
    else
      lo = mid;
  }
  grip_vec3 p = {origin.x + hi * direction.x, origin.y + hi * direction.y, origin.z + hi * direction.z};
  double gx = a * k * cos(k * p.x) * cos(k * p.y), gy = -a * k * sin(k * p.x) * sin(k * p.y);
  double len = sqrt(gx * gx + gy * gy + 1.0);
  hit->point = p;
  hit->normal = (grip_vec3){-gx / len, -gy / len, 1.0 / len};
  hit->distance = hi;
  hit->surface = grip_default_surface();
  return true;
}

typedef enum ground_kind { GROUND_PLANE, GROUND_SLOPE, GROUND_WAVY } ground_kind;

typedef struct rig {
  grip_world *world;
  grip_vehicle_id tow, trailer;
  grip_hitch_id hitch;
  grip_plane plane;
  grip_vehicle_def car;
} rig;

static const grip_vec3 tow_ball = {-2.6, 0.0, 0.45}, coupling = {2.6, 0.0, 0.45};

static bool rig_open_kind(rig *r, ground_kind ground, double speed, grip_hitch_kind kind) {
  memset(r, 0, sizeof *r);
  r->car = grip_default_vehicle_def();
  grip_world_def wd = grip_default_world_def();
  if (ground == GROUND_WAVY) {
    wd.ground = (grip_ground){.raycast = wavy_raycast, .context = NULL};
  } else {
    r->plane = ground == GROUND_SLOPE ? grip_slope_plane(0.05, 0.02) : grip_slope_plane(0.0, 0.0);
    wd.ground = grip_plane_ground(&r->plane);
  }
  r->world = grip_create_world(&wd);
  r->tow = grip_create_vehicle(r->world, &r->car);
  r->trailer = grip_create_vehicle(r->world, &r->car);
  if (grip_vehicle_place(r->world, r->tow, 0.0, 0.0, 0.0) != GRIP_OK ||
      grip_vehicle_place(r->world, r->trailer, tow_ball.x - coupling.x, 0.0, 0.0) != GRIP_OK)
    return false;
  grip_vehicle_set_velocity(r->world, r->tow, (grip_vec3){speed, 0, 0});
  grip_vehicle_set_velocity(r->world, r->trailer, (grip_vec3){speed, 0, 0});
  grip_hitch_def hd = grip_default_hitch_def();
  hd.tow = r->tow;
  hd.trailer = r->trailer;
  hd.tow_point = tow_ball;
  hd.trailer_point = coupling;
  hd.kind = kind;
  r->hitch = grip_create_hitch(r->world, &hd);
  return grip_hitch_is_valid(r->world, r->hitch);
}

static bool rig_open(rig *r, ground_kind ground, double speed) {
  return rig_open_kind(r, ground, speed, GRIP_HITCH_BALL);
}

static void rig_close(rig *r) { grip_destroy_world(r->world); }

/* The towing car holds `target` (m/s) with a PI on the throttle and steers `steer`; brake > 0
 * brakes it instead. The trailer rolls in neutral and brakes with the car (an overrun brake). */
static void rig_drive(rig *r, double target, double steer, double brake, double dt, double *integral) {
  grip_vehicle_state s;
  grip_vehicle_get_state(r->world, r->tow, &s);
  double error = target - s.local_velocity.x;
  *integral += error * dt;
  grip_vehicle_input in = grip_default_vehicle_input();
  in.automatic = true;
  in.gear = 1;
  in.throttle = brake > 0.0 ? 0.0 : fmin(1.0, fmax(0.0, 0.5 * error + 0.3 * *integral));
  in.brake = brake;
  in.steering = steer;
  grip_vehicle_set_input(r->world, r->tow, &in);
  grip_vehicle_input free_rolling = grip_default_vehicle_input();
  free_rolling.automatic = false;
  free_rolling.gear = 0;
  free_rolling.brake = brake;
  grip_vehicle_set_input(r->world, r->trailer, &free_rolling);
}

/* Lane change, then an emergency stop, on each ground at each step size: the largest gap after
 * any step. */
static void points_stay_together(void) {
  const double dts[] = {0.001, 0.002, 0.005, 0.01};
  const char *names[] = {"plane", "slope 5 %/2 %", "wavy"};
  for (int g = 0; g < 3; ++g)
    for (int k = 0; k < 4; ++k) {
      rig r;
      CHECK(rig_open(&r, (ground_kind)g, 60.0 * KMH));
      double dt = dts[k], integral = 0.0, worst = 0.0, t = 0.0;
      bool finite = true;
      for (; t < 12.0; t += dt) {
        double steer = (t > 3.0 && t < 5.5) ? 0.05 * sin(2.0 * 3.14159265358979 * (t - 3.0) / 2.5) : 0.0;
        double brake = t > 8.0 ? 1.0 : 0.0;
        rig_drive(&r, 60.0 * KMH, steer, brake, dt, &integral);
        grip_world_step(r.world, dt);
        grip_hitch_state hs;
        CHECK(grip_hitch_get_state(r.world, r.hitch, &hs) == GRIP_OK);
        worst = fmax(worst, hs.gap);
        finite = finite && isfinite(hs.force.x) && isfinite(hs.force.y) && isfinite(hs.force.z);
      }
      grip_vehicle_state a, b;
      grip_vehicle_get_state(r.world, r.tow, &a);
      grip_vehicle_get_state(r.world, r.trailer, &b);
      printf("  %-14s dt %.3f: largest gap %.3g mm; stopped at %.2f / %.2f m/s\n", names[g], dt, 1e3 * worst,
             a.local_velocity.x, b.local_velocity.x);
      CHECK(finite);
      CHECK(worst < 1e-3);
      /* both came to rest together, the trailer behind */
      CHECK(fabs(a.local_velocity.x) < 0.2 && fabs(b.local_velocity.x) < 0.2);
      grip_vec3 forward = grip_quat_rotate(a.pose.rotation, (grip_vec3){1, 0, 0});
      double dx = b.pose.position.x - a.pose.position.x, dy = b.pose.position.y - a.pose.position.y;
      CHECK(dx * forward.x + dy * forward.y < -4.0); /* behind the car's rear bumper */
      CHECK(hypot(dx, dy) < fabs(tow_ball.x) + coupling.x + 1e-3);
      rig_close(&r);
    }
}

/* At a steady 80 km/h on a level plane the hitch pulls the trailer with its resistance:
 * drag ½ρ·Cd·A·v² (grip_vehicle_aero_coefficients) plus Σ f·Fz over its wheels (rolling
 * resistance, f = tyre × surface coefficient, docs/physics.md §4). */
static void steady_pull(void) {
  const double dts[] = {0.002, 0.01};
  for (int k = 0; k < 2; ++k) {
    rig r;
    CHECK(rig_open(&r, GROUND_PLANE, 80.0 * KMH));
    double dt = dts[k], integral = 0.0, sum_pull = 0.0, sum_expect = 0.0, sum_lateral = 0.0;
    int n = 0;
    grip_world_def wd = grip_default_world_def();
    for (double t = 0.0; t < 25.0; t += dt) {
      rig_drive(&r, 80.0 * KMH, 0.0, 0.0, dt, &integral);
      grip_world_step(r.world, dt);
      if (t < 20.0) continue;
      grip_hitch_state hs;
      grip_vehicle_state s;
      grip_hitch_get_state(r.world, r.hitch, &hs);
      grip_vehicle_get_state(r.world, r.trailer, &s);
      double v = s.local_velocity.x, loads = 0.0;
      for (int w = 0; w < GRIP_WHEEL_COUNT; ++w) loads += s.wheels[w].load;
      grip_aero_coefficients aero = grip_vehicle_aero_coefficients(&r.car, wd.air_density, 0.13);
      double rolling = r.car.axles[0].tyre.rolling_resistance * grip_default_surface().rolling_resistance;
      sum_expect += aero.drag * v * v + rolling * loads;
      sum_pull += hs.local_force.x;
      sum_lateral += fabs(hs.local_force.y);
      ++n;
    }
    double pull = sum_pull / n, expect = sum_expect / n;
    printf("  dt %.3f: pull %.1f N, drag + rolling resistance %.1f N (%+.2f %%), side force %.2f N\n", dt, pull,
           expect, 100.0 * (pull / expect - 1.0), sum_lateral / n);
    CHECK_NEAR(pull, expect, 0.02 * expect);
    CHECK(sum_lateral / n < 0.01 * expect);
    rig_close(&r);
  }
}

/* Hitched bodies pass through each other (collide false): jackknifed against each other, no
 * contact is reported between them; with collide true the same pose gives contacts. */
static void no_self_collision(void) {
  for (int collide = 0; collide < 2; ++collide) {
    rig r;
    CHECK(rig_open(&r, GROUND_PLANE, 0.0));
    grip_destroy_hitch(r.world, r.hitch);
    CHECK(!grip_hitch_is_valid(r.world, r.hitch));
    /* the trailer turned 60° about the ball: its front corner reaches into the car's rear */
    double yaw = 60.0 * 3.14159265358979323846 / 180.0;
    double x = tow_ball.x - coupling.x * cos(yaw), y = -coupling.x * sin(yaw);
    CHECK(grip_vehicle_place(r.world, r.trailer, x, y, yaw) == GRIP_OK);
    grip_hitch_def hd = grip_default_hitch_def();
    hd.tow = r.tow;
    hd.trailer = r.trailer;
    hd.tow_point = tow_ball;
    hd.trailer_point = coupling;
    hd.collide = collide;
    r.hitch = grip_create_hitch(r.world, &hd);
    CHECK(grip_hitch_is_valid(r.world, r.hitch));
    int contacts = 0;
    for (int i = 0; i < 50; ++i) {
      grip_world_step(r.world, 0.01);
      contacts += grip_vehicle_contact_count(r.world, r.tow);
    }
    printf("  collide %d: %d contact points in 0.5 s\n", collide, contacts);
    CHECK(collide ? contacts > 0 : contacts == 0);
    rig_close(&r);
  }
}

static double dot3(grip_vec3 a, grip_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

/* The fifth wheel holds the trailer's roll to the tow's (asin(y_tow · z_trailer) from the two
 * poses, within 1 mrad) where a ball lets it differ, and leaves pitch and yaw free: driving
 * straight over wavy ground the relative pitch swings as with a ball, and in a lane change the
 * largest articulation angle is the ball's. At dt 0.002 and 0.01 s. */
static void fifth_wheel(void) {
  const double dts[] = {0.002, 0.01};
  for (int k = 0; k < 2; ++k) {
    double roll[2] = {0, 0}, pitch[2] = {0, 0}, articulation[2] = {0, 0}, moment = 0.0, gap = 0.0;
    for (int kind = 0; kind < 2; ++kind) {
      rig r;
      CHECK(rig_open_kind(&r, GROUND_WAVY, 50.0 * KMH, kind ? GRIP_HITCH_FIFTH_WHEEL : GRIP_HITCH_BALL));
      double dt = dts[k], integral = 0.0;
      for (double t = 0.0; t < 12.0; t += dt) {
        double steer = (t > 8.0 && t < 10.5) ? 0.05 * sin(2.0 * 3.14159265358979 * (t - 8.0) / 2.5) : 0.0;
        rig_drive(&r, 50.0 * KMH, steer, 0.0, dt, &integral);
        grip_world_step(r.world, dt);
        grip_vehicle_state a, b;
        grip_hitch_state hs;
        grip_vehicle_get_state(r.world, r.tow, &a);
        grip_vehicle_get_state(r.world, r.trailer, &b);
        grip_hitch_get_state(r.world, r.hitch, &hs);
        grip_vec3 xa = grip_quat_rotate(a.pose.rotation, (grip_vec3){1, 0, 0}), ya = grip_quat_rotate(a.pose.rotation, (grip_vec3){0, 1, 0});
        grip_vec3 za = grip_quat_rotate(a.pose.rotation, (grip_vec3){0, 0, 1});
        grip_vec3 xb = grip_quat_rotate(b.pose.rotation, (grip_vec3){1, 0, 0}), zb = grip_quat_rotate(b.pose.rotation, (grip_vec3){0, 0, 1});
        roll[kind] = fmax(roll[kind], fabs(asin(dot3(ya, zb))));
        if (t < 8.0) pitch[kind] = fmax(pitch[kind], fabs(asin(dot3(za, xb))));
        articulation[kind] = fmax(articulation[kind], fabs(atan2(dot3(xb, ya), dot3(xb, xa))));
        if (kind) {
          moment = fmax(moment, fabs(hs.roll_moment));
          gap = fmax(gap, hs.gap);
          CHECK_NEAR(hs.roll_error, asin(dot3(ya, zb)), 1e-9);
        }
      }
      rig_close(&r);
    }
    printf("  dt %.3f: relative roll %.4f° (ball %.3f°), relative pitch %.3f° (ball %.3f°), articulation %.3f° "
           "(ball %.3f°), roll moment up to %.0f N·m, gap %.3g mm\n",
           dts[k], roll[1] * 57.29578, roll[0] * 57.29578, pitch[1] * 57.29578, pitch[0] * 57.29578,
           articulation[1] * 57.29578, articulation[0] * 57.29578, moment, 1e3 * gap);
    CHECK(roll[1] < 1e-3);
    CHECK(roll[0] > 5.0 * roll[1] && roll[0] > 2e-3);
    CHECK(pitch[1] > 0.8 * pitch[0] && pitch[1] < 1.25 * pitch[0]);
    CHECK(articulation[0] > 0.02);
    CHECK_NEAR(articulation[1], articulation[0], 0.1 * articulation[0]);
    CHECK(gap < 1e-3);
  }
}

/* Refusals and lifetime: the same vehicle twice, a null vehicle, a second trailer on the same
 * car, a non-finite point, a forces-mode vehicle; destroying the trailer ends the hitch and
 * frees the car to tow another. */
static void refusals_and_lifetime(void) {
  rig r;
  CHECK(rig_open(&r, GROUND_PLANE, 0.0));
  grip_hitch_def hd = grip_default_hitch_def();
  hd.tow = r.tow;
  hd.trailer = r.tow;
  CHECK(!grip_hitch_is_valid(r.world, grip_create_hitch(r.world, &hd)));
  hd.trailer = GRIP_NULL_VEHICLE;
  CHECK(!grip_hitch_is_valid(r.world, grip_create_hitch(r.world, &hd)));
  grip_vehicle_id third = grip_create_vehicle(r.world, &r.car);
  grip_vehicle_place(r.world, third, 0.0, 20.0, 0.0);
  hd.trailer = third;
  CHECK(!grip_hitch_is_valid(r.world, grip_create_hitch(r.world, &hd))); /* the car already tows */
  hd.tow = third;
  hd.trailer = r.trailer;
  CHECK(!grip_hitch_is_valid(r.world, grip_create_hitch(r.world, &hd))); /* already towed */
  hd.tow = r.trailer;
  hd.trailer = third;
  hd.tow_point.x = NAN;
  CHECK(!grip_hitch_is_valid(r.world, grip_create_hitch(r.world, &hd)));
  hd.tow_point = tow_ball;
  hd.kind = (grip_hitch_kind)7;
  CHECK(!grip_hitch_is_valid(r.world, grip_create_hitch(r.world, &hd)));
  hd.kind = GRIP_HITCH_BALL;
  grip_vehicle_def external = r.car;
  external.chassis_mode = GRIP_CHASSIS_EXTERNAL;
  grip_vehicle_id game_body = grip_create_vehicle(r.world, &external);
  hd.tow_point = tow_ball;
  hd.trailer = game_body;
  CHECK(!grip_hitch_is_valid(r.world, grip_create_hitch(r.world, &hd)));
  grip_hitch_state hs;
  grip_destroy_vehicle(r.world, r.trailer);
  CHECK(!grip_hitch_is_valid(r.world, r.hitch));
  CHECK(grip_hitch_get_state(r.world, r.hitch, &hs) == GRIP_INVALID_ARGUMENT);
  hd.tow = r.tow;
  hd.trailer = third;
  CHECK(grip_hitch_is_valid(r.world, grip_create_hitch(r.world, &hd)));
  rig_close(&r);
}

/* Same inputs, same hash; a different hitch point, a different hash. */
static uint64_t lane_change_hash(double ball_x) {
  rig r;
  if (!rig_open(&r, GROUND_WAVY, 50.0 * KMH)) return 0;
  grip_destroy_hitch(r.world, r.hitch);
  grip_hitch_def hd = grip_default_hitch_def();
  hd.tow = r.tow;
  hd.trailer = r.trailer;
  hd.tow_point = (grip_vec3){ball_x, 0.0, 0.45};
  hd.trailer_point = coupling;
  r.hitch = grip_create_hitch(r.world, &hd);
  double integral = 0.0;
  for (int i = 0; i < 600; ++i) {
    double t = i * 0.005;
    rig_drive(&r, 50.0 * KMH, t > 1.0 && t < 2.0 ? 0.2 : 0.0, 0.0, 0.005, &integral);
    grip_world_step(r.world, 0.005);
  }
  uint64_t h = grip_world_state_hash(r.world);
  rig_close(&r);
  return h;
}

static void determinism(void) {
  uint64_t a = lane_change_hash(-2.6), b = lane_change_hash(-2.6), c = lane_change_hash(-2.7);
  printf("  hash %016llx, again %016llx, ball 0.1 m further back %016llx\n", (unsigned long long)a,
         (unsigned long long)b, (unsigned long long)c);
  CHECK(a == b && a != c);
}

int main(void) {
  RUN_TEST(points_stay_together);
  RUN_TEST(steady_pull);
  RUN_TEST(fifth_wheel);
  RUN_TEST(no_self_collision);
  RUN_TEST(refusals_and_lifetime);
  RUN_TEST(determinism);
  return TEST_RESULT();
}
