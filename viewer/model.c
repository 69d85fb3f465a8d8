/* 3D models from files: see model.h. */
#define _POSIX_C_SOURCE 200809L
#include "model.h"

#include <assimp/cimport.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <epoxy/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "mesh.h"
#include "stb/stb_image.h"
#include "torcs_car.h"
#include "torcs_track.h"
#include "gdal_api.h"

static bool exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool model_find_torcs_track(const char *spec, char *path, size_t size) {
  static const char *categories[] = {"road", "oval", "dirt", "speedway", "gprix"};
  if (strncmp(spec, "torcs:", 6) == 0) {
    for (size_t i = 0; i < sizeof categories / sizeof categories[0]; ++i) {
      snprintf(path, size, "%s/%s/%s/%s.acc", GRIP_TORCS_TRACK_DIR, categories[i], spec + 6, spec + 6);
      if (exists(path)) return true;
      snprintf(path, size, "%s/%s/%s/%s.ac", GRIP_TORCS_TRACK_DIR, categories[i], spec + 6, spec + 6);
      if (exists(path)) return true;
    }
    return false;
  }
  size_t n = strlen(spec);
  if (n > 4 && strcasecmp(spec + n - 4, ".xml") == 0) {
    snprintf(path, size, "%.*s.acc", (int)(n - 4), spec);
    if (exists(path)) return true;
    snprintf(path, size, "%.*s.ac", (int)(n - 4), spec);
    return exists(path);
  }
  return false;
}

/* RGBA pixels of an image file, rows top first; NULL when it cannot be read. */
static unsigned char *load_image(const char *path, int *w, int *h) {
  size_t n = strlen(path);
  bool sgi = n > 4 && (strcasecmp(path + n - 4, ".rgb") == 0 || strcasecmp(path + n - 5, ".rgba") == 0);
  if (!sgi) {
    int channels;
    return stbi_load(path, w, h, &channels, 4);
  }
#ifdef GRIP_HAVE_GDAL
  /* SGI images: stb_image does not read them, GDAL does. */
  const grip_gdal_api *g = grip_gdal(NULL);
  if (!g) return NULL;
  g->CPLPushErrorHandler(g->CPLQuietErrorHandler);
  GDALDatasetH ds = g->GDALOpen(path, GA_ReadOnly);
  g->CPLPopErrorHandler();
  if (!ds) return NULL;
  int cols = g->GDALGetRasterXSize(ds), rows = g->GDALGetRasterYSize(ds), bands = g->GDALGetRasterCount(ds);
  unsigned char *rgba = NULL;
  if (cols > 0 && rows > 0 && cols <= 8192 && rows <= 8192 && bands >= 1) {
    rgba = malloc((size_t)cols * (size_t)rows * 4);
    if (rgba) {
      memset(rgba, 255, (size_t)cols * (size_t)rows * 4);
      for (int b = 0; b < 4; ++b) {
        int src = bands >= 3 ? (b < bands ? b + 1 : 0) : (b < 3 ? 1 : (bands == 2 ? 2 : 0));
        if (src == 0) continue;
        /* Band src into every 4th byte, row by row from the top. */
        if (g->GDALRasterIO(g->GDALGetRasterBand(ds, src), GF_Read, 0, 0, cols, rows, rgba + b, cols, rows, GDT_Byte,
                            4, 4 * cols) != CE_None) {
          free(rgba);
          rgba = NULL;
          break;
        }
      }
    }
  }
  g->GDALClose(ds);
  *w = cols, *h = rows;
  return rgba;
#else
  (void)w, (void)h;
  return NULL;
#endif
}

typedef struct part_builder {
  char texture[256]; /* file name as the model names it, "" for none */
  float opacity;     /* the material's, 0..1 */
  mesh_data mesh;
} part_builder;

/* The RGBA pixels (rows top first) of a texture the model names, searched next to the model,
 * then in TORCS's shared texture folder; NULL when it is in neither or cannot be read. */
