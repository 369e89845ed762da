"""The SHA-256 a C core is known by: of its ``.c`` file and the local headers it includes.

``setup.py`` builds each core with this digest as its ``SOURCE``, and :mod:`truclog.build`
compares it with the sources of a work tree, so that an edit of a ``.c`` file or of a
header it includes (``#include "..."``, such as the rules of a hand both cores share)
makes the core built before it stale. Imported only in a work tree, and by ``setup.py``
from its path, without the package.
"""

from __future__ import annotations

import hashlib
import os


def included(text: bytes) -> list[str]:
    """The local headers a C source includes (``#include "name"``), in order.

    >>> included(b'#include <Python.h>\\n#include "../engine/_trick.h"\\n')
    ['../engine/_trick.h']
    """
    names = []
    for line in text.splitlines():
        words = line.split(None, 1)
        if len(words) == 2 and words[0] == b"#include" and words[1].startswith(b'"'):
            names.append(words[1].strip().strip(b'"').decode())
    return names


def source_digest(source: str) -> str:
    """The SHA-256 of the C file ``source`` followed by each local header it includes."""
    with open(source, "rb") as file:
        text = file.read()
    digest = hashlib.sha256(text)
    folder = os.path.dirname(source)
    for name in included(text):
        with open(os.path.join(folder, name), "rb") as header:
            digest.update(header.read())
    return digest.hexdigest()
