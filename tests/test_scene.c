/* Scene files (io/scene.c) and the world built from them (sim/scene_world.c).
 *
 * The ground is an analytic plane written here as a .bt file (float32 heights at the cell
 * centres, layout from the format description), so the height under every car is known in
 * closed form: z = A·x + C. Cars must land at their x, y and heading, on that plane (the design
 * frame's origin is the ground point at static ride height), tilted onto its normal, and stay
 * there within millimetres after 2 s with the brakes on. Broken files must give the right
 * file:line and change nothing; a corpus of mutated files must never crash (run under ASan). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "car_file.h"
#include "race.h"
#include "scene.h"
#include "scene_world.h"
#include "test.h"

#define PI 3.14159265358979323846

/* The test terrain: z = A·x + C, 101 × 81 samples 2 m apart from (-100, -80) to (100, 80). */
#define A_SLOPE 0.0625 /* with C and the even sample x, every height is exact in float32 */
#define C_HEIGHT 12.5
#define COLS 101
#define ROWS 81
#define CELL 2.0

static double plane_z(double x) { return A_SLOPE * x + C_HEIGHT; }

static void put_le(unsigned char *p, uint64_t v, int n) {
  for (int i = 0; i < n; ++i) p[i] = (unsigned char)(v >> (8 * i));
}

static void write_plane_bt(const char *path) {
  size_t size = 256 + (size_t)COLS * ROWS * 4;
  unsigned char *b = calloc(size, 1);
  memcpy(b, "binterr1.3", 10);
  put_le(b + 10, COLS, 4);
  put_le(b + 14, ROWS, 4);
  put_le(b + 18, 4, 2); /* bytes per height */
  put_le(b + 20, 1, 2); /* float */
  put_le(b + 22, 1, 2); /* metres */
  const double ext[4] = {-100.0 - 0.5 * CELL, 100.0 + 0.5 * CELL, -80.0 - 0.5 * CELL, 80.0 + 0.5 * CELL};
  for (int i = 0; i < 4; ++i) {
    uint64_t u;
    memcpy(&u, &ext[i], 8);
    put_le(b + 28 + 8 * i, u, 8);
  }
  float one = 1.0f;
  uint32_t u1;
  memcpy(&u1, &one, 4);
  put_le(b + 62, u1, 4);
  unsigned char *p = b + 256;
  for (int c = 0; c < COLS; ++c)
    for (int r = 0; r < ROWS; ++r, p += 4) {
      float h = (float)plane_z(-100.0 + CELL * c);
      uint32_t u;
      memcpy(&u, &h, 4);
      put_le(p, u, 4);
    }
  FILE *f = fopen(path, "wb");
  fwrite(b, 1, size, f);
  fclose(f);
  free(b);
}

static char dir[512], bt_path[600];

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  fputs(text, f);
  fclose(f);
}

/* Body z-axis and x-axis in the world of a pose. */
static grip_vec3 axis_z(grip_quat q) {
  return (grip_vec3){2.0 * (q.x * q.z + q.w * q.y), 2.0 * (q.y * q.z - q.w * q.x), 1.0 - 2.0 * (q.x * q.x + q.y * q.y)};
}
static grip_vec3 axis_x(grip_quat q) {
  return (grip_vec3){1.0 - 2.0 * (q.y * q.y + q.z * q.z), 2.0 * (q.x * q.y + q.w * q.z), 2.0 * (q.x * q.z - q.w * q.y)};
}

static const char *terrain_scene =
    "[scene]\n"                 /* 1 */
    "name = Tilted\n"           /* 2 */
    "terrain = plane.bt\n"      /* 3 */
    "[car up]\n"                /* 4 */
    "x = 10\n"                  /* 5 */
    "y = 5\n"                   /* 6 */
    "heading_deg = 0\n"         /* 7 */
    "brake = 1\n"               /* 8 */
    "[car across]\n"            /* 9 */
    "file = builtin\n"          /* 10 */
    "x = -40\n"                 /* 11 */
    "y = -20\n"                 /* 12 */
    "heading_deg = 90\n"        /* 13 */
    "brake = 1\n"               /* 14 */
    "[car dropped]\n"           /* 15 */
    "x = 50\n"                  /* 16 */
    "y = 40\n"                  /* 17 */
    "heading_deg = -150\n"      /* 18 */
    "z = 16.0\n"                /* 19 */
    "brake = 1\n"               /* 20 */
    "[camera]\n"                /* 21 */
    "mode = orbit\n"            /* 22 */
    "target = 0, 0, 12.5\n"     /* 23 */
    "distance = 30\n";          /* 24 */

