/* Meshes: built on the CPU as lit, vertex-coloured triangles, then uploaded to OpenGL (render.h).
 * Positions are floats relative to the mesh's own origin (a double world point), so that large
 * world coordinates keep their precision when drawn relative to the camera. */
#ifndef GRIP_VIEWER_MESH_H
#define GRIP_VIEWER_MESH_H

#include <stddef.h>
#include <stdint.h>

typedef struct mesh_vertex {
  float position[3]; /* m, relative to the mesh origin */
  float normal[3];   /* unit; length 2: both faces lit as the front one (terrain skirts) */
  float color[3];    /* linear 0..1 albedo */
  float uv[2];       /* texture coordinates (terrain drape); 0 when untextured */
} mesh_vertex;

typedef struct mesh_data {
  mesh_vertex *vertices;
  size_t vertex_count, vertex_capacity;
  uint32_t *indices;
  size_t index_count, index_capacity;
  int failed; /* an allocation failed: the mesh is incomplete */
} mesh_data;

void mesh_free(mesh_data *m);
/* Appends a vertex; returns its index. */
uint32_t mesh_vertex_add(mesh_data *m, const float p[3], const float n[3], const float c[3]);
void mesh_triangle(mesh_data *m, uint32_t a, uint32_t b, uint32_t c);
/* A flat quad a-b-c-d (counter-clockwise seen from its front) with its own normal. */
void mesh_quad(mesh_data *m, const float a[3], const float b[3], const float c[3], const float d[3],
               const float color[3]);
/* An axis-aligned box [lo, hi]. */
void mesh_box(mesh_data *m, const float lo[3], const float hi[3], const float color[3]);
/* A wheel: a cylinder about the y axis through the origin, radius r, width w; a tread and two
 * rims with alternating spokes, and a red mark on each sidewall at the top (x within ±0.1 r,
 * z 0.72 r .. 0.95 r), so that its spin shows. */
void mesh_wheel(mesh_data *m, float r, float w, int segments);

#endif
