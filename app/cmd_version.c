#include <stdio.h>

#include "grip/grip.h"

int cmd_version(int argc, char **argv);
int cmd_version(int argc, char **argv) {
  (void)argc;
  (void)argv;
  printf("grip %d.%d\n", GRIP_VERSION_MAJOR, GRIP_VERSION_MINOR);
  return 0;
}