static void test_terrain_scene(void) {
  char path[700];
  snprintf(path, sizeof path, "%s/tilted.ini", dir);
  write_text(path, terrain_scene);
  grip_scene *sc = malloc(sizeof *sc);
  grip_load_error err;
  int rc = grip_scene_load(path, sc, &err);
  CHECK(rc == 0);
  if (rc != 0) {
    fprintf(stderr, "%s\n", err.message);
    free(sc);
    return;
  }
  CHECK(strcmp(sc->name, "Tilted") == 0);
  CHECK(sc->ground == GRIP_SCENE_GROUND_TERRAIN);
  CHECK(sc->car_count == 3);
  CHECK(sc->camera.mode == GRIP_SCENE_CAMERA_ORBIT && sc->camera.has_target);
  CHECK_NEAR(sc->camera.distance, 30.0, 0.0);
  CHECK_NEAR(sc->camera.target.z, 12.5, 0.0);
  CHECK_NEAR(sc->cars[2].heading, -150.0 * PI / 180.0, 1e-15);
  scene_world *sw = NULL;
  rc = scene_world_create(sc, 0, &sw, &err);
  CHECK(rc == 0);
  if (rc != 0) {
    fprintf(stderr, "%s\n", err.message);
    free(sc);
    return;
  }
  CHECK(sw->terrain.rows == ROWS && sw->terrain.cols == COLS);
  CHECK_NEAR(sw->terrain.origin_x, -100.0, 1e-12);
  CHECK_NEAR(sw->terrain.origin_y, -80.0, 1e-12);
  const double n_len = sqrt(1.0 + A_SLOPE * A_SLOPE);
  const grip_vec3 normal = {-A_SLOPE / n_len, 0.0, 1.0 / n_len};
  static const double xs[3] = {10.0, -40.0, 50.0}, ys[3] = {5.0, -20.0, 40.0};
  grip_vehicle_state st;
  for (int k = 0; k < 3; ++k) {
    const scene_world_car *wc = &sw->cars[k];
    grip_vehicle_get_state(sw->world, wc->id, &st);
    CHECK_NEAR(st.pose.position.x, xs[k], 1e-9);
    CHECK_NEAR(st.pose.position.y, ys[k], 1e-9);
    CHECK_NEAR(wc->ground_z, plane_z(xs[k]), 1e-5);
    double expect_z = k == 2 ? 16.0 : plane_z(xs[k]);
    CHECK_NEAR(st.pose.position.z, expect_z, 1e-5);
    /* Standing on the plane: body z along the ground normal, body x in the ground plane. */
    grip_vec3 bz = axis_z(st.pose.rotation), bx = axis_x(st.pose.rotation);
    CHECK_NEAR(bz.x * normal.x + bz.y * normal.y + bz.z * normal.z, 1.0, 1e-9);
    CHECK_NEAR(bx.x * normal.x + bx.y * normal.y + bx.z * normal.z, 0.0, 1e-9);
  }
  /* Heading 0 climbs the slope: forward = (1, 0, A)/|.|; heading 90 runs along the contour. */
  grip_vehicle_get_state(sw->world, sw->cars[0].id, &st);
  grip_vec3 f = axis_x(st.pose.rotation);
  CHECK_NEAR(f.x, 1.0 / n_len, 1e-9);
  CHECK_NEAR(f.y, 0.0, 1e-9);
  CHECK_NEAR(f.z, A_SLOPE / n_len, 1e-9);
  grip_vehicle_get_state(sw->world, sw->cars[1].id, &st);
  f = axis_x(st.pose.rotation);
  CHECK_NEAR(atan2(f.y, f.x), PI / 2, 1e-9);
  CHECK_NEAR(f.z, 0.0, 1e-9);
  /* The centre of mass stands cg_z above the ground along the normal (design frame: origin on
   * the ground at ride height). */
  grip_vehicle_get_state(sw->world, sw->cars[0].id, &st);
  const grip_vehicle_def *d = &sw->cars[0].car.def;
  double cg_perp = (st.center_of_mass.x - st.pose.position.x) * normal.x +
                   (st.center_of_mass.z - st.pose.position.z) * normal.z + (st.center_of_mass.y - st.pose.position.y) * normal.y;
  CHECK_NEAR(cg_perp, d->body.center_of_mass.z, 1e-9);

  /* Settling: 2 s with the brakes on; each car stays put on the ground within millimetres (the
   * dropped one falls 16 − z_ground ≈ 0.5 m first). */
  for (int i = 0; i < 1000; ++i) scene_world_step(sw, 0.002);
  for (int k = 0; k < 3; ++k) {
    grip_vehicle_get_state(sw->world, sw->cars[k].id, &st);
    CHECK_NEAR(st.pose.position.z, plane_z(st.pose.position.x), 0.005);
    CHECK_NEAR(st.pose.position.x, xs[k], 0.02);
    CHECK_NEAR(st.pose.position.y, ys[k], 0.02);
    for (int j = 0; j < GRIP_WHEEL_COUNT; ++j) CHECK(st.wheels[j].in_contact);
    printf("  car %d after 2 s: z - ground = %+.5f m, moved %.4f m\n", k, st.pose.position.z - plane_z(st.pose.position.x),
           hypot(st.pose.position.x - xs[k], st.pose.position.y - ys[k]));
  }
  scene_world_destroy(sw);
  free(sc);
}

