/* VTP .bt reader: files of every header variant written here by the test's own writer (from
 * the format description, independent of io/bt.c), read back and compared with what was
 * written; broken files give errors, never a crash. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bt.h"
#include "terrain.h"
#include "test.h"

#define PI 3.14159265358979323846

typedef struct bt_spec {
  int minor;           /* version 1.minor */
  int cols, rows;
  int data_size;       /* 2 or 4 */
  int is_float;
  int hunits;          /* 0 deg, 1 m, 2 ft, 3 US ft (1.0: 1 = UTM) */
  int zone, datum;
  double left, right, bottom, top;
  int external;        /* write the external-projection flag */
  float vscale;        /* 1.3 only */
} bt_spec;

static void put16(unsigned char *p, int v) {
  uint16_t u = (uint16_t)(int16_t)v;
  p[0] = (unsigned char)(u & 0xff);
  p[1] = (unsigned char)(u >> 8);
}
static void put32(unsigned char *p, uint32_t u) {
  for (int i = 0; i < 4; ++i) p[i] = (unsigned char)(u >> (8 * i));
}
static void puti32(unsigned char *p, int32_t v) { put32(p, (uint32_t)v); }
static void putf32(unsigned char *p, float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  put32(p, u);
}
static void putf64(unsigned char *p, double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  for (int i = 0; i < 8; ++i) p[i] = (unsigned char)(u >> (8 * i));
}

/* Stored value of sample (column c, row r from the south): distinct per sample. */
static double stored_value(const bt_spec *s, int c, int r) {
  double v = 100.0 * c + 7.0 * r - 250.0;
  if (s->is_float) v += 0.25; /* exactly representable in float32 */
  return v;
}

/* Writes a .bt file following the format description; returns its size. */
static size_t write_bt(const char *path, const bt_spec *s) {
  size_t n = (size_t)s->cols * (size_t)s->rows;
  size_t size = 256 + n * (size_t)s->data_size;
  unsigned char *b = calloc(size, 1);
  char magic[11];
  snprintf(magic, sizeof magic, "binterr1.%d", s->minor);
  memcpy(b, magic, 10);
  puti32(b + 10, s->cols);
  puti32(b + 14, s->rows);
  if (s->minor == 0) {
    puti32(b + 18, s->data_size);
    put16(b + 22, s->hunits); /* UTM flag */
    put16(b + 24, s->zone);
    putf32(b + 26, (float)s->left);
    putf32(b + 30, (float)s->right);
    putf32(b + 34, (float)s->bottom);
    putf32(b + 38, (float)s->top);
    puti32(b + 42, s->is_float);
  } else {
    put16(b + 18, s->data_size);
    put16(b + 20, s->is_float);
    put16(b + 22, s->hunits);
    put16(b + 24, s->zone);
    put16(b + 26, s->datum);
    putf64(b + 28, s->left);
    putf64(b + 36, s->right);
    putf64(b + 44, s->bottom);
    putf64(b + 52, s->top);
    if (s->minor >= 2) put16(b + 60, s->external);
    if (s->minor >= 3) putf32(b + 62, s->vscale);
  }
  /* Columns west to east, each from south to north. */
  unsigned char *p = b + 256;
  for (int c = 0; c < s->cols; ++c)
    for (int r = 0; r < s->rows; ++r, p += s->data_size) {
      double v = stored_value(s, c, r);
      if (s->data_size == 2) put16(p, (int)v);
      else if (s->is_float) putf32(p, (float)v);
      else puti32(p, (int32_t)v);
    }
  FILE *f = fopen(path, "wb");
  fwrite(b, 1, size, f);
  fclose(f);
  free(b);
  return size;
}

static void tmp_path(char *out, size_t n, const char *name) {
  snprintf(out, n, "%s/test_bt_%s", GRIP_BINARY_DIR, name);
}

