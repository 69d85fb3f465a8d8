#!/usr/bin/python3
"""Checks of the viewer's pictures by numbers (tests/cli_drive.sh). Standard library only.

Each check computes its expectation independently of the viewer's code: the PNG is decoded
here, the projection of a world point and the ray through a pixel follow the OpenGL lookAt /
perspective definitions from the camera pose the tool prints, and the ray–terrain hit is found
on the .bt heights with the triangle split of docs/terrain.md.

usage: viewer_check.py sky PNG
       viewer_check.py centre WITH_CAR.png WITHOUT_CAR.png
       viewer_check.py marker PNG JSON X Y Z
       viewer_check.py hud WITH_HUD.png WITHOUT_HUD.png
       viewer_check.py click JSON BT PX PY
       viewer_check.py write-quadrants PNG N       (a test texture: NW red, NE blue, SW yellow, SE green)
       viewer_check.py drape PNG JSON BT
       viewer_check.py wheels WITH.png WITHOUT.png JSON CAR.ini HEADING_DEG  (wheels where the car puts them)
       viewer_check.py wheel-steer WITH.png WITHOUT.png JSON CAR.ini   (wheels turned by their steer angles, seen from above)
       viewer_check.py wheel-spin CAR.ini WITHOUT.png PNG JSON [PNG JSON ...]  (wheel centre height and spin mark)
       viewer_check.py torcs-windows PNG JSON CAR.acc TEXTURE-RGBA.png  (a TORCS car's windows show its inside)
       viewer_check.py write-glass-model DIR        (glass.ac + pane.png: panes in front of a green wall)
       viewer_check.py glass PNG JSON               (what is behind a translucent pane shows through it)
       viewer_check.py chase-wall JSON WALL_Y      (eye on the track side of the wall y = WALL_Y)
       viewer_check.py chase-terrain JSON BT       (eye above the terrain)
       viewer_check.py systems PNG on,off,acting   (the HUD's ABS/TC/ESC labels: green, grey, amber)
       viewer_check.py drawbar PNG JSON REAR_X BALL_X BALL_Z FRONT_X   (a hitch's bars between two cars, seen from above)
Exit 0 when the check holds, 1 (with the figures) when not.
"""
import json
import math
import struct
import sys
import zlib


def read_png(path, keep_alpha=False):
    """(width, height, rows): rows[y] is a bytes object of RGB triples (RGBA quadruples with
    keep_alpha, from an RGBA file), y = 0 at the top."""
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise SystemExit(f'{path}: not a PNG')
    pos, idat, width = 8, b'', None
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b'IHDR':
            width, height, depth, color, _, _, interlace = struct.unpack('>IIBBBBB', body)
            if depth != 8 or color not in (2, 6) or interlace:
                raise SystemExit(f'{path}: only 8-bit RGB/RGBA non-interlaced PNGs are read here')
            channels = 3 if color == 2 else 4
        elif kind == b'IDAT':
            idat += body
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        if channels == 4 and not keep_alpha:
            line = bytearray(v for k, v in enumerate(line) if k % 4 != 3)
        elif keep_alpha and channels != 4:
            raise SystemExit(f'{path}: no alpha channel')
        rows.append(bytes(line))
    return width, height, rows


def pixel(rows, x, y):
    r = rows[y]
    return r[3 * x], r[3 * x + 1], r[3 * x + 2]


