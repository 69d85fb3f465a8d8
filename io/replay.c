/* Replay files: reader and writer (docs/replay.md). */
#include "replay.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "read_file.h"

/* One line of the input without its terminator. */
typedef struct line_cursor {
  const char *at, *end;
  int number; /* 1-based number of the line last returned */
} line_cursor;

static bool next_line(line_cursor *c, const char **start, size_t *length) {
  if (c->at >= c->end) return false;
  const char *s = c->at;
  const char *nl = memchr(s, '\n', (size_t)(c->end - s));
  const char *e = nl ? nl : c->end;
  c->at = nl ? nl + 1 : c->end;
  c->number++;
  if (e > s && e[-1] == '\r') --e;
  *start = s;
  *length = (size_t)(e - s);
  return true;
}

/* Splits a line into at most max whitespace-separated words (copied into buf). */
static int split_words(const char *s, size_t n, char *buf, size_t buf_size, char **words, int max) {
  if (n >= buf_size) return -1;
  memcpy(buf, s, n);
  buf[n] = '\0';
  int count = 0;
  char *p = buf;
  while (*p) {
    while (*p == ' ' || *p == '\t') *p++ = '\0';
    if (!*p) break;
    if (count == max) return -1;
    words[count++] = p;
    while (*p && *p != ' ' && *p != '\t') ++p;
  }
  return count;
}

static bool parse_double(const char *s, double *v) {
  char *end;
  errno = 0;
  double d = strtod(s, &end);
  if (end == s || *end || errno == ERANGE || !isfinite(d)) return false;
  *v = d;
  return true;
}

static bool parse_ll(const char *s, long long lo, long long hi, long long *v) {
  char *end;
  errno = 0;
  long long n = strtoll(s, &end, 10);
  if (end == s || *end || errno == ERANGE || n < lo || n > hi) return false;
  *v = n;
  return true;
}

static bool parse_int(const char *s, int lo, int hi, int *v) {
  long long n;
  if (!parse_ll(s, lo, hi, &n)) return false;
  *v = (int)n;
  return true;
}

static int push_event(grip_replay *r, const grip_replay_event *e) {
  if (r->event_count == r->event_capacity) {
    int cap = r->event_capacity ? 2 * r->event_capacity : 256;
    grip_replay_event *grown = realloc(r->events, (size_t)cap * sizeof *grown);
    if (!grown) return -1;
    r->events = grown;
    r->event_capacity = cap;
  }
  r->events[r->event_count++] = *e;
  return 0;
}

static bool in_unit(double v, double lo) { return v >= lo && v <= 1.0; }

