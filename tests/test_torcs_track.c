/* TORCS track import against a small fixture written here (entity include, str/lft/rgt, an end
 * radius with profile steps, units in deg and ft), with every figure computed by hand. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "grip/track.h"
#include "ground_flat.h"
#include "support_random.h"
#include "support_tracks.h"
#include "test.h"
#include "torcs_track.h"
#include "track_file.h"

#define PI 3.14159265358979323846
#define FT 0.3048
#define ROOT GRIP_BINARY_DIR "/torcs_fixture"
#define TRACK_XML ROOT "/tracks/road/mini/mini.xml"

static const char *surfaces_xml =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<!-- shared surfaces, included through an external entity -->\n"
    "<section name=\"grass\">\n"
    "  <attnum name=\"friction\" val=\"0.6\"/>\n"
    "  <attnum name=\"rolling resistance\" val=\"0.05\"/>\n"
    "  <attnum name=\"roughness\" val=\"0.1\"/>\n"
    "  <attnum name=\"roughness wavelength\" unit=\"m\" val=\"2\"/>\n"
    "</section>\n"
    "<section name=\"sand\">\n"
    "  <attnum name=\"friction\" val=\"0.5\"/>\n"
    "  <attnum name=\"rolling resistance\" val=\"0.2\"/>\n"
    "</section>\n"
    "<section name=\"curb\">\n"
    "  <attnum name=\"friction\" val=\"0.9\"/>\n"
    "</section>\n";

static const char *track_head =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<!DOCTYPE params SYSTEM \"../../../src/libs/tgf/params.dtd\" [\n"
    "<!ENTITY default-surfaces SYSTEM \"../../../data/tracks/surfaces.xml\">\n"
    "]>\n"
    "<params name=\"Mini\" type=\"trackdef\" mode=\"mw\">\n"
    "  <section name=\"Surfaces\">\n"
    "    &default-surfaces;\n"
    "    <section name=\"mini-road\">\n"
    "      <attnum name=\"friction\" val=\"1.1\"/>\n"
    "      <attnum name=\"rolling resistance\" val=\"0.002\"/>\n"
    "      <attnum name=\"roughness\" val=\"0.04\"/>\n"
    "      <attnum name=\"roughness wavelength\" unit=\"m\" val=\"3\"/>\n"
    "    </section>\n"
    "  </section>\n"
    "  <section name=\"Header\">\n"
    "    <attstr name=\"name\" val=\"Mini Test\"/>\n"
    "    <attnum name=\"version\" val=\"4\"/>\n"
    "  </section>\n";

static const char *track_main =
    "  <section name=\"Main Track\">\n"
    "    <attstr name=\"surface\" val=\"mini-road\"/>\n"
    "    <attnum name=\"width\" unit=\"ft\" val=\"40\"/>\n"
    "    <section name=\"Left Side\">\n"
    "      <attnum name=\"width\" unit=\"m\" val=\"6\"/>\n"
    "      <attstr name=\"surface\" val=\"grass\"/>\n"
    "      <attstr name=\"banking type\" val=\"tangent\"/>\n"
    "    </section>\n"
    "    <section name=\"Right Side\">\n"
    "      <attnum name=\"width\" val=\"4\"/>\n"
    "      <attstr name=\"surface\" val=\"sand\"/>\n"
    "    </section>\n"
    "    <section name=\"Left Border\">\n"
    "      <attnum name=\"width\" val=\"1\"/>\n"
    "      <attstr name=\"surface\" val=\"curb\"/>\n"
    "    </section>\n"
    "    <section name=\"Right Barrier\">\n"
    "      <attnum name=\"height\" unit=\"m\" val=\"1.2\"/>\n"
    "    </section>\n"
    "    <section name=\"Track Segments\">\n"
    "      <section name=\"s1\">\n"
    "        <attstr name=\"type\" val=\"str\"/>\n"
    "        <attnum name=\"lg\" unit=\"m\" val=\"%s\"/>\n" /* line 41 */
    "      </section>\n"
    "      <section name=\"t1\">\n"
    "        <attstr name=\"type\" val=\"lft\"/>\n"
    "        <attnum name=\"radius\" unit=\"m\" val=\"50\"/>\n"
    "        <attnum name=\"arc\" unit=\"deg\" val=\"90\"/>\n"
    "        <attnum name=\"banking start\" unit=\"deg\" val=\"0\"/>\n"
    "        <attnum name=\"banking end\" unit=\"%s\" val=\"4\"/>\n" /* line 48 */
    "      </section>\n"
    "      <section name=\"t2\">\n"
    "        <attstr name=\"type\" val=\"%s\"/>\n" /* line 51 */
    "        <attnum name=\"radius\" unit=\"ft\" val=\"100\"/>\n"
    "        <attnum name=\"arc\" unit=\"deg\" val=\"45\"/>\n"
    "        <section name=\"Right Side\">\n"
    "          <attnum name=\"start width\" val=\"4\"/>\n"
    "          <attnum name=\"end width\" val=\"10\"/>\n"
    "        </section>\n"
    "      </section>\n"
    "      <section name=\"t3\">\n"
    "        <attstr name=\"type\" val=\"lft\"/>\n"
    "        <attnum name=\"radius\" unit=\"m\" val=\"40\"/>\n"
    "        <attnum name=\"end radius\" unit=\"m\" val=\"20\"/>\n"
    "        <attnum name=\"arc\" unit=\"deg\" val=\"60\"/>\n"
    "        <attnum name=\"profil steps\" val=\"4\"/>\n"
    "      </section>\n"
    "      <section name=\"s2\">\n"
    "        <attstr name=\"type\" val=\"str\"/>\n"
    "        <attnum name=\"lg\" unit=\"ft\" val=\"50\"/>\n"
    "        <attnum name=\"z end\" unit=\"m\" val=\"2\"/>\n"
    "        <attstr name=\"profil\" val=\"linear\"/>\n"
    "      </section>\n"
    "    </section>\n"
    "  </section>\n"
    "</params>\n";

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL);
  if (!f) return;
  fputs(text, f);
  fclose(f);
}

