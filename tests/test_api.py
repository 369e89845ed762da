"""The public Python API (``truclog.read_games``, ``tables``, ``player_stats``): it says
what ``truclog validate`` and ``truclog stats`` say, and its replays are the engine's.

Hand-written expectations come from the rules (classic: 7 8 A K Q J T 9, high to low).
"""

from __future__ import annotations

import doctest
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import truclog
from truclog import Card, Phase
from truclog.cli import main
from truclog.simulate.bots import STYLES
from truclog.simulate.run import Simulation, simulate_to
from truclog.validate import CheckedGame, check_log

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_logs"


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("api-sim")
    styles = {"Ana": STYLES["bluffer"], "Marc": STYLES["cautious"]}
    simulate_to(Simulation(games=10, seed=5, styles=styles, hidden=0.3), folder / "two.jsonl")
    simulate_to(Simulation(games=6, seed=6, rules="sackson", hidden=0.5), folder / "sack.jsonl")
    four = Simulation(games=4, seed=7, players=("Ana", "Bea", "Cyr", "Dan"), rules="gamerules")
    simulate_to(four, folder / "four.jsonl")
    return folder


def cli_json(*args: str) -> dict:
    result = CliRunner().invoke(main, [*args, "--format", "json"])
    assert result.stdout, result.output
    return json.loads(result.stdout)


def corpora(simulated: Path) -> list[str]:
    return [str(SAMPLES), str(simulated)]


@pytest.mark.parametrize("which", [0, 1])
def test_player_stats_are_those_of_truclog_stats(simulated: Path, which: int) -> None:
    source = corpora(simulated)[which]
    report = cli_json("stats", source)
    assert report["players"], "the corpus has players"
    from_paths = truclog.player_stats(source).to_dicts()
    from_games = truclog.player_stats(list(truclog.read_games(source))).to_dicts()
    assert from_paths == report["players"]
    assert from_games == report["players"]
    teams = truclog.player_stats(source, teams=True).to_dicts()
    assert teams == report["teams"] or (not report["teams"] and teams == [])


@pytest.mark.parametrize("which", [0, 1])
def test_final_scores_are_those_of_truclog_validate(simulated: Path, which: int) -> None:
    source = corpora(simulated)[which]
    report = cli_json("validate", source)
    claimed = {
        (f["path"], g["line"]): (g["id"], g["score"], g["winner"], g["complete"], g["hands"])
        for f in report["files"]
        for g in f["games"]
    }
    games = {
        (g.path, g.line): (g.id, g.score, g.winner, g.complete, len(g.hands))
        for g in truclog.read_games(source)
    }
    assert games == claimed


def test_a_replay_ends_where_the_validator_ends(simulated: Path) -> None:
    for game in truclog.read_games([SAMPLES, simulated]):
        state = None
        for hand in game.hands:
            for _, state in hand.replay():
                assert state.hand_no in (hand.number, hand.number - 1)
            assert state is not None
            if hand.outcome is not None and hand.ok:
                assert state.score == hand.score == dict(hand.outcome.score)
        if not game.diagnostics or all(d.severity == "warning" for d in game.diagnostics):
            assert state is None or state.score == game.score


def test_tables_count_every_line_of_counted_hands(simulated: Path) -> None:
    games = list(truclog.read_games(simulated))
    tables = truclog.tables(games)
    hands = sum(len(g.hands) for g in games)
    assert tables.games.height == len(games)
    assert tables.hands.height == hands  # simulated hands are all legal
    actions = sum(len(h.actions) for g in games for h in g.hands)
    assert tables.actions.height == actions
    assert truclog.tables(str(simulated)).actions.equals(tables.actions)
    # a game given twice counts once
    assert truclog.tables(games + games[:3]).games.height == len(games)


LOG = [
    {
        "type": "game",
        "format": "truclog/1",
        "players": ["Ana", "Marc"],
        "dealer": "Marc",
        "rules": "classic",
        "id": "g",
    },
    {"type": "deal", "dealer": "Marc", "hand": 1, "cards": {"Ana": ["7h", "Q", "9s"]}},
    {"type": "play", "player": "Ana", "card": "9s"},
    {"type": "play", "player": "Marc", "card": "Kd"},
    {"type": "raise", "player": "Marc", "to": 2},
    {"type": "accept", "player": "Ana"},
    {"type": "play", "player": "Marc", "card": "8c"},
    {"type": "play", "player": "Ana", "card": "7h"},
    {"type": "play", "player": "Ana", "card": "Q"},
    {"type": "play", "player": "Marc", "card": "Qd"},
]


@pytest.fixture
def handmade(tmp_path: Path) -> Path:
    path = tmp_path / "g.truclog.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in LOG))
    return path


