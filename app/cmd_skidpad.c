/* grip skidpad: constant-radius circle (ISO 4138 style), speed raised slowly. */
#include <stdio.h>

#include "car_option.h"
#include "cli.h"
#include "cornering.h"

int cmd_skidpad(int argc, char **argv);
int cmd_skidpad(int argc, char **argv) {
  double dt = 0.002, radius = 40.0;
  bool json = false;
  const char *car_spec = NULL;
  cli_option options[] = {
      {"--radius", CLI_DOUBLE, &radius, 5.0, 1000.0, "circle radius, m (default 40)"},
      CLI_OPTION_DT(dt, "0.002"),
      CLI_OPTION_JSON(json),
      CLI_OPTION_CAR(car_spec),
  };
  int rc = cli_parse(argc, argv, options, CLI_COUNT(options), NULL, 0, NULL);
  if (rc) return rc == 1 ? 0 : rc;
  static grip_car loaded;
  if (cli_load_car(argv[0], car_spec, &loaded)) return 1;
  grip_vehicle_def car = loaded.def;
  skidpad_result r = sim_skidpad(&car, radius, dt);
  if (json) {
    json_writer w;
    json_begin(&w, stdout);
    json_string(&w, "car", car.name);
    json_number(&w, "radius_m", radius);
    json_number(&w, "max_lateral_g", r.max_lateral_g);
    json_number(&w, "understeer_gradient_deg_per_g", r.understeer_gradient_deg_per_g);
    json_number(&w, "bicycle_understeer_gradient_deg_per_g", r.bicycle_understeer_gradient_deg_per_g);
    json_number(&w, "linear_bicycle_understeer_gradient_deg_per_g", r.linear_bicycle_understeer_gradient_deg_per_g);
    json_string(&w, "limit_behaviour", r.limit_behaviour);
    json_number(&w, "limit_speed_kmh", r.limit_speed_kmh);
    json_end(&w);
  } else {
    printf("skidpad: %s on R = %.1f m, dt %g s\n", car.name, radius, dt);
    printf("  max lateral     %8.3f g at %.1f km/h\n", r.max_lateral_g, r.limit_speed_kmh);
    printf("  understeer      %8.3f deg/g measured (0.2-0.3 g); bicycle model %.3f deg/g (linear: %.3f)\n",
           r.understeer_gradient_deg_per_g, r.bicycle_understeer_gradient_deg_per_g,
           r.linear_bicycle_understeer_gradient_deg_per_g);
    printf("  at the limit    %8s\n", r.limit_behaviour);
  }
  return 0;
}
