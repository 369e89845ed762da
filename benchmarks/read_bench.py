"""How fast :func:`truclog.format.reader.read_log` reads, against bare ``orjson.loads`` per line.

Builds a large log in a temporary directory by repeating the bundled sample logs
(real lines: deals, plays, raises, results, timestamps and notes), then reads it
three ways and prints lines per second:

    python benchmarks/read_bench.py [--lines 500000]
"""

from __future__ import annotations

import argparse
import gzip
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import orjson

from truclog.format.reader import read_log

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"


def build_log(directory: Path, lines: int) -> Path:
    """A log of about ``lines`` lines made of the sample logs, repeated."""
    sample = b"".join(p.read_bytes() for p in sorted(SAMPLES.glob("*.jsonl")))
    per_copy = sample.count(b"\n")
    path = directory / "big.truclog.jsonl"
    with open(path, "wb") as out:
        for _ in range(max(1, lines // per_copy)):
            out.write(sample)
    return path


def bare_orjson(path: Path) -> int:
    count = 0
    with open(path, "rb") as f:
        for line in f:
            orjson.loads(line)
            count += 1
    return count


def reader(path: Path) -> int:
    count = 0
    for line in read_log(path):
        if line.problem is not None:
            raise SystemExit(f"unexpected problem: {line.problem}")
        count += 1
    return count


def timed(name: str, run: Callable[[Path], int], path: Path) -> float:
    start = time.perf_counter()
    count = run(path)
    seconds = time.perf_counter() - start
    rate = count / seconds
    print(f"{name:<28} {count:>9,} lines in {seconds:6.2f} s  {rate:>11,.0f} lines/s")
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=500_000, help="size of the log to read")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = build_log(Path(tmp), args.lines)
        packed = path.with_suffix(".jsonl.gz")
        packed.write_bytes(gzip.compress(path.read_bytes(), compresslevel=6))
        size = path.stat().st_size / 1e6
        print(f"log: {size:.1f} MB, gzip {packed.stat().st_size / 1e6:.1f} MB")
        bare = timed("orjson.loads per line", bare_orjson, path)
        ours = timed("read_log (validated events)", reader, path)
        timed("read_log on .gz", reader, packed)
        print(f"read_log costs {bare / ours:.1f}x bare orjson.loads")


if __name__ == "__main__":
    main()
