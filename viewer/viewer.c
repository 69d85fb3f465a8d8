/* The viewer's window and main loop: see viewer.h. */
#define _POSIX_C_SOURCE 200809L
#include "viewer.h"

#include <SDL.h>
#include <epoxy/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "camera.h"
#include "clocks.h"
#include "hud.h"
#include "input_drive.h"
#ifdef GRIP_HAVE_ASSIMP
#include "model.h"
#endif
#include "render.h"
#include "stb/stb_image.h"
#include "terrain_lod.h"
#include "stb/stb_image_write.h"
#include "world_mesh.h"
#include "gdal_api.h"

static const double kPi = 3.14159265358979323846;

viewer_options viewer_default_options(void) {
  return (viewer_options){.width = 1280, .height = 720, .frames = 0, .screenshot = NULL, .camera = NULL,
                          .follow = -1};
}

typedef struct car_meshes {
  gpu_mesh body, brake_lights, wheel[GRIP_MAX_AXLES];
  int model; /* index into view.car_models of the car's own 3D model, -1: the generated body */
  bool model_lamps; /* brake_lights holds the model's own brake lamps */
} car_meshes;

typedef struct view {
  const viewer_options *opt;
  session *s;
  SDL_Window *window;
  SDL_GLContext gl;
  renderer r;
  hud *hud;
  camera cam;
  gpu_mesh world, ground, marker;
  gpu_mesh drawbar; /* a unit-length bar along +x: a hitch's drawbar, stretched when drawn */
  unsigned world_texture; /* the scene's texture draped on the terrain, 0 = none */
  bool texture_georeferenced; /* placed by its world file (else over the terrain's extent) */
  terrain_lod *terrain;   /* a terrain scene's ground (chunked level of detail), else NULL */
#ifdef GRIP_HAVE_ASSIMP
  model track_model;      /* a TORCS track's own model (part_count 0: none) */
#endif
  car_meshes *cars;
#ifdef GRIP_HAVE_ASSIMP
  model *car_models; /* one per distinct car model file (cars of one kind share it) */
#endif
  int car_model_count;
  drive_io *io;       /* devices, controller, force feedback, sound (input_drive.h) */
  int follow;
  int width, height;
  bool automatic;     /* the controller's gearbox mode (HUD) */
  /* Time. */
  bool paused, slow, step_once;
  double accumulator;
  bool show_hud;
  bool place_mode;
  bool dragging;
  double press[2];
  bool press_hit;
  double press_point[3];
  unsigned samples_query; /* --stats: fragments that passed the depth test in the 3D scene */
} view;

static void quat_matrix(grip_quat q, double m[9]) {
  double w = q.w, x = q.x, y = q.y, z = q.z;
  m[0] = 1 - 2 * (y * y + z * z), m[1] = 2 * (x * y - w * z), m[2] = 2 * (x * z + w * y);
  m[3] = 2 * (x * y + w * z), m[4] = 1 - 2 * (x * x + z * z), m[5] = 2 * (y * z - w * x);
  m[6] = 2 * (x * z - w * y), m[7] = 2 * (y * z + w * x), m[8] = 1 - 2 * (x * x + y * y);
}

static void mat_mul(const double a[9], const double b[9], double out[9]) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) out[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
}

static const float kPalette[8][3] = {{0.80f, 0.06f, 0.05f}, {0.05f, 0.25f, 0.75f}, {0.95f, 0.70f, 0.05f},
                                     {0.10f, 0.55f, 0.20f}, {0.92f, 0.92f, 0.92f}, {0.45f, 0.10f, 0.55f},
                                     {0.95f, 0.40f, 0.05f}, {0.10f, 0.10f, 0.12f}};

/* A world file beside an image (ESRI: NAME.pgw for .png, .jgw for .jpg/.jpeg, or NAME.wld):
 * six numbers, x size of a pixel, two rotation terms, y size of a pixel (negative: rows go
 * south), and the centre of the top-left pixel, in the georeference of the terrain. */
typedef struct world_file {
  double a, d, b, e, c, f; /* X = a·col + b·row + c, Y = d·col + e·row + f (pixel centres) */
} world_file;

/* Returns 1 with *wf read, 0 when the image has no world file, -1 with why when it has one that
 * cannot be used (not six numbers, rotated, zero pixel size). */
static int world_file_read(const char *image, world_file *wf, char *why, size_t why_size) {
  char path[1024];
  const char *dot = strrchr(image, '.'), *slash = strrchr(image, '/');
  if (!dot || (slash && dot < slash) || strlen(image) + 5 > sizeof path) return 0;
  size_t stem = (size_t)(dot - image);
  char ext[8] = "";
  if (strlen(dot + 1) >= 2 && strlen(dot + 1) < 5) snprintf(ext, sizeof ext, "%c%cw", dot[1], dot[strlen(dot) - 1]);
  const char *candidates[2] = {ext, "wld"};
  FILE *f = NULL;
  for (int k = 0; k < 2 && !f; ++k) {
    if (!candidates[k][0]) continue;
    snprintf(path, sizeof path, "%.*s.%s", (int)stem, image, candidates[k]);
    f = fopen(path, "r");
  }
  if (!f) return 0;
  double v[6];
  int got = 0;
  while (got < 6 && fscanf(f, "%lf", &v[got]) == 1) ++got;
  fclose(f);
  if (got < 6) return snprintf(why, why_size, "%s: a world file holds six numbers, this one %d", path, got), -1;
  for (int k = 0; k < 6; ++k)
    if (!isfinite(v[k])) return snprintf(why, why_size, "%s: number %d is not finite", path, k + 1), -1;
  *wf = (world_file){v[0], v[1], v[2], v[3], v[4], v[5]};
  if (wf->b != 0.0 || wf->d != 0.0)
    return snprintf(why, why_size, "%s: a rotated image (rotation terms %g, %g) is not supported", path, wf->d, wf->b), -1;
  if (wf->a == 0.0 || wf->e == 0.0) return snprintf(why, why_size, "%s: a pixel size is zero", path), -1;
  return 1;
}

/* The image's texture coordinates on the terrain: world (x, y) m → the terrain file's own
 * coordinates (X, Y) (scene_world.h) → the image's column and row (the world file) → u, v. */
