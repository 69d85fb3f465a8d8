/* The .tir loader on a corpus of good and broken files written here into a temporary folder:
 * each broken file must fail with the right "file:line: key: ..." message, leave the output
 * untouched, and never crash (run under ASan/UBSan too). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grip/mf_tyre.h"
#include "support_random.h"
#include "test.h"
#include "tir.h"

static char dir[256];

static const char *write_file(const char *name, const char *text, size_t len) {
  static char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (!f) return NULL;
  fwrite(text, 1, len, f);
  fclose(f);
  return path;
}

/* A small valid MF 6.1 file (LF line ends). */
static const char base_file[] =
    "[MDI_HEADER]\n"
    "FILE_TYPE = 'tir'\n"
    "[UNITS]\n"
    "LENGTH = 'meter'\n"
    "FORCE = 'newton'\n"
    "ANGLE = 'radians'\n"
    "MASS = 'kg'\n"
    "TIME = 'second'\n"
    "[MODEL]\n"
    "FITTYP = 61 $ version\n"
    "TYRESIDE = 'LEFT'\n"
    "LONGVL = 16.7\n"
    "[DIMENSION]\n"
    "UNLOADED_RADIUS = 0.3135\n"
    "[VERTICAL]\n"
    "FNOMIN = 4000\n"
    "VERTICAL_STIFFNESS = 209651.5\n"
    "[INERTIA]\n"
    "MASS = 9.3\n"
    "[LONGITUDINAL_COEFFICIENTS]\n"
    "PCX1 = 1.579\n"
    "PDX1 = 1.0422\n"
    "PKX1 = 21.69\n"
    "[LATERAL_COEFFICIENTS]\n"
    "PKY1 = -15.314\n"
    "PKY2 = 1.7044\n"
    "PKY4 = 1.9896\n";

/* Loads text as file name; expects failure at line with message containing what. */
static void expect_error(const char *name, const char *text, int line, const char *what) {
  const char *path = write_file(name, text, strlen(text));
  CHECK(path != NULL);
  if (!path) return;
  grip_mf_params p;
  memset(&p, 0xA5, sizeof p);
  grip_mf_params sentinel;
  memset(&sentinel, 0xA5, sizeof sentinel);
  grip_load_error err;
  grip_load_error_clear(&err);
  int rc = grip_tir_load(path, &p, &err);
  CHECK(rc != 0);
  CHECK(memcmp(&p, &sentinel, sizeof p) == 0); /* untouched on failure */
  char prefix[600];
  if (line > 0)
    snprintf(prefix, sizeof prefix, "%s:%d: ", path, line);
  else
    snprintf(prefix, sizeof prefix, "%s: ", path);
  int ok = strncmp(err.message, prefix, strlen(prefix)) == 0 && strstr(err.message, what) != NULL;
  if (!ok) fprintf(stderr, "  %s: got \"%s\", want prefix \"%s\" and \"%s\"\n", name, err.message, prefix, what);
  CHECK(ok);
  CHECK(err.line == line);
}

/* base_file with the line starting with key replaced by replacement (or appended). */
static char *with_line(const char *key, const char *replacement) {
  static char buf[8192];
  const char *at = strstr(base_file, key);
  if (!at) {
    snprintf(buf, sizeof buf, "%s%s", base_file, replacement);
    return buf;
  }
  const char *eol = strchr(at, '\n');
  snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - base_file), base_file, replacement, eol);
  return buf;
}

static int line_of(const char *text, const char *key) {
  const char *at = strstr(text, key);
  int n = 1;
  for (const char *c = text; c < at; ++c) n += *c == '\n';
  return n;
}

