/* grip input: the input devices SDL sees (docs/input.md).
 *   grip input list [--seconds S] [--json]   connected joysticks, gamepads and wheels with their
 *                                            axes, buttons and hats, then S seconds of live
 *                                            changes (move an axis, press a button: its name)
 *   grip input check FILE                    load an input configuration, keys resolved */
#include <SDL.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "input_config.h"
#include "input_sdl.h"

#define MAX_LIST 16
#define MAX_CONTROLS 64

typedef struct live_device {
  SDL_Joystick *joy;
  Sint16 axis[MAX_CONTROLS];
  Uint8 button[MAX_CONTROLS];
  Uint8 hat[MAX_CONTROLS];
} live_device;

static int check(const char *path) {
  grip_input_config cfg;
  grip_load_error err;
  if (grip_input_config_load(path, &cfg, &err) != 0) {
    fprintf(stderr, "grip input: %s\n", err.message);
    return 1;
  }
  input_devices *d = input_devices_open(&cfg, &err);
  if (!d) {
    fprintf(stderr, "grip input: %s\n", err.message);
    return 1;
  }
  printf("%s: ok\n", path);
  printf("  gamepad:  %s\n", input_devices_gamepad_name(d)[0] ? input_devices_gamepad_name(d) : "(none connected)");
  printf("  joystick: %s%s\n", input_devices_joystick_name(d)[0] ? input_devices_joystick_name(d) : "(none connected)",
         input_devices_has_haptic(d) ? " (force feedback)" : "");
  input_devices_close(d);
  return 0;
}

