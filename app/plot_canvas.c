/* grip plot's page: PLplot set up once per figure (plot_canvas.h). */
#include "plot_canvas.h"

#include <errno.h>
#include <math.h>
#include <plplot.h>
#include <string.h>

plot_options plot_default_options(void) {
  return (plot_options){.output = NULL, .csv = NULL, .width = 1200, .height = 800};
}

/* Text height relative to PLplot's default (which reads large on a 1200 × 800 page). */
#define TEXT 0.72

/* Page size in px, for tick spacing. */
static int page_width = 1200, page_height = 800;

static const char *extension(const char *path) {
  const char *dot = strrchr(path, '.');
  const char *slash = strrchr(path, '/');
  return dot && (!slash || dot > slash) ? dot + 1 : "";
}

/* PLplot's cairo device for a file name's extension, or NULL. */
static const char *device_for(const char *path) {
  const char *ext = extension(path);
  if (strcmp(ext, "png") == 0 || strcmp(ext, "PNG") == 0) return "pngcairo";
  if (strcmp(ext, "svg") == 0 || strcmp(ext, "SVG") == 0) return "svgcairo";
  if (strcmp(ext, "pdf") == 0 || strcmp(ext, "PDF") == 0) return "pdfcairo";
  return NULL;
}

int plot_check_options(const char *kind, const plot_options *o) {
  if (!o->output) {
    fprintf(stderr, "grip plot %s: -o FILE.png|svg|pdf is required (see grip plot %s --help)\n", kind, kind);
    return CLI_USAGE_ERROR;
  }
  if (!device_for(o->output)) {
    fprintf(stderr, "grip plot %s: %s: the file name must end in .png, .svg or .pdf\n", kind, o->output);
    return CLI_USAGE_ERROR;
  }
  return 0;
}

/* Okabe & Ito's colour-blind-safe palette plus greys; index = the PLOT_* enum. */
static const int palette[][3] = {
    {255, 255, 255}, {0, 0, 0},       {150, 150, 150}, {0, 114, 178},  {230, 159, 0},
    {0, 158, 115},   {213, 94, 0},    {204, 121, 167}, {86, 180, 233}, {240, 228, 66},
    {225, 225, 225}, {140, 86, 40},   {240, 160, 200}, {90, 90, 90},
};

int plot_series_colour(int n) {
  static const int order[] = {PLOT_BLUE, PLOT_ORANGE, PLOT_GREEN, PLOT_RED, PLOT_PURPLE, PLOT_SKY, PLOT_BROWN};
  return order[n % (int)(sizeof order / sizeof order[0])];
}

int plot_begin(const char *kind, const plot_options *o) {
  /* PLplot ends the process when it cannot open its output, so find out first. */
  FILE *probe = fopen(o->output, "wb");
  if (!probe) {
    fprintf(stderr, "grip plot %s: %s: cannot write: %s\n", kind, o->output, strerror(errno));
    return 1;
  }
  fclose(probe);
  page_width = o->width;
  page_height = o->height;
  plsdev(device_for(o->output));
  plsfnam(o->output);
  /* 96 dpi: PLplot's character and tick sizes are in mm, so this sets the text size on the
   * page (about 13 px per line of text). */
  plspage(96.0, 96.0, o->width, o->height, 0, 0);
  int n = (int)(sizeof palette / sizeof palette[0]);
  PLINT r[16], g[16], b[16];
  for (int i = 0; i < n; ++i) {
    r[i] = palette[i][0];
    g[i] = palette[i][1];
    b[i] = palette[i][2];
  }
  plscmap0(r, g, b, n);
  plsetopt("quiet", ""); /* no banner on stdout */
  plinit();
  /* cmap1 for speed: dark blue through teal and green to yellow (viridis-like, readable on
   * white and in grey scale). */
  PLFLT pos[] = {0.0, 0.33, 0.66, 1.0};
  PLFLT cr[] = {0.27, 0.13, 0.37, 0.99}, cg[] = {0.0, 0.57, 0.79, 0.81}, cb[] = {0.33, 0.55, 0.38, 0.14};
  plscmap1l(1, 4, pos, cr, cg, cb, NULL);
  pladv(0);
  plfont(1);
  /* Tick labels written out up to 7 digits (6000, not 6 with "x10³" beside the axis). */
  plsxax(7, 0);
  plsyax(7, 0);
  plschr(0.0, TEXT);
  return 0;
}

