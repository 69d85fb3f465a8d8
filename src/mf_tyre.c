/* The full Magic Formula tyre model (MF 5.2 / 6.1 / 6.2), steady state, combined slip.
 *
 * Equation numbers refer to Pacejka, "Tire and Vehicle Dynamics", 3rd ed. (2012), appendix 3
 * ("4.Exx"), and to Besselink, Schmeitz, Pacejka, "An improved Magic Formula/Swift tyre model
 * that can handle inflation pressure changes" (2010) ("Axx"), with the modifications that MFeval
 * 4.0 documents as needed to match TNO's solver (noted where they apply). Evaluation mode: limit
 * checks on, alpha and gamma used as given (no alpha star), turn slip off. */
#include "grip/mf_tyre.h"
#include "vehicle_internal.h"

#include <math.h>
#include <stddef.h>

#define MF_EPS 1e-6 /* singularity guard of eqn (4.E6a) */

/* sign() with sign(0) = 0. */
static double sgn(double x) { return (double)((x > 0.0) - (x < 0.0)); }
/* sign() with sign(0) = 1, used where a zero would divide by zero. */
static double sgn1(double x) { return x < 0.0 ? -1.0 : 1.0; }
static double clampd(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }

/* The Magic Formula sine curve D*sin(C*atan(B*x - E*(B*x - atan(B*x)))) without shifts. */
static double mf_sin(double b, double c, double d, double e, double x) {
  double bx = b * x;
  return d * sin(c * atan(bx - e * (bx - atan(bx))));
}
/* Its cosine variant used by the weighting functions and the trail. */
static double mf_cos(double b, double c, double e, double x) {
  double bx = b * x;
  return cos(c * atan(bx - e * (bx - atan(bx))));
}

/* d/dx of mf_sin at x. */
static double mf_sin_dx(double b, double c, double d, double e, double x) {
  double bx = b * x;
  double v = bx - e * (bx - atan(bx));
  double w = 1.0 - e + e / (1.0 + bx * bx); /* dv/d(bx) */
  return d * cos(c * atan(v)) * c / (1.0 + v * v) * b * w;
}
/* d/db of mf_cos at x. */
static double mf_cos_db(double b, double c, double e, double x) {
  double bx = b * x;
  double v = bx - e * (bx - atan(bx));
  double w = 1.0 - e + e / (1.0 + bx * bx);
  return -sin(c * atan(v)) * c / (1.0 + v * v) * x * w;
}
/* d/dz of cos(atan(z)) = 1/sqrt(1 + z^2). */
static double cos_atan_dz(double z) {
  double q = 1.0 + z * z;
  return -z / (q * sqrt(q));
}

void grip_mf_default_params(grip_mf_params *p) {
  p->version = GRIP_MF_61;
  p->fittyp = 61;
  p->tyreside_right = 0;
#define GRIP_MF_PARAM(name, def, dim, doc) p->name = (def);
#include "grip/mf_params.def"
#undef GRIP_MF_PARAM
}

/* Inputs after the limit checks, and the quantities every part of the model shares. */
typedef struct mf_state {
  double fz;        /* N, load saturated to FZMAX */
  double fz_low;    /* N, load raised to FZMIN (aligning moment only), 0 when fz <= 0 */
  double ufz;       /* N, load as given (>= 0) */
  double kappa;     /* slip ratio after low-speed reduction and saturation */
  double ukappa;    /* slip ratio as given */
  double alpha;     /* rad, slip angle after low-speed reduction and saturation */
  double gamma;     /* rad, saturated inclination */
  double vx;        /* m/s, forward speed as given */
  double p;         /* Pa, saturated pressure */
  int low_speed;    /* |vx| <= VXLOW */
  double smooth;    /* low-speed fade factor 0..1 (1 above VXLOW) */
  double fz0p;      /* N, LFZO*FNOMIN (4.E1) */
  double dfz;       /* normalised load change (4.E2a) */
  double dpi;       /* normalised pressure change (4.E2b) */
  double alpha_p;   /* rad, alpha' of (4.E6) */
  double lmux;      /* LMUX* = LMUX' (LMUV = 0, Amu = 1, as MFeval) times the friction scale */
  double lmuy;      /* LMUY* = LMUY', likewise */
  double dkappa;    /* d(kappa used)/d(kappa given): the low-speed factor, 0 when saturated */
  double dalpha;    /* d(alpha used)/d(alpha given): 1, or 0 when saturated */
  int alpha_reduced; /* the low-speed alpha reduction is active (slope by finite differences) */
} mf_state;

