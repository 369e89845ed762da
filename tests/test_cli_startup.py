"""The command line starts quickly because it imports only what the command needs.

Each check runs a fresh interpreter (``-P``: the installed package, not the
checkout's files) and looks at ``sys.modules``: what was imported,
not how long it took (the time is measured by benchmarks/startup_bench.py).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import click
import pytest

from truclog.cli import COMMANDS, main, short_help
from truclog.validate import quick

SAMPLE = Path(__file__).resolve().parent.parent / "sample_logs"
HEAVY = ("polars", "textual", "truclog.stats", "truclog.record", "truclog.tui", "truclog.simulate")


def imported(code: str) -> set[str]:
    """The top modules and truclog's modules imported by running ``code``."""
    script = (
        "import sys, json, contextlib, io\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        + "".join(f"    {line}\n" for line in code.splitlines())
        + "print(json.dumps(sorted(sys.modules)))"
    )
    result = subprocess.run(
        [sys.executable, "-P", "-c", script], capture_output=True, text=True, check=True
    )
    return set(json.loads(result.stdout.splitlines()[-1]))


def heavy(modules: set[str]) -> set[str]:
    return {m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)}


@pytest.mark.parametrize("module", ["truclog", "truclog.cli"])
def test_importing_the_package_or_the_cli_imports_no_heavy_part(module: str) -> None:
    modules = imported(f"import {module}")
    assert heavy(modules) == set()
    assert "pydantic" not in modules and "rich" not in modules


def run_cli(*args: str) -> str:
    return (
        "from truclog.cli import main\n"
        f"try:\n    main({list(args)!r})\n"
        "except SystemExit:\n    pass"
    )


def ran(args: list[str]) -> tuple[set[str], str]:
    """What running the command line with ``args`` imports, and what it wrote to stdout
    (as bytes, as a file or a terminal takes them)."""
    script = (
        "import sys, json, contextlib, io\n"
        "from truclog.cli import main\n"
        "out = io.TextIOWrapper(io.BytesIO())\n"
        "with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):\n"
        f"    main({args!r})\n"
        "out.flush()\n"
        "print(json.dumps(sorted(sys.modules)))\n"
        "print(out.buffer.getvalue().decode())\n"
    )
    result = subprocess.run(
        [sys.executable, "-P", "-c", script], capture_output=True, text=True, check=True
    )
    listed, written = result.stdout.split("\n", 1)
    return set(json.loads(listed)), written


def test_version_imports_neither_the_engine_nor_the_models() -> None:
    modules = imported(run_cli("--version"))
    assert "truclog.engine" not in modules and "pydantic" not in modules
    assert heavy(modules) == set()


def test_validate_imports_no_statistics_nor_apps() -> None:
    modules = imported(
        run_cli("validate", str(SAMPLE / "2026-11-29-cafe-du-port-classic.truclog.jsonl"))
    )
    assert "truclog.validate.report" in modules
    assert heavy(modules) == set()
    assert "concurrent.futures.process" not in modules and "rich.progress" not in modules


@pytest.mark.skipif(not quick.AVAILABLE, reason="no quick core: every line goes to the models")
def test_validate_of_plainly_written_games_imports_neither_the_models_nor_pydantic() -> None:
    """The quick core clears the games, their game lines are read plainly and their
    rules are presets: the format's models, the rules' checks and pydantic are not
    even imported."""
    log = SAMPLE / "2026-11-29-cafe-du-port-classic.truclog.jsonl"
    modules = imported(run_cli("validate", str(log)))
    assert {"truclog.validate.quick", "truclog.validate.report"} <= modules
    assert (
        not {"truclog.format.events", "truclog.engine.overrides", "pydantic", "pydantic_core"}
        & modules
    )


