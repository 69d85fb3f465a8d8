/* Heightfield ground: a regular grid of heights split into triangles, with a cell-walking ray
 * query, an optional per-cell surface map and sinusoidal roughness. See grip/heightfield.h. */
#include "grip/heightfield.h"

#include <ctype.h>
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "gmath.h"
#include "isa.h"

struct grip_heightfield {
  double ox, oy;         /* m, position of sample (0, 0) */
  double dx, dy;         /* m, spacing */
  double inv_dx, inv_dy; /* 1/m */
  int rows, cols;
  grip_heightfield_edge edge;
  double hmin, hmax;     /* m, sample range */
  double rough_max;      /* m, largest roughness amplitude of any surface in the table */
  double *h;             /* rows·cols heights, row-major */
  uint8_t *cell_surface; /* (rows−1)·(cols−1) or NULL */
  int surface_count;
  grip_surface surfaces[GRIP_HEIGHTFIELD_MAX_SURFACES];
};

/* ---- Surfaces ---------------------------------------------------------------------------- */

typedef struct surface_preset {
  const char *name;
  grip_surface surface;
} surface_preset;

/* Friction multipliers relative to dry tarmac (1.0) follow the Magic-Formula sets of the design
 * notes (snow D/Fz 0.3, ice 0.1) and common tyre-road friction tables; rolling-resistance
 * coefficients follow the Engineering Toolbox and Carvill (1993) tables for car tyres. The
 * roughness figures are grip's own choices. docs/terrain.md lists the sources. */
static const surface_preset presets[GRIP_SURFACE_PRESET_COUNT] = {
    {"asphalt", {1.00, 0.012, 0.000, 1.5, 0}},
    {"concrete", {1.00, 0.011, 0.000, 1.5, 1}},
    {"grass", {0.60, 0.060, 0.020, 2.0, 2}},
    {"gravel", {0.60, 0.080, 0.020, 1.5, 3}},
    {"sand", {0.50, 0.200, 0.030, 3.0, 4}},
    {"snow", {0.30, 0.030, 0.010, 2.0, 5}},
    {"ice", {0.10, 0.010, 0.000, 1.5, 6}},
};

static bool name_equal(const char *a, const char *b) {
  for (; *a && *b; ++a, ++b)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return false;
  return *a == *b;
}

bool grip_surface_preset_find(const char *name, grip_surface *out) {
  for (int i = 0; name && i < GRIP_SURFACE_PRESET_COUNT; ++i)
    if (name_equal(name, presets[i].name)) {
      *out = presets[i].surface;
      return true;
    }
  *out = grip_default_surface();
  return false;
}

grip_surface grip_surface_preset(const char *name) {
  grip_surface s;
  grip_surface_preset_find(name, &s);
  return s;
}

const char *grip_surface_preset_name(int index) {
  return index >= 0 && index < GRIP_SURFACE_PRESET_COUNT ? presets[index].name : NULL;
}

double grip_surface_bump(const grip_surface *s, double x, double y, double *dbdx, double *dbdy) {
  double a = s->roughness_amplitude, w = s->roughness_wavelength;
  if (!(a != 0.0) || !(w > 0.0) || !isfinite(a) || !isfinite(w)) {
    if (dbdx) *dbdx = 0.0;
    if (dbdy) *dbdy = 0.0;
    return 0.0;
  }
  double k = 2.0 * 3.14159265358979323846 / w;
  double sx = sin(k * x), cx = cos(k * x), sy = sin(k * y), cy = cos(k * y);
  if (dbdx) *dbdx = a * k * cx * sy;
  if (dbdy) *dbdy = a * k * sx * cy;
  return a * sx * sy;
}

/* ---- Creation ---------------------------------------------------------------------------- */

grip_heightfield_def grip_default_heightfield_def(void) {
  return (grip_heightfield_def){.origin_x = 0.0, .origin_y = 0.0, .dx = 1.0, .dy = 1.0,
                                .rows = 0, .cols = 0, .heights = NULL,
                                .edge = GRIP_EDGE_NO_GROUND, .cell_surface = NULL,
                                .surfaces = NULL, .surface_count = 0};
}

