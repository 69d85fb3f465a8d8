/* The person's devices in a drive (docs/input.md): the input configuration, its devices and
 * controller, force feedback and rumble, and the car's sound, joined to a session. The viewer
 * calls these at its hook points; everything else about input and sound lives behind them. */
#ifndef GRIP_INPUT_DRIVE_H
#define GRIP_INPUT_DRIVE_H

#include <SDL.h>
#include <stdbool.h>

#include "input_controller.h"
#include "session.h"

typedef struct drive_io drive_io;

/* Loads the input configuration (input_file, or the built-in keyboard + gamepad one when NULL),
 * opens the devices and, unless mute, the sound of the person's car (or the followed one).
 * NULL after printing "grip COMMAND: file:line: key: what is wrong" when the configuration does
 * not load; no audio is only a note on stderr. */
drive_io *drive_io_open(const session *s, const char *input_file, bool mute, int follow, const char *command);
void drive_io_close(drive_io *io);

/* Every SDL event (device hot-plug). */
void drive_io_event(drive_io *io, const SDL_Event *e);

/* Once per frame, before the physics: reads the devices into the person's input (when there is a
 * person) and returns the buttons pressed (reset, camera, pause, automatic toggle). */
input_actions drive_io_update(drive_io *io, session *s, double frame_dt);

/* Once per frame, after the physics: force feedback, rumble and sound from the followed car. */
void drive_io_feedback(drive_io *io, const session *s, int follow, double frame_dt);

/* The controller's gearbox mode (for the HUD). */
bool drive_io_automatic(const drive_io *io);

#endif
