/* Fuzz harness: grip car files (INI), parsed from memory. An accepted car must pass the core's
 * own validation (a loader never hands out a definition grip_create_vehicle would refuse), and
 * its [visual] section must hold what the viewer can use: a model path that is empty or names an
 * existing file, a scale, offset and angles finite and within their ranges. Relative paths
 * (base, tir, model) resolve against the seed corpus folder. */
#include "fuzz_common.h"

#include <math.h>
#include <sys/stat.h>

#include "car_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  grip_car *car = malloc(sizeof *car);
  FUZZ_REQUIRE(car != NULL);
  grip_load_error err;
  grip_load_error_clear(&err);
  if (grip_car_parse(text, "fuzz.ini", GRIP_SOURCE_DIR "/tests/fuzz/corpus/car", car, &err) == 0) {
    char message[200];
    FUZZ_REQUIRE(grip_vehicle_def_validate(&car->def, message, sizeof message) == GRIP_OK);
    const grip_car_visual *v = &car->visual;
    struct stat st;
    FUZZ_REQUIRE(v->model[0] == '\0' || (stat(v->model, &st) == 0 && S_ISREG(st.st_mode)));
    FUZZ_REQUIRE(v->scale >= 1e-4 && v->scale <= 1e4);
    FUZZ_REQUIRE(fabs(v->offset.x) <= 50.0 && fabs(v->offset.y) <= 50.0 && fabs(v->offset.z) <= 50.0);
    FUZZ_REQUIRE(fabs(v->yaw) <= 6.3 && fabs(v->pitch) <= 6.3 && fabs(v->roll) <= 6.3);
  } else {
    FUZZ_REQUIRE(err.message[0] != '\0');
  }
  free(car);
  free(text);
  return 0;
}