/* A plane scene: a car started at 36 km/h coasts; a braked one stays. */
static void test_plane_speed(void) {
  const char *text = "[scene]\nground = plane\nplane_height = -3.25\nplane_surface = gravel\n"
                     "[car a]\nx = 0\ny = 0\nheading_deg = 45\nspeed_kmh = 36\n";
  grip_scene *sc = malloc(sizeof *sc);
  grip_load_error err;
  CHECK(grip_scene_parse(text, "plane.ini", NULL, sc, &err) == 0);
  CHECK_NEAR(sc->plane_surface.friction, grip_surface_preset("gravel").friction, 0.0);
  scene_world *sw = NULL;
  CHECK(scene_world_create(sc, 0, &sw, &err) == 0);
  if (!sw) {
    fprintf(stderr, "%s\n", err.message);
    free(sc);
    return;
  }
  grip_vehicle_state st;
  grip_vehicle_get_state(sw->world, sw->cars[0].id, &st);
  CHECK_NEAR(st.pose.position.z, -3.25, 1e-9);
  CHECK_NEAR(st.speed, 10.0, 1e-9);
  CHECK_NEAR(st.linear_velocity.x, 10.0 * cos(PI / 4), 1e-9);
  CHECK_NEAR(st.linear_velocity.y, 10.0 * sin(PI / 4), 1e-9);
  free(sc);
  scene_world_destroy(sw);
}

/* A track scene: cars without x/y take the race grid (first slot 6 m behind the line, 3 m left
 * of the centre line on a 12 m road; docs/driver.md); a placed car keeps its place. */
static void test_track_grid(void) {
  const char *text = "[scene]\ntrack = default\n[car a]\ndriver = robot\n[car b]\n[car c]\nx = 40\ny = -2\n"
                     "heading_deg = 0\ndriver = robot\n";
  grip_scene *sc = malloc(sizeof *sc);
  grip_load_error err;
  CHECK(grip_scene_parse(text, "grid.ini", NULL, sc, &err) == 0);
  scene_world *sw = NULL;
  CHECK(scene_world_create(sc, 0, &sw, &err) == 0);
  if (!sw) {
    fprintf(stderr, "%s\n", err.message);
    free(sc);
    return;
  }
  double L = grip_track_length(sw->track);
  grip_vehicle_state st;
  grip_vehicle_get_state(sw->world, sw->cars[0].id, &st);
  grip_track_location loc = grip_track_locate_full(sw->track, st.pose.position.x, st.pose.position.y);
  CHECK_NEAR(loc.distance, L - 6.0, 1e-6);
  CHECK_NEAR(loc.lateral, 3.0, 1e-6);
  grip_vehicle_get_state(sw->world, sw->cars[1].id, &st);
  loc = grip_track_locate_full(sw->track, st.pose.position.x, st.pose.position.y);
  CHECK_NEAR(loc.distance, L - 10.0, 1e-6);
  CHECK_NEAR(loc.lateral, -3.0, 1e-6);
  CHECK(sw->cars[0].grid_slot == 0 && sw->cars[1].grid_slot == 1 && sw->cars[2].grid_slot == -1);
  CHECK(sw->cars[0].bot != NULL && sw->cars[1].bot == NULL && sw->cars[2].bot != NULL);
  grip_vehicle_get_state(sw->world, sw->cars[2].id, &st);
  CHECK_NEAR(st.pose.position.x, 40.0, 1e-9);
  CHECK_NEAR(st.pose.position.y, -2.0, 1e-9);
  /* The robot drives off: after 5 s car a has moved forward along the track. */
  for (int i = 0; i < 500; ++i) scene_world_step(sw, 0.01);
  grip_vehicle_get_state(sw->world, sw->cars[0].id, &st);
  CHECK(st.speed > 10.0);
  scene_world_destroy(sw);
  free(sc);
}