/* Reads back and checks sizes, extents, heights, vertical scale and units. */
static void check_roundtrip(const char *name, const bt_spec *s, double unit_m, double vscale,
                            grip_terrain_units units) {
  char path[512];
  tmp_path(path, sizeof path, name);
  write_bt(path, s);
  grip_terrain t;
  grip_load_error err;
  grip_load_error_clear(&err);
  bool ok = grip_bt_load(path, &t, &err);
  CHECK(ok);
  if (!ok) {
    fprintf(stderr, "  %s\n", err.message);
    return;
  }
  CHECK(t.rows == s->rows && t.cols == s->cols);
  CHECK(t.units == units);
  CHECK_NEAR(t.vertical_scale, vscale, 1e-7);
  CHECK_NEAR(t.left, s->left, s->minor == 0 ? 1e-4 : 0.0);
  CHECK_NEAR(t.top, s->top, s->minor == 0 ? 1e-4 : 0.0);
  /* Cell centres in metres (projected): (left + (c + ½)·width/cols)·unit. */
  if (units != GRIP_UNITS_DEGREES) {
    double cw = (s->right - s->left) / s->cols, ch = (s->top - s->bottom) / s->rows;
    CHECK_REL(t.dx, cw * unit_m, 1e-12);
    CHECK_REL(t.dy, ch * unit_m, 1e-12);
    CHECK_NEAR(t.origin_x, (s->left + 0.5 * cw) * unit_m, 1e-6);
    CHECK_NEAR(t.origin_y, (s->bottom + 0.5 * ch) * unit_m, 1e-6);
  }
  double lo = 1e300, hi = -1e300;
  for (int r = 0; r < s->rows; ++r)
    for (int c = 0; c < s->cols; ++c) {
      double e = stored_value(s, c, r) * vscale;
      lo = e < lo ? e : lo;
      hi = e > hi ? e : hi;
      CHECK_NEAR(t.heights[r * s->cols + c], e, 1e-9 * (1 + fabs(e)));
    }
  CHECK_NEAR(t.min_height, lo, 1e-9 * (1 + fabs(lo)));
  CHECK_NEAR(t.max_height, hi, 1e-9 * (1 + fabs(hi)));
  CHECK(t.void_count == 0);
  grip_terrain_free(&t);
  remove(path);
}

static void test_variants(void) {
  /* 1.0: 4-byte size field, float extents, UTM flag, 2-byte integers. */
  bt_spec v10 = {0, 5, 4, 2, 0, 1, 32, 0, 500000, 500050, 5000000, 5000040, 0, 0};
  check_roundtrip("v10.bt", &v10, 1.0, 1.0, GRIP_UNITS_METRES);
  /* 1.0 with float heights. */
  bt_spec v10f = v10;
  v10f.data_size = 4;
  v10f.is_float = 1;
  check_roundtrip("v10f.bt", &v10f, 1.0, 1.0, GRIP_UNITS_METRES);
  /* 1.1: int16 fields, double extents, UTM zone south, old datum code. */
  bt_spec v11 = {1, 6, 3, 2, 0, 1, -33, 23, 300000, 300060, 6000000, 6000045, 0, 0};
  check_roundtrip("v11.bt", &v11, 1.0, 1.0, GRIP_UNITS_METRES);
  /* 1.2: 4-byte integers, international feet. */
  bt_spec v12 = {2, 4, 7, 4, 0, 2, 0, 6326, 1000, 1400, 2000, 2700, 0, 0};
  check_roundtrip("v12.bt", &v12, 0.3048, 1.0, GRIP_UNITS_FEET);
  /* 1.2: US survey feet. */
  bt_spec v12u = v12;
  v12u.hunits = 3;
  check_roundtrip("v12u.bt", &v12u, 1200.0 / 3937.0, 1.0, GRIP_UNITS_US_FEET);
  /* 1.3: float heights with a vertical scale of 0.1 m per unit (decimetres). */
  bt_spec v13 = {3, 8, 5, 4, 1, 1, 17, 6326, -40, 40, -25, 25, 0, 0.1f};
  check_roundtrip("v13.bt", &v13, 1.0, (double)0.1f, GRIP_UNITS_METRES);
  /* 1.3: a zero vertical scale means 1. */
  bt_spec v13z = v13;
  v13z.vscale = 0.0f;
  v13z.data_size = 2;
  v13z.is_float = 0;
  check_roundtrip("v13z.bt", &v13z, 1.0, 1.0, GRIP_UNITS_METRES);
  /* 1.3: vertical scale in feet. */
  bt_spec v13f = v13;
  v13f.vscale = 0.3048f;
  check_roundtrip("v13f.bt", &v13f, 1.0, (double)0.3048f, GRIP_UNITS_METRES);
}

