/* Input through SDL (issue 12): SDL's virtual joystick stands in for a wheel with three axes
 * (wheel, throttle, brake) and buttons, and a virtual standard gamepad for a pad. Moving their
 * axes through SDL gives the steering, throttle and brake worked out here from the configured
 * deadzone, inversion, curve and range; the automatic-gearbox button toggles the mode. Needs
 * the viewer (SDL2); skipped without it. */
#include <string.h>

#include "test.h"

#ifndef GRIP_HAVE_VIEWER
int main(void) {
  (void)test_checks_;
  (void)test_failures_;
  TEST_SKIP("built without the viewer (SDL2)");
}
#else
#include <SDL.h>

#include "input_config.h"
#include "input_controller.h"
#include "input_drive.h"
#include "input_sdl.h"
#include "session.h"

#define PI 3.14159265358979323846

static const char wheel_config[] = "[device]\n"
                                   "joystick = grip virtual wheel\n"
                                   "[steer]\n"
                                   "axis = joy:axis0\n"
                                   "deadzone = 0.1\n"
                                   "curve = 2\n"
                                   "invert = yes\n"
                                   "range = 900\n"
                                   "[throttle]\n"
                                   "axis = joy:axis1\n"
                                   "released = 32767\n"
                                   "pressed = -32768\n"
                                   "deadzone = 0.05\n"
                                   "[brake]\n"
                                   "axis = joy:axis2\n"
                                   "released = 32767\n"
                                   "pressed = -32768\n"
                                   "curve = 1.5\n"
                                   "[gears]\n"
                                   "automatic = joy:button7\n"
                                   "up = joy:button4\n";

/* The same arithmetic as docs/input.md states it, written out here: SDL's axis grows to the
 * right, grip's steering to the left, and this file inverts the axis on top (a wheel reporting
 * left turns as positive). */
static double expected_steer(double raw, double lock_rad) {
  double x = raw < -32767 ? -1.0 : raw / 32767.0;
  x = -x; /* invert = yes */
  double m = fabs(x) <= 0.1 ? 0.0 : pow((fabs(x) - 0.1) / 0.9, 2.0);
  double shaped = x < 0 ? -m : m;
  double device = -shaped * 450.0 * PI / 180.0; /* rad to the left, of the device's 450 each way */
  double s = device / lock_rad;
  return s > 1.0 ? 1.0 : (s < -1.0 ? -1.0 : s);
}

static double expected_pedal(double raw, double deadzone, double curve) {
  double p = (raw - 32767.0) / (-32768.0 - 32767.0);
  if (p <= deadzone) return 0.0;
  return pow((p - deadzone) / (1.0 - deadzone), curve);
}

static SDL_Joystick *attach(SDL_JoystickType type, const char *name, int axes, int buttons) {
  SDL_VirtualJoystickDesc desc;
  SDL_zero(desc);
  desc.version = SDL_VIRTUAL_JOYSTICK_DESC_VERSION;
  desc.type = (Uint16)type;
  desc.naxes = (Uint16)axes;
  desc.nbuttons = (Uint16)buttons;
  desc.name = name;
  int index = SDL_JoystickAttachVirtualEx(&desc);
  CHECK(index >= 0);
  if (index < 0) {
    fprintf(stderr, "  %s\n", SDL_GetError());
    return NULL;
  }
  return SDL_JoystickOpen(index);
}

