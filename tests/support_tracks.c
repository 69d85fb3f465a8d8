#include "support_tracks.h"

#include "support_random.h"

#include "ground_flat.h"

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

support_flat_check support_check_flatness(const grip_track *t, int n, double reach) {
  support_flat_check r = {0, 0, 0, 0.0, 0.0};
  unsigned long long rng = 0x2545f4914f6cdd1dull;
  grip_track_ground_context ctx;
  grip_ground ground = grip_track_ground(&ctx, t);
  int count = grip_track_segment_count(t), carried = -1;
  double length = grip_track_length(t);
  for (int k = 0; k < n; ++k) {
    double s = length * support_uniform(&rng);
    double lateral = (2.0 * support_uniform(&rng) - 1.0) * reach;
    grip_track_point c = grip_track_point_at(t, s);
    double x = c.position.x - sin(c.heading) * lateral, y = c.position.y + cos(c.heading) * lateral;
    grip_track_location at = grip_track_locate(t, x, y, -1);
    /* a wheel's ray: from 0.3–1 m above, leaning by up to 5 % */
    grip_vec3 dir = {0.1 * (support_uniform(&rng) - 0.5), 0.1 * (support_uniform(&rng) - 0.5), -1.0};
    double norm = sqrt(dir.x * dir.x + dir.y * dir.y + dir.z * dir.z);
    dir = (grip_vec3){dir.x / norm, dir.y / norm, dir.z / norm};
    double above = 0.3 + 0.7 * support_uniform(&rng);
    grip_vec3 origin = {x - dir.x * above, y - dir.y * above, at.z + above};
    int hint = k % 2 ? carried : -1;
    grip_ground_query q = {.user_data = NULL, .wheel = k % 4, .hint = &hint};
    grip_ground_hit hit;
    ground_flat_ref ref = {NULL, 0.0, 0.0, false};
    if (!grip_track_raycast_flat(ground.context, &q, origin, dir, above + 2.0, &hit, &ref)) continue;
    ground_flatness flat = grip_ground_flatness(&ref);
    ++r.hits;
    carried = hint;
    if (!(flat.radius > 0.0)) continue;
    ++r.claims;
    grip_vec3 p = hit.point, m = hit.normal;
    double gx = -m.x / m.z, gy = -m.y / m.z; /* the plane's gradient */
    for (int j = 0; j < 12; ++j) {
      /* uniform over the disc, a third of them in its outer tenth */
      double u = support_uniform(&rng), a = 2.0 * 3.14159265358979323846 * support_uniform(&rng);
      double d = flat.radius * (j % 3 == 0 ? 0.9 + 0.1 * u : sqrt(u));
      double qx = p.x + d * cos(a), qy = p.y + d * sin(a);
      double bound = d * (flat.slope + 0.5 * flat.curvature * d);
      double grad_bound = flat.slope + flat.curvature * d;
      int qhint;
      switch (j % 4) {
      case 0: qhint = -1; break;
      case 1: qhint = (int)(support_uniform(&rng) * count) % count; break;
      case 2: qhint = (hint + 1) % count; break;
      default: qhint = hint; break;
      }
      double plane_z = p.z + gx * (qx - p.x) + gy * (qy - p.y);
      grip_track_location l = grip_track_locate(t, qx, qy, qhint);
      /* the body's probe: a vertical ray with the body's hint */
      grip_ground_query bq = {.user_data = NULL, .wheel = GRIP_GROUND_QUERY_BODY, .hint = &qhint};
      grip_ground_hit bh;
      bool bfound = ground.raycast(ground.context, &bq, (grip_vec3){qx, qy, plane_z + bound + 3.0},
                                   (grip_vec3){0.0, 0.0, -1.0}, 10.0 + bound, &bh);
      double zs[2] = {l.z, bfound ? bh.point.z : -INFINITY};
      grip_vec3 ns[2] = {l.normal, bfound ? bh.normal : l.normal};
      for (int e = 0; e < 2; ++e) {
        double rise = zs[e] - plane_z;
        double dgx = -ns[e].x / ns[e].z - gx, dgy = -ns[e].y / ns[e].z - gy;
        double change = sqrt(dgx * dgx + dgy * dgy);
        if (!(rise <= bound + 1e-6) || !(change <= grad_bound + 1e-9)) ++r.violations;
        r.worst_share = fmax(r.worst_share, rise / (bound + 1e-6));
        r.worst_gradient_share = fmax(r.worst_gradient_share, change / (grad_bound + 1e-9));
      }
    }
  }
  return r;
}

/* Bit for bit, as doubles seen through their bytes (a NaN or a zero's sign counts). */
static bool same_bits(const void *a, const void *b, size_t size) { return memcmp(a, b, size) == 0; }

static bool same_hit(const grip_ground_hit *a, const grip_ground_hit *b) {
  return same_bits(&a->point, &b->point, sizeof a->point) && same_bits(&a->normal, &b->normal, sizeof a->normal) &&
         same_bits(&a->distance, &b->distance, sizeof a->distance) && same_surface(&a->surface, &b->surface) &&
         same_bits(&a->velocity, &b->velocity, sizeof a->velocity) && a->body == b->body;
}