grip_result grip_heightfield_create(const grip_heightfield_def *def, grip_heightfield **out) {
  if (!def || !out) return GRIP_INVALID_ARGUMENT;
  *out = NULL;
  if (def->rows < 2 || def->cols < 2 || !def->heights) return GRIP_INVALID_ARGUMENT;
  /* Keep index arithmetic within int and size_t comfortably. */
  if ((double)def->rows * (double)def->cols > 1.0e9) return GRIP_INVALID_ARGUMENT;
  if (!(def->dx > 0.0) || !(def->dy > 0.0) || !isfinite(def->dx) || !isfinite(def->dy) ||
      !isfinite(def->origin_x) || !isfinite(def->origin_y))
    return GRIP_INVALID_ARGUMENT;
  if (def->edge != GRIP_EDGE_NO_GROUND && def->edge != GRIP_EDGE_CLAMP) return GRIP_INVALID_ARGUMENT;
  if (def->surface_count < 0 || def->surface_count > GRIP_HEIGHTFIELD_MAX_SURFACES ||
      (def->surface_count > 0 && !def->surfaces))
    return GRIP_INVALID_ARGUMENT;
  size_t n = (size_t)def->rows * (size_t)def->cols;
  size_t ncells = (size_t)(def->rows - 1) * (size_t)(def->cols - 1);
  double hmin = DBL_MAX, hmax = -DBL_MAX;
  for (size_t k = 0; k < n; ++k) {
    double h = def->heights[k];
    if (!isfinite(h)) return GRIP_INVALID_ARGUMENT;
    hmin = h < hmin ? h : hmin;
    hmax = h > hmax ? h : hmax;
  }
  int nsurf = def->surface_count > 0 ? def->surface_count : 1;
  if (def->cell_surface)
    for (size_t k = 0; k < ncells; ++k)
      if (def->cell_surface[k] >= nsurf) return GRIP_INVALID_ARGUMENT;
  double rough = 0.0;
  for (int k = 0; k < def->surface_count; ++k) {
    const grip_surface *s = &def->surfaces[k];
    if (!isfinite(s->friction) || !isfinite(s->rolling_resistance) ||
        !isfinite(s->roughness_amplitude) || !isfinite(s->roughness_wavelength))
      return GRIP_INVALID_ARGUMENT;
    if (s->roughness_wavelength > 0.0 && fabs(s->roughness_amplitude) > rough)
      rough = fabs(s->roughness_amplitude);
  }

  grip_heightfield *hf = calloc(1, sizeof *hf);
  if (!hf) return GRIP_OUT_OF_MEMORY;
  hf->h = malloc(n * sizeof *hf->h);
  if (def->cell_surface) hf->cell_surface = malloc(ncells);
  if (!hf->h || (def->cell_surface && !hf->cell_surface)) {
    grip_heightfield_destroy(hf);
    return GRIP_OUT_OF_MEMORY;
  }
  memcpy(hf->h, def->heights, n * sizeof *hf->h);
  if (def->cell_surface) memcpy(hf->cell_surface, def->cell_surface, ncells);
  hf->ox = def->origin_x;
  hf->oy = def->origin_y;
  hf->dx = def->dx;
  hf->dy = def->dy;
  hf->inv_dx = 1.0 / def->dx;
  hf->inv_dy = 1.0 / def->dy;
  hf->rows = def->rows;
  hf->cols = def->cols;
  hf->edge = def->edge;
  hf->hmin = hmin;
  hf->hmax = hmax;
  hf->rough_max = rough;
  hf->surface_count = nsurf;
  if (def->surface_count > 0)
    memcpy(hf->surfaces, def->surfaces, (size_t)def->surface_count * sizeof *hf->surfaces);
  else
    hf->surfaces[0] = grip_default_surface();
  *out = hf;
  return GRIP_OK;
}

void grip_heightfield_destroy(grip_heightfield *hf) {
  if (!hf) return;
  free(hf->h);
  free(hf->cell_surface);
  free(hf);
}

void grip_heightfield_get_info(const grip_heightfield *hf, grip_heightfield_info *info) {
  *info = (grip_heightfield_info){.rows = hf->rows, .cols = hf->cols, .origin_x = hf->ox,
                                  .origin_y = hf->oy, .dx = hf->dx, .dy = hf->dy,
                                  .min_height = hf->hmin, .max_height = hf->hmax,
                                  .edge = hf->edge};
}