/* Two cars whose body boxes are one box length apart along x (plus or minus 1 cm). */
static void test_overlap(void) {
  grip_vehicle_def d = grip_default_vehicle_def();
  double len = d.body.dimensions.x;
  char text[400];
  grip_scene *sc = malloc(sizeof *sc);
  grip_load_error err;
  for (int apart = 0; apart <= 1; ++apart) {
    snprintf(text, sizeof text, "[scene]\nground = plane\n[car a]\nx = 0\ny = 0\n[car b]\nx = %.6f\ny = 0\n",
             len + (apart ? 0.01 : -0.01));
    CHECK(grip_scene_parse(text, "overlap.ini", NULL, sc, &err) == 0);
    scene_world *sw = NULL;
    int rc = scene_world_create(sc, 0, &sw, &err);
    CHECK(rc == (apart ? 0 : -1));
    if (!apart) {
      CHECK(strstr(err.message, "overlap.ini:8: x, y: car 'b' overlaps car 'a'") == err.message);
      CHECK(sw == NULL);
    }
    scene_world_destroy(sw);
  }
  /* Side by side, rotated 90 degrees: overlap decided by the widths. */
  double wid = d.body.dimensions.y;
  snprintf(text, sizeof text, "[scene]\nground = plane\n[car a]\nx = 0\ny = 0\nheading_deg = 90\n[car b]\nx = %.6f\ny = 0\nheading_deg = 90\n",
           wid - 0.01);
  CHECK(grip_scene_parse(text, "overlap.ini", NULL, sc, &err) == 0);
  scene_world *sw = NULL;
  CHECK(scene_world_create(sc, 0, &sw, &err) == -1);
  CHECK(strstr(err.message, "overlap.ini:9: x, y: car 'b' overlaps car 'a'") == err.message);
  free(sc);
}

/* Build-time errors: outside the terrain, below the ground, a car file that does not load. */
static void test_build_errors(void) {
  grip_scene *sc = malloc(sizeof *sc);
  grip_load_error err;
  char text[600];
  struct {
    const char *body;
    const char *expect; /* start of the message after "dir/b.ini:" */
  } cases[] = {
      {"[car a]\nx = 99\ny = 0\n", "5: x, y: car 'a' at (99.000, 0.000) reaches outside the terrain"},
      {"[car a]\nx = 0\ny = -79.5\nheading_deg = 90\n", "5: x, y: car 'a' at (0.000, -79.500) reaches outside"},
      {"[car a]\nx = 0\ny = 0\nz = 12.4\n", "6: z: 12.4000 m puts car 'a' into the ground"},
  };
  char path[700], car[700];
  snprintf(car, sizeof car, "%s/broken.ini", dir);
  write_text(car, "[engine]\nidle_rpm = fast\n");
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    snprintf(text, sizeof text, "[scene]\nterrain = plane.bt\n%s", cases[i].body);
    snprintf(path, sizeof path, "%s/b.ini", dir);
    write_text(path, text);
    CHECK(grip_scene_load(path, sc, &err) == 0);
    scene_world *sw = NULL;
    CHECK(scene_world_create(sc, 0, &sw, &err) == -1);
    char expect[1100];
    snprintf(expect, sizeof expect, "%s:%s", path, cases[i].expect);
    if (strncmp(err.message, expect, strlen(expect)) != 0) {
      fprintf(stderr, "case %zu: got '%s', expected '%s...'\n", i, err.message, expect);
      CHECK(0);
    }
  }
  /* A broken car file: the scene's loader reads each car file (for the trailers it may name)
   * and reports it at the scene's file line, keeping the car file's own line. */
  snprintf(text, sizeof text, "[scene]\nterrain = plane.bt\n[car a]\nx = 0\ny = 0\n[car b]\nfile = broken.ini\nx = 10\ny = 0\n");
  snprintf(path, sizeof path, "%s/b.ini", dir);
  write_text(path, text);
  CHECK(grip_scene_load(path, sc, &err) == -1);
  char expect[1100];
  snprintf(expect, sizeof expect, "%s:7: file: ", path);
  CHECK(strncmp(err.message, expect, strlen(expect)) == 0);
  CHECK(strstr(err.message, "broken.ini:2") != NULL);
  free(sc);
}

