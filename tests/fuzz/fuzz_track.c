/* Fuzz harness: grip's native track files, opened as the tools open them (read, parsed,
 * checked, built). An accepted track must have finite figures that pass the documented checks. */
#include "fuzz_common.h"

#include <math.h>

#include "track_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_temp_file(data, size, ".track");
  grip_track *track = NULL;
  grip_load_error err;
  grip_load_error_clear(&err);
  if (grip_track_open(path, &track, NULL, 0, &err) != 0) {
    FUZZ_REQUIRE(err.message[0] != '\0' && track == NULL);
    return 0;
  }
  grip_track_stats s = grip_track_get_stats(track);
  FUZZ_REQUIRE(isfinite(s.length) && s.length >= GRIP_TRACK_MIN_LENGTH);
  FUZZ_REQUIRE(isfinite(s.closure_error) && s.closure_error <= grip_track_max_closure(s.length));
  FUZZ_REQUIRE(isfinite(s.z_min) && isfinite(s.z_max) && isfinite(s.x_min) && isfinite(s.y_max));
  for (int i = 0; i < 8; ++i) {
    grip_track_point p = grip_track_point_at(track, s.length * i / 8.0);
    FUZZ_REQUIRE(isfinite(p.position.x) && isfinite(p.position.y) && isfinite(p.position.z));
  }
  grip_track_destroy(track);
  return 0;
}