static terrain_uv terrain_uv_from_world_file(const world_file *wf, int width, int height, const scene_world *sw) {
  /* u = (X − left)/(a·width), left = c − a/2; v = (Y − top)/(e·height), top = f − e/2. */
  const double left = wf->c - 0.5 * wf->a, top = wf->f - 0.5 * wf->e;
  terrain_uv uv;
  uv.u_per_m = sw->geo_x_per_m / (wf->a * width);
  uv.u0 = (sw->geo_x0 - left) / (wf->a * width);
  uv.v_per_m = sw->geo_y_per_m / (wf->e * height);
  uv.v0 = (sw->geo_y0 - top) / (wf->e * height);
  uv.clamp = true;
  return uv;
}

#ifdef GRIP_HAVE_GDAL
/* A raster GDAL reads (GeoTIFF, SGI .rgb, …) as RGBA rows top first, decimated by GDAL on read
 * to at most max_side pixels a side (its georeference stays the file's: *cols × *rows pixels);
 * its geotransform as a world file in *wf when it has one (*georef 1; -1 with why when it is
 * rotated). Bands: 3 or more are red, green, blue (and alpha when the 4th says it is); one band
 * is grey or, with a colour table, palette indices; two are grey and alpha. Byte values (other
 * sample types are converted by GDAL, clamped to 0..255). NULL with why when it cannot be read. */
static unsigned char *gdal_image(const char *path, int max_side, int *cols, int *rows, int *w, int *h, world_file *wf,
                                 int *georef, char *why, size_t why_size) {
  const char *cannot = "";
  const grip_gdal_api *g = grip_gdal(&cannot);
  if (!g) return snprintf(why, why_size, "%s: GDAL cannot be opened: %s", path, cannot), NULL;
  g->CPLPushErrorHandler(g->CPLQuietErrorHandler);
  GDALDatasetH ds = g->GDALOpen(path, GA_ReadOnly);
  g->CPLPopErrorHandler();
  if (!ds) return snprintf(why, why_size, "%s: GDAL cannot read it", path), NULL;
  const int c = g->GDALGetRasterXSize(ds), r = g->GDALGetRasterYSize(ds), bands = g->GDALGetRasterCount(ds);
  if (c <= 0 || r <= 0 || bands < 1) {
    g->GDALClose(ds);
    return snprintf(why, why_size, "%s: no raster bands", path), NULL;
  }
  const double scale = fmax(1.0, (double)(c > r ? c : r) / max_side);
  const int bw = (int)fmax(1.0, floor(c / scale)), bh = (int)fmax(1.0, floor(r / scale));
  const size_t n = (size_t)bw * (size_t)bh;
  unsigned char *rgba = malloc(4 * n), *band = malloc(n);
  bool ok = rgba && band;
  if (!ok) snprintf(why, why_size, "%s: out of memory for a %d × %d image", path, bw, bh);
  GDALRasterBandH first = ok ? g->GDALGetRasterBand(ds, 1) : NULL;
  GDALColorTableH palette = first && bands == 1 && g->GDALGetRasterColorInterpretation(first) == GCI_PaletteIndex
                                ? g->GDALGetRasterColorTable(first)
                                : NULL;
  for (int b = 1; ok && b <= (bands >= 3 ? (bands >= 4 ? 4 : 3) : bands); ++b) {
    GDALRasterBandH hb = g->GDALGetRasterBand(ds, b);
    if (g->GDALRasterIO(hb, GF_Read, 0, 0, c, r, band, bw, bh, GDT_Byte, 0, 0) != CE_None) {
      snprintf(why, why_size, "%s: band %d cannot be read", path, b);
      ok = false;
      break;
    }
    for (size_t i = 0; i < n; ++i) {
      unsigned char *px = &rgba[4 * i];
      if (b == 1) px[3] = 255;
      if (palette) {
        GDALColorEntry e = {0, 0, 0, 255};
        g->GDALGetColorEntryAsRGB(palette, band[i], &e);
        px[0] = (unsigned char)e.c1, px[1] = (unsigned char)e.c2, px[2] = (unsigned char)e.c3, px[3] = (unsigned char)e.c4;
      } else if (bands < 3) {
        if (b == 1) px[0] = px[1] = px[2] = band[i];
        else px[3] = band[i];
      } else if (b <= 3) {
        px[b - 1] = band[i];
      } else if (g->GDALGetRasterColorInterpretation(hb) == GCI_AlphaBand) {
        px[3] = band[i];
      }
    }
  }
  double gt[6];
  *georef = 0;
  if (ok && g->GDALGetGeoTransform(ds, gt) == CE_None) {
    /* GDAL gives the top-left corner of pixel (col, row): X = gt0 + col·gt1 + row·gt2, Y = gt3 +
     * col·gt4 + row·gt5; a world file gives pixel centres. */
    *wf = (world_file){gt[1], gt[4], gt[2], gt[5], gt[0] + 0.5 * gt[1] + 0.5 * gt[2], gt[3] + 0.5 * gt[4] + 0.5 * gt[5]};
    *georef = 1;
    if (wf->b != 0.0 || wf->d != 0.0) {
      snprintf(why, why_size, "%s: a rotated georeference (rotation terms %g, %g) is not supported", path, wf->d, wf->b);
      *georef = -1;
    } else if (wf->a == 0.0 || wf->e == 0.0) {
      snprintf(why, why_size, "%s: a pixel size of its georeference is zero", path);
      *georef = -1;
    }
  }
  g->GDALClose(ds);
  free(band);
  if (!ok) {
    free(rgba);
    return NULL;
  }
  *cols = c, *rows = r, *w = bw, *h = bh;
  return rgba;
}
#endif

/* Whether stb_image reads the scene texture (by its name: .png, .jpg, .jpeg); GDAL reads the
 * others. */
static bool stb_texture(const char *path) {
  const char *dot = strrchr(path, '.');
  return dot && (strcasecmp(dot, ".png") == 0 || strcasecmp(dot, ".jpg") == 0 || strcasecmp(dot, ".jpeg") == 0);
}

#ifdef GRIP_HAVE_ASSIMP
static bool same_visual(const grip_car_visual *a, const grip_car_visual *b) {
  return strcmp(a->model, b->model) == 0 && a->scale == b->scale && a->offset.x == b->offset.x &&
         a->offset.y == b->offset.y && a->offset.z == b->offset.z && a->yaw == b->yaw && a->pitch == b->pitch &&
         a->roll == b->roll && a->y_up == b->y_up;
}
#endif

