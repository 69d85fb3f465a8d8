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
  stepsteer_result r = sim_stepsteer(car, speed, steer, dt);
  report rep;
  report_begin(&rep, json, "stepsteer: %s at %.0f km/h, %.0f deg step, dt %g s", car->name, speed, steer, dt);
  report_string(&rep, "car", car->name, NULL);
  report_number(&rep, "yaw_rate_rise_time_s", r.yaw_rate_rise_time_s, "rise time", "%8.3f s (50 %% steer to 90 %% yaw rate)");
  report_number(&rep, "yaw_rate_overshoot_pct", r.yaw_rate_overshoot_pct, "overshoot", "%8.2f %%");
  report_number(&rep, "steady_yaw_rate_dps", r.steady_yaw_rate_dps, "steady yaw rate", "%8.3f deg/s");
  report_number(&rep, "yaw_rate_peak_dps", r.yaw_rate_peak_dps, "peak yaw rate", "%8.3f deg/s");
  report_end(&rep);
  return 0;
}
