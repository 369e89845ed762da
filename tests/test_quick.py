"""The quick validation core never changes what a report says.

``truclog.validate.quick`` checks whole games of simple, legal lines in C and leaves every
other game to the line-by-line validator, the reference. Each test here checks
the same logs both ways and wants the same report: games, hands, scores,
winners, fingerprints (duplicates), and every diagnostic with its code, line and
message, in the same order; and the same again when the driver reads its input
a few bytes at a time. The logs: the bundled samples, simulated games under
every preset (two and four players), and their mutations (tests/quickcases.py).
"""

from __future__ import annotations

import gzip
import io
import json
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from importlib.util import find_spec
from pathlib import Path
from random import Random
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from quickcases import (
    LEGAL_SPELLINGS,
    MARKS,
    MUTATIONS,
    ODD_CASES,
    TIMES,
    Log,
    dealt_again,
    first,
    lines,
    parsed,
    rewrite,
    setting,
    shown_not_held,
    simulated,
)
from strategies import rules_objects

from truclog.cli import main
from truclog.engine.rules import PRESETS
from truclog.format import reader
from truclog.format.header import PlainHeader
from truclog.simulate.bots import STYLES
from truclog.simulate.run import Simulation, simulate_to
from truclog.validate import CheckedGame, Diagnostic, check_log, quick
from truclog.validate.report import FileReport, mark_duplicates, report_file, report_json

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
SAMPLE_FILES = sorted(SAMPLES.glob("*.jsonl")) + sorted((SAMPLES / "invalid").glob("*.jsonl"))
TINY_BLOCKS = (1, 7, 64, 500)
FOUR = ("A", "B", "C", "D")

needs_core = pytest.mark.skipif(
    not quick.AVAILABLE,
    reason="the C core truclog.validate._quick is not built (installed without a C compiler?); "
    "build it with pip install -e '.[test]'",
)


@contextmanager
def block(size: int | None) -> Iterator[None]:
    """The quick driver reading ``size`` bytes at a time (its own default for ``None``)."""
    if size is None:
        yield
        return
    before = quick.BLOCK
    quick.BLOCK = size
    try:
        yield
    finally:
        quick.BLOCK = before


def reports(paths: Sequence[str | Path], fast: bool, size: int | None = None) -> list[FileReport]:
    """Reports of ``paths`` as ``truclog validate`` makes them, duplicates marked."""
    with block(size):
        made = [report(p, fast) for p in paths]
    return list(mark_duplicates(made))


def report(path: str | Path, fast: bool) -> FileReport:
    return report_file(str(path), quick=fast)


def outline(report: FileReport) -> tuple[Any, ...]:
    """All a report holds: the JSON document leaves out the fingerprints and diagnostics' paths."""
    games = [(g.line, g.id, g.hands, g.fingerprint, g.detail) for g in report.games]
    return report.path, games, report.diagnostics


def assert_same(paths: Sequence[str | Path], sizes: Sequence[int | None] = (None,)) -> None:
    """The quick reports of ``paths`` are the line-by-line ones, at every block size.

    The driver scans a game again from its start after each block, so a file is read
    in blocks of at least a two-thousandth of it (one byte at a time for small ones).
    """
    slow = reports(paths, fast=False)
    expected = report_json(slow)
    least = sum(Path(p).stat().st_size for p in paths) // 2000
    for size in sizes:
        fast = reports(paths, fast=True, size=None if size is None else max(size, least))
        assert report_json(fast) == expected, f"block size {size}"
        assert [outline(r) for r in fast] == [outline(r) for r in slow], f"block size {size}"


def items(found: Iterator[Any]) -> list[tuple[Any, ...]]:
    """What ``check_log`` yields, as games (a count of hands) and lone diagnostics."""
    out: list[tuple[Any, ...]] = []
    for item in found:
        if isinstance(item, Diagnostic):
            out.append(("diagnostic", item))
            continue
        hands = len(item.hands) if isinstance(item, CheckedGame) else item.hands
        out.append(
            (
                "game",
                item.path,
                item.line,
                item.id,
                tuple(item.players),
                dict(item.score),
                item.winner,
                item.complete,
                hands,
                item.fingerprint,
                list(item.diagnostics),
            )
        )
    return out


def tallies(path: str | Path) -> tuple[int, int]:
    """How many games ``quick.check_log`` cleared in C, of how many."""
    from truclog.validate import GameTally

    games = [i for i in quick.check_log(str(path)) if not isinstance(i, Diagnostic)]
    return sum(isinstance(g, GameTally) for g in games), len(games)


