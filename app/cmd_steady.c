/* grip steady: constant speed, constant steering-wheel angle, held until steady. */
#include <stdio.h>

#include "cornering.h"
#include "report.h"

int cmd_steady(int argc, char **argv);
int cmd_steady(int argc, char **argv) {
  double dt = 0.002, speed = 60.0, steer = 30.0;
  bool json = false;
  static grip_car loaded;
  const cli_option own[] = {
      {"--speed", CLI_DOUBLE, &speed, 1.0, 400.0, "speed, km/h (default 60)"},
      {"--steer-deg", CLI_DOUBLE, &steer, -900.0, 900.0, "steering-wheel angle, degrees, + = left (default 30)"},
  };
  int rc = report_parse(argc, argv, own, CLI_COUNT(own), &dt, &json, &loaded);
  if (rc >= 0) return rc;
  const grip_vehicle_def *car = &loaded.def;
  double lock_deg = car->steering.max_wheel_angle * 180.0 / 3.14159265358979323846;
  if ((rc = report_check_range("steady", "--steer-deg", steer, -lock_deg, lock_deg, "the car's full lock")))
    return rc;
  steady_result r = sim_steady(car, speed, steer, dt);
  report rep;
  report_begin(&rep, json, "steady: %s at %.1f km/h, steering wheel %.1f deg, dt %g s%s", car->name, speed, steer, dt,
               r.steady ? "" : " (NOT steady)");
  report_string(&rep, "car", car->name, NULL);
  report_number(&rep, "radius_m", r.radius_m, "radius", "%8.2f m");
  report_number(&rep, "front_axle_radius_m", r.front_axle_radius_m, "  front axle", "%8.2f m");
  report_number(&rep, "wheelbase_m", r.wheelbase_m, "wheelbase", "%8.3f m");
  report_number(&rep, "road_wheel_angle_deg", r.road_wheel_angle_deg, "road wheels", "%8.3f deg");
  report_number(&rep, "yaw_rate_dps", r.yaw_rate_dps, "yaw rate", "%8.3f deg/s");
  report_number(&rep, "lateral_g", r.lateral_g, "lateral", "%8.3f g");
  report_number(&rep, "slip_angle_front_deg", r.slip_angle_front_deg, "slip front", "%8.3f deg");
  report_number(&rep, "slip_angle_rear_deg", r.slip_angle_rear_deg, "slip rear", "%8.3f deg");
  report_number(&rep, "body_slip_deg", r.body_slip_deg, "body slip", "%8.3f deg");
  report_number(&rep, "roll_deg", r.roll_deg, "roll", "%8.3f deg");
  report_number(&rep, "speed_kmh", r.speed_kmh, "speed", "%8.1f km/h");
  report_number(&rep, "steering_torque_nm", r.steering_torque_nm, "steering torque", "%8.2f N*m");
  report_bool(&rep, "steady", r.steady, NULL);
  report_end(&rep);
  if (!r.steady)
    fprintf(stderr, "grip steady: warning: no steady state was reached (the car spun, or the speed could not be "
                    "held): the figures are those of the last step, not a steady state\n");
  return 0;
}
