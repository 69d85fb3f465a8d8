/* Results of the manoeuvre commands (accel, bench, brake, park, skidpad, steady, stepsteer):
 * their options, the shared --dt, --json and --car, and one result written either as a JSON
 * object or as aligned text lines "  label  value unit", from one list of fields. */
#ifndef GRIP_REPORT_H
#define GRIP_REPORT_H

#include <stdbool.h>

#include "car_option.h"
#include "cli.h"

/* Parses argv: the command's own options, then --dt (default 0.002 s), --json and --car; loads
 * the car into *car (messages on stderr). Returns -1 to go on, or the exit status to return
 * (0 after --help, CLI_USAGE_ERROR for bad options, 1 when the car does not load). */
int report_parse(int argc, char **argv, const cli_option *own, int own_count, double *dt, bool *json, grip_car *car);

typedef struct report {
  bool json;
  json_writer w;
} report;

/* Starts the result; title_format (printf) is the text mode's heading line, unused in JSON. */
void report_begin(report *r, bool json, const char *title_format, ...);
void report_end(report *r);

/* One field: its JSON key, and its text line (label NULL: JSON only). format is the printf
 * conversion of the value with its unit, e.g. "%8.2f s". */
void report_number(report *r, const char *key, double value, const char *label, const char *format);
/* The same for a value that may be missing (NAN: not reached, not measured): text prints
 * `missing` in its place, JSON null. */
void report_optional(report *r, const char *key, double value, const char *label, const char *format,
                     const char *missing);
void report_int(report *r, const char *key, long long value, const char *label, const char *format);
void report_string(report *r, const char *key, const char *value, const char *label);
void report_null(report *r, const char *key); /* JSON only */
void report_bool(report *r, const char *key, bool value, const char *label);

/* Refuses an option value outside what the car allows (known only once it is loaded):
 * "grip CMD: OPTION: VALUE is out of range for this car (WHAT: allowed LO..HI)" on stderr; returns CLI_USAGE_ERROR
 * when out of range, else 0. */
int report_check_range(const char *command, const char *option, double value, double lo, double hi, const char *what);

#endif
