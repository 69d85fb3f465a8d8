/* grip park: parked on a slope with the handbrake; reports the creep. */
#include <stdio.h>

#include "car_option.h"
#include "cli.h"
#include "manoeuvre.h"

int cmd_park(int argc, char **argv);
int cmd_park(int argc, char **argv) {
  double dt = 0.002, slope = 30.0, cross = 0.0, seconds = 60.0, settle = 5.0;
  bool json = false;
  const char *car_spec = NULL;
  cli_option options[] = {
      {"--slope", CLI_DOUBLE, &slope, -100.0, 100.0, "grade along the car, percent (default 30)"},
      {"--cross-slope", CLI_DOUBLE, &cross, -100.0, 100.0, "grade across the car, percent (default 0)"},
      {"--seconds", CLI_DOUBLE, &seconds, 1.0, 3600.0, "measuring window, s (default 60)"},
      {"--settle", CLI_DOUBLE, &settle, 0.0, 600.0, "settling time before measuring, s (default 5)"},
      CLI_OPTION_DT(dt, "0.002"),
      CLI_OPTION_JSON(json),
      CLI_OPTION_CAR(car_spec),
  };
  int rc = cli_parse(argc, argv, options, CLI_COUNT(options), NULL, 0, NULL);
  if (rc) return rc == 1 ? 0 : rc;
  static grip_car loaded;
  if (cli_load_car(argv[0], car_spec, &loaded)) return 1;
  grip_vehicle_def car = loaded.def;
  park_result r = sim_park(&car, slope / 100.0, cross / 100.0, settle, seconds, dt, 1.0);
  if (json) {
    json_writer w;
    json_begin(&w, stdout);
    json_string(&w, "car", car.name);
    json_number(&w, "slope_pct", slope);
    json_number(&w, "cross_slope_pct", cross);
    json_number(&w, "creep_mm_per_min", r.creep_mm_per_min);
    json_number(&w, "displacement_mm", r.displacement_mm);
    json_number(&w, "max_angular_velocity_rad_s", r.max_angular_velocity);
    json_end(&w);
  } else {
    printf("park: %s on %.1f %% slope (%.1f %% across), handbrake, %.0f s\n", car.name, slope, cross, seconds);
    printf("  creep           %10.4g mm/min\n", r.creep_mm_per_min);
    printf("  max |omega|     %10.3g rad/s\n", r.max_angular_velocity);
  }
  return 0;
}
