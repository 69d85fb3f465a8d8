/* What the track harnesses (fuzz_track, fuzz_torcs_track) require of a file: opened as the
 * tools open it (read, converted, checked, built), either refused with a message or a track
 * whose figures are finite and pass the documented whole-track checks (docs/tracks.md). */
#ifndef GRIP_FUZZ_TRACK_CHECK_H
#define GRIP_FUZZ_TRACK_CHECK_H

#include <math.h>

#include "fuzz_common.h"
#include "track_file.h"

static inline void fuzz_open_track(const char *path) {
  grip_track *track = NULL;
  grip_track_pit pit;
  grip_load_error err;
  grip_load_error_clear(&err);
  if (grip_track_open_pit(path, &track, NULL, 0, &pit, &err) != 0) {
    FUZZ_REQUIRE(err.message[0] != '\0' && track == NULL);
    return;
  }
  grip_track_stats s = grip_track_get_stats(track);
  /* a pit lane, when there is one, passed its checks: on the track, in order, a box long */
  if (pit.present) FUZZ_REQUIRE(grip_track_pit_check(&pit, s.length, "fuzz", &err) == 0);
  FUZZ_REQUIRE(isfinite(s.length) && s.length >= GRIP_TRACK_MIN_LENGTH);
  FUZZ_REQUIRE(isfinite(s.closure_error) && s.closure_error <= grip_track_max_closure(s.length));
  FUZZ_REQUIRE(isfinite(s.z_min) && isfinite(s.z_max) && isfinite(s.x_min) && isfinite(s.y_max));
  for (int i = 0; i < 8; ++i) {
    grip_track_point p = grip_track_point_at(track, s.length * i / 8.0);
    FUZZ_REQUIRE(isfinite(p.position.x) && isfinite(p.position.y) && isfinite(p.position.z));
  }
  grip_track_destroy(track);
}

#endif
