"""``truclog review`` judges every play as the decision review defines it.

The judgements are checked against a brute force written here from the definition,
not from truclog's solver: a tiny minimax over ranks plays the rest of the hand
double-dummy after each rank the player could play (right, lost, best), and an
enumeration of every holding the other side could still have, weighted by the ways
to draw it, gives each rank's average worth (sound). The engine tells the positions
(the cards still held, the tricks decided, the card on the table, the value, the
score): it is the reference for the game's facts. Answers carry the statistics'
answer review unchanged. Hand-worked cases follow.
"""

from __future__ import annotations

import io
import json
import tempfile
from array import array
from collections import Counter
from collections.abc import Iterator
from functools import cache
from itertools import combinations_with_replacement
from math import comb, prod
from pathlib import Path
from random import Random
from typing import Any

import polars as pl
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal
from quickcases import MUTATIONS, simulated

import truclog
from truclog.build import QUICK_CORE
from truclog.cli import main
from truclog.engine.actions import Accept, Fold, Play
from truclog.engine.rules import PRESETS
from truclog.engine.state import State
from truclog.errors import TruclogError
from truclog.format import parts
from truclog.format.parts import PART_SIZE
from truclog.replay import Hand, read_games
from truclog.simulate.bots import STYLES
from truclog.simulate.run import Simulation, simulate_to
from truclog.solver.grade import grade_place
from truclog.solver.play import PlayReview
from truclog.stats import review as review_module
from truclog.stats.kept import GameFilter
from truclog.stats.review import DecisionFilter
from truclog.validate import GameTally, quick

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_logs"

ORDERS = {  # the presets' ranks, high to low, and what three tied tricks give
    "classic": ("78AKQJT9", "non_dealer"),
    "gamerules": ("78AKQJT9", "draw"),
    "sackson": ("AKQJT987", "draw"),
    "francais": ("76AKQJT9", "draw"),
    "classic-36": ("76AKQJT98", "non_dealer"),
    "eight-high": ("87AKQJT9", "non_dealer"),
    "eight-low": ("7AKQJT98", "non_dealer"),
}
TARGET = 12

needs_core = pytest.mark.skipif(not quick.AVAILABLE, reason="the C core is not built")


