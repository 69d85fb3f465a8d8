/* Tracks built in code for the tests (tests/support_*.c are linked into every test). */
#ifndef GRIP_SUPPORT_TRACKS_H
#define GRIP_SUPPORT_TRACKS_H

#include "grip/grip.h"
#include "grip/track.h"

/* A flat circle of centre-line radius R (four 90° left arcs, the segment defaults otherwise:
 * width 12 m), starting at the origin heading +x, so centred at (0, R). NULL if it does not
 * build. */
grip_track *support_circle_track(double radius);

/* A native track file's text (docs/tracks.md): an oval turning left, 1628.32 m (2·500 + 2·π·100),
 * 12 m road, 1 m kerbs, 15 m asphalt run-offs, its pit lane on the right (the outside) from 150 m
 * before the line to 450 m after it, boxes from 20 m to 320 m, limit 20 m/s. */
extern const char *const support_pit_oval_text;

/* The lighter queries against grip_track_locate at n points of the track, every other one in
 * order along it and the rest at random: within `reach` m of the centre line (a seventh out to
 * three times as far), five in eight from the hint a car carries along, the rest without a hint,
 * from their own segment's neighbour or from a random segment. At each point:
 * - grip_track_locate_progress must give the segment, distance and lateral in every bit;
 * - the track's ground (grip_track_ground), asked for a vertical ray from 0.5–4.5 m above the
 *   located height by a wheel or the body with the same hint, must hit the located point (the
 *   same x and y, the height within 1e-12 m), with its normal (each component within 1e-13) and
 *   surface (every field), and leave the located segment as the query's hint. */
typedef struct support_query_check {
  int progress_mismatches; /* points whose progress locate differs */
  int ray_mismatches;      /* points whose ray differs */
  double worst_height;     /* m, the largest height difference of a ray's hit */
  double worst_normal;     /* the largest difference of a normal's component */
} support_query_check;
support_query_check support_check_queries(const grip_track *t, int n, double reach);

/* The flatness the track vouches for around a wheel's hit (src/ground_flat.h), at n hits from rays
 * cast as a wheel's, tilted by up to 5 % and from points drawn as in support_check_queries: at 12
 * points within the claim's radius of each hit that has one, drawn uniformly over the disc, the
 * located height (grip_track_locate with a carried, neighbouring, random or no hint, and a
 * vertical body ray with the same hint) must lie no higher than the hit's plane by more than
 * slope·d + curvature·d²/2 (+1e-6 m), and the located normal's gradient differ from the
 * plane's by at most slope + curvature·d (+1e-9). */
typedef struct support_flat_check {
  int hits;           /* rays that hit */
  int claims;         /* of them, hits with a claim */
  int violations;     /* points where a claim failed */
  double worst_share; /* the largest rise above the plane as a share of its bound (+1e-6 m) */
  double worst_gradient_share; /* the same for the gradient's change (+1e-9) */
} support_flat_check;
support_flat_check support_check_flatness(const grip_track *t, int n, double reach);

/* A vehicle's four wheel rays in one call (grip_track_raycast_flat_n): `groups` groups of four,
 * as a car's wheels around a point within `reach` m of the centre line, tilted by up to 5 %, in
 * runs of 40 groups 0.1 m apart, each with the hint it carried, none or a random segment's, and
 * most with the last group's hit as the starting guess. Each ray against the same ray in a call
 * of its own (grip_track_raycast_flat), every bit of found, hit, flatness reference and the hint
 * left; and each hit against the track's geometry: on the ray (within 1e-12 m), at the height
 * grip_track_locate gives at its x and y (within SUPPORT_RAY_HEIGHT), with that normal (each
 * component within SUPPORT_RAY_NORMAL) and surface. */
/* m: a ray stops once a pass moves its point by at most GROUND_FLAT_SETTLED (1e-6 m)
 * horizontally, so its hit lies on the tangent plane of a point up to that far away, or of its
 * last pass's point when it runs out of passes. On a smooth surface that is ~1e-14 m (8.7e-15 seen
 * on the three tracks of test_track); where the cross-section's slope changes between the two
 * points (a kerb's edge) it is that change times the distance: 1.4e-7 m seen over the 38 TORCS
 * tracks, a slope change of up to 1 allowed. */
#define SUPPORT_RAY_HEIGHT 1e-6
/* the normal is that of the point located last, up to GROUND_FLAT_SETTLED from the hit: it turns
 * by the surface's curvature times that (3e-8 seen) */
#define SUPPORT_RAY_NORMAL 1e-6
typedef struct support_batch_check {
  int cast;           /* rays cast */
  int differ;         /* of them, rays whose batch and single results differ in any bit */
  int hits;           /* rays that hit */
  int off_surface;    /* hits off the ray or the located surface */
  double worst_height; /* m, the largest height difference from the located surface */
  double worst_normal; /* the largest difference of a normal's component */
} support_batch_check;
support_batch_check support_check_ray_batches(const grip_track *t, int groups, double reach);

#endif
