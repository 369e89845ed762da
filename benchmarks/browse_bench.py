"""``truclog browse`` on a large log, against ``truclog validate`` on the same file.

Usage: python benchmarks/browse_bench.py [--hands N] [--python PYTHON]

With a compiled install in a venv of its own (``pip install .``), pass its
Python: the children run outside the checkout, so the installed build is used.

Builds a corpus of about N hands (default 2.3 million, about 1.5 GB; cached in
bench_data/): a simulated log of 2,000 realistic games (hidden cards, times,
notes) written again and again with the players renamed in each copy
(``Ana`` -> ``Ana7``), so every copy is a game of its own, not a duplicate.
Simulating millions of hands one by one would take hours; the copies cost
the index the same as fresh games. Then, in the same run and with the same
Python (``--python``, e.g. a compiled install):

1. ``truclog validate FILE`` in a child process: wall time (the baseline);
2. the browser, headless at 160x50, in a child process: time to the first
   screen with games, to the complete games list (and its ratio to validate's
   time), to open a game (its hands on screen), a filter keystroke and a sort
   (each applied to the whole list), quit (from ``q`` to the end of the
   process), and the child's peak resident memory.

The issue's targets: first screen < 1 s, list <= 1.5 x validate, peak < 500 MB,
open < 0.3 s, quit < 0.5 s, filter key and sort < 0.1 s on 200,000 games.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "bench_data"
BASE_GAMES = 2000


def base_log() -> tuple[Path, int]:
    """The simulated log the corpus is made of, and its hands."""
    from truclog.simulate.run import Simulation, simulate_to

    DATA.mkdir(exist_ok=True)
    path = DATA / f"browse-base-{BASE_GAMES}.truclog.jsonl"
    marker = path.with_suffix(".hands")
    if not path.exists() or not marker.exists():
        simulation = Simulation(games=BASE_GAMES, seed=7, hidden=0.3, timestamps=True, notes=0.03)
        marker.write_text(str(simulate_to(simulation, path).hands))
    return path, int(marker.read_text())


def corpus(hands: int) -> tuple[Path, int, int]:
    """A log of about ``hands`` hands: copies of the base log, players renamed in each."""
    base, base_hands = base_log()
    copies = max(1, round(hands / base_hands))
    path = DATA / f"browse-{copies}x{BASE_GAMES}.truclog.jsonl"
    if not path.exists():
        data = base.read_bytes()
        partial = path.with_suffix(".part")
        with open(partial, "wb") as out:
            for k in range(copies):
                copy = data.replace(b'"Ana"', b'"Ana%d"' % k).replace(b'"Marc"', b'"Marc%d"' % k)
                out.write(copy.replace(b'"id":"sim7-', b'"id":"sim7-%d-' % k))
        partial.rename(path)
    return path, copies * BASE_GAMES, copies * base_hands


def validate_seconds(python: str, path: Path) -> float:
    """Wall time of ``truclog validate`` (run outside the checkout, so that the
    installed build is the one measured)."""
    start = time.perf_counter()
    command = [python, "-m", "truclog", "validate", str(path)]
    subprocess.run(command, capture_output=True, cwd=DATA)
    return time.perf_counter() - start


def timed(figures: dict[str, float], key: str, began: tuple[float, float]) -> None:
    """Wall and CPU seconds since ``began`` (CPU: this process, whatever the machine's load)."""
    figures[key] = time.perf_counter() - began[0]
    figures[key + "_cpu"] = time.process_time() - began[1]


def now() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


async def drive(path: str) -> dict[str, float]:
    """In the child: run the browser headless and time what a user waits for."""
    from truclog.tui.browse import BrowseApp
    from truclog.tui.browse.screens import GamesScreen, HandsScreen

    figures: dict[str, float] = {}
    start = time.perf_counter()
    app = BrowseApp([path])
    async with app.run_test(size=(160, 50)) as pilot:
        while not app.catalog.entries:
            await pilot.pause(0.01)
        await pilot.pause(0)
        figures["first_screen"] = time.perf_counter() - start
        while not app.loaded:
            await pilot.pause(0.05)
        figures["complete_list"] = time.perf_counter() - start
        games = app.screen
        assert isinstance(games, GamesScreen)
        figures["games"] = len(app.catalog.entries)
        await pilot.press("end")
        began = now()
        await pilot.press("enter")
        while not isinstance(app.screen, HandsScreen):
            await pilot.pause(0.005)
        await pilot.pause(0)
        timed(figures, "open_game", began)
        await pilot.press("escape")
        for key, value in (("filter_key", "ana1"), ("filter_key_2", "ana12")):
            began = now()
            games.filter_text = value
            await pilot.pause(0)
            timed(figures, key, began)
        figures["shown_after_filter"] = len(games.shown)
        games.filter_text = ""
        await pilot.pause(0)
        for key, column in (("sort", "players"), ("sort_again", "time")):
            began = now()
            games.sort_by(column)
            await pilot.pause(0)
            timed(figures, key, began)
        figures["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(json.dumps(figures), flush=True)
        print(f"quit-at {time.time()}", flush=True)
        await pilot.press("q")
    print(f"closed-at {time.time()}", flush=True)
    return figures


def browse_figures(python: str, path: Path) -> dict[str, float]:
    child = subprocess.Popen(
        [python, __file__, "--child", str(path)], stdout=subprocess.PIPE, text=True, cwd=DATA
    )
    assert child.stdout is not None
    figures = json.loads(child.stdout.readline())
    quit_at = float(child.stdout.readline().split()[1])
    closed_at = float(child.stdout.readline().split()[1])
    child.wait()
    figures["quit"] = time.time() - quit_at
    figures["closed"] = closed_at - quit_at
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=2_300_000)
    parser.add_argument("--python", default=sys.executable, help="the Python that runs truclog")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        asyncio.run(drive(args.child))
        return
    path, games, hands = corpus(args.hands)
    size = path.stat().st_size / 1e6
    print(f"corpus: {games:,} games, {hands:,} hands, {size:,.0f} MB ({path.name})")
    build = [args.python, "-m", "truclog", "--version"]
    version = subprocess.run(build, capture_output=True, text=True, cwd=DATA).stdout.strip()
    print(f"build: {version}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    validate = validate_seconds(args.python, path)
    print(f"truclog validate           {validate:8.2f} s")
    f = browse_figures(args.python, path)
    print(f"browse: first screen       {f['first_screen']:8.2f} s   (target < 1 s)")
    ratio = f["complete_list"] / validate
    print(
        f"browse: complete list      {f['complete_list']:8.2f} s   {ratio:.2f} x validate (<= 1.5)"
    )
    print(f"browse: peak memory        {f['peak_mb']:8.0f} MB  (< 500)")
    for label, keys, target in (
        ("open a game", ("open_game",), 0.3),
        ("filter keystroke", ("filter_key", "filter_key_2"), 0.1),
        ("sort", ("sort", "sort_again"), 0.1),
    ):
        wall = ", ".join(f"{f[k]:.3f}" for k in keys)
        cpu = ", ".join(f"{f[k + '_cpu']:.3f}" for k in keys)
        print(f"browse: {label:<18} {wall} s wall, {cpu} s CPU (< {target})")
    print(
        f"browse: quit               {f['quit']:8.3f} s   (< 0.5; the screen closed after {f['closed']:.3f} s)"
    )


if __name__ == "__main__":
    main()