void plot_end(void) { plend(); }

/* The whole page as the viewport, in [0,1]². */
static void page_viewport(void) {
  plvpor(0.0, 1.0, 0.0, 1.0);
  plwind(0.0, 1.0, 0.0, 1.0);
}

void plot_title(const char *title) {
  page_viewport();
  plcol0(PLOT_BLACK);
  plschr(0.0, 1.3 * TEXT);
  plmtex("t", -1.6, 0.5, 0.5, title);
  plschr(0.0, TEXT);
}

void plot_caption(const char *caption) {
  page_viewport();
  plcol0(PLOT_DARK_GREY);
  plschr(0.0, 0.9 * TEXT);
  /* One line per '\n', the last one at the bottom of the page. */
  int lines = 1;
  for (const char *c = caption; *c; ++c) lines += *c == '\n';
  const char *start = caption;
  for (int i = 0; i < lines; ++i) {
    const char *end = strchr(start, '\n');
    size_t len = end ? (size_t)(end - start) : strlen(start);
    char line[1024];
    snprintf(line, sizeof line, "%.*s", (int)len, start);
    plmtex("b", -1.0 - 1.5 * (lines - 1 - i), 0.5, 0.5, line);
    start = end ? end + 1 : start + len;
  }
  plschr(0.0, TEXT);
}

/* A round tick spacing (1, 2 or 5 × 10^k) giving about `count` intervals over span. */
static double tick_step(double span, double count) {
  double raw = span / (count < 2.0 ? 2.0 : count);
  double step = pow(10.0, floor(log10(raw)));
  double m = raw / step;
  return step * (m < 1.5 ? 1.0 : (m < 3.5 ? 2.0 : (m < 7.5 ? 5.0 : 10.0)));
}

void plot_panel(double x0, double x1, double y0, double y1, double xmin, double xmax, double ymin,
                double ymax, const char *xtitle, const char *ytitle) {
  plvpor(x0, x1, y0, y1);
  plwind(xmin, xmax, ymin, ymax);
  /* Tick labels about 85 px apart across and 45 px apart up the panel. */
  double xtick = tick_step(xmax - xmin, (x1 - x0) * page_width / 85.0);
  double ytick = tick_step(ymax - ymin, (y1 - y0) * page_height / 45.0);
  /* Grid first, light, then the frame and ticks over it. */
  plcol0(PLOT_LIGHT_GREY);
  plwidth(1.0);
  plbox("g", xtick, 0, "g", ytick, 0);
  plcol0(PLOT_BLACK);
  plbox(xtitle ? "bcnst" : "bcst", xtick, 0, "bcnstv", ytick, 0);
  if (xtitle) plmtex("b", 2.8, 0.5, 0.5, xtitle);
  if (ytitle) plmtex("l", 4.6, 0.5, 0.5, ytitle);
}

void plot_panel_equal(double x0, double x1, double y0, double y1, double xmin, double xmax, double ymin,
                      double ymax, const char *xtitle, const char *ytitle) {
  /* Shrink the viewport (centred) or widen the window so one metre is as long both ways. */
  double vw = (x1 - x0) * page_width, vh = (y1 - y0) * page_height;
  double sx = (xmax - xmin) / vw, sy = (ymax - ymin) / vh;
  if (sx > sy) {
    double grow = 0.5 * (sx * vh - (ymax - ymin));
    ymin -= grow, ymax += grow;
  } else {
    double grow = 0.5 * (sy * vw - (xmax - xmin));
    xmin -= grow, xmax += grow;
  }
  plot_panel(x0, x1, y0, y1, xmin, xmax, ymin, ymax, xtitle, ytitle);
}