/* Writes the fixture with the three placeholders filled in. */
static void write_track(const char *lg, const char *bank_unit, const char *t2_type) {
  char body[8192];
  snprintf(body, sizeof body, track_main, lg, bank_unit, t2_type);
  char all[12288];
  snprintf(all, sizeof all, "%s%s", track_head, body);
  write_file(TRACK_XML, all);
}

static void make_dirs(void) {
  const char *dirs[] = {ROOT, ROOT "/data", ROOT "/data/tracks", ROOT "/tracks",
                        ROOT "/tracks/road", ROOT "/tracks/road/mini"};
  for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; ++i) mkdir(dirs[i], 0755);
  write_file(ROOT "/data/tracks/surfaces.xml", surfaces_xml);
}

static void test_fixture(void) {
  write_track("100", "deg", "rgt");
  grip_track_file tf;
  grip_load_error err;
  grip_load_error_clear(&err);
  int rc = grip_torcs_track_load(TRACK_XML, &tf, &err);
  CHECK(rc == 0);
  if (rc) {
    fprintf(stderr, "%s\n", err.message);
    return;
  }
  CHECK(strcmp(tf.name, "Mini Test") == 0);
  /* s1, t1, t2, then t3 in 4 steps, s2 */
  CHECK(tf.segment_count == 8);
  if (tf.segment_count != 8) {
    grip_track_file_free(&tf);
    return;
  }
  const double W = 40 * FT; /* 12.192 m */
  const grip_track_segment_def *s = tf.segments;
  /* s1: a 100 m straight on mini-road, sides from Main Track */
  CHECK(s[0].type == GRIP_TRACK_STRAIGHT);
  CHECK_NEAR(s[0].length, 100.0, 0.0);
  CHECK_NEAR(s[0].width_start, W, 1e-12);
  CHECK_NEAR(s[0].surface.friction, 1.1, 1e-12);
  CHECK_NEAR(s[0].surface.rolling_resistance, 0.002, 1e-12);
  CHECK_NEAR(s[0].surface.roughness_amplitude, 0.02, 1e-12); /* TORCS halves "roughness" */
  CHECK_NEAR(s[0].surface.roughness_wavelength, 3.0, 0.0);
  const grip_track_side_def *L = &s[0].side[GRIP_TRACK_SIDE_LEFT];
  const grip_track_side_def *R = &s[0].side[GRIP_TRACK_SIDE_RIGHT];
  CHECK_NEAR(L->kerb_width, 1.0, 0.0);
  CHECK_NEAR(L->kerb_surface.friction, 0.9, 1e-12);
  CHECK_NEAR(L->runoff_width_start, 6.0, 0.0);
  CHECK_NEAR(L->runoff_surface.friction, 0.6, 1e-12);
  CHECK_NEAR(L->runoff_surface.roughness_amplitude, 0.05, 1e-12);
  CHECK(L->banked);
  CHECK_NEAR(L->barrier_height, 0.6, 1e-12); /* TORCS default */
  CHECK_NEAR(R->kerb_width, 0.0, 0.0);
  CHECK_NEAR(R->runoff_width_end, 4.0, 0.0);
  CHECK_NEAR(R->runoff_surface.friction, 0.5, 1e-12);
  CHECK_NEAR(R->runoff_surface.rolling_resistance, 0.2, 1e-12);
  CHECK(!R->banked); /* TORCS default: level */
  CHECK_NEAR(R->barrier_height, 1.2, 1e-12);
  /* t1: left, 50 m, 90 deg, banking 0 -> 4 deg (left edge rises W/2·tan 4 deg with flat ends) */
  CHECK(s[1].type == GRIP_TRACK_LEFT);
  CHECK_NEAR(s[1].radius, 50.0, 0.0);
  CHECK_NEAR(s[1].angle, PI / 2, 1e-12);
  CHECK_NEAR(s[1].cross_start, 0.0, 1e-12);
  CHECK_NEAR(s[1].cross_end, tan(4 * PI / 180), 1e-12);
  CHECK_NEAR(s[1].cross_rate_start, 0.0, 1e-12);
  CHECK_NEAR(s[1].z_end, 0.0, 1e-12);
  /* t2: right, 100 ft, 45 deg; banking carried over; right side 4 -> 10 m */
  CHECK(s[2].type == GRIP_TRACK_RIGHT);
  CHECK_NEAR(s[2].radius, 100 * FT, 1e-12);
  CHECK_NEAR(s[2].end_radius, 100 * FT, 1e-12);
  CHECK_NEAR(s[2].angle, PI / 4, 1e-12);
  CHECK_NEAR(s[2].cross_start, tan(4 * PI / 180), 1e-12);
  CHECK_NEAR(s[2].side[GRIP_TRACK_SIDE_RIGHT].runoff_width_start, 4.0, 0.0);
  CHECK_NEAR(s[2].side[GRIP_TRACK_SIDE_RIGHT].runoff_width_end, 10.0, 1e-12);
  /* t3: 40 -> 20 m over 60 deg in 4 steps: radii 40, 33.33, 26.67, 20; TORCS scales the common
   * step length so the steps turn 60 deg: step = (pi/3) / (1/40 + 3/100 + 3/80 + 1/20) */
  const double step = (PI / 3) / 0.1425;
  const double radii[4] = {40.0, 40.0 - 20.0 / 3, 40.0 - 40.0 / 3, 20.0};
  double turned = 0.0;
  for (int k = 0; k < 4; ++k) {
    CHECK(s[3 + k].type == GRIP_TRACK_LEFT);
    CHECK_NEAR(s[3 + k].radius, radii[k], 1e-9);
    CHECK_NEAR(s[3 + k].angle, step / radii[k], 1e-12);
    CHECK_NEAR(s[3 + k].side[GRIP_TRACK_SIDE_RIGHT].runoff_width_start, 10.0, 1e-12);
    turned += s[3 + k].angle;
  }
  CHECK_NEAR(turned, PI / 3, 1e-12);
  /* s2: 50 ft, linear climb to 2 m, banking back to 0 */
  CHECK_NEAR(s[7].length, 50 * FT, 1e-12);
  CHECK_NEAR(s[7].z_start, 0.0, 1e-12);
  CHECK_NEAR(s[7].z_end, 2.0, 1e-12);
  CHECK_NEAR(s[7].slope_start, 2.0 / (50 * FT), 1e-12);
  CHECK_NEAR(s[7].slope_end, 2.0 / (50 * FT), 1e-12);
  CHECK_NEAR(s[7].cross_end, 0.0, 1e-12);

  /* whole track: the sum of the segments by hand */
  grip_track *t = NULL;
  CHECK(grip_track_build(&tf.def, &t) == GRIP_OK);
  if (t) {
    double expected = 100.0 + 25.0 * PI + 100 * FT * PI / 4 + 4 * step + 50 * FT;
    CHECK_NEAR(grip_track_length(t), expected, 1e-9);
    grip_track_destroy(t);
  }
  grip_track_file_free(&tf);

  /* found by name under a tracks directory */
  char path[512];
  CHECK(grip_torcs_find_track_in(ROOT "/tracks", "mini", path, sizeof path) == 0);
  CHECK(strcmp(path, TRACK_XML) == 0);
  CHECK(grip_torcs_find_track_in(ROOT "/tracks", "nope", path, sizeof path) != 0);
  CHECK(grip_torcs_find_track_in(ROOT "/tracks", "../road", path, sizeof path) != 0);
}

