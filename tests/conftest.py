"""Shared by every test: the doctests of ``truclog/`` run against the installed package.

After ``pip install .`` the modules imported are the installed (compiled) ones, not
the files of this checkout that pytest collects the doctests from; their docstrings
are the same, so pytest is told not to stop at the difference in paths.
"""

from __future__ import annotations

import os

os.environ.setdefault("PY_IGNORE_IMPORTMISMATCH", "1")
