/* grip: the command-line tool. Each command lives in app/cmd_<name>.c. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

#define GRIP_COMMAND(name, summary) int cmd_##name(int argc, char **argv);
#include "commands.def"
#undef GRIP_COMMAND

typedef struct command_entry {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} command_entry;

static const command_entry commands[] = {
#define GRIP_COMMAND(name, summary) {#name, cmd_##name, summary},
#include "commands.def"
#undef GRIP_COMMAND
};

/* Command names use '-' on the command line where the C identifier has '_' (import-torcs). */
static int same_command(const char *arg, const char *name) {
  for (; *arg && *name; ++arg, ++name)
    if (*arg != *name && !(*arg == '-' && *name == '_')) return 0;
  return *arg == *name;
}

static void usage(FILE *out) {
  fprintf(out, "usage: grip COMMAND [options]   (grip COMMAND --help for its options)\n\n");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
  {
    char name[32];
    snprintf(name, sizeof name, "%s", commands[i].name);
    for (char *c = name; *c; ++c)
      if (*c == '_') *c = '-';
    fprintf(out, "  %-14s %s\n", name, commands[i].summary);
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return CLI_USAGE_ERROR;
  }
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
    usage(stdout);
    return 0;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
    if (same_command(argv[1], commands[i].name)) return commands[i].run(argc - 1, argv + 1);
  fprintf(stderr, "grip: unknown command '%s'\n\n", argv[1]);
  usage(stderr);
  return CLI_USAGE_ERROR;
}