def test_validate_of_a_small_log_imports_no_tool_it_does_not_use() -> None:
    """Paths, compression, patterns, hashes and folder walks are imported when a log
    needs them: a plain file of plainly written games needs none of them (beyond what
    the interpreter imports as it starts, as an editable install's path finder does)."""
    import truclog

    modules = imported(
        run_cli("validate", str(SAMPLE / "2026-11-29-cafe-du-port-classic.truclog.jsonl"))
    )
    tools = {"pathlib", "gzip", "glob", "fnmatch"}
    if not (Path(truclog.__file__).parent / "validate" / "_quick.c").exists():
        tools.add("hashlib")  # which a work tree uses to see its C core is fresh
    assert not tools & (modules - imported("pass"))


@pytest.mark.skipif(not quick.facts_available(), reason="no quick core: games go to the tables")
def test_stats_of_games_the_core_clears_imports_neither_the_pool_nor_the_replay() -> None:
    """Statistics of a log whose games the quick core all clears, on one process and
    written to stdout, count them in C: the process pool, the replay, the engine's state
    and actions, the line-by-line validator, the file writer's and CSV's modules and
    polars are imported only by the runs that use them."""
    log = SAMPLE / "2026-11-29-cafe-du-port-classic.truclog.jsonl"
    modules, document = ran(["stats", "--format", "json", "--jobs", "1", str(log)])
    assert json.loads(document)["summary"]["games"] == 1
    assert {"truclog.stats.run", "truclog.stats.cleared"} <= modules
    unused = {
        "multiprocessing",
        "concurrent.futures",
        "truclog.replay",
        "truclog.engine.state",
        "truclog.engine.actions",
        "truclog.validate.checker",
        "truclog.format.atomic",
        "tempfile",
        "csv",
        "difflib",
        "polars",
    }
    assert not unused & (modules - imported("pass"))


@pytest.mark.parametrize(
    "names",
    [
        ["2026-11-29-cafe-du-port-classic.truclog.jsonl"],
        [
            "invalid/E205-out-of-turn.truclog.jsonl",
            "2026-12-18-club-four-players-classic.truclog.jsonl",
        ],
    ],
    ids=["cleared", "checked-line-by-line"],
)
@pytest.mark.parametrize("form", ["table", "json"])
def test_review_imports_neither_polars_nor_the_tables(names: list[str], form: str) -> None:
    """``truclog review`` writes its report and its lines without polars or the
    statistics' tables, whether the quick core clears the games or gives them back."""
    args = ["review", "--format", form, "--jobs", "1", *(str(SAMPLE / name) for name in names)]
    modules, written = ran(args)
    assert "decisions" in written and "truclog.stats.review" in modules
    assert not {"polars", "truclog.stats.tables"} & modules


MADE = """
import contextlib, io, json, re, sys
import click  # the code click's own imports make (inspect's, dis's named tuples) is not ours
made = []
def heard(event, args):
    if event == "compile" and args[1] in (None, "<string>"):
        made.append(bytes(args[0]).decode() if isinstance(args[0], bytes) else str(args[0]))
sys.addaudithook(heard)
from truclog.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
    main(["validate", sys.argv[1]])
tuples = [m[len("lambda _cls, "):m.index(":")].split(", ") for m in made if m.startswith("lambda _cls")]
functions = [re.findall(r"def (\\w+)", m)[1] for m in made if m.startswith("def __create_fn__")]
print(json.dumps({"tuples": tuples, "functions": functions}))
"""


@pytest.mark.skipif(not quick.AVAILABLE, reason="no quick core: every line goes to the models")
def test_validate_of_a_small_log_generates_the_code_of_no_record_but_a_few() -> None:
    """The records on the way of a small validation are plain classes, whose code is
    compiled once with the package, not made and compiled at each start as a
    dataclass's or a named tuple's methods are: at most the named tuples of a problem
    found and of a game the core cleared, and the methods of one dataclass, the rules."""
    from truclog.diagnostic import Diagnostic
    from truclog.validate.tally import GameTally

    log = SAMPLE / "2026-11-29-cafe-du-port-classic.truclog.jsonl"
    result = subprocess.run(
        [sys.executable, "-P", "-c", MADE, str(log)], capture_output=True, text=True, check=True
    )
    made = json.loads(result.stdout)
    assert set(map(tuple, made["tuples"])) <= {Diagnostic._fields, GameTally._fields}
    rules = ["__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__"]
    assert Counter(made["functions"]) <= Counter(rules)


