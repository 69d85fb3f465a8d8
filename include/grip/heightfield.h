/* grip: a heightfield ground (a regular grid of heights) and named surface presets.
 *
 * Grid layout. Sample (row r, column c) sits at x = origin_x + c·dx, y = origin_y + r·dy with
 * height heights[r·cols + c] (row-major, row 0 the southmost row, column 0 the westmost). The
 * ground between samples is made of flat triangles: each cell [c, c+1] × [r, r+1] is split
 * along the diagonal from its (c+1, r) corner to its (c, r+1) corner (south-east to
 * north-west), so with local coordinates u = (x − x_c)/dx, v = (y − y_r)/dy in [0, 1]:
 *   lower triangle (u + v <= 1): corners (c, r), (c+1, r), (c, r+1)
 *   upper triangle (u + v >  1): corners (c+1, r), (c+1, r+1), (c, r+1)
 * On the diagonal both triangles give the same height. Heights and normals are exact for that
 * piecewise-planar surface (plus the surface's roughness bumps, see grip_surface_bump).
 *
 * Outside the grid the caller chooses: no ground at all, or the edge extended outwards
 * (height(x, y) = height(clamp(x), clamp(y)), so the ground continues level away from the
 * border along the clamped direction).
 *
 * Memory: grip_heightfield_create copies the heights and the surface map, so the caller may
 * free its arrays afterwards. Creation is the only allocation; every query is allocation-free,
 * reads only, and may run concurrently on several threads. */
#ifndef GRIP_HEIGHTFIELD_H
#define GRIP_HEIGHTFIELD_H

#include "ground.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GRIP_HEIGHTFIELD_MAX_SURFACES 16

/* What lies outside the grid. */
typedef enum grip_heightfield_edge {
  GRIP_EDGE_NO_GROUND = 0, /* queries outside return false, rays pass through */
  GRIP_EDGE_CLAMP = 1,     /* the border heights continue outwards forever */
} grip_heightfield_edge;

typedef struct grip_heightfield_def {
  double origin_x;  /* m, world x of sample (row 0, column 0); e.g. 0 */
  double origin_y;  /* m, world y of sample (row 0, column 0); e.g. 0 */
  double dx;        /* m, spacing between columns along +x, > 0; e.g. 1 */
  double dy;        /* m, spacing between rows along +y, > 0; e.g. 1 */
  int rows;         /* samples along y, >= 2; e.g. 257 */
  int cols;         /* samples along x, >= 2; e.g. 257 */
  /* m, rows·cols finite heights, row-major (heights[r·cols + c]); copied at creation. */
  const double *heights;
  grip_heightfield_edge edge; /* outside the grid; default GRIP_EDGE_NO_GROUND */
  /* Optional surface map: (rows−1)·(cols−1) indices, one per cell, row-major
   * (cell_surface[r·(cols−1) + c] for the cell whose lower-left sample is (r, c)), each below
   * surface_count. NULL: every cell uses surfaces[0]. Copied at creation. */
  const uint8_t *cell_surface;
  /* Table of surface_count (1..GRIP_HEIGHTFIELD_MAX_SURFACES) surfaces; copied. NULL with
   * surface_count 0: the default surface (dry asphalt) everywhere. */
  const grip_surface *surfaces;
  int surface_count; /* number of entries in surfaces, 0..16; typically 1 */
} grip_heightfield_def;

/* Origin 0, spacing 1 m, no heights (must be filled in), no ground outside, default surface. */
GRIP_API grip_heightfield_def grip_default_heightfield_def(void);

typedef struct grip_heightfield grip_heightfield; /* opaque */

/* Validates def (sizes, finite values, surface indices) and copies it into a new heightfield.
 * Returns GRIP_INVALID_ARGUMENT (nothing allocated) or GRIP_OUT_OF_MEMORY on failure. */
GRIP_API grip_result grip_heightfield_create(const grip_heightfield_def *def, grip_heightfield **out);

/* Frees a heightfield (NULL is fine). Any grip_ground made from it becomes invalid. */
GRIP_API void grip_heightfield_destroy(grip_heightfield *hf);

