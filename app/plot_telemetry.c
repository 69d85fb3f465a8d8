/* grip plot: telemetry CSV and laps (plot_telemetry.h). */
#include "plot_telemetry.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Splits a header line at commas into t->names. */
static int read_header(const char *kind, const char *path, char *line, telemetry *t) {
  t->columns = 0;
  for (char *p = line;;) {
    char *comma = strchr(p, ',');
    if (comma) *comma = '\0';
    p[strcspn(p, "\r\n")] = '\0';
    if (t->columns >= TELEMETRY_MAX_COLUMNS) {
      fprintf(stderr, "grip plot %s: %s:1: more than %d columns\n", kind, path, TELEMETRY_MAX_COLUMNS);
      return 1;
    }
    size_t len = strlen(p) < sizeof t->names[0] - 1 ? strlen(p) : sizeof t->names[0] - 1;
    memcpy(t->names[t->columns], p, len);
    t->names[t->columns++][len] = '\0';
    if (!comma) break;
    p = comma + 1;
  }
  return 0;
}

int telemetry_load(const char *kind, const char *path, telemetry *t) {
  memset(t, 0, sizeof *t);
  t->path = path;
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "grip plot %s: %s: cannot open: %s\n", kind, path, strerror(errno));
    return 1;
  }
  char line[4096];
  int lineno = 1, capacity = 0, rc = 0;
  if (!fgets(line, sizeof line, f) || read_header(kind, path, line, t)) {
    if (t->columns == 0) fprintf(stderr, "grip plot %s: %s: empty file\n", kind, path);
    fclose(f);
    return 1;
  }
  while (fgets(line, sizeof line, f)) {
    ++lineno;
    if (line[strspn(line, " \t\r\n")] == '\0') continue;
    if (t->rows == capacity) {
      capacity = capacity ? 2 * capacity : 1024;
      double *grown = realloc(t->values, (size_t)capacity * (size_t)t->columns * sizeof *grown);
      if (!grown) {
        fprintf(stderr, "grip plot %s: %s: out of memory\n", kind, path);
        rc = 1;
        break;
      }
      t->values = grown;
    }
    double *row = t->values + (long)t->rows * t->columns;
    char *p = line;
    int c = 0;
    for (; c < t->columns; ++c) {
      char *end = NULL;
      errno = 0;
      row[c] = strtod(p, &end);
      if (end == p || errno == ERANGE || !isfinite(row[c]) || (*end != ',' && c + 1 < t->columns) ||
          (c + 1 == t->columns && end[strspn(end, " \t\r\n")] != '\0')) {
        fprintf(stderr, "grip plot %s: %s:%d: %s: not a number, or the row has %s columns than the header\n",
                kind, path, lineno, t->names[c], c + 1 < t->columns && *end == '\0' ? "fewer" : "other");
        rc = 1;
        break;
      }
      p = end + 1;
    }
    if (rc) break;
    t->rows++;
  }
  fclose(f);
  if (rc == 0 && t->rows == 0) {
    fprintf(stderr, "grip plot %s: %s: no data rows\n", kind, path);
    rc = 1;
  }
  if (rc) telemetry_free(t);
  return rc;
}

void telemetry_free(telemetry *t) {
  free(t->values);
  t->values = NULL;
  t->rows = 0;
}

int telemetry_column(const char *kind, const telemetry *t, const char *name) {
  for (int c = 0; c < t->columns; ++c)
    if (strcmp(t->names[c], name) == 0) return c;
  fprintf(stderr, "grip plot %s: %s: no column %s (is it a grip race --telemetry file?)\n", kind, t->path, name);
  return -1;
}

int telemetry_columns(const char *kind, const telemetry *t, int count, const char *const *names, int *columns) {
  for (int i = 0; i < count; ++i)
    if ((columns[i] = telemetry_column(kind, t, names[i])) < 0) return 1;
  return 0;
}

