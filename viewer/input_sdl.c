/* Input devices through SDL2: see input_sdl.h. */
#include "input_sdl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HAPTIC_PERIOD_MS 5 /* 200 Hz */

struct input_devices {
  grip_input_config cfg;
  SDL_Scancode keys[64]; /* resolved scancodes, in the order key sources are met */
  SDL_GameController *pad;
  SDL_Joystick *joy;
  SDL_Haptic *haptic;
  int haptic_effect;     /* -1 = none */
  SDL_Thread *haptic_thread;
  SDL_atomic_t running;
  SDL_atomic_t level;    /* force level × 32767, written by the main thread, read by the haptic one */
  char pad_name[128], joy_name[128];
};

/* Every key source of the configuration, in a fixed order, resolved once. */
static int resolve_list(input_devices *d, grip_input_buttons *b, int *next, grip_load_error *err) {
  for (int i = 0; i < b->count; ++i) {
    grip_input_source *s = &b->source[i];
    if (s->kind != GRIP_INPUT_KEY) continue;
    SDL_Scancode code = SDL_GetScancodeFromName(s->key);
    if (code == SDL_SCANCODE_UNKNOWN) {
      grip_load_error_set(err, d->cfg.path, s->line, NULL,
                          "key:%s: not a key name SDL knows (e.g. Up, A, Space, Left Shift, PageUp, Return)", s->key);
      return -1;
    }
    if (*next >= (int)(sizeof d->keys / sizeof d->keys[0])) {
      grip_load_error_set(err, d->cfg.path, s->line, NULL, "more than 64 keys bound");
      return -1;
    }
    d->keys[*next] = code;
    s->index = (*next)++; /* the key's slot in keys[] */
  }
  return 0;
}

static void each_list(grip_input_config *c, grip_input_buttons **lists, int *n) {
  int k = 0;
  lists[k++] = &c->steer.left, lists[k++] = &c->steer.right;
  lists[k++] = &c->throttle.buttons, lists[k++] = &c->brake.buttons;
  lists[k++] = &c->clutch.buttons, lists[k++] = &c->handbrake.buttons;
  lists[k++] = &c->gear_up, lists[k++] = &c->gear_down, lists[k++] = &c->automatic, lists[k++] = &c->reverse;
  for (int g = 0; g < GRIP_MAX_GEARS; ++g) lists[k++] = &c->gear[g];
  lists[k++] = &c->reset, lists[k++] = &c->camera, lists[k++] = &c->pause;
  lists[k++] = &c->abs_toggle, lists[k++] = &c->tc_toggle, lists[k++] = &c->esc_toggle;
  *n = k;
}

/* The haptic thread: every 5 ms the force follows the latest level (renewed once per frame)
 * through a first-order lag of 10 ms, so the wheel gets a smooth 200 Hz stream instead of a step
 * per frame. */
static int haptic_main(void *context) {
  input_devices *d = context;
  int sent = 0x7fffffff;
  double current = 0.0;
  const double follow = 1.0 - exp(-(double)HAPTIC_PERIOD_MS / 10.0);
  while (SDL_AtomicGet(&d->running)) {
    current += (SDL_AtomicGet(&d->level) - current) * follow;
    int level = (int)lround(current);
    if (level != sent && d->haptic_effect >= 0) {
      SDL_HapticEffect effect;
      memset(&effect, 0, sizeof effect);
      effect.type = SDL_HAPTIC_CONSTANT;
      effect.constant.direction.type = SDL_HAPTIC_CARTESIAN;
      effect.constant.direction.dir[0] = 1; /* along the wheel's axis: + level turns it left */
      effect.constant.length = SDL_HAPTIC_INFINITY;
      effect.constant.level = (Sint16)level;
      SDL_HapticUpdateEffect(d->haptic, d->haptic_effect, &effect);
      sent = level;
    }
    SDL_Delay(HAPTIC_PERIOD_MS);
  }
  return 0;
}

static void close_haptic(input_devices *d) {
  if (d->haptic_thread) {
    SDL_AtomicSet(&d->running, 0);
    SDL_WaitThread(d->haptic_thread, NULL);
    d->haptic_thread = NULL;
  }
  if (d->haptic) {
    if (d->haptic_effect >= 0) SDL_HapticDestroyEffect(d->haptic, d->haptic_effect);
    SDL_HapticClose(d->haptic);
  }
  d->haptic = NULL;
  d->haptic_effect = -1;
}