static void test_valid_variants(void) {
  grip_load_error err;
  grip_mf_params a, b;
  grip_load_error_clear(&err);
  const char *path = write_file("base.tir", base_file, strlen(base_file));
  CHECK(grip_tir_load(path, &a, &err) == 0);
  CHECK(a.version == GRIP_MF_61 && a.fittyp == 61);
  CHECK(a.FNOMIN == 4000.0 && a.PDX1 == 1.0422 && a.MASS1 == 9.3 && a.PKY4 == 1.9896);
  CHECK(a.tyreside_right == 0);
  /* Missing keys take the defaults: scaling factors 1, MFeval's non-zero defaults. */
  CHECK(a.LMUX == 1.0 && a.LKY == 1.0 && a.QSY7 == 0.85 && a.FZMAX == 10000.0);
  CHECK(a.PEX1 == 0.0 && a.RBX1 == 20.0);

  /* CRLF, tabs, '!' and '$' comments, quoted strings with spaces, sections in another order,
   * a [SHAPE] table, an unknown key, a "{...}" table: same parameters. */
  const char *variant =
      "! comment line\r\n"
      "[LATERAL_COEFFICIENTS]\r\n"
      "PKY1\t=\t-15.314\t$ tabbed\r\n"
      "PKY2 = 1.7044 ! bang comment\r\n"
      "PKY4 =1.9896\r\n"
      "[LONGITUDINAL_COEFFICIENTS]\r\n"
      "pcx1 = 1.579e0\r\n"
      "PDX1 = 1.0422\r\n"
      "PKX1 = 21.69\r\n"
      "UNKNOWN_THING = 'whatever'\r\n"
      "[SHAPE]\r\n"
      "{radial width}\r\n"
      " 1.0 0.0\r\n"
      " 0.9 1.0\r\n"
      "[MODEL]\r\n"
      "FUNCTION_NAME = 'TNO_DelftTyre_Adams_interface::TYR815 $ not a comment'\r\n"
      "FITTYP = 61\r\n"
      "TYRESIDE = \"RIGHT\"\r\n"
      "LONGVL = 16.7\r\n"
      "[DEFLECTION_LOAD_CURVE]\r\n"
      "{pen fz}\r\n"
      "0.0 0.0\r\n"
      "0.01 2000\r\n"
      "[VERTICAL]\r\n"
      "FNOMIN = 4000\r\n"
      "VERTICAL_STIFFNESS = 209651.5\r\n"
      "[INERTIA]\r\n"
      "MASS = 9.3\r\n"
      "[DIMENSION]\r\n"
      "UNLOADED_RADIUS = 0.3135\r\n"
      "[UNITS]\r\n"
      "LENGTH = 'meter'\r\n"
      "MASS = 'kg'\r\n";
  path = write_file("variant.tir", variant, strlen(variant));
  grip_load_error_clear(&err);
  int rc = grip_tir_load(path, &b, &err);
  if (rc) fprintf(stderr, "%s\n", err.message);
  CHECK(rc == 0);
  b.tyreside_right = 0;
  CHECK(memcmp(&a, &b, sizeof a) == 0);

  /* Units: the same tyre in mm, kN, kPa gives SI values and the same forces. */
  const char *units =
      "[UNITS]\nLENGTH = 'mm'\nFORCE = 'kN'\nANGLE = 'radian'\nMASS = 'gram'\nTIME = 'second'\n"
      "PRESSURE = 'kPa'\n"
      "[MODEL]\nFITTYP = 61\nLONGVL = 16700\n[DIMENSION]\nUNLOADED_RADIUS = 313.5\n"
      "[OPERATING_CONDITIONS]\nINFLPRES = 250\nNOMPRES = 220\n"
      "[VERTICAL]\nFNOMIN = 4\nVERTICAL_STIFFNESS = 0.2096515\n[INERTIA]\nMASS = 9300\n"
      "[VERTICAL_FORCE_RANGE]\nFZMIN = 0.1\nFZMAX = 10\n"
      "[LONGITUDINAL_COEFFICIENTS]\nPCX1 = 1.579\nPDX1 = 1.0422\nPKX1 = 21.69\n"
      "[LATERAL_COEFFICIENTS]\nPKY1 = -15.314\nPKY2 = 1.7044\nPKY4 = 1.9896\n";
  path = write_file("units.tir", units, strlen(units));
  grip_load_error_clear(&err);
  rc = grip_tir_load(path, &b, &err);
  if (rc) fprintf(stderr, "%s\n", err.message);
  CHECK(rc == 0);
  CHECK_REL(b.UNLOADED_RADIUS, 0.3135, 1e-12);
  CHECK_REL(b.FNOMIN, 4000.0, 1e-12);
  CHECK_REL(b.VERTICAL_STIFFNESS, 209651.5, 1e-12);
  CHECK_REL(b.LONGVL, 16.7, 1e-12);
  CHECK_REL(b.MASS1, 9.3, 1e-12);
  CHECK_REL(b.INFLPRES, 250000.0, 1e-12);
  CHECK_REL(b.FZMAX, 10000.0, 1e-12);
  CHECK(b.PDX1 == 1.0422); /* dimensionless: unchanged */
  grip_mf_output oa, ob;
  a.INFLPRES = 250000.0;
  grip_mf_evaluate_full(&a, 3000, 0.05, 0.04, 0.01, 20, 0, &oa);
  grip_mf_evaluate_full(&b, 3000, 0.05, 0.04, 0.01, 20, 0, &ob);
  CHECK_REL(ob.fx, oa.fx, 1e-9);
  CHECK_REL(ob.fy, oa.fy, 1e-9);
  CHECK_REL(ob.mz, oa.mz, 1e-9);
  CHECK_REL(ob.my, oa.my, 1e-9);

  /* [MODEL] without FITTYP is a PAC2002 (MF 5.2) file. */
  char *nofit = with_line("FITTYP", "USE_MODE = 4");
  path = write_file("nofittyp.tir", nofit, strlen(nofit));
  CHECK(grip_tir_load(path, &b, &err) == 0);
  CHECK(b.version == GRIP_MF_52 && b.fittyp == 0);
  /* FITTYP 6 and 21: MF 5.2; 62: MF 6.2. */
  char *six = with_line("FITTYP", "FITTYP = 6");
  path = write_file("six.tir", six, strlen(six));
  CHECK(grip_tir_load(path, &b, &err) == 0 && b.version == GRIP_MF_52);
  char *t62 = with_line("FITTYP", "FITTYP = 62");
  path = write_file("t62.tir", t62, strlen(t62));
  CHECK(grip_tir_load(path, &b, &err) == 0 && b.version == GRIP_MF_62);
}

