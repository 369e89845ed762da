"""Logs named by URL (``s3://``, ``gs://``, ``file://``, ...) or by a glob pattern.

A URL is read through `fsspec <https://filesystem-spec.readthedocs.io>`_, which must
be installed with the filesystem's own package (``s3fs``, ``gcsfs``; ``file://`` needs
none): ``pip install 'truclog[dask]'`` brings fsspec. A glob (``logs/2026-*/*.jsonl``,
``s3://bucket/logs/**/*.jsonl.gz``) names every log file it matches, sorted.

>>> is_url("s3://bucket/a.jsonl"), is_url("logs/a.jsonl"), is_url("-")
(True, False, False)
>>> has_magic("logs/*.jsonl"), has_magic("logs/a.jsonl")
(True, False)
"""

from __future__ import annotations

import io
from typing import Any, cast

from truclog.codes import Read
from truclog.errors import TruclogError, reason

_MAGIC = frozenset("*?[")


def is_url(name: str) -> bool:
    """Whether ``name`` is a URL with a protocol (``scheme://...``)."""
    scheme, sep, _ = name.partition("://")
    return bool(sep) and scheme.isidentifier()


def has_magic(name: str) -> bool:
    """Whether ``name`` is a glob pattern."""
    return not _MAGIC.isdisjoint(name)


def _filesystem(url: str) -> tuple[Any, str]:
    try:
        import fsspec
    except ImportError:
        raise TruclogError(
            f"{url}: reading URLs needs fsspec (pip install 'truclog[dask]')", Read.UNREADABLE
        ) from None
    try:
        fs, path = fsspec.core.url_to_fs(url)
    except (ImportError, ValueError) as exc:
        raise TruclogError(f"{url}: cannot read this URL: {exc}", Read.UNREADABLE) from None
    return fs, path


def _url(fs: Any, path: str) -> str:
    return cast(str, fs.unstrip_protocol(path))


def expand(name: str, suffixes: tuple[str, ...], but: str | None = None) -> list[str]:
    """The log files a URL or a glob names, sorted: a URL of a folder gives every file
    ending with one of ``suffixes`` (and not with ``but``) under it. Nothing found is
    an ``E000`` error."""
    if not is_url(name):
        import glob

        found = sorted(p for p in glob.glob(name, recursive=True) if p.endswith(suffixes))
    else:
        found = _expand_url(name, suffixes)
    if but is not None:
        found = [p for p in found if not p.endswith(but)]
    if not found:
        raise TruclogError(f"{name}: matches no log file", Read.UNREADABLE)
    return found


def _expand_url(url: str, suffixes: tuple[str, ...]) -> list[str]:
    fs, path = _filesystem(url)
    try:
        if has_magic(path):
            paths = fs.glob(path)
        elif fs.isdir(path):
            paths = fs.find(path)
        elif fs.exists(path):
            return [url]
        else:
            raise TruclogError(f"{url}: no such file or directory", Read.UNREADABLE)
    except OSError as exc:
        raise TruclogError(f"{url}: cannot list: {exc}", Read.UNREADABLE) from None
    return sorted(_url(fs, p) for p in paths if str(p).endswith(suffixes))


def open_url(url: str) -> io.BufferedIOBase:
    """A binary file object for the log at ``url`` (not decompressed)."""
    fs, path = _filesystem(url)
    try:
        return cast(io.BufferedIOBase, fs.open(path, "rb"))
    except OSError as exc:
        raise TruclogError(f"{url}: cannot open: {reason(exc)}", Read.UNREADABLE) from None