def review_json(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(main, ["review", "--format", "json", *args])
    assert result.exit_code == 0, result.output
    document: dict[str, Any] = json.loads(result.stdout)
    return document


# --- the definition, by brute force ---------------------------------------------------


def decided(results: tuple[str, ...]) -> str | None:
    """Who took the hand from the tricks so far, seen from one side: ``W``, ``L``,
    ``T`` for three tied tricks, ``None`` while undecided (the rules' rule 5)."""
    if results.count("W") >= 2 or results.count("L") >= 2:
        return "W" if results.count("W") >= 2 else "L"
    if len(results) < 2:
        return None
    first = results[0]
    if first == "T":
        won = [r for r in results[1:] if r != "T"]
        return won[0] if won else ("T" if len(results) == 3 else None)
    if results[1] == "T" or len(results) == 3:
        return first
    return None


@cache
def worth(
    order: str,
    tied: str,
    mine: tuple[str, ...],
    theirs: tuple[str, ...],
    results: tuple[str, ...],
    table: tuple[str, str] | None,
    turn: str,
    stakes: tuple[int, int],
) -> int:
    """The rest of the hand played face up, the player (``me``) for the most points,
    the other side (``them``) for the fewest; ``table`` is (who, rank) of a card led;
    ``tied`` what three tied tricks are (``W``, ``L`` or ``D`` for a draw);
    ``stakes`` the points the player's side and the other side win a hand for."""
    gain, loss = stakes
    outcome = decided(results)
    if outcome == "T":
        outcome = tied
    if outcome is not None:
        return {"W": gain, "L": -loss, "D": 0}[outcome]
    cards = mine if turn == "me" else theirs
    other = "them" if turn == "me" else "me"
    values = []
    for card in set(cards):
        rest = list(cards)
        rest.remove(card)
        left = tuple(rest)
        hands = (left, theirs) if turn == "me" else (mine, left)
        if table is None:
            values.append(worth(order, tied, *hands, results, (turn, card), other, stakes))
            continue
        leader, led = table
        higher = order.index(card) < order.index(led)
        winner = None if card == led else (turn if higher else leader)
        won = "T" if winner is None else ("W" if winner == "me" else "L")
        after = winner or leader
        values.append(worth(order, tied, *hands, (*results, won), None, after, stakes))
    return max(values) if turn == "me" else min(values)


def after_each(
    order: str,
    tied: str,
    mine: tuple[str, ...],
    theirs: tuple[str, ...],
    results: tuple[str, ...],
    table: str | None,
    stakes: tuple[int, int],
) -> dict[str, int]:
    """Each rank the player could play and the worth of the hand after it."""
    worths = {}
    for card in set(mine):
        rest = list(mine)
        rest.remove(card)
        if table is None:
            value = worth(order, tied, tuple(rest), theirs, results, ("me", card), "them", stakes)
        else:
            higher = order.index(card) < order.index(table)
            won = "T" if card == table else ("W" if higher else "L")
            turn = "me" if won == "W" else "them"
            value = worth(order, tied, tuple(rest), theirs, (*results, won), None, turn, stakes)
        worths[card] = value
    return worths


def averages(
    order: str,
    tied: str,
    hand: str,
    mine: tuple[str, ...],
    their_plays: str,
    results: tuple[str, ...],
    table: str | None,
    stakes: tuple[int, int],
) -> dict[str, float]:
    """Each rank's worth averaged over the other side's possible holdings: every
    multiset of ranks from the unseen cards (four of each rank, less the player's
    three and the other side's plays), weighted by the ways to draw it."""
    unseen = Counter({rank: 4 for rank in order})
    unseen.subtract(hand)
    unseen.subtract(their_plays)
    total: Counter[str] = Counter()
    weights = 0
    for holding in combinations_with_replacement(order, 3 - len(their_plays)):
        weight = prod(comb(unseen[r], holding.count(r)) for r in set(holding))
        if not weight:
            continue
        weights += weight
        for card, value in after_each(order, tied, mine, holding, results, table, stakes).items():
            total[card] += weight * value
    return {card: total[card] / weights for card in set(mine)}


def ranks(state: State, player: str) -> str | None:
    cards = state.dealt_cards(player)
    if len(cards) != 3 or None in cards:
        return None
    return "".join(card.rank for card in cards if card is not None)


def plays_of(hand: Hand) -> Iterator[tuple[int, State, Play]]:
    """Each play of a hand, with its line and the state just before it."""
    before = hand.start.copy()
    for step, state in hand.replay():
        if isinstance(step.action, Play) and step.applied:
            yield step.line, before, step.action
        before = state.copy()


def expected_plays(path: str) -> dict[tuple[str, int], dict[str, Any]]:
    """The judgements of every play of the hands that validate, from the definition."""
    judged: dict[tuple[str, int], dict[str, Any]] = {}
    for game in read_games(path):
        order, all_tied = ORDERS[game.rules.name]
        for hand in game.hands:
            if not hand.ok:
                continue
            final = hand.final
            for line, state, play in plays_of(hand):
                judged[(path, line)] = judge(state, play, final, order, all_tied)
    return judged


def judge(state: State, play: Play, final: State, order: str, all_tied: str) -> dict[str, Any]:
    if len(state.players) != 2:
        return {"sound": None, "right": None, "lost": None, "best": None}
    me = play.player
    seat = state.seat[me]
    them = state.players[1 - seat]
    hand, other = ranks(final, me), ranks(final, them)
    mine_played = [
        a.card.rank for a in state.hand_actions if isinstance(a, Play) and a.player == me
    ]
    their_plays = "".join(
        a.card.rank for a in state.hand_actions if isinstance(a, Play) and a.player == them
    )
    results = tuple("T" if r is None else "W" if r == seat else "L" for r in state.results)
    table = state.trick[0][1].rank if state.trick else None
    score = state.score
    if state.reste_accepted:  # the points that take the winner to the target
        stakes = (TARGET - score[me], TARGET - score[them])
    else:
        stakes = (state.value, state.value)
    non_dealer = state.dealer != seat
    tied = "D" if all_tied == "draw" else ("W" if non_dealer else "L")
    judged: dict[str, Any] = {"sound": None, "right": None, "lost": None, "best": None}
    if hand is None:
        return judged
    mine = Counter(hand)
    mine.subtract(mine_played)
    held = tuple(mine.elements())
    means = averages(order, tied, hand, held, their_plays, results, table, stakes)
    judged["sound"] = means[play.card.rank] >= max(means.values()) - 1e-9
    if other is None:
        return judged
    theirs = Counter(other)
    theirs.subtract(their_plays)
    worths = after_each(order, tied, held, tuple(theirs.elements()), results, table, stakes)
    top = max(worths.values())
    judged["lost"] = top - worths[play.card.rank]
    judged["right"] = judged["lost"] == 0
    judged["best"] = sorted((c for c, v in worths.items() if v == top), key=order.index)
    return judged


def check_plays(paths: list[str]) -> int:
    """Compare every play ``truclog review --format json`` lists with the brute force."""
    decisions = review_json(*paths)["decisions"]
    plays = {(d["path"], d["line"]): d for d in decisions if d["kind"] == "play"}
    expected: dict[tuple[str, int], dict[str, Any]] = {}
    for path in paths:
        expected.update(expected_plays(path))
    assert plays.keys() == expected.keys()
    for where, want in expected.items():
        got = plays[where]
        assert {k: got[k] for k in want} == want, where
    return sum(d["right"] is not None for d in plays.values())


# --- every play, on the samples and on simulated logs ---------------------------------


def test_every_play_of_the_samples_is_judged_as_defined() -> None:
    paths = [str(p) for p in sorted(SAMPLES.glob("*.jsonl"))]
    assert check_plays(paths) > 200


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_play_of_simulated_games_is_judged_as_defined(preset: str, tmp_path: Path) -> None:
    path = tmp_path / f"{preset}.truclog.jsonl"
    simulate_to(Simulation(games=3, seed=7, rules=preset, hidden=0.2), path)
    assert check_plays([str(path)]) > 20


def test_answers_carry_the_statistics_answer_review() -> None:
    paths = [str(p) for p in sorted(SAMPLES.glob("*.jsonl"))]
    decisions = review_json(*paths)["decisions"]
    answers = {
        (d["path"], d["line"]): (d["sound"], d["right"], d["lost"])
        for d in decisions
        if d["kind"] != "play"
    }
    actions = truclog.tables(paths).actions
    files = truclog.tables(paths).games.select("fingerprint", "file")
    rows = (
        actions.filter(pl.col("type").is_in(["accept", "fold"]) & pl.col("pending").is_not_null())
        .join(files, on="fingerprint")
        .select("file", "line", "sound", "right", "points_given")
    )
    expected = {(f, line): (s, r, p) for f, line, s, r, p in rows.rows()}
    assert answers == expected
    assert sum(right is not None for _, right, _ in answers.values()) > 30


def test_the_statistics_count_the_plays_the_review_judges() -> None:
    paths = [str(p) for p in sorted(SAMPLES.glob("*.jsonl"))]
    players = {p["player"]: p for p in review_json(*paths)["players"]}
    stats = truclog.player_stats(paths)
    for row in stats.iter_rows(named=True):
        play = players[row["player"]]["kinds"]["play"]
        counted = (play["known"], play["sound"], play["judged"], play["right"], play["points_lost"])
        assert counted == (
            row["plays_known"],
            row["plays_sound"],
            row["plays_judged"],
            row["plays_right"],
            row["play_points_lost"],
        )
        assert row["review_points_lost"] == players[row["player"]]["points_lost"]
    assert stats.get_column("play_points_lost").sum() > 0


def test_four_player_decisions_are_listed_not_judged() -> None:
    path = str(SAMPLES / "2026-12-27-veillee-four-players-sackson.truclog.jsonl")
    decisions = review_json(path)["decisions"]
    assert len(decisions) > 20 and {d["kind"] for d in decisions} >= {"play"}
    judged = {(d["sound"], d["right"], d["lost"], d["best"]) for d in decisions}
    assert judged == {(None, None, None, None)}


# --- hand-worked cases -------------------------------------------------------------------


def log(rules: str | dict[str, Any], deal: dict[str, list[str]], *lines: str, **game: Any) -> str:
    """A one-hand log: Marc deals, Ana leads; ``lines`` as ``Player verb arg``."""
    header = {
        "type": "game",
        "format": "truclog/1",
        "id": "g",
        "rules": rules,
        "players": ["Ana", "Marc"],
        "dealer": "Marc",
        **game,
    }
    events: list[dict[str, Any]] = [
        header,
        {"type": "deal", "hand": 1, "dealer": "Marc", "cards": deal},
    ]
    for line in lines:
        player, verb, *arg = line.split()
        if verb == "plays":
            events.append({"type": "play", "player": player, "card": arg[0]})
        elif verb == "raises":
            reste = arg[0] == "reste"
            events.append(
                {
                    "type": "raise",
                    "player": player,
                    **({"reste": True} if reste else {"to": int(arg[0])}),
                }
            )
        else:
            events.append({"type": verb, "player": player})
    return "".join(json.dumps(event) + "\n" for event in events)


def decisions_of(tmp_path: Path, text: str) -> list[dict[str, Any]]:
    path = tmp_path / "hand.truclog.jsonl"
    path.write_text(text)
    return review_json(str(path))["decisions"]


def test_the_last_trick_has_one_card_to_play(tmp_path: Path) -> None:
    # classic: 7 8 A K Q J 10 9. Ana takes the first trick with her 7, Marc the
    # second with his A; the last trick leaves each one card: nothing to choose.
    text = log(
        "classic",
        {"Ana": ["7h", "Qs", "9s"], "Marc": ["8d", "Ac", "Jd"]},
        "Ana plays 7h",
        "Marc plays 8d",
        "Ana plays Qs",
        "Marc plays Ac",
        "Marc plays Jd",
        "Ana plays 9s",
    )
    last = decisions_of(tmp_path, text)[-2:]
    assert [(d["player"], d["sound"], d["right"], d["lost"], d["best"]) for d in last] == [
        ("Marc", True, True, 0, ["J"]),
        ("Ana", True, True, 0, ["9"]),
    ]


def test_a_play_that_throws_away_a_won_hand_is_a_blunder(tmp_path: Path) -> None:
    # Ana holds 7 10 9, Marc A K 9. Led first, the 9 wins: tied, Ana's 7 takes the
    # next trick; taken, her 7 and 10 take his two others. Her 7 first wins a trick,
    # then Marc takes her next card and leads his last high card: she loses. The hand
    # is worth 1 to either side: the 7 lost 1 - (-1) = 2 points of a stake of 2.
    text = log(
        "classic",
        {"Ana": ["7d", "Th", "9c"], "Marc": ["As", "Kd", "9h"]},
        "Ana plays 7d",
        "Marc plays 9h",
    )
    lead = decisions_of(tmp_path, text)[0]
    assert (lead["right"], lead["sound"], lead["lost"], lead["best"]) == (False, False, 2, ["9"])
    reviewed = truclog.review(str(tmp_path / "hand.truclog.jsonl"))
    assert reviewed.row(0, named=True)["grade"] == "blunder"


def test_a_drawn_hand_is_worth_nothing_under_all_tied_draw(tmp_path: Path) -> None:
    # gamerules (three tied tricks: a draw). Both hold A K Q and tie the aces. Ana
    # leads her K: Marc's K ties it, and the queens tie the last trick: a draw,
    # worth 0; his Q loses the trick and the hand (the first tied, the next decides),
    # worth -1. The Q lost 1 point of a stake of 2: a mistake.
    text = log(
        "gamerules",
        {"Ana": ["Ah", "Kh", "Qh"], "Marc": ["As", "Ks", "Qs"]},
        "Ana plays Ah",
        "Marc plays As",
        "Ana plays Kh",
        "Marc plays Qs",
    )
    follow = decisions_of(tmp_path, text)[-1]
    assert (follow["player"], follow["right"], follow["lost"], follow["best"]) == (
        "Marc",
        False,
        1,
        ["K"],
    )
    grades = truclog.review(str(tmp_path / "hand.truclog.jsonl")).get_column("grade")
    assert grades.to_list()[-1] == "mistake"


def test_after_an_accepted_reste_the_hand_is_worth_the_points_to_the_target(
    tmp_path: Path,
) -> None:
    # classic, Ana 10 and Marc 3. Ana raises her remainder (2), Marc accepts: the
    # winner goes to 12, Marc's side wins 9 points, Ana's 2. Ana's A takes Marc's 10;
    # she leads the Q: his K takes it and his J then beats her 9 (Marc wins); his J
    # on her Q loses the second trick and the hand. The J lost 9 - (-2) = 11 points.
    text = log(
        "classic",
        {"Ana": ["Ah", "Qh", "9h"], "Marc": ["Ts", "Ks", "Js"]},
        "Ana raises reste",
        "Marc accept",
        "Ana plays Ah",
        "Marc plays Ts",
        "Ana plays Qh",
        "Marc plays Js",
        score={"Ana": 10, "Marc": 3},
    )
    follow = decisions_of(tmp_path, text)[-1]
    assert (follow["player"], follow["right"], follow["lost"], follow["best"]) == (
        "Marc",
        False,
        11,
        ["K"],
    )


@pytest.mark.parametrize(
    ("preset", "right", "lost", "best"),
    [("eight-high", False, 2, ["8"]), ("eight-low", True, 0, ["9", "8"])],
)
def test_the_eight_ranks_as_its_deck_says(
    preset: str, right: bool, lost: int, best: list[str], tmp_path: Path
) -> None:
    # Ana holds K 8 9, Marc K 7 A; the kings tie the first trick and Ana leads again
    # (the next trick not tied decides the hand). eight-high (8 7 A K ...): her 8
    # beats his 7 and A and wins, her 9 loses. eight-low (7 A K ... 9 8): both lose.
    text = log(
        preset,
        {"Ana": ["Kh", "8h", "9h"], "Marc": ["Ks", "7s", "As"]},
        "Ana plays Kh",
        "Marc plays Ks",
        "Ana plays 9h",
    )
    lead = decisions_of(tmp_path, text)[-1]
    assert (lead["right"], lead["lost"], lead["best"]) == (right, lost, best)


# --- the command -------------------------------------------------------------------------


def test_the_report_names_the_costliest_decisions() -> None:
    result = CliRunner().invoke(main, ["review", "--top", "10", str(SAMPLES)])
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())  # as one line, however the terminal wraps it
    assert "decisions reviewed" in out and "costliest decisions" in out
    assert (
        "2026-11-29-cafe-du-port-classic.truclog.jsonl:87: game cafe-du-port-2026-11-29-1, "
        "hand 11: trick 1: Ana leads with 7, holding 7 T 9 against A K 9; the hand is worth "
        "+1 / -1; lost 2 (blunder); best: 9"
    ) in out
    first = out.index("costliest decisions")
    assert out.index("sackson-rubber.truclog.jsonl:96", first) < out.index(":87: game", first)


