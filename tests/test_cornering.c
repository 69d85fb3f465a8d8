/* Cornering against the single-track model, kinematics and tyre friction (issue 3). */
#include <string.h>

#include "cornering.h"
#include "grip/grip.h"
#include "manoeuvre.h"
#include "test.h"

#define PI 3.14159265358979323846
#define DEG (180.0 / PI)
#define G 9.81

/* The car with the single-track model's assumptions: no differential yaw moment (open),
 * parallel steer, no rolling resistance. */
static grip_vehicle_def bicycle_like_car(void) {
  grip_vehicle_def car = grip_default_vehicle_def();
  car.drivetrain.rear.type = GRIP_DIFF_OPEN;
  car.steering.ackermann = 0.0;
  car.axles[0].tyre.rolling_resistance = car.axles[1].tyre.rolling_resistance = 0.0;
  return car;
}

/* At 2 m/s with a fixed road-wheel angle the front axle follows R = L / sin(delta). */
static void kinematic_radius(void) {
  grip_vehicle_def car = grip_default_vehicle_def();
  car.drivetrain.rear.type = GRIP_DIFF_OPEN;
  double wheelbase = car.axles[0].x - car.axles[1].x;
  const double wheel_deg[] = {40.0, 80.0, 160.0};
  for (int k = 0; k < 3; ++k) {
    steady_result r = sim_steady(&car, 7.2, wheel_deg[k], 0.002);
    double delta = wheel_deg[k] / DEG / car.steering.ratio;
    CHECK(r.steady);
    CHECK_REL(r.front_axle_radius_m, wheelbase / sin(delta), 0.03);
  }
  /* A limited-slip differential resists the wheel-speed difference and pushes the car wide. */
  grip_vehicle_def lsd = grip_default_vehicle_def();
  double delta = 80.0 / DEG / lsd.steering.ratio;
  steady_result wide = sim_steady(&lsd, 7.2, 80.0, 0.002);
  CHECK(wide.front_axle_radius_m > 1.01 * wheelbase / sin(delta));
}

/* Linear range: measured understeer gradient within 5 % of the single-track model. */
static void understeer_gradient(void) {
  grip_vehicle_def car = bicycle_like_car();
  skidpad_result r = sim_skidpad(&car, 40.0, 0.002);
  CHECK(r.samples_linear > 1000);
  CHECK(r.bicycle_understeer_gradient_deg_per_g > 0.5);
  CHECK_REL(r.understeer_gradient_deg_per_g, r.bicycle_understeer_gradient_deg_per_g, 0.05);
  /* The classic linear value is the same model at zero slip without pneumatic trail. */
  grip_vehicle_def no_trail = car;
  no_trail.axles[0].tyre.simple.pneumatic_trail = no_trail.axles[1].tyre.simple.pneumatic_trail = 0.0;
  double k0 = bicycle_steer_excess(&no_trail, 0.001, G) / 0.001 * DEG;
  CHECK_REL(r.linear_bicycle_understeer_gradient_deg_per_g, k0, 0.01);
  printf("  K measured %.3f, single-track %.3f, linear %.3f deg/g\n", r.understeer_gradient_deg_per_g,
         r.bicycle_understeer_gradient_deg_per_g, r.linear_bicycle_understeer_gradient_deg_per_g);
}

/* Steady yaw rate r = v·delta / (L + K·v²), K in rad/(m/s²). */
static void steady_yaw_rate(void) {
  grip_vehicle_def car = bicycle_like_car();
  double wheelbase = car.axles[0].x - car.axles[1].x;
  const double speeds[] = {40.0, 70.0};
  for (int k = 0; k < 2; ++k) {
    steady_result r = sim_steady(&car, speeds[k], 25.0, 0.002);
    CHECK(r.steady);
    double v = r.speed_kmh / 3.6;
    double ay = fabs(r.lateral_g);
    double k_us = (bicycle_steer_excess(&car, ay + 0.02, G) - bicycle_steer_excess(&car, ay > 0.02 ? ay - 0.02 : 0.0, G)) /
                  (ay > 0.02 ? 0.04 : ay + 0.02) / G;
    double expected = v * r.road_wheel_angle_deg / DEG / (wheelbase + k_us * v * v) * DEG;
    CHECK_REL(r.yaw_rate_dps, expected, 0.05);
  }
}

