/* grip brake: straight-line full braking. */
#include "manoeuvre.h"
#include "report.h"

int cmd_brake(int argc, char **argv);
int cmd_brake(int argc, char **argv) {
  double dt = 0.002, from = 100.0;
  bool json = false, abs = false;
  static grip_car loaded;
  const cli_option own[] = {
      {"--from", CLI_DOUBLE, &from, 1.0, 400.0, "initial speed, km/h (default 100)"},
      {"--abs", CLI_FLAG, &abs, 0, 0, "anti-lock brakes on (the car's [systems] ABS parameters)"},
  };
  int rc = report_parse(argc, argv, own, CLI_COUNT(own), &dt, &json, &loaded);
  if (rc >= 0) return rc;
  if (abs) loaded.def.systems.abs.enabled = true;
  const grip_vehicle_def *car = &loaded.def;
  brake_result r = sim_brake(car, from, dt);
  report rep;
  report_begin(&rep, json, "brake: %s from %.0f km/h, dt %g s", car->name, from, dt);
  report_string(&rep, "car", car->name, NULL);
  report_number(&rep, "from_kmh", from, NULL, NULL);
  report_bool(&rep, "abs", car->systems.abs.enabled, "ABS");
  report_number(&rep, "distance_m", r.distance_m, "distance", "%8.2f m");
  report_number(&rep, "time_s", r.time_s, "time", "%8.2f s");
  report_number(&rep, "peak_decel_g", r.peak_decel_g, "peak decel", "%8.3f g");
  report_bool(&rep, "wheels_locked", r.wheels_locked, "wheels locked");
  report_end(&rep);
  return 0;
}
