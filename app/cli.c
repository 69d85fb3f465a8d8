#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void cli_print_help(FILE *out, const char *command, const char *usage, const cli_option *options,
                    int option_count) {
  fprintf(out, "usage: grip %s %s\n", command, usage ? usage : "[options]");
  for (int i = 0; i < option_count; ++i) {
    const cli_option *o = &options[i];
    const char *arg = o->kind == CLI_FLAG ? "" : o->kind == CLI_STRING ? " VALUE" : " N";
    fprintf(out, "  %s%-*s %s", o->name, (int)(18 - strlen(o->name)), arg, o->help ? o->help : "");
    if (o->kind == CLI_DOUBLE || o->kind == CLI_INT) fprintf(out, " [%g..%g]", o->min, o->max);
    fputc('\n', out);
  }
}

static int parse_value(const char *command, const cli_option *o, const char *text) {
  char *end = NULL;
  errno = 0;
  if (o->kind == CLI_STRING) {
    *(const char **)o->value = text;
    return 0;
  }
  double v = strtod(text, &end);
  if (end == text || *end != '\0' || errno == ERANGE || !isfinite(v)) {
    fprintf(stderr, "grip %s: %s: '%s' is not a number\n", command, o->name, text);
    return CLI_USAGE_ERROR;
  }
  if (v < o->min || v > o->max) {
    fprintf(stderr, "grip %s: %s: %s is out of range (allowed %g..%g)\n", command, o->name, text,
            o->min, o->max);
    return CLI_USAGE_ERROR;
  }
  if (o->kind == CLI_INT) {
    if (v != floor(v)) {
      fprintf(stderr, "grip %s: %s: '%s' is not a whole number\n", command, o->name, text);
      return CLI_USAGE_ERROR;
    }
    *(int *)o->value = (int)v;
  } else {
    *(double *)o->value = v;
  }
  return 0;
}

int cli_parse(int argc, char **argv, const cli_option *options, int option_count,
              const char **positional, int max_positional, int *positional_count) {
  const char *command = argv[0];
  int npos = 0;
  bool has_output = false;
  for (int k = 0; k < option_count; ++k) has_output = has_output || strcmp(options[k].name, "--output") == 0;
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    /* -o is the short form of --output in every command that has one. */
    if (has_output && strcmp(arg, "-o") == 0) arg = "--output";
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
      cli_print_help(stdout, command, NULL, options, option_count);
      return 1;
    }
    if (strncmp(arg, "--", 2) != 0 || strlen(arg) == 2) {
      if (npos >= max_positional) {
        fprintf(stderr, "grip %s: unexpected argument '%s' (see grip %s --help)\n", command, arg,
                command);
        return CLI_USAGE_ERROR;
      }
      positional[npos++] = arg;
      continue;
    }
    /* Accept both "--name value" and "--name=value". */
    const char *eq = strchr(arg, '=');
    size_t name_len = eq ? (size_t)(eq - arg) : strlen(arg);
    const cli_option *found = NULL;
    for (int k = 0; k < option_count; ++k)
      if (strlen(options[k].name) == name_len && strncmp(options[k].name, arg, name_len) == 0)
        found = &options[k];
    if (!found) {
      fprintf(stderr, "grip %s: unknown option '%.*s' (see grip %s --help)\n", command,
              (int)name_len, arg, command);
      return CLI_USAGE_ERROR;
    }
    if (found->kind == CLI_FLAG) {
      if (eq) {
        fprintf(stderr, "grip %s: %s takes no value\n", command, found->name);
        return CLI_USAGE_ERROR;
      }
      *(bool *)found->value = true;
      continue;
    }
    const char *text = eq ? eq + 1 : NULL;
    if (!text) {
      if (i + 1 >= argc) {
        fprintf(stderr, "grip %s: %s needs a value\n", command, found->name);
        return CLI_USAGE_ERROR;
      }
      text = argv[++i];
    }
    int rc = parse_value(command, found, text);
    if (rc) return rc;
  }
  if (positional_count) *positional_count = npos;
  return 0;
}

/* --- JSON ------------------------------------------------------------------------------ */

static void json_separator(json_writer *w) {
  if (w->need_comma[w->depth]) fputc(',', w->out);
  w->need_comma[w->depth] = true;
}

void json_begin(json_writer *w, FILE *out) {
  memset(w, 0, sizeof *w);
  w->out = out;
  fputc('{', out);
  w->depth = 1;
}

void json_end(json_writer *w) {
  fputs("}\n", w->out);
  w->depth = 0;
}

void json_key(json_writer *w, const char *key) {
  json_separator(w);
  if (key) {
    fputc('"', w->out);
    for (const char *c = key; *c; ++c) {
      if (*c == '"' || *c == '\\') fputc('\\', w->out);
      fputc(*c, w->out);
    }
    fputs("\":", w->out);
  }
}

void json_number(json_writer *w, const char *key, double value) {
  json_key(w, key);
  if (isfinite(value))
    fprintf(w->out, "%.10g", value);
  else
    fputs("null", w->out);
}

void json_int(json_writer *w, const char *key, long long value) {
  json_key(w, key);
  fprintf(w->out, "%lld", value);
}

void json_bool(json_writer *w, const char *key, bool value) {
  json_key(w, key);
  fputs(value ? "true" : "false", w->out);
}

void json_null(json_writer *w, const char *key) {
  json_key(w, key);
  fputs("null", w->out);
}

void json_string(json_writer *w, const char *key, const char *value) {
  json_key(w, key);
  fputc('"', w->out);
  for (const unsigned char *c = (const unsigned char *)value; *c; ++c) {
    if (*c == '"' || *c == '\\')
      fprintf(w->out, "\\%c", *c);
    else if (*c < 0x20)
      fprintf(w->out, "\\u%04x", *c);
    else
      fputc(*c, w->out);
  }
  fputc('"', w->out);
}

void json_open(json_writer *w, const char *key, char bracket) {
  json_key(w, key);
  fputc(bracket, w->out);
  if (w->depth < 15) w->depth++;
  w->need_comma[w->depth] = false;
}

void json_close(json_writer *w, char bracket) {
  fputc(bracket, w->out);
  if (w->depth > 0) w->depth--;
}