int telemetry_car_laps(const char *kind, const telemetry *t, int car, telemetry_car *out) {
  memset(out, 0, sizeof *out);
  out->car = car;
  int c_car = telemetry_column(kind, t, "car"), c_t = telemetry_column(kind, t, "time_s");
  int c_d = telemetry_column(kind, t, "distance_m"), c_v = telemetry_column(kind, t, "speed_kmh");
  if (c_car < 0 || c_t < 0 || c_d < 0 || c_v < 0) return 1;
  out->rows = malloc((size_t)t->rows * sizeof *out->rows);
  if (!out->rows) return 1;
  double dmax = 0.0;
  for (int i = 0; i < t->rows; ++i)
    if (trunc(telemetry_at(t, i, c_car)) == (double)car) { /* not (int): a huge value would be undefined */
      out->rows[out->count++] = i;
      dmax = fmax(dmax, telemetry_at(t, i, c_d));
    }
  if (out->count < 2) {
    fprintf(stderr, "grip plot %s: %s: no rows of car %d\n", kind, t->path, car);
    telemetry_car_free(out);
    return 1;
  }
  /* Crossings of the line: the distance wraps by more than half the track between two rows.
   * The time of a crossing: the later row's time less its distance past the line at the mean
   * speed of the two rows; the track length likewise from the earlier row. */
  enum { MAX_CROSSINGS = TELEMETRY_MAX_LAPS + 1 };
  static int after[MAX_CROSSINGS];
  static double when[MAX_CROSSINGS];
  int crossings = 0;
  double length_sum = 0.0;
  for (int k = 1; k < out->count && crossings < MAX_CROSSINGS; ++k) {
    int a = out->rows[k - 1], b = out->rows[k];
    double da = telemetry_at(t, a, c_d), db = telemetry_at(t, b, c_d);
    if (db < da - 0.5 * dmax) {
      double ta = telemetry_at(t, a, c_t), tb = telemetry_at(t, b, c_t);
      double v = 0.5 * (telemetry_at(t, a, c_v) + telemetry_at(t, b, c_v)) / 3.6;
      when[crossings] = v > 0.1 ? tb - db / v : tb;
      length_sum += da + v * (tb - ta) - db;
      after[crossings++] = k;
    }
  }
  out->track_length = crossings ? length_sum / crossings : dmax;
  double t0 = telemetry_at(t, out->rows[0], c_t);
  bool behind = telemetry_at(t, out->rows[0], c_d) > 0.5 * out->track_length;
  /* Lap boundaries: (row position in out->rows, time). */
  int starts = 0;
  static int bound_k[MAX_CROSSINGS + 1];
  static double bound_t[MAX_CROSSINGS + 1];
  if (!behind) bound_k[starts] = 0, bound_t[starts++] = t0;
  for (int i = 0; i < crossings; ++i) bound_k[starts] = after[i], bound_t[starts++] = when[i];
  if (behind && starts > 0) bound_t[0] = t0 < 0.0 ? t0 : 0.0; /* the race clock starts at 0 */
  for (int i = 0; i < starts && out->laps < TELEMETRY_MAX_LAPS; ++i) {
    telemetry_lap *l = &out->lap[out->laps];
    l->lap = out->laps + 1;
    l->first = bound_k[i];
    l->start_time = bound_t[i];
    if (i + 1 < starts) {
      l->last = bound_k[i + 1] - 1;
      l->end_time = bound_t[i + 1];
      l->complete = true;
    } else {
      /* The last lap: complete when its last row lies within 1.5 sample intervals of the line
       * (the race stops at the finish, between two telemetry rows). */
      l->last = out->count - 1;
      int r = out->rows[l->last], q = out->rows[l->last > 0 ? l->last - 1 : 0];
      double v = telemetry_at(t, r, c_v) / 3.6, left = out->track_length - telemetry_at(t, r, c_d);
      double interval = telemetry_at(t, r, c_t) - telemetry_at(t, q, c_t);
      l->complete = v > 0.1 && left >= 0.0 && left / v <= 1.5 * interval + 1e-9 && l->last > l->first;
      l->end_time = l->complete ? telemetry_at(t, r, c_t) + left / v : NAN;
    }
    if (l->last < l->first) continue;
    out->laps++;
  }
  return 0;
}

void telemetry_car_free(telemetry_car *c) {
  free(c->rows);
  c->rows = NULL;
  c->count = 0;
}

int telemetry_get_lap(const char *kind, const telemetry *t, const telemetry_car *c, int n, telemetry_lap *lap) {
  if (n < 1 || n > c->laps) {
    fprintf(stderr, "grip plot %s: %s: car %d has no lap %d (%d lap(s) in the file)\n", kind, t->path, c->car, n,
            c->laps);
    return 1;
  }
  *lap = c->lap[n - 1];
  if (!lap->complete) {
    fprintf(stderr, "grip plot %s: %s: lap %d of car %d is not complete\n", kind, t->path, n, c->car);
    return 1;
  }
  return 0;
}
