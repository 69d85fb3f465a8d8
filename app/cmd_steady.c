/* grip steady: constant speed, constant steering-wheel angle, held until steady. */
#include <stdio.h>

#include "car_option.h"
#include "cli.h"
#include "cornering.h"

int cmd_steady(int argc, char **argv);
int cmd_steady(int argc, char **argv) {
  double dt = 0.002, speed = 60.0, steer = 30.0;
  bool json = false;
  const char *car_spec = NULL;
  cli_option options[] = {
      {"--speed", CLI_DOUBLE, &speed, 1.0, 400.0, "speed, km/h (default 60)"},
      {"--steer-deg", CLI_DOUBLE, &steer, -900.0, 900.0, "steering-wheel angle, degrees, + = left (default 30)"},
      CLI_OPTION_DT(dt, "0.002"),
      CLI_OPTION_JSON(json),
      CLI_OPTION_CAR(car_spec),
  };
  int rc = cli_parse(argc, argv, options, CLI_COUNT(options), NULL, 0, NULL);
  if (rc) return rc == 1 ? 0 : rc;
  static grip_car loaded;
  if (cli_load_car(argv[0], car_spec, &loaded)) return 1;
  grip_vehicle_def car = loaded.def;
  steady_result r = sim_steady(&car, speed, steer, dt);
  if (json) {
    json_writer w;
    json_begin(&w, stdout);
    json_string(&w, "car", car.name);
    json_number(&w, "radius_m", r.radius_m);
    json_number(&w, "front_axle_radius_m", r.front_axle_radius_m);
    json_number(&w, "wheelbase_m", r.wheelbase_m);
    json_number(&w, "road_wheel_angle_deg", r.road_wheel_angle_deg);
    json_number(&w, "yaw_rate_dps", r.yaw_rate_dps);
    json_number(&w, "lateral_g", r.lateral_g);
    json_number(&w, "slip_angle_front_deg", r.slip_angle_front_deg);
    json_number(&w, "slip_angle_rear_deg", r.slip_angle_rear_deg);
    json_number(&w, "body_slip_deg", r.body_slip_deg);
    json_number(&w, "roll_deg", r.roll_deg);
    json_number(&w, "speed_kmh", r.speed_kmh);
    json_bool(&w, "steady", r.steady);
    json_end(&w);
  } else {
    printf("steady: %s at %.1f km/h, steering wheel %.1f deg, dt %g s%s\n", car.name, speed, steer, dt,
           r.steady ? "" : " (NOT steady)");
    printf("  radius          %8.2f m (front axle %.2f m, wheelbase %.3f m)\n", r.radius_m, r.front_axle_radius_m,
           r.wheelbase_m);
    printf("  road wheels     %8.3f deg\n", r.road_wheel_angle_deg);
    printf("  yaw rate        %8.3f deg/s\n", r.yaw_rate_dps);
    printf("  lateral         %8.3f g\n", r.lateral_g);
    printf("  slip angles     %8.3f front, %.3f rear deg; body slip %.3f deg\n", r.slip_angle_front_deg,
           r.slip_angle_rear_deg, r.body_slip_deg);
    printf("  roll            %8.3f deg\n", r.roll_deg);
  }
  return 0;
}