int grip_replay_parse(const char *text, size_t size, const char *name, grip_replay *out,
                      grip_load_error *err) {
  grip_replay r;
  memset(&r, 0, sizeof r);
  memset(out, 0, sizeof *out);
  line_cursor c = {text, text + size, 0};
  const char *s;
  size_t n;
  char buf[512];
  char *w[12];
  int rc = -1;
  bool have_dt = false, have_cars = false, have_human = false, have_laps = false, have_end = false;
#define FAIL(...)                                                    \
  do {                                                               \
    grip_load_error_set(err, name, c.number, NULL, __VA_ARGS__);     \
    goto done;                                                       \
  } while (0)
  if (!next_line(&c, &s, &n)) FAIL("empty file: expected \"grip-replay %d\"", GRIP_REPLAY_VERSION);
  {
    int k = split_words(s, n, buf, sizeof buf, w, 2);
    if (k != 2 || strcmp(w[0], "grip-replay") != 0)
      FAIL("not a grip replay: expected \"grip-replay %d\"", GRIP_REPLAY_VERSION);
    if (!parse_int(w[1], 1, 1000000, &r.version) || r.version < GRIP_REPLAY_MIN_VERSION ||
        r.version > GRIP_REPLAY_VERSION)
      FAIL("version %s: this grip reads versions %d .. %d", w[1], GRIP_REPLAY_MIN_VERSION, GRIP_REPLAY_VERSION);
  }
  long long last_step = 0;
  while (next_line(&c, &s, &n)) {
    if (have_end) {
      int k = split_words(s, n, buf, sizeof buf, w, 1);
      if (k == 0 || (k == 1 && w[0][0] == '#')) continue;
      FAIL("text after the end line");
    }
    if (memchr(s, '\0', n)) FAIL("a NUL byte: not a text file");
    int k = split_words(s, n, buf, sizeof buf, w, 12);
    if (k < 0) FAIL("line too long or too many words");
    if (k == 0 || w[0][0] == '#') continue;
    const char *key = w[0];
    if (strcmp(key, "dt") == 0) {
      if (k != 2 || !parse_double(w[1], &r.dt) || r.dt < 1e-4 || r.dt > 0.02)
        FAIL("dt: expected one step in s (1e-4 .. 0.02)");
      have_dt = true;
    } else if (strcmp(key, "cars") == 0) {
      if (k != 2 || !parse_int(w[1], 1, GRIP_REPLAY_MAX_CARS, &r.cars))
        FAIL("cars: expected a count (1 .. %d)", GRIP_REPLAY_MAX_CARS);
      have_cars = true;
    } else if (strcmp(key, "human") == 0) {
      if (!have_cars) FAIL("human: must follow cars");
      if (k != 2 || !parse_int(w[1], -1, r.cars - 1, &r.human))
        FAIL("human: expected a car index (-1 .. %d)", r.cars - 1);
      have_human = true;
    } else if (strcmp(key, "laps") == 0) {
      if (k != 2 || !parse_int(w[1], 1, 1000, &r.laps)) FAIL("laps: expected a count (1 .. 1000)");
      have_laps = true;
    } else if (strcmp(key, "scene_dir") == 0) {
      if (r.scene_dir) FAIL("scene_dir: given twice");
      /* The rest of the line after "scene_dir " (a path may hold spaces). */
      const char *p = s + 9;
      const char *e = s + n;
      while (p < e && (*p == ' ' || *p == '\t')) ++p;
      if (p == e) FAIL("scene_dir: expected a directory");
      for (const char *q = p; q < e; ++q)
        if ((unsigned char)*q < 0x20) FAIL("scene_dir: control character in the path");
      r.scene_dir = malloc((size_t)(e - p) + 1);
      if (!r.scene_dir) FAIL("out of memory");
      memcpy(r.scene_dir, p, (size_t)(e - p));
      r.scene_dir[e - p] = '\0';
    } else if (strcmp(key, "scene") == 0) {
      int lines = 0;
      if (r.scene_text) FAIL("scene: given twice");
      if (k != 2 || !parse_int(w[1], 1, 100000, &lines)) FAIL("scene: expected a line count (1 .. 100000)");
      const char *first = c.at;
      for (int i = 0; i < lines; ++i)
        if (!next_line(&c, &s, &n)) FAIL("scene: the file ends inside the scene's %d lines", lines);
      size_t bytes = (size_t)(c.at - first);
      if (bytes > GRIP_REPLAY_MAX_SCENE_BYTES) FAIL("scene: larger than %d bytes", GRIP_REPLAY_MAX_SCENE_BYTES);
      r.scene_text = malloc(bytes + 1);
      if (!r.scene_text) FAIL("out of memory");
      memcpy(r.scene_text, first, bytes);
      r.scene_text[bytes] = '\0';
      if (memchr(r.scene_text, '\0', bytes)) FAIL("scene: contains a NUL byte");
    } else if (strcmp(key, "i") == 0 || strcmp(key, "p") == 0 || strcmp(key, "s") == 0 || strcmp(key, "f") == 0) {
      if (!have_cars || !r.scene_text || !have_dt)
        FAIL("%s: events must follow dt, cars and scene", key);
      grip_replay_event e;
      memset(&e, 0, sizeof e);
      bool input = key[0] == 'i', systems = key[0] == 's', fuel = key[0] == 'f';
      if (systems && r.version < 2) FAIL("s: system switches need format version 2 (this file is version %d)", r.version);
      if (fuel && r.version < 3) FAIL("f: fuel lines need format version 3 (this file is version %d)", r.version);
      if (k != (input ? 10 : fuel ? 4 : 6))
        FAIL("%s: expected %s", key,
             input     ? "step car throttle brake steering handbrake clutch gear automatic"
             : systems ? "step car abs tc esc"
             : fuel    ? "step car kg"
                       : "step car x y heading");
      if (!parse_ll(w[1], 0, (long long)1 << 40, &e.step)) FAIL("%s: step: expected 0 .. 2^40", key);
      if (e.step < last_step) FAIL("%s: step %lld is before step %lld: events must be in step order", key, e.step, last_step);
      last_step = e.step;
      if (!parse_int(w[2], 0, r.cars - 1, &e.car)) FAIL("%s: car: expected 0 .. %d", key, r.cars - 1);
      if (input) {
        e.kind = GRIP_REPLAY_INPUT;
        grip_vehicle_input *in = &e.input;
        int automatic = 0;
        if (!parse_double(w[3], &in->throttle) || !in_unit(in->throttle, 0.0)) FAIL("i: throttle: expected 0 .. 1");
        if (!parse_double(w[4], &in->brake) || !in_unit(in->brake, 0.0)) FAIL("i: brake: expected 0 .. 1");
        if (!parse_double(w[5], &in->steering) || !in_unit(in->steering, -1.0)) FAIL("i: steering: expected -1 .. 1");
        if (!parse_double(w[6], &in->handbrake) || !in_unit(in->handbrake, 0.0)) FAIL("i: handbrake: expected 0 .. 1");
        if (!parse_double(w[7], &in->clutch) || !in_unit(in->clutch, 0.0)) FAIL("i: clutch: expected 0 .. 1");
        if (!parse_int(w[8], -1, GRIP_MAX_GEARS, &in->gear)) FAIL("i: gear: expected -1 .. %d", GRIP_MAX_GEARS);
        if (!parse_int(w[9], 0, 1, &automatic)) FAIL("i: automatic: expected 0 or 1");
        in->automatic = automatic != 0;
      } else if (systems) {
        /* Each switch: 0 as the car defines it, 1 forced on, 2 forced off (grip_system_switch). */
        e.kind = GRIP_REPLAY_SYSTEMS;
        int sw[3];
        static const char *const names[3] = {"abs", "tc", "esc"};
        for (int j = 0; j < 3; ++j)
          if (!parse_int(w[3 + j], GRIP_SYSTEM_AS_DEFINED, GRIP_SYSTEM_OFF, &sw[j]))
            FAIL("s: %s: expected 0 (as defined), 1 (on) or 2 (off)", names[j]);
        e.input.abs_switch = (grip_system_switch)sw[0];
        e.input.tc_switch = (grip_system_switch)sw[1];
        e.input.esc_switch = (grip_system_switch)sw[2];
      } else if (fuel) {
        e.kind = GRIP_REPLAY_FUEL;
        if (!parse_double(w[3], &e.fuel) || !(e.fuel >= 0.0 && e.fuel <= 1e5)) FAIL("f: kg: expected 0 .. 1e5");
      } else {
        e.kind = GRIP_REPLAY_PLACE;
        if (!parse_double(w[3], &e.x) || fabs(e.x) > 1e7) FAIL("p: x: expected a finite m (|x| <= 1e7)");
        if (!parse_double(w[4], &e.y) || fabs(e.y) > 1e7) FAIL("p: y: expected a finite m (|y| <= 1e7)");
        if (!parse_double(w[5], &e.heading) || fabs(e.heading) > 100.0) FAIL("p: heading: expected rad (|h| <= 100)");
      }
      if (push_event(&r, &e) != 0) FAIL("out of memory");
    } else if (strcmp(key, "end") == 0) {
      if (k != 3 || !parse_ll(w[1], 0, (long long)1 << 40, &r.steps)) FAIL("end: expected steps and a 16-digit hex hash");
      char *e;
      errno = 0;
      if (strlen(w[2]) != 16) FAIL("end: hash: expected 16 hex digits");
      unsigned long long h = strtoull(w[2], &e, 16);
      if (*e || errno == ERANGE) FAIL("end: hash: expected 16 hex digits");
      r.hash = (uint64_t)h;
      if (r.steps < last_step) FAIL("end: %lld steps but an event at step %lld", r.steps, last_step);
      have_end = true;
    } else {
      FAIL("unknown line '%s'", key);
    }
  }
  if (!have_dt || !have_cars || !have_human || !have_laps || !r.scene_text)
    FAIL("incomplete header: dt, cars, human, laps and scene are required");
  if (!have_end) FAIL("no end line: the recording was cut short");
  if (!r.scene_dir) {
    r.scene_dir = malloc(2);
    if (!r.scene_dir) FAIL("out of memory");
    strcpy(r.scene_dir, ".");
  }
  rc = 0;
  *out = r;
done:
#undef FAIL
  if (rc != 0) grip_replay_free(&r);
  return rc;
}

