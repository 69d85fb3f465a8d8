#include "support_tracks.h"

#include "support_random.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

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

static bool same_surface(const grip_surface *a, const grip_surface *b) {
  return a->friction == b->friction && a->rolling_resistance == b->rolling_resistance &&
         a->roughness_amplitude == b->roughness_amplitude && a->roughness_wavelength == b->roughness_wavelength &&
         a->id == b->id;
}

support_query_check support_check_queries(const grip_track *t, int n, double reach) {
  support_query_check r = {0, 0, 0.0, 0.0};
  unsigned long long rng = 0x9e3779b97f4a7c15ull, heights = 0x243f6a8885a308d3ull;
  grip_track_ground_context ctx;
  grip_ground ground = grip_track_ground(&ctx, t);
  int count = grip_track_segment_count(t), carried = -1;
  double length = grip_track_length(t);
  for (int k = 0; k < n; ++k) {
    double s = length * (k % 2 ? support_uniform(&rng) : (double)k / n); /* every other one along */
    double lateral = (2.0 * support_uniform(&rng) - 1.0) * reach * (k % 7 == 0 ? 3.0 : 1.0);
    grip_track_point c = grip_track_point_at(t, s);
    double x = c.position.x - sin(c.heading) * lateral, y = c.position.y + cos(c.heading) * lateral;
    int hint;
    switch (k % 8) {
    case 1: hint = -1; break;
    case 3: hint = (c.segment + 1) % count; break;
    case 5: hint = (int)(support_uniform(&rng) * count) % count; break;
    default: hint = carried; break;
    }
    grip_track_location full = grip_track_locate(t, x, y, hint);
    if (k % 2 == 0) carried = full.segment;

    grip_track_progress p = grip_track_locate_progress(t, x, y, hint);
    if (p.segment != full.segment || memcmp(&p.distance, &full.distance, sizeof p.distance) != 0 ||
        memcmp(&p.lateral, &full.lateral, sizeof p.lateral) != 0)
      ++r.progress_mismatches;

    /* the ray asks with the same hint, which it overwrites */
    double above = 0.5 + 4.0 * support_uniform(&heights);
    grip_ground_query q = {.user_data = NULL, .wheel = k % 3 == 0 ? GRIP_GROUND_QUERY_BODY : k % 4, .hint = &hint};
    grip_ground_hit hit;
    bool found = ground.raycast(ground.context, &q, (grip_vec3){x, y, full.z + above}, (grip_vec3){0.0, 0.0, -1.0},
                                above + 1.0, &hit);
    double dz = found ? fabs(hit.point.z - full.z) : INFINITY;
    double dn = found ? fmax(fabs(hit.normal.x - full.normal.x),
                             fmax(fabs(hit.normal.y - full.normal.y), fabs(hit.normal.z - full.normal.z)))
                      : INFINITY;
    r.worst_height = fmax(r.worst_height, dz);
    r.worst_normal = fmax(r.worst_normal, dn);
    if (!found || hit.point.x != x || hit.point.y != y || !(dz <= 1e-12) || !(dn <= 1e-13) ||
        !same_surface(&hit.surface, &full.surface) || hint != full.segment)
      ++r.ray_mismatches;
  }
  return r;
}