static void mf_prepare(const grip_mf_params *p, double fz, double kappa, double alpha,
                       double gamma, double vx, double pressure, double friction_scale,
                       mf_state *s) {
  if (!(fz > 0.0)) fz = 0.0;
  s->ufz = fz;
  s->ukappa = kappa;
  s->vx = vx;
  double press = pressure != 0.0 ? pressure : p->INFLPRES;

  /* Low-speed model: below VXLOW the slips are reduced linearly and the shifts fade out with a
   * cosine (MFeval). */
  s->low_speed = 0;
  s->smooth = 1.0;
  s->dkappa = 1.0;
  s->dalpha = 1.0;
  s->alpha_reduced = 0;
  if (p->VXLOW > 0.0 && fabs(vx) <= p->VXLOW) {
    s->low_speed = 1;
    double w = 0.5 * (1.0 + cos(GRIP_PI * vx / p->VXLOW));
    s->smooth = 1.0 - w;
    kappa *= fabs(vx / p->VXLOW);
    s->dkappa = fabs(vx / p->VXLOW);
  } else if (p->VXLOW <= 0.0 && vx == 0.0) {
    s->low_speed = 1;
    s->smooth = 0.0;
    kappa = 0.0;
    s->dkappa = 0.0;
  }
  double speed_sum = fabs(vx) + fabs(tan(alpha) * vx);
  if (speed_sum < p->VXLOW) {
    alpha *= speed_sum / p->VXLOW;
    s->alpha_reduced = 1;
  }
  if (alpha < p->ALPMIN || alpha > p->ALPMAX) s->dalpha = 0.0;
  if (kappa < p->KPUMIN || kappa > p->KPUMAX) s->dkappa = 0.0;

  /* Limit checks: saturate to the property file's ranges. */
  s->alpha = clampd(alpha, p->ALPMIN, p->ALPMAX);
  s->gamma = clampd(gamma, p->CAMMIN, p->CAMMAX);
  s->fz = fz > p->FZMAX ? p->FZMAX : fz;
  s->fz_low = s->fz < p->FZMIN ? p->FZMIN : s->fz;
  if (s->fz <= 0.0) s->fz_low = 0.0;
  s->p = clampd(press, p->PRESMIN, p->PRESMAX);
  s->kappa = clampd(kappa, p->KPUMIN, p->KPUMAX);

  s->fz0p = p->LFZO * p->FNOMIN;
  s->dfz = (s->fz - s->fz0p) / s->fz0p;
  s->dpi = (s->p - p->NOMPRES) / p->NOMPRES;

  /* alpha' = acos(Vcx / Vc') with Vcy = tan(alpha)*|Vcx| (4.E6, 4.E6a). */
  double vcy = tan(s->alpha) * fabs(vx);
  double vc = sqrt(vx * vx + vcy * vcy);
  s->alpha_p = acos(clampd(vx / (vc + MF_EPS), -1.0, 1.0));

  if (!(friction_scale > 1e-6)) friction_scale = 1e-6;
  s->lmux = p->LMUX * friction_scale;
  s->lmuy = p->LMUY * friction_scale;
}