static void test_geographic(void) {
  /* 6 × 4 cells of 1/12° × 1/16° between 10°E–10.5°E and 45°N–45.25°N. */
  bt_spec g = {3, 6, 4, 2, 0, 0, 0, 6326, 10.0, 10.5, 45.0, 45.25, 0, 1.0f};
  char path[512];
  tmp_path(path, sizeof path, "geo.bt");
  write_bt(path, &g);
  grip_terrain t;
  grip_load_error err;
  grip_load_error_clear(&err);
  CHECK(grip_bt_load(path, &t, &err));
  CHECK(t.units == GRIP_UNITS_DEGREES);
  CHECK_NEAR(t.center_lon, 10.25, 1e-12);
  CHECK_NEAR(t.center_lat, 45.125, 1e-12);
  /* Equirectangular around the centre, R = 6 371 008.8 m. */
  double m_per_deg = 6371008.8 * PI / 180.0; /* 111 195.08 m */
  CHECK_NEAR(m_per_deg, 111195.08, 0.01);
  double coslat = cos(45.125 * PI / 180.0);
  CHECK_REL(t.dy, (0.25 / 4) * m_per_deg, 1e-12);          /* 6 949.69 m */
  CHECK_REL(t.dx, (0.5 / 6) * m_per_deg * coslat, 1e-12);  /* 6 540.5 m */
  CHECK_NEAR(t.origin_x, (10.0 + 0.5 / 12 - 10.25) * m_per_deg * coslat, 1e-6);
  CHECK_NEAR(t.origin_y, (45.0 + 0.25 / 8 - 45.125) * m_per_deg, 1e-6);
  /* The grid is symmetric about the local origin. */
  CHECK_NEAR(t.origin_x + (t.cols - 1) * t.dx, -t.origin_x, 1e-6);
  grip_terrain_free(&t);

  /* An external .prj saying GEOGCS overrides a header that claims metres (GDAL's writer sets
   * the units field to metres and relies on the .prj). */
  bt_spec e = g;
  e.hunits = 1;
  e.external = 1;
  e.minor = 2;
  tmp_path(path, sizeof path, "prj.bt");
  write_bt(path, &e);
  char prj[512];
  tmp_path(prj, sizeof prj, "prj.prj");
  FILE *f = fopen(prj, "w");
  fputs("GEOGCS[\"WGS 84\",DATUM[\"WGS_1984\",SPHEROID[\"WGS 84\",6378137,298.257223563]],"
        "PRIMEM[\"Greenwich\",0],UNIT[\"degree\",0.0174532925199433]]\n", f);
  fclose(f);
  CHECK(grip_bt_load(path, &t, &err));
  CHECK(t.units == GRIP_UNITS_DEGREES);
  CHECK(strncmp(t.crs, "GEOGCS[\"WGS 84\"", 15) == 0);
  CHECK_REL(t.dx, (0.5 / 6) * m_per_deg * coslat, 1e-12);
  grip_terrain_free(&t);
  /* Without the .prj file, the header's own units are used. */
  remove(prj);
  CHECK(grip_bt_load(path, &t, &err));
  CHECK(t.units == GRIP_UNITS_METRES);
  CHECK(strstr(t.crs, ".prj missing") != NULL);
  grip_terrain_free(&t);
  remove(path);
}

static void test_voids(void) {
  /* -32768 is a void; it is filled with the lowest valid height. */
  bt_spec s = {3, 3, 3, 2, 0, 1, 0, 0, 0, 3, 0, 3, 0, 1.0f};
  char path[512];
  tmp_path(path, sizeof path, "void.bt");
  write_bt(path, &s);
  FILE *f = fopen(path, "r+b");
  fseek(f, 256 + 2 * 4, SEEK_SET); /* column 1, row 1 */
  unsigned char v[2];
  put16(v, -32768);
  fwrite(v, 1, 2, f);
  fclose(f);
  grip_terrain t;
  grip_load_error err;
  grip_load_error_clear(&err);
  CHECK(grip_bt_load(path, &t, &err));
  CHECK(t.void_count == 1);
  CHECK_NEAR(t.heights[1 * 3 + 1], -250.0, 0.0); /* lowest valid: column 0, row 0 */
  CHECK_NEAR(t.min_height, -250.0, 0.0);
  grip_terrain_free(&t);
  remove(path);
}