/* Parse errors: line numbers and messages; *out unchanged on failure. */
static void test_parse_errors(void) {
  struct {
    const char *text;
    int line;
    const char *what;
  } cases[] = {
      {"[scene]\nground = plane\n", 0, "no car"},
      {"[car a]\nx = 0\ny = 0\n", 0, "no ground"},
      {"[scene]\nground = plane\ntrack = default\n[car a]\nx=0\ny=0\n", 3, "track: a scene has exactly one ground, already given by 'ground' on line 2"},
      {"[scene]\nground = plane\n[car a]\nx = 1e999\ny = 0\n", 4, "x: '1e999' is not a finite number"},
      {"[scene]\nground = plane\n[car a]\nx = 0\ny = 0\nheading_deg = 400\n", 6, "heading_deg: 400 is out of range (allowed -360 .. 360 deg)"},
      {"[scene]\nground = plane\n[car a]\nx = 0\ny = 0\nspeed_kmh = -1\n", 6, "speed_kmh: -1 is out of range"},
      {"[scene]\nground = plane\n[car a]\nx = 0\ny = nan\n", 5, "y: 'nan' is not a number"},
      {"[scene]\nground = plane\n[car a]\nx = 0\ny = 3 m\n", 5, "y: '3 m' is not a number (junk after it)"},
      {"[scene]\nground = plane\n[car a]\nx = 0\n", 4, "x: give both x and y"},
      {"[scene]\nground = plane\n[car a]\n", 3, "car 'a' needs x and y (grid slots exist on track scenes only)"},
      {"[scene]\nground = plane\n[car a]\nx=0\ny=0\n[car a]\nx=5\ny=5\n", 6, "car 'a' appears twice (first on line 3)"},
      {"[scene]\nground = plane\n[car]\n", 3, "[car] needs a name"},
      {"[scene]\nground = plane\n[car a/b]\n", 3, "car name 'a/b' is not valid"},
      {"[scene]\nground = hill\n", 2, "ground: 'hill' is not a ground"},
      {"[scene]\nground = plane\nplane_surface = lava\n", 3, "plane_surface: unknown surface 'lava' (allowed: asphalt, concrete"},
      {"[scene]\nground = plane\nterrain_edge = clamp\n[car a]\nx=0\ny=0\n", 3, "terrain_edge: only for a terrain ground"},
      {"[scene]\nterrain = missing.bt\n", 2, "terrain: "},
      {"[scene]\nground = plane\n[car a]\nx=0\ny=0\ndriver = robot\n", 6, "driver: robot drives on track scenes only"},
      {"[scene]\ntrack = default\n[car a]\ndriver = robot\nthrottle = 0.5\n", 5, "throttle: only with driver = none"},
      {"[scene]\nground = plane\n[car a]\nx=0\ny=0\nthrottle = 0.5\nbrake = 0.2\n", 7, "brake: throttle and brake together"},
      {"[scene]\nground = plane\n[car a]\nx=0\ny=0\nx=1\n", 6, "x: given twice (first on line 4)"},
      {"[scene]\nground = plane\n[camera]\nfollow = b\n[car a]\nx=0\ny=0\n", 4, "follow: no car named 'b'"},
      {"[scene]\nground = plane\n[camera]\nmode = fixed\n[car a]\nx=0\ny=0\n", 3, "position: a fixed camera needs a position"},
      {"[scene]\nground = plane\n[camera]\nfov_deg = 5\n", 4, "fov_deg: 5 is out of range (allowed 10 .. 150 deg)"},
      {"[scene]\nground = plane\n[camera]\nmode = fixed\nposition = 1, 2\n", 5, "position: '1, 2' is not three numbers"},
      {"[scene]\nground = plane\n[camera]\nmode = chase\ntarget = 0,0,0\n[car a]\nx=0\ny=0\n", 5, "target: a chase camera follows a car"},
      {"x = 1\n[scene]\n", 1, "x: key outside any [section]"},
      {"[scene]\nground = plane\nthis line has no equals sign\n", 3, "syntax error"},
      {"[scene\nground = plane\n", 1, "syntax error"},
      {"[scene]\n[scene]\n", 2, "[scene] appears twice"},
      {"[scene]\ngravity = 0\n", 2, "gravity: 0 is out of range"},
      {"[scene]\nground = plane\n[car a]\nx=0\ny=0\ngear = sideways\n", 6, "gear: 'sideways' is not a gear"},
      /* towing */
      {"[scene]\nground = plane\n[car a]\nx=0\ny=0\n[car t]\ntow = b\ntow_point = -2.6, 0, 0.45\ncoupling = 2.6, 0, 0.45\n", 7, "tow: no car named 'b' in the scene"},
      {"[scene]\nground = plane\n[car a]\nx=0\ny=0\n[car t]\ntow = a\ncoupling = 2.6, 0, 0.45\n", 7, "tow: car 't' is towed: give tow_point"},
      {"[scene]\nground = plane\n[car a]\nx=0\ny=0\n[car t]\ntow = a\ntow_point = -2.6, 0, 0.45\ncoupling = 2.6, 0, 0.45\nx = 5\ny = 0\n", 10, "x: car 't' is towed: it starts behind 'a'"},
      {"[scene]\nground = plane\n[car a]\nx=0\ny=0\n[car t]\ntow = a\ntow_point = -2.6, 0, 0.45\ncoupling = 2.6, 0, 0.45\nthrottle = 1\n", 10, "throttle: car 't' is towed"},
      {"[scene]\ntrack = default\n[car a]\n[car t]\ntow = a\ntow_point = -2.6, 0, 0.45\ncoupling = 2.6, 0, 0.45\ndriver = robot\n", 8, "driver: car 't' is towed: no robot drives it"},
      {"[scene]\nground = plane\n[car a]\nx=0\ny=0\ntow = a\n", 6, "tow: car 'a' cannot tow itself"},
      {"[scene]\nground = plane\n[car a]\nx=0\ny=0\nhitch = ball\n", 6, "hitch: only with tow = NAME"},
      {"[scene]\nground = plane\n[car a]\nx=0\ny=0\n[car t]\ntow = a\nhitch = hook\n", 8, "hitch: 'hook' is not a hitch (allowed: ball, fifth_wheel)"},
      {"[scene]\nground = plane\n[car a]\nx=0\ny=0\n[car t]\ntow = a\ntow_point = -2.6, 0\n", 8, "tow_point: '-2.6, 0' is not three numbers"},
      {"[scene]\nground = plane\n[car a]\ntow = b\ntow_point = 0,0,0\ncoupling = 0,0,0\n[car b]\ntow = a\ntow_point = 0,0,0\ncoupling = 0,0,0\n", 4, "tow: car 'a' would tow itself through a chain"},
      {"[scene]\nground = plane\n[car a]\nx=0\ny=0\n[car t]\ntow = a\ntow_point = 0,0,0\ncoupling = 0,0,0\n[car u]\ntow = a\ntow_point = 0,0,0\ncoupling = 0,0,0\n", 11, "tow: car 'a' already tows 't'"},
  };
  grip_scene *sc = malloc(sizeof *sc);
  grip_scene *before = malloc(sizeof *before);
  memset(sc, 0x5a, sizeof *sc);
  memcpy(before, sc, sizeof *sc);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    grip_load_error err;
    int rc = grip_scene_parse(cases[i].text, "s.ini", dir, sc, &err);
    char prefix[40];
    if (cases[i].line) snprintf(prefix, sizeof prefix, "s.ini:%d: ", cases[i].line);
    else snprintf(prefix, sizeof prefix, "s.ini: ");
    bool ok = rc == -1 && err.line == cases[i].line && strncmp(err.message, prefix, strlen(prefix)) == 0 &&
              strstr(err.message, cases[i].what) == err.message + strlen(prefix);
    if (!ok) fprintf(stderr, "case %zu: rc %d, got '%s', expected '%s%s...'\n", i, rc, err.message, prefix, cases[i].what);
    CHECK(ok);
  }
  CHECK(memcmp(sc, before, sizeof *sc) == 0);
  free(before);
  free(sc);
}

