#include <stdio.h>

#include "grip/grip.h"

int cmd_version(int argc, char **argv);
int cmd_version(int argc, char **argv) {
  (void)argc;
  (void)argv;
  printf("grip %d.%d\n", GRIP_VERSION_MAJOR, GRIP_VERSION_MINOR);
  /* which copy of the step's hot functions runs here (src/isa.h): figures of grip bench are
   * compared between runs of the same copy */
  printf("step code: %s\n", grip_step_instruction_set());
  return 0;
}