/* Expects the load to fail with a message naming the file and containing `what`, and *out to
 * be left exactly as it was. */
static void expect_failure(const char *path, const char *what) {
  grip_terrain t;
  memset(&t, 0x5a, sizeof t);
  grip_terrain before = t;
  grip_load_error err;
  grip_load_error_clear(&err);
  bool ok = grip_bt_load(path, &t, &err);
  CHECK(!ok);
  if (ok) {
    grip_terrain_free(&t);
    return;
  }
  CHECK(memcmp(&t, &before, sizeof t) == 0);
  CHECK(strncmp(err.message, path, strlen(path)) == 0);
  if (!strstr(err.message, what)) {
    fprintf(stderr, "  message '%s' lacks '%s'\n", err.message, what);
    CHECK(!"expected message");
  }
}

static void write_bytes(const char *path, const unsigned char *b, size_t n) {
  FILE *f = fopen(path, "wb");
  fwrite(b, 1, n, f);
  fclose(f);
}

static void test_broken(void) {
  char good[512], bad[512];
  tmp_path(good, sizeof good, "good.bt");
  tmp_path(bad, sizeof bad, "bad.bt");
  bt_spec s = {3, 5, 4, 4, 1, 1, 0, 0, 0, 5, 0, 4, 0, 1.0f};
  size_t size = write_bt(good, &s);
  unsigned char *b = malloc(size);
  FILE *f = fopen(good, "rb");
  CHECK(fread(b, 1, size, f) == size);
  fclose(f);

  expect_failure("/nonexistent/dir/x.bt", "cannot open");
  write_bytes(bad, b, 0);
  expect_failure(bad, "offset 0: truncated header");
  write_bytes(bad, b, 100);
  expect_failure(bad, "offset 100: truncated header");
  write_bytes(bad, b, 255);
  expect_failure(bad, "truncated header");
  write_bytes(bad, b, size - 3);
  expect_failure(bad, "heights truncated");
  write_bytes(bad, b, 256);
  expect_failure(bad, "offset 256: heights truncated");

  unsigned char *m = malloc(size);
  memcpy(m, b, size);
  memcpy(m, "GIF89a....", 10);
  write_bytes(bad, m, size);
  expect_failure(bad, "offset 0: not a .bt file");

  memcpy(m, b, size);
  memcpy(m, "binterr2.0", 10);
  write_bytes(bad, m, size);
  expect_failure(bad, "offset 7: unsupported .bt version");

  memcpy(m, b, size);
  puti32(m + 10, 100000);
  puti32(m + 14, 100000);
  write_bytes(bad, m, size);
  expect_failure(bad, "offset 10: absurd size");

  memcpy(m, b, size);
  puti32(m + 10, -5);
  write_bytes(bad, m, size);
  expect_failure(bad, "offset 10:");

  memcpy(m, b, size);
  puti32(m + 10, 1);
  write_bytes(bad, m, size);
  expect_failure(bad, "offset 10:");

  memcpy(m, b, size);
  puti32(m + 10, 2000);
  puti32(m + 14, 2000); /* plausible size but the data are not there */
  write_bytes(bad, m, size);
  expect_failure(bad, "heights truncated");

  memcpy(m, b, size);
  put16(m + 18, 3);
  write_bytes(bad, m, size);
  expect_failure(bad, "offset 18:");

  memcpy(m, b, size);
  put16(m + 18, 2); /* 2-byte floats do not exist */
  write_bytes(bad, m, size);
  expect_failure(bad, "offset 18:");

  memcpy(m, b, size);
  put16(m + 22, 9);
  write_bytes(bad, m, size);
  expect_failure(bad, "offset 22:");

  memcpy(m, b, size);
  putf64(m + 36, -1.0); /* right < left */
  write_bytes(bad, m, size);
  expect_failure(bad, "offset 28: extents");

  memcpy(m, b, size);
  putf64(m + 44, NAN);
  write_bytes(bad, m, size);
  expect_failure(bad, "offset 28: extents");

  memcpy(m, b, size);
  putf32(m + 62, -2.0f);
  write_bytes(bad, m, size);
  expect_failure(bad, "offset 62:");

  memcpy(m, b, size);
  put16(m + 22, 0); /* degrees with a latitude beyond the pole */
  putf64(m + 44, 88.0);
  putf64(m + 52, 95.0);
  write_bytes(bad, m, size);
  expect_failure(bad, "extents do not fit");

  /* Garbage: random headers behind a valid magic, and every truncation of a good file. Only
   * "no crash, an error or a valid terrain" is asked (the sanitizer build checks memory). */
  uint32_t state = 12345;
  for (int k = 0; k < 300; ++k) {
    memcpy(m, b, size);
    for (size_t i = 10; i < 256; ++i) {
      state = state * 1664525u + 1013904223u;
      if ((state >> 24) < 40) m[i] = (unsigned char)(state >> 8);
    }
    write_bytes(bad, m, size);
    grip_terrain t;
    grip_load_error err;
    grip_load_error_clear(&err);
    if (grip_bt_load(bad, &t, &err)) {
      CHECK(t.rows >= 2 && t.cols >= 2 && t.heights != NULL);
      grip_terrain_free(&t);
    } else {
      CHECK(err.message[0] != '\0');
    }
  }
  for (size_t cut = 0; cut < size; cut += 7) {
    write_bytes(bad, b, cut);
    grip_terrain t;
    grip_load_error err;
    grip_load_error_clear(&err);
    CHECK(!grip_bt_load(bad, &t, &err));
  }
  free(m);
  free(b);
  remove(good);
  remove(bad);
}