static void expect_error(const char *what, const char *prefix) {
  grip_track_file keep;
  memset(&keep, 0x33, sizeof keep);
  grip_track_file before = keep;
  grip_load_error err;
  grip_load_error_clear(&err);
  CHECK(grip_torcs_track_load(TRACK_XML, &keep, &err) != 0);
  CHECK(memcmp(&keep, &before, sizeof keep) == 0);
  if (strncmp(err.message, prefix, strlen(prefix)) != 0) {
    test_failures_++;
    fprintf(stderr, "%s: got '%s', expected '%s...'\n", what, err.message, prefix);
  }
}

static void test_broken(void) {
  write_track("abc", "deg", "rgt");
  expect_error("bad number", TRACK_XML ":41: lg: 'abc' is not a number");
  write_track("100", "furlong", "rgt");
  expect_error("bad unit", TRACK_XML ":48: banking end: unknown unit 'furlong'");
  write_track("100", "deg", "zigzag");
  expect_error("bad type", TRACK_XML ":51: type: unknown segment type 'zigzag'");
  write_track("-5", "deg", "rgt");
  expect_error("negative length", TRACK_XML ":41: lg: straight needs a length > 0");
  /* refused before its profile steps are made (the fuzzer's 2e9 m straight took 16 s) */
  write_track("2053098006", "deg", "rgt");
  expect_error("too long", TRACK_XML ":41: lg: the segment is 2.0531e+09 m long (allowed up to 100000 m)");
  write_track("1<0", "deg", "rgt");
  expect_error("malformed XML", TRACK_XML ":41: XML:");
  /* the entity's file is missing */
  remove(ROOT "/data/tracks/surfaces.xml");
  write_track("100", "deg", "rgt");
  {
    grip_track_file keep;
    grip_load_error err;
    grip_load_error_clear(&err);
    CHECK(grip_torcs_track_load(TRACK_XML, &keep, &err) != 0);
    CHECK(strstr(err.message, "XML:") != NULL);
  }
  write_file(ROOT "/data/tracks/surfaces.xml", surfaces_xml);
  /* Opened as the tools open it: a straight of 1e9 m is refused at its lg (longer than a
   * segment may be, docs/tracks.md, "What a track must satisfy"); with a sane straight, the
   * fixture (a chain of turns built for field checks, 90 + 45 + 60 degrees) converts, does not
   * close and is refused for that at the line of its TORCS section. */
  for (int k = 0; k < 2; ++k) {
    write_track(k == 0 ? "1e9" : "100", "deg", "rgt");
    grip_track *t = NULL;
    grip_load_error err;
    grip_load_error_clear(&err);
    CHECK(grip_track_open(TRACK_XML, &t, NULL, 0, &err) != 0 && t == NULL);
    const char *want = k == 0 ? ":41: lg: the segment is 1e+09 m long (allowed up to 100000 m)"
                              : ": closure: the track does not close";
    int ok = strstr(err.message, TRACK_XML ":") == err.message && strstr(err.message, want) != NULL;
    if (!ok) fprintf(stderr, "  got '%s', want '%s'\n", err.message, want);
    CHECK(ok);
  }
  write_file(TRACK_XML, "<?xml version=\"1.0\"?>\n<params>\n<section name=\"Header\"/>\n</params>\n");
  expect_error("no main track", TRACK_XML ":2: Main Track: missing section");
  write_file(TRACK_XML, "<?xml version=\"1.0\"?>\n<other/>\n");
  expect_error("wrong root", TRACK_XML ":2: not a TORCS parameter file");
  write_file(TRACK_XML, "");
  expect_error("empty", TRACK_XML);
  grip_track_file keep;
  grip_load_error err;
  grip_load_error_clear(&err);
  CHECK(grip_torcs_track_load(ROOT "/none.xml", &keep, &err) != 0);
  CHECK(err.message[0] != '\0');
}