/* Unknown keys and sections are warnings, with their lines. */
/* Towing (tow = NAME): the trailer starts straight behind its tow with the two hitch points
 * over each other and the lead car's speed; driven on a plane and over the tilted terrain, the points
 * stay within 1 mm; heights that don't match are refused; races refuse towed cars. */
static void test_towing(void) {
  const char *const grounds[] = {"ground = plane", "terrain = plane.bt"};
  for (int g = 0; g < 2; ++g) {
    char text[800], path[700];
    snprintf(text, sizeof text,
             "[scene]\n%s\n[car lead]\nx = -20\ny = 0\nheading_deg = 30\nspeed_kmh = 40\nthrottle = 0.2\nsteer = 0.02\n"
             "[car caravan]\ntow = lead\ntow_point = -2.6, 0, 0.45\ncoupling = 2.6, 0, 0.45\n"
             "[car second]\ntow = caravan\nhitch = fifth_wheel\ntow_point = -2.6, 0, 0.45\ncoupling = 2.6, 0, 0.45\n",
             grounds[g]);
    snprintf(path, sizeof path, "%s/tow.ini", dir);
    write_text(path, text);
    grip_scene *sc = malloc(sizeof *sc);
    grip_load_error err;
    scene_world *sw = NULL;
    CHECK(grip_scene_load(path, sc, &err) == 0);
    if (scene_world_create(sc, 0, &sw, &err) != 0) {
      fprintf(stderr, "%s\n", err.message);
      CHECK(0);
      free(sc);
      continue;
    }
    /* the start: 5.2 m between the design origins, straight behind along the heading */
    const double h = 30.0 * PI / 180.0;
    for (int k = 1; k < 3; ++k) {
      const scene_world_car *a = &sw->cars[k - 1], *b = &sw->cars[k];
      if (g == 0) { /* level: exactly 5.2 m back along the heading */
        CHECK_NEAR(b->start.position.x, a->start.position.x - 5.2 * cos(h), 1e-9);
        CHECK_NEAR(b->start.position.y, a->start.position.y - 5.2 * sin(h), 1e-9);
      } else { /* on the tilted terrain the tow's pitch moves its ball a little in plan */
        double dx = a->start.position.x - b->start.position.x, dy = a->start.position.y - b->start.position.y;
        CHECK_NEAR(hypot(dx, dy), 5.2, 0.05);
        CHECK_NEAR(atan2(dy, dx), h, 0.01);
      }
      CHECK(grip_hitch_is_valid(sw->world, b->hitch));
      grip_vehicle_state st;
      grip_vehicle_get_state(sw->world, b->id, &st);
      CHECK_NEAR(st.speed, 40.0 / 3.6, 1e-6);
    }
    double worst = 0.0;
    for (int i = 0; i < 1500; ++i) {
      CHECK(scene_world_step(sw, 0.004) == GRIP_OK);
      for (int k = 1; k < 3; ++k) {
        grip_hitch_state hs;
        CHECK(grip_hitch_get_state(sw->world, sw->cars[k].hitch, &hs) == GRIP_OK);
        worst = fmax(worst, hs.gap);
      }
    }
    grip_vehicle_state a, c;
    grip_vehicle_get_state(sw->world, sw->cars[0].id, &a);
    grip_vehicle_get_state(sw->world, sw->cars[2].id, &c);
    printf("  %s: 6 s, lead at %.1f km/h, largest gap %.3g mm, last car %.2f m behind\n", grounds[g], 3.6 * a.speed,
           1e3 * worst, hypot(a.pose.position.x - c.pose.position.x, a.pose.position.y - c.pose.position.y));
    CHECK(worst < 1e-3);
    CHECK(a.speed > 5.0);
    /* carried elsewhere (a click-to-place): the chain comes along, straight behind, at rest */
    CHECK(scene_world_place(sw, 0, 10.0, -15.0, PI / 2));
    for (int k = 0; k < 3; ++k) {
      grip_vehicle_state st;
      grip_vehicle_get_state(sw->world, sw->cars[k].id, &st);
      CHECK_NEAR(st.pose.position.x, 10.0, 0.01 + 0.04 * k); /* a tilted tow moves its ball in plan */
      CHECK_NEAR(st.pose.position.y, -15.0 - 5.2 * k, 0.05 + 0.05 * k);
      CHECK(st.speed < 1e-9);
    }
    scene_world_step(sw, 0.004);
    for (int k = 1; k < 3; ++k) {
      grip_hitch_state hs;
      grip_hitch_get_state(sw->world, sw->cars[k].hitch, &hs);
      CHECK(hs.gap < 1e-3);
      CHECK(fabs(hs.force.x) + fabs(hs.force.y) < 2000.0); /* no yank back across the world */
    }
    scene_world_destroy(sw);
    free(sc);
  }
  /* a coupling 0.5 m higher than the ball is refused at the build, with the tow's line */
  char path[700];
  snprintf(path, sizeof path, "%s/tow.ini", dir);
  write_text(path, "[scene]\nground = plane\n[car lead]\nx = 0\ny = 0\n[car t]\ntow = lead\n"
                   "tow_point = -2.6, 0, 0.45\ncoupling = 2.6, 0, 0.95\n");
  grip_scene *sc = malloc(sizeof *sc);
  grip_load_error err;
  scene_world *sw = NULL;
  CHECK(grip_scene_load(path, sc, &err) == 0);
  CHECK(scene_world_create(sc, 0, &sw, &err) == -1);
  char expect[800];
  snprintf(expect, sizeof expect, "%s:7: tow: car 't' stands with its coupling 0.50 m above the hitch point of 'lead'", path);
  CHECK(strncmp(err.message, expect, strlen(expect)) == 0);
  if (strncmp(err.message, expect, strlen(expect)) != 0) fprintf(stderr, "got '%s'\n", err.message);
  free(sc);
}

