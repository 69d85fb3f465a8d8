/* grip stepsteer: ISO 7401-style step steer at constant speed. */
#include <stdio.h>

#include "car_option.h"
#include "cli.h"
#include "cornering.h"

int cmd_stepsteer(int argc, char **argv);
int cmd_stepsteer(int argc, char **argv) {
  double dt = 0.002, speed = 80.0, steer = 40.0;
  bool json = false;
  const char *car_spec = NULL;
  cli_option options[] = {
      {"--speed", CLI_DOUBLE, &speed, 5.0, 400.0, "speed, km/h (default 80)"},
      {"--steer-deg", CLI_DOUBLE, &steer, -900.0, 900.0, "steering-wheel step, degrees (default 40)"},
      CLI_OPTION_DT(dt, "0.002"),
      CLI_OPTION_JSON(json),
      CLI_OPTION_CAR(car_spec),
  };
  int rc = cli_parse(argc, argv, options, CLI_COUNT(options), NULL, 0, NULL);
  if (rc) return rc == 1 ? 0 : rc;
  static grip_car loaded;
  if (cli_load_car(argv[0], car_spec, &loaded)) return 1;
  grip_vehicle_def car = loaded.def;
  stepsteer_result r = sim_stepsteer(&car, speed, steer, dt);
  if (json) {
    json_writer w;
    json_begin(&w, stdout);
    json_string(&w, "car", car.name);
    json_number(&w, "yaw_rate_rise_time_s", r.yaw_rate_rise_time_s);
    json_number(&w, "yaw_rate_overshoot_pct", r.yaw_rate_overshoot_pct);
    json_number(&w, "steady_yaw_rate_dps", r.steady_yaw_rate_dps);
    json_number(&w, "yaw_rate_peak_dps", r.yaw_rate_peak_dps);
    json_end(&w);
  } else {
    printf("stepsteer: %s at %.0f km/h, %.0f deg step, dt %g s\n", car.name, speed, steer, dt);
    printf("  rise time       %8.3f s (50 %% steer to 90 %% yaw rate)\n", r.yaw_rate_rise_time_s);
    printf("  overshoot       %8.2f %%\n", r.yaw_rate_overshoot_pct);
    printf("  steady yaw rate %8.3f deg/s (peak %.3f)\n", r.steady_yaw_rate_dps, r.yaw_rate_peak_dps);
  }
  return 0;
}