static void virtual_wheel(void) {
  CHECK(SDL_InitSubSystem(SDL_INIT_JOYSTICK | SDL_INIT_GAMECONTROLLER) == 0);
  SDL_Joystick *j = attach(SDL_JOYSTICK_TYPE_WHEEL, "grip virtual wheel", 3, 12);
  if (!j) return;
  grip_input_config cfg;
  grip_load_error err;
  CHECK(grip_input_config_parse(wheel_config, "wheel-test.ini", &cfg, &err) == 0);
  input_devices *d = input_devices_open(&cfg, &err);
  CHECK(d != NULL);
  if (!d) return;
  CHECK(strcmp(input_devices_joystick_name(d), "grip virtual wheel") == 0);
  input_controller c;
  input_controller_init(&c, input_devices_config(d), true);
  const double lock = 8.17;
  input_car_info car = {.speed = 20.0, .lock_rad = lock, .forward_gears = 6, .gear = 3};
  const Sint16 wheel[] = {-32768, -20000, -2000, 0, 3000, 16384, 32767};
  const Sint16 pedal[] = {32767, 31000, 16384, 0, -16384, -32768, -30000};
  for (int i = 0; i < 7; ++i) {
    SDL_JoystickSetVirtualAxis(j, 0, wheel[i]);
    SDL_JoystickSetVirtualAxis(j, 1, pedal[i]);
    SDL_JoystickSetVirtualAxis(j, 2, pedal[6 - i]);
    SDL_JoystickUpdate();
    grip_vehicle_input in = input_controller_update(&c, input_devices_read, d, &car, 0.01, NULL);
    CHECK_NEAR(in.steering, expected_steer(wheel[i], lock), 1e-9);
    CHECK_NEAR(in.throttle, expected_pedal(pedal[i], 0.05, 1.0), 1e-9);
    CHECK_NEAR(in.brake, expected_pedal(pedal[6 - i], 0.0, 1.5), 1e-9);
    printf("  wheel %6d -> steer %+.4f, throttle axis %6d -> %.4f, brake axis %6d -> %.4f\n", wheel[i], in.steering,
           pedal[i], in.throttle, pedal[6 - i], in.brake);
  }
  /* The automatic-gearbox button: each press toggles, holding does not repeat. */
  grip_vehicle_input in = input_controller_update(&c, input_devices_read, d, &car, 0.01, NULL);
  CHECK(in.automatic);
  for (int press = 0; press < 2; ++press) {
    SDL_JoystickSetVirtualButton(j, 7, SDL_PRESSED);
    SDL_JoystickUpdate();
    for (int k = 0; k < 5; ++k) in = input_controller_update(&c, input_devices_read, d, &car, 0.01, NULL);
    CHECK(in.automatic == (press == 1));
    if (press == 0) CHECK(in.gear == 3); /* manual, in the car's gear */
    SDL_JoystickSetVirtualButton(j, 7, SDL_RELEASED);
    SDL_JoystickUpdate();
    in = input_controller_update(&c, input_devices_read, d, &car, 0.01, NULL);
  }
  CHECK(in.automatic && in.gear == 1);
  input_devices_close(d);
  SDL_JoystickClose(j);
  SDL_QuitSubSystem(SDL_INIT_JOYSTICK | SDL_INIT_GAMECONTROLLER);
}

/* A virtual standard gamepad (SDL maps its axes and buttons in GameController order) with the
 * shipped gamepad file: left stick steers, right trigger throttles, Y toggles the gearbox. */
static void virtual_gamepad(void) {
  CHECK(SDL_InitSubSystem(SDL_INIT_JOYSTICK | SDL_INIT_GAMECONTROLLER) == 0);
  SDL_Joystick *j = attach(SDL_JOYSTICK_TYPE_GAMECONTROLLER, "grip virtual pad", SDL_CONTROLLER_AXIS_MAX,
                           SDL_CONTROLLER_BUTTON_MAX);
  if (!j) return;
  /* The names the loader knows are SDL's own. */
  for (int a = 0; a < SDL_CONTROLLER_AXIS_MAX; ++a)
    CHECK(strcmp(grip_input_pad_axis_names[a], SDL_GameControllerGetStringForAxis((SDL_GameControllerAxis)a)) == 0);
  for (int b = 0; b < SDL_CONTROLLER_BUTTON_MAX && b < 21; ++b)
    CHECK(strcmp(grip_input_pad_button_names[b], SDL_GameControllerGetStringForButton((SDL_GameControllerButton)b)) == 0);
  char path[512];
  snprintf(path, sizeof path, "%s/data/input/gamepad.ini", GRIP_SOURCE_DIR);
  grip_input_config cfg;
  grip_load_error err;
  CHECK(grip_input_config_load(path, &cfg, &err) == 0);
  input_devices *d = input_devices_open(&cfg, &err);
  CHECK(d != NULL);
  if (!d) return;
  CHECK(input_devices_gamepad_name(d)[0] != '\0');
  input_controller c;
  input_controller_init(&c, input_devices_config(d), true);
  input_car_info car = {.speed = 10.0, .lock_rad = 8.17, .forward_gears = 6, .gear = 2};
  SDL_JoystickSetVirtualAxis(j, SDL_CONTROLLER_AXIS_LEFTX, -16384);       /* left */
  SDL_JoystickSetVirtualAxis(j, SDL_CONTROLLER_AXIS_TRIGGERRIGHT, 32767); /* full */
  SDL_JoystickUpdate();
  grip_vehicle_input in = input_controller_update(&c, input_devices_read, d, &car, 0.01, NULL);
  /* Stick half left (SDL: negative), deadzone 0.08, curve 1.5, no inversion: steering to the
   * left (grip: positive). */
  double m = pow((16384.0 / 32767.0 - 0.08) / 0.92, 1.5);
  CHECK_NEAR(in.steering, m, 1e-9);
  CHECK_NEAR(in.throttle, 1.0, 1e-12);
  SDL_JoystickSetVirtualButton(j, SDL_CONTROLLER_BUTTON_Y, SDL_PRESSED);
  SDL_JoystickUpdate();
  in = input_controller_update(&c, input_devices_read, d, &car, 0.01, NULL);
  CHECK(!in.automatic && in.gear == 2);
  input_devices_close(d);
  SDL_JoystickClose(j);
  SDL_QuitSubSystem(SDL_INIT_JOYSTICK | SDL_INIT_GAMECONTROLLER);
}

