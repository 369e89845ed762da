"""Whether the commands still write the same bytes: validate, stats, export, review, simulate and show.

    python benchmarks/outputs_check.py write DIR     # the outputs of this checkout, into DIR
    python benchmarks/outputs_check.py compare DIR   # this checkout's outputs against DIR's

A change meant to leave behaviour alone (a refactoring) is checked by writing the
outputs with the build before it (e.g. a checkout of ``main``) and comparing with the
build after it. The cases: logs simulated on a fixed seed for every preset (two and
four players, rubbers, hidden deals, timestamps, notes, strengths on raises, every
style), then ``validate`` (text and JSON), ``stats`` (table, JSON, CSV, Parquet, splits,
a bluff threshold, players and teams chosen, a rules filter), ``export`` (its tables, by their rows),
``review`` (the report and JSON, decisions chosen, on two processes) and ``show`` on those logs and on the
sample logs (the invalid ones included). Every command runs as ``python -m truclog``
of this interpreter, in the output folder (where the samples are copied), so
that the outputs name the same relative paths whichever checkout made them. Prints each file that differs, is
missing or is new, and exits 1 if any does.
"""

from __future__ import annotations

import argparse
import filecmp
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_logs"
PRESETS = (
    "classic",
    "gamerules",
    "sackson",
    "francais",
    "classic-36",
    "eight-high",
    "eight-low",
)
STYLES = ("random", "balanced", "cautious", "bluffer", "calling-station")


def run(out: Path, name: str, *args: str) -> None:
    """Run ``truclog ARGS`` and keep its exit status, stdout and stderr as OUT/NAME.*."""
    done = subprocess.run(
        [sys.executable, "-m", "truclog", *args],
        cwd=out,
        capture_output=True,
    )
    (out / f"{name}.out").write_bytes(done.stdout)
    (out / f"{name}.err").write_bytes(done.stderr)
    (out / f"{name}.rc").write_text(f"{done.returncode}\n")


def simulations(out: Path) -> Path:
    """Simulate a log of every preset, in two- and four-player variants; return their folder."""
    logs = Path("logs")
    (out / logs).mkdir()
    for n, preset in enumerate(PRESETS):
        style = STYLES[n % len(STYLES)]
        two = [
            "simulate", "--games", "12", "--rules", preset, "--seed", str(n),
            "--realistic", "--annotate", "--match",
            "--style", f"Ana={style}", "--style", "Marc=bluffer:bluff=0.6",
            "--start", "2026-11-29T20:00+01:00",
        ]  # fmt: skip
        four = [
            "simulate", "--hands", "60", "--rules", preset, "--seed", str(100 + n),
            "--players", "Ana", "Marc", "Lu", "Zoé", "--hidden", "0.2",
            "--style", STYLES[(n + 1) % len(STYLES)],
        ]  # fmt: skip
        run(out, f"simulate-{preset}-2", *two, "-o", str(logs / f"{preset}-2.truclog.jsonl"))
        run(out, f"simulate-{preset}-4", *four, "-o", str(logs / f"{preset}-4.truclog.jsonl"))
    run(out, "simulate-stdout", "simulate", "--games", "3", "--seed", "9", "-o", "-")
    return logs


def reports(out: Path, name: str, paths: list[str]) -> None:
    """Validate, stats, export and review on PATHS, kept under NAME."""
    run(out, f"{name}-validate", "validate", "--no-color", *paths)
    run(out, f"{name}-validate-json", "validate", "--format", "json", *paths)
    run(out, f"{name}-stats", "stats", *paths)
    run(out, f"{name}-stats-json", "stats", "--format", "json", *paths)
    run(out, f"{name}-stats-csv", "stats", "--format", "csv", "--bluff-threshold", "0.3", *paths)
    run(out, f"{name}-stats-by", "stats", "--by", "position", "--by", "raise-size", *paths)
    run(out, f"{name}-stats-teams", "stats", "--by", "opponent", "--sort", "fold_rate", *paths)
    chosen = ("--player", "Ana", "--player", "EUX", "--ignore-case", "--min-hands", "3")
    run(out, f"{name}-stats-players", "stats", "--format", "json", *chosen, *paths)
    run(out, f"{name}-stats-filtered", "stats", "--format", "csv", "--rules", "classic", *paths)
    (out / f"{name}-stats-parquet").mkdir()
    parquet = f"{name}-stats-parquet/stats.parquet"
    run(out, f"{name}-stats-parquet", "stats", "--format", "parquet", "-o", parquet, *paths)
    run(out, f"{name}-export", "export", "--to", f"{name}-tables", *paths)
    run(out, f"{name}-review", "review", "--top", "30", *paths)
    run(out, f"{name}-review-json", "review", "--format", "json", *paths)
    chosen = ("--player", "Ana", "--min-lost", "1", "--top", "5")
    run(out, f"{name}-review-chosen", "review", "--format", "json", *chosen, *paths)
    run(out, f"{name}-review-chosen-report", "review", *chosen, *paths)
    run(out, f"{name}-review-j2", "review", "--format", "json", "-j", "2", *paths)