static bool build_meshes(view *v) {
  const scene_world *sw = v->s->sw;
  double zero[3] = {0.0, 0.0, 0.0};
  mesh_data m = {0};
  double ground_z = 0.0, cx = 0.0, cy = 0.0, extent = 3000.0;
  if (sw->track) {
    grip_track_stats st = grip_track_get_stats(sw->track);
    cx = 0.5 * (st.x_min + st.x_max), cy = 0.5 * (st.y_min + st.y_max);
    ground_z = st.z_min - 0.3;
    extent = fmax(st.x_max - st.x_min, st.y_max - st.y_min) + 3000.0;
    double origin[3] = {cx, cy, st.z_min};
    bool have_model = false;
#ifdef GRIP_HAVE_ASSIMP
    char model_path[1024];
    if (!v->opt->generated_mesh && model_find_torcs_track(v->s->scene.ground_file, model_path, sizeof model_path))
      have_model = model_load(model_path, sw->track, &v->track_model);
#endif
    if (!have_model) {
      world_mesh_track(&m, sw->track, origin, ground_z);
      if (!gpu_mesh_upload(&v->world, &m, origin)) return false;
    }
  } else if (sw->heightfield) {
    const grip_heightfield_info *t = &sw->terrain;
    cx = t->origin_x + 0.5 * (t->cols - 1) * t->dx, cy = t->origin_y + 0.5 * (t->rows - 1) * t->dy;
    double origin[3] = {cx, cy, t->min_height};
    terrain_uv uv = terrain_uv_extent(t);
    const char *texture = v->s->scene.texture;
    if (texture[0] && stb_texture(texture)) {
      /* PNG or JPEG (stb_image): placed by its world file when it has one, else draped over the
       * terrain's extent. */
      int w = 0, h = 0, n = 0;
      unsigned char *pixels = stbi_load(texture, &w, &h, &n, 4);
      if (pixels) {
        v->world_texture = renderer_texture_rgba(pixels, w, h, true);
        stbi_image_free(pixels);
        world_file wf;
        char why[1400];
        int found = world_file_read(texture, &wf, why, sizeof why);
        if (found > 0) {
          uv = terrain_uv_from_world_file(&wf, w, h, sw);
          v->texture_georeferenced = true;
        } else if (found < 0) {
          fprintf(stderr, "grip viewer: %s (the texture is draped over the terrain's extent)\n", why);
        }
      } else {
        fprintf(stderr, "grip viewer: %s: %s (texture left out)\n", texture, stbi_failure_reason());
      }
    } else if (texture[0]) {
#ifdef GRIP_HAVE_GDAL
      /* Anything else through GDAL (GeoTIFF, SGI .rgb, …): placed by its own georeference when
       * it has one (a GeoTIFF's geotransform, or a world file GDAL finds beside it), else draped
       * over the terrain's extent. */
      GLint max_side = 0;
      glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_side);
      int cols = 0, rows = 0, w = 0, h = 0, georef = 0;
      world_file wf = {0};
      char why[1400];
      unsigned char *pixels = gdal_image(texture, max_side < 8192 ? (max_side > 0 ? max_side : 2048) : 8192, &cols,
                                         &rows, &w, &h, &wf, &georef, why, sizeof why);
      if (pixels) {
        v->world_texture = renderer_texture_rgba(pixels, w, h, true);
        free(pixels);
        if (georef > 0) {
          uv = terrain_uv_from_world_file(&wf, cols, rows, sw);
          v->texture_georeferenced = true;
        } else if (georef < 0) {
          fprintf(stderr, "grip viewer: %s (the texture is draped over the terrain's extent)\n", why);
        }
      } else {
        fprintf(stderr, "grip viewer: %s (texture left out)\n", why);
      }
#else
      fprintf(stderr,
              "grip viewer: %s: this texture type needs GDAL (only PNG and JPEG are read without it; grip was built "
              "without libgdal-dev) (texture left out)\n",
              texture);
#endif
    }
    if (!(v->terrain = terrain_lod_create(sw->heightfield, origin, &uv))) return false;
    ground_z = t->min_height - 1.0;
    extent = fmax((t->cols - 1) * t->dx, (t->rows - 1) * t->dy) + 3000.0;
  } else {
    ground_z = sw->plane.offset / (sw->plane.normal.z != 0.0 ? sw->plane.normal.z : 1.0);
  }
  mesh_free(&m);
  /* The ground beyond: a large plane under everything (a plane scene's ground itself). */
  {
    float grass[3];
    grip_surface surface = sw->track || sw->heightfield ? grip_surface_preset("grass") : sw->plane.surface;
    world_surface_color(&surface, grass);
    float e = (float)extent;
    float a[3] = {-e, -e, 0.0f}, b[3] = {e, -e, 0.0f}, c[3] = {e, e, 0.0f}, d[3] = {-e, e, 0.0f};
    mesh_quad(&m, a, b, c, d, grass);
    double origin[3] = {cx, cy, ground_z};
    bool ok = gpu_mesh_upload(&v->ground, &m, origin);
    mesh_free(&m);
    if (!ok) return false;
  }
  {
    static const float magenta[3] = {1.0f, 0.0f, 1.0f};
    float lo[3] = {-0.25f, -0.25f, -0.25f}, hi[3] = {0.25f, 0.25f, 0.25f};
    mesh_box(&m, lo, hi, magenta);
    bool ok = gpu_mesh_upload(&v->marker, &m, zero);
    mesh_free(&m);
    if (!ok) return false;
  }
  {
    static const float steel[3] = {0.12f, 0.12f, 0.13f};
    float lo[3] = {0.0f, -0.04f, -0.04f}, hi[3] = {1.0f, 0.04f, 0.04f};
    mesh_box(&m, lo, hi, steel);
    bool ok = gpu_mesh_upload(&v->drawbar, &m, zero);
    mesh_free(&m);
    if (!ok) return false;
  }
  v->cars = calloc((size_t)v->s->car_count, sizeof *v->cars);
  if (!v->cars) return false;
  for (int k = 0; k < v->s->car_count; ++k) {
    const grip_vehicle_def *def = v->s->cars[k].def;
    car_meshes *cm = &v->cars[k];
    world_mesh_car_body(&m, def, kPalette[k % 8]);
    bool ok = gpu_mesh_upload(&cm->body, &m, zero);
    mesh_free(&m);
    world_mesh_car_brake_lights(&m, def);
    ok = ok && gpu_mesh_upload(&cm->brake_lights, &m, zero);
    mesh_free(&m);
    for (int a = 0; a < def->axle_count; ++a) {
      mesh_wheel(&m, (float)def->axles[a].wheel_radius, (float)def->axles[a].wheel_width, 24);
      ok = ok && gpu_mesh_upload(&cm->wheel[a], &m, zero);
      mesh_free(&m);
    }
    if (!ok) return false;
    cm->model = -1;
#ifdef GRIP_HAVE_ASSIMP
    /* The car's own model when its car file names one (or it is a TORCS car); a model that does
     * not load leaves the generated body (model_load says why). Cars sharing a file share it. */
    const grip_car_visual *vis = &v->s->cars[k].wc->car.visual;
    if (!v->opt->generated_mesh && vis->model[0]) {
      int j = 0;
      while (j < k && !(v->cars[j].model >= 0 && same_visual(&v->s->cars[j].wc->car.visual, vis))) ++j;
      if (j < k) {
        cm->model = v->cars[j].model;
      } else {
        model *grown = realloc(v->car_models, (size_t)(v->car_model_count + 1) * sizeof *grown);
        if (!grown) return false;
        v->car_models = grown;
        if (model_load_car(vis, &v->car_models[v->car_model_count])) cm->model = v->car_model_count++;
      }
      /* The model's own brake lamps take the place of the generated body's. */
      if (cm->model >= 0 && vis->brake_lamp_count > 0) {
        if (model_car_brake_lamps(vis, &m) > 0) {
          gpu_mesh_free(&cm->brake_lights);
          ok = gpu_mesh_upload(&cm->brake_lights, &m, zero);
        }
        mesh_free(&m);
        if (!ok) return false;
        cm->model_lamps = true;
      }
    }
#endif
  }
  return true;
}