int cmd_input(int argc, char **argv);
int cmd_input(int argc, char **argv) {
  double seconds = 10.0;
  bool json = false, virtual_wheel = false;
  const cli_option options[] = {
      {"--seconds", CLI_DOUBLE, &seconds, 0.0, 3600.0, "list: seconds of live changes after the list (default 10)"},
      {"--virtual-wheel", CLI_FLAG, &virtual_wheel, 0, 0, "list: attach SDL's virtual wheel (3 axes, 20 buttons, 1 hat) first (tests)"},
      CLI_OPTION_JSON(json),
  };
  const char *positional[2] = {NULL, NULL};
  int count = 0;
  int rc = cli_parse(argc, argv, options, CLI_COUNT(options), positional, 2, &count);
  if (rc) return rc == 1 ? 0 : rc;
  if (count >= 1 && !strcmp(positional[0], "check")) {
    if (count != 2) {
      fprintf(stderr, "grip input: check FILE\n");
      return CLI_USAGE_ERROR;
    }
    return check(positional[1]);
  }
  if (count != 1 || strcmp(positional[0], "list") != 0) {
    fprintf(stderr, "grip input: expected list or check FILE\n");
    return CLI_USAGE_ERROR;
  }
  SDL_SetHint(SDL_HINT_JOYSTICK_ALLOW_BACKGROUND_EVENTS, "1");
  if (SDL_Init(SDL_INIT_JOYSTICK | SDL_INIT_GAMECONTROLLER) != 0) {
    fprintf(stderr, "grip input: SDL: %s\n", SDL_GetError());
    return 1;
  }
  SDL_InitSubSystem(SDL_INIT_HAPTIC);
  if (virtual_wheel && SDL_JoystickAttachVirtual(SDL_JOYSTICK_TYPE_WHEEL, 3, 20, 1) < 0) {
    fprintf(stderr, "grip input: virtual wheel: %s\n", SDL_GetError());
    SDL_Quit();
    return 1;
  }
  int n = SDL_NumJoysticks();
  if (n > MAX_LIST) n = MAX_LIST;
  live_device live[MAX_LIST];
  memset(live, 0, sizeof live);
  json_writer w;
  if (json) {
    json_begin(&w, stdout);
    json_open(&w, "devices", '[');
  } else {
    printf("%d input device%s (joysticks, wheels, pedals, gamepads); keyboard keys are SDL's key names\n", n,
           n == 1 ? "" : "s");
  }
  for (int i = 0; i < n; ++i) {
    SDL_Joystick *j = live[i].joy = SDL_JoystickOpen(i);
    if (!j) continue;
    char guid[40];
    SDL_JoystickGetGUIDString(SDL_JoystickGetGUID(j), guid, sizeof guid);
    const char *name = SDL_JoystickName(j) ? SDL_JoystickName(j) : "?";
    bool pad = SDL_IsGameController(i);
    bool haptic = SDL_JoystickIsHaptic(j) == SDL_TRUE;
    int axes = SDL_JoystickNumAxes(j), buttons = SDL_JoystickNumButtons(j), hats = SDL_JoystickNumHats(j);
    for (int a = 0; a < axes && a < MAX_CONTROLS; ++a) live[i].axis[a] = SDL_JoystickGetAxis(j, a);
    for (int b = 0; b < buttons && b < MAX_CONTROLS; ++b) live[i].button[b] = SDL_JoystickGetButton(j, b);
    for (int h = 0; h < hats && h < MAX_CONTROLS; ++h) live[i].hat[h] = SDL_JoystickGetHat(j, h);
    if (json) {
      json_open(&w, NULL, '{');
      json_int(&w, "index", i);
      json_string(&w, "name", name);
      json_string(&w, "guid", guid);
      json_bool(&w, "gamepad", pad);
      json_bool(&w, "force_feedback", haptic);
      json_int(&w, "axes", axes);
      json_int(&w, "buttons", buttons);
      json_int(&w, "hats", hats);
      json_open(&w, "axis_values", '[');
      for (int a = 0; a < axes && a < MAX_CONTROLS; ++a) json_int(&w, NULL, live[i].axis[a]);
      json_close(&w, ']');
      json_close(&w, '}');
    } else {
      printf("  [%d] %s\n      %d axes (joy:axis0..%d), %d buttons (joy:button0..%d), %d hats%s%s\n      guid %s\n", i,
             name, axes, axes - 1, buttons, buttons - 1, hats, pad ? ", a standard gamepad (pad:NAME sources)" : "",
             haptic ? ", force feedback" : "", guid);
      for (int a = 0; a < axes && a < MAX_CONTROLS; ++a) printf("      joy:axis%d = %d\n", a, live[i].axis[a]);
    }
  }
  if (json) {
    json_close(&w, ']');
    json_end(&w);
  }
  if (!json && seconds > 0.0) {
    printf("live for %g s: move an axis or press a button to see its name (Ctrl-C ends)\n", seconds);
    fflush(stdout);
    Uint32 end = SDL_GetTicks() + (Uint32)(seconds * 1000.0);
    static const char *const dirs[9] = {"centre", "up", "right", "", "down", "", "", "", "left"};
    while (!SDL_TICKS_PASSED(SDL_GetTicks(), end)) {
      SDL_JoystickUpdate();
      for (int i = 0; i < n; ++i) {
        SDL_Joystick *j = live[i].joy;
        if (!j) continue;
        for (int a = 0; a < SDL_JoystickNumAxes(j) && a < MAX_CONTROLS; ++a) {
          Sint16 v = SDL_JoystickGetAxis(j, a);
          /* Report a move of an eighth of the range (not the noise of a resting axis). */
          if (abs(v - live[i].axis[a]) > 8192 || (v != live[i].axis[a] && (v == 32767 || v == -32768))) {
            printf("  [%d] joy:axis%d = %d\n", i, a, v);
            live[i].axis[a] = v;
          }
        }
        for (int b = 0; b < SDL_JoystickNumButtons(j) && b < MAX_CONTROLS; ++b) {
          Uint8 v = SDL_JoystickGetButton(j, b);
          if (v != live[i].button[b]) printf("  [%d] joy:button%d %s\n", i, b, v ? "pressed" : "released");
          live[i].button[b] = v;
        }
        for (int h = 0; h < SDL_JoystickNumHats(j) && h < MAX_CONTROLS; ++h) {
          Uint8 v = SDL_JoystickGetHat(j, h);
          if (v != live[i].hat[h])
            printf("  [%d] joy:hat%d %s\n", i, h, v <= 8 && dirs[v][0] ? dirs[v] : "diagonal");
          live[i].hat[h] = v;
        }
      }
      fflush(stdout);
      SDL_Delay(10);
    }
  }
  for (int i = 0; i < n; ++i)
    if (live[i].joy) SDL_JoystickClose(live[i].joy);
  SDL_Quit();
  return 0;
}