def test_the_program_leaves_the_collector_out_of_its_exit_and_only_then() -> None:
    """Nothing is frozen while a command runs (statistics freeze what they keep alive
    themselves); at the program's exit everything is, so that the interpreter's
    last collections do not walk it."""
    script = (
        "import atexit, gc, sys\n"
        "atexit.register(lambda: print('at exit', gc.get_freeze_count() > 0))\n"
        "from truclog.cli import run\n"
        "try:\n    run(['--version'])\n"
        "except SystemExit:\n    print('after the command', gc.get_freeze_count())\n"
    )
    result = subprocess.run(
        [sys.executable, "-P", "-c", script], capture_output=True, text=True, check=True
    )
    assert result.stdout.splitlines()[-2:] == ["after the command 0", "at exit True"]


LINE_BY_LINE = (
    "truclog.engine.state",
    "truclog.engine.actions",
    "truclog.format.shapes",
    "truclog.validate.checker",
)
"""The engine, its action records, the line shapes and the line-by-line validator:
what a game the quick core gives back needs."""


Found = list[tuple[int, str, str, str, int | None]]
"""Diagnostics: line, code, severity, message, hand."""


def validated(log: Path) -> tuple[set[str], Found]:
    """What ``truclog validate --format json`` of ``log`` imports, and its diagnostics."""
    modules, document = ran(["validate", "--format", "json", str(log)])
    found = json.loads(document)["files"][0]["diagnostics"]
    return modules, [(d["line"], d["code"], d["severity"], d["message"], d["hand"]) for d in found]


def line_by_line(log: Path) -> Found:
    """The diagnostics of ``log`` checked line by line, without the quick core."""
    from truclog.validate.report import report_file

    report = report_file(str(log), quick=False)
    return [(d.line, d.code, d.severity, d.message, d.hand) for d in report.diagnostics]


@pytest.mark.skipif(not quick.AVAILABLE, reason="no quick core: every game goes line by line")
def test_validate_of_games_the_core_clears_imports_neither_the_engine_nor_the_validator() -> None:
    log = SAMPLE / "2026-11-29-cafe-du-port-classic.truclog.jsonl"
    modules, diagnostics = validated(log)
    assert "truclog.validate.quick" in modules
    assert not set(LINE_BY_LINE) & modules
    assert diagnostics == [] == line_by_line(log)


@pytest.mark.skipif(
    not quick.facts_available(), reason="no quick core: every line goes to the models"
)
def test_export_of_games_the_core_clears_imports_neither_the_models_nor_the_notes(
    tmp_path: Path,
) -> None:
    """An export asks whether a log has a notes file without importing the notes'
    models (pydantic and every event's model, several MB of an export's peak)."""
    log = tmp_path / "plain.truclog.jsonl"  # no note nor marks: the core clears it
    log.write_text(
        '{"type":"game","format":"truclog/1","id":"g1","rules":"classic",'
        '"players":["Ana","Marc"],"dealer":"Marc"}\n'
        '{"type":"deal","hand":1,"dealer":"Marc","cards":{"Ana":["7h","Q","9s"]}}\n'
    )
    modules = imported(run_cli("export", "--to", str(tmp_path / "out"), str(log)))
    assert "truclog.stats.export" in modules and (tmp_path / "out" / "games").is_dir()
    assert not {"truclog.record.annotations", "truclog.format.events", "pydantic"} & modules


@pytest.mark.skipif(not quick.AVAILABLE, reason="no quick core: every game goes line by line")
def test_an_unfinished_game_the_core_clears_is_warned_of_without_the_engine() -> None:
    """The warning of a game that stops before the target is said without the
    engine's state, in the words the line-by-line validator says it."""
    log = SAMPLE / "invalid" / "W801-unfinished.truclog.jsonl"
    modules, diagnostics = validated(log)
    assert not {"truclog.engine.state", "truclog.validate.checker"} & modules
    # hand 1 to Ana (her 7h over the As, her Qs over the Jd) for 1 point, then nothing
    stops = "the game stops at Ana 1, Marc 0, before anyone reached 12"
    assert diagnostics == [(7, "W801", "warning", f"{stops}, {UNMARKED}", 1)]
    assert diagnostics == line_by_line(log)