static void free_meshes(view *v) {
  gpu_mesh_free(&v->world);
  terrain_lod_destroy(v->terrain);
  v->terrain = NULL;
#ifdef GRIP_HAVE_ASSIMP
  model_free(&v->track_model);
#endif
  if (v->world_texture) glDeleteTextures(1, &v->world_texture);
  gpu_mesh_free(&v->ground);
  gpu_mesh_free(&v->marker);
  gpu_mesh_free(&v->drawbar);
  if (v->cars)
    for (int k = 0; k < v->s->car_count; ++k) {
      gpu_mesh_free(&v->cars[k].body);
      gpu_mesh_free(&v->cars[k].brake_lights);
      for (int a = 0; a < GRIP_MAX_AXLES; ++a) gpu_mesh_free(&v->cars[k].wheel[a]);
    }
  free(v->cars);
  v->cars = NULL;
#ifdef GRIP_HAVE_ASSIMP
  for (int i = 0; i < v->car_model_count; ++i) model_free(&v->car_models[i]);
  free(v->car_models);
  v->car_models = NULL;
#endif
  v->car_model_count = 0;
}

/* Angle blended along the shorter way round. */
static double lerp_angle(double a, double b, double t) {
  double d = fmod(b - a, 2.0 * kPi);
  if (d > kPi) d -= 2.0 * kPi;
  if (d < -kPi) d += 2.0 * kPi;
  return a + t * d;
}

/* A bar in the car's own frame from its body box's end face (front when x > the box centre,
 * else rear) to the hitch point p (design frame): the drawbar or tow bar the hitch hangs on. */
static void draw_bar(view *v, const grip_vehicle_def *def, const double pos[3], const double R[9], grip_vec3 p) {
  double face = def->body.box_center.x + (p.x > def->body.box_center.x ? 0.5 : -0.5) * def->body.dimensions.x;
  double length = fabs(p.x - face);
  if (length < 1e-3) return;
  /* Stretch the unit bar along +x from its rearmost end (a positive scale keeps its faces'
   * normals outward): R · diag(length, 1, 1). */
  double a[3] = {fmin(face, p.x), p.y, p.z};
  double S[9] = {R[0] * length, R[1], R[2], R[3] * length, R[4], R[5], R[6] * length, R[7], R[8]};
  double start[3];
  for (int i = 0; i < 3; ++i) start[i] = pos[i] + R[3 * i] * a[0] + R[3 * i + 1] * a[1] + R[3 * i + 2] * a[2];
  renderer_draw_mesh(&v->r, &v->drawbar, start, S, NULL, NULL, 0);
}

/* How far car k's chain of trailers reaches behind its own body (m), standing straight: each
 * trailer's body rear lies tow_point.x + coupling.x − (box rear) behind the car it hangs on. */
static double towed_length(const session *s, int k) {
  const grip_vehicle_def *d = s->cars[k].def;
  double own_rear = d->body.box_center.x - 0.5 * d->body.dimensions.x, rear = own_rear, origin = 0.0;
  for (int steps = 0; steps < s->car_count; ++steps) {
    int next = -1;
    for (int j = 0; j < s->car_count && next < 0; ++j)
      if (s->cars[j].wc->spec->tow_index == k) next = j;
    if (next < 0) break;
    const grip_scene_car *spec = s->cars[next].wc->spec;
    const grip_vehicle_def *t = s->cars[next].def;
    origin += spec->tow_point.x - spec->coupling.x; /* the trailer's origin, along the chain */
    rear = origin + t->body.box_center.x - 0.5 * t->body.dimensions.x;
    k = next;
  }
  return own_rear - rear;
}

/* The bars of the hitches car k takes part in: its own drawbar when it is towed, its tow bar
 * for each car it tows. */
static void draw_hitch_bars(view *v, int k, const double pos[3], const double R[9]) {
  const session *s = v->s;
  const grip_scene_car *spec = s->cars[k].wc->spec;
  if (spec->tow_index >= 0) draw_bar(v, s->cars[k].def, pos, R, spec->coupling);
  for (int j = 0; j < s->car_count; ++j)
    if (s->cars[j].wc->spec->tow_index == k) draw_bar(v, s->cars[k].def, pos, R, s->cars[j].wc->spec->tow_point);
}

