/* Fuzz harness: VTP .bt terrain files (the reader takes a path: the input goes through a
 * temporary file). An accepted terrain must hold finite heights within the documented range
 * and a usable grid. */
#include "fuzz_common.h"

#include <math.h>

#include "terrain.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_temp_file(data, size, ".bt");
  grip_terrain t;
  grip_load_error err;
  grip_load_error_clear(&err);
  if (!grip_terrain_load(path, &t, &err)) {
    FUZZ_REQUIRE(err.message[0] != '\0');
    return 0;
  }
  FUZZ_REQUIRE(t.rows >= 2 && t.cols >= 2);
  FUZZ_REQUIRE(isfinite(t.dx) && t.dx > 0.0 && isfinite(t.dy) && t.dy > 0.0);
  FUZZ_REQUIRE(isfinite(t.origin_x) && isfinite(t.origin_y));
  for (size_t i = 0; i < (size_t)t.rows * (size_t)t.cols; ++i)
    FUZZ_REQUIRE(fabs(t.heights[i]) <= GRIP_TERRAIN_MAX_ABS_HEIGHT);
  grip_terrain_free(&t);
  return 0;
}