@pytest.mark.skipif(not quick.AVAILABLE, reason="no quick core: every game goes line by line")
def test_a_game_cut_in_the_middle_of_a_hand_is_warned_of_as_such(tmp_path: Path) -> None:
    """The first four lines of a game: its line, a deal, a raise to 2 and its
    acceptance; the game stops in the middle of hand 1, nobody having scored."""
    lines = (SAMPLE / "2026-11-29-cafe-du-port-classic.truclog.jsonl").read_bytes()
    log = tmp_path / "cut.truclog.jsonl"
    log.write_bytes(b"".join(lines.splitlines(keepends=True)[:4]))
    modules, diagnostics = validated(log)
    assert not {"truclog.engine.state", "truclog.validate.checker"} & modules
    stops = "the game stops in the middle of hand 1 at Ana 0, Marc 0, before anyone reached 12"
    assert diagnostics == [(4, "W801", "warning", f"{stops}, {UNMARKED}", 1)]
    assert diagnostics == line_by_line(log)


UNMARKED = "without a game_end marking it abandoned"


@pytest.mark.parametrize(
    "name", ["E205-out-of-turn", "E302-card-twice", "E704-wrong-score", "E713-abandoned-but-won"]
)
def test_a_game_the_core_gives_back_is_checked_line_by_line_alike(name: str) -> None:
    """A game with an error goes to the line-by-line validator, imported then: the
    error its file is named for is reported as without the quick core."""
    log = SAMPLE / "invalid" / f"{name}.truclog.jsonl"
    modules, diagnostics = validated(log)
    assert set(LINE_BY_LINE) <= modules
    assert name[:4] in {found[1] for found in diagnostics}
    assert diagnostics == line_by_line(log)


def test_validate_says_the_same_of_a_log_whether_the_models_are_imported_or_not(
    tmp_path: Path,
) -> None:
    """The same games, once alone and once after a line only the models read (a
    game line with a rule override): the games are reported alike."""
    log = (SAMPLE / "2026-11-29-cafe-du-port-classic.truclog.jsonl").read_bytes()
    plain, mixed = tmp_path / "plain.truclog.jsonl", tmp_path / "mixed.truclog.jsonl"
    plain.write_bytes(log)
    override = log.replace(b'"rules":"classic"', b'"rules":{"preset":"classic","target":12}', 1)
    assert override != log
    mixed.write_bytes(override.replace(b'"id":"', b'"id":"x', 1) + log)
    reports = []
    for path in (plain, mixed):
        result = subprocess.run(
            [sys.executable, "-P", "-m", "truclog", "validate", "--format", "json", str(path)],
            capture_output=True,
            check=False,
        )
        reports.append(json.loads(result.stdout))
    first, second = (r["files"][0]["games"] for r in reports)
    assert second[1:] == [{**first[0], "line": first[0]["line"] + log.count(b"\n")}]
    assert second[0]["players"] == first[0]["players"] and second[0]["score"] == first[0]["score"]


def test_help_lists_the_commands_without_importing_them() -> None:
    modules = imported(run_cli("--help"))
    assert heavy(modules) == set() and "pydantic" not in modules
    assert not {m for m in modules if m.startswith("truclog.cli.")}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_summary_help_lists_is_the_commands_own(name: str) -> None:
    command = main.get_command(click.Context(main), name)
    assert command is not None
    for limit in (40, 70, 300):
        assert short_help(COMMANDS[name][1], limit) == command.get_short_help_str(limit)


def test_the_lazy_names_of_the_package_are_the_real_ones() -> None:
    import truclog
    from truclog import engine
    from truclog.engine import rules

    assert truclog.State is engine.State and truclog.get_rules is rules.get_rules
    assert set(truclog.__all__) <= set(dir(truclog))
    with pytest.raises(AttributeError):
        truclog.nothing_of_the_kind  # noqa: B018
