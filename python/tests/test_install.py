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
