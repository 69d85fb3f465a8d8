#include "report.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define REPORT_MAX_OPTIONS 24

int report_parse(int argc, char **argv, const cli_option *own, int own_count, double *dt, bool *json, grip_car *car) {
  const char *car_spec = NULL, *tyre_state = NULL;
  double tyre_temp_c = NAN, tyre_pressure_kpa = NAN;
  const cli_option shared[] = {
      CLI_OPTION_DT(*dt, "0.002"),
      CLI_OPTION_JSON(*json),
      CLI_OPTION_CAR(car_spec),
      {"--tyre-state", CLI_STRING, &tyre_state, 0, 0, "on|off: tyre temperature, pressure and wear (default: the car's [tyre_state])"},
      {"--tyre-temp", CLI_DOUBLE, &tyre_temp_c, -70.0, 200.0, "degC, the tyres' starting temperature (tyre state on)"},
      {"--tyre-pressure", CLI_DOUBLE, &tyre_pressure_kpa, 10.0, 1000.0, "kPa gauge, the tyres' cold pressure (set at the car's pressure_temperature)"},
  };
  cli_option options[REPORT_MAX_OPTIONS];
  int n = 0;
  for (int i = 0; i < own_count && n < REPORT_MAX_OPTIONS; ++i) options[n++] = own[i];
  for (int i = 0; i < CLI_COUNT(shared) && n < REPORT_MAX_OPTIONS; ++i) options[n++] = shared[i];
  int rc = cli_parse(argc, argv, options, n, NULL, 0, NULL);
  if (rc) return rc == 1 ? 0 : rc;
  if (tyre_state && strcmp(tyre_state, "on") != 0 && strcmp(tyre_state, "off") != 0) {
    fprintf(stderr, "grip %s: --tyre-state: '%s' is not on or off\n", argv[0], tyre_state);
    return CLI_USAGE_ERROR;
  }
  if (cli_load_car(argv[0], car_spec, car)) return 1;
  if (tyre_state) car->def.tyre_state.enabled = strcmp(tyre_state, "on") == 0;
  if (isfinite(tyre_temp_c)) car->def.tyre_state.initial_temperature = tyre_temp_c + 273.15;
  if (isfinite(tyre_pressure_kpa)) car->def.tyre_state.pressure = 1e3 * tyre_pressure_kpa;
  return -1;
}

void report_begin(report *r, bool json, const char *title_format, ...) {
  r->json = json;
  if (json) {
    json_begin(&r->w, stdout);
    return;
  }
  va_list ap;
  va_start(ap, title_format);
  vprintf(title_format, ap);
  va_end(ap);
  putchar('\n');
}

void report_end(report *r) {
  if (r->json) json_end(&r->w);
}

static void label_column(const char *label) { printf("  %-15s ", label); }

void report_number(report *r, const char *key, double value, const char *label, const char *format) {
  if (r->json) {
    json_number(&r->w, key, value);
  } else if (label) {
    label_column(label);
    printf(format, value);
    putchar('\n');
  }
}

void report_optional(report *r, const char *key, double value, const char *label, const char *format,
                     const char *missing) {
  if (r->json || isfinite(value)) report_number(r, key, value, label, format);
  else if (label) report_string(r, key, missing, label);
}

int report_check_range(const char *command, const char *option, double value, double lo, double hi, const char *what) {
  if (value >= lo && value <= hi) return 0;
  fprintf(stderr, "grip %s: %s: %g is out of range for this car (%s: allowed %g..%g)\n", command, option, value, what,
          lo, hi);
  return CLI_USAGE_ERROR;
}

void report_int(report *r, const char *key, long long value, const char *label, const char *format) {
  if (r->json) {
    json_int(&r->w, key, value);
  } else if (label) {
    label_column(label);
    printf(format, value);
    putchar('\n');
  }
}

void report_string(report *r, const char *key, const char *value, const char *label) {
  if (r->json) {
    json_string(&r->w, key, value);
  } else if (label) {
    label_column(label);
    printf("%8s\n", value);
  }
}

void report_null(report *r, const char *key) {
  if (r->json) json_null(&r->w, key);
}

void report_bool(report *r, const char *key, bool value, const char *label) {
  if (r->json) json_bool(&r->w, key, value);
  else if (label) report_string(r, key, value ? "yes" : "no", label);
}
