/* Shared pieces of the grip command: option parsing and JSON output. */
#ifndef GRIP_CLI_H
#define GRIP_CLI_H

#include <stdbool.h>
#include <stdio.h>

/* Exit status for bad usage (unknown option, value out of range). */
#define CLI_USAGE_ERROR 2

typedef enum cli_option_kind {
  CLI_FLAG,   /* bool, no value */
  CLI_DOUBLE, /* double within [min, max] */
  CLI_INT,    /* int within [min, max] */
  CLI_STRING, /* const char * */
} cli_option_kind;

typedef struct cli_option {
  const char *name; /* "--dt" */
  cli_option_kind kind;
  void *value; /* bool *, double *, int * or const char ** */
  double min, max;
  const char *help;
} cli_option;

/* Option entries shared by the commands. */
#define CLI_OPTION_DT(var, default_text) \
  {"--dt", CLI_DOUBLE, &(var), 1e-4, 0.02, "fixed step, s (default " default_text ")"}
#define CLI_OPTION_JSON(var) {"--json", CLI_FLAG, &(var), 0, 0, "machine-readable output"}
#define CLI_COUNT(options) ((int)(sizeof(options) / sizeof((options)[0])))

/* Parses argv[1..] (argv[0] is the command name). Positional arguments are stored in
 * positional[0..max_positional-1] and counted in *positional_count (may be NULL when none are
 * allowed). Prints "grip CMD: what is wrong" to stderr and returns CLI_USAGE_ERROR on bad input,
 * 1 after printing help for --help, 0 on success. */
int cli_parse(int argc, char **argv, const cli_option *options, int option_count,
              const char **positional, int max_positional, int *positional_count);

void cli_print_help(FILE *out, const char *command, const char *usage, const cli_option *options,
                    int option_count);

/* Minimal JSON writer to stdout: one object, flat or with nested lists. Non-finite numbers
 * are written as null. */
typedef struct json_writer {
  FILE *out;
  int depth;
  bool need_comma[16];
} json_writer;

void json_begin(json_writer *w, FILE *out);
void json_end(json_writer *w);
void json_key(json_writer *w, const char *key);
void json_number(json_writer *w, const char *key, double value);
void json_int(json_writer *w, const char *key, long long value);
void json_bool(json_writer *w, const char *key, bool value);
void json_string(json_writer *w, const char *key, const char *value);
void json_null(json_writer *w, const char *key);
/* Open/close a nested object or array; key may be NULL inside arrays. */
void json_open(json_writer *w, const char *key, char bracket);
void json_close(json_writer *w, char bracket);

#endif