static void test_heightfield_from_bt(void) {
  /* A tilted plane stored in a .bt: the heightfield built from it reproduces the plane at cell
   * centres and between them. z = 2 + 0.5·x − 0.25·y with x, y the cell-centre coordinates. */
  const int cols = 6, rows = 5;
  const double left = 1000.0, bottom = 2000.0, cell = 4.0;
  char path[512];
  tmp_path(path, sizeof path, "plane.bt");
  bt_spec s = {3, cols, rows, 4, 1, 1, 0, 0, left, left + cols * cell, bottom,
               bottom + rows * cell, 0, 1.0f};
  write_bt(path, &s);
  /* Overwrite the heights with the plane (float32-exact values). */
  FILE *f = fopen(path, "r+b");
  fseek(f, 256, SEEK_SET);
  for (int c = 0; c < cols; ++c)
    for (int r = 0; r < rows; ++r) {
      double x = left + (c + 0.5) * cell, y = bottom + (r + 0.5) * cell;
      unsigned char v[4];
      putf32(v, (float)(2.0 + 0.5 * x - 0.25 * y));
      fwrite(v, 1, 4, f);
    }
  fclose(f);
  grip_terrain t;
  grip_load_error err;
  grip_load_error_clear(&err);
  CHECK(grip_terrain_load(path, &t, &err));
  grip_heightfield_def def = grip_terrain_heightfield_def(&t);
  grip_heightfield *hf = NULL;
  CHECK(grip_heightfield_create(&def, &hf) == GRIP_OK);
  grip_terrain_free(&t);
  double probes[4][2] = {{1002.0, 2002.0}, {1021.9, 2017.5}, {1010.3, 2009.9}, {1013.0, 2011.0}};
  for (int k = 0; k < 4; ++k) {
    grip_ground_sample gs;
    CHECK(grip_heightfield_sample(hf, probes[k][0], probes[k][1], &gs));
    CHECK_NEAR(gs.height, 2.0 + 0.5 * probes[k][0] - 0.25 * probes[k][1], 1e-9);
    double l = sqrt(0.25 + 0.0625 + 1.0);
    CHECK_NEAR(gs.normal.x, -0.5 / l, 1e-12);
    CHECK_NEAR(gs.normal.y, 0.25 / l, 1e-12);
  }
  /* The outer half cell has no samples beyond the centres: no ground there. */
  double h;
  CHECK(!grip_heightfield_height(hf, 1001.0, 2010.0, &h));
  grip_heightfield_destroy(hf);
  remove(path);
}

int main(void) {
  RUN_TEST(test_variants);
  RUN_TEST(test_geographic);
  RUN_TEST(test_voids);
  RUN_TEST(test_broken);
  RUN_TEST(test_heightfield_from_bt);
  return TEST_RESULT();
}
