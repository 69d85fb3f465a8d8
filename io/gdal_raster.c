/* Any raster GDAL reads (GeoTIFF, SRTM .hgt, ESRI ASCII grid, .bt, …) as terrain, and GDAL
 * itself, opened at run time (gdal_api.h). Compiled against GDAL's headers only when CMake found
 * it (GRIP_HAVE_GDAL); otherwise the entry point reports that GDAL is missing. */
#include "gdal_api.h"
#include "terrain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef GRIP_HAVE_GDAL
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>

static grip_gdal_api gdal;
static bool gdal_loaded;
static char gdal_why[256]; /* why GDAL could not be opened */
static pthread_once_t gdal_once = PTHREAD_ONCE_INIT;

static void gdal_open(void) {
  void *lib = dlopen(GRIP_GDAL_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *e = dlerror();
    snprintf(gdal_why, sizeof gdal_why, "%s", e ? e : GRIP_GDAL_SONAME ": dlopen failed");
    return;
  }
  grip_gdal_api api;
  const char *missing = NULL;
  /* dlsym's object pointer into a function pointer (POSIX makes the two interchangeable) */
#define GRIP_GDAL_RESOLVE(name)               \
  *(void **)&api.name = dlsym(lib, #name);    \
  if (!api.name && !missing) missing = #name;
  GRIP_GDAL_FUNCTIONS(GRIP_GDAL_RESOLVE)
#undef GRIP_GDAL_RESOLVE
  if (missing) {
    snprintf(gdal_why, sizeof gdal_why, "%s has no %s", GRIP_GDAL_SONAME, missing);
    dlclose(lib);
    return;
  }
  api.GDALAllRegister();
  gdal = api;
  gdal_loaded = true; /* it stays open for the process's life, as a linked library would */
}

const grip_gdal_api *grip_gdal(const char **why) {
  pthread_once(&gdal_once, gdal_open);
  if (!gdal_loaded && why) *why = gdal_why;
  return gdal_loaded ? &gdal : NULL;
}

bool grip_gdal_available(void) { return grip_gdal(NULL) != NULL; }

static double unit_type_metres(const char *u) {
  if (!u || !*u || strcmp(u, "m") == 0 || strcmp(u, "metre") == 0 || strcmp(u, "meter") == 0)
    return 1.0;
  if (strcmp(u, "ft") == 0 || strcmp(u, "foot") == 0 || strcmp(u, "feet") == 0) return 0.3048;
  if (strcmp(u, "sft") == 0 || strcmp(u, "US survey foot") == 0) return 1200.0 / 3937.0;
  return 1.0;
}

bool grip_gdal_load(const char *path, grip_terrain *out, grip_load_error *err) {
  const char *cannot = "";
  const grip_gdal_api *g = grip_gdal(&cannot);
  if (!g) {
    grip_load_error_set(err, path, 0, NULL, "GDAL cannot be opened: %s", cannot);
    return false;
  }
  g->CPLPushErrorHandler(g->CPLQuietErrorHandler);
  g->CPLErrorReset();
  GDALDatasetH ds = g->GDALOpenEx(path, GDAL_OF_RASTER | GDAL_OF_READONLY, NULL, NULL, NULL);
  if (!ds) {
    const char *msg = g->CPLGetLastErrorMsg();
    grip_load_error_set(err, path, 0, NULL, "GDAL cannot read it%s%s", msg && *msg ? ": " : "",
                        msg ? msg : "");
    g->CPLPopErrorHandler();
    return false;
  }
  bool ok = false;
  double *buf = NULL, *heights = NULL;
  unsigned char *voids = NULL;
  int cols = g->GDALGetRasterXSize(ds), rows = g->GDALGetRasterYSize(ds);
  if (g->GDALGetRasterCount(ds) < 1) {
    grip_load_error_set(err, path, 0, NULL, "the raster has no band");
    goto done;
  }
  if (cols < 2 || rows < 2 || (double)cols * (double)rows > (double)(1 << 28)) {
    grip_load_error_set(err, path, 0, NULL, "unusable raster size %d x %d", cols, rows);
    goto done;
  }
  double gt[6];
  if (g->GDALGetGeoTransform(ds, gt) != CE_None) {
    /* No georeferencing: GDAL's default, one unit per pixel, rows going down. */
    gt[0] = 0.0, gt[1] = 1.0, gt[2] = 0.0, gt[3] = 0.0, gt[4] = 0.0, gt[5] = -1.0;
  }
  if (gt[2] != 0.0 || gt[4] != 0.0) {
    grip_load_error_set(err, path, 0, NULL, "rotated rasters are not supported");
    goto done;
  }
  GDALRasterBandH band = g->GDALGetRasterBand(ds, 1);
  size_t n = (size_t)cols * (size_t)rows;
  buf = malloc(n * sizeof *buf);
  heights = malloc(n * sizeof *heights);
  voids = calloc(n, 1);
  if (!buf || !heights || !voids) {
    grip_load_error_set(err, path, 0, NULL, "out of memory for %zu samples", n);
    goto done;
  }
  if (g->GDALRasterIO(band, GF_Read, 0, 0, cols, rows, buf, cols, rows, GDT_Float64, 0, 0) !=
      CE_None) {
    grip_load_error_set(err, path, 0, NULL, "GDAL read failed: %s", g->CPLGetLastErrorMsg());
    goto done;
  }
  int has_nodata = 0, has_scale = 0, has_offset = 0;
  double nodata = g->GDALGetRasterNoDataValue(band, &has_nodata);
  double scale = g->GDALGetRasterScale(band, &has_scale);
  double offset = g->GDALGetRasterOffset(band, &has_offset);
  if (!has_scale || !(scale != 0.0)) scale = 1.0;
  if (!has_offset) offset = 0.0;
  if (!(fabs(scale) >= GRIP_TERRAIN_MIN_VSCALE && fabs(scale) <= GRIP_TERRAIN_MAX_VSCALE) ||
      !(fabs(offset) <= GRIP_TERRAIN_MAX_ABS_HEIGHT)) {
    grip_load_error_set(err, path, 0, NULL, "band scale %g / offset %g is out of range (allowed "
                        "|scale| %g .. %g, |offset| <= %g m)", scale, offset,
                        GRIP_TERRAIN_MIN_VSCALE, GRIP_TERRAIN_MAX_VSCALE,
                        GRIP_TERRAIN_MAX_ABS_HEIGHT);
    goto done;
  }
  double vunit = unit_type_metres(g->GDALGetRasterUnitType(band));
  /* GDAL rows run along gt[5] (negative: north at the top), columns along gt[1]. */
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      int rr = gt[5] < 0.0 ? rows - 1 - r : r;
      int cc = gt[1] < 0.0 ? cols - 1 - c : c;
      double v = buf[(size_t)r * (size_t)cols + (size_t)c];
      size_t dst = (size_t)rr * (size_t)cols + (size_t)cc;
      if (!isfinite(v) || (has_nodata && v == nodata)) {
        voids[dst] = 1;
        v = 0.0;
      }
      heights[dst] = (v * scale + offset) * vunit;
      if (!(fabs(heights[dst]) <= GRIP_TERRAIN_MAX_ABS_HEIGHT)) {
        grip_load_error_set(err, path, 0, NULL, "height %g m at row %d, column %d (from the top "
                            "left) is out of range (allowed -%g .. %g m)", heights[dst], r, c,
                            GRIP_TERRAIN_MAX_ABS_HEIGHT, GRIP_TERRAIN_MAX_ABS_HEIGHT);
        goto done;
      }
    }

  grip_terrain t = {0};
  t.rows = rows;
  t.cols = cols;
  t.heights = heights;
  t.left = fmin(gt[0], gt[0] + cols * gt[1]);
  t.right = fmax(gt[0], gt[0] + cols * gt[1]);
  t.top = fmax(gt[3], gt[3] + rows * gt[5]);
  t.bottom = fmin(gt[3], gt[3] + rows * gt[5]);
  t.vertical_scale = scale * vunit;
  t.datum = -1;
  t.units = GRIP_UNITS_METRES;
  t.unit_m = 1.0;
  snprintf(t.format, sizeof t.format, "GDAL %s", g->GDALGetDriverShortName(g->GDALGetDatasetDriver(ds)));
  OGRSpatialReferenceH srs = g->GDALGetSpatialRef(ds);
  if (srs && g->OSRIsGeographic(srs)) {
    t.units = GRIP_UNITS_DEGREES;
  } else if (srs) {
    double u = g->OSRGetLinearUnits(srs, NULL);
    if (u > 0.0) t.unit_m = u;
    if (fabs(u - 0.3048) < 1e-9) t.units = GRIP_UNITS_FEET;
    else if (fabs(u - 1200.0 / 3937.0) < 1e-9) t.units = GRIP_UNITS_US_FEET;
    int north = 0;
    int zone = g->OSRGetUTMZone(srs, &north);
    t.utm_zone = north ? zone : -zone;
  }
  const char *name = srs ? g->OSRGetName(srs) : NULL;
  snprintf(t.crs, sizeof t.crs, "%s", name ? name : "unknown (no CRS in the file)");
  if (!grip_terrain_set_frame(&t)) {
    grip_load_error_set(err, path, 0, NULL, "unusable georeferencing");
    goto done;
  }
  if (!grip_terrain_fill_voids(&t, voids)) {
    grip_load_error_set(err, path, 0, NULL, "every sample is no-data");
    goto done;
  }
  char why[300];
  if (!grip_terrain_check_frame(&t, why, sizeof why)) {
    grip_load_error_set(err, path, 0, NULL, "%s", why);
    goto done;
  }
  *out = t;
  heights = NULL; /* now owned by *out */
  ok = true;
done:
  free(buf);
  free(heights);
  free(voids);
  g->GDALClose(ds);
  g->CPLPopErrorHandler();
  return ok;
}

#else

bool grip_gdal_available(void) { return false; }

bool grip_gdal_load(const char *path, grip_terrain *out, grip_load_error *err) {
  (void)out;
  grip_load_error_set(err, path, 0, NULL,
                      "GDAL support is not compiled in (install libgdal-dev and rebuild); only "
                      ".bt terrain can be read");
  return false;
}

#endif
