/* The robot's fuel strategy (fuel_strategy.h, docs/driver.md "Pit stops and fuel"). A stop
 * costs TORCS's fixed time plus the refuelling time of the fuel taken (sim/pit.h); the fuel
 * taken over a race is the same however it is split, so the fewest stops win, and equal stints
 * carry the least fuel on average. */
#include "fuel_strategy.h"

#include <math.h>

#define FUEL_MAX_STOPS 1000

fuel_strategy fuel_strategy_plan(double tank, double per_lap, int laps) {
  fuel_strategy f = {.tank = tank, .per_lap = per_lap, .margin = 0.03, .reserve = 0.15, .laps = laps,
                     .stops = 0, .stint_laps = laps};
  if (!(per_lap > 0.0) || !(tank > 0.0) || laps < 1) return f;
  for (int n = 0; n <= FUEL_MAX_STOPS; ++n) {
    int stint = (laps + n) / (n + 1); /* ceil(laps / (n + 1)) */
    if (fuel_strategy_need(&f, stint) <= tank || stint <= 1) {
      f.stops = n;
      f.stint_laps = stint;
      break;
    }
  }
  return f;
}

double fuel_strategy_need(const fuel_strategy *f, double laps_to_go) {
  if (!(f->per_lap > 0.0)) return 0.0;
  return f->per_lap * (fmax(0.0, laps_to_go) * (1.0 + f->margin) + f->reserve);
}

/* The start fuel's factor on a stint's need: the estimate before a measured lap can be 20 % low
 * (car1-trb1 spinning its wheels on TORCS's dirt-2), a stop for the missing kilograms costs
 * ~20 s, and fuel taken at the start costs no stop time. */
#define FUEL_START_SAFETY 1.25

double fuel_strategy_start_fuel(const fuel_strategy *f) {
  if (!(f->per_lap > 0.0)) return f->tank;
  return fmin(f->tank, FUEL_START_SAFETY * fuel_strategy_need(f, f->stint_laps));
}

bool fuel_strategy_pit_now(const fuel_strategy *f, double fuel, double laps_to_go) {
  if (!(f->per_lap > 0.0)) return false;
  if (fuel >= fuel_strategy_need(f, laps_to_go)) return false;
  return fuel < fuel_strategy_need(f, fmin(1.0, laps_to_go));
}

double fuel_strategy_refuel(const fuel_strategy *f, double fuel, double laps_to_go) {
  if (!(f->per_lap > 0.0) || laps_to_go <= 0.0) return 0.0;
  double target = f->tank;
  for (int n = 0; n <= FUEL_MAX_STOPS; ++n) {
    double stint = ceil(laps_to_go / (n + 1) - 1e-9);
    if (stint < 1.0) stint = 1.0;
    if (stint > laps_to_go) stint = laps_to_go;
    double need = fuel_strategy_need(f, stint);
    if (need <= f->tank || stint <= 1.0) {
      target = fmin(f->tank, need);
      break;
    }
  }
  return fmax(0.0, target - fuel);
}

void fuel_strategy_measure(fuel_strategy *f, double used) {
  if (used > 0.0 && isfinite(used)) f->per_lap = used;
}
