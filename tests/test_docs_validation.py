"""docs/validation.md stays true: every code in its tables is produced by a log, every
code the package declares is documented, and its examples are what the validator says.
The docs stand on their own: no reference to files outside the repository."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

from click.testing import CliRunner

from truclog.cli import main
from truclog.codes import declared
from truclog.validate.report import mark_duplicates, report_file

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "validation.md").read_text("utf-8")
CODE = re.compile(r"\b[EW]\d{3}\b")


def table_codes() -> set[str]:
    """The codes of the validator's tables: the first cell of a row."""
    return set(re.findall(r"^\| ([EW]\d{3}) \|", DOC, re.MULTILINE))


def declared_codes() -> set[str]:
    """Every code the package declares (in one place, ``truclog.codes``)."""
    return set(declared())


def produced_codes(tmp_path: Path) -> set[str]:
    """The codes validating the broken sample logs gives, a cut ``.gz`` log and a log
    with a line past the longest the reader takes (1 MiB: too big for a sample)."""
    unfinished = (ROOT / "sample_logs" / "invalid" / "W801-unfinished.truclog.jsonl").read_bytes()
    cut = tmp_path / "cut.truclog.jsonl.gz"
    whole = gzip.compress(unfinished)
    cut.write_bytes(whole[: len(whole) // 2])
    long = tmp_path / "long.truclog.jsonl"
    note = b'{"type":"note","text":"' + b"x" * (1 << 20) + b'"}\n'
    long.write_bytes(unfinished + note)
    paths = [*sorted((ROOT / "sample_logs" / "invalid").glob("*.jsonl")), cut, long]
    result = CliRunner().invoke(main, ["validate", "--format", "json", *map(str, paths)])
    document = json.loads(result.output)
    return {d["code"] for f in document["files"] for d in f["diagnostics"]}


def test_every_code_of_the_tables_is_produced_and_every_produced_code_is_in_them(
    tmp_path: Path,
) -> None:
    produced, documented = produced_codes(tmp_path), table_codes()
    assert documented - produced == set(), "documented, but no log here produces them"
    assert produced - documented == set(), "produced by the validator, but not in a table"


def test_every_code_the_package_declares_is_documented() -> None:
    assert declared_codes() - set(CODE.findall(DOC)) == set()


def test_the_broken_samples_are_named_by_a_documented_code() -> None:
    for path in (ROOT / "sample_logs" / "invalid").glob("*.jsonl"):
        assert path.name[:4] in table_codes(), path.name


def test_the_example_is_what_the_validator_prints() -> None:
    command = re.search(r"^\$ truclog (validate \S+)\n(.*?)```", DOC, re.MULTILINE | re.DOTALL)
    assert command is not None
    args = [*command.group(1).split(), "--no-color"]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.output == command.group(2)


def test_the_json_example_is_the_document_the_validator_writes() -> None:
    example = re.search(
        r"`truclog validate --format json (\S+)`.*?```json\n(.*?)```", DOC, re.DOTALL
    )
    assert example is not None
    path = example.group(1)
    result = CliRunner().invoke(main, ["validate", "--format", "json", path])
    assert json.loads(result.output) == json.loads(example.group(2))


def test_the_rubber_examples_are_the_messages_of_the_samples() -> None:
    for code in ("E222", "E223", "E224"):
        row = re.search(rf"^\| {code} \|.*`(game g\d of rubber m .*?)` \|$", DOC, re.MULTILINE)
        assert row is not None, code
        messages = [
            d.message
            for p in (ROOT / "sample_logs" / "invalid").glob(f"{code}-*.jsonl")
            for r in mark_duplicates([report_file(str(p))])
            for d in r.diagnostics
        ]
        assert any(_same_shape(row.group(1), m) for m in messages), (code, messages)


def _same_shape(example: str, message: str) -> bool:
    """The example with its game ids, rubber id and names as they are in a sample."""
    words, said = example.split(), message.split()
    return len(words) == len(said) and all(
        w == s or re.fullmatch(r"g\d,?|m|Ana|Zoé|Marc", w) for w, s in zip(words, said, strict=True)
    )


def test_no_doc_or_docstring_cites_a_file_outside_the_repository_or_an_issue() -> None:
    # ``shared/...``, ``../shared``: the project's contracts, never in the repository
    # (a path such as ``/shared/dataset`` on a cluster is not one of them)
    outside = re.compile(r"(?<!/)\bshared/|\.\./shared|\bissues? #?\d+", re.IGNORECASE)
    texts = [
        ROOT / "README.md",
        *(ROOT / "docs").glob("*.md"),
        *(ROOT / "truclog").rglob("*.py"),
        *(ROOT / "tests").glob("*.py"),
        *(ROOT / "benchmarks").glob("*.py"),
    ]
    cited = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in texts
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if outside.search(line) and path.name != Path(__file__).name
    ]
    assert cited == []
