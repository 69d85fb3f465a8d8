/* Input configuration files and the car controller (issue 12), without any device: the shipped
 * files load, bad files give file:line errors and change nothing, and the controller's ramps,
 * speed-dependent steering rate, centring, axis shaping, wheel range, pedals, gears and buttons
 * give the figures worked out here from their definitions (docs/input.md). */
#include <string.h>

#include "input_config.h"
#include "input_controller.h"
#include "test.h"

#define PI 3.14159265358979323846

/* --- a fake device: values by source ------------------------------------------------------- */

typedef struct fake {
  double joy_axis[8], pad_axis[6];
  bool joy_button[32], pad_button[21];
  char keys[8][32]; /* names of the keys held */
} fake;

static double fake_read(void *context, const grip_input_source *s) {
  const fake *f = context;
  switch (s->kind) {
  case GRIP_INPUT_JOY_AXIS: return s->index < 8 ? f->joy_axis[s->index] : 0.0;
  case GRIP_INPUT_PAD_AXIS: return f->pad_axis[s->index];
  case GRIP_INPUT_JOY_BUTTON: return s->index < 32 && f->joy_button[s->index] ? 1.0 : 0.0;
  case GRIP_INPUT_PAD_BUTTON: return f->pad_button[s->index] ? 1.0 : 0.0;
  case GRIP_INPUT_KEY:
    for (int i = 0; i < 8; ++i)
      if (!strcmp(f->keys[i], s->key)) return 1.0;
    return 0.0;
  default: return 0.0;
  }
}

static void hold_key(fake *f, const char *key, bool down) {
  for (int i = 0; i < 8; ++i) {
    if (down && !f->keys[i][0]) {
      snprintf(f->keys[i], sizeof f->keys[i], "%s", key);
      return;
    }
    if (!down && !strcmp(f->keys[i], key)) f->keys[i][0] = '\0';
  }
}

static grip_input_config parse_ok(const char *text) {
  grip_input_config cfg;
  grip_load_error err;
  int rc = grip_input_config_parse(text, "t.ini", &cfg, &err);
  CHECK(rc == 0);
  if (rc) fprintf(stderr, "  %s\n", err.message);
  return cfg;
}

static input_car_info car_at(double speed) {
  return (input_car_info){.speed = speed, .lock_rad = 8.17, .forward_gears = 6, .gear = 1};
}

/* --- files ---------------------------------------------------------------------------------- */

static void shipped_files_load(void) {
  const char *files[] = {"default.ini", "keyboard.ini", "gamepad.ini", "wheel.ini"};
  for (int i = 0; i < 4; ++i) {
    char path[512];
    snprintf(path, sizeof path, "%s/data/input/%s", GRIP_SOURCE_DIR, files[i]);
    grip_input_config cfg;
    grip_load_error err;
    int rc = grip_input_config_load(path, &cfg, &err);
    CHECK(rc == 0);
    if (rc) fprintf(stderr, "  %s\n", err.message);
  }
  /* The built-in configuration is data/input/default.ini. */
  grip_input_config builtin, file;
  grip_input_config_default(&builtin);
  char path[512];
  snprintf(path, sizeof path, "%s/data/input/default.ini", GRIP_SOURCE_DIR);
  CHECK(grip_input_config_load(path, &file, NULL) == 0);
  CHECK(builtin.steer.axis.source.kind == GRIP_INPUT_PAD_AXIS && builtin.steer.axis.source.index == 0);
  CHECK(builtin.steer.left.count == file.steer.left.count && builtin.steer.left.count == 2);
  CHECK(!strcmp(builtin.steer.left.source[0].key, "Left"));
  CHECK_NEAR(builtin.steer.axis.curve, file.steer.axis.curve, 0.0);
  /* The wheel file: 900 degrees, pedals reversed, six gates and reverse. */
  snprintf(path, sizeof path, "%s/data/input/wheel.ini", GRIP_SOURCE_DIR);
  CHECK(grip_input_config_load(path, &file, NULL) == 0);
  CHECK_NEAR(file.steer.axis.range_deg, 900.0, 0.0);
  CHECK_NEAR(file.throttle.axis.released, 32767.0, 0.0);
  CHECK_NEAR(file.throttle.axis.pressed, -32768.0, 0.0);
  CHECK(file.gear[5].count == 1 && file.gear[5].source[0].kind == GRIP_INPUT_JOY_BUTTON && file.gear[5].source[0].index == 17);
  CHECK(file.reverse.count == 1 && file.reverse.source[0].index == 11);
}

