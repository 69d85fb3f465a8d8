/* grip plot KIND: figures of a car, a tyre and laps as PNG, SVG or PDF (docs/plots.md). The
 * drawing lives in app/plot_*.c, built only when CMake finds PLplot (GRIP_HAVE_PLPLOT); without
 * it this command says so and exits with PLOT_NOT_BUILT. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* Exit status of grip plot in a grip built without PLplot. */
#define PLOT_NOT_BUILT 3

int cmd_plot(int argc, char **argv);

#ifndef GRIP_HAVE_PLPLOT

int cmd_plot(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "grip plot: this grip was built without PLplot, so it draws no figures; install "
                  "libplplot-dev and plplot-driver-cairo (scripts/install-deps.sh) and rebuild\n");
  return PLOT_NOT_BUILT;
}

#else

#include "plot_kinds.h"

typedef struct plot_kind {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} plot_kind;

static const plot_kind kinds[] = {
    {"engine", plot_engine, "torque and power against rpm; road speed per gear with the automatic's shifts"},
    {"tyre", plot_tyre, "Fx, Fy and Mz against slip at three loads; the combined-slip envelope"},
    {"gg", plot_gg, "lateral against longitudinal g from telemetry, coloured by speed, with the tyre limit"},
    {"lap", plot_lap, "a lap on the track map, coloured by speed, braking points, start line, sectors"},
    {"compare", plot_compare, "two laps against distance: speed, throttle, brake, gear, time delta"},
    {"handling", plot_handling, "handling diagram: steering against lateral g on a skidpad, single-track model"},
};
#define KIND_COUNT ((int)(sizeof kinds / sizeof kinds[0]))
#define MAX_ARGS 64

static void usage(FILE *out) {
  fprintf(out, "usage: grip plot KIND [options] -o FILE.png|svg|pdf [--csv FILE]   (grip plot KIND --help)\n\n");
  for (int i = 0; i < KIND_COUNT; ++i) fprintf(out, "  %-9s %s\n", kinds[i].name, kinds[i].summary);
}

int cmd_plot(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return CLI_USAGE_ERROR;
  }
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
    usage(stdout);
    return 0;
  }
  const plot_kind *kind = NULL;
  for (int i = 0; i < KIND_COUNT; ++i)
    if (strcmp(argv[1], kinds[i].name) == 0 || (strcmp(argv[1], "tire") == 0 && i == 1)) kind = &kinds[i];
  if (!kind) {
    fprintf(stderr, "grip plot: unknown kind '%s'\n\n", argv[1]);
    usage(stderr);
    return CLI_USAGE_ERROR;
  }
  if (argc - 1 > MAX_ARGS) {
    fprintf(stderr, "grip plot %s: too many arguments\n", kind->name);
    return CLI_USAGE_ERROR;
  }
  /* The kind sees "plot KIND" as its command name. */
  char name[32];
  snprintf(name, sizeof name, "plot %s", kind->name);
  char *args[MAX_ARGS + 1];
  args[0] = name;
  for (int i = 2; i < argc; ++i) args[i - 1] = argv[i];
  args[argc - 1] = NULL;
  return kind->run(argc - 1, args);
}

#endif
