"""Builds libgrip_python.so with CMake from the enclosing grip source tree and puts it inside the
package (docs/python.md). GRIP_BUILD_DIR=path reuses a configured build tree instead."""
import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(HERE)
LIBRARY = "libgrip_python.so"


class BuildWithNative(build_py):
    def run(self):
        super().run()
        build_dir = os.environ.get("GRIP_BUILD_DIR") or os.path.join(HERE, "build", "native")
        if not os.environ.get("GRIP_BUILD_DIR"):
            if not os.path.exists(os.path.join(SOURCE, "CMakeLists.txt")):
                raise SystemExit(f"grip: {SOURCE} is not the grip source tree (pip install ./python from a "
                                 "clone, or set GRIP_BUILD_DIR to a configured build)")
            subprocess.check_call(["cmake", "-S", SOURCE, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                                   "-DGRIP_BUILD_TESTS=OFF"])
        subprocess.check_call(["cmake", "--build", build_dir, "--target", "grip_python", "-j",
                               os.environ.get("GRIP_JOBS", "2")])
        target = os.path.join(self.build_lib, "grip")
        os.makedirs(target, exist_ok=True)
        shutil.copy2(os.path.join(build_dir, LIBRARY), os.path.join(target, LIBRARY))


class NativeDistribution(Distribution):
    def has_ext_modules(self):  # a platform wheel: it carries a shared library
        return True


setup(cmdclass={"build_py": BuildWithNative}, distclass=NativeDistribution)
