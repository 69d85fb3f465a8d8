/* grip — the built-in infinite plane's raycast, inline: grip_plane_raycast (ground.c) is this
 * function, and the vehicle step calls it directly on a plane ground, so that the rays run in
 * the step's own code (src/isa.h) without a call through the ground's pointer. */
#ifndef GRIP_GROUND_PLANE_H
#define GRIP_GROUND_PLANE_H

#include <stddef.h>

#include "gmath.h"
#include "grip/ground.h"

static inline bool plane_raycast(const grip_plane *plane, grip_vec3 origin, grip_vec3 direction, double max_distance,
                                 grip_ground_hit *hit) {
  double denom = v3_dot(plane->normal, direction);
  if (denom > -1e-12) return false; /* parallel, or hitting the plane from below */
  double t = (plane->offset - v3_dot(plane->normal, origin)) / denom;
  if (t < 0.0 || t > max_distance) return false;
  hit->point = v3_mad(origin, direction, t);
  hit->normal = plane->normal;
  hit->distance = t;
  hit->surface = plane->surface;
  hit->velocity = (grip_vec3){0.0, 0.0, 0.0}; /* grip's grounds stand still */
  hit->body = NULL;
  return true;
}

#endif