static void draw_car(view *v, int k, double alpha) {
  const session_car *c = &v->s->cars[k];
  const grip_vehicle_def *def = c->def;
  grip_pose pose = session_pose(v->s, k, alpha);
  double pos[3] = {pose.position.x, pose.position.y, pose.position.z}, R[9];
  quat_matrix(pose.rotation, R);
  car_meshes *cm = &v->cars[k];
  const bool body = !(v->opt->hide_body && k == v->follow);
#ifdef GRIP_HAVE_ASSIMP
  if (body && cm->model >= 0) {
    model_draw_at(&v->r, &v->car_models[cm->model], pos, R);
    /* A model shows its own tail lamps; its brake lamps are drawn only while they glow. */
    float glow = (float)fmin(1.0, c->input.brake * 4.0);
    if (cm->model_lamps && glow > 0.0f) {
      float emissive[3] = {glow * 1.0f, glow * 0.05f, glow * 0.02f};
      renderer_draw_mesh(&v->r, &cm->brake_lights, pos, R, NULL, emissive, 0);
    }
  }
#endif
  if (body) draw_hitch_bars(v, k, pos, R);
  if (body && cm->model < 0) {
    renderer_draw_mesh(&v->r, &cm->body, pos, R, NULL, NULL, 0);
    float glow = (float)fmin(1.0, c->input.brake * 4.0);
    float emissive[3] = {glow * 1.0f, glow * 0.05f, glow * 0.02f};
    renderer_draw_mesh(&v->r, &cm->brake_lights, pos, R, NULL, emissive, 0);
  }
  /* every wheel, axle by axle, left before right (one wheel on a zero-track axle) */
  for (int w = 0, ax = 0, side = 0; w < c->wheel_count && ax < def->axle_count; ++w) {
    const grip_axle_def *axle = &def->axles[ax];
    double y_sign = axle->half_track > 0.0 ? (side == 0 ? 1.0 : -1.0) : 0.0;
    int mesh = ax;
    if (axle->half_track > 0.0 && side == 0) side = 1;
    else side = 0, ++ax;
    const grip_wheel_state *a = &c->prev_wheels[w], *b = &c->cur_wheels[w];
    double steer = a->steer_angle + alpha * (b->steer_angle - a->steer_angle);
    double spin = lerp_angle(a->rotation, b->rotation, alpha);
    double compression = a->compression + alpha * (b->compression - a->compression);
    /* Wheel centre in the design frame: at design ride height (compression = droop travel) it is
     * one wheel radius above the design frame's ground point. */
    double local[3] = {axle->x, y_sign * axle->half_track,
                       axle->wheel_radius - axle->suspension.droop_travel + compression};
    double wp[3];
    for (int i = 0; i < 3; ++i) wp[i] = pos[i] + R[3 * i] * local[0] + R[3 * i + 1] * local[1] + R[3 * i + 2] * local[2];
    double cs = cos(steer), ss = sin(steer), cr = cos(spin), sr = sin(spin);
    double Rz[9] = {cs, -ss, 0, ss, cs, 0, 0, 0, 1};
    double Ry[9] = {cr, 0, sr, 0, 1, 0, -sr, 0, cr};
    double Rw[9], Rt[9];
    mat_mul(Rz, Ry, Rw);
    mat_mul(R, Rw, Rt);
    renderer_draw_mesh(&v->r, &cm->wheel[mesh], wp, Rt, NULL, NULL, 0);
  }
}

#ifdef GRIP_HAVE_ASSIMP
typedef struct car_distance {
  double distance2; /* m², from the eye */
  int car;
} car_distance;

static int farther_car_first(const void *a, const void *b) {
  double x = ((const car_distance *)a)->distance2, y = ((const car_distance *)b)->distance2;
  return (x < y) - (x > y);
}

/* The car models' translucent triangles (windows), after everything opaque and the sky: blended
 * over what is drawn (source alpha), depth-tested but not written, so that what is behind a
 * window shows through it and a window hides nothing. Cars far to near, each car's triangles far
 * to near (model_draw_translucent_at). */
static void draw_translucent(view *v, double alpha) {
  const session *s = v->s;
  car_distance *order = malloc((size_t)s->car_count * sizeof *order);
  if (!order) return;
  int n = 0;
  for (int k = 0; k < s->car_count; ++k) {
    if ((v->opt->hide_car || v->opt->hide_body) && k == v->follow) continue;
    if (v->cars[k].model < 0 || v->car_models[v->cars[k].model].translucent_triangles == 0) continue;
    grip_pose pose = session_pose(v->s, k, alpha);
    double dx = pose.position.x - v->r.eye[0], dy = pose.position.y - v->r.eye[1], dz = pose.position.z - v->r.eye[2];
    order[n++] = (car_distance){dx * dx + dy * dy + dz * dz, k};
  }
  qsort(order, (size_t)n, sizeof *order, farther_car_first);
  if (n > 0) {
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
  }
  for (int i = 0; i < n; ++i) {
    grip_pose pose = session_pose(v->s, order[i].car, alpha);
    double pos[3] = {pose.position.x, pose.position.y, pose.position.z}, R[9];
    quat_matrix(pose.rotation, R);
    model_draw_translucent_at(&v->r, &v->car_models[v->cars[order[i].car].model], pos, R);
  }
  if (n > 0) {
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
  }
  free(order);
}
#endif

