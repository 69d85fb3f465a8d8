/* Meshes generated from grip's own descriptions: a track from its geometry, a terrain from its
 * heightfield, a car body from its definition. */
#ifndef GRIP_VIEWER_WORLD_MESH_H
#define GRIP_VIEWER_WORLD_MESH_H

#include "grip/grip.h"
#include "grip/heightfield.h"
#include "grip/track.h"
#include "mesh.h"

/* Road (banked as the track is), kerbs in red and white, run-offs coloured by surface (grass,
 * sand, gravel, tarmac), barriers at the run-offs' outer edges reaching down to ground_z, and the
 * start line. Positions relative to origin (m, world). */
void world_mesh_track(mesh_data *m, const grip_track *track, const double origin[3], double ground_z);

/* Where a texture lies on the terrain: texture coordinates linear in world x and y (m),
 * u = u0 + u_per_m·x, v = v0 + v_per_m·y, v counted from the image's top (north) row. clamp: the
 * image covers only part of the terrain; outside [0, 1] the terrain keeps its own colours. */
typedef struct terrain_uv {
  double u0, u_per_m, v0, v_per_m;
  bool clamp;
} terrain_uv;

/* An image covering the grid's cell extent exactly (the outer cell edges, as GDAL georeferences
 * a raster of the same extent), first row north. */
terrain_uv terrain_uv_extent(const grip_heightfield_info *info);

/* Terrain cells [c0, c1) × [r0, r1) sampled every `stride` samples, relative to origin, with
 * texture coordinates from uv. Colours by height and slope where there is no texture. */
void world_mesh_terrain(mesh_data *m, const grip_heightfield *hf, int c0, int c1, int r0, int r1, int stride,
                        const double origin[3], const terrain_uv *uv);

/* The car's body in its design frame, from the body box and the axles: a lower body, a cabin
 * with glass, lights. color is the paint. The brake lights are a separate mesh (brake_lights)
 * so that they can light up. */
void world_mesh_car_body(mesh_data *m, const grip_vehicle_def *def, const float color[3]);
void world_mesh_car_brake_lights(mesh_data *m, const grip_vehicle_def *def);

/* Colour of a surface as seen from above (grass green, sand, gravel, tarmac grey). */
void world_surface_color(const grip_surface *s, float out[3]);

#endif
