#!/usr/bin/env python3
"""Writes a VTP .bt 1.3 terrain (float32 heights, metres, no CRS) from a closed-form height.

Usage:
  make_hills_bt.py OUT.bt                      the shipped data/scenes/hills.bt (129 x 129, 4 m)
  make_hills_bt.py OUT.bt --plane A B C [--cols N --rows M --cell D --left L --bottom B0]
                                               the plane z = A*x + B*y + C (for tests)
  make_hills_bt.py OUT.bt --cols 4097 --rows 4097 --cell 1
                                               the same hills on a large grid (the viewer's
                                               level-of-detail test); above 1e6 heights numpy
                                               computes them (the same formula in float64)

Layout (docs/terrain.md): 256-byte little-endian header, then the heights column by column from
the west, each column from south to north. Extents are the outer cell edges; each height belongs
to its cell's centre, x = left + (c + 0.5)*cell, y = bottom + (r + 0.5)*cell.
"""
import math
import struct
import sys


def hills(x, y):
    # Rolling hills around 100 m: two crossing waves and a gentle rise to the north-east.
    # Steepest grade about 12 %.
    return (100.0 + 2.5 * math.sin(2 * math.pi * x / 260.0) * math.cos(2 * math.pi * y / 300.0)
            + 1.2 * math.sin(2 * math.pi * (x + y) / 200.0) + 0.02 * x + 0.01 * y)


def write_bt(path, cols, rows, cell, left, bottom, height):
    right, top = left + cols * cell, bottom + rows * cell
    header = bytearray(256)
    header[0:10] = b"binterr1.3"
    struct.pack_into("<ii", header, 10, cols, rows)
    struct.pack_into("<hhhhh", header, 18, 4, 1, 1, 0, 6326)  # float32, metres, no UTM, WGS84
    struct.pack_into("<dddd", header, 28, left, right, bottom, top)
    struct.pack_into("<hf", header, 60, 0, 1.0)  # no .prj, vertical scale 1 m
    data = bytearray()
    for c in range(cols):
        x = left + (c + 0.5) * cell
        for r in range(rows):
            y = bottom + (r + 0.5) * cell
            data += struct.pack("<f", height(x, y))
    with open(path, "wb") as f:
        f.write(header)
        f.write(data)


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    out = argv[1]
    opts = {"--cols": 129, "--rows": 129, "--cell": 4.0, "--left": None, "--bottom": None}
    plane = None
    i = 2
    while i < len(argv):
        if argv[i] == "--plane":
            plane = [float(v) for v in argv[i + 1:i + 4]]
            i += 4
        elif argv[i] in opts:
            opts[argv[i]] = float(argv[i + 1])
            i += 2
        else:
            sys.exit("unknown option " + argv[i])
    cols, rows, cell = int(opts["--cols"]), int(opts["--rows"]), opts["--cell"]
    left = opts["--left"] if opts["--left"] is not None else -0.5 * cols * cell
    bottom = opts["--bottom"] if opts["--bottom"] is not None else -0.5 * rows * cell
    if plane:
        a, b, c = plane
        write_bt(out, cols, rows, cell, left, bottom, lambda x, y: a * x + b * y + c)
    elif cols * rows > 1000000:
        write_bt_numpy(out, cols, rows, cell, left, bottom)
    else:
        write_bt(out, cols, rows, cell, left, bottom, hills)


def write_bt_numpy(path, cols, rows, cell, left, bottom):
    import numpy as np
    right, top = left + cols * cell, bottom + rows * cell
    header = bytearray(256)
    header[0:10] = b"binterr1.3"
    struct.pack_into("<ii", header, 10, cols, rows)
    struct.pack_into("<hhhhh", header, 18, 4, 1, 1, 0, 6326)
    struct.pack_into("<dddd", header, 28, left, right, bottom, top)
    struct.pack_into("<hf", header, 60, 0, 1.0)
    x = left + (np.arange(cols) + 0.5) * cell
    y = bottom + (np.arange(rows) + 0.5) * cell
    X, Y = np.meshgrid(x, y, indexing="ij")  # [column][row]: column by column, south to north
    Z = (100.0 + 2.5 * np.sin(2 * np.pi * X / 260.0) * np.cos(2 * np.pi * Y / 300.0)
         + 1.2 * np.sin(2 * np.pi * (X + Y) / 200.0) + 0.02 * X + 0.01 * Y)
    with open(path, "wb") as f:
        f.write(header)
        f.write(Z.astype("<f4").tobytes())


if __name__ == "__main__":
    main(sys.argv)