/* Pure longitudinal force (4.E9 .. 4.E18). */
static double mf_fx0(const grip_mf_params *p, const mf_state *s, double *mux_out,
                     double *kxk_out, double *dfx0_dkappa) {
  double fz = s->fz, dfz = s->dfz, dpi = s->dpi, g = s->gamma;
  double cx = p->PCX1 * p->LCX;
  double mux = (p->PDX1 + p->PDX2 * dfz) * (1.0 + p->PPX3 * dpi + p->PPX4 * dpi * dpi) *
               (1.0 - p->PDX3 * g * g) * s->lmux;
  if (fz == 0.0) mux = 0.0;
  double dx = mux * fz;
  double kxk = fz * (p->PKX1 + p->PKX2 * dfz) * exp(p->PKX3 * dfz) *
               (1.0 + p->PPX1 * dpi + p->PPX2 * dpi * dpi) * p->LKX;
  double bx = kxk / (cx * dx + MF_EPS * sgn1(dx));
  double shx = (p->PHX1 + p->PHX2 * dfz) * p->LHX;
  double svx = fz * (p->PVX1 + p->PVX2 * dfz) * p->LVX * s->lmux;
  if (s->low_speed) {
    shx *= s->smooth;
    svx *= s->smooth;
  }
  double kx = s->kappa + shx;
  double ex = (p->PEX1 + p->PEX2 * dfz + p->PEX3 * dfz * dfz) * (1.0 - p->PEX4 * sgn(kx)) * p->LEX;
  if (ex > 1.0) ex = 1.0;
  double fx0 = mf_sin(bx, cx, dx, ex, kx) + svx;
  if (dfx0_dkappa) *dfx0_dkappa = (s->vx < 0.0 ? -1.0 : 1.0) * mf_sin_dx(bx, cx, dx, ex, kx);
  if (s->vx < 0.0) fx0 = -fx0;
  if (mux_out) *mux_out = mux;
  if (kxk_out) *kxk_out = kxk;
  return fx0;
}

typedef struct mf_fy0_result {
  double fy0, muy, kya, shy, svy, by, cy;
  double dfy0_dalpha; /* slope of fy0 in the slip angle used */
} mf_fy0_result;

/* Pure lateral force (4.E19 .. 4.E30) at inclination gamma (the caller passes 0 for the
 * gamma = 0 evaluations the aligning moment needs). MF 5.2 uses its own camber terms. */
static void mf_fy0(const grip_mf_params *p, const mf_state *s, double g, mf_fy0_result *r) {
  double fz = s->fz, dfz = s->dfz, dpi = s->dpi, fz0p = s->fz0p;
  double kya = p->PKY1 * fz0p * (1.0 + p->PPY1 * dpi) * (1.0 - p->PKY3 * fabs(g)) *
               sin(p->PKY4 * atan((fz / fz0p) / ((p->PKY2 + p->PKY5 * g * g) * (1.0 + p->PPY2 * dpi)))) *
               p->LKY;
  double svyg = fz * (p->PVY3 + p->PVY4 * dfz) * g * p->LKYC * s->lmuy;
  double shy;
  if (p->version == GRIP_MF_52) {
    shy = (p->PHY1 + p->PHY2 * dfz) * p->LHY + p->PHY3 * g * p->LKYC;
  } else {
    double kyg0 = fz * (p->PKY6 + p->PKY7 * dfz) * (1.0 + p->PPY5 * dpi) * p->LKYC;
    shy = (p->PHY1 + p->PHY2 * dfz) * p->LHY + (kyg0 * g - svyg) / (kya + MF_EPS * sgn1(kya));
  }
  double svy = fz * (p->PVY1 + p->PVY2 * dfz) * p->LVY * s->lmuy + svyg;
  if (s->low_speed) {
    svy *= s->smooth;
    shy *= s->smooth;
  }
  double ay = s->alpha + shy;
  double cy = p->PCY1 * p->LCY;
  double muy = (p->PDY1 + p->PDY2 * dfz) * (1.0 + p->PPY3 * dpi + p->PPY4 * dpi * dpi) *
               (1.0 - p->PDY3 * g * g) * s->lmuy;
  double dy = muy * fz;
  double ey = (p->PEY1 + p->PEY2 * dfz) * (1.0 + p->PEY5 * g * g - (p->PEY3 + p->PEY4 * g) * sgn1(ay)) *
              p->LEY;
  if (ey > 1.0) ey = 1.0;
  double by = kya / (cy * dy + MF_EPS * sgn1(dy));
  r->fy0 = mf_sin(by, cy, dy, ey, ay) + svy;
  r->dfy0_dalpha = mf_sin_dx(by, cy, dy, ey, ay);
  r->muy = fz == 0.0 ? 0.0 : muy;
  r->kya = kya;
  r->shy = shy;
  r->svy = svy;
  r->by = by;
  r->cy = cy;
}