static void render_frame(view *v, double alpha) {
  const session *s = v->s;
  glViewport(0, 0, v->width, v->height);
  glClearColor(0.7f, 0.8f, 0.9f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  camera *c = &v->cam;
  renderer_set_camera(&v->r, c->eye, c->target, c->up, c->fov_y, (double)v->width / v->height, c->near_m, c->far_m);
  static const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  static const double zero[3] = {0, 0, 0};
  if (v->opt->stats) glBeginQuery(GL_SAMPLES_PASSED, v->samples_query);
  /* Front to back, so that the depth test rejects hidden fragments before they are shaded (the
   * software renderers of the tests and the benchmark are fill-bound): cars, the world, the
   * ground plane (with a small depth bias behind the world), the sky last where nothing is. */
  for (int k = 0; k < s->car_count; ++k)
    if (!(v->opt->hide_car && k == v->follow)) draw_car(v, k, alpha);
  renderer_draw_mesh(&v->r, &v->world, zero, identity, NULL, NULL, v->world_texture);
  if (v->terrain) terrain_lod_draw(v->terrain, &v->r, v->world_texture);
#ifdef GRIP_HAVE_ASSIMP
  model_draw(&v->r, &v->track_model);
#endif
  glEnable(GL_POLYGON_OFFSET_FILL);
  glPolygonOffset(2.0f, 4.0f);
  renderer_draw_mesh(&v->r, &v->ground, zero, identity, NULL, NULL, 0);
  glDisable(GL_POLYGON_OFFSET_FILL);
  renderer_draw_sky(&v->r);
#ifdef GRIP_HAVE_ASSIMP
  draw_translucent(v, alpha);
#endif
  if (v->opt->stats) glEndQuery(GL_SAMPLES_PASSED);
  if (v->opt->has_marker) {
    float saved = v->r.fog_distance;
    v->r.fog_distance = 0.0f;
    static const float black[3] = {0, 0, 0}, magenta[3] = {1, 0, 1};
    renderer_draw_mesh(&v->r, &v->marker, v->opt->marker, identity, black, magenta, 0);
    v->r.fog_distance = saved;
  }
}

/* The ray through pixel (px, py) of the current camera: origin = eye, unit direction. */
static void pixel_ray(const view *v, double px, double py, double dir[3]) {
  const camera *c = &v->cam;
  double f[3] = {c->target[0] - c->eye[0], c->target[1] - c->eye[1], c->target[2] - c->eye[2]};
  double fl = sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
  for (int i = 0; i < 3; ++i) f[i] /= fl;
  double r[3] = {f[1] * c->up[2] - f[2] * c->up[1], f[2] * c->up[0] - f[0] * c->up[2], f[0] * c->up[1] - f[1] * c->up[0]};
  double rl = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
  for (int i = 0; i < 3; ++i) r[i] /= rl;
  double u[3] = {r[1] * f[2] - r[2] * f[1], r[2] * f[0] - r[0] * f[2], r[0] * f[1] - r[1] * f[0]};
  double t = tan(0.5 * c->fov_y), aspect = (double)v->width / v->height;
  /* Pixel centres: x right, y down from the top left. */
  double nx = 2.0 * (px + 0.5) / v->width - 1.0, ny = 1.0 - 2.0 * (py + 0.5) / v->height;
  double d[3];
  for (int i = 0; i < 3; ++i) d[i] = f[i] + r[i] * nx * t * aspect + u[i] * ny * t;
  double dl = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  for (int i = 0; i < 3; ++i) dir[i] = d[i] / dl;
}

/* Where a ray meets the ground. A terrain or plane answers any ray (the world's grip_ground
 * raycast); a track answers near-vertical rays only, so the ray is marched in 0.5 m steps with
 * vertical probes and the crossing refined by bisection. */
static bool ground_pick(const session *s, const double o[3], const double d[3], double hit[3]) {
  grip_ground g = grip_world_get_ground(s->sw->world);
  if (!g.raycast) return false;
  const double max_distance = 3000.0;
  if (!s->sw->track) {
    grip_ground_hit h;
    grip_ground_query query = grip_no_vehicle_query();
    if (!g.raycast(g.context, &query, (grip_vec3){o[0], o[1], o[2]}, (grip_vec3){d[0], d[1], d[2]}, max_distance, &h))
      return false;
    hit[0] = h.point.x, hit[1] = h.point.y, hit[2] = h.point.z;
    return true;
  }
  double prev_t = 0.0, prev_gap = 0.0;
  bool have_prev = false;
  for (double t = 0.0; t <= max_distance; t += 0.5) {
    double p[3] = {o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2]};
    double z;
    if (!scene_world_ground_height(s->sw, p[0], p[1], &z)) {
      have_prev = false;
      continue;
    }
    double gap = p[2] - z;
    if (have_prev && prev_gap > 0.0 && gap <= 0.0) {
      double lo = prev_t, hi = t;
      for (int i = 0; i < 40; ++i) {
        double mid = 0.5 * (lo + hi);
        double q[3] = {o[0] + mid * d[0], o[1] + mid * d[1], o[2] + mid * d[2]};
        double zm;
        if (scene_world_ground_height(s->sw, q[0], q[1], &zm) && q[2] - zm > 0.0) lo = mid;
        else hi = mid;
      }
      double tm = 0.5 * (lo + hi);
      for (int i = 0; i < 3; ++i) hit[i] = o[i] + tm * d[i];
      return true;
    }
    prev_t = t, prev_gap = gap, have_prev = true;
  }
  return false;
}

static bool pick(const view *v, double px, double py, double hit[3]) {
  double dir[3];
  pixel_ray(v, px, py, dir);
  return ground_pick(v->s, v->cam.eye, dir, hit);
}

static double car_heading(const session *s, int k) {
  grip_quat q = s->cars[k].cur.pose.rotation;
  return atan2(2.0 * (q.w * q.z + q.x * q.y), 1.0 - 2.0 * (q.y * q.y + q.z * q.z));
}

/* Places the followed car at the pick of (px, py), heading towards the pick of the drag end
 * when there is one more than 0.5 m away, else keeping its heading. */
static bool place_at(view *v, double px, double py, const double *drag, double point[3]) {
  if (!pick(v, px, py, point)) return false;
  double heading = car_heading(v->s, v->follow);
  double end[3];
  if (drag && pick(v, drag[0], drag[1], end) && hypot(end[0] - point[0], end[1] - point[1]) > 0.5)
    heading = atan2(end[1] - point[1], end[0] - point[0]);
  return session_place(v->s, v->follow, point[0], point[1], heading);
}

static bool save_png(const char *path, int width, int height) {
  unsigned char *pixels = malloc((size_t)width * (size_t)height * 3);
  if (!pixels) return false;
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels);
  stbi_flip_vertically_on_write(1);
  int ok = stbi_write_png(path, width, height, 3, pixels, width * 3);
  free(pixels);
  return ok != 0;
}

static void handle_key(view *v, SDL_Keycode key, bool *quit) {
  session *s = v->s;
  switch (key) {
  /* Driving, gears, pause, camera and reset come from the input configuration (input_drive.h). */
  case SDLK_ESCAPE: *quit = true; break;
  case SDLK_PERIOD: v->step_once = true; break;
  case SDLK_l: v->slow = !v->slow; break;
  case SDLK_TAB:
    v->follow = (v->follow + 1) % s->car_count;
    v->cam.settled = false;
    v->cam.tv_index = -1;
    break;
  case SDLK_h: v->show_hud = !v->show_hud; break;
  case SDLK_m: v->place_mode = !v->place_mode; break;
  default: break;
  }
}

static int compare_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static camera_mode mode_from_name(const char *name, camera_mode fallback) {
  if (!name) return fallback;
  for (int m = 0; m < CAMERA_MODE_COUNT; ++m)
    if (strcmp(name, camera_mode_name((camera_mode)m)) == 0) return (camera_mode)m;
  return fallback;
}