const double *grip_heightfield_heights(const grip_heightfield *hf) { return hf->h; }

/* ---- Point queries ----------------------------------------------------------------------- */

static inline int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

static inline const grip_surface *cell_surface(const grip_heightfield *hf, int i, int j) {
  if (!hf->cell_surface) return &hf->surfaces[0];
  i = clampi(i, 0, hf->cols - 2);
  j = clampi(j, 0, hf->rows - 2);
  return &hf->surfaces[hf->cell_surface[(size_t)j * (size_t)(hf->cols - 1) + (size_t)i]];
}

/* Fractional grid coordinate along one axis, clamped to [0, n−1]. Sets *cell (0..n−2) and *t
 * (0..1 within it), *outside when the point was beyond the border. Returns false when outside
 * and the edge mode has no ground. A point within 1e-9 cells of the border counts as on it. */
static inline bool axis_locate(const grip_heightfield *hf, double f, int n, int *cell, double *t,
                               bool *outside) {
  const double tol = 1e-9;
  *outside = false;
  if (!(f >= -tol && f <= (double)(n - 1) + tol)) {
    if (hf->edge == GRIP_EDGE_NO_GROUND || isnan(f)) return false;
    *outside = true;
  }
  f = clampd(f, 0.0, (double)(n - 1));
  int c = (int)floor(f);
  if (c > n - 2) c = n - 2;
  *cell = c;
  *t = f - (double)c;
  return true;
}

/* Smooth (triangle) height and slopes at (x, y); false outside with no ground. Inline, as the
 * ray's other helpers: the ray query's AVX2 copy then runs them in its own instruction set. */
static inline __attribute__((always_inline)) bool smooth_eval(const grip_heightfield *hf, double x, double y, double *h,
                                                              double *gx, double *gy, int *ci, int *cj) {
  int i, j;
  double u, v;
  bool outx, outy;
  if (!axis_locate(hf, (x - hf->ox) * hf->inv_dx, hf->cols, &i, &u, &outx)) return false;
  if (!axis_locate(hf, (y - hf->oy) * hf->inv_dy, hf->rows, &j, &v, &outy)) return false;
  const double *row0 = hf->h + (size_t)j * (size_t)hf->cols;
  const double *row1 = row0 + hf->cols;
  double h00 = row0[i], h10 = row0[i + 1], h01 = row1[i], h11 = row1[i + 1];
  if (u + v <= 1.0) {
    *h = h00 + (h10 - h00) * u + (h01 - h00) * v;
    *gx = (h10 - h00) * hf->inv_dx;
    *gy = (h01 - h00) * hf->inv_dy;
  } else {
    *h = h11 + (h01 - h11) * (1.0 - u) + (h10 - h11) * (1.0 - v);
    *gx = (h11 - h01) * hf->inv_dx;
    *gy = (h11 - h10) * hf->inv_dy;
  }
  if (outx) *gx = 0.0; /* the clamped extension is level along the clamped axis */
  if (outy) *gy = 0.0;
  *ci = i;
  *cj = j;
  return true;
}

static bool full_eval(const grip_heightfield *hf, double x, double y, double *h, double *gx,
                      double *gy, const grip_surface **surface) {
  int i, j;
  if (!smooth_eval(hf, x, y, h, gx, gy, &i, &j)) return false;
  const grip_surface *s = cell_surface(hf, i, j);
  if (hf->rough_max > 0.0) {
    double bx, by;
    *h += grip_surface_bump(s, x, y, &bx, &by);
    *gx += bx;
    *gy += by;
  }
  *surface = s;
  return true;
}

static inline grip_vec3 slope_normal(double gx, double gy) {
  return v3_normalize(v3(-gx, -gy, 1.0));
}

bool grip_heightfield_sample(const grip_heightfield *hf, double x, double y,
                             grip_ground_sample *out) {
  double h, gx, gy;
  const grip_surface *s;
  if (!full_eval(hf, x, y, &h, &gx, &gy, &s)) return false;
  out->height = h;
  out->normal = slope_normal(gx, gy);
  out->surface = *s;
  return true;
}