def write(path: Path, log: Log) -> Path:
    path.write_bytes(b"".join(log))
    return path


# 1. The bundled samples, legal and broken.


@needs_core
@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: p.name.split(".")[0])
def test_a_sample_reads_the_same_quick_or_line_by_line(path: Path) -> None:
    assert_same([path], (None, *TINY_BLOCKS))
    assert items(quick.check_log(str(path))) == items(check_log(str(path)))


@needs_core
def test_the_samples_together_find_the_same_duplicates() -> None:
    assert_same(SAMPLE_FILES)


def test_a_quick_core_built_from_another_source_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a work tree, the core is used only if built from the _quick.c beside it and the
    headers it includes, so that an edit of the C is never tested against an older build."""
    assert not quick.STALE, (
        "truclog.validate._quick is older than truclog/validate/_quick.c: pip install -e ."
    )
    if not quick.AVAILABLE:
        pytest.skip("no quick core built")
    package = Path(__file__).resolve().parent.parent / "truclog"
    folder = tmp_path / "validate"
    folder.mkdir()
    monkeypatch.setattr(quick, "__file__", str(folder / "quick.py"))
    assert quick.built_from_source()  # no source beside it: an installed wheel
    source = package / "validate" / "_quick.c"
    text = source.read_bytes() if source.exists() else b""
    headers = (
        "engine/_trick.h",
        "solver/_solve.h",
        "validate/_blake2b.h",
        "validate/_columns.h",
        "validate/_counts.h",
        "validate/_decisions.h",
        "validate/_wide.h",
    )
    if text:
        (folder / "_quick.c").write_bytes(text)
        for header in headers:
            (tmp_path / header).parent.mkdir(exist_ok=True)
            (tmp_path / header).write_bytes((package / header).read_bytes())
        assert quick.built_from_source()
        trick = tmp_path / "engine" / "_trick.h"
        trick.write_bytes(trick.read_bytes() + b"/* edited */\n")  # a header counts too
        assert not quick.built_from_source()
        trick.unlink()
        assert not quick.built_from_source()  # nor is a tree missing a header fresh
    (folder / "_quick.c").write_bytes(b"/* edited */\n" + text)
    assert not quick.built_from_source()


@needs_core
def test_the_default_report_is_the_quick_one_and_reads_the_same() -> None:
    paths = [str(p) for p in SAMPLE_FILES]
    default = report_json(list(mark_duplicates(report_file(p) for p in paths)))
    assert default == report_json(reports(paths, fast=False))


# 2. Simulated legal logs: every preset, two and four players.


def simulations(preset: str, players: tuple[str, ...], seed: int) -> list[Simulation]:
    """A few games of ``preset`` the ways the simulator can write them."""
    teams = ("nous", "eux") if len(players) == 4 else None
    styles = {players[0]: STYLES["bluffer"], players[1]: STYLES["calling-station"]}
    others = STYLES["random"]
    ways: list[dict[str, Any]] = [
        {"games": 5},
        {"games": 4, "hidden": 0.3, "timestamps": True},
        {"games": 3, "hidden": 1.0, "timestamps": True, "notes": 0.3, "teams": teams},
        {"games": 1, "match": True, "notes": 0.1},
        {"games": 3, "hidden": 0.3, "styles": styles, "default_style": others, "annotate": True},
    ]
    return [
        Simulation(seed=seed + n, rules=preset, players=players, **way)
        for n, way in enumerate(ways)
    ]


@needs_core
@pytest.mark.parametrize("players", [("Ana", "Marc"), FOUR], ids=["two", "four"])
@pytest.mark.parametrize("preset", list(PRESETS))
def test_simulated_games_read_the_same_and_all_in_c(
    preset: str, players: tuple[str, ...], tmp_path: Path
) -> None:
    paths = []
    for n, sim in enumerate(simulations(preset, players, seed=len(players) * 100)):
        paths.append(tmp_path / f"{preset}-{n}.truclog.jsonl")
        simulate_to(sim, paths[-1])
    assert_same(paths, (None, 500))
    cleared = [tallies(p) for p in paths]
    done = sum(c for c, _ in cleared)
    games = sum(n for _, n in cleared)
    assert games >= 10
    assert done == games, f"legal games (notes, hidden cards, floats in _strength) left: {cleared}"


@needs_core
@pytest.mark.parametrize("longest", [200, 3000])
def test_a_game_too_long_for_the_quick_core_reads_the_same(
    longest: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(quick, "LONGEST_GAME", longest)
    path = write(tmp_path / "long.truclog.jsonl", BASES["classic-two"] + BASES["eight-low"])
    assert_same([path], (None, 64, 500))


@needs_core
def test_simulated_games_under_a_rules_object_read_the_same(tmp_path: Path) -> None:
    rules = {"preset": "classic", "target": 7, "fold_anytime": True, "raises": "double"}
    path = tmp_path / "overrides.truclog.jsonl"
    simulate_to(Simulation(games=6, seed=5, rules=rules, hidden=0.3, timestamps=True), path)
    assert_same([path], (None, 64))


# 3. Mutations of legal logs.

BASES: dict[str, Log] = {
    "classic-two": simulated(Simulation(games=2, seed=11, hidden=0.3, timestamps=True, notes=0.2)),
    "sackson-four": simulated(
        Simulation(games=1, seed=12, rules="sackson", players=FOUR, timestamps=True)
    ),
    "gamerules-match": simulated(
        Simulation(games=1, seed=13, rules="gamerules", hidden=1.0, match=True)
    ),
    "francais-four-teams": simulated(
        Simulation(games=1, seed=14, rules="francais", players=FOUR, teams=("nous", "eux"))
    ),
    "eight-low": simulated(Simulation(games=1, seed=15, rules="eight-low")),
    "random-play": simulated(
        Simulation(games=2, seed=17, rules="gamerules", default_style=STYLES["random"])
    ),
    "random-play-four": simulated(
        Simulation(games=1, seed=18, players=FOUR, hidden=1.0, default_style=STYLES["random"])
    ),
    "no-ids": [
        rewrite(raw, {k: v for k, v in data.items() if k != "id"})
        if data["type"] == "game"
        else raw
        for raw in simulated(Simulation(games=2, seed=16, players=FOUR))
        if (data := parsed(raw)) is not None
    ],
    **{p.name.split(".")[0]: lines(p.read_bytes()) for p in sorted(SAMPLES.glob("*.jsonl"))},
}


def mutated(base: str, names: Sequence[str], seed: int) -> Log:
    rnd = Random(seed)
    log = BASES[base]
    for name in names:
        log = MUTATIONS[name](log, rnd) or log
    return log


def test_every_mutation_changes_some_log() -> None:
    unchanged = [
        name
        for name in MUTATIONS
        if all(mutated(base, [name], seed) == BASES[base] for base in BASES for seed in range(3))
    ]
    assert unchanged == []


@needs_core
@pytest.mark.parametrize("name", list(MUTATIONS))
def test_each_mutation_reads_the_same(name: str, tmp_path: Path) -> None:
    at = list(MUTATIONS).index(name)
    for n in range(5):
        base = list(BASES)[(at + n * 3) % len(BASES)]
        path = write(tmp_path / f"{base}.truclog.jsonl", mutated(base, [name], seed=n))
        assert_same([path], (None, TINY_BLOCKS[(at + n) % len(TINY_BLOCKS)]))


@needs_core
@settings(
    max_examples=150,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    base=st.sampled_from(list(BASES)),
    names=st.lists(st.sampled_from(list(MUTATIONS)), min_size=1, max_size=4),
    seed=st.integers(0, 2**32),
    size=st.sampled_from(TINY_BLOCKS),
)
def test_mutated_logs_read_the_same(
    base: str, names: list[str], seed: int, size: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    log = mutated(base, names, seed)
    path = write(tmp_path_factory.mktemp("mutated") / "log.truclog.jsonl", log)
    assert_same([path], (None, size))


OVERRIDES = rules_objects(
    max_values=(None, 1, 2, 3, 4, 8),
    targets=st.sampled_from([1, 2, 3, 5, 7, 15]),
    orders=st.permutations("6789TJQKA")
    .map("".join)
    .flatmap(lambda ranks: st.integers(4, 9).map(lambda n: ranks[:n])),
)


@needs_core
@settings(max_examples=60, derandomize=True, deadline=None)
@given(
    rules=OVERRIDES,
    four=st.booleans(),
    hidden=st.sampled_from([0.0, 0.3, 1.0]),
    names=st.lists(st.sampled_from(list(MUTATIONS)), max_size=2),
    seed=st.integers(0, 2**16),
)
def test_games_under_any_rules_read_the_same(
    rules: dict[str, Any], four: bool, hidden: float, names: list[str], seed: int
) -> None:
    players = FOUR if four else ("Ana", "Marc")
    assume(len(rules.get("order", "6789TJ")) >= 6 or not four)  # a redeal from the rest of 16 cards
    style = STYLES["random" if seed % 2 else "balanced"]
    sim = Simulation(
        games=1, seed=seed, rules=rules, players=players, hidden=hidden, default_style=style
    )
    log = simulated(sim)
    rnd = Random(seed)
    for name in names:
        log = MUTATIONS[name](log, rnd)
    with tempfile.TemporaryDirectory() as folder:
        assert_same([write(Path(folder) / "rules.truclog.jsonl", log)], (None, 64))


@needs_core
@pytest.mark.parametrize("at", range(len(TIMES)), ids=lambda at: repr(TIMES[at]))
def test_a_time_reads_the_same(at: int, tmp_path: Path) -> None:
    log = first(SPELLED["four"], "play", setting("t", TIMES[at]))
    assert_same([write(tmp_path / "time.truclog.jsonl", log)], (None, 64))


def good_marks(marks: Any) -> bool:
    """Marks the format accepts: null, or a list of strings of 1 to 40 characters."""
    return marks is None or (
        isinstance(marks, list) and all(isinstance(m, str) and 1 <= len(m) <= 40 for m in marks)
    )


@needs_core
@pytest.mark.parametrize("at", range(len(MARKS)), ids=lambda at: repr(MARKS[at])[:30])
def test_marks_read_the_same_and_good_ones_in_c(at: int, tmp_path: Path) -> None:
    log = first(SPELLED["two"], "play", setting("marks", MARKS[at]))
    path = write(tmp_path / "marks.truclog.jsonl", log)
    assert_same([path], (None, 64))
    codes = {d.code for d in report(path, fast=False).diagnostics}
    cleared, games = tallies(path)
    if good_marks(MARKS[at]):
        assert codes <= {"W801"} and cleared == games == 1
    else:
        assert "E008" in codes and cleared == 0


SAMPLE_CASES = {
    "dealt-again-rest": ("2026-11-29-cafe-du-port-classic", dealt_again),
    "dealt-again-reshuffle-four": ("2026-12-27-veillee-four-players-sackson", dealt_again),
    "dealt-again-reshuffle": ("2026-12-06-sackson-rubber", dealt_again),
    "shown-not-held": ("2026-11-29-cafe-du-port-classic", shown_not_held),
}


def test_a_card_of_the_first_deal_comes_again_only_after_a_reshuffle(tmp_path: Path) -> None:
    def errors(name: str) -> set[str]:
        base, change = SAMPLE_CASES[name]
        path = write(tmp_path / f"{name}.truclog.jsonl", change(BASES[base]))
        return {d.code for d in report(path, fast=False).diagnostics}

    assert errors("dealt-again-reshuffle") == errors("dealt-again-reshuffle-four") == set()
    assert "E302" in errors("dealt-again-rest")
    assert errors("shown-not-held") - {"W801"}


@needs_core
@pytest.mark.parametrize("name", list(SAMPLE_CASES))
def test_a_changed_sample_reads_the_same(name: str, tmp_path: Path) -> None:
    base, change = SAMPLE_CASES[name]
    log = change(BASES[base])
    assert log != BASES[base]
    assert_same([write(tmp_path / f"{name}.truclog.jsonl", log)], (None, 1, 64))


# 4. Compressed logs, standard input, and the command.


@needs_core
def test_a_gz_log_reads_the_same_whole_or_cut(tmp_path: Path) -> None:
    data = b"".join(BASES["classic-two"])
    whole = tmp_path / "whole.truclog.jsonl.gz"
    whole.write_bytes(gzip.compress(data))
    cut = tmp_path / "cut.truclog.jsonl.gz"
    cut.write_bytes(whole.read_bytes()[: len(whole.read_bytes()) // 2])
    assert_same([whole, cut], (None, 7))


@needs_core
@pytest.mark.parametrize("base", ["classic-two", "sackson-four", "no-ids"])
def test_standard_input_reads_the_same(base: str, monkeypatch: pytest.MonkeyPatch) -> None:
    data = b"".join(mutated(base, ["crlf", "add_note"], seed=3))

    def report(fast: bool) -> FileReport:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
        return report_file("-", quick=fast)

    slow = report(False)
    for size in (None, 7):
        with block(size):
            fast = report(True)
        assert report_json([fast]) == report_json([slow])
        assert outline(fast) == outline(slow)


# Legal logs spelled as the writer never does, and odd cases, each by name.

SPELLED: dict[str, Log] = {
    "two": simulated(Simulation(games=1, seed=21, timestamps=True)),
    "four": simulated(
        Simulation(games=1, seed=22, players=FOUR, hidden=0.3, teams=("nous", "eux"))
    ),
}


@pytest.mark.parametrize("base", list(SPELLED))
@pytest.mark.parametrize("name", list(LEGAL_SPELLINGS))
def test_a_legal_spelling_validates_clean(name: str, base: str, tmp_path: Path) -> None:
    log = LEGAL_SPELLINGS[name](SPELLED[base])
    assert log != SPELLED[base]
    plain = report(write(tmp_path / "plain.truclog.jsonl", SPELLED[base]), fast=False)
    (spelled,) = reports([write(tmp_path / "spelled.truclog.jsonl", log)], fast=False)
    assert {d.code for d in spelled.diagnostics} <= {"W802"}
    assert played(spelled)[: len(plain.games)] == played(plain) != []


def played(report: FileReport) -> list[tuple[int, list[int], bool]]:
    """Each game's hands, scores (whoever the players are called) and whether it was won."""
    return [
        (g.hands, sorted(g.to_json()["score"].values()), g.to_json()["complete"])
        for g in report.games
    ]