/* Combined slip: Fx = Gxa*Fx0 (4.E50 .. 4.E57). */
static double mf_gxa(const grip_mf_params *p, const mf_state *s, double *dgxa_dkappa) {
  double cxa = p->RCX1;
  double exa = p->REX1 + p->REX2 * s->dfz;
  if (exa > 1.0) exa = 1.0;
  double shxa = p->RHX1;
  double b0 = (p->RBX1 + p->RBX3 * s->gamma * s->gamma) * p->LXAL;
  double bxa = b0 * cos(atan(p->RBX2 * s->kappa));
  double as = s->alpha + shxa;
  double num = mf_cos(bxa, cxa, exa, as), den = mf_cos(bxa, cxa, exa, shxa);
  if (dgxa_dkappa) {
    double dnum = mf_cos_db(bxa, cxa, exa, as), dden = mf_cos_db(bxa, cxa, exa, shxa);
    double db = b0 * cos_atan_dz(p->RBX2 * s->kappa) * p->RBX2;
    *dgxa_dkappa = (dnum * den - num * dden) / (den * den) * db;
  }
  return num / den;
}

/* Combined slip: Fy = Gyk*Fy0 + SVyk (4.E58 .. 4.E67). g is the inclination used in the
 * weighting (MFeval keeps the actual one even for the gamma = 0 evaluation of Mz). */
static void mf_gyk(const grip_mf_params *p, const mf_state *s, double g, double muy,
                   double *gyk, double *svyk, double *dgyk_dalpha, double *dsvyk_dalpha) {
  double dfz = s->dfz;
  double dv0 = muy * s->fz * (p->RVY1 + p->RVY2 * dfz + p->RVY3 * g);
  double kterm = sin(p->RVY5 * atan(p->RVY6 * s->kappa)) * p->LVYKA;
  double sv = dv0 * cos(atan(p->RVY4 * s->alpha)) * kterm;
  double shyk = p->RHY1 + p->RHY2 * dfz;
  double eyk = p->REY1 + p->REY2 * dfz;
  if (eyk > 1.0) eyk = 1.0;
  double cyk = p->RCY1;
  double b0 = (p->RBY1 + p->RBY4 * g * g) * p->LYKA;
  double byk = b0 * cos(atan(p->RBY2 * (s->alpha - p->RBY3)));
  double ks = s->kappa + shyk;
  double num = mf_cos(byk, cyk, eyk, ks), den = mf_cos(byk, cyk, eyk, shyk);
  *gyk = num / den;
  double smooth = s->low_speed ? s->smooth : 1.0;
  *svyk = sv * smooth;
  if (dgyk_dalpha) {
    double dnum = mf_cos_db(byk, cyk, eyk, ks), dden = mf_cos_db(byk, cyk, eyk, shyk);
    double db = b0 * cos_atan_dz(p->RBY2 * (s->alpha - p->RBY3)) * p->RBY2;
    *dgyk_dalpha = (dnum * den - num * dden) / (den * den) * db;
    *dsvyk_dalpha = dv0 * cos_atan_dz(p->RVY4 * s->alpha) * p->RVY4 * kterm * smooth;
  }
}

