/* Cross-check with GDAL: an ESRI ASCII grid written here (plain text, known values) is turned
 * into .bt by GDAL's own writer (gdal_translate -of BT), read back by grip's .bt reader and
 * compared exactly with what was written: heights at every grid point, cell-centre
 * georeferencing, and gdallocationinfo's value at those centres. When grip has GDAL compiled
 * in, the .asc read through the GDAL path must give the same grid. Skipped (exit 77) without
 * gdal-bin. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "terrain.h"
#include "test.h"

#define PI 3.14159265358979323846
#define COLS 7
#define ROWS 5
#define NODATA_COL 4
#define NODATA_ROW 1 /* from the south */

static char dir[512];

/* Value written for column c, row r counted from the south; float32- and int16-exact. */
static double value(int c, int r, bool integer) {
  double v = 400.0 + 13.0 * c - 6.0 * r + (c * r) % 5;
  return integer ? v : v + 0.25 * ((c + r) % 4);
}

static void write_asc(const char *path, double xll, double yll, double cell, bool integer) {
  FILE *f = fopen(path, "w");
  fprintf(f, "ncols %d\nnrows %d\nxllcorner %.10g\nyllcorner %.10g\ncellsize %.10g\n"
             "NODATA_value -9999\n", COLS, ROWS, xll, yll, cell);
  for (int rt = 0; rt < ROWS; ++rt) { /* ASCII grids list the northern row first */
    int r = ROWS - 1 - rt;
    for (int c = 0; c < COLS; ++c) {
      if (c == NODATA_COL && r == NODATA_ROW) fprintf(f, " -9999");
      else fprintf(f, " %.10g", value(c, r, integer));
    }
    fputc('\n', f);
  }
  fclose(f);
}

static int run(const char *cmd) {
  int rc = system(cmd);
  if (rc != 0) fprintf(stderr, "  command failed (%d): %s\n", rc, cmd);
  return rc;
}

/* gdallocationinfo's value at georeferenced (x, y). */
static double gdal_value_at(const char *file, double x, double y) {
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "gdallocationinfo -valonly -geoloc '%s' %.12f %.12f", file, x, y);
  FILE *p = popen(cmd, "r");
  if (!p) return NAN;
  double v = NAN;
  if (fscanf(p, "%lf", &v) != 1) v = NAN;
  pclose(p);
  return v;
}

static double min_valid(bool integer) {
  double lo = 1e300;
  for (int r = 0; r < ROWS; ++r)
    for (int c = 0; c < COLS; ++c)
      if (!(c == NODATA_COL && r == NODATA_ROW) && value(c, r, integer) < lo)
        lo = value(c, r, integer);
  return lo;
}

static void check_grid(const grip_terrain *t, bool integer) {
  CHECK(t->rows == ROWS && t->cols == COLS);
  CHECK(t->void_count == 1);
  for (int r = 0; r < ROWS; ++r)
    for (int c = 0; c < COLS; ++c) {
      double e = (c == NODATA_COL && r == NODATA_ROW) ? min_valid(integer) : value(c, r, integer);
      CHECK_NEAR(t->heights[r * COLS + c], e, 0.0);
    }
}

static void projected(const char *type, bool integer) {
  const double xll = 350000.0, yll = 5600000.0, cell = 25.0;
  char asc[600], bt[600], cmd[1400];
  snprintf(asc, sizeof asc, "%s/gdal_proj_%s.asc", dir, type);
  snprintf(bt, sizeof bt, "%s/gdal_proj_%s.bt", dir, type);
  write_asc(asc, xll, yll, cell, integer);
  snprintf(cmd, sizeof cmd, "gdal_translate -q -of BT -ot %s '%s' '%s'", type, asc, bt);
  if (run(cmd) != 0) {
    CHECK(!"gdal_translate");
    return;
  }
  grip_terrain t;
  grip_load_error err;
  grip_load_error_clear(&err);
  CHECK(grip_bt_load(bt, &t, &err));
  if (err.message[0]) fprintf(stderr, "  %s\n", err.message);
  if (!t.heights) return;
  check_grid(&t, integer);
  /* Outer edges are the .asc corner and corner + size; samples at the cell centres. */
  CHECK_NEAR(t.left, xll, 0.0);
  CHECK_NEAR(t.bottom, yll, 0.0);
  CHECK_NEAR(t.right, xll + COLS * cell, 0.0);
  CHECK_NEAR(t.top, yll + ROWS * cell, 0.0);
  CHECK_NEAR(t.origin_x, xll + 12.5, 0.0);
  CHECK_NEAR(t.origin_y, yll + 12.5, 0.0);
  CHECK_NEAR(t.dx, 25.0, 0.0);
  CHECK_NEAR(t.dy, 25.0, 0.0);
  /* GDAL's own reading of its .bt at grip's sample positions. */
  for (int r = 0; r < ROWS; ++r)
    for (int c = 0; c < COLS; ++c) {
      if (c == NODATA_COL && r == NODATA_ROW) continue;
      double g = gdal_value_at(bt, t.origin_x + c * t.dx, t.origin_y + r * t.dy);
      CHECK_NEAR(g, t.heights[r * COLS + c], 0.0);
    }
#ifdef GRIP_HAVE_GDAL
  grip_terrain a;
  CHECK(grip_gdal_load(asc, &a, &err));
  if (err.message[0]) fprintf(stderr, "  %s\n", err.message);
  if (a.heights) {
    check_grid(&a, integer);
    CHECK_NEAR(a.origin_x, t.origin_x, 0.0);
    CHECK_NEAR(a.origin_y, t.origin_y, 0.0);
    CHECK_NEAR(a.dx, t.dx, 0.0);
    CHECK_NEAR(a.dy, t.dy, 0.0);
    grip_terrain_free(&a);
  }
  /* And GDAL's reading of the .bt agrees with grip's reader. */
  CHECK(grip_gdal_load(bt, &a, &err));
  if (a.heights) {
    check_grid(&a, integer);
    CHECK_NEAR(a.origin_x, t.origin_x, 0.0);
    grip_terrain_free(&a);
  }
#endif
  grip_terrain_free(&t);
}

