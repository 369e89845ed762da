"""Peak memory and time of truclog on hostile inputs, each at two sizes.

Builds each input in a temporary directory at half and at full size, runs the
command in a child process (``python -m truclog ...``) and prints its peak resident
memory (the child's ``ru_maxrss``), its CPU time, and the ratio of the full-size time
to the half-size time, both less the CPU time of the same command on a one-game log
measured in the same run (start-up: imports; 2.0 is linear). The target: every peak
under 300 MB (under 150 MB for the long games), every ratio near 2.

    python benchmarks/robust_bench.py [--scale 1.0] [--only NAME]
        [--games DIR] [--whole] [--baseline PYTHON]

``--scale 0.1`` runs everything at a tenth of the size, for a quick look. The inputs
(at ``--scale 1``):

- ``bad-lines``: 8 MB of 4 million lines that are not JSON (validate, text and JSON);
- ``bad-game``: one game of 1 million out-of-turn plays, 44 MB (validate, stats, export);
- ``long-line``: one line of 200 MB inside a game (validate, stats);
- ``gzip-bomb``: 2 GB without a newline, gzip-compressed to about 2 MB (validate);
- ``long-game``: one legal game of 12,000 hands (4.9 MB), and ``long-game-bad`` the
  same with one bad line in its middle (validate, stats, export, the replay API, review,
  ratings);
- ``longer-game``: one legal game of 100,000 hands (40 MB, past the quick core's
  game size: checked line by line), and ``longer-game-bad`` the same with one bad
  line (validate, stats, export, the replay API, review, ratings);
- ``dev-zero``: ``/dev/zero`` named as a log, stopped after 20 s (validate).

The long games take minutes to play: ``--games DIR`` keeps them in ``DIR``
(``long-HANDS.truclog.jsonl``, ``long-HANDS-bad.truclog.jsonl``), played the first
time only. ``--whole`` runs each input at full size alone (no time ratio), and
``--baseline PYTHON`` runs each command with that interpreter too (another install,
say of the main branch), its peak and CPU time printed beside this one's. Each peak
comes with the command's peak on the one-game log (its start-up): two installs of the
same code can differ by several MB there (how much of the same shared libraries the
kernel maps in).

The long games are played by the simulator's bots under classic rules with raises up
to 4, no reste and a target set for the hands wanted (the half size is half the
hands, and its time ratio is against it). ``replay`` is the API: every hand of
every game read by ``truclog.read_games`` replayed step by step.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import zlib
from collections.abc import Callable
from pathlib import Path

GAME = (
    b'{"type":"game","format":"truclog/1","id":"g1","rules":"classic",'
    b'"players":["Ana","Marc"],"dealer":"Marc"}\n'
    b'{"type":"deal","hand":1,"dealer":"Marc","cards":{"Ana":["7h","Q","9s"]}}\n'
)
OUT_OF_TURN = b'{"type":"play","player":"Marc","card":"As"}\n'
MB = 1 << 20
POINTS_PER_HAND = 0.7
"""About how many points a side scores per hand under :data:`LONG_RULES` (so a target
of 0.7 n gives about n hands)."""
LONG_RULES = {"preset": "classic", "reste": False, "max_value": 4}
BAD_LINE = b'{"type":"note","text":"not a truclog line"}\n'
REPLAY = (
    "import sys, truclog\n"
    "sum(1 for game in truclog.read_games(sys.argv[1]) for hand in game.hands"
    " for _ in hand.replay())\n"
)
GAMES_DIR: Path | None = None
"""Where the long games are kept between runs (``--games``), if anywhere."""


def bad_lines(path: Path, size: int) -> None:
    """``size`` bytes of two-byte lines that are not JSON."""
    path.write_bytes(b"x\n" * (size // 2))


def bad_game(path: Path, size: int) -> None:
    """One game whose lines after the first deal are all out of turn."""
    with open(path, "wb") as out:
        out.write(GAME)
        block = OUT_OF_TURN * 10_000
        for _ in range(size // len(block)):
            out.write(block)


def long_line(path: Path, size: int) -> None:
    """A game with one line of ``size`` bytes between its deal and its plays."""
    with open(path, "wb") as out:
        out.write(GAME + b'{"type":"play","player":"Ana","card":"7h","note":"')
        block = b"x" * MB
        for _ in range(size // MB):
            out.write(block)
        out.write(b'"}\n' + OUT_OF_TURN)


def gzip_bomb(path: Path, size: int) -> None:
    """``size`` bytes of ``[`` and no newline, gzip-compressed."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = b"[" * (16 * MB)
    with open(path, "wb") as out:
        for _ in range(size // len(block)):
            out.write(packer.compress(block))
        out.write(packer.flush())


def long_game(path: Path, hands: int, bad: bool = False) -> None:
    """One game of about ``hands`` hands played by the simulator's bots; with ``bad``,
    one line that is not truclog in its middle. Linked from :data:`GAMES_DIR` when
    it has it (played into it first when it does not)."""
    if GAMES_DIR is None:
        play_long_game(path, hands, bad)
        return
    kept = GAMES_DIR / f"long-{hands}{'-bad' if bad else ''}.truclog.jsonl"
    if not kept.exists():
        GAMES_DIR.mkdir(parents=True, exist_ok=True)
        play_long_game(kept.with_suffix(".tmp"), hands, bad)
        kept.with_suffix(".tmp").replace(kept)
    path.unlink(missing_ok=True)
    os.link(kept, path)


def play_long_game(path: Path, hands: int, bad: bool = False) -> None:
    """The game of :func:`long_game`, played by the simulator."""
    from truclog.simulate.run import Simulation, simulate_to

    rules = {**LONG_RULES, "target": max(1, int(hands * POINTS_PER_HAND))}
    simulate_to(Simulation(games=1, seed=1, rules=rules), path)
    if bad:
        lines = path.read_bytes().splitlines(keepends=True)
        lines.insert(len(lines) // 2, BAD_LINE)
        path.write_bytes(b"".join(lines))


def long_bad_game(path: Path, hands: int) -> None:
    long_game(path, hands, bad=True)


Build = Callable[[Path, int], None]
LONG_COMMANDS = [
    ["validate"],
    ["stats"],
    ["export", "--overwrite", "--to", "{tmp}/out"],
    ["replay"],
    ["review"],
    ["ratings"],
]
"""``replay`` stands for :data:`REPLAY`, the API's replay of every hand."""
CASES: dict[str, tuple[str, Build, int, list[list[str]]]] = {
    "bad-lines": (
        "bad.jsonl",
        bad_lines,
        8 * MB,
        [["validate"], ["validate", "--format", "json"]],
    ),
    "bad-game": (
        "game.jsonl",
        bad_game,
        len(OUT_OF_TURN) * 1_000_000,
        [["validate"], ["stats"], ["export", "--overwrite", "--to", "{tmp}/out"]],
    ),
    "long-line": ("long.jsonl", long_line, 200 * MB, [["validate"], ["stats"]]),
    "gzip-bomb": ("bomb.jsonl.gz", gzip_bomb, 2048 * MB, [["validate"]]),
    "long-game": ("long.jsonl", long_game, 12_000, LONG_COMMANDS),
    "long-game-bad": ("long-bad.jsonl", long_bad_game, 12_000, LONG_COMMANDS),
    "longer-game": ("longer.jsonl", long_game, 100_000, LONG_COMMANDS),
    "longer-game-bad": ("longer-bad.jsonl", long_bad_game, 100_000, LONG_COMMANDS),
}


def measure(
    args: list[str], timeout: float | None = None, python: str = sys.executable
) -> tuple[float, float, int]:
    """Peak memory (MB), CPU time (s) and exit status of ``python -m truclog ARGS``,
    run in a child of a fresh process so that ``ru_maxrss`` is that child's alone.
    CPU time, not wall time: other processes on the machine do not count in it."""
    probe = (
        "import resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        "try:\n"
        "    code = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,"
        " timeout=float(sys.argv[1]) or None).returncode\n"
        "except subprocess.TimeoutExpired:\n"
        "    code = -9\n"
        "use = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "print(use.ru_maxrss, use.ru_utime + use.ru_stime, time.perf_counter() - t, code)\n"
    )
    # another install in isolated mode: neither PYTHONPATH nor the working folder
    # (a work tree's own package) may stand in for its truclog
    command = [sys.executable, "-c", probe, str(timeout or 0), python]
    command += ["-I"] if python != sys.executable else []
    if args[:1] == ["replay"]:
        command += ["-c", REPLAY, *args[1:]]
    else:
        command += ["-m", "truclog", *args]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    peak, cpu, _, code = done.stdout.split()
    return int(peak) / 1024, float(cpu), int(code)


def start_up(args: list[str], tmp: Path) -> float:
    """The CPU time of a command on a one-game log: what every run spends anyway."""
    path = tmp / "tiny.jsonl"
    path.write_bytes(GAME)
    return min(measure([*(a.format(tmp=tmp) for a in args), str(path)])[1] for _ in range(2))


def run_case(name: str, scale: float, tmp: Path) -> None:
    file_name, build, size, commands = CASES[name]
    base = [start_up(args, tmp) for args in commands]
    runs: dict[int, list[tuple[float, float, int]]] = {}
    for part in (2, 1):
        bytes_ = int(size * scale) // part
        path = tmp / file_name
        build(path, bytes_)
        runs[part] = [measure([*(a.format(tmp=tmp) for a in args), str(path)]) for args in commands]
        on_disk = path.stat().st_size
        path.unlink()
        print(f"{name}: {_size(build, bytes_)} ({on_disk / MB:,.1f} MB on disk)")
    for args, start, half, full in zip(commands, base, runs[2], runs[1], strict=True):
        net_half, net_full = half[1] - start, full[1] - start
        ratio = net_full / net_half if net_half > 0.05 else float("nan")
        print(
            f"  {' '.join(args[:1]):<9} {' '.join(args[1:3]):<14}"
            f" peak {half[0]:4.0f} / {full[0]:4.0f} MB"
            f"  cpu {half[1]:6.1f} / {full[1]:6.1f} s, less start-up {start:.1f} s:"
            f" {net_half:6.1f} / {net_full:6.1f} s (ratio {ratio:.2f})"
            f"  exit {half[2]} / {full[2]}"
        )


def _size(build: Build, size: int) -> str:
    return f"{size:,} hands" if build in (long_game, long_bad_game) else f"{size / MB:,.0f} MB"


def run_whole(name: str, scale: float, tmp: Path, baseline: str | None) -> None:
    """One input at full size: each command's peak and CPU time (less start-up), and
    the ``baseline`` interpreter's beside them."""
    file_name, build, size, commands = CASES[name]
    path = tmp / file_name
    build(path, int(size * scale))
    deals = path.read_bytes().count(b'"type":"deal"') if build in (long_game, long_bad_game) else 0
    hands = f", {deals:,} deal lines" if deals else ""
    print(
        f"{name}: {_size(build, int(size * scale))} ({path.stat().st_size / MB:,.1f} MB on disk{hands})"
    )
    pythons = [sys.executable, *([baseline] if baseline else [])]
    for args in commands:
        shown = [a.format(tmp=tmp) for a in args]
        figures = []
        for python in pythons:
            tiny = [measure([*shown, str(tmp / "tiny.jsonl")], python=python) for _ in range(2)]
            start = min(cpu for _, cpu, _ in tiny)
            peak, cpu, code = measure([*shown, str(path)], python=python)
            figures.append(
                f"peak {peak:5.0f} MB (start-up {min(p for p, _, _ in tiny):3.0f}),"
                f" cpu {cpu - start:7.1f} s (exit {code})"
            )
        print(f"  {' '.join(args[:1]):<9} " + "  |  baseline: ".join(figures), flush=True)
    path.unlink()


def main() -> None:
    global GAMES_DIR
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--only", choices=[*CASES, "dev-zero"], action="append")
    parser.add_argument("--zero-seconds", type=float, default=20.0)
    parser.add_argument("--games", type=Path, help="where to keep the long games")
    parser.add_argument("--whole", action="store_true", help="full size only, no ratio")
    parser.add_argument("--baseline", help="the interpreter of another install (with --whole)")
    options = parser.parse_args()
    GAMES_DIR = options.games
    print(
        f"python {sys.version.split()[0]}, "
        + ("full size" if options.whole else "half size / full size")
    )
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "tiny.jsonl").write_bytes(GAME)
        for name in CASES:
            if options.only is None or name in options.only:
                if options.whole:
                    run_whole(name, options.scale, Path(tmp), options.baseline)
                else:
                    run_case(name, options.scale, Path(tmp))
    if (options.only is None or "dev-zero" in options.only) and os.path.exists("/dev/zero"):
        peak, took, code = measure(["validate", "/dev/zero"], options.zero_seconds)
        stopped = "stopped by the timeout" if code == -9 else f"exit {code}"
        print(f"dev-zero: peak {peak:.0f} MB, {took:.1f} s of CPU ({stopped})")
    print(f"this process: peak {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
