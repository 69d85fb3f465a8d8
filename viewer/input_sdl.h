/* Input devices through SDL2 (docs/input.md): the keyboard, the first standard gamepad
 * (GameController, with SDL's mapping database) and a joystick (wheel, pedals, shifter; the
 * first one that is not a gamepad, or the one named in [device] joystick), read for the car
 * controller (input_controller.h); force feedback through SDL_Haptic on that joystick, and
 * gamepad rumble as a fallback. Devices plugged in later are picked up. */
#ifndef GRIP_INPUT_SDL_H
#define GRIP_INPUT_SDL_H

#include <SDL.h>
#include <stdbool.h>

#include "input_config.h"
#include "input_controller.h"

typedef struct input_devices input_devices;

/* Initialises SDL's joystick, game-controller and haptic subsystems and opens the devices the
 * configuration needs. Returns NULL with "file:line: key: what is wrong" in err when a key name
 * is unknown to SDL (the only binding error the loader cannot see), or when SDL fails. */
input_devices *input_devices_open(const grip_input_config *cfg, grip_load_error *err);
void input_devices_close(input_devices *d);

/* Device hot-plug: give every SDL event to it (opens or closes devices as they come and go). */
void input_devices_event(input_devices *d, const SDL_Event *e);

/* The reader for input_controller_update (context: the input_devices). Call SDL_PumpEvents or
 * SDL_JoystickUpdate first so the values are current. */
double input_devices_read(void *context, const grip_input_source *source);

/* The configuration with its keys resolved: initialise the controller from this one. */
const grip_input_config *input_devices_config(const input_devices *d);

/* Names of the open devices ("" when none). */
const char *input_devices_gamepad_name(const input_devices *d);
const char *input_devices_joystick_name(const input_devices *d);
bool input_devices_has_haptic(const input_devices *d);

/* Force feedback: the torque at the car's steering wheel (N·m, + turns it left, the vehicle
 * state's steering_torque) and, for the gamepad's rumble, the tyres' slip (0..1, beyond the
 * grip peak) and a bump (0..1, kerbs and impacts). A haptic thread sends the latest force to the
 * wheel at 200 Hz; rumble is sent from this call. */
void input_devices_feedback(input_devices *d, double steering_torque_nm, double slip, double bump);

/* The device's force level −1..1 for a wheel torque (N·m): ±gain·torque/max_torque (− with
 * invert), clipped at
 * ±1; a non-zero level below min_force is raised to it (levels under 0.001 count as zero). */
double input_ffb_level(const grip_input_config *cfg, double torque_nm);

#endif