/* m, the distance from (x, y) to the barrier on one side, sampled every 2 cm from s0 to s1 along
 * the track through the public API (grip_track_point_at, grip_track_locate,
 * grip_track_barrier_at) as a polyline: its pieces across segment ends stand for the faces where
 * the barrier steps. */
static double sampled_barrier_distance(const grip_track *t, double x, double y, int side, double s0, double s1) {
  double best = INFINITY, px = NAN, py = NAN;
  for (double s = s0; s <= s1; s += 0.02) {
    grip_track_point c = grip_track_point_at(t, s);
    grip_track_location l = grip_track_locate(t, c.position.x, c.position.y, c.segment);
    double lat = grip_track_barrier_at(t, &l, side).lateral;
    double bx = c.position.x - sin(c.heading) * lat, by = c.position.y + cos(c.heading) * lat;
    if (isfinite(px)) { /* distance to the piece from the last sample */
      double dx = bx - px, dy = by - py, l2 = dx * dx + dy * dy;
      double f = l2 > 0.0 ? fmin(1.0, fmax(0.0, ((x - px) * dx + (y - py) * dy) / l2)) : 0.0;
      best = fmin(best, hypot(x - px - f * dx, y - py - f * dy));
    }
    px = bx, py = by;
  }
  return best;
}

/* The world's barrier query (grip_track_barrier_query: the point located on the plan only, the
 * barrier from the frame the locate found) against the public path: grip_track_locate, then
 * grip_track_barrier_at on the point's side (on the free side, the other side's where that is
 * nearer), the wall's top from a locate at its foot. Points
 * over the whole track out to 40 m either side of the centre line (beyond the barriers too),
 * asked without a hint and with the hint of their own segment. Where the barrier beyond the
 * point's own segment is nearer (a run-off ending in a taper or a step: a wall ahead of a point
 * on the free side, the free side behind a point just past it), the query reports that one:
 * never further than the own segment's barrier, on the same side of it, and there as far as the
 * barrier sampled along the track says (*beyond counts those points within 3 m). Returns the
 * points checked. */
static int check_barrier_queries(const grip_track *t, const char *name, int *beyond, double *worst_beyond) {
  grip_track_ground_context ctx;
  grip_barrier bar = grip_track_barriers(&ctx, t);
  unsigned long long rng = 0x9e3779b97f4a7c15ull;
  double length = grip_track_length(t), worst_distance = 0.0, worst_normal = 0.0, worst_top = 0.0, further = 0.0;
  int checked = 0, segment_kept = 0;
  for (int i = 0; i < 400; ++i) {
    grip_track_point c = grip_track_point_at(t, support_uniform(&rng) * length);
    double lateral = (2.0 * support_uniform(&rng) - 1.0) * 40.0;
    double x = c.position.x - sin(c.heading) * lateral, y = c.position.y + cos(c.heading) * lateral;
    int own = grip_track_locate(t, x, y, -1).segment;
    for (int hinted = 0; hinted < 2; ++hinted) {
      /* the same search as the query's: from the same hint (a walk from a hint may end on
       * another segment whose barriers also hold the point, where the track runs close to
       * itself) */
      int hint = hinted ? own : -1;
      grip_track_location loc = grip_track_locate(t, x, y, hint);
      int side = loc.lateral >= 0.0 ? GRIP_TRACK_SIDE_LEFT : GRIP_TRACK_SIDE_RIGHT;
      grip_track_barrier b = grip_track_barrier_at(t, &loc, side);
      /* on the free side, the other side's barrier where that is nearer */
      grip_track_barrier o = grip_track_barrier_at(t, &loc, 1 - side);
      if (b.distance >= 0.0 && o.distance >= 0.0 && o.distance < b.distance) {
        b = o;
        side = 1 - side;
      }
      grip_ground_query q = {.wheel = GRIP_GROUND_QUERY_BODY, .hint = &hint};
      grip_barrier_hit h;
      CHECK(bar.query(bar.context, &q, x, y, &h));
      segment_kept += hint == loc.segment;
      ++checked;
      /* never further from the barrier than the own one says, on the same side of it */
      further = fmax(further, fabs(h.distance) - fabs(b.distance));
      CHECK((h.distance >= 0.0) == (b.distance >= 0.0));
      worst_normal = fmax(worst_normal, fabs(h.normal.z));
      if (fabs(h.distance) < fabs(b.distance) - 1e-8) {
        /* a nearer barrier beyond the own segment: as sampled along the track. Within a box's
         * reach of it (3 m) to 2 cm; on the free side out to 8 m within the first-order
         * curvature terms (which grow with the distance: measured −0.36 m at 7.3 m on a curve).
         * Further away, and further past a wall than a box point gets, only the bound above
         * matters. */
        double d = fabs(h.distance);
        double sampled = sampled_barrier_distance(t, x, y, side, loc.distance - 20.0, loc.distance + 20.0);
        if (d <= 3.0) {
          CHECK_NEAR(d, sampled, 0.02);
          *worst_beyond = fmax(*worst_beyond, fabs(d - sampled));
          ++*beyond;
        } else if (d <= 8.0 && h.distance > 0.0) {
          CHECK_NEAR(d, sampled, 0.02 + 0.06 * d);
        }
        continue;
      }
      grip_track_location foot =
          grip_track_locate(t, x - b.normal.x * b.distance, y - b.normal.y * b.distance, loc.segment);
      worst_distance = fmax(worst_distance, fabs(h.distance - b.distance));
      worst_normal = fmax(worst_normal, fmax(fabs(h.normal.x - b.normal.x), fabs(h.normal.y - b.normal.y)));
      worst_top = fmax(worst_top, fabs(h.top - (foot.z + b.height)));
    }
  }
  /* The two paths differ only in how the frame is found (projection against trigonometry) */
  CHECK(segment_kept == checked);
  CHECK(further <= 1e-8);
  CHECK(worst_distance <= 1e-8);
  CHECK(worst_normal <= 1e-9);
  CHECK(worst_top <= 1e-8);
  if (!(segment_kept == checked && further <= 1e-8 && worst_distance <= 1e-8 && worst_normal <= 1e-9 &&
        worst_top <= 1e-8))
    fprintf(stderr,
            "  %s: barrier query off by %.3g m (further %.3g m), normal %.3g, top %.3g m; segment kept %d of %d\n", name,
            worst_distance, further, worst_normal, worst_top, segment_kept, checked);
  return checked;
}

