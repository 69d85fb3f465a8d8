/* grip tire: evaluate a Magic Formula tyre from a .tir file, at one point or for a CSV of
 * points. Output in the ISO-W (TYDEX W) convention of the .tir standard (= grip's ISO 8855). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "grip/mf_tyre.h"
#include "read_file.h"
#include "tir.h"

int cmd_tire(int argc, char **argv);

static const char *const csv_columns[] = {"Fz", "kappa", "alpha", "gamma", "Vx", "P"};

/* Splits line at commas into at most max fields, parsing each as a number. Returns the number
 * of fields, or -1 with *bad set to the index of the first field that is not a finite number. */
static int parse_row(char *line, double *v, int max, int *bad, char **bad_text) {
  int n = 0;
  char *p = line;
  for (;;) {
    char *comma = strchr(p, ',');
    if (comma) *comma = '\0';
    while (*p == ' ' || *p == '\t') ++p;
    char *e = p + strlen(p);
    while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n')) *--e = '\0';
    if (n < max) {
      char *end = NULL;
      errno = 0;
      double x = strtod(p, &end);
      if (end == p || *end != '\0' || !isfinite(x) || errno == ERANGE) {
        *bad = n;
        *bad_text = p;
        return -1;
      }
      v[n] = x;
    }
    ++n;
    if (!comma) break;
    p = comma + 1;
  }
  return n;
}

static int run_csv(const grip_mf_params *mf, const char *path) {
  FILE *f = strcmp(path, "-") == 0 ? stdin : grip_is_directory(path, NULL) ? NULL : fopen(path, "r");
  if (!f) {
    fprintf(stderr, "grip tire: %s: %s\n", path, grip_open_problem(path, errno));
    return 1;
  }
  char line[4096];
  int lineno = 0, rows = 0, rc = 0, first = 1;
  printf("Fz,kappa,alpha,gamma,Vx,Fx,Fy,Mz\n");
  while (fgets(line, sizeof line, f)) {
    ++lineno;
    size_t len = strlen(line);
    if (len == sizeof line - 1 && line[len - 1] != '\n' && !feof(f)) {
      fprintf(stderr, "grip tire: %s:%d: line too long (over %zu characters)\n", path, lineno, sizeof line - 2);
      rc = 1;
      break;
    }
    char *s = line;
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') ++s;
    if (*s == '\0' || *s == '#') continue;
    double v[6] = {0, 0, 0, 0, 0, 0};
    int bad = -1;
    char *bad_text = NULL;
    int n = parse_row(s, v, 6, &bad, &bad_text);
    if (n < 0 && first) {
      first = 0; /* a header line */
      continue;
    }
    first = 0;
    if (n < 0) {
      fprintf(stderr, "grip tire: %s:%d: %s: '%s' is not a number\n", path, lineno, csv_columns[bad], bad_text);
      rc = 1;
      break;
    }
    if (n != 5 && n != 6) {
      fprintf(stderr, "grip tire: %s:%d: expected 5 values Fz,kappa,alpha,gamma,Vx (or 6 with P), got %d\n",
              path, lineno, n);
      rc = 1;
      break;
    }
    grip_mf_output o;
    grip_mf_evaluate_full(mf, v[0], v[1], v[2], v[3], v[4], n == 6 ? v[5] : 0.0, &o);
    printf("%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", v[0], v[1], v[2], v[3], v[4], o.fx,
           o.fy, o.mz);
    ++rows;
  }
  if (f != stdin) fclose(f);
  if (rc == 0 && rows == 0) {
    fprintf(stderr, "grip tire: %s: no data rows\n", path);
    rc = 1;
  }
  return rc;
}

