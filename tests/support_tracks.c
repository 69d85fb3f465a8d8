#include "support_tracks.h"

#include <stddef.h>

grip_track *support_circle_track(double radius) {
  grip_track_segment_def seg[4];
  for (int i = 0; i < 4; ++i) {
    seg[i] = grip_default_track_segment_def();
    seg[i].type = GRIP_TRACK_LEFT;
    seg[i].radius = seg[i].end_radius = radius;
    seg[i].angle = 0.5 * 3.14159265358979323846;
    seg[i].z_end = seg[i].z_start = 0.0;
    seg[i].slope_start = seg[i].slope_end = 0.0;
    seg[i].cross_start = seg[i].cross_end = 0.0;
    seg[i].cross_rate_start = seg[i].cross_rate_end = 0.0;
  }
  grip_track_def def = {.segments = seg, .segment_count = 4, .start_position = {0, 0, 0}, .start_heading = 0};
  grip_track *t = NULL;
  return grip_track_build(&def, &t) == GRIP_OK ? t : NULL;
}