static void test_warnings(void) {
  grip_scene *sc = malloc(sizeof *sc);
  grip_load_error err;
  const char *text = "[scene]\nground = plane\ncolour = red\n[lights]\nsun = 1\n[car a]\nx=0\ny=0\nwings = 2\n";
  CHECK(grip_scene_parse(text, "w.ini", NULL, sc, &err) == 0);
  CHECK(sc->warning_count == 3);
  CHECK(strcmp(sc->warnings[0], "w.ini:3: [scene] colour: unknown key ignored") == 0);
  CHECK(strcmp(sc->warnings[1], "w.ini:4: unknown section [lights] ignored") == 0);
  CHECK(strcmp(sc->warnings[2], "w.ini:9: [car a] wings: unknown key ignored") == 0);
  free(sc);
}

/* Mutated copies of valid scenes: never a crash, always 0 or an error with a message. */
static void test_fuzz(void) {
  const char *seeds[] = {terrain_scene,
                         "[scene]\ntrack = default\n[camera]\nmode = fixed\nposition = 1, 2, 3\ntarget = 0,0,0\n"
                         "[car a]\nfile = builtin\n[car b]\nx = 1\ny = 2\nspeed_kmh = 50\n"};
  const char alphabet[] = "[]=;#,.-+e0123456789 \n\tabcxyz_";
  uint64_t state = 12345;
  grip_scene *sc = malloc(sizeof *sc);
  char buf[2048];
  int accepted = 0, rejected = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    const char *seed = seeds[iter % 2];
    size_t n = strlen(seed);
    memcpy(buf, seed, n + 1);
    int edits = 1 + iter % 4;
    for (int e = 0; e < edits; ++e) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      size_t pos = (size_t)(state >> 33) % (n ? n : 1);
      int op = (int)((state >> 20) % 3);
      char ch = alphabet[(state >> 40) % (sizeof alphabet - 1)];
      if (op == 0) buf[pos] = ch;
      else if (op == 1) memmove(buf + pos, buf + pos + 1, n - pos), --n;
      else if (n + 2 < sizeof buf) memmove(buf + pos + 1, buf + pos, n - pos + 1), buf[pos] = ch, ++n;
    }
    grip_load_error err;
    int rc = grip_scene_parse(buf, "fuzz.ini", dir, sc, &err);
    if (rc == 0) {
      accepted++;
      scene_world *sw = NULL;
      if (scene_world_create(sc, SCENE_WORLD_NO_ROBOTS, &sw, &err) == 0) scene_world_destroy(sw);
      else CHECK(strncmp(err.message, "fuzz.ini", 8) == 0);
    } else {
      rejected++;
      CHECK(strncmp(err.message, "fuzz.ini", 8) == 0);
    }
  }
  printf("  fuzz: %d accepted, %d rejected\n", accepted, rejected);
  CHECK(accepted > 0 && rejected > 0);
  free(sc);
}

