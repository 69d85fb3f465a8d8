"""Checks for tests/cli_plot.sh: the files grip plot writes, and the numbers behind its pictures
(from --csv) against figures obtained another way. Run with /usr/bin/python3 (standard library
only). Usage: plot_check.py CHECK ARGS...; prints one line per check, exits 1 on a failure."""
import configparser
import csv
import json
import math
import struct
import sys
import xml.etree.ElementTree as ET

failures = 0


def report(ok, what):
    global failures
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures += 1


def series(path, panel, name):
    """(x, y, z) lists of one series of a grip plot CSV."""
    xs, ys, zs = [], [], []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["panel"] == panel and row["series"] == name:
                xs.append(float(row["x"]))
                ys.append(float(row["y"]))
                zs.append(float(row["z"]) if row["z"] else None)
    return xs, ys, zs


def car_ini(path):
    """A grip car file as a dict of sections (comments stripped, continued lines joined)."""
    p = configparser.ConfigParser(inline_comment_prefixes=(";", "#"), interpolation=None)
    p.read(path)
    return p


def telemetry_rows(path, car=1):
    with open(path, newline="") as f:
        return [r for r in csv.DictReader(f) if int(r["car"]) == car]


def check_png(path, width, height):
    with open(path, "rb") as f:
        head = f.read(33)
    ok = head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR"
    w, h = struct.unpack(">II", head[16:24]) if ok else (0, 0)
    report(ok and (w, h) == (int(width), int(height)), f"{path}: PNG {w}x{h}, asked {width}x{height}")


def check_svg(path, width, height):
    try:
        root = ET.parse(path).getroot()
        size = (root.get("width"), root.get("height"))
        ok = root.tag.endswith("svg") and len(list(root.iter())) > 50 and size == (f"{width}pt", f"{height}pt")
    except ET.ParseError as e:
        ok, size = False, None
        print(e)
    report(ok, f"{path}: SVG parses as XML with an <svg> root of {size}, asked {width}x{height} pt")


def check_pdf(path):
    with open(path, "rb") as f:
        data = f.read()
    report(data.startswith(b"%PDF") and b"%%EOF" in data[-64:], f"{path}: PDF header and trailer")


def check_engine(csv_path, ini_path, check_json):
    """Torque peak at the car file's peak-torque rpm; power peak = grip check's peak_power_kw;
    top gear at the limiter = omega·r/(ratio·final) from the car file's values."""
    car = car_ini(ini_path)
    points = [p.split(":") for p in car["engine"]["torque"].replace("\n", " ").split(",") if p.strip()]
    curve = [(float(r), float(t)) for r, t in points]
    limiter = float(car["engine"]["limiter_rpm"])
    peak_rpm, peak_t = max((p for p in curve if p[0] <= limiter), key=lambda p: p[1])
    rpm, torque, _ = series(csv_path, "curves", "torque_Nm")
    i = max(range(len(torque)), key=lambda k: torque[k])
    report(rpm[i] == peak_rpm and abs(torque[i] - peak_t) < 1e-6,
           f"engine: torque peak {torque[i]:.1f} N·m at {rpm[i]:.0f} rpm, car file {peak_t} at {peak_rpm:.0f}")
    with open(check_json) as f:
        check = json.load(f)
    _, power, _ = series(csv_path, "curves", "power_kW")
    report(abs(max(power) - check["peak_power_kw"]) < 1e-3,
           f"engine: power peak {max(power):.4f} kW, grip check {check['peak_power_kw']:.4f} kW")
    ratios = [float(r) for r in car["gearbox"]["ratios"].split(",")]
    final = float(car["gearbox"]["final_drive"])
    layout = car["drivetrain"].get("layout", "rwd").strip()
    radius = {"rwd": float(car["axle.rear"]["wheel_radius"]), "fwd": float(car["axle.front"]["wheel_radius"]),
              "awd": 0.5 * (float(car["axle.rear"]["wheel_radius"]) + float(car["axle.front"]["wheel_radius"]))}[layout]
    expect = limiter * math.pi / 30.0 * radius / (ratios[-1] * final) * 3.6
    v, r, _ = series(csv_path, "gears", f"gear_{len(ratios)}")
    got = v[r.index(limiter)] if limiter in r else float("nan")
    report(abs(got - expect) < 1e-6 * expect,
           f"engine: top gear at the limiter {got:.4f} km/h, ω·r/(ratio·final) = {expect:.4f} km/h")
    # The automatic's path climbs each gear's line to its upshift point and drops into the next
    # gear at the same road speed: rpm ratio = next ratio / this ratio.
    pv, pr, _ = series(csv_path, "gears", "automatic")
    drops = [(pr[k], pr[k + 1]) for k in range(len(pv) - 1) if pv[k] == pv[k + 1]]
    ok = len(drops) == len(ratios) - 1 and all(
        abs(b / a - ratios[n + 1] / ratios[n]) < 1e-9 for n, (a, b) in enumerate(drops))
    report(ok, f"engine: {len(drops)} upshifts, each an rpm drop by the ratio step")