/* Bad files: the error names the file, the line and the key, and the output is untouched. */
static void bad_files_give_line_errors(void) {
  struct {
    const char *text;
    int line;
    const char *what;
  } cases[] = {
      {"[steer]\naxis = joy:axis0\n[wheel]\n", 3, "[wheel]: unknown section"},
      {"[steer]\nspeed = 3\n", 2, "speed: unknown key in [steer]"},
      {"[steer]\ndeadzone = 0.95\n", 2, "deadzone: 0.95 is out of range (allowed 0 .. 0.9)"},
      {"[steer]\ncurve = fast\n", 2, "curve: 'fast' is not a number"},
      {"[steer]\n\naxis = pad:a\n", 3, "axis: 'pad:a' is a gamepad button"},
      {"[throttle]\naxis = key:Up\n", 2, "a key is not an axis"},
      {"[throttle]\nbuttons = joy:axis2\n", 2, "is an axis, a button is needed"},
      {"[steer]\naxis = joy:axisX\n", 2, "expected joy:axisN"},
      {"[steer]\naxis = joy:axis256\n", 2, "expected joy:axisN"},
      {"[gears]\nup = joy:hat0.north\n", 2, "hat direction"},
      {"[gears]\nup = key:A, key:B, key:C, key:D, key:E, key:F, key:G\n", 2, "more than 6 sources"},
      {"[gears]\n17 = joy:button1\n", 2, "unknown key in [gears]"},
      {"[brake]\naxis = joy:axis1\nreleased = 100\npressed = 100\n", 2, "equals released"},
      {"axis = joy:axis0\n", 1, "key outside any [section]"},
      {"[steer]\n[steer]\n", 2, "[steer] given twice"},
      {"[buttons]\nreset = mouse:1\n", 2, "unknown source"},
      {"[steer]\naxis = joy:axis0, joy:axis1\n", 2, "one axis only"},
      {"[force_feedback]\ngain = 3\n", 2, "gain: 3 is out of range (allowed 0 .. 2)"},
      {"[throttle]\ncombined = yes\n", 0, "combined: needs an axis in [throttle]"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    grip_input_config cfg, before;
    memset(&cfg, 0x5a, sizeof cfg);
    before = cfg;
    grip_load_error err;
    int rc = grip_input_config_parse(cases[i].text, "bad.ini", &cfg, &err);
    CHECK(rc == -1);
    CHECK(err.line == cases[i].line);
    char where[32];
    snprintf(where, sizeof where, cases[i].line ? "bad.ini:%d: " : "bad.ini: ", cases[i].line);
    CHECK(strncmp(err.message, where, strlen(where)) == 0);
    CHECK(strstr(err.message, cases[i].what) != NULL);
    if (strncmp(err.message, where, strlen(where)) != 0 || !strstr(err.message, cases[i].what))
      fprintf(stderr, "  case %zu: '%s'\n", i, err.message);
    CHECK(memcmp(&cfg, &before, sizeof cfg) == 0);
  }
}

/* --- the controller ------------------------------------------------------------------------- */

/* Keys as pedals: throttle rises at 6/s and falls at 10/s; brake likewise at its rates. */
static void digital_pedal_ramps(void) {
  grip_input_config cfg = parse_ok("[throttle]\nbuttons = key:Up\nrise = 6\nfall = 10\n[brake]\nbuttons = key:Down\n");
  const double dts[] = {0.001, 0.01, 1.0 / 60.0};
  for (int d = 0; d < 3; ++d) {
    double dt = dts[d];
    input_controller c;
    input_controller_init(&c, &cfg, true);
    fake f;
    memset(&f, 0, sizeof f);
    input_car_info car = car_at(0.0);
    hold_key(&f, "Up", true);
    grip_vehicle_input in = grip_default_vehicle_input();
    double t = 0.0;
    for (int i = 0; i < (int)(0.1 / dt + 0.5); ++i, t += dt) in = input_controller_update(&c, fake_read, &f, &car, dt, NULL);
    CHECK_NEAR(in.throttle, fmin(1.0, 6.0 * t), 1e-9);
    for (int i = 0; i < (int)(0.2 / dt + 0.5); ++i) in = input_controller_update(&c, fake_read, &f, &car, dt, NULL);
    CHECK_NEAR(in.throttle, 1.0, 1e-12);
    hold_key(&f, "Up", false);
    t = 0.0;
    for (int i = 0; i < (int)(0.05 / dt + 0.5); ++i, t += dt) in = input_controller_update(&c, fake_read, &f, &car, dt, NULL);
    CHECK_NEAR(in.throttle, fmax(0.0, 1.0 - 10.0 * t), 1e-9);
    /* The brake has no rates: all or nothing. */
    hold_key(&f, "Down", true);
    in = input_controller_update(&c, fake_read, &f, &car, dt, NULL);
    CHECK_NEAR(in.brake, 1.0, 0.0);
  }
}

/* Keys as a steering wheel: towards full lock at rate/(1 + v/rate_speed), back at centre_rate,
 * across the centre at the faster of the two. */
static void digital_steering_rate_and_centring(void) {
  grip_input_config cfg = parse_ok("[steer]\nleft = key:Left\nright = key:Right\nrate = 2.5\nrate_speed = 30\ncentre_rate = 4\n");
  const double speeds[] = {0.0, 15.0, 30.0, 60.0};
  const double dt = 0.005;
  for (int k = 0; k < 4; ++k) {
    input_controller c;
    input_controller_init(&c, &cfg, true);
    fake f;
    memset(&f, 0, sizeof f);
    input_car_info car = car_at(speeds[k]);
    double rate = 2.5 / (1.0 + speeds[k] / 30.0);
    hold_key(&f, "Left", true);
    grip_vehicle_input in = grip_default_vehicle_input();
    for (int i = 0; i < 20; ++i) in = input_controller_update(&c, fake_read, &f, &car, dt, NULL);
    CHECK_NEAR(in.steering, rate * 0.1, 1e-9);
    for (int i = 0; i < 400; ++i) in = input_controller_update(&c, fake_read, &f, &car, dt, NULL);
    CHECK_NEAR(in.steering, 1.0, 0.0);
    hold_key(&f, "Left", false);
    for (int i = 0; i < 20; ++i) in = input_controller_update(&c, fake_read, &f, &car, dt, NULL);
    CHECK_NEAR(in.steering, 1.0 - 4.0 * 0.1, 1e-9); /* centring ignores speed */
    hold_key(&f, "Right", true);
    for (int i = 0; i < 20; ++i) in = input_controller_update(&c, fake_read, &f, &car, dt, NULL);
    CHECK_NEAR(in.steering, 0.6 - fmax(rate, 4.0) * 0.1, 1e-9);
  }
}

/* Analogue axes: deadzone, curve, inversion on a centred axis; a pedal from its released to its
 * pressed value; a wheel's 900 degrees onto the car's lock, 1:1. */
static void analogue_axes(void) {
  grip_input_axis centred = {.deadzone = 0.1, .curve = 2.0, .invert = true};
  const double raws[] = {-32768, -20000, -3000, 0, 3276, 10000, 32767};
  for (int i = 0; i < 7; ++i) {
    double x = fmax(-1.0, raws[i] / 32767.0);
    x = -x; /* inverted */
    double m = fabs(x) <= 0.1 ? 0.0 : pow((fabs(x) - 0.1) / 0.9, 2.0);
    CHECK_NEAR(input_centred_axis(&centred, raws[i]), x < 0 ? -m : m, 1e-12);
  }
  grip_input_axis pedal = {.deadzone = 0.05, .curve = 1.0, .released = 32767, .pressed = -32768};
  CHECK_NEAR(input_pedal_axis(&pedal, 32767), 0.0, 0.0);
  CHECK_NEAR(input_pedal_axis(&pedal, -32768), 1.0, 1e-12);
  CHECK_NEAR(input_pedal_axis(&pedal, 0), ((32767.0 / 65535.0) - 0.05) / 0.95, 1e-12);
  CHECK_NEAR(input_pedal_axis(&pedal, 30000), 0.0, 0.0); /* within the deadzone */
  /* The controller turns SDL's right-positive axis into grip's left-positive steering. */
  {
    grip_input_config cfg = parse_ok("[steer]\naxis = joy:axis0\n");
    input_controller c;
    input_controller_init(&c, &cfg, true);
    fake f;
    memset(&f, 0, sizeof f);
    input_car_info car = car_at(0.0);
    f.joy_axis[0] = 32767; /* full right */
    CHECK_NEAR(input_controller_update(&c, fake_read, &f, &car, 0.01, NULL).steering, -1.0, 0.0);
    cfg.steer.axis.invert = true;
    input_controller_init(&c, &cfg, true);
    CHECK_NEAR(input_controller_update(&c, fake_read, &f, &car, 0.01, NULL).steering, 1.0, 0.0);
  }
  /* 900 degrees lock to lock, the car 8.17 rad (468.1 degrees) each way: the device's angle is
   * the car's steering-wheel angle. */
  const double xs[] = {-1.0, -0.5, 0.1, 0.9, 1.0};
  for (int i = 0; i < 5; ++i) {
    double steer = input_steer_from_axis(xs[i], 900.0, 8.17);
    double device_deg = xs[i] * 450.0, car_deg = steer * 8.17 * 180.0 / PI;
    CHECK_NEAR(car_deg, device_deg, 1e-9);
  }
  /* A 1080-degree wheel on the same car clamps at the car's lock; range 0 maps directly. */
  CHECK_NEAR(input_steer_from_axis(1.0, 1080.0, 8.17), 1.0, 0.0);
  CHECK_NEAR(input_steer_from_axis(0.8, 1080.0, 8.17), 0.8 * 540.0 / (8.17 * 180.0 / PI), 1e-12);
  CHECK_NEAR(input_steer_from_axis(0.3, 0.0, 8.17), 0.3, 0.0);
}

/* One centred axis for both pedals: throttle above the centre, brake below. Separate pedal axes
 * and keys together: the larger wins. */
static void combined_and_separate_pedals(void) {
  grip_input_config cfg = parse_ok("[throttle]\naxis = pad:lefty\ncombined = yes\ninvert = yes\n");
  input_controller c;
  input_controller_init(&c, &cfg, true);
  fake f;
  memset(&f, 0, sizeof f);
  input_car_info car = car_at(0.0);
  f.pad_axis[1] = -32767; /* stick up = negative on SDL's y axis, inverted: throttle */
  grip_vehicle_input in = input_controller_update(&c, fake_read, &f, &car, 0.01, NULL);
  CHECK_NEAR(in.throttle, 1.0, 1e-12);
  CHECK_NEAR(in.brake, 0.0, 0.0);
  f.pad_axis[1] = 16384;
  in = input_controller_update(&c, fake_read, &f, &car, 0.01, NULL);
  CHECK_NEAR(in.throttle, 0.0, 0.0);
  CHECK_NEAR(in.brake, 16384.0 / 32767.0, 1e-12);

  cfg = parse_ok("[throttle]\naxis = pad:righttrigger\nbuttons = key:Up\n[clutch]\naxis = joy:axis3\ninvert = yes\n");
  input_controller_init(&c, &cfg, true);
  memset(&f, 0, sizeof f);
  f.pad_axis[5] = 8192; /* a trigger rests at 0 */
  f.joy_axis[3] = 32767; /* joystick pedal default ends: -32768 released .. 32767 pressed; inverted */
  in = input_controller_update(&c, fake_read, &f, &car, 0.01, NULL);
  CHECK_NEAR(in.throttle, 8192.0 / 32767.0, 1e-12);
  CHECK_NEAR(in.clutch, 0.0, 1e-12);
  hold_key(&f, "Up", true);
  in = input_controller_update(&c, fake_read, &f, &car, 0.01, NULL);
  CHECK_NEAR(in.throttle, 1.0, 0.0);
}

/* Gears: sequential in manual within reverse..top; the automatic toggle once per press (the
 * manual gear taken from the car's); direction in automatic; an H-shifter's gates; the buttons'
 * edges. */
static void gears_and_buttons(void) {
  grip_input_config cfg = parse_ok("[gears]\nup = joy:button4\ndown = joy:button5\nautomatic = joy:button7\n"
                                   "1 = joy:button12\n2 = joy:button13\n3 = joy:button14\nreverse = joy:button11\n"
                                   "[buttons]\nreset = joy:button2\ncamera = pad:x\npause = key:P\n"
                                   "abs = key:1, joy:button8\ntc = key:2\nesc = key:3, pad:dpright\n");
  input_controller c;
  input_controller_init(&c, &cfg, true);
  fake f;
  memset(&f, 0, sizeof f);
  input_car_info car = car_at(10.0);
  car.gear = 4;
  input_actions act;
  grip_vehicle_input in = input_controller_update(&c, fake_read, &f, &car, 0.01, &act);
  CHECK(in.automatic && in.gear == 1);
  /* Toggle, held for 30 frames: once. */
  f.joy_button[7] = true;
  int toggles = 0;
  for (int i = 0; i < 30; ++i) {
    in = input_controller_update(&c, fake_read, &f, &car, 0.01, &act);
    toggles += act.automatic_toggled;
  }
  f.joy_button[7] = false;
  in = input_controller_update(&c, fake_read, &f, &car, 0.01, &act);
  CHECK(toggles == 1);
  CHECK(!in.automatic && in.gear == 4); /* manual, in the car's gear */
  /* Paddles: up twice to 6, then up again stays at the top gear (6). */
  for (int k = 0; k < 3; ++k) {
    f.joy_button[4] = true;
    in = input_controller_update(&c, fake_read, &f, &car, 0.01, &act);
    f.joy_button[4] = false;
    in = input_controller_update(&c, fake_read, &f, &car, 0.01, &act);
  }
  CHECK(in.gear == 6);
  /* H-shifter: gate 3 held, then released to neutral, then reverse. */
  f.joy_button[14] = true;
  in = input_controller_update(&c, fake_read, &f, &car, 0.01, &act);
  CHECK(in.gear == 3);
  f.joy_button[14] = false;
  in = input_controller_update(&c, fake_read, &f, &car, 0.01, &act);
  CHECK(in.gear == GRIP_GEAR_NEUTRAL);
  f.joy_button[11] = true;
  in = input_controller_update(&c, fake_read, &f, &car, 0.01, &act);
  CHECK(in.gear == GRIP_GEAR_REVERSE);
  f.joy_button[11] = false;
  in = input_controller_update(&c, fake_read, &f, &car, 0.01, &act);
  /* Down from neutral goes to reverse and no further. */
  for (int k = 0; k < 3; ++k) {
    f.joy_button[5] = true;
    in = input_controller_update(&c, fake_read, &f, &car, 0.01, &act);
    f.joy_button[5] = false;
    in = input_controller_update(&c, fake_read, &f, &car, 0.01, &act);
  }
  CHECK(in.gear == GRIP_GEAR_REVERSE);
  /* Back to automatic: drive/neutral/reverse by the paddles, clamped. */
  f.joy_button[7] = true;
  car.gear = 2;
  in = input_controller_update(&c, fake_read, &f, &car, 0.01, &act);
  f.joy_button[7] = false;
  CHECK(in.automatic && in.gear == 1);
  f.joy_button[5] = true;
  in = input_controller_update(&c, fake_read, &f, &car, 0.01, &act);
  CHECK(in.gear == 0);
  /* Buttons: one action per press, from any device. */
  int resets = 0, cameras = 0, pauses = 0;
  for (int i = 0; i < 40; ++i) {
    f.joy_button[2] = i < 10;
    f.pad_button[2] = i >= 5 && i < 8; /* pad:x = SDL button 2 */
    hold_key(&f, "P", i == 20);
    input_controller_update(&c, fake_read, &f, &car, 0.01, &act);
    resets += act.reset, cameras += act.camera, pauses += act.pause;
  }
  CHECK(resets == 1 && cameras == 1 && pauses == 1);
  /* Car systems: one toggle per press of each system's key or button, none from the others;
   * held keys do not repeat; the vehicle input's switches stay as defined (the session applies
   * the toggles). */
  int abs_presses = 0, tc_presses = 0, esc_presses = 0;
  for (int i = 0; i < 60; ++i) {
    hold_key(&f, "1", i >= 2 && i < 12);
    f.joy_button[8] = i >= 30 && i < 33;
    hold_key(&f, "2", i == 40);
    hold_key(&f, "3", i >= 45 && i < 50);
    f.pad_button[14] = i == 55; /* pad:dpright = SDL button 14 */
    in = input_controller_update(&c, fake_read, &f, &car, 0.01, &act);
    abs_presses += act.toggle_abs, tc_presses += act.toggle_tc, esc_presses += act.toggle_esc;
    CHECK(in.abs_switch == GRIP_SYSTEM_AS_DEFINED && in.esc_switch == GRIP_SYSTEM_AS_DEFINED);
  }
  CHECK(abs_presses == 2 && tc_presses == 1 && esc_presses == 2);
  CHECK(resets == 1); /* unchanged: no other action fired */
}

int main(void) {
  RUN_TEST(shipped_files_load);
  RUN_TEST(bad_files_give_line_errors);
  RUN_TEST(digital_pedal_ramps);
  RUN_TEST(digital_steering_rate_and_centring);
  RUN_TEST(analogue_axes);
  RUN_TEST(combined_and_separate_pedals);
  RUN_TEST(gears_and_buttons);
  return TEST_RESULT();
}
