/* Loader for TNO/ADAMS tyre property files (.tir): Magic Formula 5.2 (FITTYP 6 or 21, and
 * PAC2002 files without FITTYP), 6.1 (FITTYP 61) and 6.2 (FITTYP 62).
 *
 * Format: "[SECTION]" headers in any order; "KEY = value" lines; '$' and '!' start comments
 * (whole line or after the value); values are numbers or quoted strings ('...' or "...");
 * spaces, tabs and CRLF line ends are fine; unknown keys are ignored; table sections
 * ([SHAPE], or rows after a "{...}" header) are skipped. Missing coefficients take the defaults
 * of grip/mf_params.def. [UNITS] is honoured: files in other length, force, mass, time or
 * pressure units are converted to SI (angles must be radians). */
#ifndef GRIP_TIR_H
#define GRIP_TIR_H

#include <stddef.h>

#include "grip/mf_tyre.h"
#include "load_error.h"

/* Loads path into *out. Returns 0 on success; on failure returns -1, leaves *out untouched and
 * describes the first problem in err as "file:line: key: what is wrong". */
int grip_tir_load(const char *path, grip_mf_params *out, grip_load_error *err);

/* Same, from text in memory (len bytes); name is used in error messages. */
int grip_tir_parse(const char *text, size_t len, const char *name, grip_mf_params *out,
                   grip_load_error *err);

#endif
