"""Every command on generated bad inputs: no traceback, a documented exit status,
JSON that parses where JSON was asked.

The inputs are the sample logs, mutated by a seeded generator (cut, doubled and
swapped lines, flipped bytes, control characters, huge numbers, deep and long
lines, bytes that are not UTF-8, compressed and torn files, hostile file names).
``TRUCLOG_FUZZ=long`` runs twenty times as many cases; ``TRUCLOG_FUZZ_SEED`` picks
another seed (the failing seed and case are in the assertion message).
"""

from __future__ import annotations

import gzip
import json
import os
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from truclog.cli import main
from truclog.format import reader
from truclog.tui.browse.app import BrowseApp
from truclog.tui.browse.catalog import GameEntry, expand_sources, index_log, open_game
from truclog.tui.browse.index import hand_frames
from truclog.validate import quick

SAMPLES = sorted((Path(__file__).parent.parent / "sample_logs").glob("*.jsonl"))
LONG = os.environ.get("TRUCLOG_FUZZ") == "long"
CASES = 400 if LONG else 20
SEED = int(os.environ.get("TRUCLOG_FUZZ_SEED", "20261201"))
SHORT_LIMIT = 4096
"""The longest line while fuzzing, so that long lines stay cheap to make."""

EXIT = {
    "validate": {0, 1, 2},
    "stats": {0, 1, 2},
    "export": {0, 1, 2},
    "rules": {0, 2},
    "schema": {0, 1},
}
"""The documented exit statuses (docs/cli.md): 2 is also click's usage error."""

UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]")
"""What no text output may hold: control characters (newlines aside) from a log."""

Mutation = Callable[[random.Random, list[bytes]], list[bytes]]


def _cut(rng: random.Random, lines: list[bytes]) -> list[bytes]:
    i = rng.randrange(len(lines))
    lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
    return lines


def _double(rng: random.Random, lines: list[bytes]) -> list[bytes]:
    i = rng.randrange(len(lines))
    return lines[: i + 1] + lines[i:]


def _drop(rng: random.Random, lines: list[bytes]) -> list[bytes]:
    del lines[rng.randrange(len(lines))]
    return lines or [b""]


def _swap(rng: random.Random, lines: list[bytes]) -> list[bytes]:
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return lines


def _flip(rng: random.Random, lines: list[bytes]) -> list[bytes]:
    i = rng.randrange(len(lines))
    line = bytearray(lines[i] or b" ")
    line[rng.randrange(len(line))] = rng.randrange(256)
    lines[i] = bytes(line)
    return lines


def _control(rng: random.Random, lines: list[bytes]) -> list[bytes]:
    i = rng.randrange(len(lines))
    escape = rng.choice([b"\\u001b[2J", b"\\u0007", b"\\r", b"\\n", b"\\u202e", b"\\u0000"])
    lines[i] = (
        lines[i]
        .replace(b'"Ana"', b'"A' + escape + b'na"')
        .replace(b'"player":"', b'"player":"' + escape, 1)
    )
    return lines


def _number(rng: random.Random, lines: list[bytes]) -> list[bytes]:
    i = rng.randrange(len(lines))
    huge = rng.choice([str(2**53), str(2**63), str(2**64 + 1), "1" + "0" * 400, "-" + "9" * 30])
    for key in (b'"to":', b'"points":', b'"hand":', b'"target":', b'"Ana":', b'"Marc":'):
        at = lines[i].find(key)
        if at >= 0:
            end = at + len(key)
            digits = end
            while digits < len(lines[i]) and lines[i][digits : digits + 1].isdigit():
                digits += 1
            lines[i] = lines[i][:end] + huge.encode() + lines[i][digits:]
            break
    return lines


def _long(rng: random.Random, lines: list[bytes]) -> list[bytes]:
    i = rng.randrange(len(lines) + 1)
    body = rng.choice([b"[" * SHORT_LIMIT, b'{"note":"' + b"x" * SHORT_LIMIT + b'"}', b"\0" * 5000])
    return [*lines[:i], body, *lines[i:]]


def _deep(rng: random.Random, lines: list[bytes]) -> list[bytes]:
    depth = rng.choice([5, 50, 1000])
    lines.insert(
        rng.randrange(len(lines) + 1), b'{"type":"play","_x":' + b"[" * depth + b"]" * depth + b"}"
    )
    return lines


def _latin1(rng: random.Random, lines: list[bytes]) -> list[bytes]:
    i = rng.randrange(len(lines))
    lines[i] = lines[i].replace(b"a", b"\xe9", 1)
    return lines


def _kinds(rng: random.Random, lines: list[bytes]) -> list[bytes]:
    i = rng.randrange(len(lines))
    lines[i] = rng.choice(
        [b"[]", b"null", b"1e999", b'"game"', b"{}", b'{"type":"game"}', b"\xef\xbb\xbf"]
    )
    return lines


def _rename(rng: random.Random, lines: list[bytes]) -> list[bytes]:
    """A hostile player name, the same on every line, so that games stay whole."""
    name = rng.choice([b"A\\u001b[2J[/]na", b"[bold]Ana", b"A\\nna", b"\\u202eAna", b"A\\u0000na"])
    return [line.replace(b'"Ana"', b'"' + name + b'"') for line in lines]