/* A point at distance s along the track and a random offset within 30 m of its centre line,
 * and the centre line's heading there. */
static void random_point(const grip_track *t, double s, unsigned long long *rng, double *x, double *y,
                         double *heading) {
  grip_track_point c = grip_track_point_at(t, s);
  double lateral = (2.0 * support_uniform(rng) - 1.0) * 30.0;
  *x = c.position.x - sin(c.heading) * lateral;
  *y = c.position.y + cos(c.heading) * lateral;
  *heading = c.heading;
}

/* A car's first test against the walls (collision.c) asks for the wall's distance from its
 * centre of mass only, and looks no further when that exceeds the box's reach plus the step's
 * travel and 0.1 m. That holds only if no point within that reach is at a wall: checked for
 * points that a query puts more than 3.1 m from the walls (the built-in car's box reaches
 * 2.6 m) and points up to 3 m from them, with the first point's segment as the hint (the car's
 * own), around every segment end (where a run-off may end in a taper or a step). Returns the
 * pairs checked; *closest gets the nearest that a second point came to a wall. */
static int check_walls_in_reach(const grip_track *t, const char *name, double *closest) {
  grip_track_ground_context ctx;
  grip_barrier bar = grip_track_barriers(&ctx, t);
  unsigned long long rng = 0x2545f4914f6cdd1dull;
  int count = grip_track_segment_count(t), pairs = 0, at_wall = 0;
  for (int i = 0; i < 20000; ++i) {
    int end = (int)(support_uniform(&rng) * count) % count;
    double x, y, heading;
    random_point(t, grip_track_segment_start(t, end) + (2.0 * support_uniform(&rng) - 1.0) * 3.0, &rng, &x, &y, &heading);
    int own = grip_track_locate(t, x, y, -1).segment, hint = own;
    grip_ground_query q = {.wheel = GRIP_GROUND_QUERY_BODY, .hint = &hint};
    grip_barrier_hit h0, h1;
    if (!bar.query(bar.context, &q, x, y, &h0) || !(h0.distance > 3.1)) continue;
    /* mostly along the track, where the segment ends are */
    double r = 3.0 * support_uniform(&rng), way = support_uniform(&rng) < 0.5 ? 0.0 : PI;
    double a = heading + way + (support_uniform(&rng) - 0.5);
    hint = own;
    CHECK(bar.query(bar.context, &q, x + r * cos(a), y + r * sin(a), &h1));
    *closest = fmin(*closest, h1.distance);
    at_wall += !(h1.distance > 0.002);
    ++pairs;
  }
  CHECK(at_wall == 0);
  if (at_wall)
    fprintf(stderr, "  %s: %d of %d points within 3 m of a point 3.1 m clear were at a wall\n", name, at_wall, pairs);
  return pairs;
}

/* The track's barriers declare how fast their distance may shrink per metre moved
 * (grip_barrier.distance_rate, where the distance is under ~15 m): a world keeps the distance
 * found at a car's centre of mass and asks again only when the car may have come within reach
 * of a wall. Checked between points up to 12 m apart (the second asked with the first's segment
 * as the hint, as a car's own), where the second lies within 4 m of a wall, half of the first
 * points around segment ends. Returns the pairs checked; *worst gets the largest rate seen. */