static void test_projected(void) {
  projected("Float32", false);
  projected("Int16", true);
  projected("Int32", true);
}

static void test_geographic(void) {
  const double xll = 7.5, yll = 46.25, cell = 0.125;
  char asc[600], prj[600], bt[600], cmd[1400];
  snprintf(asc, sizeof asc, "%s/gdal_geo.asc", dir);
  snprintf(prj, sizeof prj, "%s/gdal_geo.prj", dir);
  snprintf(bt, sizeof bt, "%s/gdal_geo_out.bt", dir);
  write_asc(asc, xll, yll, cell, false);
  FILE *f = fopen(prj, "w");
  fputs("GEOGCS[\"WGS 84\",DATUM[\"WGS_1984\",SPHEROID[\"WGS 84\",6378137,298.257223563]],"
        "PRIMEM[\"Greenwich\",0],UNIT[\"degree\",0.0174532925199433]]\n", f);
  fclose(f);
  snprintf(cmd, sizeof cmd, "gdal_translate -q -of BT '%s' '%s'", asc, bt);
  if (run(cmd) != 0) {
    CHECK(!"gdal_translate");
    return;
  }
  grip_terrain t;
  grip_load_error err;
  grip_load_error_clear(&err);
  CHECK(grip_bt_load(bt, &t, &err));
  if (!t.heights) return;
  check_grid(&t, false);
  CHECK(t.units == GRIP_UNITS_DEGREES);
  double lon_c = xll + COLS * cell / 2, lat_c = yll + ROWS * cell / 2; /* 7.9375, 46.5625 */
  CHECK_NEAR(t.center_lon, lon_c, 1e-12);
  CHECK_NEAR(t.center_lat, lat_c, 1e-12);
  double my = 6371008.8 * PI / 180.0, mx = my * cos(lat_c * PI / 180.0);
  CHECK_REL(t.dx, cell * mx, 1e-12);
  CHECK_REL(t.dy, cell * my, 1e-12);
  CHECK_NEAR(t.origin_x, (xll + cell / 2 - lon_c) * mx, 1e-6);
  CHECK_NEAR(t.origin_y, (yll + cell / 2 - lat_c) * my, 1e-6);
  /* gdallocationinfo at the lon/lat of grip's samples. */
  for (int r = 0; r < ROWS; r += 2)
    for (int c = 0; c < COLS; c += 3) {
      double lon = lon_c + (t.origin_x + c * t.dx) / mx, lat = lat_c + (t.origin_y + r * t.dy) / my;
      CHECK_NEAR(gdal_value_at(bt, lon, lat), t.heights[r * COLS + c], 0.0);
    }
#ifdef GRIP_HAVE_GDAL
  grip_terrain a;
  CHECK(grip_gdal_load(asc, &a, &err));
  if (a.heights) {
    check_grid(&a, false);
    CHECK(a.units == GRIP_UNITS_DEGREES);
    CHECK_NEAR(a.origin_x, t.origin_x, 1e-9);
    CHECK_NEAR(a.origin_y, t.origin_y, 1e-9);
    CHECK_REL(a.dx, t.dx, 1e-14);
    grip_terrain_free(&a);
  }
#endif
  grip_terrain_free(&t);
}

static void test_gdal_errors(void) {
  grip_terrain t;
  memset(&t, 0x33, sizeof t);
  grip_terrain before = t;
  grip_load_error err;
  grip_load_error_clear(&err);
  char path[600];
  snprintf(path, sizeof path, "%s/gdal_garbage.tif", dir);
  FILE *f = fopen(path, "w");
  fputs("this is not a raster\n", f);
  fclose(f);
  CHECK(!grip_terrain_load(path, &t, &err));
  CHECK(strncmp(err.message, path, strlen(path)) == 0);
  CHECK(memcmp(&t, &before, sizeof t) == 0);
#ifndef GRIP_HAVE_GDAL
  CHECK(strstr(err.message, "not compiled in") != NULL);
#endif
  remove(path);
}

int main(void) {
  if (system("command -v gdal_translate >/dev/null 2>&1 && "
             "command -v gdallocationinfo >/dev/null 2>&1") != 0)
    TEST_SKIP("gdal_translate/gdallocationinfo not on PATH (apt-get install gdal-bin)");
  snprintf(dir, sizeof dir, "%s/test_terrain_gdal.d", GRIP_BINARY_DIR);
  char cmd[700];
  snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
  if (system(cmd) != 0) TEST_SKIP("cannot make a scratch directory");
  printf("GDAL library in grip: %s\n", grip_gdal_available() ? "yes" : "no");
  RUN_TEST(test_projected);
  RUN_TEST(test_geographic);
  RUN_TEST(test_gdal_errors);
  return TEST_RESULT();
}
