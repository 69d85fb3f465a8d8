/* grip plot: the page every figure is drawn on (PLplot with its cairo driver), and the CSV of
 * the plotted series. Only the plot_*.c files use PLplot; they are built when CMake finds it. */
#ifndef GRIP_PLOT_CANVAS_H
#define GRIP_PLOT_CANVAS_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"

/* Options every kind takes. */
typedef struct plot_options {
  const char *output; /* FILE.png, FILE.svg or FILE.pdf */
  const char *csv;    /* the plotted series as CSV, or NULL */
  int width, height;  /* px (PNG; SVG and PDF take them as points) */
} plot_options;

plot_options plot_default_options(void);

#define PLOT_COMMON_OPTIONS(o)                                                                  \
  {"--output", CLI_STRING, &(o).output, 0, 0, "FILE.png, FILE.svg or FILE.pdf (also -o FILE)"}, \
      {"--csv", CLI_STRING, &(o).csv, 0, 0, "also write the plotted series to FILE (CSV)"},    \
      {"--width", CLI_INT, &(o).width, 300, 6000, "px (default 1200)"},                       \
      {"--height", CLI_INT, &(o).height, 200, 6000, "px (default 800)"}

/* Checks the common options after parsing: --output given with a known extension. Prints
 * "grip plot KIND: ..." and returns CLI_USAGE_ERROR, or 0. */
int plot_check_options(const char *kind, const plot_options *o);

/* Colours of the fixed palette (cmap0): a colour-blind-safe set on white. */
enum {
  PLOT_WHITE = 0,
  PLOT_BLACK = 1,
  PLOT_GREY = 2,
  PLOT_BLUE = 3,
  PLOT_ORANGE = 4,
  PLOT_GREEN = 5,
  PLOT_RED = 6,
  PLOT_PURPLE = 7,
  PLOT_SKY = 8,
  PLOT_YELLOW = 9,
  PLOT_LIGHT_GREY = 10,
  PLOT_BROWN = 11,
  PLOT_PINK = 12,
  PLOT_DARK_GREY = 13,
};

/* The n-th colour of a series list (n >= 0), skipping the greys. */
int plot_series_colour(int n);

/* Opens the page: device from the file's extension, size, white background, palette, the
 * speed colour map (cmap1). Prints "grip plot KIND: FILE: cannot write" and returns 1 when the
 * file cannot be created, else 0. */
int plot_begin(const char *kind, const plot_options *o);
/* Finishes and writes the file. */
void plot_end(void);

/* Title line at the top of the page and caption line(s) at the bottom (names the car, tyre,
 * track, lap; '\n' separates lines, at most about three). */
void plot_title(const char *title);
void plot_caption(const char *caption);

/* A panel: viewport in page fractions [x0, x1] × [y0, y1], world window, box with ticks and
 * grid, axis titles (x title omitted when xtitle is NULL: panels stacked over a shared axis). */
void plot_panel(double x0, double x1, double y0, double y1, double xmin, double xmax, double ymin,
                double ymax, const char *xtitle, const char *ytitle);
/* The same with equal scales on both axes: the window grows on one axis to fill the viewport. */
void plot_panel_equal(double x0, double x1, double y0, double y1, double xmin, double xmax, double ymin,
                      double ymax, const char *xtitle, const char *ytitle);
/* A second y axis on the right of the current panel, with its own window and title. */
void plot_right_axis(double ymin, double ymax, const char *ytitle, int colour);

/* Line styles: 1 solid, 2 short dashes, 3 long dashes (PLplot's pllsty). */
void plot_line(int n, const double *x, const double *y, int colour, double width, int style);
/* Markers: a UTF-8 glyph centred on each point ("•", "○", "▲", "+"), scale × the text size. */
void plot_markers(int n, const double *x, const double *y, int colour, const char *symbol, double scale);
/* A filled polygon. */
void plot_fill(int n, const double *x, const double *y, int colour);
/* A line coloured by value c along it (cmap1 over [cmin, cmax]). */
void plot_coloured_line(int n, const double *x, const double *y, const double *c, double cmin,
                        double cmax, double width);
/* Points coloured by value c (cmap1 over [cmin, cmax]). */
void plot_coloured_points(int n, const double *x, const double *y, const double *c, double cmin,
                          double cmax, double scale);
/* Text in world coordinates, left-justified at (x, y) (just 0 left, 0.5 centre, 1 right). */
void plot_text(double x, double y, double just, int colour, double scale, const char *text);

/* The same turned to read upwards, centred across its height on x; y is its bottom end for just 0. */
void plot_text_up(double x, double y, double just, int colour, double scale, const char *text);

/* A legend inside the panel. kind[i]: 'l' line, 'm' marker, 'c' coloured line (drawn with the
 * cmap1 mid colour). */
typedef struct plot_legend_entry {
  const char *text;
  int colour;
  char kind;
  int style;   /* line style for 'l' */
  const char *symbol; /* glyph for 'm' (see plot_markers) */
} plot_legend_entry;
/* position: PL_POSITION_* flags relative to the current panel, e.g. top | right (inside unless
 * PL_POSITION_OUTSIDE is given). */
void plot_legend(int position, int n, const plot_legend_entry *entries);

/* A colour bar for cmap1 on the right of the current panel, labelled with title. */
void plot_colour_bar(double cmin, double cmax, const char *title);

/* Nice axis limits: a range that contains [lo, hi] with a little margin. */
void plot_nice_range(double lo, double hi, double *out_lo, double *out_hi);

/* CSV of the plotted series: rows panel,series,x,y,z (z empty when the series has none). */
FILE *plot_csv_open(const char *kind, const char *path);
void plot_csv_series(FILE *f, const char *panel, const char *series, int n, const double *x,
                     const double *y, const double *z);
/* Closes; returns 0, or 1 after printing an error when writing failed. */
int plot_csv_close(const char *kind, const char *path, FILE *f);

#endif
