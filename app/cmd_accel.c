/* grip accel: standing start at full throttle. */
#include <stdio.h>

#include "car_option.h"
#include "cli.h"
#include "manoeuvre.h"

int cmd_accel(int argc, char **argv);
int cmd_accel(int argc, char **argv) {
  double dt = 0.002, max_time = 180.0;
  bool json = false;
  const char *car_spec = NULL;
  cli_option options[] = {
      CLI_OPTION_DT(dt, "0.002"),
      {"--max-time", CLI_DOUBLE, &max_time, 1.0, 3600.0, "give up after this many s (default 180)"},
      CLI_OPTION_JSON(json),
      CLI_OPTION_CAR(car_spec),
  };
  int rc = cli_parse(argc, argv, options, CLI_COUNT(options), NULL, 0, NULL);
  if (rc) return rc == 1 ? 0 : rc;
  static grip_car loaded;
  if (cli_load_car(argv[0], car_spec, &loaded)) return 1;
  grip_vehicle_def car = loaded.def;
  accel_result r = sim_accel(&car, dt, max_time, 0.05);
  if (json) {
    json_writer w;
    json_begin(&w, stdout);
    json_string(&w, "car", car.name);
    json_number(&w, "t_0_100_s", r.t_0_100_s);
    json_number(&w, "t_0_200_s", r.t_0_200_s);
    json_number(&w, "quarter_mile_s", r.quarter_mile_s);
    json_number(&w, "quarter_mile_kmh", r.quarter_mile_kmh);
    json_number(&w, "top_speed_kmh", r.top_speed_kmh);
    json_int(&w, "top_gear", r.top_gear);
    json_number(&w, "dt_s", dt);
    json_end(&w);
  } else {
    printf("accel: %s, dt %g s\n", car.name, dt);
    printf("  0-100 km/h      %8.2f s\n", r.t_0_100_s);
    printf("  0-200 km/h      %8.2f s\n", r.t_0_200_s);
    printf("  quarter mile    %8.2f s at %.1f km/h\n", r.quarter_mile_s, r.quarter_mile_kmh);
    printf("  top speed       %8.1f km/h in gear %d (after %.0f s)\n", r.top_speed_kmh, r.top_gear, r.time_s);
  }
  return 0;
}