def test_filters_choose_what_is_listed_and_counted() -> None:
    everything = review_json(str(SAMPLES))["decisions"]
    ana = review_json("--player", "Ana", str(SAMPLES))
    assert {d["player"] for d in ana["decisions"]} == {"Ana"}
    assert [p["player"] for p in ana["players"]] == ["Ana"]
    assert len(ana["decisions"]) == sum(d["player"] == "Ana" for d in everything)
    costly = review_json("--min-lost", "2", str(SAMPLES))
    assert costly["decisions"] == [d for d in everything if (d["lost"] or 0) >= 2]
    assert costly["players"] == review_json(str(SAMPLES))["players"]
    game = review_json("--game", "plage-2026-12-20", str(SAMPLES))["decisions"]
    assert game and {Path(d["path"]).name for d in game} == {
        "2026-12-20-plage-eight-low.truclog.jsonl"
    }
    unknown = CliRunner().invoke(main, ["review", "--player", "Nobody", str(SAMPLES)])
    assert unknown.exit_code == 2 and "Nobody" in unknown.output


def test_processes_give_the_same_review(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = [str(p) for p in sorted(SAMPLES.glob("*.jsonl"))]
    copy = tmp_path / "copy.truclog.jsonl"  # a copy of a game is reviewed once
    copy.write_bytes(Path(paths[0]).read_bytes())
    alone = review_json(*paths, str(copy))
    spools = tmp_path / "tmp"  # where the processes' decisions wait their turn
    spools.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(spools))
    made = []
    folder = tempfile.TemporaryDirectory

    def spool(**options: Any) -> tempfile.TemporaryDirectory[str]:
        made.append(folder(**options))
        return made[-1]

    monkeypatch.setattr(tempfile, "TemporaryDirectory", spool)
    assert review_json("-j", "2", *paths, str(copy)) == alone
    assert not [d for d in alone["decisions"] if d["path"] == str(copy)]
    assert len(made) == 1 and list(spools.iterdir()) == []