int viewer_run(session *s, const viewer_options *o, const char *command, viewer_result *result) {
  memset(result, 0, sizeof *result);
  view v;
  memset(&v, 0, sizeof v);
  v.opt = o;
  v.s = s;
  v.width = o->width;
  v.height = o->height;
  v.show_hud = !o->no_hud;
  v.automatic = true;
  v.follow = o->follow >= 0 && o->follow < s->car_count ? o->follow : (s->human >= 0 ? s->human : 0);
  if (o->follow < 0 && s->human < 0 && s->scene.camera.follow[0]) {
    /* grip watch: the car the scene's camera follows (or looks at) first. */
    int k = grip_scene_find_car(&s->scene, s->scene.camera.follow);
    if (k >= 0 && k < s->car_count) v.follow = k;
  }
  if (SDL_Init(SDL_INIT_VIDEO) != 0) {
    fprintf(stderr, "grip %s: no display: %s\n", command, SDL_GetError());
    return 1;
  }
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
  SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  char title[160];
  snprintf(title, sizeof title, "grip %s: %s", command, s->sw->track ? s->sw->track_name : s->scene.name);
  v.window = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, v.width, v.height,
                              SDL_WINDOW_OPENGL | (o->frames > 0 ? 0 : SDL_WINDOW_RESIZABLE));
  if (!v.window || !(v.gl = SDL_GL_CreateContext(v.window))) {
    fprintf(stderr, "grip %s: no OpenGL 3.3 core context: %s\n", command, SDL_GetError());
    if (v.window) SDL_DestroyWindow(v.window);
    SDL_Quit();
    return 1;
  }
  SDL_GL_SetSwapInterval(o->frames > 0 ? 0 : 1);
  SDL_GL_GetDrawableSize(v.window, &v.width, &v.height);
  int rc = 1;
  if (!(v.io = drive_io_open(s, o->input_file, o->mute || o->frames > 0, v.follow, command))) goto done;
  if (!renderer_init(&v.r)) goto done;
  if (o->stats) glGenQueries(1, &v.samples_query);
  if (!build_meshes(&v)) {
    fprintf(stderr, "grip %s: out of memory building the meshes\n", command);
    goto done;
  }
  v.hud = hud_create();
  const grip_scene_camera *sc = &s->scene.camera;
  camera_init(&v.cam, sc->fov_deg > 0.0 ? sc->fov_deg : 60.0, sc->distance > 0.0 ? sc->distance : 6.0,
              sc->line ? sc->height : 2.0);
  if (sc->mode == GRIP_SCENE_CAMERA_FIXED && sc->has_position) {
    v.cam.has_fixed = true;
    v.cam.fixed_eye[0] = sc->position.x, v.cam.fixed_eye[1] = sc->position.y, v.cam.fixed_eye[2] = sc->position.z;
    v.cam.fixed_has_target = sc->has_target;
    v.cam.fixed_target[0] = sc->target.x, v.cam.fixed_target[1] = sc->target.y, v.cam.fixed_target[2] = sc->target.z;
  }
  camera_mode first = v.cam.has_fixed ? CAMERA_FIXED : sc->mode == GRIP_SCENE_CAMERA_ORBIT ? CAMERA_ORBIT : CAMERA_CHASE;
  first = mode_from_name(o->camera, first);
  if (first == CAMERA_FIXED && !v.cam.has_fixed) {
    fprintf(stderr, "grip %s: --camera fixed: the scene has no fixed camera (the chase camera is used)\n", command);
    first = CAMERA_CHASE;
  }
  camera_set_mode(&v.cam, first);

  long long capacity = o->frames > 0 ? o->frames : 4096;
  /* Per frame: total, then the passes (physics, scene, HUD, swap). */
  enum { PASS_COUNT = 6 };
  double *frame_ms = malloc((size_t)capacity * PASS_COUNT * sizeof *frame_ms);
  long long frame_count = 0, steps_total = 0;
  double t_start = clock_wall_s(), t_prev = t_start, fps = 0.0, rate = 0.0, rate_window_start = t_start;
  long long rate_window_steps = 0, rate_window_frames = 0;
  bool quit = false;
  while (!quit) {
    double t_frame = clock_wall_s(), cpu_frame = clock_cpu_s();
    double frame_dt = o->frames > 0 ? SESSION_FIXED_FRAME_S : fmin(t_frame - t_prev, 0.25);
    t_prev = t_frame;
    SDL_Event e;
    while (SDL_PollEvent(&e)) {
      drive_io_event(v.io, &e);
      if (e.type == SDL_QUIT) quit = true;
      else if (e.type == SDL_KEYDOWN && !e.key.repeat) handle_key(&v, e.key.keysym.sym, &quit);
      else if (e.type == SDL_WINDOWEVENT && e.window.event == SDL_WINDOWEVENT_SIZE_CHANGED)
        SDL_GL_GetDrawableSize(v.window, &v.width, &v.height);
      else if (e.type == SDL_MOUSEBUTTONDOWN && e.button.button == SDL_BUTTON_LEFT) {
        v.dragging = true;
        v.press[0] = e.button.x, v.press[1] = e.button.y;
      } else if (e.type == SDL_MOUSEBUTTONUP && e.button.button == SDL_BUTTON_LEFT) {
        v.dragging = false;
        if (v.place_mode) {
          double end[2] = {e.button.x, e.button.y}, point[3];
          place_at(&v, v.press[0], v.press[1], end, point);
        }
      } else if (e.type == SDL_MOUSEMOTION && v.dragging && !v.place_mode) {
        if (v.cam.mode != CAMERA_ORBIT) camera_set_mode(&v.cam, CAMERA_ORBIT);
        v.cam.yaw -= 0.008 * e.motion.xrel;
        v.cam.pitch = fmax(-0.1, fmin(1.5, v.cam.pitch + 0.008 * e.motion.yrel));
      } else if (e.type == SDL_MOUSEWHEEL) {
        v.cam.range = fmax(2.0, fmin(500.0, v.cam.range * pow(0.9, e.wheel.y)));
      }
    }
    input_actions act = drive_io_update(v.io, s, frame_dt);
    if (act.pause) v.paused = !v.paused;
    if (act.camera) camera_set_mode(&v.cam, camera_next_mode(&v.cam, v.cam.mode));
    if (act.reset) session_reset(s, v.follow);
    if (act.toggle_abs) session_toggle_system(s, SESSION_ABS);
    if (act.toggle_tc) session_toggle_system(s, SESSION_TC);
    if (act.toggle_esc) session_toggle_system(s, SESSION_ESC);
    v.automatic = drive_io_automatic(v.io);
    /* Physics: fixed steps, at most 0.25 s of catch-up per frame. */
    double sim_dt = v.paused ? 0.0 : frame_dt * (v.slow ? 0.25 : 1.0);
    int steps = session_advance(s, &v.accumulator, sim_dt);
    if (v.paused && v.step_once) {
      session_step(s);
      steps++;
    }
    v.step_once = false;
    drive_io_feedback(v.io, s, v.follow, v.paused ? 0.0 : frame_dt);
    steps_total += steps;
    rate_window_steps += steps;
    double t_physics = clock_wall_s();
    double alpha = v.paused ? 1.0 : v.accumulator / s->dt;
    v.r.draw_calls = v.r.triangles = 0;
    grip_pose pose = session_pose(s, v.follow, alpha);
    result->drawn_pose = pose;
    result->drawn_alpha = alpha;
    v.cam.towed_length = towed_length(s, v.follow);
    camera_update(&v.cam, &pose, s->cars[v.follow].def, frame_dt, s->sw->track, grip_world_get_ground(s->sw->world));
    render_frame(&v, alpha);
    if (o->stats) glFinish();
    double t_scene = clock_wall_s();
    if (o->stats) {
      GLuint64 samples = 0;
      glGetQueryObjectui64v(v.samples_query, GL_QUERY_RESULT, &samples);
      result->fragments_per_pixel = (double)samples / ((double)v.width * v.height);
    }
    if (v.terrain) {
      terrain_lod_stats ts = terrain_lod_get_stats(v.terrain);
      result->terrain_nodes = ts.nodes_drawn;
      result->terrain_finest_level = ts.finest_level;
      result->terrain_levels = ts.levels;
    }
    result->draw_calls = v.r.draw_calls;
    result->triangles = v.r.triangles;
    if (v.show_hud) {
      hud_info info = {.fps = fps, .physics_rate = rate, .paused = v.paused, .slow_motion = v.slow,
                       .place_mode = v.place_mode, .camera = camera_mode_name(v.cam.mode), .automatic = v.automatic};
      hud_draw(v.hud, &v.r, s, v.follow, &info, v.width, v.height);
    }
    if (o->stats) glFinish();
    double t_hud = clock_wall_s();
    bool last = o->frames > 0 && frame_count + 1 >= o->frames;
    if (last && o->screenshot && !save_png(o->screenshot, v.width, v.height)) {
      fprintf(stderr, "grip %s: %s: cannot write the screenshot\n", command, o->screenshot);
      free(frame_ms);
      goto done;
    }
    if (last && o->has_click) {
      double dir[3];
      pixel_ray(&v, o->click[0], o->click[1], dir);
      memcpy(result->click_origin, v.cam.eye, sizeof result->click_origin);
      memcpy(result->click_direction, dir, sizeof dir);
      result->click_hit = ground_pick(s, v.cam.eye, dir, result->click_point);
      double point[3];
      result->click_placed = place_at(&v, o->click[0], o->click[1], o->has_drag ? o->drag : NULL, point);
      if (result->click_placed) {
        const grip_vehicle_state *st = &s->cars[v.follow].cur;
        result->placed[0] = st->pose.position.x, result->placed[1] = st->pose.position.y;
        result->placed[2] = st->pose.position.z;
        result->placed_heading = car_heading(s, v.follow);
      }
    }
    double t_shot = clock_wall_s();
    SDL_GL_SwapWindow(v.window);
    if (o->stats) glFinish();
    double t_end = clock_wall_s();
    if (frame_ms && frame_count >= capacity) {
      double *grown = realloc(frame_ms, (size_t)capacity * 2 * PASS_COUNT * sizeof *grown);
      if (grown) frame_ms = grown, capacity *= 2;
    }
    if (frame_ms && frame_count < capacity) {
      /* The screenshot and the click (last frame only) are outside every pass. */
      double *f = &frame_ms[frame_count * PASS_COUNT];
      f[1] = 1000.0 * (t_physics - t_frame);
      f[2] = 1000.0 * (t_scene - t_physics);
      f[3] = 1000.0 * (t_hud - t_scene);
      f[4] = 1000.0 * (t_end - t_shot);
      f[0] = f[1] + f[2] + f[3] + f[4];
      f[5] = 1000.0 * (clock_cpu_s() - cpu_frame);
    }
    frame_count++;
    rate_window_frames++;
    if (t_end - rate_window_start >= 0.5) {
      fps = rate_window_frames / (t_end - rate_window_start);
      rate = rate_window_steps / (t_end - rate_window_start);
      rate_window_start = t_end;
      rate_window_frames = rate_window_steps = 0;
    }
    if (last) quit = true;
  }
  double total = clock_wall_s() - t_start;
  long long kept = frame_count < capacity ? frame_count : capacity;
  if (frame_ms && kept > 0) {
    double *column = malloc((size_t)kept * sizeof *column);
    double *median[PASS_COUNT] = {&result->frame_ms_median, &result->pass_ms_physics, &result->pass_ms_scene,
                                  &result->pass_ms_hud, &result->pass_ms_swap, &result->frame_cpu_ms_median};
    for (int p = 0; column && p < PASS_COUNT; ++p) {
      for (long long i = 0; i < kept; ++i) column[i] = frame_ms[i * PASS_COUNT + p];
      qsort(column, (size_t)kept, sizeof *column, compare_double);
      *median[p] = column[kept / 2];
      if (p == 0) result->frame_ms_p99 = column[(long long)floor(0.99 * (double)(kept - 1))];
    }
    free(column);
  }
  free(frame_ms);
  result->frames = frame_count;
  result->follow = v.follow;
  result->physics_steps_per_s = total > 0.0 ? steps_total / total : 0.0;
  result->camera_mode = camera_mode_name(v.cam.mode);
#ifdef GRIP_HAVE_ASSIMP
  if (v.cars && v.cars[v.follow].model >= 0) {
    const model *cm = &v.car_models[v.cars[v.follow].model];
    result->car_model_triangles = cm->triangles;
    result->car_model_translucent_triangles = cm->translucent_triangles;
    memcpy(result->car_model_lo, cm->lo, sizeof cm->lo);
    memcpy(result->car_model_hi, cm->hi, sizeof cm->hi);
  }
#endif
  memcpy(result->eye, v.cam.eye, sizeof result->eye);
  memcpy(result->target, v.cam.target, sizeof result->target);
  memcpy(result->up, v.cam.up, sizeof result->up);
  result->fov_y_deg = v.cam.fov_y * 180.0 / kPi;
  result->near_m = v.cam.near_m;
  result->far_m = v.cam.far_m;
  result->width = v.width;
  result->height = v.height;
  rc = 0;
done:
  drive_io_close(v.io);
  hud_destroy(v.hud);
  if (v.samples_query) glDeleteQueries(1, &v.samples_query);
  free_meshes(&v);
  renderer_free(&v.r);
  SDL_GL_DeleteContext(v.gl);
  SDL_DestroyWindow(v.window);
  SDL_Quit();
  return rc;
}
