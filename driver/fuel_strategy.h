/* The robot's fuel strategy: how much fuel to start with, when to stop and how much to take
 * (docs/driver.md, "Pit stops and fuel"). Pure arithmetic on kilograms and laps; the race
 * (sim/pit.c) measures the consumption and asks. */
#ifndef GRIP_FUEL_STRATEGY_H
#define GRIP_FUEL_STRATEGY_H

#include <stdbool.h>

typedef struct fuel_strategy {
  double tank;        /* kg, the tank's capacity; 94 for TORCS's car1-trb1 */
  double per_lap;     /* kg, consumption per lap: the plan's estimate, then the last lap measured */
  double margin;      /* fraction added to the fuel a distance needs; 0.03 */
  double reserve;     /* laps of fuel kept on top at every decision; 0.15 */
  int laps;           /* the race's laps */
  int stops;          /* stops planned at the start */
  int stint_laps;     /* laps of each planned stint: ceil(laps / (stops + 1)) */
} fuel_strategy;

/* The plan for a race of `laps` laps: the fewest stops for which equal stints of whole laps
 * fit in the tank (with margin and reserve); NULL-safe values when per_lap is not > 0 (no fuel
 * use: no stops). */
fuel_strategy fuel_strategy_plan(double tank, double per_lap, int laps);

/* kg, fuel for `laps_to_go` laps (may be fractional) with the margin and the reserve. */
double fuel_strategy_need(const fuel_strategy *f, double laps_to_go);

/* kg, the fuel to start with: one stint's need × 1.25, at most the tank. */
double fuel_strategy_start_fuel(const fuel_strategy *f);

/* Whether to take the pit road now, at the point where it leaves the track: the fuel on board
 * does not reach the finish (laps_to_go from here) and would not bring the car round to this
 * point again. */
bool fuel_strategy_pit_now(const fuel_strategy *f, double fuel, double laps_to_go);

/* kg to add at a stop with `fuel` on board and `laps_to_go` from the box: enough for the next
 * of the equal stints the remaining laps split into (the fewest that fit the tank), at most up
 * to a full tank; 0 when none is needed. */
double fuel_strategy_refuel(const fuel_strategy *f, double fuel, double laps_to_go);

/* Takes a lap's measured consumption (kg) as the estimate from now on (ignored unless > 0). */
void fuel_strategy_measure(fuel_strategy *f, double used);

#endif
