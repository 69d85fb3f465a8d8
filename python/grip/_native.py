"""Loads libgrip_python.so with cffi (ABI mode) and declares its interface.

The declarations are read from grip_python.h (shipped beside this file), between its
``cdef-begin`` and ``cdef-end`` markers, so the C header is their only source. The library is
looked for, in order: ``$GRIP_PYTHON_LIBRARY`` (a path to the .so; the build tree's tests set
it), then this package's own directory (where ``cmake --install`` and ``pip install`` put it),
then, for a package used from a source tree, that tree's ``build/`` directory.
"""

import os

import cffi

_HERE = os.path.dirname(os.path.abspath(__file__))
LIBRARY_NAME = "libgrip_python.so"

# The two types the header takes by value from grip's public headers (grip/types.h).
_PRELUDE = """
typedef int grip_result;
typedef struct { uint32_t index; uint32_t generation; } grip_vehicle_id;
"""


def _declarations():
    with open(os.path.join(_HERE, "grip_python.h"), encoding="utf-8") as f:
        text = f.read()
    begin = text.index("/* cdef-begin */") + len("/* cdef-begin */")
    return text[begin:text.index("/* cdef-end */")]


def _library_path():
    env = os.environ.get("GRIP_PYTHON_LIBRARY")
    if env:
        return env
    installed = os.path.join(_HERE, LIBRARY_NAME)
    in_source_build = os.path.join(_HERE, "..", "..", "build", LIBRARY_NAME)
    if not os.path.exists(installed) and os.path.exists(in_source_build):
        return os.path.normpath(in_source_build)
    return installed


ffi = cffi.FFI()
ffi.cdef(_PRELUDE + _declarations())
_path = _library_path()
try:
    lib = ffi.dlopen(_path)
except OSError as e:  # pragma: no cover - an install problem, reported clearly
    raise ImportError(
        f"grip: cannot load {_path} ({e}). Build it with CMake (target grip_python) and set "
        "GRIP_PYTHON_LIBRARY, or install the package (docs/python.md)") from None

ERROR_SIZE = 1024


class GripError(Exception):
    """An error reported by grip's C code; the message is the C message ("file:line: key: ...")."""


class LoadError(GripError):
    """A car, track, scene, .tir or robot parameter that does not load."""


def error_buffer():
    return ffi.new("char[]", ERROR_SIZE)


def error_text(buffer):
    return ffi.string(buffer).decode("utf-8", "replace")


def encode(text):
    return ffi.NULL if text is None else os.fsencode(text)


RESULT_NAMES = {0: "GRIP_OK", 1: "GRIP_INVALID_ARGUMENT", 2: "GRIP_INVALID_ID", 3: "GRIP_OUT_OF_MEMORY"}


def check_result(code, what):
    if code != 0:
        raise ValueError(f"{what}: {RESULT_NAMES.get(code, code)}")