static unsigned char *texture_pixels(const char *model_path, const char *name, int *w, int *h) {
  const char *base = strrchr(name, '/');
  base = base ? base + 1 : name;
  char dir[512], path[1024];
  const char *slash = strrchr(model_path, '/');
  snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - model_path) : 1, slash ? model_path : ".");
  const char *candidates[2] = {dir, GRIP_TORCS_DATA_DIR "/data/textures"};
  for (int i = 0; i < 2; ++i) {
    snprintf(path, sizeof path, "%s/%s", candidates[i], base);
    if (!exists(path)) continue;
    unsigned char *pixels = load_image(path, w, h);
    if (pixels) return pixels;
  }
  return NULL;
}

static unsigned upload_texture(const unsigned char *pixels, int w, int h) {
  unsigned t = renderer_texture_rgba(pixels, w, h, true);
  glBindTexture(GL_TEXTURE_2D, t);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
  return t;
}

/* Whether the texture under triangle (a, b, c) lets what is behind show anywhere: its alpha
 * sampled (nearest texel, coordinates wrapped as GL_REPEAT does) at the 15 points of a
 * barycentric grid of step 1/4 (corners, edge points, inside). */
static bool texels_translucent(const mesh_data *m, const uint32_t tri[3], const unsigned char *rgba, int w, int h) {
  const float *uv[3] = {m->vertices[tri[0]].uv, m->vertices[tri[1]].uv, m->vertices[tri[2]].uv};
  for (int i = 0; i <= 4; ++i)
    for (int j = 0; i + j <= 4; ++j) {
      const float b0 = (float)i / 4.0f, b1 = (float)j / 4.0f, b2 = 1.0f - b0 - b1;
      float u = b0 * uv[0][0] + b1 * uv[1][0] + b2 * uv[2][0];
      float v = b0 * uv[0][1] + b1 * uv[1][1] + b2 * uv[2][1];
      u -= floorf(u), v -= floorf(v);
      int col = (int)(u * (float)w), row = (int)(v * (float)h);
      col = col < 0 ? 0 : col >= w ? w - 1 : col;
      row = row < 0 ? 0 : row >= h ? h - 1 : row;
      if (rgba[4 * ((size_t)row * (size_t)w + (size_t)col) + 3] < 250) return true;
    }
  return false;
}

/* Splits a part's triangles into the opaque ones (uploaded as p->mesh) and, when translucency
 * is asked for, those that let what is behind show (p->translucent, with their centroids for
 * sorting). */
static bool upload_part(model_part *p, const mesh_data *all, const double offset[3], bool translucency,
                        const unsigned char *rgba, int w, int h) {
  const size_t triangles = all->index_count / 3;
  uint32_t *flags = calloc(triangles > 0 ? triangles : 1, sizeof *flags);
  if (!flags) return false;
  size_t translucent = 0;
  for (size_t t = 0; translucency && t < triangles; ++t) {
    flags[t] = p->opacity < 0.999f || (rgba && texels_translucent(all, &all->indices[3 * t], rgba, w, h));
    translucent += flags[t];
  }
  mesh_data opaque = *all, glass = *all;
  opaque.indices = malloc((all->index_count + 1) * sizeof *opaque.indices);
  glass.indices = malloc((3 * translucent + 1) * sizeof *glass.indices);
  p->centroids = malloc((3 * translucent + 1) * sizeof *p->centroids);
  p->tri_indices = malloc((3 * translucent + 1) * sizeof *p->tri_indices);
  p->sorted = malloc((3 * translucent + 1) * sizeof *p->sorted);
  p->order = malloc((translucent + 1) * sizeof *p->order);
  bool ok = opaque.indices && glass.indices && p->centroids && p->tri_indices && p->sorted && p->order;
  if (ok) {
    opaque.index_count = glass.index_count = 0;
    for (size_t t = 0; t < triangles; ++t) {
      const uint32_t *tri = &all->indices[3 * t];
      if (!flags[t]) {
        memcpy(&opaque.indices[opaque.index_count], tri, 3 * sizeof *tri);
        opaque.index_count += 3;
        continue;
      }
      float *c = &p->centroids[glass.index_count];
      for (int i = 0; i < 3; ++i)
        c[i] = (all->vertices[tri[0]].position[i] + all->vertices[tri[1]].position[i] +
                all->vertices[tri[2]].position[i]) / 3.0f + (float)offset[i];
      memcpy(&glass.indices[glass.index_count], tri, 3 * sizeof *tri);
      glass.index_count += 3;
    }
    memcpy(p->tri_indices, glass.indices, glass.index_count * sizeof *glass.indices);
    p->translucent_count = (int)translucent;
    ok = gpu_mesh_upload(&p->mesh, &opaque, offset) && (translucent == 0 || gpu_mesh_upload(&p->translucent, &glass, offset));
  }
  free(opaque.indices);
  free(glass.indices);
  free(flags);
  return ok;
}