static void max_lateral(void) {
  grip_vehicle_def car = bicycle_like_car();
  skidpad_result r = sim_skidpad(&car, 40.0, 0.002);
  double expected = tyre_limit_lateral_g(&car, 40.0, G, 1.29);
  CHECK(expected > 0.8 && expected < 1.1);
  CHECK_REL(r.max_lateral_g, expected, 0.07);
  CHECK(strcmp(r.limit_behaviour, "understeer") == 0);
  printf("  max lateral %.3f g, tyre friction with load transfer %.3f g\n", r.max_lateral_g, expected);
}

/* Changes move the gradient the way physics says. */
static void gradient_directions(void) {
  grip_vehicle_def base = bicycle_like_car();
  double k0 = sim_skidpad(&base, 40.0, 0.002).understeer_gradient_deg_per_g;

  /* CG 0.2 m rearward. With cornering stiffness proportional to load, K = W_f/C_f − W_r/C_r
   * would not move; it moves because stiffness grows sub-linearly with load (load
   * sensitivity): the rear tyres gain less than their share. The single-track model gives
   * the size of the change. */
  grip_vehicle_def rear_cg = base;
  rear_cg.body.center_of_mass.x -= 0.2;
  double k_cg = sim_skidpad(&rear_cg, 40.0, 0.002).understeer_gradient_deg_per_g;
  double predicted = (bicycle_steer_excess(&rear_cg, 0.3, G) - bicycle_steer_excess(&rear_cg, 0.2, G) -
                      bicycle_steer_excess(&base, 0.3, G) + bicycle_steer_excess(&base, 0.2, G)) / 0.1 * DEG;
  CHECK(predicted < -0.05);
  CHECK(k_cg < k0);
  CHECK_NEAR(k_cg - k0, predicted, 0.3 * fabs(predicted));

  grip_vehicle_def slippery = base;
  slippery.axles[1].tyre.simple.lateral.mu *= 0.8;
  double k_grip = sim_skidpad(&slippery, 40.0, 0.002).understeer_gradient_deg_per_g;
  CHECK(k_grip < k0 - 0.2);

  /* Front bar stiffer: more of the lateral load transfer on the front axle; with load
   * sensitivity its tyres lose grip, so understeer grows (visible at 0.4–0.6 g). */
  grip_vehicle_def soft = base, stiff = base;
  stiff.axles[0].suspension.anti_roll_rate *= 4.0;
  double k_soft = sim_skidpad_band(&soft, 40.0, 0.002, 0.4, 0.6).understeer_gradient_deg_per_g;
  double k_stiff = sim_skidpad_band(&stiff, 40.0, 0.002, 0.4, 0.6).understeer_gradient_deg_per_g;
  CHECK(k_stiff > k_soft * 1.01);
  printf("  K base %.3f, CG rearward %.3f, rear grip -20%% %.3f; 0.4-0.6 g: bar x1 %.3f, x4 %.3f\n", k0, k_cg,
         k_grip, k_soft, k_stiff);
}

/* Past the limit an oversteering car spins, an understeering one runs wide. */
static void limit_behaviour(void) {
  grip_vehicle_def loose = bicycle_like_car();
  loose.axles[1].tyre.simple.lateral.mu = 0.75;
  CHECK(strcmp(sim_skidpad(&loose, 40.0, 0.002).limit_behaviour, "oversteer") == 0);
  grip_vehicle_def push = bicycle_like_car();
  push.axles[0].tyre.simple.lateral.mu = 0.8;
  CHECK(strcmp(sim_skidpad(&push, 40.0, 0.002).limit_behaviour, "understeer") == 0);
}

