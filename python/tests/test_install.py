"""`cmake --install` puts the package beside the library under the prefix, and it works from there."""
import os
import subprocess
import sys
import sysconfig

import pytest


def test_cmake_install_into_a_temporary_prefix(tmp_path):
    build = os.path.dirname(os.environ["GRIP_PYTHON_LIBRARY"])
    if not os.path.exists(os.path.join(build, "cmake_install.cmake")):
        pytest.skip(f"{build} is not a CMake build tree")
    prefix = tmp_path / "prefix"
    subprocess.run(["cmake", "--install", build, "--prefix", str(prefix)], check=True, capture_output=True)
    version = "%d.%d" % sys.version_info[:2]
    kind = "dist-packages" if "dist-packages" in sysconfig.get_paths()["purelib"] else "site-packages"
    site = prefix / "lib" / f"python{version}" / kind
    assert (site / "grip" / "libgrip_python.so").exists()
    assert (site / "grip" / "grip_python.h").exists()
    env = {k: v for k, v in os.environ.items() if k not in ("GRIP_PYTHON_LIBRARY", "PYTHONPATH")}
    env["PYTHONPATH"] = str(site)
    code = ("import grip, grip._native as n; w = grip.World(); w.add_vehicle(grip.Car(), 0, 0); w.step(0.01, 100);"
            "print(n._path); print(w.get_states()[0, grip.STATE_INDEX['z']])")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, env=env,
                         cwd=tmp_path).stdout.split()
    assert out[0] == str(site / "grip" / "libgrip_python.so")  # the installed library, not the build's
    # the car settled on the ground: design-frame origin near z = 0 (on the ground, docs/architecture.md)
    assert abs(float(out[1])) < 0.05


def test_pip_install_into_a_venv_offline(tmp_path):
    """pip install --no-build-isolation --no-index of the package (a copy of python/, reusing this
    build's library through GRIP_BUILD_DIR) into a venv that sees Debian's modules."""
    import importlib.util
    import shutil

    for module in ("pip", "setuptools", "wheel", "venv", "ensurepip"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{sys.executable} has no {module} (python3-pip python3-setuptools python3-wheel "
                        "python3-venv)")
    build = os.path.dirname(os.environ["GRIP_PYTHON_LIBRARY"])
    if not os.path.exists(os.path.join(build, "cmake_install.cmake")):
        pytest.skip(f"{build} is not a CMake build tree")
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    copy = tmp_path / "python"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("build", "tests", "bench", "__pycache__",
                                                                 "*.egg-info"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True,
                   capture_output=True)
    env = {k: v for k, v in os.environ.items() if k not in ("GRIP_PYTHON_LIBRARY", "PYTHONPATH")}
    env["GRIP_BUILD_DIR"] = build
    r = subprocess.run([str(venv / "bin" / "pip"), "install", "--no-build-isolation", "--no-index", str(copy)],
                       capture_output=True, text=True, env=env, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    code = ("import grip, grip._native as n; e = grip.TrackEnv(); o, _ = e.reset(seed=0); "
            "print(n._path); print(e.state_hash())")
    out = subprocess.run([str(venv / "bin" / "python"), "-c", code], check=True, capture_output=True, text=True,
                         env=env, cwd=tmp_path).stdout.split()
    assert out[0].startswith(str(venv)) and out[0].endswith("grip/libgrip_python.so")
    assert (venv / "bin" / "grip-sweep").exists()
    # the installed package steps like the source tree's
    env_here = grip_env_hash()
    assert int(out[1]) == env_here


def grip_env_hash():
    import grip
    e = grip.TrackEnv()
    e.reset(seed=0)
    return e.state_hash()