MUTATIONS: list[Mutation] = [
    _rename,
    _rename,
    _cut,
    _double,
    _drop,
    _swap,
    _flip,
    _control,
    _number,
    _long,
    _deep,
    _latin1,
    _kinds,
]
NAMES = ["plain", "sp ace", "new\nline", "esc\x1b[31m", "caf\udce9", "-dash"]


def make_case(rng: random.Random, folder: Path) -> Path:
    """One bad log: a sample with a few mutations, maybe compressed or torn."""
    lines = rng.choice(SAMPLES).read_bytes().split(b"\n")
    for _ in range(rng.randint(1, 6)):
        lines = rng.choice(MUTATIONS)(rng, lines)
    data = rng.choice([b"\n", b"\r\n"]).join(lines)
    name = rng.choice(NAMES) + rng.choice([".jsonl", ".jsonl", ".jsonl.gz"])
    path = folder / name
    if name.endswith(".gz"):
        data = gzip.compress(data)
        if rng.random() < 0.3:
            data = data[: rng.randrange(len(data))]
    path.write_bytes(data)
    return path


def invoke(args: list[str], where: str) -> Result:
    result = CliRunner().invoke(main, args)
    crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
    assert not crashed, f"{where}: {args}: {result.exception!r}\n{result.output[-2000:]}"
    assert "Traceback" not in result.output, f"{where}: {args}"
    assert result.exit_code in EXIT.get(args[0], {0}), f"{where}: {args}: exit {result.exit_code}"
    return result


def json_part(output: str) -> object:
    """The JSON document of an output that may start with notes (stderr is mixed in)."""
    start = output.index("{") if "{" in output else 0
    return json.loads(output[start:])


def check_commands(path: Path, tmp: Path, where: str) -> None:
    target = str(path)
    result = invoke(["validate", "--no-color", target], where)
    assert not UNSAFE.search(result.output), f"{where}: validate printed {result.output!r}"
    result = invoke(["validate", "--format", "json", target], where)
    document = json.loads(result.output)
    assert document["summary"]["files"] == len(document["files"]), where
    result = invoke(["stats", "--format", "json", target], where)
    if result.exit_code == 0:
        json_part(result.output)
    result = invoke(["stats", target], where)
    assert not UNSAFE.search(result.output), f"{where}: stats printed {result.output!r}"
    invoke(["stats", "--format", "csv", "--by", "opponent", target], where)
    invoke(["export", "--to", str(tmp / "export"), target], where)
    files, _ = expand_sources([target])
    for item in (entry for file in files for entry in index_log(file, file, {}, {})):
        if isinstance(item, GameEntry):
            game = open_game(item, item.path)
            assert game is not None, f"{where}: the browser cannot open game {item.id!r}"
            assert len(game.hands) == item.hands, f"{where}: game {item.id!r} opens otherwise"
            for hand in game.hands:
                hand_frames(game, hand)


@pytest.fixture
def short_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader, "LONGEST_LINE", SHORT_LIMIT)
    monkeypatch.setattr(quick, "LONGEST_LINE", SHORT_LIMIT)


@pytest.mark.parametrize("case", range(CASES))
def test_every_command_survives_a_mutated_log(case: int, tmp_path: Path, short_lines: None) -> None:
    rng = random.Random(SEED * 100_003 + case)
    folder = tmp_path / "logs"
    folder.mkdir()
    path = make_case(rng, folder)
    check_commands(path, tmp_path, f"seed {SEED} case {case} ({path.name!r})")


def test_a_folder_of_mutated_logs_in_two_processes(tmp_path: Path, short_lines: None) -> None:
    rng = random.Random(SEED)
    folder = tmp_path / "logs"
    folder.mkdir()
    for _ in range(8):
        make_case(rng, folder)
    where = f"seed {SEED}, folder"
    one = invoke(["validate", "--format", "json", str(folder)], where)
    two = invoke(["validate", "--format", "json", "-j", "2", str(folder)], where)
    assert json.loads(one.output) == json.loads(two.output)
    check_commands(folder, tmp_path, where)


def test_rules_and_schema_never_crash(tmp_path: Path) -> None:
    for args in (["rules"], ["rules", "classic"], ["rules", "\x1b[2Jnope"], ["schema"]):
        invoke(args, "rules/schema")
    invoke(["schema", "-o", str(tmp_path / "no" / "such" / "dir" / "s.json")], "schema -o")


async def test_the_browser_opens_a_folder_of_mutated_logs(
    tmp_path: Path, short_lines: None
) -> None:
    rng = random.Random(SEED + 1)
    for _ in range(6):
        make_case(rng, tmp_path)
    app = BrowseApp([str(tmp_path)])
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(500):
            if app.loaded:
                break
            await pilot.pause(0.02)
        await pilot.press("enter", "enter", "right", "right", "escape", "escape", "d")
        await pilot.pause()
    assert app.return_code in (None, 0)
