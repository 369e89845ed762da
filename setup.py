"""Build truclog: the C cores of quick validation and of the double-dummy solver, and
the engine and the validator compiled with mypyc where it can.

Wheels (``pip install .``) are compiled with mypyc unless TRUCLOG_MYPYC=0; editable
installs (``pip install -e .``) are not, unless TRUCLOG_MYPYC=1, since a compiled
module in the work tree hides later edits of its source. Both build the C cores
(truclog/validate/_quick.c and truclog/solver/_solve.c: no module of the same name to hide). Without
a working C compiler the build falls back to pure Python: the mypyc modules are the
same source, validation checks every game line by line, and strength.py solves in
Python.
"""

import atexit
import os
import runpy
import shutil
import sys
import tempfile

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

SOURCES = runpy.run_path("truclog/sources.py")
"""The digest of a C core's sources (truclog/sources.py, run from its path: the package
is not imported while it is being built)."""

COMPILED = [
    "truclog/engine/cards.py",
    "truclog/engine/trick.py",
    "truclog/engine/actions.py",
    "truclog/engine/holding.py",
    "truclog/engine/state.py",
    "truclog/validate/checker.py",
    "truclog/format/reader.py",
    "truclog/format/shapes.py",
    "truclog/diagnostic.py",
    "truclog/format/copies.py",
    "truclog/validate/tally.py",
    "truclog/validate/facts.py",
    "truclog/validate/games.py",
    "truclog/validate/quick.py",
]


def core(package: str, name: str) -> Extension:
    """The C extension ``truclog.<package>.<name>`` from ``truclog/<package>/<name>.c``,
    knowing the SHA-256 of its source and the headers it includes as ``SOURCE`` (so that
    a stale build in a work tree is not used)."""
    source = f"truclog/{package}/{name}.c"
    digest = SOURCES["source_digest"](source)
    macro = f"{name.strip('_').upper()}_SOURCE"
    return Extension(
        f"truclog.{package}.{name}",
        [source],
        define_macros=[(macro, f'"{digest}"')],
        # the headers the cores include (the quick core calls the solver, a capsule of _solve)
        depends=[
            "truclog/solver/_solve.h",
            "truclog/engine/_trick.h",
            "truclog/validate/_blake2b.h",
            "truclog/validate/_columns.h",
            "truclog/validate/_counts.h",
            "truclog/validate/_decisions.h",
            "truclog/validate/_wide.h",
        ],
    )


CORES = [core("validate", "_quick"), core("solver", "_solve")]
"""Plain C, built for every install: the quick core of truclog validate
(truclog/validate/quick.py) and the double-dummy solver of truclog/solver/strength.py."""
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


class BuildWithSamples(build_py):
    """Install the sample logs of the checkout's ``sample_logs/`` as ``truclog/samples/``
    (``truclog.samples()``), so that ``truclog browse`` with no path and the README's
    examples work wherever truclog is installed. An editable install reads them
    from the checkout instead."""

    def run(self) -> None:
        super().run()
        if not getattr(self, "editable_mode", False) and os.path.isdir("sample_logs"):
            target = os.path.join(self.build_lib, "truclog", "samples")
            shutil.copytree("sample_logs", target, dirs_exist_ok=True)


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
    cmdclass={"build_ext": OptionalBuildExt, "build_py": BuildWithSamples},
    options={"build": {"build_base": BUILD}},
)