def test_hand_review_gives_each_decision_with_its_step_and_state() -> None:
    game = next(read_games(str(SAMPLES / "2026-11-29-cafe-du-port-classic.truclog.jsonl")))
    hand = game.hands[10]
    after = {step.line: (len(state.history), state.value) for step, state in hand.replay()}
    decided = [
        step.line
        for step in hand.steps
        if step.applied and isinstance(step.action, Play | Accept | Fold)
    ]
    lines = []
    for judged in hand.review():  # the state as the replay has it after the step
        assert (len(judged.state.history), judged.state.value) == after[judged.step.line]
        lines.append(judged.step.line)
    assert lines == decided and len(lines) >= 4
    blunder = next(j for j in hand.review() if j.grade == "blunder")
    assert (blunder.player, blunder.kind, blunder.lost, blunder.best) == ("Ana", "play", 2, ("9",))
    assert isinstance(blunder.review, PlayReview)
    assert dict(blunder.review.worths or ()) == {"7": -1, "T": -1, "9": 1}


# --- the quick core's review and the replay's ---------------------------------------------


def review_both_ways(
    paths: list[str], monkeypatch: pytest.MonkeyPatch, *options: str
) -> tuple[int, int]:
    """Run ``truclog review`` (JSON and the report) and ``truclog.review`` on ``paths``
    with the quick core and without it (every game replayed by the engine), and want
    the same bytes and frames; how many games each way replayed (in the three runs)."""
    replayed = [0]
    replay = review_module._review_replay

    def counted(*args: Any) -> None:
        replayed[0] += 1
        replay(*args)

    monkeypatch.setattr(review_module, "_review_replay", counted)
    outputs, counts = [], []
    for available in (True, False):
        monkeypatch.setattr(quick, "AVAILABLE", available)
        replayed[0] = 0
        runs = [["--format", "json", *options], ["--top", "40", *options]]
        results = [CliRunner().invoke(main, ["review", *run, *paths]) for run in runs]
        assert [r.exit_code for r in results] == [0, 0], results[0].output
        frame = truclog.review(paths)
        outputs.append(([(r.stdout, r.stderr) for r in results], frame))
        counts.append(replayed[0])
    (quick_out, quick_frame), (replay_out, replay_frame) = outputs
    assert quick_out == replay_out
    assert_frame_equal(quick_frame, replay_frame)
    assert quick_frame.height > 0
    return counts[0], counts[1]