static int check_distance_rate(const grip_track *t, const char *name, double *worst) {
  grip_track_ground_context ctx;
  grip_barrier bar = grip_track_barriers(&ctx, t);
  CHECK(bar.distance_rate > 0.0);
  unsigned long long rng = 0x6a09e667f3bcc909ull;
  int count = grip_track_segment_count(t), pairs = 0, faster = 0;
  double length = grip_track_length(t);
  for (int i = 0; i < 40000; ++i) {
    double s = support_uniform(&rng) * length;
    if (i % 2) {
      int end = (int)(support_uniform(&rng) * count) % count;
      s = grip_track_segment_start(t, end) + (2.0 * support_uniform(&rng) - 1.0) * 6.0;
    }
    double x, y, heading;
    random_point(t, s, &rng, &x, &y, &heading);
    int own = grip_track_locate(t, x, y, -1).segment, hint = own;
    grip_ground_query q = {.wheel = GRIP_GROUND_QUERY_BODY, .hint = &hint};
    grip_barrier_hit h0, h1;
    if (!bar.query(bar.context, &q, x, y, &h0) || !(h0.distance >= 3.0)) continue;
    double r = 12.0 * support_uniform(&rng), a = 2.0 * PI * support_uniform(&rng);
    hint = own;
    if (!bar.query(bar.context, &q, x + r * cos(a), y + r * sin(a), &h1) || !(h1.distance < 4.0)) continue;
    double rate = r > 0.0 ? (h0.distance - h1.distance) / r : 0.0;
    *worst = fmax(*worst, rate);
    faster += !(rate <= bar.distance_rate);
    ++pairs;
  }
  CHECK(faster == 0);
  if (faster) fprintf(stderr, "  %s: %d of %d pairs shrank faster than distance_rate\n", name, faster, pairs);
  return pairs;
}

/* The track checks accept every track of Debian's torcs-data, versions 3 and 4 (each opens,
 * builds and closes); on each the world's barrier query agrees with the located barrier, no
 * wall is within reach of a point the query puts clear of them, and the distance shrinks no
 * faster than the barrier declares. */
static void test_every_installed_track(void) {
  static const char *const categories[] = {"road", "oval", "dirt"};
  int opened = 0, queried = 0, beyond = 0, pairs = 0, rated = 0, progress = 0;
  double worst_beyond = 0.0, closest = INFINITY, worst_rate = 0.0, worst_ray_height = 0.0, worst_ray_normal = 0.0;
  int flat_hits = 0, flat_claims = 0, batch_rays = 0, batch_differ = 0, batch_hits = 0;
  double batch_worst_height = 0.0, batch_worst_normal = 0.0;
  long near_pairs_all = 0;
  double flat_worst = 0.0, flat_worst_gradient = 0.0;
  for (size_t c = 0; c < sizeof categories / sizeof categories[0]; ++c) {
    char dir[512];
    snprintf(dir, sizeof dir, "%s/%s", GRIP_TORCS_TRACK_DIR, categories[c]);
    DIR *d = opendir(dir);
    if (!d) continue;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
      if (e->d_name[0] == '.') continue;
      char spec[300];
      snprintf(spec, sizeof spec, "torcs:%s", e->d_name);
      grip_track *t = NULL;
      grip_load_error err;
      grip_load_error_clear(&err);
      if (grip_track_open(spec, &t, NULL, 0, &err) == 0) {
        ++opened;
        queried += check_barrier_queries(t, spec, &beyond, &worst_beyond);
        pairs += check_walls_in_reach(t, spec, &closest);
        rated += check_distance_rate(t, spec, &worst_rate);
        /* grip_track_locate_progress: grip_track_locate's segment, distance and lateral, bit for
         * bit; the track's ground: a vertical ray hits the located point, normal and surface */
        support_query_check q = support_check_queries(t, 5000, 25.0);
        CHECK(q.progress_mismatches == 0);
        CHECK(q.ray_mismatches == 0);
        if (q.progress_mismatches || q.ray_mismatches)
          fprintf(stderr, "  %s: %d progress locates and %d vertical rays differ from grip_track_locate\n", spec,
                  q.progress_mismatches, q.ray_mismatches);
        /* the flatness a wheel's hit vouches for (src/ground_flat.h) */
        support_flat_check f = support_check_flatness(t, 2000, 12.0);
        CHECK(f.violations == 0);
        if (f.violations) fprintf(stderr, "  %s: %d points break a flatness claim\n", spec, f.violations);
        flat_hits += f.hits;
        flat_claims += f.claims;
        /* a vehicle's four wheel rays in one call: the rays of one call each, bit for bit */
        support_batch_check b = support_check_ray_batches(t, 500, 12.0);
        CHECK(b.differ == 0);
        CHECK(b.cast == 2000);
        CHECK(b.off_surface == 0);
        CHECK(b.hits == b.cast); /* from 0.3–1 m above the surface, reaching 2 m past it */
        if (b.differ || b.off_surface)
          fprintf(stderr, "  %s: %d of %d rays differ four to a call, %d hits off the surface\n", spec, b.differ,
                  b.cast, b.off_surface);
        batch_rays += b.cast;
        batch_hits += b.hits;
        batch_differ += b.differ;
        batch_worst_height = fmax(batch_worst_height, b.worst_height);
        batch_worst_normal = fmax(batch_worst_normal, b.worst_normal);
        /* which segments come near which, through the grid: what testing every pair gives */
        long near_pairs = 0, wrong = grip_track_flat_grid_check(t, &near_pairs);
        CHECK(wrong == 0);
        CHECK(near_pairs > 0);
        if (wrong) fprintf(stderr, "  %s: %ld pairs of segments found near otherwise than by every pair\n", spec, wrong);
        near_pairs_all += near_pairs;
        flat_worst = fmax(flat_worst, f.worst_share);
        flat_worst_gradient = fmax(flat_worst_gradient, f.worst_gradient_share);
        worst_ray_height = fmax(worst_ray_height, q.worst_height);
        worst_ray_normal = fmax(worst_ray_normal, q.worst_normal);
        progress += 5000;
        grip_track_destroy(t);
      } else {
        fprintf(stderr, "  %s: %s\n", spec, err.message);
        CHECK(0);
      }
    }
    closedir(d);
  }
  CHECK(opened == 38);
  CHECK(beyond > 0);
  printf("  %d TORCS tracks open; %d barrier queries agree with the located barrier, %d of them within 3 m of a nearer "
         "barrier beyond the own segment (within %.4f m of the sampled barrier)\n",
         opened, queried, beyond, worst_beyond);
  printf("  %d points within 3 m of a point 3.1 m clear of the walls: the nearest %.3f m from a wall\n", pairs,
         closest);
  printf("  %d pairs up to 12 m apart, the second within 4 m of a wall: the distance shrank at most %.3f m per m\n",
         rated, worst_rate);
  printf("  %d progress locates equal to grip_track_locate's; as many vertical rays hit the located point (height "
         "within %.2g m, normal within %.2g)\n",
         progress, worst_ray_height, worst_ray_normal);
  /* the claims must be met everywhere, and made on much of each track */
  CHECK(flat_claims >= flat_hits / 3);
  printf("  %d of %d wheel hits vouch for the ground within 2.5 m; the rise above the plane reached %.3g of its bound, "
         "the gradient's change %.3g; %ld near pairs of segments, as by testing every pair\n",
         flat_claims, flat_hits, flat_worst, flat_worst_gradient, near_pairs_all);
  printf("  %d wheel rays four to a call: %d differ from one call each; %d hits, on the located surface within "
         "%.2g m, normals within %.2g\n",
         batch_rays, batch_differ, batch_hits, batch_worst_height, batch_worst_normal);
}