/* The force level sent to a wheel: gain·torque/max_torque, clipped, raised to min_force,
 * negated by invert. */
static void force_feedback_level(void) {
  grip_input_config cfg;
  grip_input_config_empty(&cfg);
  cfg.ffb_max_torque = 15.0;
  cfg.ffb_min_force = 0.03;
  CHECK_NEAR(input_ffb_level(&cfg, 7.5), 0.5, 1e-12);
  CHECK_NEAR(input_ffb_level(&cfg, -3.0), -0.2, 1e-12);
  CHECK_NEAR(input_ffb_level(&cfg, 30.0), 1.0, 0.0);
  CHECK_NEAR(input_ffb_level(&cfg, -300.0), -1.0, 0.0);
  CHECK_NEAR(input_ffb_level(&cfg, 0.3), 0.03, 1e-12);   /* 0.02 raised to the minimum */
  CHECK_NEAR(input_ffb_level(&cfg, -0.3), -0.03, 1e-12);
  CHECK_NEAR(input_ffb_level(&cfg, 0.001), 0.0, 0.0);    /* below 0.001: nothing */
  CHECK_NEAR(input_ffb_level(&cfg, 0.0 / 0.0), 0.0, 0.0); /* never NaN */
  cfg.ffb_gain = 2.0;
  CHECK_NEAR(input_ffb_level(&cfg, 3.0), 0.4, 1e-12);
  cfg.ffb_invert = true;
  CHECK_NEAR(input_ffb_level(&cfg, 3.0), -0.4, 1e-12);
}

static double yaw_of(grip_quat q) {
  return atan2(2.0 * (q.w * q.z + q.x * q.y), 1.0 - 2.0 * (q.y * q.y + q.z * q.z));
}

/* End to end: the built-in car on the built-in track driven through a drive's input hook (the
 * built-in configuration) by a virtual gamepad: the right trigger moves the car forward, the
 * left stick to the left turns it left (heading grows), the left trigger stops it, and Y puts
 * the gearbox in manual. */
