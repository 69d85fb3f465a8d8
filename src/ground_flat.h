/* What grip's own grounds vouch for around a ray's hit, so that the body's probe can leave out
 * rays that could not touch (ground_contact.c). Not public: a ground is trusted only when the
 * world's raycast is grip's own plane or track (a user's callback that forwards their hits may
 * add ground of its own next to them). */
#ifndef GRIP_GROUND_FLAT_H
#define GRIP_GROUND_FLAT_H

#include <math.h>
#include <stdbool.h>

#include "grip/ground.h"
#include "grip/track.h"
#include "grip/vehicle.h"

/* Within radius (m, horizontally) of a hit's point, at a horizontal distance d from it:
 *   - the ground lies at most slope·d + curvature·d²/2 above the hit's plane (point, normal);
 *   - its gradient (dz/dx, dz/dy) differs from the plane's by at most slope + curvature·d.
 * slope (1) bounds the jumps of the gradient across creases (a segment's end, a road edge whose
 * run-off does not follow the banking), curvature (1/m) the rate of its change elsewhere.
 * radius 0: no claim. The claim holds to within 1e-6 m: a track's hit lies within 1e-6 m of the
 * point whose plane it reports, and heights may step by up to 1e-8 m at a segment's end (a track
 * whose heights step by more makes no claim there). Callers keep a margin above that (the body's
 * probe 1e-5 m). */
typedef struct ground_flatness {
  double radius;    /* m: 0 none; 2.5 on a track's road; INFINITY on a plane */
  double slope;     /* 1: 0 on a plane; 0 within a segment away from its road edges; ~0.0004 (median of
                       e-track-4's segments) near their ends, ~0.05 near a flat run-off's edge */
  double curvature; /* 1/m: 0 on a plane; ~0.002 (median of e-track-4's segments) */
} ground_flatness;

/* Where a hit's claim is looked up: what a ray leaves, cheaply, for a claim that is asked for only
 * when a box point comes near the ground. */
typedef struct ground_flat_ref {
  const struct track_flat *track; /* the track segment's claims (built in src/track.c), or NULL */
  double u, t;                    /* m, the hit's local distance and lateral offset on it */
  bool plane;                     /* grip's own plane: flat everywhere */
} ground_flat_ref;

/* grip_track_raycast, and where to look up the flatness around the hit in *flat (its track field
 * NULL where there is none; plane left alone). */
bool grip_track_raycast_flat(void *context, const grip_ground_query *query, grip_vec3 origin, grip_vec3 direction,
                             double max_distance, grip_ground_hit *hit, ground_flat_ref *flat);

/* Rays along one direction (a vehicle's wheels), ray i with query[i] from origin[i] up to
 * max_distance[i]; what they find in hit[i], found[i] and *flat[i]. One struct, so that the
 * batch's entry point takes its arguments in registers. */
typedef struct ground_ray_batch {
  grip_ground_query query[GRIP_MAX_WHEELS];
  grip_vec3 origin[GRIP_MAX_WHEELS];    /* m, world */
  double max_distance[GRIP_MAX_WHEELS]; /* m, ~0.7 for a car's wheel */
  grip_vec3 direction;                  /* unit, world: down the body's z axis for the wheels */
  grip_ground_hit hit[GRIP_MAX_WHEELS];
  bool found[GRIP_MAX_WHEELS];
  ground_flat_ref *flat[GRIP_MAX_WHEELS];
} ground_ray_batch;

/* The first n rays of the batch by grip_track_raycast_flat in one call: the same results as n
 * calls, without a call each. */
void grip_track_raycast_flat_n(void *context, int n, ground_ray_batch *rays);

/* For the tests: how many (segment, segment) pairs of the track build_flatness's grid of
 * candidates classifies otherwise than a test of every pair would (0; −1 when it cannot be
 * built), and in *near_pairs how many pairs come near. */
long grip_track_flat_grid_check(const struct grip_track *track, long *near_pairs);

/* m: the radius a track's hit vouches for: more than a car's box reaches horizontally from its
 * nearest wheel's contact (a corner overhangs an axle by ~1 m, the middle points lie half a
 * wheelbase from one). */
#define GROUND_FLAT_RADIUS 2.5
/* m: a track's ray settles when a pass moves its point by no more than this (src/track.c) */
#define GROUND_FLAT_SETTLED 1e-6

/* What a ray's hit on a segment vouches for (ground_flatness), by its lateral offset t: the
 * claim holds for t <= band[LEFT] and −t <= band[RIGHT], with slope_inner for t <= inner[LEFT]
 * and −t <= inner[RIGHT] (no road edge's crease within GROUND_FLAT_RADIUS), slope_edge[side of t]
 * otherwise (both edges' where the road is narrower than 2·GROUND_FLAT_RADIUS). A hit whose local
 * distance lies within `interior` has the segment's own claim (own): no end of it within reach. */
typedef struct flat_claim {
  double curvature, slope_inner, slope_edge[2];
  double inner[2], band[2];
} flat_claim;
typedef struct track_flat {
  flat_claim run, own;
  double interior[2]; /* m, local distances: GROUND_FLAT_RADIUS·q from either end (empty: none) */
} track_flat;

/* The flatness a hit vouches for (radius 0: none); inline, for the body's probe. */
static inline ground_flatness grip_ground_flatness(const ground_flat_ref *ref) {
  if (ref->plane) return (ground_flatness){INFINITY, 0.0, 0.0};
  const track_flat *tf = ref->track;
  if (!tf) return (ground_flatness){0.0, 0.0, 0.0};
  const flat_claim *f = ref->u >= tf->interior[0] && ref->u <= tf->interior[1] ? &tf->own : &tf->run;
  double t = ref->t;
  if (!(t <= f->band[GRIP_TRACK_SIDE_LEFT] && -t <= f->band[GRIP_TRACK_SIDE_RIGHT]))
    return (ground_flatness){0.0, 0.0, 0.0};
  bool inner = t <= f->inner[GRIP_TRACK_SIDE_LEFT] && -t <= f->inner[GRIP_TRACK_SIDE_RIGHT];
  int side = t >= 0.0 ? GRIP_TRACK_SIDE_LEFT : GRIP_TRACK_SIDE_RIGHT;
  /* the plane is the tangent plane at the located point, within GROUND_FLAT_SETTLED of the hit's
   * point: curvature·GROUND_FLAT_SETTLED more slope covers the distance's difference (and
   * 1e-6·slope of height, within the claim's 1e-6 m) */
  double slope = (inner ? f->slope_inner : f->slope_edge[side]) + f->curvature * GROUND_FLAT_SETTLED;
  return (ground_flatness){slope <= 1.0 ? GROUND_FLAT_RADIUS : 0.0, slope, f->curvature};
}

#endif