/* TORCS lays the racing line as a mostly transparent texture over the road's own; assimp gives
 * only that overlay (or no name), so those surfaces are drawn with TORCS's standard road texture
 * instead. */
static bool raceline(const char *name) {
  const char *base = strrchr(name, '/');
  base = base ? base + 1 : name;
  /* assimp reads the road surfaces of .acc files (several textures per surface) with the texture
   * name "ERROR". */
  return strncmp(base, "raceline", 8) == 0 || strcmp(base, "ERROR") == 0;
}

static bool road_texture(const char *name) {
  const char *base = strrchr(name, '/');
  base = base ? base + 1 : name;
  return strncmp(base, "tr-road", 7) == 0 || strncmp(base, "tr-b-road", 9) == 0 || raceline(name);
}

/* TORCS shifts a track's coordinates after building it (they are not those of grip's import,
 * whose start line is at the origin): the translation is found from the road surfaces. The
 * centre of the road vertices' plan bounding box goes onto the centre of grip's centre-line
 * bounding box; the height makes the road vertices' median height difference zero. The fit is
 * then checked: at least 90 % of the road vertices must lie within the road's half width + 3 m
 * of grip's centre line and within 0.5 m of its surface height, else the model is not used. */
static bool align_to_track(const part_builder *parts, int count, const grip_track *track, double t[3]) {
  double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
  size_t n = 0;
  for (int k = 0; k < count; ++k) {
    if (!road_texture(parts[k].texture)) continue;
    for (size_t v = 0; v < parts[k].mesh.vertex_count; ++v, ++n)
      for (int i = 0; i < 2; ++i) {
        lo[i] = fmin(lo[i], parts[k].mesh.vertices[v].position[i]);
        hi[i] = fmax(hi[i], parts[k].mesh.vertices[v].position[i]);
      }
  }
  if (n < 16) return false;
  grip_track_stats st = grip_track_get_stats(track);
  t[0] = 0.5 * (st.x_min + st.x_max) - 0.5 * (lo[0] + hi[0]);
  t[1] = 0.5 * (st.y_min + st.y_max) - 0.5 * (lo[1] + hi[1]);
  /* Height: the median of (track z - model z) over up to 4096 road vertices spread evenly. */
  enum { SAMPLES = 4096 };
  static double dz[SAMPLES];
  size_t stride = n / SAMPLES + 1, m = 0, seen = 0;
  int hint = -1;
  for (int k = 0; k < count; ++k) {
    if (!road_texture(parts[k].texture)) continue;
    for (size_t v = 0; v < parts[k].mesh.vertex_count; ++v, ++seen) {
      if (seen % stride || m == SAMPLES) continue;
      const float *p = parts[k].mesh.vertices[v].position;
      grip_track_location loc = grip_track_locate(track, p[0] + t[0], p[1] + t[1], hint);
      hint = loc.segment;
      dz[m++] = loc.z - p[2];
    }
  }
  for (size_t i = 1; i < m; ++i) /* insertion sort: m <= 4096, once */
    for (size_t j = i; j > 0 && dz[j - 1] > dz[j]; --j) {
      double x = dz[j];
      dz[j] = dz[j - 1], dz[j - 1] = x;
    }
  t[2] = dz[m / 2];
  size_t good = 0, checked = 0;
  seen = 0;
  for (int k = 0; k < count; ++k) {
    if (!road_texture(parts[k].texture)) continue;
    for (size_t v = 0; v < parts[k].mesh.vertex_count; ++v, ++seen) {
      if (seen % stride) continue;
      const float *p = parts[k].mesh.vertices[v].position;
      grip_track_location loc = grip_track_locate(track, p[0] + t[0], p[1] + t[1], hint);
      hint = loc.segment;
      double half = 0.5 * grip_track_point_at(track, loc.distance).width;
      checked++;
      good += fabs(loc.lateral) <= half + 3.0 && fabs(loc.z - (p[2] + t[2])) <= 0.5;
    }
  }
  return checked > 0 && good >= 0.9 * (double)checked;
}