static void test_broken(void) {
  int l_pdx1 = line_of(base_file, "PDX1");
  int l_fnomin = line_of(base_file, "FNOMIN");
  int l_fittyp = line_of(base_file, "FITTYP");
  expect_error("abc.tir", with_line("PDX1", "PDX1 = abc"), l_pdx1, "PDX1: 'abc' is not a number");
  expect_error("nan.tir", with_line("PDX1", "PDX1 = NaN"), l_pdx1, "PDX1: 'NaN' is not a finite number");
  expect_error("inf.tir", with_line("PDX1", "PDX1 = -inf"), l_pdx1, "is not a finite number");
  expect_error("huge.tir", with_line("PDX1", "PDX1 = 1e999"), l_pdx1, "is not a finite number");
  expect_error("novalue.tir", with_line("PDX1", "PDX1 =   $ nothing"), l_pdx1, "PDX1: missing value");
  expect_error("twovalues.tir", with_line("PDX1", "PDX1 = 1.0 2.0"), l_pdx1, "unexpected text '2.0'");
  int l_radius = line_of(base_file, "UNLOADED_RADIUS");
  expect_error("fnomin0.tir", with_line("FNOMIN", "FNOMIN = 0"), l_fnomin,
               "FNOMIN: 0 N is out of range (allowed 10 .. 1e+06 N)");
  expect_error("fnominneg.tir", with_line("FNOMIN", "FNOMIN = -4000"), l_fnomin,
               "FNOMIN: -4000 N is out of range (allowed 10 .. 1e+06 N)");
  expect_error("fnomintiny.tir", with_line("FNOMIN", "FNOMIN = 1e-300"), l_fnomin,
               "FNOMIN: 1e-300 N is out of range (allowed 10 .. 1e+06 N)");
  expect_error("radius.tir", with_line("UNLOADED_RADIUS", "UNLOADED_RADIUS = -0.3"), l_radius,
               "UNLOADED_RADIUS: -0.3 m is out of range (allowed 0.05 .. 3 m)");
  expect_error("radiushuge.tir", with_line("UNLOADED_RADIUS", "UNLOADED_RADIUS = 1e300"), l_radius,
               "UNLOADED_RADIUS: 1e+300 is out of range (allowed -1e+09 .. 1e+09 in SI units)");
  expect_error("radius5.tir", with_line("UNLOADED_RADIUS", "UNLOADED_RADIUS = 5"), l_radius,
               "UNLOADED_RADIUS: 5 m is out of range (allowed 0.05 .. 3 m)");
  /* The range applies in SI: 300 mm is fine, 3000 mm is not. */
  expect_error("radiusmm.tir", with_line("LENGTH", "LENGTH = 'mm'"), l_radius,
               "UNLOADED_RADIUS: 0.0003135 m is out of range (allowed 0.05 .. 3 m)");
  expect_error("pres.tir", with_line("FNOMIN", "FNOMIN = 4000\nNOMPRES = 5"), l_fnomin + 1,
               "NOMPRES: 5 Pa is out of range (allowed 1000 .. 1e+07 Pa)");
  expect_error("stiff.tir", with_line("VERTICAL_STIFFNESS", "VERTICAL_STIFFNESS = 0"),
               line_of(base_file, "VERTICAL_STIFFNESS"),
               "VERTICAL_STIFFNESS: 0 N/m is out of range (allowed 1000 .. 1e+09 N/m)");
  expect_error("coef.tir", with_line("PKY4", "PKY4 = -3e12"), line_of(base_file, "PKY4"),
               "PKY4: -3e+12 is out of range (allowed -1e+09 .. 1e+09 in SI units)");
  /* No grip: zero friction scaling or coefficient (MF would divide by zero: NaN). */
  expect_error("lmuy0.tir", with_line("PKY4", "PKY4 = 1.9896\nLMUY = 0"), line_of(base_file, "PKY4") + 1,
               "LMUY: the tyre's lateral peak friction at FNOMIN is 0 (PDY1 times LMUY and the "
               "pressure terms; allowed 0.05 .. 10)");
  expect_error("pdx1.tir", with_line("PDX1", "PDX1 = 0.01"), l_pdx1,
               "PDX1: the tyre's longitudinal peak friction at FNOMIN is 0.01");
  expect_error("pdx1neg.tir", with_line("PDX1", "PDX1 = -1"), l_pdx1,
               "PDX1: the tyre's longitudinal peak friction at FNOMIN is -1");
  expect_error("lmux.tir", with_line("PDX1", "PDX1 = 1.0422\nLMUX = 20"), l_pdx1 + 1,
               "LMUX: the tyre's longitudinal peak friction at FNOMIN is 20.844");
  /* A key given twice names both lines (car files do the same). */
  expect_error("twice.tir", with_line("PKX1", "PKX1 = 21.69\nPDX1 = 1.1"), line_of(base_file, "PKX1") + 1,
               "PDX1: given twice (first on line");
  expect_error("twice_fittyp.tir", with_line("TYRESIDE", "TYRESIDE = 'LEFT'\nFITTYP = 61"),
               line_of(base_file, "TYRESIDE") + 1, "FITTYP: given twice (first on line 10)");
  expect_error("twice_side.tir", with_line("LONGVL", "LONGVL = 16.7\nTYRESIDE = 'RIGHT'"),
               line_of(base_file, "LONGVL") + 1, "TYRESIDE: given twice (first on line 11)");
  expect_error("twice_unit.tir", with_line("TIME", "TIME = 'second'\nLENGTH = 'mm'"),
               line_of(base_file, "TIME") + 1, "LENGTH: given twice (first on line 4)");
  /* FITTYP far outside int (this was undefined behaviour: (int) of 4e44). */
  expect_error("fittyp_huge.tir", with_line("FITTYP", "FITTYP = 4e44"), l_fittyp,
               "FITTYP: unsupported Magic Formula version 4e+44");
  expect_error("fittyp_neg.tir", with_line("FITTYP", "FITTYP = -2e126"), l_fittyp,
               "FITTYP: unsupported Magic Formula version -2e+126");
  expect_error("fittyp5.tir", with_line("FITTYP", "FITTYP = 5"), l_fittyp, "unsupported Magic Formula version 5");
  expect_error("fittyp61_5.tir", with_line("FITTYP", "FITTYP = 61.5"), l_fittyp, "unsupported");
  expect_error("quote.tir", with_line("TYRESIDE", "TYRESIDE = 'LEFT"), line_of(base_file, "TYRESIDE"),
               "TYRESIDE: unterminated quoted string");
  expect_error("noeq.tir", with_line("PDX1", "PDX1 1.0422"), l_pdx1, "'PDX1 1.0422': expected KEY = VALUE");
  expect_error("nokey.tir", with_line("PDX1", " = 1.0422"), l_pdx1, "missing key before '='");
  expect_error("badkey.tir", with_line("PDX1", "PD-X1 = 1"), l_pdx1, "bad key");
  expect_error("header.tir", with_line("[VERTICAL]", "[VERTICAL"), line_of(base_file, "[VERTICAL]"),
               "unterminated section header");
  expect_error("unit.tir", with_line("LENGTH", "LENGTH = 'furlong'"), line_of(base_file, "LENGTH"),
               "LENGTH: unknown unit 'furlong'");
  expect_error("angle.tir", with_line("ANGLE", "ANGLE = 'deg'"), line_of(base_file, "ANGLE"),
               "ANGLE: unknown unit 'deg' (allowed: radian(s) only)");
  expect_error("range.tir", with_line("PKY4", "PKY4 = 2\n[SLIP_ANGLE_RANGE]\nALPMIN = 0.5\nALPMAX = -0.5"),
               line_of(base_file, "PKY4") + 3, "ALPMAX: -0.5 is below ALPMIN");
  expect_error("beforesection.tir", "FITTYP = 61\n[MODEL]\n", 1, "FITTYP: key before any [SECTION] header");

  /* Missing [MODEL]: no line to point at. */
  char nomodel[4096];
  snprintf(nomodel, sizeof nomodel, "%s", base_file);
  char *m = strstr(nomodel, "[MODEL]");
  memcpy(m, "[MODUL]", 7);
  expect_error("nomodel.tir", nomodel, 0, "[MODEL]: section missing");
  expect_error("empty.tir", "", 0, "[MODEL]: section missing");

  /* Truncated in the middle of "PKX1 = 21.69": cut right after '='. */
  const char *cut = strstr(base_file, "PKX1 = ") + 6;
  char trunc[4096];
  snprintf(trunc, sizeof trunc, "%.*s", (int)(cut - base_file), base_file);
  expect_error("truncated.tir", trunc, line_of(base_file, "PKX1"), "PKX1: missing value");
  /* Truncated inside a section header. */
  const char *cut2 = strstr(base_file, "[LATERAL") + 5;
  snprintf(trunc, sizeof trunc, "%.*s", (int)(cut2 - base_file), base_file);
  expect_error("truncated2.tir", trunc, line_of(base_file, "[LATERAL"), "unterminated section header");

  /* A NUL byte. */
  char nul[64] = "[MODEL]\nFITTYP = 61\nX\0Y = 1\n";
  const char *path = write_file("nul.tir", nul, 27);
  grip_mf_params p;
  grip_load_error err;
  grip_load_error_clear(&err);
  CHECK(grip_tir_load(path, &p, &err) != 0);
  CHECK(strstr(err.message, ":3: NUL byte") != NULL);

  /* A file that does not exist. */
  grip_load_error_clear(&err);
  CHECK(grip_tir_load("/nonexistent/dir/x.tir", &p, &err) != 0);
  CHECK(strstr(err.message, "/nonexistent/dir/x.tir: cannot open") == err.message);
}

