/* grip brake: straight-line full braking. */
#include <stdio.h>

#include "car_option.h"
#include "cli.h"
#include "manoeuvre.h"

int cmd_brake(int argc, char **argv);
int cmd_brake(int argc, char **argv) {
  double dt = 0.002, from = 100.0;
  bool json = false;
  const char *car_spec = NULL;
  cli_option options[] = {
      {"--from", CLI_DOUBLE, &from, 1.0, 400.0, "initial speed, km/h (default 100)"},
      CLI_OPTION_DT(dt, "0.002"),
      CLI_OPTION_JSON(json),
      CLI_OPTION_CAR(car_spec),
  };
  int rc = cli_parse(argc, argv, options, CLI_COUNT(options), NULL, 0, NULL);
  if (rc) return rc == 1 ? 0 : rc;
  static grip_car loaded;
  if (cli_load_car(argv[0], car_spec, &loaded)) return 1;
  grip_vehicle_def car = loaded.def;
  brake_result r = sim_brake(&car, from, dt);
  if (json) {
    json_writer w;
    json_begin(&w, stdout);
    json_string(&w, "car", car.name);
    json_number(&w, "from_kmh", from);
    json_number(&w, "distance_m", r.distance_m);
    json_number(&w, "time_s", r.time_s);
    json_number(&w, "peak_decel_g", r.peak_decel_g);
    json_bool(&w, "wheels_locked", r.wheels_locked);
    json_end(&w);
  } else {
    printf("brake: %s from %.0f km/h, dt %g s\n", car.name, from, dt);
    printf("  distance        %8.2f m\n", r.distance_m);
    printf("  time            %8.2f s\n", r.time_s);
    printf("  peak decel      %8.3f g\n", r.peak_decel_g);
    printf("  wheels locked   %8s\n", r.wheels_locked ? "yes" : "no");
  }
  return 0;
}