/* Overturning moment, eqn (49) of Besselink's draft paper as MFeval uses it. */
static double mf_mx(const grip_mf_params *p, const mf_state *s, double fy) {
  double fz = s->fz;
  if (fz < p->FZMIN) fz = fz * (fz / p->FZMIN) * (fz / p->FZMIN); /* fade below FZMIN (MFeval) */
  double fz0 = p->FNOMIN, r0 = p->UNLOADED_RADIUS, g = s->gamma;
  return r0 * fz * p->LMX *
             (p->QSX1 * p->LVMX - p->QSX2 * g * (1.0 + p->PPMX1 * s->dpi) - p->QSX12 * g * fabs(g) +
              p->QSX3 * fy / fz0 +
              p->QSX4 * cos(p->QSX5 * atan((p->QSX6 * fz / fz0) * (p->QSX6 * fz / fz0))) *
                  sin(p->QSX7 * g + p->QSX8 * atan(p->QSX9 * fy / fz0)) +
              p->QSX10 * atan(p->QSX11 * fz / fz0) * g) +
         r0 * fy * p->LMX * (p->QSX13 + p->QSX14 * fabs(g));
}

/* Rolling resistance moment (A48; MF 5.2: the MF-Tyre manual's form), with MFeval's
 * low-speed and reverse handling. */
static double mf_my(const grip_mf_params *p, const mf_state *s, double fx) {
  double fz = s->ufz;
  if (fz < p->FZMIN) fz = fz * (fz / p->FZMIN);
  double fz0 = p->FNOMIN, r0 = p->UNLOADED_RADIUS, v0 = p->LONGVL, vx = s->vx;
  double vr = vx / v0, vr4 = vr * vr * vr * vr;
  double my;
  if (p->version == GRIP_MF_52) {
    my = -r0 * fz * p->LMY * (p->QSY1 + p->QSY2 * fx / fz0 + p->QSY3 * fabs(vr) + p->QSY4 * vr4);
  } else {
    my = -r0 * fz0 * p->LMY *
         (p->QSY1 + p->QSY2 * fx / fz0 + p->QSY3 * fabs(vr) + p->QSY4 * vr4 +
          (p->QSY5 + p->QSY6 * fz / fz0) * s->gamma * s->gamma) *
         (pow(fz / fz0, p->QSY7) * pow(s->p / p->NOMPRES, p->QSY8));
  }
  if (vx < 0.0) my = -my;
  if (vx == 0.0) return 0.0;
  /* Near a locked wheel (spin speed below VXLOW) the moment fades to zero and reverses. */
  double high = p->VXLOW / fabs(vx) - 1.0;
  double low = -1.0 - p->VXLOW - high;
  double k = s->ukappa;
  if (k >= low && k <= high) {
    double red = (0.5 * GRIP_PI) * (k + 1.0) / (high + 1.0);
    my *= sin(red);
  }
  if (k < low) my = -my;
  return my;
}

/* Effective rolling radius and spin speed, iterated as MFeval does when omega is not given:
 * omega = (1 + kappa)*Vx/Re, Romega = R0*(Q_RE0 + Q_V1*(omega*R0/V0)^2),
 * Re = Romega - Fz0/Cz*(DREFF*atan(BREFF*Fz/Fz0) + FREFF*Fz/Fz0). */
static double mf_re(const grip_mf_params *p, const mf_state *s, double *omega_out) {
  double r0 = p->UNLOADED_RADIUS, fz0 = p->FNOMIN;
  double cz = p->VERTICAL_STIFFNESS * (1.0 + p->PFZ1 * s->dpi);
  double defl = (fz0 / cz) * (p->DREFF * atan(p->BREFF * s->ufz / fz0) + p->FREFF * s->ufz / fz0);
  double re = r0 * 0.965, re_old = r0, omega = 0.0;
  for (int i = 0; i < 100 && fabs(re_old - re) > 1e-9; ++i) {
    re_old = re;
    omega = (s->ukappa * s->vx + s->vx) / re;
    double w = omega * r0 / p->LONGVL;
    re = r0 * (p->Q_RE0 + p->Q_V1 * w * w) - defl;
  }
  *omega_out = omega;
  return re;
}