def mean_colour(rows, x0, x1, y0, y1):
    n, s = 0, [0, 0, 0]
    for y in range(y0, y1):
        for x in range(x0, x1):
            p = pixel(rows, x, y)
            for k in range(3):
                s[k] += p[k]
            n += 1
    return [v / n for v in s]


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def check_sky(path):
    w, h, rows = read_png(path)
    lum = [sum(pixel(rows, x, y)) / 3 for y in range(0, h, 4) for x in range(0, w, 4)]
    mean = sum(lum) / len(lum)
    std = math.sqrt(sum((v - mean) ** 2 for v in lum) / len(lum))
    top = mean_colour(rows, 0, w, 0, h // 10)
    bottom = mean_colour(rows, 0, w, h - h // 5, h)
    print(f'std {std:.1f}, top mean {[round(v) for v in top]}, bottom mean {[round(v) for v in bottom]}')
    if std < 10:
        fail('the frame is (nearly) blank')
    # Sky: blue clearly above red; ground: not that.
    if not (top[2] > top[0] + 30 and top[2] > 120):
        fail('the top tenth is not sky blue')
    if bottom[2] > bottom[0] + 30:
        fail('the bottom fifth looks like sky too')


def diff_fraction(a, b, x0, x1, y0, y1, threshold=24):
    n = d = 0
    for y in range(y0, y1):
        for x in range(x0, x1):
            pa, pb = pixel(a, x, y), pixel(b, x, y)
            n += 1
            d += max(abs(pa[k] - pb[k]) for k in range(3)) > threshold
    return d / n


def check_centre(with_car, without_car, json_path=None):
    """The car covers the box at the screen centre or, with the run's JSON, at the pixel where
    the middle of the car projects: the middle of its model's box, or 0.6 m above its design
    origin for a generated body (the middle of a saloon's height)."""
    w, h, a = read_png(with_car)
    w2, h2, b = read_png(without_car)
    if (w, h) != (w2, h2):
        fail('the two frames differ in size')
    cx, cy, r = w // 2, h // 2, max(2, w // 40)
    if json_path:
        d = json.load(open(json_path))
        m, p = d.get('car_model'), d['car']['position_m']
        mid = [p[0], p[1], p[2] + (0.5 * (m['lo_m'][2] + m['hi_m'][2]) if m else 0.6)]
        px, py = project(d['camera'], mid)
        cx, cy = int(px), int(py)
        print(f'model box middle {mid} at pixel ({px:.1f}, {py:.1f})')
    centre = diff_fraction(a, b, cx - r, cx + r, cy - r, cy + r)
    sky = diff_fraction(a, b, 0, w, 0, h // 8)
    print(f'centre box ±{r} px: {100 * centre:.1f} % of pixels differ; top eighth: {100 * sky:.2f} %')
    if centre < 0.9:
        fail('the car does not cover the screen centre')
    if sky > 0.01:
        fail('the frames differ away from the car (the camera or the world moved)')


def normalize(v):
    n = math.sqrt(sum(c * c for c in v))
    return [c / n for c in v]


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def camera_basis(cam):
    eye, target, up = cam['eye_m'], cam['target_m'], cam['up']
    f = normalize([t - e for t, e in zip(target, eye)])
    s = normalize(cross(f, up))
    u = cross(s, f)
    return eye, f, s, u


def project(cam, point):
    """Pixel (x right, y down, continuous; pixel centres at k + 0.5) of a world point:
    gluLookAt + gluPerspective, then the viewport transform."""
    eye, f, s, u = camera_basis(cam)
    d = [p - e for p, e in zip(point, eye)]
    xe, ye, ze = dot(d, s), dot(d, u), -dot(d, f)
    t = math.tan(math.radians(cam['fov_y_deg']) / 2)
    aspect = cam['width_px'] / cam['height_px']
    ndc_x = (xe / (-ze)) / (t * aspect)
    ndc_y = (ye / (-ze)) / t
    return (ndc_x + 1) / 2 * cam['width_px'], (1 - ndc_y) / 2 * cam['height_px']


def check_marker(path, json_path, x, y, z):
    cam = json.load(open(json_path))['camera']
    w, h, rows = read_png(path)
    px, py = project(cam, [x, y, z])
    xs = ys = n = 0
    for yy in range(h):
        r = rows[yy]
        for xx in range(w):
            if r[3 * xx] > 230 and r[3 * xx + 1] < 40 and r[3 * xx + 2] > 230:
                xs += xx + 0.5
                ys += yy + 0.5
                n += 1
    if n == 0:
        fail(f'no magenta marker pixels (predicted at {px:.1f}, {py:.1f})')
    mx, my = xs / n, ys / n
    err = math.hypot(mx - px, my - py)
    print(f'marker: predicted ({px:.2f}, {py:.2f}) px, drawn centroid ({mx:.2f}, {my:.2f}) px over {n} px: '
          f'{err:.2f} px apart')
    if err > 1.5:
        fail('the marker is not where the camera matrices put it')


def check_hud(with_hud, without_hud):
    w, h, a = read_png(with_hud)
    _, _, b = read_png(without_hud)
    # The main panel (viewer/hud.c): x 16..356, y h-150..h-16, as documented in docs/viewer.md.
    panel = diff_fraction(a, b, 16, 356, h - 150, h - 16, threshold=8)
    white = sum(1 for y in range(h - 150, h - 16) for x in range(16, 356) if min(pixel(a, x, y)) > 235)
    middle = diff_fraction(a, b, w // 2 - 40, w // 2 + 40, h // 2 - 40, h // 2 + 40, threshold=8)
    print(f'HUD panel: {100 * panel:.1f} % of pixels changed, {white} near-white text pixels; '
          f'screen middle changed {100 * middle:.1f} %')
    if panel < 0.8:
        fail('the HUD panel is not drawn')
    if white < 100:
        fail('the HUD panel holds no text')
    if middle > 0.01:
        fail('the HUD draws over the middle of the screen')


def read_bt(path):
    d = open(path, 'rb').read()
    if not d[:7] == b'binterr':
        raise SystemExit(f'{path}: not a .bt file')
    cols, rows = struct.unpack('<ii', d[10:18])
    size, is_float = struct.unpack('<hh', d[18:22])
    left, right, bottom, top = struct.unpack('<dddd', d[28:60])
    scale = struct.unpack('<f', d[62:66])[0] or 1.0
    fmt = {(2, 0): 'h', (4, 0): 'i', (4, 1): 'f'}[(size, is_float)]
    vals = struct.unpack('<%d%s' % (cols * rows, fmt), d[256:256 + cols * rows * size])
    # Column by column from the west, each column south to north.
    heights = [[vals[c * rows + r] * scale for c in range(cols)] for r in range(rows)]
    dx, dy = (right - left) / cols, (top - bottom) / rows
    return heights, left + dx / 2, bottom + dy / 2, dx, dy, cols, rows


def terrain_height(t, x, y):
    """The triangle height of docs/terrain.md (diagonal from SE to NW corner); None outside."""
    h, ox, oy, dx, dy, cols, rows = t
    fc, fr = (x - ox) / dx, (y - oy) / dy
    if fc < 0 or fr < 0 or fc > cols - 1 or fr > rows - 1:
        return None
    c, r = min(int(fc), cols - 2), min(int(fr), rows - 2)
    u, v = fc - c, fr - r
    if u + v <= 1:
        return h[r][c] + u * (h[r][c + 1] - h[r][c]) + v * (h[r + 1][c] - h[r][c])
    return h[r + 1][c + 1] + (1 - u) * (h[r + 1][c] - h[r + 1][c + 1]) + (1 - v) * (h[r][c + 1] - h[r + 1][c + 1])


def check_click(json_path, bt_path, px, py):
    out = json.load(open(json_path))
    cam, click = out['camera'], out['click']
    eye, f, s, u = camera_basis(cam)
    t = math.tan(math.radians(cam['fov_y_deg']) / 2)
    aspect = cam['width_px'] / cam['height_px']
    nx = 2 * (px + 0.5) / cam['width_px'] - 1
    ny = 1 - 2 * (py + 0.5) / cam['height_px']
    d = normalize([f[k] + s[k] * nx * t * aspect + u[k] * ny * t for k in range(3)])
    terrain = read_bt(bt_path)
    step, prev = 0.1, None
    hit = None
    for i in range(0, 40000):
        tt = i * step
        p = [eye[k] + tt * d[k] for k in range(3)]
        hz = terrain_height(terrain, p[0], p[1])
        gap = None if hz is None else p[2] - hz
        if gap is not None and prev is not None and prev[1] > 0 >= gap:
            lo, hi = prev[0], tt
            for _ in range(60):
                mid = (lo + hi) / 2
                q = [eye[k] + mid * d[k] for k in range(3)]
                if q[2] - terrain_height(terrain, q[0], q[1]) > 0:
                    lo = mid
                else:
                    hi = mid
            hit = [eye[k] + lo * d[k] for k in range(3)]
            break
        prev = None if gap is None else (tt, gap)
    if hit is None:
        fail('the ray meets no terrain here (choose another pixel)')
    if not click.get('placed'):
        fail('the tool did not place the car')
    car = click['car_m']
    err = math.hypot(car[0] - hit[0], car[1] - hit[1])
    print(f'ray hit ({hit[0]:.3f}, {hit[1]:.3f}, {hit[2]:.3f}) m; car placed at ({car[0]:.3f}, {car[1]:.3f}) m: '
          f'{err:.4f} m apart in plan')
    if err > 0.1:
        fail('the car is not where the click points')


QUADRANTS = {'NW': (220, 30, 30), 'NE': (30, 30, 220), 'SW': (220, 220, 30), 'SE': (30, 180, 30)}


def write_quadrants(path, n):
    n = int(n)
    raw = bytearray()
    for y in range(n):  # first row north
        raw.append(0)
        for x in range(n):
            raw += bytes(QUADRANTS[('N' if y < n // 2 else 'S') + ('W' if x < n // 2 else 'E')])
    def chunk(kind, body):
        return struct.pack('>I', len(body)) + kind + body + struct.pack('>I', zlib.crc32(kind + body) & 0xffffffff)
    png = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', n, n, 8, 2, 0, 0, 0))
    png += chunk(b'IDAT', zlib.compress(bytes(raw))) + chunk(b'IEND', b'')
    open(path, 'wb').write(png)


def check_drape(path, json_path, bt_path):
    """The texture covers the terrain's cell extent, north up: world points inside each quadrant
    of the extent (their height from the .bt) must show that quadrant's colour."""
    cam = json.load(open(json_path))['camera']
    w, h, rows = read_png(path)
    terrain = read_bt(bt_path)
    _, ox, oy, dx, dy, cols, nrows = terrain
    cx, cy = ox - dx / 2 + cols * dx / 2, oy - dy / 2 + nrows * dy / 2
    for name, colour in QUADRANTS.items():
        for dist in (12.0, 40.0):
            x = cx + (dist if name[1] == 'E' else -dist)
            y = cy + (dist if name[0] == 'N' else -dist)
            px, py = project(cam, [x, y, terrain_height(terrain, x, y)])
            if not (0 <= px < w and 0 <= py < h):
                continue
            got = pixel(rows, int(px), int(py))
            # Light and haze scale and wash the colour: the nearest of the four colours by direction
            # (normalised RGB) must be this quadrant's.
            a = normalize(list(got))
            match = {k: dot(a, normalize(list(c))) for k, c in QUADRANTS.items()}
            nearest = max(match, key=match.get)
            print(f'{name} at ({x:.0f}, {y:.0f}) m -> pixel ({px:.0f}, {py:.0f}): {got}, nearest texture colour {nearest} '
                  f'({match[nearest]:.3f})')
            if nearest != name:
                fail(f'the {name} quadrant of the texture is not draped there')


def write_world_file(path, n, left, right, bottom, top):
    """An ESRI world file for an n x n image covering [left, right] x [bottom, top] (m): pixel
    size, no rotation, the centre of the top-left pixel."""
    n = int(n); left, right, bottom, top = float(left), float(right), float(bottom), float(top)
    a, e = (right - left) / n, -(top - bottom) / n
    open(path, 'w').write('%r\n0\n0\n%r\n%r\n%r\n' % (a, e, left + a / 2, top + e / 2))


def check_georef(path, json_path, bt_path, left, right, bottom, top):
    """The quadrant texture lies where its world file puts it: inside [left, right] x [bottom,
    top] each quadrant's middle shows its colour (nearest by direction, at least 0.98 alike);
    outside it the terrain keeps its own colours (no texture colour at least 0.98 alike)."""
    left, right, bottom, top = float(left), float(right), float(bottom), float(top)
    cam = json.load(open(json_path))['camera']
    w, h, rows = read_png(path)
    terrain = read_bt(bt_path)
    mx, my = (left + right) / 2, (bottom + top) / 2
    qx, qy = (right - left) / 4, (top - bottom) / 4
    probes = [(name, mx + (qx if name[1] == 'E' else -qx), my + (qy if name[0] == 'N' else -qy)) for name in QUADRANTS]
    probes += [('outside', left - 40.0, my), ('outside', right + 40.0, my), ('outside', mx, bottom - 40.0),
               ('outside', mx, top + 40.0)]
    for name, x, y in probes:
        px, py = project(cam, [x, y, terrain_height(terrain, x, y)])
        if not (0 <= px < w and 0 <= py < h):
            fail(f'probe ({x:.0f}, {y:.0f}) m is off the picture')
        got = mean_colour(rows, int(px) - 1, int(px) + 2, int(py) - 1, int(py) + 2)
        a = normalize(list(got))
        match = {k: dot(a, normalize(list(c))) for k, c in QUADRANTS.items()}
        nearest = max(match, key=match.get)
        print(f'{name} at ({x:.0f}, {y:.0f}) m -> pixel ({px:.0f}, {py:.0f}): {[round(c) for c in got]}, '
              f'nearest texture colour {nearest} ({match[nearest]:.3f})')
        if name == 'outside' and match[nearest] >= 0.98:
            fail(f'texture colour outside the world file\'s extent at ({x:.0f}, {y:.0f})')
        if name != 'outside' and (nearest != name or match[nearest] < 0.98):
            fail(f'the {name} quadrant is not where the world file puts it')


def car_axles(car_ini):
    """{'axle.front': (x, half_track, radius, width, droop_travel), 'axle.rear': ...} from a grip car file."""
    import configparser
    ini = configparser.ConfigParser(inline_comment_prefixes=(';', '#'))
    ini.read(car_ini)
    num = lambda sec, key: float(ini[sec][key].split()[0])
    return {a: tuple(num(a, k) for k in ('x', 'half_track', 'wheel_radius', 'wheel_width', 'droop_travel'))
            for a in ('axle.front', 'axle.rear')}


def lerp_angle(a, b, t):
    d = math.fmod(b - a, 2 * math.pi)
    if d > math.pi:
        d -= 2 * math.pi
    if d < -math.pi:
        d += 2 * math.pi
    return a + t * d


def wheel_states(d):
    """Per wheel (FL, FR, RL, RR): steer, rotation, compression as drawn: the last two steps'
    states blended by the frame's step fraction (docs/viewer.md: linearly, angles the short way)."""
    car, t = d['car'], d['car']['drawn_step_fraction']
    out = []
    for wh in car['wheels']:
        s0, s1 = wh['steer_rad']
        r0, r1 = wh['rotation_rad']
        c0, c1 = wh['compression_m']
        out.append((s0 + t * (s1 - s0), lerp_angle(r0, r1, t), c0 + t * (c1 - c0), wh['spin_radps']))
    return out


def wheel_centre(d, axles, k, compression):
    """World centre of wheel k: drawn pose + R·(axle x, ±half track, r - droop + compression)."""
    car = d['car']
    x, ht, r, _, droop = axles['axle.front' if k < 2 else 'axle.rear']
    local = [x, ht if k % 2 == 0 else -ht, r - droop + compression]
    return [p + q for p, q in zip(car['drawn_position_m'], rotate(car['drawn_rotation_wxyz'], local))]


def diff_pixels(a, b, cx, cy, radius, threshold=24):
    pts = []
    for y in range(max(0, int(cy - radius)), min(len(a), int(cy + radius) + 1)):
        for x in range(max(0, int(cx - radius)), min(len(a[0]) // 3, int(cx + radius) + 1)):
            if (x - cx) ** 2 + (y - cy) ** 2 > radius * radius:
                continue
            pa, pb = pixel(a, x, y), pixel(b, x, y)
            if max(abs(pa[i] - pb[i]) for i in range(3)) > threshold:
                pts.append((x + 0.5, y + 0.5))
    return pts


def check_wheel_steer(with_wheels, without, json_path, car_ini):
    """Seen from straight above, each wheel's outline (pixels that differ from the frame without
    the car, within 0.55 m of its projected centre) has its long principal axis along the car's
    heading turned by the wheel's steer angle from the state: within 2 degrees. The steered
    wheels must be turned at least 10 degrees (so that an unsteered drawing fails)."""
    d = json.load(open(json_path))
    cam = d['camera']
    axles = car_axles(car_ini)
    w, h, a = read_png(with_wheels)
    _, _, b = read_png(without)
    ok, steered = True, 0
    for k, (steer, _, comp, _) in enumerate(wheel_states(d)):
        c = wheel_centre(d, axles, k, comp)
        direction = rotate(d['car']['drawn_rotation_wxyz'], [math.cos(steer), math.sin(steer), 0])
        p0 = project(cam, c)
        p1 = project(cam, [c[i] + 0.3 * direction[i] for i in range(3)])
        px_per_m = math.hypot(p1[0] - p0[0], p1[1] - p0[1]) / 0.3
        want = math.degrees(math.atan2(p1[1] - p0[1], p1[0] - p0[0]))
        pts = diff_pixels(a, b, p0[0], p0[1], 0.55 * px_per_m)
        if len(pts) < 50:
            print(f'wheel {k}: only {len(pts)} pixels near ({p0[0]:.0f}, {p0[1]:.0f})')
            ok = False
            continue
        mx = sum(p[0] for p in pts) / len(pts)
        my = sum(p[1] for p in pts) / len(pts)
        sxx = sum((p[0] - mx) ** 2 for p in pts)
        syy = sum((p[1] - my) ** 2 for p in pts)
        sxy = sum((p[0] - mx) * (p[1] - my) for p in pts)
        got = math.degrees(0.5 * math.atan2(2 * sxy, sxx - syy))
        err = (got - want + 90) % 180 - 90
        steered += abs(math.degrees(steer)) >= 10
        print(f'wheel {k}: steer {math.degrees(steer):.2f} deg; axis drawn {got:.2f} deg, from the state {want:.2f} deg '
              f'(image, {len(pts)} px, centroid {math.hypot(mx - p0[0], my - p0[1]):.1f} px from the centre): '
              f'{err:+.2f} deg')
        ok = ok and abs(err) <= 2.0
    if steered < 2:
        print('FAIL: fewer than two wheels steered by 10 degrees or more')
        ok = False
    if not ok:
        fail('a wheel is not turned by its steer angle')


def filled_centroid(pts):
    """Centroid of a blob with each row's span filled from its leftmost to its rightmost pixel
    (a wheel seen along its axle: a disc, whatever its rim shows inside)."""
    rows = {}
    for x, y in pts:
        lo, hi = rows.get(y, (x, x))
        rows[y] = (min(lo, x), max(hi, x))
    n = sx = sy = 0.0
    for y, (lo, hi) in rows.items():
        m = hi - lo + 1
        n += m
        sx += m * (lo + hi) / 2
        sy += m * y
    return sx / n, sy / n


def check_wheel_spin(car_ini, without, *frames):
    """A camera looking along the axle of the left rear wheel (fixed, horizontal), each frame:
    - the centre of the wheel's face towards the camera (the filled outline's centroid) is where
      the state's suspension compression puts it (within 1.5 px), and the same wheel drawn at design ride height would
      be at least 5 px away in the airborne frames (so that the check can tell);
    - the red mark's angle about the centre is the wheel's rotation from the state (within 4
      degrees): seen from the left, forward is to the left of the screen and the mark at rotation
      θ is at (−sin θ, cos θ) (right, up) from the centre;
    - between consecutive frames the mark turns by the mean of the two spins × the time between
      them (within 4 degrees)."""
    axles = car_axles(car_ini)
    _, _, b = read_png(without)
    k = 2  # left rear
    ok = True
    prev = None
    for png, json_path in zip(frames[0::2], frames[1::2]):
        d = json.load(open(json_path))
        cam = d['camera']
        _, _, a = read_png(png)
        steer, rot, comp, spin = wheel_states(d)[k]
        r = axles['axle.rear'][2]
        droop = axles['axle.rear'][4]
        # The outline is the disc of the face towards the camera (the far face's disc projects
        # smaller and inside it): its centre is half the wheel's width out along the axle.
        out = rotate(d['car']['drawn_rotation_wxyz'], [-math.sin(steer) * axles['axle.rear'][3] / 2,
                                                         math.cos(steer) * axles['axle.rear'][3] / 2, 0])
        c = [a + o for a, o in zip(wheel_centre(d, axles, k, comp), out)]
        c_rigid = [a + o for a, o in zip(wheel_centre(d, axles, k, droop), out)]
        p = project(cam, c)
        p_rigid = project(cam, c_rigid)
        top = project(cam, [c[0], c[1], c[2] + r])
        r_px = math.hypot(top[0] - p[0], top[1] - p[1])
        pts = diff_pixels(a, b, p[0], p[1], 1.15 * r_px)
        if len(pts) < 100:
            fail(f'{png}: the wheel is not drawn near ({p[0]:.0f}, {p[1]:.0f})')
        mx, my = filled_centroid(pts)
        err = math.hypot(mx - p[0], my - p[1])
        rigid = math.hypot(p_rigid[0] - p[0], p_rigid[1] - p[1])
        red = [(x + 0.5, y + 0.5) for y in range(int(my - r_px), int(my + r_px) + 1)
               for x in range(int(mx - r_px), int(mx + r_px) + 1)
               if (x + 0.5 - mx) ** 2 + (y + 0.5 - my) ** 2 < (0.98 * r_px) ** 2
               and (lambda c: c[0] > 100 and c[0] > 2.5 * max(c[1], c[2]))(pixel(a, x, y))]
        if len(red) < 10:
            fail(f'{png}: no red mark on the wheel ({len(red)} px)')
        rx = sum(q[0] for q in red) / len(red) - mx
        ry = sum(q[1] for q in red) / len(red) - my
        got = math.atan2(-rx, -ry)
        ang = (math.degrees(got - rot) + 180) % 360 - 180
        t = (d['steps'] - 1 + d['car']['drawn_step_fraction']) * d['dt_s']
        print(f'{png}: t {t:.4f} s, compression {comp:.4f} m: centre drawn ({mx:.1f}, {my:.1f}) px, from the state '
              f'({p[0]:.1f}, {p[1]:.1f}): {err:.2f} px (at design ride height it would be {rigid:.1f} px away); '
              f'mark at {math.degrees(got) % 360:.1f} deg, rotation {math.degrees(rot) % 360:.1f} deg: {ang:+.2f} deg; '
              f'spin {spin[1]:.3f} rad/s')
        ok = ok and err <= 1.5 and abs(ang) <= 4.0
        if comp < 0.5 * droop and rigid < 5.0:
            print('FAIL: the compression differs too little from design ride height to be seen')
            ok = False
        if prev:
            t0, got0, spin0 = prev
            want = 0.5 * (spin0 + spin[1]) * (t - t0)
            turned = got - got0
            e = (math.degrees(turned - want) + 180) % 360 - 180
            print(f'  turned {math.degrees(turned):.2f} deg in {t - t0:.4f} s; spin x time {math.degrees(want):.2f} deg: '
                  f'{e:+.2f} deg')
            ok = ok and abs(e) <= 4.0
        prev = (t, got, spin[1])
    if not ok:
        fail('the wheel does not follow its suspension and rotation')


def check_torcs_windows(path, json_path, acc_path, texture_png):
    """A TORCS car's windows, seen from the chase camera behind it: the .acc file's triangles
    (triangle strips, SURF 0x14) whose texel at the centroid's texture coordinates has alpha <
    100 (the texture converted to an RGBA PNG by gdal_translate) are its glass; at the pixels
    where the centroids of those in the rear half of the car (x < -0.3 m) project, drawn opaque
    the glass shows its own near-black texels (max channel <= 30: 47 of 56 such pixels on
    main before translucency); drawn translucent what is behind it shows. At most 40 % of them
    may be that black, their mean brightest channel at least 40; the tool counts at least as many
    translucent triangles as the test finds glass (its rule: any texel under the triangle with
    alpha < 250)."""
    d = json.load(open(json_path))
    cam, car, m = d['camera'], d['car'], d.get('car_model')
    if not m:
        fail('no car_model in the JSON')
    tw, th, tex = read_png(texture_png, keep_alpha=True)
    lines = open(acc_path, errors='replace').read().split('\n')
    verts, glass, total, i = [], [], 0, 0
    while i < len(lines):
        line = lines[i]
        if line.startswith('numvert'):
            n = int(line.split()[1])
            verts = [tuple(float(t) for t in lines[i + 1 + j].split()[:3]) for j in range(n)]
            i += n
        elif line.startswith('refs'):
            n = int(line.split()[1])
            refs = [lines[i + 1 + j].split() for j in range(n)]
            refs = [(int(r[0]), float(r[1]), float(r[2])) for r in refs]
            i += n
            for k in range(n - 2):
                tri = refs[k:k + 3]
                if len({r[0] for r in tri}) < 3:
                    continue
                total += 1
                u = sum(r[1] for r in tri) / 3
                v = sum(r[2] for r in tri) / 3
                u, v = u - math.floor(u), v - math.floor(v)
                alpha = tex[min(th - 1, int((1 - v) * th))][4 * min(tw - 1, int(u * tw)) + 3]
                if alpha < 100:
                    p = [verts[r[0]] for r in tri]
                    c = [sum(q[a] for q in p) / 3 for a in range(3)]
                    glass.append((c[0], -c[2], c[1]))  # AC3D y up -> z up
        i += 1
    w, h, rows = read_png(path)
    samples = []
    for c in glass:
        if c[0] > -0.3:
            continue
        world = [p + r for p, r in zip(car['drawn_position_m'], rotate(car['drawn_rotation_wxyz'], list(c)))]
        px, py = project(cam, world)
        if 0 <= px < w and 0 <= py < h:
            samples.append(pixel(rows, int(px), int(py)))
    if len(samples) < 20:
        fail(f'only {len(samples)} rear glass points on the picture')
    dark = sum(1 for s in samples if max(s) <= 30)
    brightest = sum(max(s) for s in samples) / len(samples)
    print(f'glass: {len(glass)} of {total} triangles by the test, {m.get("translucent_triangles", 0)} translucent by the tool; '
          f'{len(samples)} rear glass pixels: {dark} black ({100 * dark / len(samples):.0f} %), mean brightest '
          f'channel {brightest:.1f}')
    if m.get("translucent_triangles", 0) < len(glass) or len(glass) < 50:
        fail('the tool draws fewer translucent triangles than the file has glass')
    if dark > 0.4 * len(samples) or brightest < 40:
        fail('the windows are drawn black')


def write_png(path, width, height, rgba_rows):
    """An 8-bit RGBA PNG; rgba_rows[y] is a bytes object of width RGBA quadruples, y = 0 at the top."""
    raw = b''.join(b'\x00' + bytes(r) for r in rgba_rows)
    def chunk(kind, body):
        return struct.pack('>I', len(body)) + kind + body + struct.pack('>I', zlib.crc32(kind + body) & 0xffffffff)
    png = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, 8, 6, 0, 0, 0))
    png += chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b'')
    open(path, 'wb').write(png)


# The glass test model, in the car's design frame (x forward, y left, z up), m. Seen from the
# chase camera behind the car: a green wall at x = +1 and, 2 m nearer at x = -1, panes facing
# backwards like it (same normal, so the same light):
#   - a textured pane at z 1.0..1.8 of two quads: y 0..1 takes the texture's left part (u 0..0.45,
#     opaque), y -1..0 its right part (u 0.55..1, alpha 64/255); the texture is one colour;
#   - at z 2.0..2.6, y 0..1 an opaque red pane, y -1..0 a pane of the same red with AC3D's
#     trans 0.5 (assimp: opacity 0.5).
GLASS_TEXTURE_RGB = (200, 160, 40)
GLASS_ALPHA = 64
GLASS_QUADS = [  # (name, material, texture, x, y0, y1, z0, z1, u0, u1)
    ('wall', 0, None, 1.0, -2.5, 2.5, 0.8, 3.4, 0, 0),
    ('pane-opaque', 1, 'pane.png', -1.0, 0.0, 1.0, 1.0, 1.8, 0.0, 0.45),
    ('pane-glass', 1, 'pane.png', -1.0, -1.0, 0.0, 1.0, 1.8, 0.55, 1.0),
    ('red-opaque', 2, None, -1.0, 0.0, 1.0, 2.0, 2.6, 0, 0),
    ('red-glass', 3, None, -1.0, -1.0, 0.0, 2.0, 2.6, 0, 0),
]


def write_glass_model(directory):
    n = 16
    rows = []
    for y in range(n):
        row = bytearray()
        for x in range(n):
            row += bytes(GLASS_TEXTURE_RGB) + bytes([255 if x < n // 2 else GLASS_ALPHA])
        rows.append(row)
    write_png(directory + '/pane.png', n, n, rows)
    out = ['AC3Db',
           'MATERIAL "wall" rgb 0.15 0.6 0.15  amb 0.2 0.2 0.2  emis 0 0 0  spec 0 0 0  shi 10  trans 0',
           'MATERIAL "white" rgb 1 1 1  amb 0.2 0.2 0.2  emis 0 0 0  spec 0 0 0  shi 10  trans 0',
           'MATERIAL "red" rgb 0.8 0.1 0.1  amb 0.2 0.2 0.2  emis 0 0 0  spec 0 0 0  shi 10  trans 0',
           'MATERIAL "red glass" rgb 0.8 0.1 0.1  amb 0.2 0.2 0.2  emis 0 0 0  spec 0 0 0  shi 10  trans 0.5',
           'OBJECT world', 'kids %d' % len(GLASS_QUADS)]
    for name, mat, tex, x, y0, y1, z0, z1, u0, u1 in GLASS_QUADS:
        out += ['OBJECT poly', 'name "%s"' % name]
        if tex:
            out.append('texture "%s"' % tex)
        # Corners counter-clockwise seen from behind (from -x): the normal points backwards.
        corners = [(x, y1, z0, u0, 0), (x, y0, z0, u1, 0), (x, y0, z1, u1, 1), (x, y1, z1, u0, 1)]
        out.append('numvert 4')
        # AC3D is y up: the design point (X, Y, Z) is the file point (X, Z, -Y).
        out += ['%g %g %g' % (X, Z, -Y) for X, Y, Z, _, _ in corners]
        out += ['numsurf 1', 'SURF 0x00', 'mat %d' % mat, 'refs 4']
        out += ['%d %g %g' % (i, c[3], c[4]) for i, c in enumerate(corners)]
        out.append('kids 0')
    open(directory + '/glass.ac', 'w').write('\n'.join(out) + '\n')


def check_glass(path, json_path):
    """Each translucent pane shows what is behind it: its pixel is a·(the same pane opaque) +
    (1 - a)·(the wall seen directly), all with the same normal and so the same light, a = 64/255
    for the texture's alpha and 0.5 for the material's; within 4 levels per channel. The JSON
    counts 4 translucent triangles (the two translucent quads) of the model's 10."""
    d = json.load(open(json_path))
    cam, car, m = d['camera'], d['car'], d.get('car_model')
    if not m:
        fail('no car_model in the JSON: the model was not drawn')
    w, h, rows = read_png(path)
    pos, q = car['drawn_position_m'], car['drawn_rotation_wxyz']

    def colour(X, Y, Z):
        world = [p + r for p, r in zip(pos, rotate(q, [X - 0.001, Y, Z]))]
        px, py = project(cam, world)
        if not (2 <= px < w - 2 and 2 <= py < h - 2):
            fail(f'design point ({X}, {Y}, {Z}) is off the picture')
        return mean_colour(rows, int(px) - 1, int(px) + 2, int(py) - 1, int(py) + 2), (px, py)

    ok = True
    print(f'model: {m["triangles"]} triangles, {m.get("translucent_triangles")} translucent')
    if m.get('translucent_triangles') != 4 or m['triangles'] != 10:
        print('FAIL: expected 10 triangles, 4 of them translucent')
        ok = False
    wall, at = colour(1.0, 2.0, 1.4)
    wall_high, _ = colour(1.0, -2.0, 2.3)
    print(f'wall seen directly: {[round(c) for c in wall]} at ({at[0]:.0f}, {at[1]:.0f}), {[round(c) for c in wall_high]}')
    for opaque_y, glass_y, z, a, what in ((0.5, -0.5, 1.4, GLASS_ALPHA / 255, 'texture alpha'),
                                          (0.5, -0.5, 2.3, 0.5, 'material trans 0.5')):
        front, _ = colour(-1.0, opaque_y, z)
        got, at = colour(-1.0, glass_y, z)
        want = [a * f + (1 - a) * b for f, b in zip(front, wall)]
        err = max(abs(g - x) for g, x in zip(got, want))
        print(f'{what}: opaque pane {[round(c) for c in front]}, translucent pane {[round(c) for c in got]} at '
              f'({at[0]:.0f}, {at[1]:.0f}), expected {a:.3f}·pane + {1 - a:.3f}·wall = {[round(c) for c in want]}: '
              f'max |diff| {err:.1f}')
        if err > 4:
            ok = False
    if not ok:
        fail('a translucent pane does not show what is behind it')


def check_chase_wall(json_path, wall_y):
    """The chase camera's eye stays on the track side of a straight wall along y = wall_y
    (the default track's start straight: docs/tracks.md, barrier at ±(w/2 + kerb + run-off)),
    with at least 0.3 m to spare (the near plane is 0.1 m)."""
    d = json.load(open(json_path))
    eye = d['camera']['eye_m']
    inside = wall_y - eye[1] if wall_y > 0 else eye[1] - wall_y
    print(f'chase eye {eye}: {inside:.3f} m inside the wall at y = {wall_y}')
    if inside < 0.3:
        fail('the chase camera is in or beyond the wall')


def check_chase_terrain(json_path, bt_path):
    """The chase camera's eye is at least 0.3 m above the terrain (heights read here)."""
    d = json.load(open(json_path))
    eye = d['camera']['eye_m']
    z = terrain_height(read_bt(bt_path), eye[0], eye[1])
    if z is None:
        fail('the eye is off the terrain')
    print(f'chase eye {eye}: {eye[2] - z:.3f} m above the terrain ({z:.3f} m)')
    if eye[2] - z < 0.3:
        fail('the chase camera is in or under the terrain')


def check_wheels(with_wheels, without, json_path, car_ini, heading_deg):
    """The followed car's wheels (drawn alone, --hide-body) are where its car file puts them:
    for a car at rest on flat ground heading `heading_deg`, each wheel's centre is at the car's
    position + the axle's x and ±half_track turned by the heading, one wheel radius up (the
    design origin sits on the ground; tyre deflection ~1 cm). A 5 x 5 box around each centre's
    projection must differ from the frame without the car."""
    import configparser
    ini = configparser.ConfigParser(inline_comment_prefixes=(';', '#'))
    ini.read(car_ini)
    d = json.load(open(json_path))
    pos, cam = d['car']['position_m'], d['camera']
    h = math.radians(heading_deg)
    w, hgt, a = read_png(with_wheels)
    _, _, b = read_png(without)
    ok = True
    for axle in ('axle.front', 'axle.rear'):
        x = float(ini[axle]['x'].split()[0]); ht = float(ini[axle]['half_track'].split()[0])
        r = float(ini[axle]['wheel_radius'].split()[0])
        for side in (1, -1):
            lx, ly = x, side * ht
            centre = [pos[0] + lx * math.cos(h) - ly * math.sin(h), pos[1] + lx * math.sin(h) + ly * math.cos(h), pos[2] + r]
            px, py = project(cam, centre)
            cx, cy = int(px), int(py)
            f = diff_fraction(a, b, cx - 2, cx + 3, cy - 2, cy + 3, threshold=12)
            print(f'{axle} {"left" if side > 0 else "right"}: centre {[round(c, 3) for c in centre]} at pixel ({px:.1f}, {py:.1f}): {100 * f:.0f} % differ')
            ok = ok and f >= 0.8
    if not ok:
        fail('a wheel is not where the car file puts it')


def torcs_brake_lamps(car_xml):
    """The brake lamps of a TORCS car XML (Graphic Objects/Light/N of type brake or brake2): a
    list of (x, y, z) in the car's axes, read here with Python's own XML parser."""
    import xml.etree.ElementTree as ET
    root = ET.parse(car_xml).getroot()
    lamps = []
    for go in root.iter('section'):
        if go.get('name') != 'Graphic Objects':
            continue
        for light in go.iter('section'):
            if light.get('name') != 'Light':
                continue
            for lamp in light.findall('section'):
                attrs = {a.get('name'): a.get('val') for a in lamp}
                if attrs.get('type', '').lower() in ('brake', 'brake2'):
                    lamps.append(tuple(float(attrs[k]) for k in ('xpos', 'ypos', 'zpos')))
    return lamps


def rotate(q, v):
    w, x, y, z = q
    r = [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
         [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
         [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]
    return [sum(r[i][j] * v[j] for j in range(3)) for i in range(3)]


def check_drawbar(path, json_path, rear_x, ball_x, ball_z, front_x):
    """A car towing a trailer straight behind it, both at rest, seen from above: the towing car's
    rear face is at rear_x (its design frame), the ball at (ball_x, 0, ball_z), the trailer's
    front face at front_x (the same frame). Along the gap between the two faces the pixels are
    the bars' dark steel; 0.3 m to either side, the ground's lighter grey."""
    d = json.load(open(json_path))
    cam, car = d['camera'], d['car']
    w, h, rows = read_png(path)
    pos, q = car['drawn_position_m'], car['drawn_rotation_wxyz']

    def world(x, y, z):
        r = rotate(q, [x, y, z])
        return [pos[i] + r[i] for i in range(3)]

    def luminance(x, y, z):
        px, py = project(cam, world(x, y, z))
        return pixel(rows, int(px), int(py))

    bar, side = [], []
    for k in range(1, 20):
        x = front_x + (rear_x - front_x) * k / 20.0
        bar.append(luminance(x, 0.0, ball_z))
        side.append(luminance(x, 0.3, ball_z))
        side.append(luminance(x, -0.3, ball_z))
    grey = lambda c: sum(c) / 3.0
    darkest_side = min(grey(c) for c in side)
    lightest_bar = max(grey(c) for c in bar)
    print(f'drawbar: 19 samples along the bar at most {lightest_bar:.0f}, 38 beside it at least {darkest_side:.0f} '
          f'(grey levels); ball at {ball_x:.3f} m between {front_x:.3f} and {rear_x:.3f}')
    if not front_x < ball_x < rear_x:
        fail('the ball is not between the two cars')
    if not (lightest_bar < 110 and darkest_side > lightest_bar + 40):
        fail('no dark bar between the cars')


def check_lamps(path, json_path, car_xml, expect):
    """At each brake lamp of the car XML, put through the drawn pose of the followed car and the
    camera, a 3 x 3 box is saturated red (R >= 170, R >= 2.5 x G and B) when `expect` is 'lit',
    and is not when it is 'dark'."""
    d = json.load(open(json_path))
    cam, car = d['camera'], d['car']
    pos, q = car['drawn_position_m'], car['drawn_rotation_wxyz']
    w, h, rows = read_png(path)
    if expect == 'lit' and not car['brake'] >= 0.25:
        fail(f'the car is not braking hard in that frame (brake {car["brake"]})')
    if expect == 'dark' and car['brake'] != 0:
        fail(f'the car brakes in that frame (brake {car["brake"]})')
    lamps = torcs_brake_lamps(car_xml)
    if len(lamps) < 2:
        fail('fewer than two brake lamps in ' + car_xml)
    ok = True
    for lamp in lamps:
        world = [p + r for p, r in zip(pos, rotate(q, lamp))]
        px, py = project(cam, world)
        r, g, b = mean_colour(rows, int(px) - 1, int(px) + 2, int(py) - 1, int(py) + 2)
        red = r >= 170 and r >= 2.5 * max(g, b)
        print(f'lamp {lamp} at pixel ({px:.1f}, {py:.1f}): colour ({r:.0f}, {g:.0f}, {b:.0f}), brake {car["brake"]:.2f}')
        ok = ok and (red if expect == 'lit' else not red)
    if not ok:
        fail(f'brake lamps: expected {expect}')


def check_systems(path, expect):
    """The HUD's car-systems line (viewer/hud.c: top right, rows 84..102, right of x = width - 260):
    the labels are found as runs of text columns (a gap of 10 px or more separates two labels;
    the space inside "ABS off" is narrower), there must be three, at least 8 px apart, and each
    one's colour is green (on), amber (acting) or grey (off), against expect, e.g.
    "on,off,acting"."""
    w, h, rows = read_png(path)
    want = expect.split(',')

    def kind(r, g, b):
        if g > 150 and r < 110 and b < 140:
            return 'on'
        if r > 200 and 130 < g < 225 and b < 90:
            return 'acting'
        if min(r, g, b) > 170 and max(r, g, b) - min(r, g, b) < 40:
            return 'off'
        return None

    columns = []
    for x in range(w - 260, w - 16):
        ks = [kind(*pixel(rows, x, y)[:3]) for y in range(84, 103)]
        columns.append([k for k in ks if k])
    labels, current, gap = [], None, 99
    for i, ks in enumerate(columns):
        if ks:
            if current is None or gap >= 10:
                current = {'start': i, 'end': i, 'counts': {'on': 0, 'acting': 0, 'off': 0}}
                labels.append(current)
            current['end'] = i
            for k in ks:
                current['counts'][k] += 1
            gap = 0
        else:
            gap += 1
    got = []
    for j, lab in enumerate(labels):
        counts = lab['counts']
        got.append(max(counts, key=counts.get) if max(counts.values()) >= 15 else 'none')
        print(f'systems label {j}: x {w - 260 + lab["start"]}..{w - 260 + lab["end"]} px, {counts} -> {got[-1]}')
    gaps = [labels[j + 1]['start'] - labels[j]['end'] for j in range(len(labels) - 1)]
    if len(labels) != 3 or min(gaps) < 8:
        fail(f'car systems on the HUD: {len(labels)} labels with gaps {gaps} px, expected 3 apart')
    if got != want:
        fail(f'car systems on the HUD: {",".join(got)}, expected {expect}')


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    cmd, args = argv[1], argv[2:]
    if cmd == 'sky':
        check_sky(*args)
    elif cmd == 'centre':
        check_centre(*args)
    elif cmd == 'marker':
        check_marker(args[0], args[1], *map(float, args[2:5]))
    elif cmd == 'hud':
        check_hud(*args)
    elif cmd == 'click':
        check_click(args[0], args[1], float(args[2]), float(args[3]))
    elif cmd == 'write-quadrants':
        write_quadrants(*args)
    elif cmd == 'drape':
        check_drape(*args)
    elif cmd == 'wheels':
        check_wheels(args[0], args[1], args[2], args[3], float(args[4]))
    elif cmd == 'wheel-steer':
        check_wheel_steer(*args)
    elif cmd == 'wheel-spin':
        check_wheel_spin(*args)
    elif cmd == 'torcs-windows':
        check_torcs_windows(*args)
    elif cmd == 'write-glass-model':
        write_glass_model(*args)
    elif cmd == 'glass':
        check_glass(*args)
    elif cmd == 'chase-wall':
        check_chase_wall(args[0], float(args[1]))
    elif cmd == 'chase-terrain':
        check_chase_terrain(*args)
    elif cmd == 'lamps':
        check_lamps(*args)
    elif cmd == 'write-world-file':
        write_world_file(*args)
    elif cmd == 'georef':
        check_georef(*args)
    elif cmd == 'systems':
        check_systems(*args)
    elif cmd == 'drawbar':
        check_drawbar(args[0], args[1], *[float(a) for a in args[2:]])
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