bool grip_heightfield_height(const grip_heightfield *hf, double x, double y, double *height) {
  double h, gx, gy;
  const grip_surface *s;
  if (!full_eval(hf, x, y, &h, &gx, &gy, &s)) return false;
  *height = h;
  return true;
}

/* ---- Ray query --------------------------------------------------------------------------- */

/* Intersection of the ray with the plane z = zp + gx·(x − xp) + gy·(y − yp), entering from
 * above; returns t or +inf. */
static inline double plane_t(grip_vec3 o, grip_vec3 d, double zp, double xp, double yp, double gx,
                             double gy) {
  double denom = d.z - gx * d.x - gy * d.y;
  if (!(denom < 0.0)) return INFINITY;
  return (zp + gx * (o.x - xp) + gy * (o.y - yp) - o.z) / denom;
}

/* Tests region (i, j) over the ray interval [ta, tb]. Regions with an index outside the grid's
 * cells exist only in clamp mode and are one plane. Returns the hit t or +inf; sets *gx, *gy. */
static inline __attribute__((always_inline)) double region_hit(const grip_heightfield *hf, int i, int j, grip_vec3 o,
                                                               grip_vec3 d, double ta, double tb, double *gx,
                                                               double *gy) {
  int nc = hf->cols, nr = hf->rows;
  int ci0 = clampi(i, 0, nc - 1), ci1 = clampi(i + 1, 0, nc - 1);
  int cj0 = clampi(j, 0, nr - 1), cj1 = clampi(j + 1, 0, nr - 1);
  const double *row0 = hf->h + (size_t)cj0 * (size_t)nc;
  const double *row1 = hf->h + (size_t)cj1 * (size_t)nc;
  double h00 = row0[ci0], h10 = row0[ci1], h01 = row1[ci0], h11 = row1[ci1];
  /* Cheap reject: the ray's height range over the interval against the corners' range. */
  /* (tb is infinite only for a level ray with an infinite range in clamp mode.) */
  double za = o.z + d.z * ta, zb = d.z == 0.0 ? o.z : o.z + d.z * tb;
  double rlo = mind(za, zb), rhi = maxd(za, zb);
  double clo = mind(mind(h00, h10), mind(h01, h11)), chi = maxd(maxd(h00, h10), maxd(h01, h11));
  double pad = 1e-9 * (1.0 + fabs(chi) + fabs(clo));
  if (rlo > chi + pad || rhi < clo - pad) return INFINITY;

  double xr = hf->ox + (double)ci0 * hf->dx, yr = hf->oy + (double)cj0 * hf->dy;
  double eps = 1e-9 * (1.0 + fabs(isfinite(tb) ? tb : ta));
  bool virtual_cell = i < 0 || i > nc - 2 || j < 0 || j > nr - 2;
  double best = INFINITY;
  /* Lower triangle (u + v <= 1), plane through (xr, yr, h00). */
  double ax = (h10 - h00) * hf->inv_dx, ay = (h01 - h00) * hf->inv_dy;
  double t = plane_t(o, d, h00, xr, yr, ax, ay);
  if (t >= ta - eps && t <= tb + eps) {
    double u = (o.x + d.x * t - xr) * hf->inv_dx, v = (o.y + d.y * t - yr) * hf->inv_dy;
    if (virtual_cell || u + v <= 1.0 + 1e-9) {
      best = t;
      *gx = ax;
      *gy = ay;
    }
  }
  if (virtual_cell) return best; /* both triangles are the same plane there */
  /* Upper triangle (u + v > 1), plane through (xr + dx, yr + dy, h11). */
  double bx = (h11 - h01) * hf->inv_dx, by = (h11 - h10) * hf->inv_dy;
  t = plane_t(o, d, h11, xr + hf->dx, yr + hf->dy, bx, by);
  if (t < best && t >= ta - eps && t <= tb + eps) {
    double u = (o.x + d.x * t - xr) * hf->inv_dx, v = (o.y + d.y * t - yr) * hf->inv_dy;
    if (u + v >= 1.0 - 1e-9) {
      best = t;
      *gx = bx;
      *gy = by;
    }
  }
  return best;
}

/* Parameter of the next region boundary along one axis, or +inf. Boundaries sit at sample
 * indices 0..n−1; region k spans [k, k+1] (k = −1 and k = n−1 are the clamp-mode outsides). */
