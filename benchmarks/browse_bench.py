"""``truclog browse`` on a large log, against ``truclog validate`` on the same file.

Usage: python benchmarks/browse_bench.py [--hands N] [--python PYTHON] [--log PATH]

With a compiled install in a venv of its own (``pip install .``), pass its
Python: the children run outside the checkout, so the installed build is used.

Builds a corpus of about N hands (default 2.3 million, about 1.5 GB; cached in
bench_data/, or in the folder ``TRUCLOG_BENCH_DATA`` names): a simulated log of
20,000 realistic games (about 230,000 hands:
hidden cards, times, notes), simulated once, then written again and again with
the players and ids renamed in each copy (``Ana`` -> ``Ana7``), so every copy is
a game of its own, not a duplicate. Simulating millions of hands one by one
would take hours; the copies cost the index the same as fresh games. Then, in
the same run and with the same Python (``--python``, e.g. a compiled install):

1. ``truclog validate FILE`` in a child process: wall and CPU time (the baseline);
   and a bare Textual app in a terminal of its own: when its first screen shows
   (the floor of any app's first screen on this machine, at this load);
2. ``truclog browse FILE`` itself, in a terminal of its own (a pseudo-terminal of
   160x50), timed from the moment the command starts as a user would see it:
   the first screen with games (a game id drawn), the complete games list (the
   status line's ``N games, M hands``), opening the last game (``End``,
   ``Enter``: its hands drawn), quitting (``q`` to the end of the process); and
   the process's peak resident memory and CPU time (its index process's
   included);
3. the browser headless in a child process (Textual's pilot), for what a
   terminal cannot time by itself: opening a game, each filter as it is typed
   (``a``, ``an``, ``ana``, ``ana1``: the list filtered and drawn) and each sort
   on the whole list, in wall and CPU seconds; then the mistakes screen: the
   review of every decision of the corpus (its worker, once), and opening the
   screen again once it is computed (its rows drawn), the replay of its costliest
   decision with the analysis graph drawn, the games list sorted by points lost and
   filtered to the games that lost some; with ``--study``, the study
   tools too: a game's score plot, the counts as of each hand (once) and one hand's
   look-up, the players' statistics (once), then the players screen opened again
   with its plots drawn and the next player's rates by month drawn, and a player's
   leaks (counted once, on corpora of at most 20,000 games; then opened).

The targets: first screen < 1 s, list <= 1.5 x validate, peak < 500 MB,
open < 0.3 s, quit < 0.5 s, filter key and sort < 0.1 s on 200,000 games, the
mistakes screen, the analysis graph and the plots opened after the review < 1 s.
``--pilot`` runs the headless part alone.
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import json
import os
import pty
import re
import resource
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path
from typing import Any

DATA = Path(
    os.environ.get("TRUCLOG_BENCH_DATA", Path(__file__).resolve().parent.parent / "bench_data")
)
BASE_GAMES = 20_000
SIZE = (160, 50)
END_KEY, ENTER_KEY = b"\x1b[F", b"\r"
COMPLETE = re.compile(rb"(\d+) games, (\d+) hands")


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


def renamed(data: bytes, k: int) -> bytes:
    """Copy ``k`` of the base log: its players and game ids renamed."""
    copy = data.replace(b'"Ana"', b'"Ana%d"' % k).replace(b'"Marc"', b'"Marc%d"' % k)
    return copy.replace(b'"id":"sim7-', b'"id":"sim7-%d-' % k)


def corpus(hands: int) -> tuple[Path, int, int]:
    """A log of about ``hands`` hands: copies of the base log, renamed in each."""
    base, base_hands = base_log()
    copies = max(1, round(hands / base_hands))
    path = DATA / f"browse-{copies}x{BASE_GAMES}.truclog.jsonl"
    if not path.exists():
        data = base.read_bytes()
        partial = path.with_suffix(".part")
        with open(partial, "wb") as out:
            for k in range(copies):
                out.write(renamed(data, k))
        partial.rename(path)
    return path, copies * BASE_GAMES, copies * base_hands


def cpu(usage: resource.struct_rusage) -> float:
    return usage.ru_utime + usage.ru_stime


def validate_figures(python: str, path: Path) -> tuple[float, float]:
    """Wall and CPU seconds of ``truclog validate`` (run outside the checkout, so
    that the installed build is the one measured)."""
    start = time.perf_counter()
    command = [python, "-m", "truclog", "validate", str(path)]
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, cwd=DATA)
    _, _, usage = os.wait4(child.pid, 0)
    return time.perf_counter() - start, cpu(usage)


class Terminal:
    """A command running in a pseudo-terminal of its own, its output kept to search."""

    def __init__(self, command: list[str]) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", SIZE[1], SIZE[0], 0, 0))
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "", "LINES": ""}
        self.start = time.perf_counter()
        self.child = subprocess.Popen(
            command, stdin=slave, stdout=slave, stderr=slave, cwd=DATA, env=env,
            start_new_session=True,
        )  # fmt: skip
        os.close(slave)
        self.master = master
        self.output = bytearray()
        self.searched = 0  # the output before this was searched already
        self.found: re.Match[bytes] | None = None

    def seconds(self) -> float:
        return time.perf_counter() - self.start

    def wait_for(self, pattern: re.Pattern[bytes], timeout: float = 3600) -> float:
        """Read until ``pattern`` shows in the output written since the last key; when."""
        deadline = time.perf_counter() + timeout
        while True:
            self.found = pattern.search(self.output, self.searched)
            if self.found:
                return self.seconds()
            self.searched = max(self.searched, len(self.output) - 200)  # a match may straddle
            if time.perf_counter() > deadline:
                raise TimeoutError(f"{pattern!r} never showed")
            ready, _, _ = select.select([self.master], [], [], 0.01)
            if ready:
                try:
                    self.output += os.read(self.master, 1 << 16)
                except OSError:  # the command ended
                    raise TimeoutError(f"ended before {pattern!r} showed") from None
                if len(self.output) > 1 << 20:  # keep the tail only
                    del self.output[: len(self.output) - 4096]
                    self.searched = 0

    def press(self, keys: bytes) -> float:
        self.output.clear()
        self.searched = 0
        os.write(self.master, keys)
        return time.perf_counter()

    def end(self) -> tuple[float, resource.struct_rusage]:
        """Wait for the command to end, reading what it writes; when, and its usage."""
        while True:
            ready, _, _ = select.select([self.master], [], [], 0.01)
            if ready:
                try:
                    if os.read(self.master, 1 << 16):
                        continue
                except OSError:
                    pass
            pid, _, usage = os.wait4(self.child.pid, os.WNOHANG)
            if pid:
                os.close(self.master)
                return self.seconds(), usage


def terminal_figures(python: str, path: Path, first_id: bytes) -> dict[str, float]:
    """``truclog browse FILE`` as a user runs it: when each thing shows."""
    figures: dict[str, float] = {}
    term = Terminal([python, "-m", "truclog", "browse", str(path)])
    figures["first_screen"] = term.wait_for(re.compile(re.escape(first_id)))
    figures["complete_list"] = term.wait_for(COMPLETE)
    assert term.found is not None
    figures["games_listed"], figures["hands_listed"] = map(int, term.found.groups())
    term.press(END_KEY)
    time.sleep(0.5)
    pressed = term.press(ENTER_KEY)
    figures["open_game"] = term.wait_for(re.compile(b"marks: R raise")) - (pressed - term.start)
    time.sleep(0.5)
    pressed = term.press(b"q")
    ended, usage = term.end()
    figures["quit"] = ended - (pressed - term.start)
    figures["peak_mb"] = usage.ru_maxrss / 1024
    figures["cpu"] = cpu(usage)
    return figures


BARE_APP = """
from textual.app import App
from textual.widgets import Static

