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

const char *const support_pit_oval_text =
    "name Pit Oval\n"
    "width 12\n"
    "kerb 1\n"
    "runoff 15\n"
    "runoff-surface asphalt\n"
    "barrier 1\n"
    "straight 500\n"
    "arc left radius 100 angle 180\n"
    "straight 500\n"
    "arc left radius 100 angle 180\n"
    "pit side right entry 1478.3185 start 20 end 320 exit 450 box-length 15 box-width 5 speed-limit 20\n";