static inline double next_boundary(double o, double d, double origin, double spacing, int k,
                                   int step, int n) {
  int b = step > 0 ? k + 1 : k;
  if (step == 0 || b < 0 || b > n - 1) return INFINITY;
  return (origin + (double)b * spacing - o) / d;
}

static inline int start_region(double f, int lo, int hi) {
  f = floor(f);
  if (!(f >= (double)lo)) return lo; /* also NaN */
  if (f > (double)hi) return hi;
  return (int)f;
}

/* The smooth-surface hit; returns t or +inf and the slopes of the hit triangle. */
static inline __attribute__((always_inline)) double smooth_raycast(const grip_heightfield *hf, grip_vec3 o, grip_vec3 d,
                                                                   double t0, double t1, double *gx, double *gy) {
  bool clamp = hf->edge == GRIP_EDGE_CLAMP;
  double zlo = hf->hmin - hf->rough_max, zhi = hf->hmax + hf->rough_max;
  double zpad = 1e-9 * (1.0 + fabs(zlo) + fabs(zhi));
  zlo -= zpad;
  zhi += zpad;
  /* Only where the ray is between the lowest and the highest ground can it hit. */
  if (d.z < 0.0) {
    t0 = maxd(t0, (zhi - o.z) / d.z);
    t1 = mind(t1, (zlo - o.z) / d.z);
  } else if (d.z > 0.0) {
    t0 = maxd(t0, (zlo - o.z) / d.z);
    t1 = mind(t1, (zhi - o.z) / d.z);
  } else if (o.z < zlo || o.z > zhi) {
    return INFINITY;
  }
  double xmax = hf->ox + (double)(hf->cols - 1) * hf->dx;
  double ymax = hf->oy + (double)(hf->rows - 1) * hf->dy;
  if (!clamp) { /* clip to the grid's rectangle (slabs) */
    const double lo[2] = {hf->ox, hf->oy}, hi[2] = {xmax, ymax};
    const double oo[2] = {o.x, o.y}, dd[2] = {d.x, d.y};
    for (int a = 0; a < 2; ++a) {
      if (dd[a] == 0.0) {
        if (oo[a] < lo[a] || oo[a] > hi[a]) return INFINITY;
      } else {
        double ta = (lo[a] - oo[a]) / dd[a], tb = (hi[a] - oo[a]) / dd[a];
        t0 = maxd(t0, mind(ta, tb));
        t1 = mind(t1, maxd(ta, tb));
      }
    }
  }
  if (!(t0 <= t1)) return INFINITY;

  int ilo = clamp ? -1 : 0, ihi = clamp ? hf->cols - 1 : hf->cols - 2;
  int jlo = clamp ? -1 : 0, jhi = clamp ? hf->rows - 1 : hf->rows - 2;
  /* Start in the region of the ray's midpoint of a tiny first step, so that a start exactly on
   * a boundary picks the region the ray moves into. */
  double tm = t0 + 1e-12 * (1.0 + fabs(t0));
  int i = start_region((o.x + d.x * tm - hf->ox) * hf->inv_dx, ilo, ihi);
  int j = start_region((o.y + d.y * tm - hf->oy) * hf->inv_dy, jlo, jhi);
  int si = d.x > 0.0 ? 1 : (d.x < 0.0 ? -1 : 0);
  int sj = d.y > 0.0 ? 1 : (d.y < 0.0 ? -1 : 0);
  double tnx = next_boundary(o.x, d.x, hf->ox, hf->dx, i, si, hf->cols);
  double tny = next_boundary(o.y, d.y, hf->oy, hf->dy, j, sj, hf->rows);
  double ta = t0;
  for (int guard = 2 * (hf->rows + hf->cols) + 8; guard > 0; --guard) {
    double tb = mind(mind(tnx, tny), t1);
    if (tb >= ta - 1e-12 * (1.0 + fabs(ta))) {
      double t = region_hit(hf, i, j, o, d, maxd(ta, t0), tb, gx, gy);
      if (t < INFINITY) return clampd(t, t0, t1);
    }
    if (tb >= t1) break;
    if (tnx <= tny) {
      i += si;
      ta = tnx;
      tnx = next_boundary(o.x, d.x, hf->ox, hf->dx, i, si, hf->cols);
    } else {
      j += sj;
      ta = tny;
      tny = next_boundary(o.y, d.y, hf->oy, hf->dy, j, sj, hf->rows);
    }
    if (i < ilo || i > ihi || j < jlo || j > jhi) break;
  }
  return INFINITY;
}

