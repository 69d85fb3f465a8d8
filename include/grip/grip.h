/* grip: real-time vehicle dynamics. Include this one header. */
#ifndef GRIP_GRIP_H
#define GRIP_GRIP_H

#include "ground.h"
#include "tyre.h"
#include "types.h"
#include "vehicle.h"
#include "world.h"

#define GRIP_VERSION_MAJOR 0
#define GRIP_VERSION_MINOR 1

#endif