def check_tyre_simple(csv_path, ini_path, axle):
    """Fy and Fx peaks at the nominal load = mu·Fz (the Magic Formula's D) from the car file."""
    car = car_ini(ini_path)
    t = car["tyre." + axle]
    fz0 = float(t["nominal_load"])
    for panel, key in (("fy_alpha_deg", "lat_mu"), ("fx_kappa", "long_mu")):
        _, f, z = series(csv_path, panel, "load_1")
        peak = max(abs(v) for v in f)
        expect = float(t[key]) * fz0
        report(z[0] == fz0 and abs(peak - expect) < 2e-3 * expect,
               f"tyre: {panel} peak {peak:.2f} N at Fz {z[0]:.0f} N, μ·Fz = {expect:.2f} N (0.2 %)")


def check_tyre_tir(csv_path, tire_json, reference_csv):
    """The Fy peak at the nominal load against grip tire at that point, and against MFeval's own
    alpha sweep at FNOMIN (its largest |Fy| on a coarser grid can only be a little lower)."""
    alpha, fy, z = series(csv_path, "fy_alpha_deg", "load_1")
    i = max(range(len(fy)), key=lambda k: abs(fy[k]))
    with open(tire_json) as f:
        tire = json.load(f)
    report(abs(tire["alpha"] - alpha[i] * math.pi / 180) < 1e-9 and abs(tire["fy"] - fy[i]) < 1e-6 * abs(fy[i]) + 1e-6,
           f"tyre: Fy peak {fy[i]:.3f} N at α {alpha[i]:.3f}° Fz {z[i]:.0f} N; grip tire there {tire['fy']:.3f} N")
    if reference_csv:
        with open(reference_csv, newline="") as f:
            rows = list(csv.reader(f))[1:]
        sweep = [r for r in rows[399:430]]
        ref = max(abs(float(r[8])) for r in sweep)
        report(abs(fy[i]) >= ref - 1.0 and abs(fy[i]) < ref * 1.01,
               f"tyre: Fy peak {abs(fy[i]):.1f} N vs MFeval's alpha sweep max {ref:.1f} N (>=, within 1 %)")


def check_gg(csv_path, telemetry, lap):
    rows = telemetry_rows(telemetry)
    if lap:
        rows = [r for r in rows if int(r["lap"]) == int(lap)]
    x, y, z = series(csv_path, "gg", "telemetry")
    want = [(float(r["lat_g"]), float(r["long_g"]), float(r["speed_kmh"])) for r in rows]
    got = list(zip(x, y, z))
    report(len(got) == len(want) and all(g == w for g, w in zip(got, want)),
           f"gg: {len(got)} points = telemetry lat_g, long_g (a/9.81) of lap {lap or 'all'} ({len(want)} rows)")


def check_lap(csv_path, telemetry, lap, track_json):
    rows = [r for r in telemetry_rows(telemetry) if int(r["lap"]) == int(lap)]
    x, y, z = series(csv_path, "map", "driven")
    want = [(float(r["x_m"]), float(r["y_m"]), float(r["speed_kmh"])) for r in rows]
    got = list(zip(x, y, z))
    report(len(got) == len(want) and all(g == w for g, w in zip(got, want)),
           f"lap: {len(got)} points = telemetry x_m, y_m of lap {lap} ({len(want)} rows)")
    with open(track_json) as f:
        track = json.load(f)
    lx, ly, _ = series(csv_path, "map", "left_edge")
    rx, ry, _ = series(csv_path, "map", "right_edge")
    widths = [math.hypot(a - c, b - d) for a, b, c, d in zip(lx, ly, rx, ry)]
    report(all(abs(w - track["width_m"]) < 1e-5 for w in widths),
           f"lap: road edges {min(widths):.6f}–{max(widths):.6f} m apart, grip track info width {track['width_m']} m")


