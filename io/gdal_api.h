/* GDAL, opened with dlopen the first time a raster is read (io/gdal_raster.c), not linked:
 * linked, it and the ~110 libraries it needs were loaded and relocated whenever a program using
 * grip_io started, whether it read a raster or not (`grip version`: 258 M instructions linked,
 * 34 M not; docs/terrain.md). The terrain loader and the viewer's images call GDAL through this
 * table. Only with GRIP_HAVE_GDAL (CMake found libgdal-dev); GRIP_GDAL_SONAME is the library it
 * was compiled against. */
#ifndef GRIP_GDAL_API_H
#define GRIP_GDAL_API_H

#ifdef GRIP_HAVE_GDAL
#include <cpl_error.h>
#include <gdal.h>
#include <ogr_srs_api.h>

/* The GDAL functions grip calls, each through a pointer of its own declared type. */
#define GRIP_GDAL_FUNCTIONS(X)                                                                    \
  X(GDALAllRegister) X(GDALOpen) X(GDALOpenEx) X(GDALClose) X(GDALGetRasterXSize)                \
  X(GDALGetRasterYSize) X(GDALGetRasterCount) X(GDALGetGeoTransform) X(GDALGetRasterBand)        \
  X(GDALRasterIO) X(GDALGetRasterNoDataValue) X(GDALGetRasterScale) X(GDALGetRasterOffset)       \
  X(GDALGetRasterUnitType) X(GDALGetDriverShortName) X(GDALGetDatasetDriver)                     \
  X(GDALGetSpatialRef) X(GDALGetRasterColorInterpretation) X(GDALGetRasterColorTable)            \
  X(GDALGetColorEntryAsRGB) X(CPLPushErrorHandler) X(CPLPopErrorHandler) X(CPLQuietErrorHandler) \
  X(CPLErrorReset) X(CPLGetLastErrorMsg) X(OSRIsGeographic) X(OSRGetLinearUnits)                 \
  X(OSRGetUTMZone) X(OSRGetName)

typedef struct grip_gdal_api {
#define GRIP_GDAL_POINTER(name) __typeof__(name) *name;
  GRIP_GDAL_FUNCTIONS(GRIP_GDAL_POINTER)
#undef GRIP_GDAL_POINTER
} grip_gdal_api;

/* GDAL's functions, opening it on the first call (thread-safe; it stays open), with its
 * drivers registered; NULL when it cannot be opened, and then *why (when why is not NULL) says
 * why. */
const grip_gdal_api *grip_gdal(const char **why);
#endif

#endif