/* Loads path with each vertex p drawn at xf·(p, 1) (xf: 3×4, row-major) and each normal turned
 * by xf's 3×3 part (renormalised). With a track, the result is moved onto it (align_to_track). */
static bool load_transformed(const char *path, const double xf[12], const grip_track *track, bool translucency,
                             model *out) {
  memset(out, 0, sizeof *out);
  const struct aiScene *sc =
      aiImportFile(path, aiProcess_Triangulate | aiProcess_PreTransformVertices | aiProcess_GenSmoothNormals);
  if (!sc) {
    fprintf(stderr, "grip viewer: %s: %s (the generated mesh is shown)\n", path, aiGetErrorString());
    return false;
  }
  for (int i = 0; i < 3; ++i) out->lo[i] = INFINITY, out->hi[i] = -INFINITY;
  int cap = 64, count = 0;
  part_builder *parts = calloc((size_t)cap, sizeof *parts);
  bool ok = parts != NULL;
  for (unsigned i = 0; ok && i < sc->mNumMeshes; ++i) {
    const struct aiMesh *am = sc->mMeshes[i];
    const struct aiMaterial *mat = sc->mMaterials[am->mMaterialIndex];
    struct aiString tex;
    char name[256] = "";
    if (aiGetMaterialTexture(mat, aiTextureType_DIFFUSE, 0, &tex, NULL, NULL, NULL, NULL, NULL, NULL) == AI_SUCCESS)
      snprintf(name, sizeof name, "%.255s", tex.data);
    struct aiColor4D diffuse = {0.7f, 0.7f, 0.7f, 1.0f};
    aiGetMaterialColor(mat, AI_MATKEY_COLOR_DIFFUSE, &diffuse);
    ai_real opacity = 1.0;
    unsigned one = 1;
    if (aiGetMaterialFloatArray(mat, AI_MATKEY_OPACITY, &opacity, &one) != AI_SUCCESS || !isfinite(opacity)) opacity = 1.0;
    opacity = opacity < 0.0 ? 0.0 : opacity > 1.0 ? 1.0 : opacity;
    int k = 0;
    while (k < count && (strcmp(parts[k].texture, name) != 0 || parts[k].opacity != (float)opacity)) ++k;
    if (k == count) {
      if (count == cap) {
        part_builder *grown = realloc(parts, (size_t)cap * 2 * sizeof *grown);
        if (!grown) {
          fprintf(stderr, "grip viewer: %s: out of memory (the generated mesh is shown)\n", path);
          ok = false;
          break;
        }
        memset(grown + cap, 0, (size_t)cap * sizeof *grown);
        parts = grown, cap *= 2;
      }
      snprintf(parts[count].texture, sizeof parts[count].texture, "%s", name);
      parts[count].opacity = (float)opacity;
      count++;
    }
    mesh_data *m = &parts[k].mesh;
    uint32_t base = (uint32_t)m->vertex_count;
    float color[3] = {name[0] ? 1.0f : diffuse.r, name[0] ? 1.0f : diffuse.g, name[0] ? 1.0f : diffuse.b};
    for (unsigned v = 0; v < am->mNumVertices; ++v) {
      const double q[3] = {am->mVertices[v].x, am->mVertices[v].y, am->mVertices[v].z};
      float p[3], n[3] = {0.0f, 0.0f, 1.0f};
      for (int r = 0; r < 3; ++r) p[r] = (float)(xf[4 * r] * q[0] + xf[4 * r + 1] * q[1] + xf[4 * r + 2] * q[2] + xf[4 * r + 3]);
      if (am->mNormals) {
        const double a[3] = {am->mNormals[v].x, am->mNormals[v].y, am->mNormals[v].z};
        double turned[3], len = 0.0;
        for (int r = 0; r < 3; ++r) {
          turned[r] = xf[4 * r] * a[0] + xf[4 * r + 1] * a[1] + xf[4 * r + 2] * a[2];
          len += turned[r] * turned[r];
        }
        len = sqrt(len);
        if (len > 0.0)
          for (int r = 0; r < 3; ++r) n[r] = (float)(turned[r] / len);
      }
      for (int r = 0; r < 3; ++r) out->lo[r] = fmin(out->lo[r], p[r]), out->hi[r] = fmax(out->hi[r], p[r]);
      uint32_t idx = mesh_vertex_add(m, p, n, color);
      if (!m->failed && am->mTextureCoords[0]) {
        m->vertices[idx].uv[0] = am->mTextureCoords[0][v].x;
        m->vertices[idx].uv[1] = 1.0f - am->mTextureCoords[0][v].y; /* images are uploaded top row first */
      }
    }
    for (unsigned f = 0; f < am->mNumFaces; ++f)
      if (am->mFaces[f].mNumIndices == 3)
        mesh_triangle(m, base + am->mFaces[f].mIndices[0], base + am->mFaces[f].mIndices[1],
                      base + am->mFaces[f].mIndices[2]);
  }
  if (ok) {
    out->parts = calloc((size_t)(count > 0 ? count : 1), sizeof *out->parts);
    ok = out->parts != NULL;
  }
  double offset[3] = {0.0, 0.0, 0.0};
  if (ok && track && !align_to_track(parts, count, track, offset)) {
    fprintf(stderr, "grip viewer: %s: the model's road does not line up with the track (the generated mesh is shown)\n",
            path);
    ok = false;
    free(out->parts);
    out->parts = NULL;
  }
  for (int k = 0; ok && k < count; ++k) {
    model_part *p = &out->parts[out->part_count];
    const char *texture = raceline(parts[k].texture) ? "tr-road1.rgb" : parts[k].texture;
    int w = 0, h = 0;
    unsigned char *rgba = texture[0] ? texture_pixels(path, texture, &w, &h) : NULL;
    p->opacity = parts[k].opacity;
    p->texture = rgba ? upload_texture(rgba, w, h) : 0;
    out->part_count++; /* counted before the upload so that model_free frees what it made */
    ok = upload_part(p, &parts[k].mesh, offset, translucency, rgba, w, h);
    free(rgba);
    out->triangles += (int)(parts[k].mesh.index_count / 3);
    out->translucent_triangles += p->translucent_count;
  }
  if (parts)
    for (int k = 0; k < count; ++k) mesh_free(&parts[k].mesh);
  free(parts);
  aiReleaseImport(sc);
  if (!ok) model_free(out);
  return ok;
}