class Bare(App):
    def compose(self):
        yield Static("a bare Textual app")

Bare().run()
"""
"""The floor of any Textual app's first screen: a bare app drawing one line."""


def bare_app_seconds(python: str) -> float:
    """When a bare Textual app's first screen shows, from the command's start."""
    term = Terminal([python, "-c", BARE_APP])
    shown = term.wait_for(re.compile(rb"a bare Textual app"))
    term.child.kill()
    term.end()
    return shown


def timed(figures: dict[str, float], key: str, began: tuple[float, float]) -> None:
    """Wall and CPU seconds since ``began`` (CPU: this process, whatever the machine's load)."""
    figures[key] = time.perf_counter() - began[0]
    figures[key + "_cpu"] = time.process_time() - began[1]
    print(
        f"  ({key}: {figures[key]:.3f} s wall, {figures[key + '_cpu']:.3f} s CPU)", file=sys.stderr
    )


def now() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


FILTERS = ("a", "an", "ana", "ana1")
SORTS = ("players", "time", "hands")


LEAK_GAMES = 20_000
"""Leaks are counted in the browser's own process (a worker of the leaks screen), about
as long as ``truclog leaks`` takes (benchmarks/leaks_bench.py): counted on corpora up to
this many games."""


async def drive(path: str, study: bool = False) -> dict[str, float]:
    """In the child: run the browser headless; time opening a game, filters and sorts."""
    from truclog.tui.browse import BrowseApp
    from truclog.tui.browse.screens import GamesScreen, HandsScreen

    figures: dict[str, float] = {}
    app = BrowseApp([path])
    async with app.run_test(size=SIZE) as pilot:
        while not app.loaded:
            await pilot.pause(0.05)
        await pilot.pause(0.5)
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
        for value in FILTERS:
            began = now()
            games.filter_text = value
            await pilot.pause(0)
            timed(figures, f"filter {value}", began)
            figures[f"shown {value}"] = len(games.shown)
        games.filter_text = ""
        await pilot.pause(0)
        for column in SORTS:
            began = now()
            games.sort_by(column)
            await pilot.pause(0)
            timed(figures, f"sort {column}", began)
        await review_figures(app, pilot, figures)
        if study:
            await study_figures(app, pilot, figures)
        figures["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        await pilot.press("q")
    return figures


async def review_figures(app: Any, pilot: Any, figures: dict[str, float]) -> None:
    """The review of every decision (once, in a child process: its CPU apart), then what
    opens from it: the mistakes screen again, the replay of the costliest decision with
    its analysis graph drawn, and the games list sorted and filtered by points lost."""
    from truclog.tui.browse.screens import GamesScreen, MistakesScreen, ReplayScreen
    from truclog.tui.browse.worth import WorthChart

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = now()
    await pilot.press("m")
    while app.reviewed is None:
        await pilot.pause(0.05)
    timed(figures, "review", began)
    figures["review_child_cpu"] = cpu(resource.getrusage(resource.RUSAGE_CHILDREN)) - cpu(children)
    figures["reviewed_games"] = app.reviewed.games
    figures["kept_mistakes"] = sum(len(c.kept) for c in app.reviewed.players.values())
    await pilot.press("escape")
    began = now()
    await pilot.press("m")
    while not (isinstance(app.screen, MistakesScreen) and app.screen.shown):
        await pilot.pause(0.005)
    await pilot.pause(0)
    timed(figures, "open_mistakes", began)
    began = now()
    await pilot.press("enter")
    while not isinstance(app.screen, ReplayScreen):
        await pilot.pause(0.005)
    chart = app.screen.query_one(WorthChart)
    chart.plt.build()
    await pilot.pause(0)
    timed(figures, "analysis_graph", began)
    await pilot.press("escape", "escape")
    games = app.screen
    assert isinstance(games, GamesScreen)
    began = now()
    games.sort_by("lost")
    await pilot.pause(0)
    timed(figures, "sort lost", began)
    began = now()
    await pilot.press("l")
    await pilot.pause(0)
    timed(figures, "only lost", began)
    figures["shown only lost"] = len(games.shown)
    await pilot.press("l")
    games.sort_column = None
    await pilot.pause(0)


async def study_figures(app: Any, pilot: Any, figures: dict[str, float]) -> None:
    """The study tools: the score plot of a game, the counts as of each hand (counted once,
    in a child process the first replay started) and then a hand's look-up, the players'
    statistics (counted once, in a child process), then the players screen opened again
    and the next player's rates by month drawn, a player's leaks."""
    from textual_plotext import PlotextPlot

    from truclog.tui.browse.screens import HandsScreen, LeaksScreen, PlayersScreen, ReplayScreen

    await pilot.press("home")
    began = now()
    await pilot.press("enter")
    while not isinstance(app.screen, HandsScreen) or not app.screen.query("#hands-chart"):
        await pilot.pause(0.005)
    await pilot.pause(0)
    timed(figures, "score_plot", began)
    began = now()
    await pilot.press("enter")
    while app.as_of.as_of is None:
        await pilot.pause(0.05)
    timed(figures, "as_of_count", began)
    replay = app.screen
    assert isinstance(replay, ReplayScreen)
    began = now()
    for _ in range(10):
        replay.show_as_of()
    timed(figures, "as_of_hand", began)
    figures["as_of_hand"] /= 10
    figures["as_of_hand_cpu"] /= 10
    await pilot.press("escape", "escape")
    began = now()
    await pilot.press("p")
    players = app.screen
    assert isinstance(players, PlayersScreen)
    while players.hindsight is None:
        await pilot.pause(0.05)
    timed(figures, "players_count", began)
    await pilot.pause(0.5)
    await pilot.press("escape")
    began = now()
    await pilot.press("p")
    while not (isinstance(app.screen, PlayersScreen) and app.screen.charted is not None):
        await pilot.pause(0.005)
    await pilot.pause(0)
    timed(figures, "players_open", began)
    players = app.screen
    assert isinstance(players, PlayersScreen)
    months = players.query_one("#players-months", PlotextPlot)
    assert months.display and months.size.height > 0, "the month plot is not on screen"
    began = now()
    await pilot.press("down")  # the next player: their rates by month charted and drawn
    while players.charted != players.player:
        await pilot.pause(0.005)
    await pilot.pause(0)
    timed(figures, "months_plot", began)
    if figures["games"] <= LEAK_GAMES:
        began = now()
        await pilot.press("l")
        while app.leak_counts is None:
            await pilot.pause(0.05)
        timed(figures, "leaks_count", began)
        assert isinstance(app.screen, LeaksScreen)
        await pilot.press("escape")
        began = now()
        await pilot.press("l")
        await pilot.pause(0)
        timed(figures, "leaks_open", began)


def pilot_figures(python: str, path: Path, study: bool = False) -> dict[str, float]:
    command = [python, __file__, "--child", str(path), *(["--study"] if study else [])]
    done = subprocess.run(command, stdout=subprocess.PIPE, text=True, cwd=DATA, check=True)
    figures: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=2_300_000)
    parser.add_argument("--python", default=sys.executable, help="the Python that runs truclog")
    parser.add_argument("--log", help="measure this log instead of building the corpus")
    parser.add_argument(
        "--study", action="store_true", help="also time the plots, the as-of panel and leaks"
    )
    parser.add_argument(
        "--pilot", action="store_true", help="only the headless part (no validate, no terminal)"
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(asyncio.run(drive(args.child, args.study))), flush=True)
        return
    if args.log:
        path, games, hands = Path(args.log).resolve(), 0, 0
    else:
        path, games, hands = corpus(args.hands)
    with open(path, "rb") as log:
        first_id = json.loads(log.readline())["id"].encode()
    size = path.stat().st_size / 1e6
    print(f"corpus: {games:,} games, {hands:,} hands, {size:,.0f} MB ({path.name})")
    build = [args.python, "-m", "truclog", "--version"]
    version = subprocess.run(build, capture_output=True, text=True, cwd=DATA).stdout.strip()
    print(f"build: {version}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if args.pilot:
        pilot_report(pilot_figures(args.python, path, args.study), args.study)
        return
    wall, cpu_seconds = validate_figures(args.python, path)
    print(f"truclog validate              {wall:8.2f} s wall, {cpu_seconds:.2f} s CPU")
    bare = bare_app_seconds(args.python)
    t = terminal_figures(args.python, path, first_id)
    ratio = t["complete_list"] / wall
    print(f"browse (terminal): load average {os.getloadavg()[0]:.1f}")
    print(f"  a bare Textual app's screen {bare:8.2f} s   (the floor)")
    print(
        f"  first screen with games     {t['first_screen']:8.2f} s   (target < 1 s;"
        f" {t['first_screen'] / bare:.2f} x the bare app's)"
    )
    print(
        f"  complete list               {t['complete_list']:8.2f} s   {ratio:.2f} x validate"
        f" (<= 1.5); {t['games_listed']:,.0f} games, {t['hands_listed']:,.0f} hands"
    )
    print(f"  opening the last game       {t['open_game']:8.2f} s   (< 0.3)")
    print(f"  quit (q to process end)     {t['quit']:8.2f} s   (< 0.5)")
    print(f"  peak memory                 {t['peak_mb']:8.0f} MB  (< 500)")
    print(
        f"  CPU, with its index process {t['cpu']:8.2f} s   ({t['cpu'] / cpu_seconds:.2f} x validate's)"
    )
    pilot_report(pilot_figures(args.python, path, args.study), args.study)


def pilot_report(f: dict[str, float], study: bool) -> None:
    """Print what the headless browser measured."""
    print(f"browse (pilot, {f['games']:,.0f} games): load average {os.getloadavg()[0]:.1f}")
    keys = ["open_game"] + [f"filter {v}" for v in FILTERS] + [f"sort {c}" for c in SORTS]
    keys += ["review", "open_mistakes", "analysis_graph", "sort lost", "only lost"]
    for key in keys:
        shown = f"   ({f[key.replace('filter', 'shown')]:,.0f} shown)" if "filter" in key else ""
        shown += f"   ({f['shown only lost']:,.0f} shown)" if key == "only lost" else ""
        if key == "review":
            shown = (
                f" + {f['review_child_cpu']:.1f} s CPU in its process; {f['reviewed_games']:,.0f}"
                f" games, {f['kept_mistakes']:,.0f} decisions kept"
            )
        print(f"  {key:<27} {f[key]:8.3f} s wall, {f[key + '_cpu']:.3f} s CPU{shown}")
    if study:
        for key, target in STUDY:
            if key in f:
                print(f"  {key:<27} {f[key]:8.3f} s wall, {f[key + '_cpu']:.3f} s CPU   {target}")
    print(f"  peak memory                 {f['peak_mb']:8.0f} MB")


STUDY = (
    ("score_plot", "(a game opened, its plot drawn: < 1 s)"),
    ("as_of_count", "(the rest of the count the first replay started)"),
    ("as_of_hand", "(a hand's as-of counts, looked up)"),
    ("players_count", "(once, in a child process)"),
    ("players_open", "(counted already, its plots drawn: < 1 s)"),
    ("months_plot", "(the next player's rates by month drawn: < 1 s)"),
    ("leaks_count", "(once, in a worker)"),
    ("leaks_open", "(counted already: < 1 s)"),
)


if __name__ == "__main__":
    main()