static void open_haptic(input_devices *d) {
  if (!d->joy || !d->cfg.ffb_enabled || !SDL_JoystickIsHaptic(d->joy)) return;
  d->haptic = SDL_HapticOpenFromJoystick(d->joy);
  if (!d->haptic) return;
  if (!(SDL_HapticQuery(d->haptic) & SDL_HAPTIC_CONSTANT)) {
    fprintf(stderr, "grip: %s: no constant-force effect, force feedback off\n", d->joy_name);
    close_haptic(d);
    return;
  }
  if (SDL_HapticQuery(d->haptic) & SDL_HAPTIC_AUTOCENTER) SDL_HapticSetAutocenter(d->haptic, 0);
  if (SDL_HapticQuery(d->haptic) & SDL_HAPTIC_GAIN) SDL_HapticSetGain(d->haptic, 100);
  SDL_HapticEffect effect;
  memset(&effect, 0, sizeof effect);
  effect.type = SDL_HAPTIC_CONSTANT;
  effect.constant.direction.type = SDL_HAPTIC_CARTESIAN;
  effect.constant.direction.dir[0] = 1;
  effect.constant.length = SDL_HAPTIC_INFINITY;
  d->haptic_effect = SDL_HapticNewEffect(d->haptic, &effect);
  if (d->haptic_effect < 0 || SDL_HapticRunEffect(d->haptic, d->haptic_effect, 1) != 0) {
    close_haptic(d);
    return;
  }
  SDL_AtomicSet(&d->running, 1);
  SDL_AtomicSet(&d->level, 0);
  d->haptic_thread = SDL_CreateThread(haptic_main, "grip-haptic", d);
}

static bool name_matches(const char *name, const char *match) {
  return !match[0] || (name && strstr(name, match) != NULL);
}

/* Opens what is missing among the connected devices. */
static void open_devices(input_devices *d) {
  int n = SDL_NumJoysticks();
  for (int i = 0; i < n; ++i) {
    if (SDL_IsGameController(i)) {
      if (!d->pad && (d->pad = SDL_GameControllerOpen(i)))
        snprintf(d->pad_name, sizeof d->pad_name, "%s", SDL_GameControllerName(d->pad) ? SDL_GameControllerName(d->pad) : "gamepad");
      /* A named joystick may be a gamepad too (SDL knows mappings for some wheels). */
      if (!d->cfg.joystick_match[0]) continue;
    }
    if (d->joy) continue;
    const char *name = SDL_JoystickNameForIndex(i);
    if (!name_matches(name, d->cfg.joystick_match)) continue;
    if ((d->joy = SDL_JoystickOpen(i))) {
      snprintf(d->joy_name, sizeof d->joy_name, "%s", name ? name : "joystick");
      open_haptic(d);
    }
  }
  /* No joystick but a gamepad: a wheel SDL has a gamepad mapping for is still read by its raw
   * axes and buttons (joy: sources). */
  for (int i = 0; i < n && !d->joy; ++i) {
    if (!SDL_IsGameController(i)) continue;
    const char *name = SDL_JoystickNameForIndex(i);
    if ((d->joy = SDL_JoystickOpen(i))) {
      snprintf(d->joy_name, sizeof d->joy_name, "%s", name ? name : "joystick");
      open_haptic(d);
    }
  }
}

input_devices *input_devices_open(const grip_input_config *cfg, grip_load_error *err) {
  grip_load_error_clear(err);
  input_devices *d = calloc(1, sizeof *d);
  if (!d) {
    grip_load_error_set(err, "input", 0, NULL, "out of memory");
    return NULL;
  }
  d->cfg = *cfg;
  d->haptic_effect = -1;
  grip_input_buttons *lists[32];
  int count, next = 0;
  each_list(&d->cfg, lists, &count);
  for (int i = 0; i < count; ++i)
    if (resolve_list(d, lists[i], &next, err) != 0) {
      free(d);
      return NULL;
    }
  SDL_SetHint(SDL_HINT_JOYSTICK_ALLOW_BACKGROUND_EVENTS, "1");
  if (SDL_InitSubSystem(SDL_INIT_JOYSTICK | SDL_INIT_GAMECONTROLLER) != 0) {
    grip_load_error_set(err, "input", 0, NULL, "SDL joystick subsystem: %s", SDL_GetError());
    free(d);
    return NULL;
  }
  /* Haptics are optional: without them the wheel simply has no force feedback. */
  SDL_InitSubSystem(SDL_INIT_HAPTIC);
  open_devices(d);
  return d;
}

