"""Build truclog: the C core of quick validation, and the engine and the validator
compiled with mypyc where it can.

Wheels (``pip install .``) are compiled with mypyc unless TRUCLOG_MYPYC=0; editable
installs (``pip install -e .``) are not, unless TRUCLOG_MYPYC=1, since a compiled
module in the work tree hides later edits of its source. Both build the C core
(truclog/_quick.c, no Python twin to hide). Without a working C compiler the build
falls back to pure Python: the mypyc modules are the same source, and validation
checks every game line by line.
"""

import atexit
import hashlib
import os
import shutil
import sys
import tempfile

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

COMPILED = [
    "truclog/cards.py",
    "truclog/trick.py",
    "truclog/actions.py",
    "truclog/holding.py",
    "truclog/engine.py",
    "truclog/validate.py",
    "truclog/reader.py",
    "truclog/shapes.py",
]
QUICK_SOURCE = "truclog/_quick.c"
with open(QUICK_SOURCE, "rb") as source:
    QUICK_DIGEST = hashlib.sha256(source.read()).hexdigest()
QUICK = Extension(
    "truclog._quick", [QUICK_SOURCE], define_macros=[("QUICK_SOURCE", f'"{QUICK_DIGEST}"')]
)
"""The quick core of truclog validate (truclog/quick.py): plain C, built for every install,
knowing the digest of its source (so that a stale build in a work tree is not used)."""
WHEEL = {"build_ext", "build", "bdist_wheel", "install"}
EDITABLE = {"editable_wheel", "develop"}


class OptionalBuildExt(build_ext):
    """Build the extensions, or warn and stay pure Python when compiling fails."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler, missing headers: fall back
            print(f"truclog: C build failed ({exc}); installing pure Python", file=sys.stderr)
            self.extensions = []


def ext_modules(build: str) -> list:
    wanted = os.environ.get("TRUCLOG_MYPYC", "")
    steps = set(sys.argv)
    if not (WHEEL | EDITABLE) & steps:
        return []  # metadata steps need no compiling
    if wanted == "0" or not (WHEEL & steps or (wanted == "1" and EDITABLE & steps)):
        return [QUICK]  # editable installs stay pure Python unless asked, but for the C core
    try:
        from mypyc.build import mypycify
    except ImportError:
        return [QUICK]
    return [QUICK, *mypycify(COMPILED, opt_level="3", target_dir=os.path.join(build, "mypyc"))]


# Each build in a fresh folder: no module compiled by an earlier build is ever packaged.
BUILD = tempfile.mkdtemp(prefix="truclog-build-") if (WHEEL | EDITABLE) & set(sys.argv) else "build"
if BUILD != "build":
    atexit.register(shutil.rmtree, BUILD, ignore_errors=True)
setup(
    ext_modules=ext_modules(BUILD),
    cmdclass={"build_ext": OptionalBuildExt},
    options={"build": {"build_base": BUILD}},
)