/* The query, in an AVX2 copy too (isa.h): a wheel's ray on a heightfield took ~730 instructions
 * in the baseline copy, of them ~35 for two floors that SSE4.1 does in one instruction each. The
 * ray by its address: by value, each vector went onto the stack at the call. */
GRIP_HOT_CLONES
static bool heightfield_raycast_cloned(const grip_heightfield *hf, const grip_vec3 *origin, const grip_vec3 *direction,
                                       double max_distance, grip_ground_hit *hit) {
  grip_vec3 o = *origin, d = *direction;
  /* x − x is 0 for a finite x and NaN otherwise: the sum is 0 exactly when all six are finite
   * (one test for them, as the vehicle step's safety net does) */
  double finite = (o.x - o.x) + (o.y - o.y) + (o.z - o.z) + (d.x - d.x) + (d.y - d.y) + (d.z - d.z);
  if (!hf || !(finite == 0.0) || !(max_distance >= 0.0)) return false;
  double search = max_distance;
  if (hf->rough_max > 0.0) /* the bumps can lift the ground above the smooth hit */
    search += 2.0 * hf->rough_max / maxd(-d.z, 0.05);
  double gx = 0.0, gy = 0.0;
  double t = smooth_raycast(hf, o, d, 0.0, search, &gx, &gy);
  if (!(t < INFINITY)) return false;
  grip_vec3 p = v3_mad(o, d, t);
  double h;
  /* The hit's cell, for its surface: only a map of surfaces needs it (without one, every cell
   * has the first). */
  const grip_surface *s = &hf->surfaces[0];
  if (hf->cell_surface) {
    double sgx, sgy;
    int ci, cj;
    if (!smooth_eval(hf, p.x, p.y, &h, &sgx, &sgy, &ci, &cj)) {
      /* On the border within rounding: locate the cell by clamping. */
      ci = clampi((int)floor((p.x - hf->ox) * hf->inv_dx), 0, hf->cols - 2);
      cj = clampi((int)floor((p.y - hf->oy) * hf->inv_dy), 0, hf->rows - 2);
    }
    s = cell_surface(hf, ci, cj);
  }
  if (hf->rough_max > 0.0 && (s->roughness_amplitude != 0.0)) {
    /* Newton steps on g(t) = ray z − ground z (smooth + bumps) from the smooth hit. */
    for (int k = 0; k < 12; ++k) {
      grip_vec3 q = v3_mad(o, d, t);
      double hz, hx, hy;
      if (!full_eval(hf, q.x, q.y, &hz, &hx, &hy, &s)) break;
      double g = q.z - hz, dg = d.z - hx * d.x - hy * d.y;
      gx = hx;
      gy = hy;
      if (!(dg < -1e-6)) break;
      double step = g / dg;
      t -= step;
      if (fabs(step) < 1e-12 * (1.0 + fabs(t))) break;
    }
    p = v3_mad(o, d, t);
    if (!full_eval(hf, p.x, p.y, &h, &gx, &gy, &s)) return false;
  }
  if (t < 0.0 || t > max_distance) return false;
  hit->point = p;
  hit->normal = slope_normal(gx, gy);
  hit->distance = t;
  hit->surface = *s;
  hit->velocity = (grip_vec3){0.0, 0.0, 0.0}; /* grip's grounds stand still */
  hit->body = NULL;
  return true;
}

bool grip_heightfield_raycast(void *context, const grip_ground_query *query, grip_vec3 o, grip_vec3 d,
                              double max_distance, grip_ground_hit *hit) {
  (void)query; /* the grid is found in O(1) from (x, y): no memory of earlier queries needed */
  return heightfield_raycast_cloned(context, &o, &d, max_distance, hit);
}

grip_ground grip_heightfield_ground(const grip_heightfield *hf) {
  return (grip_ground){.raycast = grip_heightfield_raycast, .context = (void *)hf};
}
