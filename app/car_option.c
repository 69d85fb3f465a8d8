/* --car SPEC: see car_option.h. */
#include "car_option.h"

#include <stdio.h>

int cli_load_car_quiet(const char *spec, grip_car *car, grip_load_error *err) {
  return grip_car_open(spec, car, err);
}

int cli_load_car(const char *command, const char *spec, grip_car *car) {
  grip_load_error err;
  if (cli_load_car_quiet(spec, car, &err)) {
    fprintf(stderr, "grip %s: %s\n", command, err.message);
    return 1;
  }
  for (int i = 0; i < car->warning_count; ++i) fprintf(stderr, "grip %s: warning: %s\n", command, car->warnings[i]);
  if (car->warnings_dropped) fprintf(stderr, "grip %s: warning: %d more warnings\n", command, car->warnings_dropped);
  return 0;
}
