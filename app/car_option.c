/* --car SPEC: see car_option.h. */
#include "car_option.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "torcs_car.h"

static int is_torcs_path(const char *spec) {
  size_t n = strlen(spec);
  if (n >= 4 && strcmp(spec + n - 4, ".xml") == 0) return 1;
  struct stat st;
  return stat(spec, &st) == 0 && S_ISDIR(st.st_mode);
}

int cli_load_car_quiet(const char *spec, grip_car *car, grip_load_error *err) {
  grip_load_error_clear(err);
  if (!spec || strcmp(spec, "builtin") == 0 || strcmp(spec, "corvette-c5") == 0) {
    grip_car_default(car);
    return 0;
  }
  if (strncmp(spec, "torcs:", 6) == 0) return grip_torcs_load_named(spec + 6, NULL, car, err);
  if (is_torcs_path(spec)) return grip_torcs_load_path(spec, NULL, car, err);
  return grip_car_load(spec, car, err);
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