/* The same kind of track in TORCS's version-3 form: flat side keys on Main Track, per-segment
 * start/end side widths, segments under "segments", no barrier given (TORCS's default 1 m). */
static const char *track_v3 =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<!DOCTYPE params SYSTEM \"../../../src/libs/tgf/params.dtd\" [\n"
    "<!ENTITY default-surfaces SYSTEM \"../../../data/tracks/surfaces.xml\">\n"
    "]>\n"
    "<params name=\"Mini3\" type=\"trackdef\" mode=\"mw\">\n"
    "  <section name=\"Surfaces\"><section name=\"List\">&default-surfaces;</section></section>\n"
    "  <section name=\"Header\">\n"
    "    <attstr name=\"name\" val=\"Mini Three\"/>\n"
    "    <attnum name=\"version\" val=\"3\"/>\n"
    "  </section>\n"
    "  <section name=\"Main Track\">\n"
    "    <attnum name=\"width\" unit=\"m\" val=\"20\"/>\n"
    "    <attnum name=\"steps length\" val=\"5\" unit=\"m\"/>\n"
    "    <attstr name=\"rside surface\" val=\"sand\"/>\n"
    "    <attnum name=\"rside width\" val=\"3\"/>\n"
    "    <attstr name=\"rside type\" val=\"tangent\"/>\n"
    "    <attstr name=\"lside surface\" val=\"grass\"/>\n"
    "    <attnum name=\"lside width\" val=\"15\"/>\n"
    "    <attstr name=\"lside type\" val=\"level\"/>\n"
    "    <attnum name=\"lborder width\" val=\"0.5\"/>\n"
    "    <attstr name=\"lborder surface\" val=\"curb\"/>\n"
    "    <attnum name=\"profil steps length\" val=\"%s\" unit=\"m\"/>\n" /* line 22 */
    "    <section name=\"segments\">\n"
    "      <section name=\"s1\">\n"
    "        <attstr name=\"type\" val=\"str\"/>\n"
    "        <attnum name=\"lg\" unit=\"m\" val=\"100\"/>\n"
    "        <attnum name=\"lside end width\" val=\"6\"/>\n"
    "      </section>\n"
    "      <section name=\"t1\">\n"
    "        <attstr name=\"type\" val=\"lft\"/>\n"
    "        <attnum name=\"radius\" unit=\"m\" val=\"50\"/>\n"
    "        <attnum name=\"arc\" unit=\"deg\" val=\"180\"/>\n"
    "        <attstr name=\"lside surface\" val=\"sand\"/>\n"
    "        <attnum name=\"rside start width\" val=\"5\"/>\n"
    "      </section>\n"
    "      <section name=\"s2\">\n"
    "        <attstr name=\"type\" val=\"str\"/>\n"
    "        <attnum name=\"lg\" unit=\"m\" val=\"100\"/>\n"
    "      </section>\n"
    "      <section name=\"t2\">\n"
    "        <attstr name=\"type\" val=\"lft\"/>\n"
    "        <attnum name=\"radius\" unit=\"m\" val=\"50\"/>\n"
    "        <attnum name=\"arc\" unit=\"deg\" val=\"180\"/>\n"
    "        <attnum name=\"%s\" val=\"-2\"/>\n" /* line 45 */
    "      </section>\n"
    "    </section>\n"
    "  </section>\n"
    "</params>\n";

static void write_track_v3(const char *step_length, const char *t2_key) {
  char all[8192];
  snprintf(all, sizeof all, track_v3, step_length, t2_key);
  write_file(TRACK_XML, all);
}

