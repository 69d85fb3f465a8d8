/* OpenGL 3.3 core drawing (through libepoxy): lit vertex-coloured meshes with a sun, ambient
 * light and distance haze; a sky; 2D quads for the HUD. Needs a current GL context. */
#ifndef GRIP_VIEWER_RENDER_H
#define GRIP_VIEWER_RENDER_H

#include <stdbool.h>

#include "mesh.h"

typedef struct gpu_mesh {
  unsigned vao, vbo, ebo;
  int index_count;
  double origin[3]; /* m, world point the vertex positions are relative to */
} gpu_mesh;

typedef struct renderer {
  unsigned lit_program, sky_program, flat_program;
  int lit_mvp, lit_model, lit_tint, lit_emissive, lit_sun, lit_eye_dist_scale, lit_use_texture, lit_texture;
  int lit_fog, lit_opacity;
  int sky_inv_view_proj;
  int flat_screen, flat_use_texture, flat_texture;
  unsigned sky_vao;
  unsigned flat_vao, flat_vbo;
  float view_proj[16]; /* camera-relative: the eye is at the origin */
  double eye[3];       /* m, world */
  float fog_distance;  /* m, distance at which haze reaches half; 0 = none */
  /* 2D quads are batched until the texture changes (one draw call per run of quads). */
  float batch[256 * 6 * 8];
  int batch_quads;
  unsigned batch_texture;
  /* Counted by renderer_draw_mesh since the caller last zeroed them (frame statistics). */
  long long draw_calls, triangles;
  /* While set, a texture drawn by renderer_draw_mesh shows only where its coordinates are within
   * [0, 1] (a draped image covering part of a terrain); elsewhere the vertex colours. */
  bool texture_clamp;
  /* The alpha renderer_draw_mesh writes: opacity × the texture's alpha (textured), or opacity.
   * It matters only while blending is on (translucent model parts); 1 otherwise. */
  float opacity;
} renderer;

/* Returns false (with a message on stderr) when a shader does not compile. */
bool renderer_init(renderer *r);
void renderer_free(renderer *r);

bool gpu_mesh_upload(gpu_mesh *g, const mesh_data *m, const double origin[3]);
void gpu_mesh_free(gpu_mesh *g);

/* Sets the camera for the meshes drawn next. eye, target in world m, up a direction, fov_y in
 * rad, aspect = width/height, near/far in m. */
void renderer_set_camera(renderer *r, const double eye[3], const double target[3], const double up[3], double fov_y,
                         double aspect, double near_m, double far_m);
void renderer_draw_sky(renderer *r);
/* Draws a mesh with a model transform: world position (double) and a 3×3 rotation (row-major,
 * world = R·local), tinted (multiplied) and with an unlit emissive part added. texture 0 = none. */
void renderer_draw_mesh(renderer *r, const gpu_mesh *g, const double position[3], const double rotation[9],
                        const float tint[3], const float emissive[3], unsigned texture);

/* 2D: screen pixels, origin top left. A quad in a colour (texture 0) or textured (RGBA). */
void renderer_begin_2d(renderer *r, int width, int height);
void renderer_quad_2d(renderer *r, float x, float y, float w, float h, const float rgba[4], unsigned texture);
void renderer_end_2d(renderer *r);

/* An RGBA8 texture from pixels (rows top first when flip is false). */
unsigned renderer_texture_rgba(const unsigned char *pixels, int width, int height, bool mipmaps);

#endif
