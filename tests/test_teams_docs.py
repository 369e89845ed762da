"""docs/format.md, four players: its whole-hand example is legal and scored as the text says."""

from __future__ import annotations

import re
from pathlib import Path

from truclog.validate import CheckedGame, check_logs

DOC = (Path(__file__).parent.parent / "docs" / "format.md").read_text(encoding="utf-8")
SECTION = DOC[DOC.index("## Four players") :].split("\n## ", 1)[0]
EXAMPLES = re.findall(r"```jsonl\n(.*?)```", SECTION, re.S)


def test_the_four_player_example_is_legal_and_nous_win_two(tmp_path: Path) -> None:
    assert len(EXAMPLES) == 1
    path = tmp_path / "four.truclog.jsonl"
    path.write_text(EXAMPLES[0], encoding="utf-8")
    found = list(check_logs([str(path)]))
    assert all(isinstance(item, CheckedGame) for item in found)
    game = found[0]
    assert isinstance(game, CheckedGame)
    assert [str(d) for d in game.diagnostics] == []
    assert game.teams == ("nous", "eux")
    (outcome,) = game.final.outcomes
    assert (outcome.winner, outcome.points, outcome.ending) == ("nous", 2, "tricks")
    assert game.final.results == [0, 1, None]  # partners' sevens, partners' kings, split aces