static void test_version3(void) {
  write_track_v3("30", "rside end width");
  grip_track_file tf;
  grip_load_error err;
  grip_load_error_clear(&err);
  int rc = grip_torcs_track_load(TRACK_XML, &tf, &err);
  /* "rside end width" -2 is refused: negative */
  CHECK(rc != 0);
  CHECK(strstr(err.message, TRACK_XML ":") == err.message && strstr(err.message, "rside: negative width") != NULL);
  if (!strstr(err.message, "rside: negative width")) fprintf(stderr, "  got '%s'\n", err.message);
  write_track_v3("30", "rside end widht"); /* a key TORCS does not know: ignored, as TORCS does */
  grip_load_error_clear(&err);
  rc = grip_torcs_track_load(TRACK_XML, &tf, &err);
  CHECK(rc == 0);
  if (rc) {
    fprintf(stderr, "%s\n", err.message);
    return;
  }
  CHECK(strcmp(tf.name, "Mini Three") == 0);
  /* steps of at most 30 m: int(100/30)+1 = 4 per straight, int(50·pi/30)+1 = 6 per turn */
  CHECK(tf.segment_count == 4 + 6 + 4 + 6);
  if (tf.segment_count != 20) {
    grip_track_file_free(&tf);
    return;
  }
  const grip_track_segment_def *s = tf.segments;
  CHECK_NEAR(s[0].length, 25.0, 1e-12);
  CHECK_NEAR(s[0].width_start, 20.0, 0.0);
  /* s1: left side 15 -> 6 m over 4 steps (start width carried from Main Track), grass, level;
   * left border 0.5 m of curb; right side 3 m of sand, banked; barriers 1 m (TORCS default) */
  for (int k = 0; k < 4; ++k) {
    const grip_track_side_def *L = &s[k].side[GRIP_TRACK_SIDE_LEFT];
    CHECK_NEAR(L->runoff_width_start, 15.0 - 9.0 * k / 4, 1e-12);
    CHECK_NEAR(L->runoff_width_end, 15.0 - 9.0 * (k + 1) / 4, 1e-12);
    CHECK_NEAR(L->runoff_surface.friction, 0.6, 1e-12);
    CHECK(!L->banked);
    CHECK_NEAR(L->kerb_width, 0.5, 0.0);
    CHECK_NEAR(L->kerb_surface.friction, 0.9, 1e-12);
    CHECK_NEAR(L->barrier_height, 1.0, 0.0);
    const grip_track_side_def *R = &s[k].side[GRIP_TRACK_SIDE_RIGHT];
    CHECK_NEAR(R->runoff_width_start, 3.0, 0.0);
    CHECK_NEAR(R->runoff_width_end, 3.0, 0.0);
    CHECK_NEAR(R->runoff_surface.friction, 0.5, 1e-12);
    CHECK(R->banked);
    CHECK_NEAR(R->kerb_width, 0.0, 0.0);
    CHECK_NEAR(R->barrier_height, 1.0, 0.0);
  }
  /* t1: 50 m, 180 deg in 6 steps; left side stays 6 m (end width carries), now sand; the right
   * side starts at 5 m and keeps it (end width defaults to the start width) */
  for (int k = 4; k < 10; ++k) {
    CHECK(s[k].type == GRIP_TRACK_LEFT);
    CHECK_NEAR(s[k].radius, 50.0, 0.0);
    CHECK_NEAR(s[k].angle, PI / 6, 1e-12);
    CHECK_NEAR(s[k].side[GRIP_TRACK_SIDE_LEFT].runoff_width_start, 6.0, 1e-12);
    CHECK_NEAR(s[k].side[GRIP_TRACK_SIDE_LEFT].runoff_surface.friction, 0.5, 1e-12);
    CHECK_NEAR(s[k].side[GRIP_TRACK_SIDE_RIGHT].runoff_width_start, 5.0, 0.0);
    CHECK_NEAR(s[k].side[GRIP_TRACK_SIDE_RIGHT].runoff_width_end, 5.0, 0.0);
  }
  /* s2 and t2 carry everything over */
  CHECK_NEAR(s[19].side[GRIP_TRACK_SIDE_RIGHT].runoff_width_end, 5.0, 0.0);
  CHECK_NEAR(s[19].side[GRIP_TRACK_SIDE_LEFT].runoff_width_end, 6.0, 1e-12);
  grip_track *t = NULL;
  CHECK(grip_track_build(&tf.def, &t) == GRIP_OK);
  if (t) {
    CHECK_NEAR(grip_track_length(t), 200.0 + 100.0 * PI, 1e-9);
    grip_track_destroy(t);
  }
  grip_track_file_free(&tf);

  /* a version-3 file without its "segments" list says where it looks */
  write_file(TRACK_XML, "<?xml version=\"1.0\"?>\n<params>\n<section name=\"Header\"><attnum name=\"version\" val=\"3\"/></section>\n"
                        "<section name=\"Main Track\">\n<section name=\"Track Segments\"/>\n</section>\n</params>\n");
  expect_error("v3 without segments", TRACK_XML ":4: segments: missing section (a version-3 track");
}

int main(void) {
  make_dirs();
  RUN_TEST(test_fixture);
  RUN_TEST(test_broken);
  RUN_TEST(test_version3);
  struct stat torcs_dir;
  if (stat(GRIP_TORCS_TRACK_DIR, &torcs_dir) == 0) RUN_TEST(test_every_installed_track);
  else printf("  torcs-data not installed: its tracks were not opened\n");
  return TEST_RESULT();
}
