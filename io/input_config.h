/* Input configuration files (INI): which keys, gamepad controls and joystick (wheel, pedals,
 * shifter) axes and buttons drive the car, with the curves of the analogue axes, the ramps of
 * the digital ones and the force-feedback settings. Format and setup: docs/input.md.
 *
 * The loader knows nothing of SDL: a source is written as
 *   key:NAME           a keyboard key, SDL's scancode name (Up, A, Space, Left Shift, PageUp…)
 *   pad:NAME           a standard gamepad's axis (leftx lefty rightx righty lefttrigger
 *                      righttrigger) or button (a b x y back guide start leftstick rightstick
 *                      leftshoulder rightshoulder dpup dpdown dpleft dpright misc1 paddle1..4
 *                      touchpad), SDL GameController names
 *   joy:axisN          joystick axis N (0-based, as `grip input list` shows)
 *   joy:buttonN        joystick button N
 *   joy:hatN.DIR       joystick hat N pushed up, right, down or left
 * Key names are checked when the keyboard is bound (viewer/input_sdl.c), with the line kept
 * here, so their errors are file:line too. */
#ifndef GRIP_INPUT_CONFIG_H
#define GRIP_INPUT_CONFIG_H

#include <stdbool.h>

#include "grip/grip.h"
#include "load_error.h"

#define GRIP_INPUT_MAX_SOURCES 6 /* per control */
#define GRIP_INPUT_KEY_NAME 32

typedef enum grip_input_source_kind {
  GRIP_INPUT_NONE = 0,
  GRIP_INPUT_KEY,        /* key: name in key[] */
  GRIP_INPUT_PAD_AXIS,   /* index: SDL_GameControllerAxis order (leftx = 0 … righttrigger = 5) */
  GRIP_INPUT_PAD_BUTTON, /* index: SDL_GameControllerButton order (a = 0 … touchpad = 20) */
  GRIP_INPUT_JOY_AXIS,   /* index: axis number */
  GRIP_INPUT_JOY_BUTTON, /* index: button number */
  GRIP_INPUT_JOY_HAT,    /* index: hat number; direction: SDL's hat bit (1 up, 2 right, 4 down, 8 left) */
} grip_input_source_kind;

typedef struct grip_input_source {
  grip_input_source_kind kind;
  int index;
  int direction;
  char key[GRIP_INPUT_KEY_NAME];
  int line; /* line of the file it was written on (0: built in) */
} grip_input_source;

/* Buttons (or keys) of one control: any of them held = held. */
typedef struct grip_input_buttons {
  int count;
  grip_input_source source[GRIP_INPUT_MAX_SOURCES];
} grip_input_buttons;

/* An analogue axis and how its raw value (−32768..32767) becomes a control value. */
typedef struct grip_input_axis {
  grip_input_source source; /* kind NONE: no axis */
  double deadzone;  /* fraction of the travel ignored (centre for steering, released end for
                       pedals), 0..0.9; 0.05 */
  double curve;     /* linearity exponent: out = in^curve after the deadzone, 0.2..5; 1 = linear */
  bool invert;
  /* Pedals: raw value with the pedal released and fully pressed (either order). Default: a
   * gamepad trigger 0 / 32767, a joystick axis −32768 / 32767 (many wheels: 32767 / −32768). */
  double released, pressed;
  /* Steering: the device's rotation lock to lock, degrees (900 for most wheels). The wheel's
   * angle then maps 1:1 onto the car's steering-wheel angle (its [steering] lock), clamped at the
   * car's lock. 0 = the axis's full deflection is the car's full lock (gamepads). */
  double range_deg;
} grip_input_axis;

/* Throttle, brake, clutch, handbrake: an axis, buttons, or both (the larger wins). */
typedef struct grip_input_pedal {
  grip_input_axis axis;
  grip_input_buttons buttons;
  double rise_rate; /* 1/s, how fast a held button presses the pedal fully; 0 = at once */
  double fall_rate; /* 1/s, how fast it is released; 0 = at once */
} grip_input_pedal;

typedef struct grip_input_steer {
  grip_input_axis axis;
  grip_input_buttons left, right;
  /* Digital steering: towards full lock at rate/(1 + v/rate_speed) per s (v the car's speed,
   * m/s), back to the centre at centre_rate per s when no button is held. */
  double rate;        /* 1/s at standstill; 2.5 */
  double rate_speed;  /* m/s at which the rate is halved; 0 = constant; 30 */
  double centre_rate; /* 1/s; 4 */
} grip_input_steer;

typedef struct grip_input_config {
  char path[256];          /* file it was read from (messages) */
  char joystick_match[64]; /* [device] joystick: substring of the joystick's name, "" = the first
                              joystick that is not a gamepad */
  grip_input_steer steer;
  grip_input_pedal throttle, brake, clutch, handbrake;
  bool combined_pedals;    /* [throttle] combined: the throttle axis is centred, brake below */
  grip_input_buttons gear_up, gear_down, automatic, reverse, gear[GRIP_MAX_GEARS];
  grip_input_buttons reset, camera, pause;
  /* Car systems on/off for the person's car (ABS, traction control, stability control). */
  grip_input_buttons abs_toggle, tc_toggle, esc_toggle;
  /* Force feedback (a wheel with SDL_Haptic), rumble fallback on gamepads. */
  double ffb_gain;       /* 0..2, multiplies the force; 1 */
  double ffb_max_torque; /* N·m at the car's steering wheel that gives the device's full force; 15 */
  double ffb_min_force;  /* 0..0.5, smallest force sent for any non-zero torque (overcomes the
                            device's own friction); 0 */
  bool ffb_enabled;      /* true */
  bool ffb_invert;       /* reverse the force (a device whose driver pushes the other way); false */
  bool rumble;           /* gamepad rumble from tyre slip and kerbs; true */
} grip_input_config;

/* The built-in configuration: the keyboard (arrows/WASD…) and a standard gamepad together
 * (data/input/default.ini, embedded). */
void grip_input_config_default(grip_input_config *cfg);

/* An empty configuration with every setting at its default and nothing bound. */
void grip_input_config_empty(grip_input_config *cfg);

/* Parses an input configuration from text (name is used in messages). Returns 0 with *out
 * filled, or -1 with "name:line: key: what is wrong (allowed …)" in err and *out untouched. */
int grip_input_config_parse(const char *text, const char *name, grip_input_config *out, grip_load_error *err);

/* Reads and parses a file. */
int grip_input_config_load(const char *path, grip_input_config *out, grip_load_error *err);

/* SDL GameController names of the gamepad axes (6) and buttons (21), in SDL's enum order. */
extern const char *const grip_input_pad_axis_names[6];
extern const char *const grip_input_pad_button_names[21];

/* "key:Up", "joy:axis2", … of a source into text (size n). */
void grip_input_source_text(const grip_input_source *src, char *text, int n);

#endif
