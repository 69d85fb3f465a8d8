/* Fuzz harness: robot parameter files (`grip race --robot FILE`, key = value lines; the loader
 * takes a path: the input goes through a temporary file). An accepted file leaves every
 * parameter finite and within the range the loader documents for it; a refused one comes with
 * a message and changes nothing. */
#include "fuzz_common.h"

#include <math.h>

#include "robot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_temp_file(data, size, ".txt");
  const robot_params defaults = robot_default_params();
  robot_params p = defaults;
  grip_load_error err;
  grip_load_error_clear(&err);
  if (robot_params_load(path, &p, &err) != 0) {
    FUZZ_REQUIRE(err.message[0] != '\0');
    FUZZ_REQUIRE(memcmp(&p, &defaults, sizeof p) == 0);
    return 0;
  }
  /* ranges as robot.c's parameter table gives them (a sample: every kind of entry) */
  FUZZ_REQUIRE(isfinite(p.mu_factor) && p.mu_factor >= 0.1 && p.mu_factor <= 2.0);
  FUZZ_REQUIRE(isfinite(p.line_step) && p.line_step >= 0.5 && p.line_step <= 20.0);
  FUZZ_REQUIRE(p.racing_line == 0 || p.racing_line == 1);
  FUZZ_REQUIRE(p.auto_gearbox == 0 || p.auto_gearbox == 1);
  FUZZ_REQUIRE(p.plan_banking == 0 || p.plan_banking == 1);
  FUZZ_REQUIRE(isfinite(p.wide_margin) && p.wide_margin >= 0.05 && p.wide_margin <= 5.0);
  FUZZ_REQUIRE(isfinite(p.crest_radius) && p.crest_radius >= 0.0 && p.crest_radius <= 1e4);
  FUZZ_REQUIRE(isfinite(p.control_rate) && p.control_rate >= 0.0 && p.control_rate <= 1e4);
  /* and every double of the struct finite */
  double all[] = {p.mu_factor, p.aggressiveness, p.brake_margin, p.accel_margin, p.edge_margin, p.line_step,
                  p.lookahead_min, p.lookahead_time, p.speed_kp, p.speed_ki, p.tc_slip, p.abs_slip,
                  p.oversteer_slip, p.speed_preview, p.lateral_ki, p.lateral_ki_limit, p.yaw_gain, p.stuck_time,
                  p.reverse_time, p.follow_time, p.look_cars, p.car_gap, p.wide_margin, p.edge_margin_speed,
                  p.downshift_gap, p.crest_base, p.crest_load, p.crest_radius, p.crest_reach, p.flat_out_speed,
                  p.downshift_hold, p.axle_balance, p.control_rate};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) FUZZ_REQUIRE(isfinite(all[i]) && all[i] >= 0.0);
  return 0;
}
