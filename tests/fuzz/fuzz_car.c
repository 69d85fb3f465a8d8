/* Fuzz harness: grip car files (INI), parsed from memory. An accepted car must pass the core's
 * own validation (a loader never hands out a definition grip_create_vehicle would refuse). */
#include "fuzz_common.h"

#include "car_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  grip_car *car = malloc(sizeof *car);
  FUZZ_REQUIRE(car != NULL);
  grip_load_error err;
  grip_load_error_clear(&err);
  if (grip_car_parse(text, "fuzz.ini", NULL, car, &err) == 0) {
    char message[200];
    FUZZ_REQUIRE(grip_vehicle_def_validate(&car->def, message, sizeof message) == GRIP_OK);
  } else {
    FUZZ_REQUIRE(err.message[0] != '\0');
  }
  free(car);
  free(text);
  return 0;
}