support_batch_check support_check_ray_batches(const grip_track *t, int groups, double reach) {
  unsigned long long rng = 0x9e3779b97f4a7c15ull;
  grip_track_ground_context ctx;
  grip_ground ground = grip_track_ground(&ctx, t);
  int count = grip_track_segment_count(t);
  support_batch_check r = {0, 0, 0, 0, 0.0, 0.0};
  double length = grip_track_length(t), s = 0.0, lateral = 0.0;
  grip_ground_hit last[4];
  bool last_found[4] = {false, false, false, false};
  int carried[4] = {-1, -1, -1, -1};
  for (int g = 0; g < groups; ++g) {
    /* runs of 40 groups 0.1 m apart (a car at 50 m/s, dt 0.002), each run from a random place */
    if (g % 40 == 0) {
      s = length * support_uniform(&rng);
      lateral = (2.0 * support_uniform(&rng) - 1.0) * reach;
      for (int w = 0; w < 4; ++w) last_found[w] = false;
    } else {
      s = fmod(s + 0.1, length);
    }
    grip_track_point c = grip_track_point_at(t, s);
    double yaw = c.heading + 0.2 * (support_uniform(&rng) - 0.5);
    /* one direction for the four, as a vehicle's down: leaning by up to 5 % */
    grip_vec3 dir = {0.1 * (support_uniform(&rng) - 0.5), 0.1 * (support_uniform(&rng) - 0.5), -1.0};
    double norm = sqrt(dir.x * dir.x + dir.y * dir.y + dir.z * dir.z);
    dir = (grip_vec3){dir.x / norm, dir.y / norm, dir.z / norm};
    ground_ray_batch rays;
    grip_ground_query *query = rays.query;
    grip_vec3 *origin = rays.origin;
    double *distance = rays.max_distance;
    rays.direction = dir;
    int batch_hint[4], single_hint[4];
    for (int w = 0; w < 4; ++w) {
      /* a car's wheels: 1.3 m ahead or behind, 0.8 m left or right of a point off the centre line */
      double ax = w < 2 ? 1.3 : -1.3, ay = w % 2 ? -0.8 : 0.8;
      double cx = c.position.x - sin(c.heading) * lateral, cy = c.position.y + cos(c.heading) * lateral;
      double x = cx + cos(yaw) * ax - sin(yaw) * ay, y = cy + sin(yaw) * ax + cos(yaw) * ay;
      grip_track_location at = grip_track_locate(t, x, y, -1);
      double above = 0.3 + 0.7 * support_uniform(&rng);
      origin[w] = (grip_vec3){x - dir.x * above, y - dir.y * above, at.z + above};
      distance[w] = above + 2.0;
      /* the hint a car carries, none, or a random segment's */
      int h = g % 7 == 3 ? -1 : g % 7 == 5 ? (int)(support_uniform(&rng) * count) % count : carried[w];
      batch_hint[w] = single_hint[w] = h;
      query[w] = (grip_ground_query){.user_data = NULL, .wheel = w, .hint = &batch_hint[w]};
      if (last_found[w] && g % 5 != 0) {
        query[w].has_last_hit = true;
        query[w].last_point = last[w].point;
        query[w].last_normal = last[w].normal;
      }
    }
    const grip_ground_hit *hit = rays.hit;
    const bool *found = rays.found;
    ground_flat_ref ref[4] = {{NULL, 0.0, 0.0, false}, {NULL, 0.0, 0.0, false}, {NULL, 0.0, 0.0, false},
                              {NULL, 0.0, 0.0, false}};
    for (int w = 0; w < 4; ++w) rays.flat[w] = &ref[w];
    grip_track_raycast_flat_n(ground.context, 4, &rays);
    for (int w = 0; w < 4; ++w) {
      grip_ground_query q = query[w];
      q.hint = &single_hint[w];
      grip_ground_hit one;
      ground_flat_ref one_ref = {NULL, 0.0, 0.0, false};
      bool one_found = grip_track_raycast_flat(ground.context, &q, origin[w], dir, distance[w], &one, &one_ref);
      bool same = one_found == found[w] && batch_hint[w] == single_hint[w];
      if (same && one_found)
        same = same_hit(&one, &hit[w]) && one_ref.track == ref[w].track && one_ref.plane == ref[w].plane &&
               same_bits(&one_ref.u, &ref[w].u, sizeof one_ref.u) && same_bits(&one_ref.t, &ref[w].t, sizeof one_ref.t);
      if (!same) ++r.differ;
      ++r.cast;
      if (found[w]) {
        /* where the ray meets the surface: on the ray, at the located height, with its normal
         * and surface */
        ++r.hits;
        grip_vec3 p = hit[w].point;
        grip_vec3 on_ray = {origin[w].x + dir.x * hit[w].distance, origin[w].y + dir.y * hit[w].distance,
                            origin[w].z + dir.z * hit[w].distance};
        /* from the segment the ray left as its hint: where the track passes over itself, the
         * level the ray found */
        grip_track_location l = grip_track_locate(t, p.x, p.y, batch_hint[w]);
        double dz = fabs(p.z - l.z);
        double dn = fmax(fabs(hit[w].normal.x - l.normal.x),
                         fmax(fabs(hit[w].normal.y - l.normal.y), fabs(hit[w].normal.z - l.normal.z)));
        r.worst_height = fmax(r.worst_height, dz);
        r.worst_normal = fmax(r.worst_normal, dn);
        double off = fmax(fabs(p.x - on_ray.x), fmax(fabs(p.y - on_ray.y), fabs(p.z - on_ray.z)));
        if (!(off <= 1e-12) || !(dz <= SUPPORT_RAY_HEIGHT) || !(dn <= SUPPORT_RAY_NORMAL) ||
            !same_surface(&hit[w].surface, &l.surface))
          ++r.off_surface;
      }
      last[w] = hit[w];
      last_found[w] = found[w];
      carried[w] = batch_hint[w];
    }
  }
  return r;
}
