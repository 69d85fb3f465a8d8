/* grip: the command-line tool. Each command lives in app/cmd_<name>.c. */
#define _POSIX_C_SOURCE 200809L /* readlink, execv */
#include <stdio.h>
#include <string.h>

#include "cli.h"

#define GRIP_COMMAND(name, summary) int cmd_##name(int argc, char **argv);
#include "commands.def"
#undef GRIP_COMMAND

#ifdef GRIP_GUI_EXECUTABLE
/* This grip leaves out SDL2, OpenGL, assimp and PLplot, so that it starts without loading their
 * ~70 shared libraries; the commands that need them run in grip-gui, built beside it (the build
 * directory, or the same bin directory once installed), which is this tool with them. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

/* Exit status when grip-gui cannot be started (as grip plot's in a build without PLplot). */
#define GUI_NOT_FOUND 3

/* Runs the command argv[0] (argc words) in grip-gui in place of this process; returns only when
 * grip-gui could not be started. */
static int run_in_gui(int argc, char **argv) {
  char **args = calloc((size_t)argc + 2, sizeof *args);
  char self[4096], path[4096 + sizeof GRIP_GUI_EXECUTABLE];
  path[0] = '\0';
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (slash) {
      slash[1] = '\0';
      snprintf(path, sizeof path, "%s%s", self, GRIP_GUI_EXECUTABLE);
    }
  }
  int error = ENOMEM;
  if (args) {
    args[0] = path[0] ? path : GRIP_GUI_EXECUTABLE;
    for (int i = 0; i < argc; ++i) args[i + 1] = argv[i];
    if (path[0]) execv(path, args);
    else execvp(GRIP_GUI_EXECUTABLE, args); /* no /proc: from the PATH */
    error = errno;
  }
  fprintf(stderr, "grip %s: runs in %s, which could not be started (%s): %s\n", argv[0],
          GRIP_GUI_EXECUTABLE, path[0] ? path : "not found beside grip", strerror(error));
  free(args);
  return GUI_NOT_FOUND;
}

/* Whether the command argv[0] (argc words), which this grip also has, runs in grip-gui: plot,
 * and replay in a window. (drive, watch and input reach run_in_gui through their entries.) */
static int runs_in_gui(int argc, char **argv) {
#ifdef GRIP_GUI_PLOT
  if (strcmp(argv[0], "plot") == 0) return 1;
#endif
#ifdef GRIP_GUI_VIEWER
  if (strcmp(argv[0], "replay") == 0) { /* in a window, unless told not to open one */
    for (int i = 1; i < argc; ++i)
      if (strcmp(argv[i], "--no-window") == 0) return 0;
    return 1;
  }
#endif
  (void)argc;
  return 0;
}

#ifdef GRIP_GUI_VIEWER
/* The viewer's commands, which only grip-gui has. */
int cmd_drive(int argc, char **argv) { return run_in_gui(argc, argv); }
int cmd_input(int argc, char **argv) { return run_in_gui(argc, argv); }
int cmd_watch(int argc, char **argv) { return run_in_gui(argc, argv); }
#endif
#endif

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
#ifdef GRIP_GUI_EXECUTABLE
  if (runs_in_gui(argc - 1, argv + 1)) return run_in_gui(argc - 1, argv + 1);
#endif
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
    if (same_command(argv[1], commands[i].name)) return commands[i].run(argc - 1, argv + 1);
  fprintf(stderr, "grip: unknown command '%s'\n\n", argv[1]);
  usage(stderr);
  return CLI_USAGE_ERROR;
}
