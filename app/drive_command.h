/* grip drive and grip watch share one implementation (app/cmd_drive.c). */
#ifndef GRIP_DRIVE_COMMAND_H
#define GRIP_DRIVE_COMMAND_H

#include <stdbool.h>

/* watch: nobody drives; every car is a robot (grip watch). */
int drive_command(int argc, char **argv, bool watch);

#endif
