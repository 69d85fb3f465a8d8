/* grip watch: a robot race in the viewer (the options of grip drive; docs/viewer.md). */
#include "drive_command.h"

int cmd_watch(int argc, char **argv);
int cmd_watch(int argc, char **argv) { return drive_command(argc, argv, true); }
