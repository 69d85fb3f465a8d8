/* grip import-torcs CAR_DIR_OR_XML -o car.ini: converts a TORCS car to a grip car file. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "torcs_car.h"

int cmd_import_torcs(int argc, char **argv);
int cmd_import_torcs(int argc, char **argv) {
  const char *output = NULL, *setup = NULL, *category = NULL;
  cli_option options[] = {
      {"--output", CLI_STRING, &output, 0, 0, "grip car file to write (also -o; default: stdout)"},
      {"--setup", CLI_STRING, &setup, 0, 0, "robot setup XML applied on top of the car"},
      {"--category", CLI_STRING, &category, 0, 0, "category XML (default: the car's own, from ../../categories)"},
  };
  const char *positional[1] = {NULL};
  int npos = 0;
  int rc = cli_parse(argc, argv, options, CLI_COUNT(options), positional, 1, &npos);
  if (rc) return rc == 1 ? 0 : rc;
  if (npos != 1) {
    fprintf(stderr, "grip import-torcs: expected one TORCS car directory, car XML or torcs:NAME\n");
    return CLI_USAGE_ERROR;
  }
  static grip_car car;
  grip_load_error err;
  const char *src = positional[0];
  int failed;
  if (strncmp(src, "torcs:", 6) == 0) failed = grip_torcs_load_named(src + 6, setup, &car, &err);
  else if (category) failed = grip_torcs_load(src, category, setup, &car, &err);
  else failed = grip_torcs_load_path(src, setup, &car, &err);
  if (failed) {
    fprintf(stderr, "grip import-torcs: %s\n", err.message);
    return 1;
  }
  char comment[1200];
  snprintf(comment, sizeof comment,
           "%s: imported from the TORCS car %s%s%s by grip import-torcs.\n"
           "Mapping of TORCS parameters: docs/car-format.md, section \"TORCS import\".",
           car.name, car.source, setup ? " with setup " : "", setup ? setup : "");
  if (!output) return grip_car_write(&car, stdout, comment) ? 1 : 0;
  if (grip_car_save(&car, output, comment, &err)) {
    fprintf(stderr, "grip import-torcs: %s\n", err.message);
    return 1;
  }
  return 0;
}
