/* Mesh building: see mesh.h. */
#include "mesh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void mesh_free(mesh_data *m) {
  free(m->vertices);
  free(m->indices);
  memset(m, 0, sizeof *m);
}

static int grow(void **p, size_t *cap, size_t need, size_t item) {
  if (need <= *cap) return 0;
  size_t n = *cap ? *cap : 1024;
  while (n < need) n *= 2;
  void *q = realloc(*p, n * item);
  if (!q) return -1;
  *p = q;
  *cap = n;
  return 0;
}

uint32_t mesh_vertex_add(mesh_data *m, const float p[3], const float n[3], const float c[3]) {
  if (grow((void **)&m->vertices, &m->vertex_capacity, m->vertex_count + 1, sizeof *m->vertices) != 0) {
    m->failed = 1;
    return 0;
  }
  mesh_vertex *v = &m->vertices[m->vertex_count];
  memcpy(v->position, p, sizeof v->position);
  memcpy(v->normal, n, sizeof v->normal);
  memcpy(v->color, c, sizeof v->color);
  v->uv[0] = v->uv[1] = 0.0f;
  return (uint32_t)m->vertex_count++;
}

void mesh_triangle(mesh_data *m, uint32_t a, uint32_t b, uint32_t c) {
  if (grow((void **)&m->indices, &m->index_capacity, m->index_count + 3, sizeof *m->indices) != 0) {
    m->failed = 1;
    return;
  }
  m->indices[m->index_count++] = a;
  m->indices[m->index_count++] = b;
  m->indices[m->index_count++] = c;
}

void mesh_quad(mesh_data *m, const float a[3], const float b[3], const float c[3], const float d[3],
               const float color[3]) {
  float u[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  float v[3] = {d[0] - b[0], d[1] - b[1], d[2] - b[2]};
  float n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
  float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  if (len > 0.0f)
    for (int i = 0; i < 3; ++i) n[i] /= len;
  uint32_t ia = mesh_vertex_add(m, a, n, color), ib = mesh_vertex_add(m, b, n, color);
  uint32_t ic = mesh_vertex_add(m, c, n, color), id = mesh_vertex_add(m, d, n, color);
  mesh_triangle(m, ia, ib, ic);
  mesh_triangle(m, ia, ic, id);
}

void mesh_box(mesh_data *m, const float lo[3], const float hi[3], const float color[3]) {
  float p[8][3];
  for (int i = 0; i < 8; ++i) {
    p[i][0] = (i & 1) ? hi[0] : lo[0];
    p[i][1] = (i & 2) ? hi[1] : lo[1];
    p[i][2] = (i & 4) ? hi[2] : lo[2];
  }
  mesh_quad(m, p[0], p[2], p[6], p[4], color); /* -x */
  mesh_quad(m, p[1], p[5], p[7], p[3], color); /* +x */
  mesh_quad(m, p[0], p[4], p[5], p[1], color); /* -y */
  mesh_quad(m, p[2], p[3], p[7], p[6], color); /* +y */
  mesh_quad(m, p[0], p[1], p[3], p[2], color); /* -z */
  mesh_quad(m, p[4], p[6], p[7], p[5], color); /* +z */
}

void mesh_wheel(mesh_data *m, float r, float w, int segments) {
  static const float tyre[3] = {0.06f, 0.06f, 0.065f};
  static const float rim_a[3] = {0.75f, 0.75f, 0.78f};
  static const float rim_b[3] = {0.25f, 0.25f, 0.28f};
  const float hw = 0.5f * w, rr = 0.68f * r;
  for (int i = 0; i < segments; ++i) {
    float a0 = 6.2831853f * (float)i / (float)segments, a1 = 6.2831853f * (float)(i + 1) / (float)segments;
    float c0 = cosf(a0), s0 = sinf(a0), c1 = cosf(a1), s1 = sinf(a1);
    /* Tread: points (x, y, z) = (r sin a, ±hw, r cos a). */
    float p0[3] = {r * s0, -hw, r * c0}, p1[3] = {r * s1, -hw, r * c1};
    float p2[3] = {r * s1, hw, r * c1}, p3[3] = {r * s0, hw, r * c0};
    mesh_quad(m, p0, p1, p2, p3, tyre);
    /* Side walls (tyre) and rims with alternating spokes, both sides. */
    for (int side = -1; side <= 1; side += 2) {
      float y = (float)side * hw;
      const float *rim = (i % 4 < 2) ? rim_a : rim_b;
      float o0[3] = {r * s0, y, r * c0}, o1[3] = {r * s1, y, r * c1};
      float q0[3] = {rr * s0, y, rr * c0}, q1[3] = {rr * s1, y, rr * c1};
      float ctr[3] = {0.0f, y, 0.0f};
      if (side > 0) {
        mesh_quad(m, o0, o1, q1, q0, tyre);
        float n[3] = {0.0f, 1.0f, 0.0f};
        uint32_t a = mesh_vertex_add(m, ctr, n, rim), b = mesh_vertex_add(m, q0, n, rim),
                 c = mesh_vertex_add(m, q1, n, rim);
        mesh_triangle(m, a, c, b);
      } else {
        mesh_quad(m, o0, q0, q1, o1, tyre);
        float n[3] = {0.0f, -1.0f, 0.0f};
        uint32_t a = mesh_vertex_add(m, ctr, n, rim), b = mesh_vertex_add(m, q0, n, rim),
                 c = mesh_vertex_add(m, q1, n, rim);
        mesh_triangle(m, a, b, c);
      }
    }
  }
  /* A red mark on each sidewall at the top (wheel angle 0), like a valve cap: its spin shows
   * and the tests find it. x within ±0.1 r, z from 0.72 r to 0.95 r, 2 mm off the wall. */
  static const float mark[3] = {0.85f, 0.05f, 0.04f};
  const float mx = 0.1f * r, z0 = 0.72f * r, z1 = 0.95f * r, y = hw + 0.002f;
  const float a[3] = {mx, y, z0}, b[3] = {-mx, y, z0}, c[3] = {-mx, y, z1}, d[3] = {mx, y, z1};
  mesh_quad(m, a, b, c, d, mark);
  const float e[3] = {-mx, -y, z0}, f[3] = {mx, -y, z0}, g[3] = {mx, -y, z1}, h[3] = {-mx, -y, z1};
  mesh_quad(m, e, f, g, h, mark);
}