void input_devices_close(input_devices *d) {
  if (!d) return;
  close_haptic(d);
  if (d->pad) {
    SDL_GameControllerRumble(d->pad, 0, 0, 0);
    SDL_GameControllerClose(d->pad);
  }
  if (d->joy) SDL_JoystickClose(d->joy);
  if (SDL_WasInit(SDL_INIT_HAPTIC)) SDL_QuitSubSystem(SDL_INIT_HAPTIC);
  SDL_QuitSubSystem(SDL_INIT_JOYSTICK | SDL_INIT_GAMECONTROLLER);
  free(d);
}

void input_devices_event(input_devices *d, const SDL_Event *e) {
  if (!d) return;
  if (e->type == SDL_JOYDEVICEADDED || e->type == SDL_CONTROLLERDEVICEADDED) {
    open_devices(d);
  } else if (e->type == SDL_JOYDEVICEREMOVED) {
    if (d->joy && SDL_JoystickInstanceID(d->joy) == e->jdevice.which) {
      close_haptic(d);
      SDL_JoystickClose(d->joy);
      d->joy = NULL;
      d->joy_name[0] = '\0';
    }
  } else if (e->type == SDL_CONTROLLERDEVICEREMOVED) {
    if (d->pad && SDL_JoystickInstanceID(SDL_GameControllerGetJoystick(d->pad)) == e->cdevice.which) {
      SDL_GameControllerClose(d->pad);
      d->pad = NULL;
      d->pad_name[0] = '\0';
    }
  }
}

double input_devices_read(void *context, const grip_input_source *s) {
  input_devices *d = context;
  switch (s->kind) {
  case GRIP_INPUT_NONE: return 0.0;
  case GRIP_INPUT_KEY: {
    int n = 0;
    const Uint8 *keys = SDL_GetKeyboardState(&n);
    SDL_Scancode code = d->keys[s->index];
    return keys && (int)code < n && keys[code] ? 1.0 : 0.0;
  }
  case GRIP_INPUT_PAD_AXIS: return d->pad ? SDL_GameControllerGetAxis(d->pad, (SDL_GameControllerAxis)s->index) : 0.0;
  case GRIP_INPUT_PAD_BUTTON:
    return d->pad && SDL_GameControllerGetButton(d->pad, (SDL_GameControllerButton)s->index) ? 1.0 : 0.0;
  case GRIP_INPUT_JOY_AXIS: return d->joy && s->index < SDL_JoystickNumAxes(d->joy) ? SDL_JoystickGetAxis(d->joy, s->index) : 0.0;
  case GRIP_INPUT_JOY_BUTTON:
    return d->joy && s->index < SDL_JoystickNumButtons(d->joy) && SDL_JoystickGetButton(d->joy, s->index) ? 1.0 : 0.0;
  case GRIP_INPUT_JOY_HAT:
    return d->joy && s->index < SDL_JoystickNumHats(d->joy) && (SDL_JoystickGetHat(d->joy, s->index) & s->direction) ? 1.0 : 0.0;
  }
  return 0.0;
}

const grip_input_config *input_devices_config(const input_devices *d) { return &d->cfg; }

const char *input_devices_gamepad_name(const input_devices *d) { return d ? d->pad_name : ""; }
const char *input_devices_joystick_name(const input_devices *d) { return d ? d->joy_name : ""; }
bool input_devices_has_haptic(const input_devices *d) { return d && d->haptic_effect >= 0; }

double input_ffb_level(const grip_input_config *cfg, double torque_nm) {
  if (!isfinite(torque_nm) || cfg->ffb_max_torque <= 0.0) return 0.0;
  double f = (cfg->ffb_invert ? -1.0 : 1.0) * cfg->ffb_gain * torque_nm / cfg->ffb_max_torque;
  if (f > 1.0) f = 1.0;
  if (f < -1.0) f = -1.0;
  if (fabs(f) < 0.001) return 0.0;
  if (fabs(f) < cfg->ffb_min_force) f = f > 0.0 ? cfg->ffb_min_force : -cfg->ffb_min_force;
  return f;
}

void input_devices_feedback(input_devices *d, double steering_torque_nm, double slip, double bump) {
  if (!d) return;
  if (d->haptic_effect >= 0) SDL_AtomicSet(&d->level, (int)lround(32767.0 * input_ffb_level(&d->cfg, steering_torque_nm)));
  if (d->pad && d->cfg.rumble) {
    double low = fmin(1.0, fmax(0.0, bump)), high = fmin(1.0, fmax(0.0, slip));
    /* Short bursts renewed every frame, so the rumble stops when the frames do. */
    SDL_GameControllerRumble(d->pad, (Uint16)(65535.0 * low), (Uint16)(65535.0 * high), 100);
  }
}