/* The skidpad at dt = 0.01 s within 1 % of dt = 0.001 s. */
static void skidpad_step_size(void) {
  grip_vehicle_def car = grip_default_vehicle_def();
  skidpad_result fine = sim_skidpad(&car, 40.0, 0.001);
  skidpad_result coarse = sim_skidpad(&car, 40.0, 0.01);
  CHECK_REL(coarse.max_lateral_g, fine.max_lateral_g, 0.01);
  CHECK_REL(coarse.understeer_gradient_deg_per_g, fine.understeer_gradient_deg_per_g, 0.01);
}

/* Parked across a 30 % slope: creep < 1 mm/min and no jitter. */
static void cross_slope(void) {
  grip_vehicle_def car = grip_default_vehicle_def();
  const double dts[] = {0.001, 0.01};
  for (int k = 0; k < 2; ++k) {
    park_result r = sim_park(&car, 0.0, 0.30, 5.0, 60.0, dts[k], 1.0);
    CHECK(r.creep_mm_per_min < 1.0);
    CHECK(r.max_angular_velocity < 1e-4);
  }
}

/* Combined slip on the tyre alone: braking lowers the lateral force available at a slip angle,
 * and the pair never leaves the friction ellipse. */
static void combined_slip(void) {
  grip_simple_mf_def t = grip_default_simple_mf_def();
  grip_tyre_input in = {.fz = 4000, .kappa = 0, .alpha = 0.08, .gamma = 0, .vx = 20, .friction_scale = 1};
  grip_tyre_output pure, braking;
  grip_simple_mf_evaluate(&t, &in, &pure);
  double bx = t.lateral.b * 0.08;
  double expected = -4000.0 * sin(t.lateral.c * atan(bx - t.lateral.e * (bx - atan(bx))));
  CHECK_REL(pure.fy, expected, 1e-6); /* pure slip: the design notes' formula */
  double previous = fabs(pure.fy);
  for (double kappa = -0.02; kappa >= -0.5; kappa -= 0.04) {
    in.kappa = kappa;
    grip_simple_mf_evaluate(&t, &in, &braking);
    CHECK(fabs(braking.fy) < previous);
    previous = fabs(braking.fy);
    double fx = braking.fx / 4000.0, fy = braking.fy / 4000.0;
    CHECK(fx * fx + fy * fy <= 1.0 + 1e-9);
  }
  /* Aligning torque: restoring (Mz > 0 for alpha > 0), = trail·|Fy| near zero slip. */
  in.kappa = 0;
  in.alpha = 0.005;
  grip_simple_mf_evaluate(&t, &in, &pure);
  CHECK(pure.mz > 0);
  CHECK_REL(pure.mz, -t.pneumatic_trail * pure.fy, 0.05);
}

/* Step steer: the yaw rate rises, overshoots a little and settles at the steady value. */
static void step_steer(void) {
  grip_vehicle_def car = grip_default_vehicle_def();
  stepsteer_result s = sim_stepsteer(&car, 80.0, 40.0, 0.002);
  steady_result st = sim_steady(&car, 80.0, 40.0, 0.002);
  CHECK_REL(s.steady_yaw_rate_dps, st.yaw_rate_dps, 0.02);
  CHECK(s.yaw_rate_rise_time_s > 0.05 && s.yaw_rate_rise_time_s < 0.5);
  CHECK(s.yaw_rate_overshoot_pct >= 0.0 && s.yaw_rate_overshoot_pct < 30.0);
}

int main(void) {
  RUN_TEST(kinematic_radius);
  RUN_TEST(understeer_gradient);
  RUN_TEST(steady_yaw_rate);
  RUN_TEST(max_lateral);
  RUN_TEST(gradient_directions);
  RUN_TEST(limit_behaviour);
  RUN_TEST(skidpad_step_size);
  RUN_TEST(cross_slope);
  RUN_TEST(combined_slip);
  RUN_TEST(step_steer);
  return TEST_RESULT();
}