/* base_file with extra lines appended (a new section, so no key repeats one of base_file's). */
static char *with_extra(const char *lines) {
  static char buf[8192];
  snprintf(buf, sizeof buf, "%s[EXTRA_FOR_TEST]\n%s", base_file, lines);
  return buf;
}

/* Loads text from memory; returns 0 when accepted (params in *p), else the error in *err. */
static int parse_text(const char *text, grip_mf_params *p, grip_load_error *err) {
  grip_load_error_clear(err);
  return grip_tir_parse(text, strlen(text), "mem.tir", p, err);
}

/* The model's one exponential, exp(PKX3 * dfz) of the slip stiffness, overflowed for the fuzzer's
 * PKX3 = -90141 (tests/fuzz/corpus/tir/pkx3-exp-overflow.tir): Mz was NaN at a quarter of FNOMIN.
 * The loader bounds the exponent at both ends of the load range, dfz = -1 (Fz = 0) and
 * FZMAX / FNOMIN - 1; base_file has FNOMIN 4000. */
static void test_load_exponent(void) {
  int l_base_end = line_of(base_file, "PKY4") + 2; /* the first line after [EXTRA_FOR_TEST] */
  expect_error("pkx3_fuzz.tir", with_extra("PKX3 = -90141\n"), l_base_end,
               "PKX3: -90141 makes the slip stiffness's load factor exp(PKX3 * dfz) reach "
               "exp(-135212) at Fz = FZMAX (dfz runs -1 .. 1.5 over Fz = 0 .. FZMAX; allowed "
               "|PKX3 * dfz| <= 10)");
  /* FZMAX 12000: dfz runs -1 .. 2, so PKX3 may be -5 .. 5 (the FZMAX end binds). */
  grip_mf_params p;
  grip_load_error err;
  CHECK(parse_text(with_extra("FZMAX = 12000\nPKX3 = 5\n"), &p, &err) == 0);
  CHECK(p.PKX3 == 5.0);
  CHECK(parse_text(with_extra("FZMAX = 12000\nPKX3 = -5\n"), &p, &err) == 0);
  expect_error("pkx3_high.tir", with_extra("FZMAX = 12000\nPKX3 = 5.001\n"), l_base_end + 1,
               "PKX3: 5.001 makes the slip stiffness's load factor exp(PKX3 * dfz) reach "
               "exp(10.002) at Fz = FZMAX (dfz runs -1 .. 2");
  /* FZMAX 6000: dfz runs -1 .. 0.5, so the Fz = 0 end binds: PKX3 may be -10 .. 10. */
  CHECK(parse_text(with_extra("FZMAX = 6000\nPKX3 = 10\n"), &p, &err) == 0);
  CHECK(parse_text(with_extra("FZMAX = 6000\nPKX3 = -10\n"), &p, &err) == 0);
  expect_error("pkx3_empty.tir", with_extra("FZMAX = 6000\nPKX3 = 10.5\n"), l_base_end + 1,
               "PKX3: 10.5 makes the slip stiffness's load factor exp(PKX3 * dfz) reach "
               "exp(-10.5) at Fz = 0 (dfz runs -1 .. 0.5");
  /* At the limit the slip stiffness at FZMAX is Fz * PKX1 * exp(10) (PKX2 = 0, scaling 1,
   * nominal pressure 220 kPa = INFLPRES): finite, 22026 times its zero-exponent value. */
  CHECK(parse_text(with_extra("FZMAX = 12000\nPKX3 = 5\n"), &p, &err) == 0);
  grip_mf_output o;
  grip_mf_evaluate_full(&p, 12000.0, 0.0, 0.0, 0.0, 20.0, 0.0, &o);
  CHECK_REL(o.kxk, 12000.0 * 21.69 * exp(10.0), 1e-12);
  grip_mf_evaluate_full(&p, 0.0, 0.05, 0.1, 0.0, 20.0, 0.0, &o);
  CHECK(isfinite(o.fx) && isfinite(o.fy) && isfinite(o.mz));

  /* The rolling resistance's load exponent: a negative one grows without bound as Fz -> 0. */
  expect_error("qsy7.tir", with_extra("QSY7 = -0.5\n"), l_base_end,
               "QSY7: -0.5 is out of range (allowed 0 .. 10)");
  expect_error("qsy8.tir", with_extra("QSY8 = 11\n"), l_base_end,
               "QSY8: 11 is out of range (allowed -10 .. 10)");
}