void plot_right_axis(double ymin, double ymax, const char *ytitle, int colour) {
  PLFLT xmin, xmax, y0, y1;
  plgvpw(&xmin, &xmax, &y0, &y1);
  plwind(xmin, xmax, ymin, ymax);
  PLFLT vx0, vx1, vy0, vy1;
  plgvpd(&vx0, &vx1, &vy0, &vy1);
  plcol0(colour);
  plbox("", 0.0, 0, "cmstv", tick_step(ymax - ymin, (vy1 - vy0) * page_height / 45.0), 0);
  plmtex("r", 4.0, 0.5, 0.5, ytitle);
  plcol0(PLOT_BLACK);
}

void plot_line(int n, const double *x, const double *y, int colour, double width, int style) {
  if (n < 2) return;
  plcol0(colour);
  plwidth(width);
  pllsty(style);
  plline(n, x, y);
  pllsty(1);
  plwidth(1.0);
}

void plot_markers(int n, const double *x, const double *y, int colour, const char *symbol, double scale) {
  if (n < 1) return;
  plcol0(colour);
  plschr(0.0, scale * TEXT);
  plstring(n, x, y, symbol);
  plschr(0.0, TEXT);
}

static double unit(double c, double cmin, double cmax) {
  double u = cmax > cmin ? (c - cmin) / (cmax - cmin) : 0.5;
  return u < 0.0 ? 0.0 : (u > 1.0 ? 1.0 : u);
}

void plot_coloured_line(int n, const double *x, const double *y, const double *c, double cmin,
                        double cmax, double width) {
  plwidth(width);
  for (int i = 0; i + 1 < n; ++i) {
    plcol1(unit(0.5 * (c[i] + c[i + 1]), cmin, cmax));
    double xs[2] = {x[i], x[i + 1]}, ys[2] = {y[i], y[i + 1]};
    plline(2, xs, ys);
  }
  plwidth(1.0);
}

void plot_fill(int n, const double *x, const double *y, int colour) {
  plcol0(colour);
  plfill(n, x, y);
}

void plot_coloured_points(int n, const double *x, const double *y, const double *c, double cmin,
                          double cmax, double scale) {
  plschr(0.0, scale * TEXT);
  for (int i = 0; i < n; ++i) {
    plcol1(unit(c[i], cmin, cmax));
    plstring(1, &x[i], &y[i], "•");
  }
  plschr(0.0, TEXT);
}

void plot_text(double x, double y, double just, int colour, double scale, const char *text) {
  plcol0(colour);
  plschr(0.0, scale * TEXT);
  plptex(x, y, 1.0, 0.0, just, text);
  plschr(0.0, TEXT);
}

void plot_text_up(double x, double y, double just, int colour, double scale, const char *text) {
  plcol0(colour);
  plschr(0.0, scale * TEXT);
  plptex(x, y, 0.0, 1.0, just, text);
  plschr(0.0, TEXT);
}

