/* What grip's own grounds vouch for around a ray's hit, so that the body's probe can leave out
 * rays that could not touch (ground_contact.c). Not public: a ground is trusted only when the
 * world's raycast is grip's own plane or track (a user's callback that forwards their hits may
 * add ground of its own next to them). */
#ifndef GRIP_GROUND_FLAT_H
#define GRIP_GROUND_FLAT_H

#include "grip/ground.h"
#include "grip/track.h"

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
  double slope;     /* 1: 0 on a plane; ~0.01 on a track away from its edges */
  double curvature; /* 1/m: 0 on a plane; ~0.005 on a track */
} ground_flatness;

/* grip_track_raycast, and the flatness around the hit in *flat (radius 0 where none is known). */
bool grip_track_raycast_flat(void *context, const grip_ground_query *query, grip_vec3 origin, grip_vec3 direction,
                             double max_distance, grip_ground_hit *hit, ground_flatness *flat);

#endif