/* The last line of defence: a combination no single range forbids, but which makes a force or
 * moment not finite in the operating range, is refused; the error names the key set last whose
 * default alone mends it. The cornering stiffness's load term atan((Fz/Fz0) / ((PKY2 + PKY5 γ²)
 * (1 + PPY2 dpi))) is 0/0 = NaN at Fz = 0 when that denominator is 0. */
static void test_finite_everywhere(void) {
  int l_pky2 = line_of(base_file, "PKY2");
  /* The first point of the check's grid that fails: Fz = 0 and the lower ends of the default
   * ranges (KPUMIN -1.5, ALPMIN -1.5 rad, CAMMIN -0.175 rad, PRESMIN 10 kPa), at half of
   * VXLOW = 1 m/s. */
  expect_error("pky2_zero.tir", with_line("PKY2", "PKY2 = 0"), l_pky2,
               "PKY2: the Magic Formula's forces or moments are not finite at Fz = 0 N, kappa = -1.5, "
               "alpha = -1.5 rad, gamma = -0.175 rad, vx = 0.5 m/s, pressure = 10000 Pa (its "
               "default would mend it)");
  /* PKY2 + PKY5 γ² = -0.25 + 1 · 0.5² = 0 at the camber limit CAMMIN = -0.5; any of the three
   * keys' defaults mends it, and CAMMIN is set last. */
  expect_error("pky5_camber.tir",
               with_line("PKY2", "PKY2 = -0.25\nPKY5 = 1\n[INCLINATION_ANGLE_RANGE]\nCAMMIN = -0.5\n"
                                 "[LATERAL_COEFFICIENTS]"),
               l_pky2 + 3, "CAMMIN: the Magic Formula's forces or moments are not finite at Fz = 0 N, "
                           "kappa = -1.5, alpha = -1.5 rad, gamma = -0.5 rad");
  /* PKY2 = 0 and, at PRESMIN = 110 kPa against NOMPRES 220 kPa, 1 + PPY2 · dpi = 1 + 2 · (-0.5)
   * = 0: two faults at one point, so no single key's default mends it and no line is named. */
  expect_error("two_faults.tir",
               with_line("PKY2", "PKY2 = 0\nPPY2 = 2\n[PRESSURE_RANGE]\nPRESMIN = 110000\n"
                                 "[LATERAL_COEFFICIENTS]"),
               0, "the Magic Formula's forces or moments are not finite at Fz = 0 N, kappa = -1.5, "
                  "alpha = -1.5 rad, gamma = -0.175 rad, vx = 0.5 m/s, pressure = 110000 Pa (no "
                  "single coefficient's default mends it)");
  /* Each fault alone is found too, and named. */
  expect_error("ppy2_alone.tir",
               with_line("PKY2", "PKY2 = 1.7044\nPPY2 = 2\n[PRESSURE_RANGE]\nPRESMIN = 110000\n"
                                 "[LATERAL_COEFFICIENTS]"),
               l_pky2 + 1, "PPY2: the Magic Formula's forces or moments are not finite at Fz = 0 N");
}

