/* grip stepsteer: ISO 7401-style step steer at constant speed. */
#include "cornering.h"
#include "report.h"

int cmd_stepsteer(int argc, char **argv);
int cmd_stepsteer(int argc, char **argv) {
  double dt = 0.002, speed = 80.0, steer = 40.0;
  bool json = false;
  static grip_car loaded;
  const cli_option own[] = {
      {"--speed", CLI_DOUBLE, &speed, 5.0, 400.0, "speed, km/h (default 80)"},
      {"--steer-deg", CLI_DOUBLE, &steer, -900.0, 900.0, "steering-wheel step, degrees (default 40)"},
  };
  int rc = report_parse(argc, argv, own, CLI_COUNT(own), &dt, &json, &loaded);
  if (rc >= 0) return rc;
  const grip_vehicle_def *car = &loaded.def;
  double lock_deg = car->steering.max_wheel_angle * 180.0 / 3.14159265358979323846;
  if ((rc = report_check_range("stepsteer", "--steer-deg", steer, -lock_deg, lock_deg, "the car's full lock")))
    return rc;
  stepsteer_result r = sim_stepsteer(car, speed, steer, dt);
  report rep;
  report_begin(&rep, json, "stepsteer: %s at %.0f km/h, %.0f deg step, dt %g s", car->name, speed, steer, dt);
  report_string(&rep, "car", car->name, NULL);
  report_bool(&rep, "valid", r.valid, NULL);
  if (r.valid) report_null(&rep, "invalid_reason");
  else report_string(&rep, "invalid_reason", r.invalid_reason, NULL);
  report_optional(&rep, "yaw_rate_rise_time_s", r.yaw_rate_rise_time_s, "rise time",
                  "%8.3f s (50 %% steer to 90 %% yaw rate)", "invalid");
  report_optional(&rep, "yaw_rate_overshoot_pct", r.yaw_rate_overshoot_pct, "overshoot", "%8.2f %%", "invalid");
  report_number(&rep, "steady_yaw_rate_dps", r.steady_yaw_rate_dps, "steady yaw rate", "%8.3f deg/s");
  report_number(&rep, "yaw_rate_peak_dps", r.yaw_rate_peak_dps, "peak yaw rate", "%8.3f deg/s");
  report_end(&rep);
  if (!r.valid)
    fprintf(stderr, "grip stepsteer: warning: not a valid step response: %s; rise time and overshoot are not given\n",
            r.invalid_reason);
  return 0;
}
