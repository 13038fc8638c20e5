"""pip install --no-build-isolation ./python  (run from the repository root; offline).

Builds the extension module exactdp._exactdp with the project's own CMake build (the C++
layers and pybind11 from Debian; never the CLI), then installs the pure-Python
package beside it. Needs what scripts/setup installs (cmake, g++, libgmp-dev, libmpfr-dev,
libsodium-dev, pybind11-dev, python3-dev); no network, no build isolation.
EXACTDP_BUILD_JOBS sets the parallel build jobs (default: the number of CPUs).
"""

import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


class CMakeBuildExt(build_ext):
    def build_extension(self, ext: Extension) -> None:
        target = Path(self.get_ext_fullpath(ext.name)).resolve()
        build_dir = Path(self.build_temp).resolve() / "cmake"
        out_dir = build_dir / "module"
        out_dir.mkdir(parents=True, exist_ok=True)
        jobs = os.environ.get("EXACTDP_BUILD_JOBS", str(os.cpu_count() or 1))
        subprocess.run(
            ["cmake", "-S", str(ROOT), "-B", str(build_dir), "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
             "-DEXACTDP_BUILD_TESTS=OFF", "-DEXACTDP_BUILD_PYTHON=ON",
             f"-DEXACTDP_PYTHON_OUTPUT_DIR={out_dir}", f"-DPython_EXECUTABLE={sys.executable}"],
            check=True,
        )
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "_exactdp", "-j", jobs], check=True)
        built = glob.glob(str(out_dir / "_exactdp*.so"))
        if len(built) != 1:
            raise RuntimeError(f"expected one built module in {out_dir}, found {built}")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[0], target)


setup(
    name="exactdp",
    version="0.1.0",
    description="Exact differential-privacy samplers and certified privacy accounting",
    packages=["exactdp"] + ["exactdp." + p for p in find_packages(where=str(HERE / "exactdp"))],
    package_dir={"exactdp": str(Path("exactdp"))},
    package_data={"exactdp": ["py.typed", "*.pyi"]},
    ext_modules=[Extension("exactdp._exactdp", sources=[])],
    cmdclass={"build_ext": CMakeBuildExt},
    python_requires=">=3.9",
    install_requires=["numpy"],
    zip_safe=False,
)
