"""A bad game or hand is left out of statistics, tables, ratings and reviews (and
counted as such), never the end of a run: no internal error (exit 3) from ``stats``,
``export``, ``ratings`` or ``review``, and none from the API's tables, statistics and
review, whatever the validator's mutations do to a log; ``review`` leaves out and
counts the same games and hands as ``stats``."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from random import Random
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import truclog
from truclog.cli import main
from truclog.stats.ratings import rate, read_matches

sys.path.insert(0, str(Path(__file__).parent))
from quickcases import MUTATIONS, lines

SAMPLES = sorted((Path(__file__).parent.parent / "sample_logs").glob("*.jsonl"))
CAFE = SAMPLES[0]
INTERNAL_ERROR = 3


def redeal_refused_then_dealt_again(folder: Path) -> Path:
    """The café sample with hand 2's redeal refused: the second deal of hand 2 then
    comes while the hand is in progress (E213)."""
    text = CAFE.read_text().replace('"accepted":true', '"accepted":false', 1)
    path = folder / "dealt-again.truclog.jsonl"
    path.write_text(text)
    return path


def invoke(*args: str) -> Result:
    result = CliRunner().invoke(main, list(args))
    crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
    assert not crashed, f"{args}: {result.exception!r}"
    assert result.exit_code != INTERNAL_ERROR, f"{args}: {result.output[-800:]}"
    return result


def left_out_note(result: Result) -> list[str]:
    """What a command said on stderr it left out."""
    return [line for line in result.stderr.splitlines() if line.startswith("truclog: ")]


def reviewed(result: Result) -> tuple[int, int]:
    """The games and hands a ``truclog review`` report says it read."""
    said = re.search(r"([\d,]+) games, ([\d,]+) hands from", result.stdout)
    assert said is not None, result.stdout[-400:]
    return int(said[1].replace(",", "")), int(said[2].replace(",", ""))


def document(output: str) -> dict[str, Any]:
    """The JSON document of an output that may start with notes (stderr is mixed in)."""
    found: dict[str, Any] = json.loads(output[output.index("{") :])
    return found


def test_a_deal_while_a_hand_is_in_progress_leaves_that_hand_out(tmp_path: Path) -> None:
    path = redeal_refused_then_dealt_again(tmp_path)
    report = json.loads(invoke("validate", "--format", "json", str(path)).output)
    codes = [d["code"] for f in report["files"] for d in f["diagnostics"]]
    assert codes == ["E213"]
    whole = truclog.tables(str(CAFE)).hands.height
    hands = truclog.tables(str(path)).hands
    # the interrupted hand 2 and the hand 2 its second deal starts are both left out
    assert hands.height == whole - 1
    assert hands.filter(hands["hand"] == 2).height == 0
    stats = document(invoke("stats", "--format", "json", str(path)).output)
    assert {row["player"]: row["hands_played"] for row in stats["players"]} == {
        "Ana": whole - 1,
        "Marc": whole - 1,
    }
    assert invoke("export", "--to", str(tmp_path / "out"), str(path)).exit_code == 0


@settings(
    max_examples=60,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    sample=st.sampled_from(SAMPLES),
    names=st.lists(st.sampled_from(list(MUTATIONS)), min_size=1, max_size=3),
    seed=st.integers(0, 2**32),
)
def test_no_mutation_of_a_log_is_an_internal_error(
    sample: Path, names: list[str], seed: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    rnd = Random(seed)
    log = lines(sample.read_bytes())
    for name in names:
        log = MUTATIONS[name](log, rnd) or log
    folder = tmp_path_factory.mktemp("mutated")
    path = folder / "log.truclog.jsonl"
    path.write_bytes(b"".join(log))
    target = str(path)
    tables = truclog.tables(target)
    truclog.player_stats(target)
    rate(read_matches([target]))
    stats = invoke("stats", "--format", "json", target)
    if stats.exit_code == 0:
        played = document(stats.output)["players"]
        assert sum(row["hands_played"] for row in played) <= 4 * tables.hands.height
    invoke("export", "--to", str(folder / "out"), target)
    invoke("ratings", target)
    decisions = truclog.review(target)
    listed = json.loads(invoke("review", "--format", "json", target).stdout)["decisions"]
    assert decisions.height == len(listed)
    review = invoke("review", target)
    if stats.exit_code == 0 and review.exit_code == 0:
        summary = document(stats.output)["summary"]
        assert reviewed(review) == (summary["games"], summary["hands"])
        assert left_out_note(review) == left_out_note(stats)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize(
    "args",
    [
        ["validate", "sample_logs"],
        ["stats", "sample_logs"],
        ["ratings", "sample_logs"],
        ["schema"],
        ["simulate", "--games", "50", "-o", "-"],
    ],
)
def test_a_full_disk_under_the_output_is_a_one_line_error(args: list[str]) -> None:
    root = Path(__file__).parent.parent
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "truclog", *args],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            cwd=root,
        )
    assert done.returncode == 1
    assert done.stderr == "truclog: the output cannot be written: No space left on device\n"