/* Every coefficient the loader reads, for the random files below. */
static const char *const mf_key_names[] = {
#define GRIP_MF_PARAM(name, def, dim, doc) #name,
#include "grip/mf_params.def"
#undef GRIP_MF_PARAM
};

/* The loader's promise, over its whole space: every file it accepts gives finite forces and
 * moments at any operating point, not only on its own check's grid. Random files set 1 to 40
 * coefficients the base file lacks to 0 or ±10^(-3 .. 9) (the largest magnitude allowed), and
 * each accepted one is evaluated at 150 random points: loads from 0 to 100 FZMAX, slip ratios
 * to ±5, slip angles to ±1.6 rad, cambers to ±0.3 rad, speeds to ±60 m/s (a third of them below
 * 2 m/s), pressures 0 (INFLPRES) or 10 kPa .. 1 MPa. Against the loader before its exponent,
 * QSY7, QSY8 and finiteness checks, this fails: it met PKX3 = -2.4e7, QSY8 = 1.8e4 and
 * QSY7 = 4.8e7 among these 1,500 files. */
static void test_accepted_files_are_finite(void) {
  enum { FILES = 1500, POINTS = 150 };
  unsigned long long rng = 0x9E3779B97F4A7C15ull;
  const int key_count = (int)(sizeof mf_key_names / sizeof mf_key_names[0]);
  static char lines[4096];
  int accepted = 0, bad_points = 0;
  for (int f = 0; f < FILES; ++f) {
    size_t n = 0;
    lines[0] = '\0';
    int count = 1 + (int)(support_uniform(&rng) * 40.0);
    for (int k = 0; k < count; ++k) {
      const char *key = mf_key_names[(int)(support_uniform(&rng) * key_count)];
      char pattern[64];
      snprintf(pattern, sizeof pattern, "\n%s =", key);
      double zero = support_uniform(&rng), exponent = -3.0 + 12.0 * support_uniform(&rng);
      double sign = support_uniform(&rng) < 0.5 ? -1.0 : 1.0;
      double mag = zero < 0.1 ? 0.0 : sign * pow(10.0, exponent);
      if (strstr(base_file, pattern) || strstr(lines, pattern + 1) || n + 64 > sizeof lines) continue;
      n += (size_t)snprintf(lines + n, sizeof lines - n, "%s = %.17g\n", key, mag);
    }
    grip_mf_params p;
    grip_load_error err;
    if (parse_text(with_extra(lines), &p, &err) != 0) {
      CHECK(strncmp(err.message, "mem.tir", 7) == 0);
      continue;
    }
    ++accepted;
    for (int q = 0; q < POINTS; ++q) {
      double u[12]; /* drawn in order, so that every compiler draws the same point */
      for (int k = 0; k < 12; ++k) u[k] = support_uniform(&rng);
      double fz = u[0] < 0.1 ? 0.0 : u[1] * p.FZMAX * (u[2] < 0.1 ? 100.0 : 3.0);
      double kappa = (2.0 * u[3] - 1.0) * (u[4] < 0.2 ? 5.0 : 0.3);
      double alpha = (2.0 * u[5] - 1.0) * (u[6] < 0.2 ? 1.6 : 0.3);
      double gamma = (2.0 * u[7] - 1.0) * 0.3;
      double vx = (2.0 * u[8] - 1.0) * (u[9] < 0.3 ? 2.0 : 60.0);
      double pressure = u[10] < 0.5 ? 0.0 : 1e4 + u[11] * 1e6;
      grip_mf_output o;
      grip_mf_evaluate_full(&p, fz, kappa, alpha, gamma, vx, pressure, &o);
      if (!(isfinite(o.fx) && isfinite(o.fy) && isfinite(o.mx) && isfinite(o.my) && isfinite(o.mz))) {
        if (++bad_points <= 3)
          fprintf(stderr, "  not finite at Fz %g kappa %g alpha %g gamma %g vx %g p %g with:\n%s", fz,
                  kappa, alpha, gamma, vx, pressure, lines);
        break;
      }
    }
  }
  printf("  random files: %d accepted of %d\n", accepted, FILES);
  CHECK(accepted >= FILES / 20); /* the property is not tested on an empty set */
  CHECK(bad_points == 0);
}

