"""pip install --no-build-isolation ./python  (run from the repository root; offline).

Builds the extension module exactdp._exactdp with the project's own CMake build (the C++
layers and pybind11 from Debian; never the CLI), then installs the pure-Python
package beside it. Needs what scripts/setup installs (cmake, g++, libgmp-dev, libmpfr-dev,
libsodium-dev, pybind11-dev, python3-dev); no network, no build isolation.
An existing build tree is reused (only what changed since is rebuilt): EXACTDP_BUILD_DIR, else
the repository's build/ when it was configured for this Python version; otherwise a build of
its own under pip's build folder (the whole core: ~12 minutes on 2 cores). EXACTDP_BUILD_JOBS
sets the parallel build jobs (default: the number of CPUs).
"""

import glob
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Optional

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def existing_build() -> Optional[Path]:
    """A configured build tree whose module has this interpreter's suffix, or None."""
    given = os.environ.get("EXACTDP_BUILD_DIR")
    for candidate in ([Path(given)] if given else []) + [ROOT / "build"]:
        cache = candidate.resolve() / "CMakeCache.txt"
        if not cache.is_file():
            continue
        text = cache.read_text(errors="replace")
        suffix = re.search(r"^PYTHON_MODULE_EXTENSION:INTERNAL=(.*)$", text, re.M)
        python_on = re.search(r"^EXACTDP_BUILD_PYTHON:BOOL=ON$", text, re.M)
        if python_on and suffix and suffix.group(1) == sysconfig.get_config_var("EXT_SUFFIX"):
            return candidate.resolve()
        print(f"setup.py: {candidate} is not configured for this Python ({sysconfig.get_config_var('EXT_SUFFIX')})"
              " with EXACTDP_BUILD_PYTHON=ON: building the module in a folder of its own", file=sys.stderr)
    return None


class CMakeBuildExt(build_ext):
    def build_extension(self, ext: Extension) -> None:
        target = Path(self.get_ext_fullpath(ext.name)).resolve()
        jobs = os.environ.get("EXACTDP_BUILD_JOBS", str(os.cpu_count() or 1))
        reused = existing_build()
        if reused is not None:
            print(f"setup.py: reusing the build tree {reused} (rebuilding what changed)", file=sys.stderr)
            subprocess.run(["cmake", "--build", str(reused), "--target", "_exactdp", "-j", jobs], check=True)
            self.copy_module(reused / "python" / "exactdp", target)
            return
        print("setup.py: building the C++ core and the module (~12 minutes on 2 cores the first time)",
              file=sys.stderr)
        build_dir = Path(self.build_temp).resolve() / "cmake"
        out_dir = build_dir / "module"
        out_dir.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["cmake", "-S", str(ROOT), "-B", str(build_dir), "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
             "-DEXACTDP_BUILD_TESTS=OFF", "-DEXACTDP_BUILD_PYTHON=ON",
             f"-DEXACTDP_PYTHON_OUTPUT_DIR={out_dir}", f"-DPython_EXECUTABLE={sys.executable}"],
            check=True,
        )
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "_exactdp", "-j", jobs], check=True)
        self.copy_module(out_dir, target)

    @staticmethod
    def copy_module(out_dir: Path, target: Path) -> None:
        built = glob.glob(str(out_dir / ("_exactdp" + sysconfig.get_config_var("EXT_SUFFIX"))))
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