@needs_core
@pytest.mark.parametrize("base", list(SPELLED))
@pytest.mark.parametrize("name", [*LEGAL_SPELLINGS, *ODD_CASES])
def test_a_named_case_reads_the_same(name: str, base: str, tmp_path: Path) -> None:
    log = {**LEGAL_SPELLINGS, **ODD_CASES}[name](SPELLED[base])
    tiny = 1 if base == "four" else 64  # the smaller log byte by byte
    assert_same([write(tmp_path / f"{name}.truclog.jsonl", log)], (None, tiny))


@needs_core
@pytest.mark.parametrize("output", ["json", "text"])
def test_the_command_says_the_same_quick_or_not(
    output: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for path in SAMPLE_FILES:
        (tmp_path / path.name).write_bytes(path.read_bytes())
    for n, name in enumerate(MUTATIONS):
        base = list(BASES)[n % len(BASES)]
        write(tmp_path / f"mutated-{n:02d}.truclog.jsonl", mutated(base, [name], seed=n))
    write(tmp_path / "zz-copy.truclog.jsonl", BASES["classic-two"])
    args = ["validate", "--format", output, "--no-color", str(tmp_path)]
    said = {}
    for available in (True, False):
        monkeypatch.setattr(quick, "AVAILABLE", available)
        result = CliRunner().invoke(main, args)
        said[available] = (result.exit_code, result.output)
    assert said[True] == said[False]
    assert said[True][0] == 1


def _plain_header(**fields: Any) -> Any:
    line = {"type": "game", "format": "truclog/1", "players": ["Ana", "Marc"], "dealer": "Marc"}
    body = json.dumps({**line, **fields}, separators=(",", ":")).encode()
    return reader.read_line("x.jsonl", 1, body, True, headers=True).parsed


def test_a_game_start_is_remembered_by_what_the_core_is_given() -> None:
    # games whose game lines differ in what the core is not given share one start
    first = _plain_header(id="g1", date="2026-01-02")
    again = _plain_header(id="g2", t="2026-01-03T10:00:00Z", source="club")
    assert isinstance(first, PlainHeader) and isinstance(again, PlainHeader)
    assert quick.start_of(first) is quick.start_of(again)
    # and any of dealer, starting score, rules or seats gives a start of its own
    others = [
        _plain_header(dealer="Ana"),
        _plain_header(score={"Ana": 3, "Marc": 0}),
        _plain_header(score={"Ana": 0, "Marc": 3}),
        _plain_header(rules="sackson"),
        _plain_header(players=["Marc", "Ana"]),
        _plain_header(players=["Ana", "Marc", "Lu", "Zoe"]),
    ]
    for header in [first, *others]:
        found = quick.table(header)
        assert found is not None
        assert quick.start_of(header) == (*found, header.rules_obj)
    starts = [quick.start_of(header) for header in [first, *others]]
    assert len({repr(start) for start in starts}) == len(starts)


def test_a_compiled_build_compiles_the_quick_path_too() -> None:
    # setup.py compiles quick.py with the validator: the tests of this file then hold
    # that build to the line-by-line validator as they hold the pure one
    import truclog

    if not truclog.COMPILED:
        pytest.skip("a pure Python build (an editable install)")
    spec = find_spec("truclog.validate.quick")
    assert spec is not None and spec.origin is not None
    assert not spec.origin.endswith(".py"), spec.origin
