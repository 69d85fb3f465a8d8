/* grip park: parked on a slope with the handbrake; reports the creep. */
#include "manoeuvre.h"
#include "report.h"

int cmd_park(int argc, char **argv);
int cmd_park(int argc, char **argv) {
  double dt = 0.002, slope = 30.0, cross = 0.0, seconds = 60.0, settle = 5.0;
  bool json = false;
  static grip_car loaded;
  const cli_option own[] = {
      {"--slope", CLI_DOUBLE, &slope, -100.0, 100.0, "grade along the car, percent (default 30)"},
      {"--cross-slope", CLI_DOUBLE, &cross, -100.0, 100.0, "grade across the car, percent (default 0)"},
      {"--seconds", CLI_DOUBLE, &seconds, 1.0, 3600.0, "measuring window, s (default 60)"},
      {"--settle", CLI_DOUBLE, &settle, 0.0, 600.0, "settling time before measuring, s (default 5)"},
  };
  int rc = report_parse(argc, argv, own, CLI_COUNT(own), &dt, &json, &loaded);
  if (rc >= 0) return rc;
  const grip_vehicle_def *car = &loaded.def;
  park_result r = sim_park(car, slope / 100.0, cross / 100.0, settle, seconds, dt, 1.0);
  report rep;
  report_begin(&rep, json, "park: %s on %.1f %% slope (%.1f %% across), handbrake, %.0f s", car->name, slope, cross,
               seconds);
  report_string(&rep, "car", car->name, NULL);
  report_number(&rep, "slope_pct", slope, NULL, NULL);
  report_number(&rep, "cross_slope_pct", cross, NULL, NULL);
  report_number(&rep, "creep_mm_per_min", r.creep_mm_per_min, "creep", "%10.4g mm/min");
  report_number(&rep, "displacement_mm", r.displacement_mm, "displacement", "%10.4g mm");
  report_number(&rep, "max_angular_velocity_rad_s", r.max_angular_velocity, "max |omega|", "%10.3g rad/s");
  report_end(&rep);
  return 0;
}
