/* 3D models from files (assimp): TORCS tracks (.acc/.ac) with their textures (PNG/JPEG through
 * stb_image, SGI .rgb through GDAL). Needs a current GL context. */
#ifndef GRIP_VIEWER_MODEL_H
#define GRIP_VIEWER_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "car_file.h"
#include "grip/track.h"
#include "render.h"

typedef struct model_depth_item {
  float distance2; /* m², of a translucent triangle's centroid from the eye */
  int triangle;
} model_depth_item;

typedef struct model_part {
  gpu_mesh mesh;    /* the opaque triangles */
  unsigned texture; /* 0: vertex colours only */
  float opacity;    /* the material's (assimp's opacity: 1 − AC3D's trans), 0..1; 1 typical */
  /* Car models: the triangles that let what is behind them show (material opacity < 1, or a
   * texel of alpha < 250/255 anywhere under them, sampled on a barycentric grid): drawn after
   * everything opaque, blended, without depth writes, their index buffer rewritten back to front
   * for each car drawn (model_draw_translucent_at). */
  gpu_mesh translucent;
  int translucent_count;  /* triangles */
  float *centroids;       /* 3 per translucent triangle, m, model frame */
  uint32_t *tri_indices;  /* 3 per translucent triangle, as loaded */
  uint32_t *sorted;       /* scratch: the indices in drawing order */
  model_depth_item *order; /* scratch: the triangles sorted far to near */
} model_part;

typedef struct model {
  int part_count; /* one part per texture and opacity (draw calls stay few) */
  model_part *parts;
  int triangles;
  int translucent_triangles; /* of them, those drawn blended (car models only) */
  double lo[3], hi[3]; /* m, bounding box of the vertices as loaded (before a track alignment) */
} model;

/* The model file of a TORCS track named by a track spec ("torcs:NAME" or a TORCS .xml path):
 * NAME.acc (or .ac) next to its XML. false when there is none. */
bool model_find_torcs_track(const char *spec, char *path, size_t size);

/* Loads a TORCS model (AC3D axes: y up, converted to z up: world = (x, -z, y)). Textures are
 * searched next to the file, then in TORCS's shared texture folder. With a track, the model is
 * moved onto it (TORCS shifts its coordinates; see model.c) and refused when its road does not
 * line up with the track. Returns false (message on stderr) when the file does not load. */
bool model_load(const char *path, const grip_track *track, model *out);
/* A car's model ([visual] of its car file, or a TORCS car's own .acc), in the car's design frame
 * (car_file.h gives the transform). false (message on stderr) when it does not load. */
bool model_load_car(const grip_car_visual *vis, model *out);
/* The 3×4 row-major transform from model file coordinates to the design frame. */
void model_car_transform(const grip_car_visual *vis, double xf[12]);

/* The car's brake lamps (vis->brake_lamps, z-up positions put through the same offset, rotation
 * and scale as the model) as octagons of that radius facing backwards, 1 cm behind each
 * lamp's centre so that they sit on the model's tail, in dark red (their glow is the draw's
 * emissive colour). Appends to m; returns the number of lamps. */
int model_car_brake_lamps(const grip_car_visual *vis, mesh_data *m);
void model_free(model *m);
void model_draw(renderer *r, const model *m);
/* Drawn at world position with rotation (row-major, world = R·local): the opaque triangles. */
void model_draw_at(renderer *r, const model *m, const double position[3], const double rotation[9]);
/* The translucent triangles of a model drawn at that pose, back to front as seen from the
 * renderer's eye. Call after all opaque geometry (and the sky), with blending on and depth
 * writes off (viewer.c); cars are passed far to near. */
void model_draw_translucent_at(renderer *r, model *m, const double position[3], const double rotation[9]);

#endif
