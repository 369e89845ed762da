"""The README's quick start is what CI runs, and does what the README says."""

from __future__ import annotations

import os
import re
from pathlib import Path

from click.testing import CliRunner

from truclog.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text("utf-8")


def quick_start() -> list[str]:
    section = README.split("## Quick start", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    assert block is not None
    return block.group(1).strip().splitlines()


def test_the_quick_start_is_two_commands_that_ci_runs_as_written() -> None:
    lines = quick_start()
    assert len(lines) == 2
    ci = (ROOT / ".ci" / "run").read_text("utf-8").splitlines()
    for line in lines:
        assert line in ci


def test_the_quick_start_keeps_the_compiled_build_and_runs_it() -> None:
    install, test = quick_start()
    # a plain install compiles; an editable one would replace it with the sources
    assert "pip install ." in install and " -e" not in install + test
    # the installed command and the pytest script, not `python -m` from the checkout
    assert re.search(r"&& truclog validate sample_logs/$", install)
    assert re.search(r"&& pytest$", test)


def test_the_first_line_checks_the_samples_clean() -> None:
    result = CliRunner().invoke(main, ["validate", "--no-color", str(ROOT / "sample_logs")])
    assert result.exit_code == 0
    assert result.output.rstrip().endswith("0 errors, 0 warnings")
    assert "ends with `0 errors, 0 warnings`" in README


def test_in_ci_the_suite_runs_on_the_compiled_build() -> None:
    """CI runs the second line after the first: the tests see the compiled build with
    its quick core, as the README says (elsewhere, any build may run the suite)."""
    if os.environ.get("CI") != "true":
        return
    import truclog
    from truclog.validate import quick

    assert truclog.COMPILED and quick.AVAILABLE
