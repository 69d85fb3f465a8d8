/* TORCS cars: reads a TORCS car (category XML + car XML, optionally a robot setup XML on top)
 * into a grip car. The mapping of every TORCS parameter is documented in docs/car-format.md
 * ("TORCS import"). Units given in the files' unit="…" attributes are converted to SI. */
#ifndef GRIP_TORCS_CAR_H
#define GRIP_TORCS_CAR_H

#include "car_file.h"

/* Where Debian's torcs-data package installs the cars and categories. */
#define GRIP_TORCS_DATA_DIR "/usr/share/games/torcs"

/* Loads car_xml on top of category_xml (NULL: <car_xml's dir>/../../categories/<category>.xml,
 * the category named in the car's "Car" section), then setup_xml (NULL: none). Returns 0, or -1
 * with err set and *out untouched. */
int grip_torcs_load(const char *car_xml, const char *category_xml, const char *setup_xml, grip_car *out,
                    grip_load_error *err);

/* path is a car directory (reads DIR/<dir name>.xml) or a car XML file. */
int grip_torcs_load_path(const char *path, const char *setup_xml, grip_car *out, grip_load_error *err);

/* The installed car GRIP_TORCS_DATA_DIR/cars/NAME/NAME.xml. */
int grip_torcs_load_named(const char *name, const char *setup_xml, grip_car *out, grip_load_error *err);

#endif