int grip_replay_load(const char *path, grip_replay *out, grip_load_error *err) {
  size_t size = 0;
  char *text = grip_read_file(path, (size_t)1 << 30, &size, err);
  if (!text) {
    memset(out, 0, sizeof *out);
    return -1;
  }
  int rc = grip_replay_parse(text, size, path, out, err);
  free(text);
  return rc;
}

void grip_replay_free(grip_replay *r) {
  free(r->scene_dir);
  free(r->scene_text);
  free(r->events);
  memset(r, 0, sizeof *r);
}

void grip_replay_write_header(FILE *f, double dt, int cars, int human, int laps, const char *scene_dir,
                              const char *scene_text) {
  fprintf(f, "grip-replay %d\n# docs/replay.md\ndt %.17g\ncars %d\nhuman %d\nlaps %d\nscene_dir %s\n",
          GRIP_REPLAY_VERSION, dt, cars, human, laps, scene_dir);
  int lines = 0;
  size_t len = strlen(scene_text);
  for (size_t i = 0; i < len; ++i) lines += scene_text[i] == '\n';
  bool trailing = len > 0 && scene_text[len - 1] != '\n';
  fprintf(f, "scene %d\n%s%s", lines + (trailing ? 1 : 0), scene_text, trailing ? "\n" : "");
}

void grip_replay_write_input(FILE *f, long long step, int car, const grip_vehicle_input *in) {
  fprintf(f, "i %lld %d %.17g %.17g %.17g %.17g %.17g %d %d\n", step, car, in->throttle, in->brake, in->steering,
          in->handbrake, in->clutch, in->gear, in->automatic ? 1 : 0);
}

void grip_replay_write_place(FILE *f, long long step, int car, double x, double y, double heading) {
  fprintf(f, "p %lld %d %.17g %.17g %.17g\n", step, car, x, y, heading);
}

void grip_replay_write_systems(FILE *f, long long step, int car, const grip_vehicle_input *in) {
  fprintf(f, "s %lld %d %d %d %d\n", step, car, (int)in->abs_switch, (int)in->tc_switch, (int)in->esc_switch);
}

void grip_replay_write_fuel(FILE *f, long long step, int car, double fuel) {
  fprintf(f, "f %lld %d %.17g\n", step, car, fuel);
}

void grip_replay_write_end(FILE *f, long long steps, uint64_t hash) {
  fprintf(f, "end %lld %016" PRIx64 "\n", steps, hash);
}
