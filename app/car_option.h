/* --car SPEC for the commands that drive a car. */
#ifndef GRIP_CAR_OPTION_H
#define GRIP_CAR_OPTION_H

#include "car_file.h"

/* Help text of the --car option. */
#define CLI_CAR_HELP "car: FILE.ini, torcs:NAME, TORCS car dir/XML, or builtin (default)"
#define CLI_OPTION_CAR(var) {"--car", CLI_STRING, &(var), 0, 0, CLI_CAR_HELP}

/* Loads the car named by spec into *car: NULL, "builtin" or "corvette-c5" is the built-in car;
 * "torcs:NAME" is /usr/share/games/torcs/cars/NAME (with its category); a path ending in .xml or
 * a directory is a TORCS car; anything else is a grip car file. Prints warnings and errors as
 * "grip COMMAND: ..." on stderr. Returns 0, or 1 when the car does not load. */
int cli_load_car(const char *command, const char *spec, grip_car *car);

/* Same without printing; the error is left in err and the warnings in car. */
int cli_load_car_quiet(const char *spec, grip_car *car, grip_load_error *err);

#endif
