/* Fuzz harness: TORCS car XML (the reader takes paths: the input goes through a temporary
 * file), on top of the test category tests/data/torcs/categories/fixcat.xml. An accepted car
 * must pass the core's own validation. */
#include "fuzz_common.h"

#include "torcs_car.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_temp_file(data, size, ".xml");
  grip_car *car = malloc(sizeof *car);
  FUZZ_REQUIRE(car != NULL);
  grip_load_error err;
  grip_load_error_clear(&err);
  if (grip_torcs_load(path, GRIP_SOURCE_DIR "/tests/data/torcs/categories/fixcat.xml", NULL, car,
                      &err) == 0) {
    char message[200];
    FUZZ_REQUIRE(grip_vehicle_def_validate(&car->def, message, sizeof message) == GRIP_OK);
  } else {
    FUZZ_REQUIRE(err.message[0] != '\0');
  }
  free(car);
  return 0;
}