def test_replay_states_and_views_of_a_hand(handmade: Path) -> None:
    """K beats 9: Marc takes trick 1; 7 beats 8: Ana takes trick 2; Q and Q tie trick 3,
    so the first trick won decides: Marc wins the hand, worth 2 after the accepted raise."""
    (game,) = truclog.read_games(handmade)
    (hand,) = game.hands
    assert (hand.winner, hand.points, hand.ending, hand.dealer) == ("Marc", 2, "tricks", "Marc")
    moments = {step.line: state.copy() for step, state in hand.replay()}
    raised = moments[5]
    assert raised.answerers == ["Ana"] and raised.last_trick == [
        (0, Card("9", "s")),
        (1, Card("K", "d")),
    ]
    ana = raised.view("Ana")
    assert ana.cards == (Card("7", "h"), Card("Q"))
    assert ana.held == {"Ana": 2, "Marc": 2}
    assert ana.results == ("Marc",) and ana.raised_by == "Marc" and ana.raised_to == 2
    assert raised.view("Marc").cards == (None, None)  # the log never names Marc's deal
    after_two = moments[8]
    assert [str(a) for a in after_two.hand_actions][-2:] == ["Marc plays 8c", "Ana plays 7h"]
    assert after_two.view("Marc").last_trick == (("Marc", Card("8", "c")), ("Ana", Card("7", "h")))
    end = moments[10]
    assert end.phase is Phase.HAND_OVER and end.results == [1, 0, None]
    assert end.dealt_cards("Marc") == [Card("K", "d"), Card("8", "c"), Card("Q", "d")]
    rows = truclog.tables(handmade).actions
    assert rows.filter(rows["type"] == "raise").select(
        "player", "answer", "trick", "pending"
    ).rows() == [("Marc", "accept", 2, None)]


def test_read_games_filters_by_rules_and_keeps_lines_outside_games(tmp_path: Path) -> None:
    path = tmp_path / "x.truclog.jsonl"
    stray = json.dumps({"type": "play", "player": "Ana", "card": "7h"})
    path.write_text(stray + "\n" + "".join(json.dumps(line) + "\n" for line in LOG))
    outside: list = []
    assert [g.id for g in truclog.read_games(path, outside=outside)] == ["g"]
    assert [d.code for d in outside] == ["E103"]
    assert list(truclog.read_games(path, rules="sackson")) == []
    assert [g.id for g in truclog.read_games([path], rules=["sackson", "classic"])] == ["g"]
    with pytest.raises(truclog.TruclogError):
        next(truclog.read_games(tmp_path / "missing.jsonl"))


def test_read_games_is_lazy(tmp_path: Path) -> None:
    """The first game comes before the file's end is read: a game appended later still shows."""
    path = tmp_path / "grow.truclog.jsonl"
    text = "".join(json.dumps(line) + "\n" for line in LOG)
    path.write_text(text + text.replace('"id": "g"', '"id": "h"'))
    games = truclog.read_games(path)
    first = next(games)
    assert first.id == "g"
    with path.open("a") as handle:
        handle.write(text.replace('"id": "g"', '"id": "late"'))
    assert [g.id for g in games] == ["h", "late"]


def test_import_truclog_stays_light() -> None:
    code = (
        "import sys, truclog\n"
        "heavy = ['polars', 'textual', 'truclog.validate.checker', 'truclog.stats.players',\n"
        "         'truclog.replay']\n"
        "print([m for m in heavy if m in sys.modules])\n"
        "truclog.read_games\n"
        "print('truclog.replay' in sys.modules, 'polars' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == ["[]", "True False"]


@pytest.mark.parametrize("document", ["README.md", "docs/api.md"])
def test_documented_examples_run(
    document: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # the README's examples run anywhere (on the installed samples); the API's in a checkout
    monkeypatch.chdir(tmp_path if document == "README.md" else ROOT)
    # a fence closes an example's expected output, as a blank line would
    text = "\n".join(
        "" if line.startswith("```") else line
        for line in (ROOT / document).read_text().splitlines()
    )
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    test = doctest.DocTestParser().get_doctest(text, {}, document, document, 0)
    runner = doctest.DocTestRunner(optionflags=flags)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 5
    assert result.failed == 0


def test_validator_games_and_api_games_agree(simulated: Path) -> None:
    path = str(simulated / "two.jsonl")
    checked = [g for g in check_log(path) if isinstance(g, CheckedGame)]
    games = list(truclog.read_games(path))
    assert [g.fingerprint for g in games] == [g.fingerprint for g in checked]
    assert [len(g.hands) for g in games] == [g.hand_count for g in checked]


def test_copies_across_files_count_once_on_several_processes(
    simulated: Path, tmp_path: Path
) -> None:
    """A worker does not know the other files' games: a copy found after the fact is
    counted again without it, so -j 2 says what -j 1 says."""
    two = simulated / "two.jsonl"
    (tmp_path / "a.jsonl").write_bytes(two.read_bytes())
    lines = (simulated / "sack.jsonl").read_bytes() + two.read_bytes()
    (tmp_path / "b.jsonl").write_bytes(lines)
    whole = cli_json("stats", str(two), str(simulated / "sack.jsonl"))
    for jobs in ("1", "2"):
        copied = cli_json(
            "stats", "--jobs", jobs, str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl")
        )
        assert copied["players"] == whole["players"]
        assert copied["summary"]["duplicate_games"] == 10
        assert copied["summary"]["games"] == whole["summary"]["games"] == 16