/* Every prefix of a real file and random corruptions: success or a clean error, never a crash
 * (the ASan/UBSan build checks the "never"). */
static void test_fuzz(void) {
  FILE *f = fopen(GRIP_SOURCE_DIR "/tests/data/mfeval/MagicFormula61_Paramerters.tir", "rb");
  static char text[65536];
  size_t len = 0;
  if (f) {
    len = fread(text, 1, sizeof text, f);
    fclose(f);
  } else {
    len = strlen(base_file);
    memcpy(text, base_file, len);
  }
  int ok = 0, failed = 0, bad_message = 0;
  grip_mf_params p;
  grip_load_error err;
  for (size_t cut = 0; cut <= len; cut += 7) {
    grip_load_error_clear(&err);
    if (grip_tir_parse(text, cut, "cut", &p, &err) == 0) {
      ++ok;
    } else {
      ++failed;
      if (strncmp(err.message, "cut:", 4) != 0) ++bad_message;
    }
  }
  unsigned state = 12345u;
  static char copy[65536];
  const char junk[] = "=$![]'\"{}\r\n\t x9.-eE";
  for (int round = 0; round < 2000; ++round) {
    memcpy(copy, text, len);
    for (int k = 0; k < 4; ++k) {
      state = state * 1103515245u + 12345u;
      size_t at = (state >> 8) % (len ? len : 1);
      state = state * 1103515245u + 12345u;
      copy[at] = junk[(state >> 8) % (sizeof junk - 1)];
    }
    grip_load_error_clear(&err);
    if (grip_tir_parse(copy, len, "fuzz", &p, &err) == 0) {
      ++ok;
      grip_mf_output o;
      grip_mf_evaluate_full(&p, p.FNOMIN, 0.05, 0.05, 0.01, p.LONGVL, 0, &o);
    } else {
      ++failed;
      if (strncmp(err.message, "fuzz:", 5) != 0) ++bad_message;
    }
  }
  printf("  fuzz: %d loaded, %d rejected\n", ok, failed);
  CHECK(ok > 0 && failed > 0);
  CHECK(bad_message == 0);
}

int main(void) {
  snprintf(dir, sizeof dir, "%s", "/tmp/grip_tir_XXXXXX");
  if (!mkdtemp(dir)) TEST_SKIP("cannot create a temporary folder");
  RUN_TEST(test_valid_variants);
  RUN_TEST(test_broken);
  RUN_TEST(test_load_exponent);
  RUN_TEST(test_finite_everywhere);
  RUN_TEST(test_accepted_files_are_finite);
  RUN_TEST(test_fuzz);
  /* Clean up the corpus. */
  char cmd[400];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
  return TEST_RESULT();
}
