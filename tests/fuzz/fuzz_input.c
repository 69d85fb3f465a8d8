/* Fuzz harness: input configuration files (INI), parsed from memory. */
#include "fuzz_common.h"

#include <math.h>

#include "input_config.h"

static void require_axis(const grip_input_axis *a) {
  FUZZ_REQUIRE(a->deadzone >= 0.0 && a->deadzone <= 0.9);
  FUZZ_REQUIRE(a->curve >= 0.2 && a->curve <= 5.0);
  FUZZ_REQUIRE(isfinite(a->released) && isfinite(a->pressed) && isfinite(a->range_deg));
  FUZZ_REQUIRE(a->source.kind == GRIP_INPUT_NONE || a->source.kind == GRIP_INPUT_PAD_AXIS ||
               a->source.kind == GRIP_INPUT_JOY_AXIS);
  if (a->source.kind == GRIP_INPUT_PAD_AXIS) FUZZ_REQUIRE(a->source.index >= 0 && a->source.index < 6);
}

static void require_buttons(const grip_input_buttons *b) {
  FUZZ_REQUIRE(b->count >= 0 && b->count <= GRIP_INPUT_MAX_SOURCES);
  for (int i = 0; i < b->count; ++i) {
    const grip_input_source *s = &b->source[i];
    FUZZ_REQUIRE(s->kind == GRIP_INPUT_KEY || s->kind == GRIP_INPUT_PAD_BUTTON || s->kind == GRIP_INPUT_JOY_BUTTON ||
                 s->kind == GRIP_INPUT_JOY_HAT);
    if (s->kind == GRIP_INPUT_KEY) FUZZ_REQUIRE(s->key[0] && memchr(s->key, 0, sizeof s->key));
    if (s->kind == GRIP_INPUT_PAD_BUTTON) FUZZ_REQUIRE(s->index >= 0 && s->index < 21);
    char text[64];
    grip_input_source_text(s, text, sizeof text);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  grip_input_config *cfg = malloc(sizeof *cfg);
  FUZZ_REQUIRE(cfg != NULL);
  grip_load_error err;
  grip_load_error_clear(&err);
  if (grip_input_config_parse(text, "fuzz.ini", cfg, &err) == 0) {
    require_axis(&cfg->steer.axis);
    const grip_input_pedal *pedals[4] = {&cfg->throttle, &cfg->brake, &cfg->clutch, &cfg->handbrake};
    for (int i = 0; i < 4; ++i) {
      require_axis(&pedals[i]->axis);
      require_buttons(&pedals[i]->buttons);
      FUZZ_REQUIRE(pedals[i]->rise_rate >= 0.0 && pedals[i]->fall_rate >= 0.0);
    }
    const grip_input_buttons *lists[] = {&cfg->steer.left, &cfg->steer.right, &cfg->gear_up, &cfg->gear_down,
                                         &cfg->automatic, &cfg->reverse, &cfg->reset, &cfg->camera, &cfg->pause,
                                         &cfg->abs_toggle, &cfg->tc_toggle, &cfg->esc_toggle};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; ++i) require_buttons(lists[i]);
    for (int g = 0; g < GRIP_MAX_GEARS; ++g) require_buttons(&cfg->gear[g]);
    FUZZ_REQUIRE(cfg->steer.rate > 0.0 && cfg->steer.centre_rate > 0.0);
    FUZZ_REQUIRE(cfg->ffb_gain >= 0.0 && cfg->ffb_gain <= 2.0 && cfg->ffb_max_torque > 0.0);
    FUZZ_REQUIRE(memchr(cfg->joystick_match, 0, sizeof cfg->joystick_match) != NULL);
  } else {
    FUZZ_REQUIRE(err.message[0] != '\0');
  }
  free(cfg);
  free(text);
  return 0;
}
