/* The ground interface's built-in infinite plane. */
#include "grip/ground.h"

#include <stddef.h>

#include "gmath.h"
#include "ground_plane.h"

grip_surface grip_default_surface(void) {
  return (grip_surface){.friction = 1.0, .rolling_resistance = 0.012, .roughness_amplitude = 0.0,
                        .roughness_wavelength = 1.5, .id = 0};
}

grip_plane grip_default_plane(void) {
  return (grip_plane){.normal = v3(0.0, 0.0, 1.0), .offset = 0.0, .surface = grip_default_surface()};
}

grip_plane grip_slope_plane(double grade_x, double grade_y) {
  /* z = grade_x·x + grade_y·y  <=>  (-gx, -gy, 1)·p = 0 */
  grip_plane p = grip_default_plane();
  p.normal = v3_normalize(v3(-grade_x, -grade_y, 1.0));
  return p;
}

grip_ground_query grip_no_vehicle_query(void) {
  return (grip_ground_query){.user_data = NULL, .wheel = GRIP_GROUND_QUERY_BODY, .hint = NULL};
}

bool grip_plane_raycast(void *context, const grip_ground_query *query, grip_vec3 origin, grip_vec3 direction,
                        double max_distance, grip_ground_hit *hit) {
  (void)query; /* a plane needs no memory of earlier queries */
  return plane_raycast(context, origin, direction, max_distance, hit);
}

grip_ground grip_plane_ground(const grip_plane *plane) {
  return (grip_ground){.raycast = grip_plane_raycast, .context = (void *)plane};
}