/* The shipped examples load and build. */
static void test_shipped(void) {
  const char *files[] = {GRIP_SOURCE_DIR "/data/scenes/hills.ini", GRIP_SOURCE_DIR "/data/scenes/park-race.ini"};
  grip_scene *sc = malloc(sizeof *sc);
  for (int i = 0; i < 2; ++i) {
    grip_load_error err;
    int rc = grip_scene_load(files[i], sc, &err);
    CHECK(rc == 0);
    if (rc) {
      fprintf(stderr, "%s\n", err.message);
      continue;
    }
    CHECK(sc->warning_count == 0);
    CHECK(sc->car_count == 3);
    scene_world *sw = NULL;
    CHECK(scene_world_create(sc, SCENE_WORLD_NO_ROBOTS, &sw, &err) == 0);
    if (!sw) fprintf(stderr, "%s\n", err.message);
    scene_world_destroy(sw);
  }
  free(sc);
}

int main(void) {
  snprintf(dir, sizeof dir, "%s/test_scene_files", GRIP_BINARY_DIR);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
  if (system(cmd) != 0) TEST_SKIP("cannot create the work directory");
  snprintf(bt_path, sizeof bt_path, "%s/plane.bt", dir);
  write_plane_bt(bt_path);
  RUN_TEST(test_terrain_scene);
  RUN_TEST(test_plane_speed);
  RUN_TEST(test_track_grid);
  RUN_TEST(test_overlap);
  RUN_TEST(test_build_errors);
  RUN_TEST(test_parse_errors);
  RUN_TEST(test_towing);
  RUN_TEST(test_warnings);
  RUN_TEST(test_fuzz);
  RUN_TEST(test_shipped);
  return TEST_RESULT();
}