void plot_legend(int position, int n, const plot_legend_entry *e) {
  enum { MAX = 16 };
  if (n > MAX) n = MAX;
  PLINT opt[MAX], text_colours[MAX], line_colours[MAX], line_styles[MAX], symbol_colours[MAX], symbol_numbers[MAX];
  PLINT box_colours[MAX], box_patterns[MAX];
  PLFLT line_widths[MAX], symbol_scales[MAX], box_scales[MAX], box_widths[MAX];
  const char *text[MAX], *symbols[MAX];
  for (int i = 0; i < n; ++i) {
    opt[i] = e[i].kind == 'm' ? PL_LEGEND_SYMBOL : PL_LEGEND_LINE;
    text_colours[i] = PLOT_BLACK;
    line_colours[i] = e[i].kind == 'c' ? PLOT_GREEN : e[i].colour;
    line_styles[i] = e[i].style > 0 ? e[i].style : 1;
    line_widths[i] = e[i].kind == 'c' ? 3.0 : 2.0;
    symbol_colours[i] = e[i].colour;
    symbol_scales[i] = 1.0;
    symbol_numbers[i] = 1;
    symbols[i] = e[i].symbol ? e[i].symbol : "•";
    box_colours[i] = e[i].colour;
    box_patterns[i] = 0;
    box_scales[i] = 1.0;
    box_widths[i] = 1.0;
    text[i] = e[i].text;
  }
  PLFLT width, height;
  plschr(0.0, 0.9 * TEXT);
  if (!(position & PL_POSITION_OUTSIDE)) position |= PL_POSITION_INSIDE;
  /* Outside on the left: clear of the tick labels and the axis title. */
  double x_offset = (position & PL_POSITION_OUTSIDE) && (position & PL_POSITION_LEFT) ? 0.17 : 0.015;
  pllegend(&width, &height, PL_LEGEND_BACKGROUND | PL_LEGEND_BOUNDING_BOX, position | PL_POSITION_VIEWPORT,
           x_offset, 0.02, 0.06, PLOT_WHITE, PLOT_GREY, 1, 0, 0, n, opt, 0.8, 0.9 * TEXT, 1.9, 0.0, text_colours, text, box_colours, box_patterns, box_scales, box_widths, line_colours,
           line_styles, line_widths, symbol_colours, symbol_scales, symbol_numbers, symbols);
  plschr(0.0, TEXT);
}

void plot_colour_bar(double cmin, double cmax, const char *title) {
  PLFLT width, height;
  const char *axis_opts[] = {"bcvtm"};
  const char *labels[] = {title};
  PLINT label_opts[] = {PL_COLORBAR_LABEL_RIGHT};
  PLINT sub_ticks[] = {0};
  PLINT n_values[] = {2};
  PLFLT values_row[] = {cmin, cmax};
  PLFLT_VECTOR values[] = {values_row};
  PLFLT ticks[] = {0.0};
  plcol0(PLOT_BLACK);
  plschr(0.0, 0.9 * TEXT);
  plcolorbar(&width, &height, PL_COLORBAR_GRADIENT | PL_COLORBAR_LABEL_RIGHT, PL_POSITION_RIGHT |
             PL_POSITION_OUTSIDE | PL_POSITION_VIEWPORT, 0.015, 0.0, 0.02, 0.8, PLOT_WHITE, PLOT_BLACK, 1, 0.0,
             0.0, 0, 0.0, 1, label_opts, labels, 1, axis_opts, ticks, sub_ticks, n_values,
             (PLFLT_MATRIX)values);
  plschr(0.0, TEXT);
}

void plot_nice_range(double lo, double hi, double *out_lo, double *out_hi) {
  if (!(hi > lo)) {
    double c = isfinite(lo) ? lo : 0.0;
    lo = c - 1.0;
    hi = c + 1.0;
  }
  double span = hi - lo;
  double step = pow(10.0, floor(log10(span / 5.0)));
  double m = span / 5.0 / step;
  step *= m < 1.5 ? 1.0 : (m < 3.5 ? 2.0 : (m < 7.5 ? 5.0 : 10.0));
  *out_lo = floor((lo - 0.02 * span) / step) * step;
  *out_hi = ceil((hi + 0.02 * span) / step) * step;
}

FILE *plot_csv_open(const char *kind, const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "grip plot %s: %s: cannot write: %s\n", kind, path, strerror(errno));
    return NULL;
  }
  fputs("panel,series,x,y,z\n", f);
  return f;
}

void plot_csv_series(FILE *f, const char *panel, const char *series, int n, const double *x,
                     const double *y, const double *z) {
  if (!f) return;
  for (int i = 0; i < n; ++i) {
    fprintf(f, "%s,%s,%.9g,%.9g,", panel, series, x[i], y[i]);
    if (z) fprintf(f, "%.9g", z[i]);
    fputc('\n', f);
  }
}

int plot_csv_close(const char *kind, const char *path, FILE *f) {
  if (!f) return 0;
  int bad = ferror(f);
  if (fclose(f) != 0 || bad) {
    fprintf(stderr, "grip plot %s: %s: write error\n", kind, path);
    return 1;
  }
  return 0;
}
