/* Fuzz harness: TORCS track XML (the reader takes a path: the input goes through a temporary
 * file), opened as the tools open it (read, converted, checked, built). */
#include "fuzz_common.h"

#include <math.h>

#include "track_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_temp_file(data, size, ".xml");
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
  grip_track_destroy(track);
  return 0;
}