static void gamepad_drives_the_car(void) {
  CHECK(SDL_InitSubSystem(SDL_INIT_JOYSTICK | SDL_INIT_GAMECONTROLLER) == 0);
  SDL_Joystick *j = attach(SDL_JOYSTICK_TYPE_GAMECONTROLLER, "grip virtual pad", SDL_CONTROLLER_AXIS_MAX,
                           SDL_CONTROLLER_BUTTON_MAX);
  if (!j) return;
  session_options so = session_default_options();
  session *s = session_open(&so, "test");
  CHECK(s != NULL);
  if (!s) return;
  SDL_setenv("SDL_AUDIODRIVER", "dummy", 1); /* with sound: the drive feeds it */
  drive_io *io = drive_io_open(s, NULL, false, 0, "test");
  CHECK(io != NULL);
  if (!io) {
    session_close(s);
    return;
  }
  double accumulator = 0.0;
  grip_quat start = s->cars[s->human].cur.pose.rotation;
  grip_vec3 p0 = s->cars[s->human].cur.pose.position;
  /* 4 s of full throttle, straight. */
  SDL_JoystickSetVirtualAxis(j, SDL_CONTROLLER_AXIS_TRIGGERRIGHT, 32767);
  for (int f = 0; f < 240; ++f) {
    SDL_JoystickUpdate();
    drive_io_update(io, s, SESSION_FIXED_FRAME_S);
    session_advance(s, &accumulator, SESSION_FIXED_FRAME_S);
    drive_io_feedback(io, s, s->human, SESSION_FIXED_FRAME_S);
  }
  const grip_vehicle_state *st = &s->cars[s->human].cur;
  double speed = st->speed;
  grip_vec3 p1 = st->pose.position;
  double moved = sqrt((p1.x - p0.x) * (p1.x - p0.x) + (p1.y - p0.y) * (p1.y - p0.y));
  CHECK(speed > 15.0);
  CHECK(moved > 25.0);
  CHECK_NEAR(s->human_input.throttle, 1.0, 1e-12);
  /* Half throttle, stick half left for 1 s: the heading turns left (counter-clockwise). */
  SDL_JoystickSetVirtualAxis(j, SDL_CONTROLLER_AXIS_TRIGGERRIGHT, 8000);
  SDL_JoystickSetVirtualAxis(j, SDL_CONTROLLER_AXIS_LEFTX, -16384);
  double heading0 = yaw_of(st->pose.rotation);
  for (int f = 0; f < 60; ++f) {
    SDL_JoystickUpdate();
    drive_io_update(io, s, SESSION_FIXED_FRAME_S);
    session_advance(s, &accumulator, SESSION_FIXED_FRAME_S);
    drive_io_feedback(io, s, s->human, SESSION_FIXED_FRAME_S);
  }
  double turned = remainder(yaw_of(st->pose.rotation) - heading0, 2.0 * PI);
  CHECK(s->human_input.steering > 0.1);
  CHECK(turned > 0.05);
  double turning_torque = st->steering_torque;
  CHECK(turning_torque < 0.0); /* the wheel pulls back to the right, towards the centre */
  /* Brake with the left trigger, stick centred, no throttle: the car stops. */
  SDL_JoystickSetVirtualAxis(j, SDL_CONTROLLER_AXIS_TRIGGERRIGHT, 0);
  SDL_JoystickSetVirtualAxis(j, SDL_CONTROLLER_AXIS_LEFTX, 0);
  SDL_JoystickSetVirtualAxis(j, SDL_CONTROLLER_AXIS_TRIGGERLEFT, 32767);
  for (int f = 0; f < 300; ++f) {
    SDL_JoystickUpdate();
    drive_io_update(io, s, SESSION_FIXED_FRAME_S);
    session_advance(s, &accumulator, SESSION_FIXED_FRAME_S);
  }
  CHECK(fabs(st->speed) < 0.5);
  CHECK(s->human_input.automatic);
  SDL_JoystickSetVirtualButton(j, SDL_CONTROLLER_BUTTON_Y, SDL_PRESSED);
  SDL_JoystickUpdate();
  drive_io_update(io, s, SESSION_FIXED_FRAME_S);
  CHECK(!s->human_input.automatic && drive_io_automatic(io) == false);
  printf("  4 s full throttle: %.1f m/s after %.1f m; 1 s half left: heading +%.3f rad, wheel torque %.2f N*m; "
         "braked to %.2f m/s\n", speed, moved, turned, turning_torque, st->speed);
  (void)start;
  drive_io_close(io);
  session_close(s);
  SDL_JoystickClose(j);
  SDL_QuitSubSystem(SDL_INIT_JOYSTICK | SDL_INIT_GAMECONTROLLER);
}

int main(void) {
  RUN_TEST(force_feedback_level);
  SDL_SetHint(SDL_HINT_JOYSTICK_ALLOW_BACKGROUND_EVENTS, "1");
  RUN_TEST(virtual_wheel);
  RUN_TEST(virtual_gamepad);
  RUN_TEST(gamepad_drives_the_car);
  return TEST_RESULT();
}
#endif