int cmd_tire(int argc, char **argv) {
  const char *tir = NULL, *csv = NULL;
  double fz = NAN, kappa = 0.0, alpha = 0.0, gamma = 0.0, vx = NAN, pressure = 0.0;
  bool json = false;
  const cli_option options[] = {
      {"--tir", CLI_STRING, &tir, 0, 0, "tyre property file (.tir, MF 5.2 / 6.1 / 6.2)"},
      {"--csv", CLI_STRING, &csv, 0, 0, "rows Fz,kappa,alpha,gamma,Vx (N, -, rad, rad, m/s); - = stdin"},
      {"--fz", CLI_DOUBLE, &fz, 0, 1e6, "vertical load, N"},
      {"--kappa", CLI_DOUBLE, &kappa, -10, 10, "slip ratio"},
      {"--alpha", CLI_DOUBLE, &alpha, -1.6, 1.6, "slip angle, rad"},
      {"--gamma", CLI_DOUBLE, &gamma, -1.6, 1.6, "inclination angle, rad"},
      {"--vx", CLI_DOUBLE, &vx, -1000, 1000, "forward speed, m/s (default LONGVL)"},
      {"--pressure", CLI_DOUBLE, &pressure, 0, 1e8, "inflation pressure, Pa (default INFLPRES)"},
      {"--json", CLI_FLAG, &json, 0, 0, "print the single point as JSON"},
  };
  const int n_options = (int)(sizeof options / sizeof options[0]);
  int rc = cli_parse(argc, argv, options, n_options, NULL, 0, NULL);
  if (rc == 1) return 0; /* --help */
  if (rc) return rc;
  if (!tir) {
    fprintf(stderr, "grip tire: --tir FILE is required (see grip tire --help)\n");
    return CLI_USAGE_ERROR;
  }
  if (!csv && isnan(fz)) {
    fprintf(stderr, "grip tire: give --csv FILE or a point with --fz N (see grip tire --help)\n");
    return CLI_USAGE_ERROR;
  }
  if (csv && (!isnan(fz) || json)) {
    fprintf(stderr, "grip tire: --csv cannot be combined with --fz or --json\n");
    return CLI_USAGE_ERROR;
  }
  grip_mf_params *mf = malloc(sizeof *mf);
  if (!mf) return 1;
  grip_load_error err;
  grip_load_error_clear(&err);
  if (grip_tir_load(tir, mf, &err) != 0) {
    fprintf(stderr, "grip tire: %s\n", err.message);
    free(mf);
    return 1;
  }
  if (csv) {
    rc = run_csv(mf, csv);
    free(mf);
    return rc;
  }
  if (isnan(vx)) vx = mf->LONGVL;
  grip_mf_output o;
  grip_mf_evaluate_full(mf, fz, kappa, alpha, gamma, vx, pressure, &o);
  if (json) {
    json_writer w;
    json_begin(&w, stdout);
    json_int(&w, "fittyp", mf->fittyp);
    json_number(&w, "fz", fz);
    json_number(&w, "kappa", kappa);
    json_number(&w, "alpha", alpha);
    json_number(&w, "gamma", gamma);
    json_number(&w, "vx", vx);
    json_number(&w, "fx", o.fx);
    json_number(&w, "fy", o.fy);
    json_number(&w, "mz", o.mz);
    json_number(&w, "mx", o.mx);
    json_number(&w, "my", o.my);
    json_number(&w, "re", o.re);
    json_number(&w, "omega", o.omega);
    json_number(&w, "mux", o.mux);
    json_number(&w, "muy", o.muy);
    json_number(&w, "kxk", o.kxk);
    json_number(&w, "kya", o.kya);
    json_number(&w, "trail", o.t);
    json_number(&w, "mzr", o.mzr);
    json_end(&w);
  } else {
    printf("MF %s tyre, Fz %.6g N, kappa %.6g, alpha %.6g rad, gamma %.6g rad, Vx %.6g m/s\n",
           mf->version == GRIP_MF_52 ? "5.2" : mf->version == GRIP_MF_61 ? "6.1" : "6.2", fz, kappa,
           alpha, gamma, vx);
    printf("Fx %.6f N\nFy %.6f N\nMz %.6f N*m\nMx %.6f N*m\nMy %.6f N*m\n", o.fx, o.fy, o.mz, o.mx,
           o.my);
    printf("Re %.6f m\nmux %.6f\nmuy %.6f\n", o.re, o.mux, o.muy);
  }
  free(mf);
  return 0;
}
