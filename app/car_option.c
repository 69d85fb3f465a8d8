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
  /* The tools that take --car run one car alone; combinations run in scenes and grip drive. */
  if (car->def.drivetrain.layout == GRIP_DRIVE_NONE) {
    fprintf(stderr, "grip %s: %s has no engine (a trailer): tow it with a car whose file names it in [trailer], in "
            "grip scene run or grip drive\n", command, spec);
    return 1;
  }
  if (car->trailer.file[0]) {
    fprintf(stderr, "grip %s: %s tows a trailer; grip %s runs a car alone (use grip scene run or grip drive, or the "
            "car's base file)\n", command, spec, command);
    return 1;
  }
  for (int i = 0; i < car->warning_count; ++i) fprintf(stderr, "grip %s: warning: %s\n", command, car->warnings[i]);
  if (car->warnings_dropped) fprintf(stderr, "grip %s: warning: %d more warnings\n", command, car->warnings_dropped);
  return 0;
}