/* One evaluation. full = 0 leaves out Mx, My and the rolling radius (the vehicle's fast path)
 * and fills *slopes (dFx/dkappa, dFy/dalpha) when slopes is not NULL. */
static void mf_evaluate(const grip_mf_params *p, double fz, double kappa, double alpha,
                        double gamma, double vx, double pressure, double friction_scale,
                        int full, grip_mf_output *out, double *slopes) {
  mf_state s;
  mf_prepare(p, fz, kappa, alpha, gamma, vx, pressure, friction_scale, &s);
  double r0 = p->UNLOADED_RADIUS, g = s.gamma, dfz = s.dfz;

  double mux, kxk, dfx0;
  double fx0 = mf_fx0(p, &s, &mux, &kxk, &dfx0);
  mf_fy0_result f;
  mf_fy0(p, &s, g, &f);

  /* Aligning moment coefficients (4.E31 .. 4.E47 with MFeval's A58/A60 replacements). */
  double fzm = s.fz_low;
  double kya_p = f.kya + MF_EPS * sgn1(f.kya);        /* (4.E39) */
  double shf = f.shy + f.svy / kya_p;                   /* (4.E38) */
  double alphar = s.alpha + shf;                        /* (4.E37) */
  double sht = p->QHZ1 + p->QHZ2 * dfz + (p->QHZ3 + p->QHZ4 * dfz) * g; /* (4.E35) */
  double alphat = s.alpha + sht;                        /* (4.E34) */
  double dt = (p->QDZ1 + p->QDZ2 * dfz) * (1.0 - p->PPZ1 * s.dpi) *
              (1.0 + p->QDZ3 * g + p->QDZ4 * g * g) * fzm * (r0 / s.fz0p) * p->LTR; /* (A60) */
  double bt = (p->QBZ1 + p->QBZ2 * dfz + p->QBZ3 * dfz * dfz) *
              (1.0 + p->QBZ4 * g + p->QBZ5 * fabs(g)) * p->LKY / s.lmuy; /* (A58) */
  double ct = p->QCZ1;
  double et = (p->QEZ1 + p->QEZ2 * dfz + p->QEZ3 * dfz * dfz) *
              (1.0 + (p->QEZ4 + p->QEZ5 * g) * (2.0 / GRIP_PI) * atan(bt * ct * alphat)); /* (4.E44) */
  if (et > 1.0) et = 1.0;
  double dr = fzm * r0 *
              ((p->QDZ6 + p->QDZ7 * dfz) * p->LRES +
               ((p->QDZ8 + p->QDZ9 * dfz) * (1.0 + p->PPZ2 * s.dpi) + (p->QDZ10 + p->QDZ11 * dfz) * fabs(g)) *
                   g * p->LKZC) *
              s.lmuy * sgn(vx) * cos(s.alpha); /* (4.E47) */
  double br = p->QBZ9 * p->LKY / s.lmuy + p->QBZ10 * f.by * f.cy; /* (4.E45) */

  /* Combined forces. */
  double dgxa, dgyk, dsvyk;
  double gxa = mf_gxa(p, &s, &dgxa);
  double fxc = gxa * fx0;
  double gyk, svyk;
  mf_gyk(p, &s, g, f.muy, &gyk, &svyk, &dgyk, &dsvyk);
  double fyc = gyk * f.fy0 + svyk;
  if (slopes) {
    slopes[0] = (dgxa * fx0 + gxa * dfx0) * s.dkappa;
    slopes[1] = (dgyk * f.fy0 + gyk * f.dfy0_dalpha + dsvyk) * s.dalpha;
  }

  /* Combined aligning moment (4.E71 .. 4.E78 with A54 .. A56). */
  double kr = (kxk / kya_p) * s.kappa;
  double tr = tan(alphar), tt = tan(alphat);
  double alphar_eq = atan(sqrt(tr * tr + kr * kr)) * sgn(alphar);
  double alphat_eq = atan(sqrt(tt * tt + kr * kr)) * sgn(alphat);
  double sarm = r0 * (p->SSZ1 + p->SSZ2 * (fyc / p->FNOMIN) + (p->SSZ3 + p->SSZ4 * dfz) * g) * p->LS;
  double mzr = dr * cos(atan(br * alphar_eq));
  /* Fy' = Gyk*Fy0 evaluated at gamma = 0 (the weighting keeps the actual gamma, as MFeval). */
  mf_fy0_result f0;
  mf_fy0(p, &s, 0.0, &f0);
  double gyk0, svyk0;
  mf_gyk(p, &s, g, f0.muy, &gyk0, &svyk0, NULL, NULL);
  double fy_prime = gyk0 * f0.fy0;
  double t = mf_cos(bt, ct, et, alphat_eq) * dt * cos(s.alpha_p) * p->LFZO;
  if (s.low_speed) {
    t *= s.smooth;
    mzr *= s.smooth;
  }
  double mz;
  if (p->version == GRIP_MF_52)
    mz = -t * (fyc - svyk0) + mzr + sarm * fxc;
  else
    mz = -t * fy_prime + mzr + sarm * fxc;

  double omega = 0.0;
  out->fx = fxc;
  out->fy = fyc;
  out->mz = mz;
  out->mx = full ? mf_mx(p, &s, fyc) : 0.0;
  out->my = full ? mf_my(p, &s, fxc) : 0.0;
  out->re = full ? mf_re(p, &s, &omega) : 0.0;
  out->omega = omega;
  out->mux = mux;
  out->muy = fabs(f.muy);
  out->kxk = kxk;
  out->kya = f.kya;
  out->t = t;
  out->mzr = mzr;
  if (slopes && s.alpha_reduced) slopes[1] = NAN; /* the caller falls back to differences */
}

