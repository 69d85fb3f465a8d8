/* grip accel: standing start at full throttle. */
#include "manoeuvre.h"
#include "report.h"

int cmd_accel(int argc, char **argv);
int cmd_accel(int argc, char **argv) {
  double dt = 0.002, max_time = 180.0;
  bool json = false;
  static grip_car loaded;
  const cli_option own[] = {
      {"--max-time", CLI_DOUBLE, &max_time, 1.0, 3600.0, "give up after this many s (default 180)"},
  };
  int rc = report_parse(argc, argv, own, CLI_COUNT(own), &dt, &json, &loaded);
  if (rc >= 0) return rc;
  const grip_vehicle_def *car = &loaded.def;
  accel_result r = sim_accel(car, dt, max_time, 0.05);
  report rep;
  report_begin(&rep, json, "accel: %s, dt %g s", car->name, dt);
  report_string(&rep, "car", car->name, NULL);
  report_optional(&rep, "t_0_100_s", r.t_0_100_s, "0-100 km/h", "%8.2f s", "not reached");
  report_optional(&rep, "t_0_200_s", r.t_0_200_s, "0-200 km/h", "%8.2f s", "not reached");
  report_optional(&rep, "quarter_mile_s", r.quarter_mile_s, "quarter mile", "%8.2f s", "not reached");
  report_optional(&rep, "quarter_mile_kmh", r.quarter_mile_kmh, "  at", "%8.1f km/h", "-");
  report_number(&rep, "top_speed_kmh", r.top_speed_kmh, "top speed", "%8.1f km/h");
  report_int(&rep, "top_gear", r.top_gear, "  in gear", "%8lld");
  report_number(&rep, "time_s", r.time_s, "  after", "%8.0f s");
  report_number(&rep, "dt_s", dt, NULL, NULL);
  report_end(&rep);
  return 0;
}
