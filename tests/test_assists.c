/* Arcade aids: off by default, and each does what it says. */
#include "cornering.h"
#include "grip/grip.h"
#include "manoeuvre.h"
#include "test.h"

static void off_by_default(void) {
  grip_vehicle_def car = grip_default_vehicle_def();
  CHECK(car.assists.grip_multiplier == 1.0);
  CHECK(car.assists.yaw_damping == 0.0 && car.assists.max_roll == 0.0 && car.assists.max_pitch == 0.0);
  CHECK(car.assists.steering_assist == 0.0);
}

/* Grip multiplier k: the friction limit, hence the skidpad maximum, scales by about k. */
static void grip_multiplier(void) {
  grip_vehicle_def car = grip_default_vehicle_def();
  double base = sim_skidpad(&car, 40.0, 0.002).max_lateral_g;
  car.assists.grip_multiplier = 1.3;
  double more = sim_skidpad(&car, 40.0, 0.002).max_lateral_g;
  CHECK_REL(more / base, 1.3, 0.08);
}

/* Yaw damping: the step-steer overshoot falls and the yaw rate rises more slowly. */
static void yaw_damping(void) {
  grip_vehicle_def car = grip_default_vehicle_def();
  stepsteer_result plain = sim_stepsteer(&car, 100.0, 60.0, 0.002);
  car.assists.yaw_damping = 20000.0;
  stepsteer_result damped = sim_stepsteer(&car, 100.0, 60.0, 0.002);
  CHECK(damped.yaw_rate_overshoot_pct < plain.yaw_rate_overshoot_pct);
  /* In the steady turn the tyres must also overcome the damping torque c·r: less yaw rate. */
  CHECK(fabs(damped.steady_yaw_rate_dps) < fabs(plain.steady_yaw_rate_dps));
}

/* Anti-flip: a car released in the air rolled 0.6 rad keeps that roll without the aid (no
 * torque acts in free fall) and is brought back towards the 0.3 rad limit with it. */
static double roll_after_fall(double max_roll) {
  grip_vehicle_def car = grip_default_vehicle_def();
  car.assists.max_roll = max_roll;
  grip_world_def wd = grip_default_world_def();
  grip_world *world = grip_create_world(&wd);
  grip_vehicle_id id = grip_create_vehicle(world, &car);
  grip_pose pose = {{0, 0, 5.0}, {cos(0.3), sin(0.3), 0, 0}}; /* 0.6 rad about x, 5 m up */
  grip_vehicle_set_pose(world, id, pose);
  for (int i = 0; i < 200; ++i) grip_world_step(world, 0.002); /* 0.4 s: still in the air */
  grip_vehicle_state s;
  grip_vehicle_get_state(world, id, &s);
  grip_quat q = s.pose.rotation;
  grip_destroy_world(world);
  return atan2(2.0 * (q.w * q.x + q.y * q.z), 1.0 - 2.0 * (q.x * q.x + q.y * q.y));
}

static void anti_flip(void) {
  CHECK_NEAR(roll_after_fall(0.0), 0.6, 1e-6);
  double aided = roll_after_fall(0.3);
  /* Critically damped return to the limit: within 0.35 rad after 0.4 s, never past it. */
  CHECK(aided < 0.35);
  CHECK(aided > 0.29);
}

/* Steering assist: a car with a loose rear in a fast constant-steer turn spins without it
 * (body slip beyond 30°) and is caught with it. */
static double max_body_slip(double assist) {
  grip_vehicle_def car = grip_default_vehicle_def();
  car.axles[1].tyre.simple.lateral.mu = 0.8;
  car.assists.steering_assist = assist;
  grip_vehicle_id id;
  grip_world *world = sim_world_with_car(&car, &id);
  grip_vehicle_set_velocity(world, id, (grip_vec3){25.0, 0, 0});
  grip_vehicle_input in = grip_default_vehicle_input();
  in.steering = 0.15;
  in.throttle = 0.3;
  grip_vehicle_set_input(world, id, &in);
  double worst = 0;
  for (int i = 0; i < 2500; ++i) {
    grip_world_step(world, 0.002);
    grip_vehicle_state s;
    grip_vehicle_get_state(world, id, &s);
    double beta = fabs(atan2(s.local_velocity.y, s.local_velocity.x));
    if (s.speed > 3.0 && beta > worst) worst = beta;
  }
  grip_destroy_world(world);
  return worst;
}

static void steering_assist(void) {
  double plain = max_body_slip(0.0), helped = max_body_slip(0.8);
  CHECK(plain > 0.5);   /* spins: > 30° */
  CHECK(helped < 0.2);  /* caught: < 12° */
  printf("  max body slip %.1f deg without, %.1f deg with the assist\n", plain * 57.2958, helped * 57.2958);
}

int main(void) {
  RUN_TEST(off_by_default);
  RUN_TEST(grip_multiplier);
  RUN_TEST(yaw_damping);
  RUN_TEST(anti_flip);
  RUN_TEST(steering_assist);
  return TEST_RESULT();
}