void grip_mf_evaluate_scaled(const grip_mf_params *p, double fz, double kappa, double alpha,
                             double gamma, double vx, double pressure, double friction_scale,
                             grip_mf_output *out) {
  mf_evaluate(p, fz, kappa, alpha, gamma, vx, pressure, friction_scale, 1, out, NULL);
}

void grip_mf_evaluate_full(const grip_mf_params *p, double fz, double kappa, double alpha,
                           double gamma, double vx, double pressure, grip_mf_output *out) {
  grip_mf_evaluate_scaled(p, fz, kappa, alpha, gamma, vx, pressure, 1.0, out);
}

/* Combined Fy only (slope by differences where the low-speed alpha reduction is active). */
static double mf_fy_only(const grip_mf_params *p, const grip_tyre_input *in, double alpha, double pressure) {
  mf_state s;
  mf_prepare(p, in->fz, in->kappa, alpha, in->gamma, in->vx, pressure, in->friction_scale, &s);
  mf_fy0_result f;
  mf_fy0(p, &s, s.gamma, &f);
  double gyk, svyk;
  mf_gyk(p, &s, s.gamma, f.muy, &gyk, &svyk, NULL, NULL);
  return gyk * f.fy0 + svyk;
}

void grip_mf_evaluate(const grip_mf_params *p, const grip_tyre_input *in, grip_tyre_output *out) {
  grip_mf_evaluate_at_pressure(p, in, 0.0, out);
}

void grip_mf_evaluate_at_pressure(const grip_mf_params *p, const grip_tyre_input *in, double pressure,
                                  grip_tyre_output *out) {
  grip_mf_output o;
  double slopes[2];
  mf_evaluate(p, in->fz, in->kappa, in->alpha, in->gamma, in->vx, pressure, in->friction_scale, 0, &o,
              slopes);
  out->fx = o.fx;
  out->fy = o.fy;
  out->mz = o.mz;
  out->dfx_dkappa = slopes[0];
  if (isnan(slopes[1])) {
    const double h = 1e-5;
    slopes[1] = (mf_fy_only(p, in, in->alpha + h, pressure) - mf_fy_only(p, in, in->alpha - h, pressure)) / (2.0 * h);
  }
  out->dfy_dalpha = slopes[1];
}