def write(out: Path) -> None:
    """Every case's outputs, into OUT (a new folder)."""
    out.mkdir(parents=True)
    shutil.copytree(SAMPLES, out / "sample_logs")
    logs = simulations(out)
    reports(out, "samples", ["sample_logs"])
    invalid = sorted(f"sample_logs/invalid/{p.name}" for p in (SAMPLES / "invalid").iterdir())
    run(out, "invalid-validate", "validate", "--no-color", *invalid)
    run(out, "invalid-validate-json", "validate", "--format", "json", *invalid)
    run(out, "invalid-stats", "stats", *invalid)
    run(out, "invalid-review", "review", "--format", "json", *invalid)
    reports(out, "simulated", [str(logs)])
    for log, game, hand in (
        ("2026-11-29-cafe-du-port-classic.truclog.jsonl", "cafe-du-port-2026-11-29-1", "1"),
        ("2026-12-18-club-four-players-classic.truclog.jsonl", "club-four-2026-12-18", "2"),
    ):
        log = f"sample_logs/{log}"
        run(out, f"show-{game}-{hand}", "show", log, "--game", game, "--hand", hand)
        run(out, f"show-{game}-{hand}-bluff", "show", log, "--game", game,
            "--hand", hand, "--bluff-threshold", "0.8")  # fmt: skip


def differences(before: Path, after: Path) -> list[str]:
    """The files under BEFORE and AFTER that differ, or are found in one only; a table's
    Parquet parts count as one file, compared by their rows (export may cut the rows
    into parts differently)."""
    found = [
        f"differs: {name}"
        for name in tables(before) | tables(after)
        if not same_rows(before / name, after / name)
    ]
    names = {
        p.relative_to(before) for p in before.rglob("*") if p.is_file() and p.suffix != ".parquet"
    }
    names |= {
        p.relative_to(after) for p in after.rglob("*") if p.is_file() and p.suffix != ".parquet"
    }
    for name in sorted(names):
        old, new = before / name, after / name
        if not old.exists():
            found.append(f"new: {name}")
        elif not new.exists():
            found.append(f"missing: {name}")
        elif not filecmp.cmp(old, new, shallow=False):
            found.append(f"differs: {name}")
    return found


def tables(root: Path) -> set[Path]:
    """The folders under ROOT that hold Parquet parts, relative to it."""
    return {p.parent.relative_to(root) for p in root.rglob("*.parquet")}


def same_rows(before: Path, after: Path) -> bool:
    """Whether two folders of Parquet parts hold the same rows in the same order."""
    import polars as pl

    if not (before.is_dir() and after.is_dir()):
        return False
    old, new = (pl.read_parquet(sorted(d.glob("*.parquet"))) for d in (before, after))
    return old.equals(new)


def normalised(text: str) -> str:
    """TEXT without the times the simulator reports (the rest of a run is seeded)."""
    return re.sub(r" in [0-9.]+ s \([0-9]+ hands/s\)", " in T s (N hands/s)", text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("write", "compare"))
    parser.add_argument("dir", type=Path)
    args = parser.parse_args()
    if args.mode == "write":
        write(args.dir.resolve())
        fix_paths(args.dir.resolve())
        print(f"outputs written to {args.dir}")
        return
    with tempfile.TemporaryDirectory() as tmp:
        after = Path(tmp) / "after"
        write(after)
        fix_paths(after)
        found = differences(args.dir.resolve(), after)
    print(
        "\n".join(found)
        if found
        else "the same bytes in every output, the same rows in every table"
    )
    sys.exit(1 if found else 0)


def fix_paths(out: Path) -> None:
    """Take the wall times out of OUT's messages, so two folders compare."""
    for path in out.glob("*.err"):
        text = path.read_text("utf-8", "surrogateescape")
        path.write_text(normalised(text), "utf-8", "surrogateescape")


if __name__ == "__main__":
    main()