/* Figures of a heightfield. */
typedef struct grip_heightfield_info {
  int rows;           /* samples along y; e.g. 257 */
  int cols;           /* samples along x; e.g. 257 */
  double origin_x;    /* m, world x of sample (0, 0) */
  double origin_y;    /* m, world y of sample (0, 0) */
  double dx;          /* m, column spacing; e.g. 1 */
  double dy;          /* m, row spacing; e.g. 1 */
  double min_height;  /* m, lowest sample (without roughness); e.g. 112.5 */
  double max_height;  /* m, highest sample (without roughness); e.g. 240.0 */
  grip_heightfield_edge edge; /* what lies outside the grid */
} grip_heightfield_info;

GRIP_API void grip_heightfield_get_info(const grip_heightfield *hf, grip_heightfield_info *info);

/* The stored heights (rows·cols, row-major), read-only. */
GRIP_API const double *grip_heightfield_heights(const grip_heightfield *hf);

/* The ground at one horizontal position. */
typedef struct grip_ground_sample {
  double height;        /* m, world z of the ground including roughness bumps */
  grip_vec3 normal;     /* unit, pointing up out of the ground */
  grip_surface surface; /* surface of the cell under (x, y) */
} grip_ground_sample;

/* Height, normal and surface at (x, y) (m). Returns false (and leaves *out alone) outside the
 * grid when the edge mode is GRIP_EDGE_NO_GROUND; the grid's border itself is inside. */
GRIP_API bool grip_heightfield_sample(const grip_heightfield *hf, double x, double y,
                             grip_ground_sample *out);

/* Just the height (m) at (x, y); false outside as above. */
GRIP_API bool grip_heightfield_height(const grip_heightfield *hf, double x, double y, double *height);

/* First hit of the ray origin + t·direction, 0 <= t <= max_distance, entering the ground from
 * above (a ray starting under the ground does not hit it from inside, as with the plane).
 * direction must be a unit vector. Walks the cells under the ray's ground track (2D DDA) and
 * tests their two triangles; a near-vertical ray visits one or two cells. The walk is limited to
 * the part of the ray whose height lies between the lowest and highest ground. With roughness,
 * the hit on the smooth triangles is refined by Newton steps onto the bumpy surface (exact for
 * vertical rays). A grip_raycast_fn: context is a const grip_heightfield *. */
GRIP_API bool grip_heightfield_raycast(void *heightfield, const grip_ground_query *query, grip_vec3 origin,
                                       grip_vec3 direction, double max_distance, grip_ground_hit *hit);

/* A ground for the world that uses *hf (which must outlive it). */
GRIP_API grip_ground grip_heightfield_ground(const grip_heightfield *hf);

/* ---- Surfaces ---------------------------------------------------------------------------- */

/* Named surface presets (case-insensitive): "asphalt", "concrete", "grass", "gravel", "sand",
 * "snow", "ice". Friction is a multiplier on the tyre's dry-tarmac mu; rolling resistance is
 * the coefficient f of F = f·Fz for a car tyre. Sources and values: docs/terrain.md. The
 * preset's id is its index in the list above (asphalt 0 … ice 6). An unknown name (or NULL)
 * gives the default surface (dry asphalt); use grip_surface_preset_find to tell. */
GRIP_API grip_surface grip_surface_preset(const char *name);

/* As grip_surface_preset, but returns false for an unknown name (*out = default surface). */
GRIP_API bool grip_surface_preset_find(const char *name, grip_surface *out);

/* Name of preset number index (0..GRIP_SURFACE_PRESET_COUNT−1), or NULL. */
GRIP_API const char *grip_surface_preset_name(int index);
#define GRIP_SURFACE_PRESET_COUNT 7

/* The surface's roughness bumps at (x, y) (m): a sinusoidal egg-crate
 *   b(x, y) = A · sin(k·x) · sin(k·y),  k = 2π / wavelength,
 * of peak amplitude A = roughness_amplitude. Returns b (m), and its slopes ∂b/∂x, ∂b/∂y in
 * *dbdx, *dbdy (either may be NULL). 0 for a smooth surface (amplitude 0 or wavelength <= 0). */
GRIP_API double grip_surface_bump(const grip_surface *surface, double x, double y, double *dbdx,
                         double *dbdy);

#ifdef __cplusplus
}
#endif
#endif