bool model_load(const char *path, const grip_track *track, model *out) {
  /* AC3D: y up, z towards the viewer; the world: z up: (x, y, z) -> (x, -z, y). */
  static const double ac_to_world[12] = {1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0};
  return load_transformed(path, ac_to_world, track, false, out);
}

void model_car_transform(const grip_car_visual *vis, double xf[12]) {
  /* Design point = offset + Rz(yaw)·Ry(pitch)·Rx(roll)·scale·A·p (car_file.h). */
  const double cy = cos(vis->yaw), sy = sin(vis->yaw), cp = cos(vis->pitch), sp = sin(vis->pitch);
  const double cr = cos(vis->roll), sr = sin(vis->roll);
  const double R[9] = {cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr,
                       sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr,
                       -sp,     cp * sr,                cp * cr};
  const double A_yup[9] = {1, 0, 0, 0, 0, -1, 0, 1, 0}, A_zup[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  const double *A = vis->y_up ? A_yup : A_zup;
  const double o[3] = {vis->offset.x, vis->offset.y, vis->offset.z};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j)
      xf[4 * i + j] = vis->scale * (R[3 * i] * A[j] + R[3 * i + 1] * A[3 + j] + R[3 * i + 2] * A[6 + j]);
    xf[4 * i + 3] = o[i];
  }
}

