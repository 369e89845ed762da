"""Build truclog: the C cores of quick validation and of the double-dummy solver, and
the engine and the validator compiled with mypyc where it can.

Wheels (``pip install .``) are compiled with mypyc unless TRUCLOG_MYPYC=0; editable
installs (``pip install -e .``) are not, unless TRUCLOG_MYPYC=1, since a compiled
module in the work tree hides later edits of its source. Both build the C cores
(truclog/_quick.c and truclog/_solve.c: no module of the same name to hide). Without
a working C compiler the build falls back to pure Python: the mypyc modules are the
same source, validation checks every game line by line, and strength.py solves in
Python.
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
    "truclog/diagnostic.py",
    "truclog/copies.py",
    "truclog/tally.py",
    "truclog/facts.py",
    "truclog/lines.py",
    "truclog/quick.py",
]


def core(name: str) -> Extension:
    """The C extension ``truclog.<name>`` from ``truclog/<name>.c``, knowing the SHA-256 of
    its source as ``SOURCE`` (so that a stale build in a work tree is not used)."""
    source = f"truclog/{name}.c"
    with open(source, "rb") as text:
        digest = hashlib.sha256(text.read()).hexdigest()
    macro = f"{name.strip('_').upper()}_SOURCE"
    return Extension(
        f"truclog.{name}",
        [source],
        define_macros=[(macro, f'"{digest}"')],
        depends=["truclog/_solve.h"],  # the solver the quick core calls (a capsule of _solve)
    )


CORES = [core("_quick"), core("_solve")]
"""Plain C, built for every install: the quick core of truclog validate
(truclog/quick.py) and the double-dummy solver of truclog/strength.py."""
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
        return CORES  # editable installs stay pure Python unless asked, but for the C core
    try:
        from mypyc.build import mypycify
    except ImportError:
        return CORES
    return [*CORES, *mypycify(COMPILED, opt_level="3", target_dir=os.path.join(build, "mypyc"))]


# Each build in a fresh folder: no module compiled by an earlier build is ever packaged.
BUILD = tempfile.mkdtemp(prefix="truclog-build-") if (WHEEL | EDITABLE) & set(sys.argv) else "build"
if BUILD != "build":
    atexit.register(shutil.rmtree, BUILD, ignore_errors=True)
setup(
    ext_modules=ext_modules(BUILD),
    cmdclass={"build_ext": OptionalBuildExt},
    options={"build": {"build_base": BUILD}},
)
