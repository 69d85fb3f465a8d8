/* grip skidpad: constant-radius circle (ISO 4138 style), speed raised slowly. */
#include <math.h>

#include "cornering.h"
#include "race.h"
#include "report.h"

int cmd_skidpad(int argc, char **argv);
int cmd_skidpad(int argc, char **argv) {
  double dt = 0.002, radius = 40.0;
  bool json = false;
  static grip_car loaded;
  const cli_option own[] = {
      {"--radius", CLI_DOUBLE, &radius, 5.0, 1000.0, "circle radius, m (default 40)"},
  };
  int rc = report_parse(argc, argv, own, CLI_COUNT(own), &dt, &json, &loaded);
  if (rc >= 0) return rc;
  const grip_vehicle_def *car = &loaded.def;
  double turning = race_car_turning_radius(car);
  if ((rc = report_check_range("skidpad", "--radius", radius, turning, 1000.0, "the car's turning radius")))
    return rc;
  skidpad_result r = sim_skidpad(car, radius, dt);
  report rep;
  report_begin(&rep, json, "skidpad: %s on R = %.1f m, dt %g s", car->name, radius, dt);
  report_string(&rep, "car", car->name, NULL);
  report_number(&rep, "radius_m", radius, NULL, NULL);
  report_number(&rep, "max_lateral_g", r.max_lateral_g, "max lateral", "%8.3f g");
  report_number(&rep, "limit_speed_kmh", r.limit_speed_kmh, "  at", "%8.1f km/h");
  report_optional(&rep, "understeer_gradient_deg_per_g", r.understeer_gradient_deg_per_g, "understeer",
                  "%8.3f deg/g measured (0.2-0.3 g)", "not measured (never held 0.2-0.3 g)");
  report_number(&rep, "bicycle_understeer_gradient_deg_per_g", r.bicycle_understeer_gradient_deg_per_g,
                "  bicycle model", "%8.3f deg/g");
  report_number(&rep, "linear_bicycle_understeer_gradient_deg_per_g",
                r.linear_bicycle_understeer_gradient_deg_per_g, "  linear", "%8.3f deg/g");
  report_string(&rep, "limit_behaviour", r.limit_behaviour, "at the limit");
  if (isfinite(r.wheel_lift_g)) /* only a car that tips (a three-wheeler): others print as before */
    report_number(&rep, "wheel_lift_g", r.wheel_lift_g, "  a wheel lifted at", "%8.3f g");
  report_end(&rep);
  return 0;
}