def check_compare(csv_path, race_a, lap_a, race_b, lap_b):
    with open(race_a) as f:
        ta = json.load(f)["cars"][0]["lap_times_s"][int(lap_a) - 1]
    with open(race_b) as f:
        tb = json.load(f)["cars"][0]["lap_times_s"][int(lap_b) - 1]
    d, delta, _ = series(csv_path, "delta_s", "B_minus_A")
    report(abs(delta[-1] - (tb - ta)) < 0.005,
           f"compare: Δt at {d[-1]:.1f} m = {delta[-1]:.4f} s, grip race lap times {tb:.4f} − {ta:.4f} = {tb - ta:.4f} s")
    for name, t, lap in (("A", ta, int(lap_a)), ("B", tb, int(lap_b))):
        _, _, tau = series(csv_path, "speed_kmh", name)
        report(abs(tau[-1] - t) < 0.005, f"compare: lap {name} ends at {tau[-1]:.4f} s, grip race {t:.4f} s")
        # the robot's plan beside a flying lap (not lap 1, from the standing start): the robot
        # drives it, so their mean ratio is near 1 (grip race: every best lap within 2 % of
        # plan_lap_s)
        if lap == 1:
            continue
        d, plan, _ = series(csv_path, "predicted_speed_kmh", name)
        _, speed, _ = series(csv_path, "speed_kmh", name)
        pairs = [(v, q) for v, q in zip(speed, plan) if q > 20.0]
        ratio = sum(v / q for v, q in pairs) / len(pairs) if pairs else float("nan")
        report(len(plan) == len(speed) and len(pairs) > 10 and abs(ratio - 1.0) < 0.03,
               f"compare: lap {name} against its plan: mean speed ratio {ratio:.4f} over {len(pairs)} points (within 3 %)")


def check_handling(csv_path, ini_path, radius, skidpad_json):
    car = car_ini(ini_path)
    wheelbase = float(car["axle.front"]["x"]) - float(car["axle.rear"]["x"])
    c = float(car["body"]["cg_x"]) - float(car["axle.rear"]["x"])
    expect = math.degrees(math.atan(wheelbase / math.sqrt(radius ** 2 - c ** 2)))
    ay, delta, _ = series(csv_path, "handling", "single_track")
    report(ay[0] == 0.0 and abs(delta[0] - expect) < 1e-6,
           f"handling: model at 0 g {delta[0]:.5f}°, atan(L/sqrt(R²−c²)) = {expect:.5f}°")
    with open(skidpad_json) as f:
        sk = json.load(f)
    lay, ldelta, _ = series(csv_path, "handling", "linear_single_track")
    slope = (ldelta[-1] - ldelta[0]) / (lay[-1] - lay[0])
    k = sk["linear_bicycle_understeer_gradient_deg_per_g"]
    report(abs(slope - k) < 1e-6 * abs(k) + 1e-9, f"handling: linear line slope {slope:.4f} deg/g, grip skidpad {k:.4f}")
    x, y, _ = series(csv_path, "handling", "skidpad")
    band = [(a, b) for a, b in zip(x, y) if 0.2 <= a <= 0.3]
    n = len(band)
    sx, sy = sum(a for a, _ in band), sum(b for _, b in band)
    sxx, sxy = sum(a * a for a, _ in band), sum(a * b for a, b in band)
    fit = (n * sxy - sx * sy) / (n * sxx - sx * sx) if n > 2 else float("nan")
    want = sk["understeer_gradient_deg_per_g"]
    report(abs(fit - want) < 0.1, f"handling: points' slope over 0.2–0.3 g {fit:.3f} deg/g ({n} points), "
           f"grip skidpad {want:.3f} (0.1)")
    report(abs(max(x) - sk["max_lateral_g"]) < 0.02,
           f"handling: highest plotted {max(x):.3f} g, grip skidpad max {sk['max_lateral_g']:.3f} g (0.02)")


if __name__ == "__main__":
    name, args = sys.argv[1], sys.argv[2:]
    {"png": check_png, "svg": check_svg, "pdf": check_pdf, "engine": check_engine,
     "tyre-simple": check_tyre_simple, "tyre-tir": check_tyre_tir, "gg": check_gg, "lap": check_lap,
     "compare": check_compare,
     "handling": lambda a, b, r, s: check_handling(a, b, float(r), s)}[name](*args)
    sys.exit(1 if failures else 0)
