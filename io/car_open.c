/* One entry point for a CAR argument: see grip_car_open in car_file.h. */
#define _XOPEN_SOURCE 700
#include <string.h>
#include <sys/stat.h>

#include "car_file.h"
#include "torcs_car.h"

static int is_torcs_path(const char *spec) {
  size_t n = strlen(spec);
  if (n >= 4 && strcmp(spec + n - 4, ".xml") == 0) return 1;
  struct stat st;
  return stat(spec, &st) == 0 && S_ISDIR(st.st_mode);
}

int grip_car_open(const char *spec, grip_car *out, grip_load_error *err) {
  grip_load_error_clear(err);
  if (!spec || strcmp(spec, "builtin") == 0 || strcmp(spec, "corvette-c5") == 0) {
    grip_car_default(out);
    return 0;
  }
  if (strncmp(spec, "torcs:", 6) == 0) return grip_torcs_load_named(spec + 6, NULL, out, err);
  if (is_torcs_path(spec)) return grip_torcs_load_path(spec, NULL, out, err);
  return grip_car_load(spec, out, err);
}
