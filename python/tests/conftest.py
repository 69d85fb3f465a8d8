"""Paths the tests need. ctest sets GRIP_PYTHON_LIBRARY, GRIP_C_REFERENCE and GRIP_TOOL (the
build's libgrip_python.so, grip_c_reference and grip); run by hand, the tests look in ../../build."""
import os
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
BUILD = os.path.join(SOURCE, "build")
os.environ.setdefault("GRIP_PYTHON_LIBRARY", os.path.join(BUILD, "libgrip_python.so"))


def _program(variable, name):
    path = os.environ.get(variable, os.path.join(BUILD, name))
    if not os.path.exists(path):
        pytest.fail(f"{path} not found: build it (cmake --build build) or set {variable}")
    return path


@pytest.fixture(scope="session")
def c_reference():
    """Runs grip_c_reference with args; returns (hash, [[x, y, speed, rpm] per car])."""
    path = _program("GRIP_C_REFERENCE", "grip_c_reference")

    def run(*args):
        out = subprocess.run([path, *map(str, args)], check=True, capture_output=True, text=True).stdout
        lines = out.split("\n")
        h = int(lines[0].split()[1])
        cars = [[float(v) for v in line.split()[2:]] for line in lines[1:] if line.startswith("car ")]
        return h, cars

    return run


@pytest.fixture(scope="session")
def grip_tool():
    return _program("GRIP_TOOL", "grip")


@pytest.fixture(scope="session")
def source_dir():
    return SOURCE