int model_car_brake_lamps(const grip_car_visual *vis, mesh_data *m) {
  static const float dark_red[3] = {0.45f, 0.02f, 0.02f};
  grip_car_visual z_up = *vis;
  z_up.y_up = false; /* lamp positions are given z up whatever the model's axes */
  double xf[12];
  model_car_transform(&z_up, xf);
  int n = vis->brake_lamp_count < GRIP_CAR_MAX_LIGHTS ? vis->brake_lamp_count : GRIP_CAR_MAX_LIGHTS;
  for (int l = 0; l < n; ++l) {
    const grip_car_lamp *lamp = &vis->brake_lamps[l];
    const double p[3] = {lamp->position.x, lamp->position.y, lamp->position.z};
    double c[3];
    for (int i = 0; i < 3; ++i) c[i] = xf[4 * i] * p[0] + xf[4 * i + 1] * p[1] + xf[4 * i + 2] * p[2] + xf[4 * i + 3];
    const float r = (float)(lamp->radius * vis->scale), x = (float)(c[0] - 0.01);
    const float centre[3] = {x, (float)c[1], (float)c[2]};
    /* An octagon as four quads from the centre: counter-clockwise seen from behind (looking
     * along +x), so the face's normal points to −x. */
    for (int k = 0; k < 8; k += 2) {
      float p3[3][3];
      for (int j = 0; j < 3; ++j) {
        double angle = (k + j) * (3.14159265358979323846 / 4.0);
        p3[j][0] = x, p3[j][1] = centre[1] - r * (float)cos(angle), p3[j][2] = centre[2] + r * (float)sin(angle);
      }
      mesh_quad(m, centre, p3[0], p3[1], p3[2], dark_red);
    }
  }
  return n;
}

bool model_load_car(const grip_car_visual *vis, model *out) {
  double xf[12];
  model_car_transform(vis, xf);
  return load_transformed(vis->model, xf, NULL, true, out);
}

void model_free(model *m) {
  for (int k = 0; k < m->part_count; ++k) {
    model_part *p = &m->parts[k];
    gpu_mesh_free(&p->mesh);
    gpu_mesh_free(&p->translucent);
    if (p->texture) glDeleteTextures(1, &p->texture);
    free(p->centroids);
    free(p->tri_indices);
    free(p->sorted);
    free(p->order);
  }
  free(m->parts);
  memset(m, 0, sizeof *m);
}

void model_draw(renderer *r, const model *m) {
  static const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  static const double zero[3] = {0, 0, 0};
  model_draw_at(r, m, zero, identity);
}

void model_draw_at(renderer *r, const model *m, const double position[3], const double rotation[9]) {
  for (int k = 0; k < m->part_count; ++k)
    renderer_draw_mesh(r, &m->parts[k].mesh, position, rotation, NULL, NULL, m->parts[k].texture);
}

static int farther_first(const void *a, const void *b) {
  float x = ((const model_depth_item *)a)->distance2, y = ((const model_depth_item *)b)->distance2;
  return (x < y) - (x > y);
}

void model_draw_translucent_at(renderer *r, model *m, const double position[3], const double rotation[9]) {
  /* The eye in the model frame: e = Rᵀ·(eye − position). */
  double d[3] = {r->eye[0] - position[0], r->eye[1] - position[1], r->eye[2] - position[2]}, e[3];
  for (int i = 0; i < 3; ++i) e[i] = rotation[i] * d[0] + rotation[3 + i] * d[1] + rotation[6 + i] * d[2];
  for (int k = 0; k < m->part_count; ++k) {
    model_part *p = &m->parts[k];
    if (p->translucent_count == 0) continue;
    for (int t = 0; t < p->translucent_count; ++t) {
      const float *c = &p->centroids[3 * t];
      double dx = c[0] - e[0], dy = c[1] - e[1], dz = c[2] - e[2];
      p->order[t] = (model_depth_item){(float)(dx * dx + dy * dy + dz * dz), t};
    }
    qsort(p->order, (size_t)p->translucent_count, sizeof *p->order, farther_first);
    for (int t = 0; t < p->translucent_count; ++t)
      memcpy(&p->sorted[3 * t], &p->tri_indices[3 * p->order[t].triangle], 3 * sizeof *p->sorted);
    glBindVertexArray(p->translucent.vao);
    glBufferSubData(GL_ELEMENT_ARRAY_BUFFER, 0, (GLsizeiptr)((size_t)p->translucent_count * 3 * sizeof *p->sorted), p->sorted);
    glBindVertexArray(0);
    float saved = r->opacity;
    r->opacity = p->opacity;
    renderer_draw_mesh(r, &p->translucent, position, rotation, NULL, NULL, p->texture);
    r->opacity = saved;
  }
}
