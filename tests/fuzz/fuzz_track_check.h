/* What the track harnesses (fuzz_track, fuzz_torcs_track) require of a file: opened as the
 * tools open it (read, converted, checked, built), either refused with a message or a track
 * whose figures are finite and pass the documented whole-track checks (docs/tracks.md), and
 * whose queries, as a car's step makes them, give finite answers: at 8 points along the track,
 * each on the centre line, at the road's edges and beyond them, a locate, a downward wheel ray
 * (as the ground adapter casts it, with a hint) and a barrier query; and barrier queries around
 * the first 32 segment ends, out in the run-offs and beyond. */
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
  grip_track_ground_context ground_ctx, barrier_ctx;
  grip_ground ground = grip_track_ground(&ground_ctx, track);
  grip_barrier barrier = grip_track_barriers(&barrier_ctx, track);
  int hint = -1;
  grip_ground_query query = {.user_data = NULL, .wheel = 0, .hint = &hint};
  for (int i = 0; i < 8; ++i) {
    grip_track_point p = grip_track_point_at(track, s.length * i / 8.0);
    FUZZ_REQUIRE(isfinite(p.position.x) && isfinite(p.position.y) && isfinite(p.position.z));
    static const double across[5] = {0.0, 0.5, -0.5, 0.75, -1.5}; /* × the road's width */
    for (int k = 0; k < 5; ++k) {
      double lat = across[k] * p.width, x = p.position.x - sin(p.heading) * lat, y = p.position.y + cos(p.heading) * lat;
      grip_track_location loc = grip_track_locate(track, x, y, hint);
      FUZZ_REQUIRE(loc.segment >= 0 && isfinite(loc.distance) && isfinite(loc.lateral) && isfinite(loc.z));
      FUZZ_REQUIRE(isfinite(loc.normal.x) && isfinite(loc.normal.y) && isfinite(loc.normal.z));
      grip_ground_hit hit;
      grip_vec3 origin = {x, y, loc.z + 1.0}, down = {0.01, -0.01, -1.0};
      if (ground.raycast(ground.context, &query, origin, down, 3.0, &hit))
        FUZZ_REQUIRE(isfinite(hit.point.x) && isfinite(hit.point.z) && isfinite(hit.normal.z) && isfinite(hit.distance));
      grip_barrier_hit wall;
      if (barrier.query(barrier.context, &query, x, y, &wall))
        FUZZ_REQUIRE(isfinite(wall.distance) && isfinite(wall.normal.x) && isfinite(wall.normal.y) && isfinite(wall.top));
    }
  }
  /* Around segment ends, out in the run-offs and past the barriers, where a query also looks at
   * the barrier beyond its own segment (a run-off ending in a taper or a step). */
  int segments = grip_track_segment_count(track);
  for (int i = 0; i < segments && i < 32; ++i) {
    for (int k = 0; k < 4; ++k) {
      grip_track_point p = grip_track_point_at(track, grip_track_segment_start(track, i) + (k < 2 ? -0.5 : 0.5));
      double lat = (k % 2 ? -1.0 : 1.0) * (0.5 * p.width + 3.0 * (k + 1));
      double x = p.position.x - sin(p.heading) * lat, y = p.position.y + cos(p.heading) * lat;
      grip_barrier_hit wall;
      if (barrier.query(barrier.context, &query, x, y, &wall))
        FUZZ_REQUIRE(isfinite(wall.distance) && isfinite(wall.normal.x) && isfinite(wall.normal.y) && isfinite(wall.top));
    }
  }
  grip_track_destroy(track);
}

#endif
