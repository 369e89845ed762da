"""`truclog validate` as a user runs it: exit status, output shapes, robustness."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import orjson
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from truclog.cli import main
from truclog.validate.report import mark_duplicates, report_file, report_json

GAME = (
    '{"type":"game","format":"truclog/1","id":"g1","rules":"classic",'
    '"players":["Ana","Marc"],"dealer":"Marc"}\n'
)
HAND = (
    '{"type":"deal","hand":1,"dealer":"Marc","cards":{"Ana":["7h","Q","9s"]}}\n'
    '{"type":"play","player":"Ana","card":"7h"}\n'
    '{"type":"play","player":"Marc","card":"As"}\n'
    '{"type":"play","player":"Ana","card":"Q"}\n'
    '{"type":"play","player":"Marc","card":"Jd"}\n'
    '{"type":"result","winner":"Ana","points":1,"score":{"Ana":1,"Marc":0}}\n'
)
END = '{"type":"game_end","abandoned":true,"score":{"Ana":1,"Marc":0}}\n'


def validate(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["validate", *args], input=stdin)
    return result.exit_code, result.output


def test_clean_log_exits_0_and_says_so(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_text(GAME + HAND + END)
    status, out = validate(str(tmp_path))
    assert status == 0
    assert out.strip().endswith("1 hand(s): 0 errors, 0 warnings")


def test_an_error_exits_1_with_a_compiler_style_line(tmp_path: Path) -> None:
    bad = HAND.replace('"Ana","card":"Q"', '"Ana","card":"K"')
    (tmp_path / "a.jsonl").write_text(GAME + bad + END)
    status, out = validate(str(tmp_path / "a.jsonl"))
    assert status == 1
    assert out.startswith(f"{tmp_path / 'a.jsonl'}:5: E304 Ana does not hold K")


def test_warnings_alone_exit_0(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_text(GAME + HAND)
    status, out = validate(str(tmp_path / "a.jsonl"))
    assert status == 0 and ":7: W801 " in out


def test_missing_path_exits_2(tmp_path: Path) -> None:
    status, out = validate(str(tmp_path / "nope.jsonl"))
    assert status == 2 and "nope.jsonl" in out


def test_json_output_has_the_contract_shape(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_text(GAME + HAND + GAME.replace("g1", "g2") + HAND[:60] + "\n")
    status, out = validate("--format", "json", str(tmp_path))
    doc = json.loads(out)
    assert status == 1
    (file,) = doc["files"]
    assert [g["id"] for g in file["games"]] == ["g1", "g2"]
    assert set(file["games"][0]) >= {
        "line",
        "id",
        "players",
        "score",
        "winner",
        "hands",
        "complete",
    }
    assert file["games"][0]["score"] == {"Ana": 1, "Marc": 0}
    assert set(file["diagnostics"][0]) >= {"line", "code", "severity", "message", "game", "hand"}
    summary = {"files": 1, "games": 2, "hands": 1, "errors": 1, "warnings": 2, "rubbers": []}
    assert doc["summary"] == summary


def test_gzip_stdin_and_parallel_agree(tmp_path: Path) -> None:
    text = GAME + HAND + END
    (tmp_path / "a.jsonl").write_text(text)
    with gzip.open(tmp_path / "b.jsonl.gz", "wt") as f:
        f.write(text.replace("g1", "g2"))
    one = validate("--format", "json", str(tmp_path))[1]
    two = validate("--format", "json", "-j", "2", str(tmp_path))[1]
    assert json.loads(one) == json.loads(two)
    assert json.loads(one)["summary"]["games"] == 2
    assert validate("-", stdin=text)[0] == 0


def test_duplicate_game_across_files_warns(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_text(GAME + HAND + END)
    (tmp_path / "b.jsonl").write_text(GAME + HAND + END)
    for jobs in ("1", "2"):
        status, out = validate("-j", jobs, str(tmp_path))
        assert status == 0
        assert f"b.jsonl:1: W802 game g1 is a copy of the game at {tmp_path / 'a.jsonl'}:1" in out


lines = st.one_of(
    st.binary(max_size=60).map(lambda b: b.decode("latin-1")),
    st.sampled_from([*HAND.splitlines(), END.strip(), GAME.strip(), "[[[[[[[[[[", "1e999999"]),
    st.sampled_from(HAND.splitlines()).map(lambda s: s[: len(s) // 2]),
    st.integers().map(lambda n: f'{{"type":"raise","player":"Ana","to":{n}}}'),
    st.sampled_from(["null", "true", '"x"', '{"type":7}', '{"type":"deal","dealer":[]}']),
    st.just("[" * 5000 + "]" * 5000),
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(lines, max_size=25))
def test_garbage_never_shows_a_traceback(tmp_path: Path, garbage: list[str]) -> None:
    path = tmp_path / "fuzz.jsonl"
    path.write_text(GAME + "\n".join(garbage), "utf-8", errors="surrogateescape")
    result = CliRunner().invoke(main, ["validate", "--format", "json", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.exit_code in (0, 1)
    doc = json.loads(result.output)
    errors = doc["summary"]["errors"]
    assert (result.exit_code == 1) == (errors > 0)


def test_json_written_as_checked_is_the_whole_document(tmp_path: Path) -> None:
    """The JSON document is written game by game (memory stays flat on big logs); it
    is the document of the reports, byte for byte, with copies marked across files,
    in one process or several."""
    samples = Path(__file__).resolve().parent.parent / "sample_logs"
    logs = [str(p) for p in sorted(samples.rglob("*.jsonl"))]
    copy = tmp_path / "zz-copy.jsonl"
    copy.write_bytes(Path(logs[0]).read_bytes())
    files = [*logs, str(copy)]
    reports = list(mark_duplicates(report_file(path) for path in files))
    whole = orjson.dumps(report_json(reports), option=orjson.OPT_INDENT_2) + b"\n"
    assert any(d.code == "W802" for d in reports[-1].diagnostics)
    for jobs in ("1", "2"):
        result = CliRunner().invoke(main, ["validate", "--format", "json", "-j", jobs, *files])
        assert result.exit_code == 1
        assert result.stdout_bytes == whole