@needs_core
@pytest.mark.parametrize("players", [("Ana", "Marc"), ("A", "B", "C", "D")], ids=["two", "four"])
@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_quick_review_is_the_replay_s(
    preset: str, players: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / f"{preset}.truclog.jsonl"
    styles = {players[0]: STYLES["bluffer"], players[1]: STYLES["calling-station"]}
    simulate_to(
        Simulation(games=4, seed=3, rules=preset, players=players, hidden=0.2, styles=styles),
        path,
    )
    in_c, replayed = review_both_ways([str(path)], monkeypatch)
    assert (in_c, replayed) == (0, 3 * 4)  # the quick core clears every simulated game
    if len(players) == 2:
        in_c, _ = review_both_ways([str(path)], monkeypatch, "--player", "Ana", "--min-lost", "1")
        assert in_c == 0


@needs_core
def test_the_quick_review_of_the_samples_is_the_replay_s(monkeypatch: pytest.MonkeyPatch) -> None:
    paths = [str(p) for p in sorted(SAMPLES.glob("*.jsonl"))]
    in_c, replayed = review_both_ways(paths, monkeypatch)
    assert in_c < replayed


@needs_core
def test_bad_games_and_hands_are_left_out_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = simulated(Simulation(games=8, seed=5, rules="classic", hidden=0.2))
    for n, name in enumerate(("change_card", "seen_card", "delete_line", "insert_garbage")):
        log = MUTATIONS[name](log, Random(n))
    path = tmp_path / "bad.truclog.jsonl"
    path.write_bytes(b"".join(log))
    in_c, replayed = review_both_ways([str(path)], monkeypatch)
    assert 0 < in_c < replayed  # the bad games alone replayed
    report = CliRunner().invoke(main, ["review", str(path)])
    assert "left out" in report.stderr


def test_a_spool_that_cannot_be_written_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = [str(p) for p in sorted(SAMPLES.glob("*.jsonl"))]
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    with pytest.raises(TruclogError, match=f"cannot write the decisions to {not_a_folder}: "):
        review_module.review_file(paths[0], GameFilter(), DecisionFilter(), spool=str(not_a_folder))
    monkeypatch.setattr(tempfile, "tempdir", str(not_a_folder))
    result = CliRunner().invoke(main, ["review", "--format", "json", "-j", "2", *paths])
    assert result.exit_code == 1
    assert f"cannot make a temporary folder in {not_a_folder}: " in result.stderr
    assert "Traceback" not in result.output


@needs_core
def test_names_the_json_escapes_are_written_as_the_replay_writes_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The quick core writes a decision's line from the path, game and player as orjson
    encodes them: quotes, backslashes, control characters and letters past ASCII in
    them come out as the replay's lines have them."""
    players = ('Zoë "la" \\ Ñ', "Marc\t\x01 ✓")
    folder = tmp_path / "café ✓"
    folder.mkdir()
    path = folder / "odd.truclog.jsonl"
    simulate_to(Simulation(games=2, seed=11, rules="classic", players=players), path)
    text = path.read_text().replace('"id":"sim', '"id":"\\u00e9\\"\\\\sim')
    path.write_text(text)
    in_c, replayed = review_both_ways([str(path)], monkeypatch)
    assert (in_c, replayed) == (0, 3 * 2)
    decisions = review_json(str(path))["decisions"]
    assert {d["player"] for d in decisions} == set(players)
    assert decisions[0]["path"] == str(path) and decisions[0]["game"].startswith('é"\\sim')
    in_c, _ = review_both_ways([str(path)], monkeypatch, "--player", players[0])
    assert in_c == 0


def facts_both_ways(path: Path) -> Iterator[tuple[Any, Any]]:
    """The quick core's review facts of each game of ``path``, as lists
    (``REVIEW_FACTS``) and as rows of C values (``REVIEW_ROWS_FACTS``), side by side."""
    as_lists = quick.check_log(str(path), facts=quick.REVIEW_FACTS)
    as_rows = quick.check_log(str(path), facts=quick.REVIEW_ROWS_FACTS)
    for listed, rowed in zip(as_lists, as_rows, strict=True):
        assert type(listed) is type(rowed)
        if isinstance(listed, GameTally):
            yield listed, rowed


@needs_core
@pytest.mark.parametrize("players", [("Ana", "Marc"), ("A", "B", "C", "D")], ids=["two", "four"])
@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_review_s_rows_are_its_lists(
    preset: str, players: tuple[str, ...], tmp_path: Path
) -> None:
    """The review's facts as rows of C values hold what its lists hold (every column,
    the line, best and stake of each action included), and the core's ``decisions``
    counts and writes the same from either."""
    assert QUICK_CORE is not None
    path = tmp_path / f"{preset}.truclog.jsonl"
    styles = {players[0]: STYLES["bluffer"], players[1]: STYLES["calling-station"]}
    simulate_to(
        Simulation(games=3, seed=7, rules=preset, players=players, hidden=0.3, styles=styles),
        path,
    )
    games = 0
    for listed, rowed in facts_both_ways(path):
        assert listed.facts is not None and rowed.facts is not None and rowed.facts.rows
        hands, actions = QUICK_CORE.review_lists(rowed.facts.rows)
        assert (hands, actions) == (listed.facts.hands, listed.facts.actions)
        assert any(best for best in actions[-2]) == (len(players) == 2)
        told = []
        for facts, numbers in ((actions, hands[0]), (rowed.facts.rows, None)):
            tallies = tuple(array("q", bytes(240)) for _ in players)
            pieces = tuple(f',"player":"{p}","kind":"'.encode() for p in players)
            said = QUICK_CORE.decisions(
                facts, numbers, pieces, tallies, b"{", b",", True, 0, None, grade_place
            )
            told.append((said, [list(t) for t in tallies]))
        assert told[0] == told[1] and told[0][0][1] > 0
        games += 1
    assert games == 3


@needs_core
@settings(
    max_examples=30,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    preset=st.sampled_from(list(PRESETS)),
    four=st.booleans(),
    hidden=st.sampled_from([0.0, 0.3, 1.0]),
    style=st.sampled_from(list(STYLES)),
    seed=st.integers(0, 2**16),
    options=st.sampled_from(
        [(), ("--player", "Ana"), ("--min-lost", "1"), ("--top", "3", "--min-lost", "2")]
    ),
)
def test_any_simulated_log_is_reviewed_by_the_core_as_by_the_replay(
    preset: str,
    four: bool,
    hidden: float,
    style: str,
    seed: int,
    options: tuple[str, ...],
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """Simulated logs of every preset, drawn at random: the quick core's review (its
    rows of C values, counted and written in C, the costliest put in words from them)
    gives the bytes of the replay's, with decisions chosen or not."""
    players = ("Ana", "Marc", "Lu", "Zoé") if four else ("Ana", "Marc")
    path = tmp_path_factory.mktemp("drawn") / "drawn.truclog.jsonl"
    simulation = Simulation(
        games=2,
        seed=seed,
        rules=preset,
        players=players,
        hidden=hidden,
        default_style=STYLES[style],
    )
    simulate_to(simulation, path)
    with pytest.MonkeyPatch.context() as monkeypatch:
        in_c, replayed = review_both_ways([str(path)], monkeypatch, *options)
    assert (in_c, replayed) == (0, 3 * 2)


@pytest.mark.parametrize("target", ["file", "appended", "buffer"])
def test_spooled_decisions_are_copied_whole_to_any_output(tmp_path: Path, target: str) -> None:
    """A file's spooled decisions reach the output byte for byte, whether the kernel
    copies them (a file, one opened to append) or this process does (a buffer)."""
    from truclog.cli.review import _Decisions

    spooled = [tmp_path / f"spool-{n}" for n in range(3)]
    texts = [b"", bytes(range(256)) * 5000, b'{"a": 1}']
    for path, text in zip(spooled, texts, strict=True):
        path.write_bytes(text)
    out_path = tmp_path / "out.json"
    out_path.write_bytes(b"before\n" if target == "appended" else b"")
    with open(out_path, "ab" if target == "appended" else "wb") as handle:
        out: Any = io.BytesIO() if target == "buffer" else handle
        decisions = _Decisions(out)
        decisions.write(b"[first]")
        for path in spooled:
            decisions.copy(str(path))
        decisions.write(b"[last]")
        out.flush()
        written = out.getvalue() if target == "buffer" else None
    written = written if written is not None else out_path.read_bytes()
    before = b"before\n" if target == "appended" else b""
    body = b"\n  [first],\n  " + texts[1] + b",\n  " + texts[2] + b",\n  [last]"
    assert written == before + b'{"decisions": [' + body


def test_a_log_reviewed_in_parts_gives_the_same_review(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On processes, a large log is reviewed in parts, as statistics count it: the
    decisions, counts and costliest are those of one process, a copy of a game in a
    later part left out alike."""
    path = tmp_path / "long.truclog.jsonl"
    simulate_to(Simulation(games=12, seed=21, rules="classic", hidden=0.2), path)
    lines = path.read_bytes().splitlines(keepends=True)
    starts = [at for at, line in enumerate(lines) if line.startswith(b'{"type":"game"')]
    path.write_bytes(b"".join([*lines, *lines[starts[0] : starts[1]]]))  # a copy, last
    runs = [["--format", "json"], ["--top", "40"]]
    alone = [CliRunner().invoke(main, ["review", *run, "-j", "1", str(path)]) for run in runs]
    monkeypatch.setenv(PART_SIZE, str(path.stat().st_size // 6))
    assert len(parts.sources([str(path)], 4)) >= 5
    parted = [CliRunner().invoke(main, ["review", *run, "-j", "2", str(path)]) for run in runs]
    assert [r.exit_code for r in alone + parted] == [0] * 4
    assert [(r.stdout, r.stderr) for r in parted] == [(r.stdout, r.stderr) for r in alone]
    assert "1 duplicate game(s) counted once" in alone[0].stderr
