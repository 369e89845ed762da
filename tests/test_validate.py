"""The validator against the contracts: each check of the validator, on small hand-written logs."""

from __future__ import annotations

import pickle
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from lines import deal, play, result, write_log
from lines import game as game_line

from truclog.validate import CheckedGame, Diagnostic, check_log, check_logs

game = partial(game_line, id="g1")
"""The game line of Ana and Marc, Marc dealing first."""


def ev(kind: str, player: str, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "player": player, **fields}


def run(tmp_path: Path, lines: list[Any]) -> tuple[list[CheckedGame], list[Diagnostic]]:
    items = list(check_log(write_log(tmp_path / "log.jsonl", lines)))
    games = [g for g in items if isinstance(g, CheckedGame)]
    diags = [d for d in items if isinstance(d, Diagnostic)]
    for g in games:
        diags.extend(g.diagnostics)
    return games, sorted(diags, key=lambda d: d.line)


def codes(tmp_path: Path, lines: list[Any]) -> list[tuple[int, str]]:
    return [(d.line, d.code) for d in run(tmp_path, lines)[1]]


# Hand 1 of the format.md example: Ana (non-dealer) wins both tricks, worth 2.
EXAMPLE = [
    game(),
    deal(1, "Marc", {"Ana": ["7h", "Q", "9s"], "Marc": ["??", "??", "??"]}),
    ev("raise", "Ana", to=2),
    ev("accept", "Marc"),
    play("Ana", "7h"),
    play("Marc", "As"),
    play("Ana", "Q"),
    play("Marc", "Jd"),
    result("Ana", 2, {"Ana": 2, "Marc": 0}),
]


def test_the_contract_example_is_legal_and_only_warned_as_unfinished(tmp_path: Path) -> None:
    games, diags = run(tmp_path, EXAMPLE)
    assert [(d.code, d.severity) for d in diags] == [("W801", "warning")]
    assert games[0].score == {"Ana": 2, "Marc": 0}
    assert games[0].hands[0].ok and games[0].hands[0].outcome is not None


def test_an_abandoned_game_end_silences_the_unfinished_warning(tmp_path: Path) -> None:
    end = {"type": "game_end", "abandoned": True, "score": {"Ana": 2, "Marc": 0}}
    assert codes(tmp_path, [*EXAMPLE, end]) == []


def test_raise_twice_in_a_row_names_the_rule_and_what_was_legal(tmp_path: Path) -> None:
    lines = [*EXAMPLE[:4], ev("raise", "Ana", to=3)]
    diag = run(tmp_path, lines)[1][0]
    assert (diag.line, diag.code, diag.hand, diag.game) == (5, "E406", 1, "g1")
    assert "twice in a row" in diag.message and "alternate" in diag.message
    assert any("plays 7h" in legal for legal in diag.legal)


def test_out_of_turn_play(tmp_path: Path) -> None:
    assert codes(tmp_path, [*EXAMPLE[:2], play("Marc", "As")])[0] == (3, "E205")


@pytest.mark.parametrize(
    ("cards", "played", "code"),
    [
        (["7h", "Q", "9s"], "6h", "E301"),  # no 6 in the classic deck
        (["7h", "Q", "9s"], "Ks", "E304"),  # Ana holds no king and no unseen card
        (["7h", "7d", "7c"], None, "E303"),  # Marc is dealt a fifth seven below
        (["7h", "Q", "9s"], None, "E302"),  # Marc is dealt Ana's 7h
    ],
)
def test_card_checks(tmp_path: Path, cards: list[str], played: str | None, code: str) -> None:
    marc = {"E303": ["7s", "7", "K"], "E302": ["7h", "A", "K"]}.get(code, ["??", "??", "??"])
    lines = [game(), deal(1, "Marc", {"Ana": cards, "Marc": marc})]
    if played:
        lines.append(play("Ana", played))
    assert (lines.index(lines[-1]) + 1, code) in codes(tmp_path, lines)


def test_fifth_card_of_a_rank_revealed_by_play(tmp_path: Path) -> None:
    lines = [
        game(),
        deal(1, "Marc", {"Ana": ["7h", "7d", "7c"], "Marc": ["??", "??", "??"]}),
        play("Ana", "7h"),
        play("Marc", "7"),
    ]
    lines += [play("Ana", "7d"), play("Marc", "7s")]
    assert codes(tmp_path, lines)[0] == (6, "E303")


def test_an_error_does_not_hide_the_next_hand(tmp_path: Path) -> None:
    lines = [
        game(),
        deal(1, "Marc", {"Ana": ["7h", "Q", "9s"], "Marc": ["A", "J", "T"]}),
        play("Marc", "A"),  # out of turn: line 3
        play("Ana", "7h"),  # skipped
        result("Ana", 1, {"Ana": 1, "Marc": 0}),  # skipped, but its score is taken
        deal(2, "Ana", {"Ana": ["K", "K", "K"], "Marc": ["9", "9", "9"]}),
        play("Ana", "K"),  # Ana dealt: Marc leads: line 7
    ]
    games, diags = run(tmp_path, lines)
    assert [(d.line, d.code) for d in diags if d.severity == "error"] == [(3, "E205"), (7, "E205")]
    assert "2 following lines not checked: lines 4-5" in diags[0].message
    assert games[0].final.score == {"Ana": 1, "Marc": 0}
    assert [h.ok for h in games[0].hands] == [False, False]


def test_wrong_result_is_reported_once_and_the_written_score_is_followed(tmp_path: Path) -> None:
    lines = [
        game(),
        deal(1, "Marc", {"Ana": ["7h", "7d", "9s"], "Marc": ["A", "J", "T"]}),
        play("Ana", "7h"),
        play("Marc", "A"),
        play("Ana", "7d"),
        play("Marc", "J"),
        result("Ana", 2, {"Ana": 2, "Marc": 0}),  # it was worth 1
        deal(2, "Ana", {"Ana": ["A", "J", "T"], "Marc": ["7h", "7d", "9s"]}),
        play("Marc", "7h"),
        play("Ana", "A"),
        play("Marc", "7d"),
        play("Ana", "J"),
        result("Marc", 1, {"Ana": 2, "Marc": 1}),  # right, counting from the written 2-0
    ]
    games, diags = run(tmp_path, lines)
    assert [(d.line, d.code) for d in diags if d.severity == "error"] == [(7, "E703"), (7, "E704")]
    assert [h.ok for h in games[0].hands] == [False, True]  # a wrong result is its hand's error


def test_result_before_the_hand_is_decided(tmp_path: Path) -> None:
    lines = [*EXAMPLE[:6], result("Ana", 2, {"Ana": 2, "Marc": 0})]
    assert codes(tmp_path, lines)[0] == (7, "E701")


def test_event_before_any_game(tmp_path: Path) -> None:
    assert codes(tmp_path, [play("Ana", "7h"), *EXAMPLE])[0] == (1, "E103")


def test_bad_json_then_recovery(tmp_path: Path) -> None:
    lines = [*EXAMPLE[:4], '{"type": "play", "player": "Ana", "card": "7h"', *EXAMPLE[5:]]
    found = codes(tmp_path, lines)
    assert found[0] == (5, "E001")
    assert all(code != "E205" for _, code in found)


@pytest.mark.parametrize(
    ("rules", "lines", "code"),
    [
        ("classic", [ev("raise", "Ana", to=1)], "E402"),
        ("sackson", [ev("raise", "Ana", to=3)], "E403"),
        (
            "francais",
            [
                ev("raise", "Ana", to=2),
                ev("accept", "Marc"),
                ev("raise", "Ana", to=4),
                ev("accept", "Marc"),
                ev("raise", "Ana", to=8),
                ev("accept", "Marc"),
                ev("raise", "Ana", to=16),
            ],
            "E404",
        ),
        ("francais", [ev("raise", "Ana", reste=True)], "E407"),
        (
            "classic",
            [
                ev("raise", "Ana", reste=True),
                ev("accept", "Marc"),
                play("Ana", "7h"),
                ev("raise", "Marc", to=20),
            ],
            "E409",
        ),
        ("classic", [ev("accept", "Marc")], "E411"),
        ("classic", [ev("raise", "Ana", to=2), ev("accept", "Ana")], "E412"),
        ("classic", [ev("fold", "Marc")], "E413"),
        ("classic", [ev("raise", "Ana", to=2), ev("raise", "Marc", to=3)], "E401"),
        ("classic", [{"type": "redeal", "player": "Marc", "accepted": True}], "E502"),
        (
            {"preset": "classic", "redeal": "none"},
            [{"type": "redeal", "player": "Ana", "accepted": False}],
            "E501",
        ),
        ("classic", [{"type": "redeal", "player": "Ana", "accepted": False}] * 2, "E503"),
        (
            "classic",
            [
                ev("raise", "Ana", to=2),
                ev("accept", "Marc"),
                {"type": "redeal", "player": "Ana", "accepted": True},
            ],
            "E504",
        ),
        ("classic", [ev("show", "Ana", cards=["7h"])], "E601"),
    ],
)
def test_action_checks(tmp_path: Path, rules: Any, lines: list[Any], code: str) -> None:
    log = [
        game(rules),
        deal(1, "Marc", {"Ana": ["7h", "Q", "9s"], "Marc": ["??", "??", "??"]}),
        *lines,
    ]
    assert codes(tmp_path, log)[0] == (len(log), code)


def test_raise_past_the_target_under_sackson(tmp_path: Path) -> None:
    log = [
        game("sackson", score={"Ana": 10, "Marc": 3}),
        deal(1, "Marc", {"Ana": ["A", "Q", "9"], "Marc": ["??"] * 3}),
    ]
    log += [ev("raise", "Ana", to=2), ev("accept", "Marc"), play("Ana", "A"), play("Marc", "K")]
    log += [ev("raise", "Ana", to=4)]
    assert codes(tmp_path, log)[0] == (7, "E405")


def test_reste_that_is_not_a_raise(tmp_path: Path) -> None:
    log = [
        game(score={"Ana": 11, "Marc": 3}),
        deal(1, "Marc", {"Ana": ["7h", "Q", "9s"], "Marc": ["??"] * 3}),
    ]
    log += [ev("raise", "Ana", reste=True)]
    assert codes(tmp_path, log)[0] == (3, "E408")


@pytest.mark.parametrize(
    ("lines", "code"),
    [
        ([deal(1, "Ana", {"Ana": ["7h", "Q", "9s"], "Marc": ["??"] * 3})], "E211"),
        ([deal(2, "Marc", {"Ana": ["7h", "Q", "9s"], "Marc": ["??"] * 3})], "E212"),
        (
            [
                deal(1, "Marc", {"Ana": ["7h", "Q", "9s"], "Marc": ["??"] * 3}),
                deal(1, "Marc", {"Ana": ["7h", "Q", "9s"], "Marc": ["??"] * 3}),
            ],
            "E213",
        ),
    ],
)
def test_deal_checks(tmp_path: Path, lines: list[Any], code: str) -> None:
    assert codes(tmp_path, [game(), *lines])[0] == (len(lines) + 1, code)


def test_action_after_the_hand_is_decided(tmp_path: Path) -> None:
    assert codes(tmp_path, [*EXAMPLE[:8], play("Ana", "9s")])[0] == (9, "E203")


def test_refused_reste_under_gamerules_wins_the_game(tmp_path: Path) -> None:
    lines = [
        game("gamerules", score={"Ana": 5, "Marc": 9}),
        deal(1, "Marc", {"Ana": ["9", "9", "T"], "Marc": ["??"] * 3}),
    ]
    lines += [
        ev("raise", "Ana", reste=True),
        ev("fold", "Marc"),
        result("Ana", 7, {"Ana": 12, "Marc": 9}),
    ]
    lines += [{"type": "game_end", "winner": "Ana", "score": {"Ana": 12, "Marc": 9}}]
    games, diags = run(tmp_path, lines)
    assert diags == [] and games[0].winner == "Ana" and games[0].complete


def test_game_end_claims_are_checked(tmp_path: Path) -> None:
    lines = [*EXAMPLE, {"type": "game_end", "winner": "Ana", "score": {"Ana": 12, "Marc": 0}}]
    assert [c for _, c in codes(tmp_path, lines)] == ["E714", "E711", "E712"]


def test_nothing_may_follow_game_end(tmp_path: Path) -> None:
    end = {"type": "game_end", "abandoned": True}
    lines = [*EXAMPLE, end, deal(2, "Ana", {"Ana": ["K", "K", "K"], "Marc": ["9", "9", "9"]})]
    assert codes(tmp_path, lines) == [(11, "E715")]


def test_same_game_twice_across_files_is_a_warning_naming_the_first(tmp_path: Path) -> None:
    end = {"type": "game_end", "abandoned": True}
    a = write_log(tmp_path / "a.jsonl", [*EXAMPLE, end])
    write_log(tmp_path / "b.jsonl", [*EXAMPLE, end])
    games = [g for g in check_logs([str(tmp_path)]) if isinstance(g, CheckedGame)]
    assert games[0].duplicate_of is None and games[1].duplicate_of == (a, 1)
    assert [d.code for d in games[1].diagnostics] == ["W802"]


# Four players: Ana and Lu against Marc and Zoé, seated Ana, Marc, Lu, Zoé.
def game4(**extra: Any) -> dict[str, Any]:
    return {
        "type": "game",
        "format": "truclog/1",
        "id": "g4",
        "rules": "classic",
        "players": ["Ana", "Marc", "Lu", "Zoé"],
        "dealer": "Zoé",
        "teams": {"nous": ["Ana", "Lu"], "eux": ["Marc", "Zoé"]},
        **extra,
    }


DEAL4 = {
    "type": "deal",
    "hand": 1,
    "dealer": "Zoé",
    "cards": {"Ana": ["7h", "Q", "9s"], "Marc": ["A", "K", "J"], "Lu": ["7d", "9", "T"]},
}


def team_result(winner: str | None, points: int, nous: int, eux: int) -> dict[str, Any]:
    return {
        "type": "result",
        "winner": winner,
        "points": points,
        "score": {"nous": nous, "eux": eux},
    }


def test_four_players_partners_and_team_scores(tmp_path: Path) -> None:
    lines = [
        game4(),
        DEAL4,
        ev("raise", "Ana", to=2),  # Ana, after the dealer, leads
        ev("accept", "Zoé"),  # either opponent may answer
        play("Ana", "7h"),
        play("Marc", "A"),
        play("Lu", "7d"),  # partners share the top rank: their team wins the trick
        play("Zoé", "K"),
        play("Ana", "Q"),  # the first player of the winning rank leads
        play("Marc", "K"),
        play("Lu", "T"),
        play("Zoé", "J"),  # one trick each: a third is needed, led by Marc who won the second
        play("Marc", "J"),
        play("Lu", "9"),
        play("Zoé", "8"),
        play("Ana", "9s"),
        team_result("eux", 2, 0, 2),
    ]
    games, diags = run(tmp_path, lines)
    assert [d.code for d in diags] == ["W801"]
    assert games[0].score == {"nous": 0, "eux": 2}


def test_four_players_partner_cannot_answer(tmp_path: Path) -> None:
    lines = [game4(), DEAL4, ev("raise", "Ana", to=2), ev("accept", "Lu")]
    assert codes(tmp_path, lines)[0] == (4, "E412")


def test_four_players_wrong_team_in_result(tmp_path: Path) -> None:
    lines = [game4(), DEAL4, ev("raise", "Ana", to=2), ev("fold", "Marc")]
    lines += [team_result("eux", 1, 0, 1)]
    assert [c for _, c in codes(tmp_path, lines)][:2] == ["E702", "E704"]


def test_an_undecided_hand_has_no_outcome(tmp_path: Path) -> None:
    lines = [*EXAMPLE, deal(2, "Ana", {"Ana": ["K", "K", "K"], "Marc": ["9", "9", "9"]})]
    lines += [play("Marc", "9"), play("Ana", "Q")]  # Ana holds no queen: hand 2 breaks off
    games, _ = run(tmp_path, lines)
    first, second = games[0].hands
    assert first.outcome is not None and first.outcome.hand == 1
    assert second.outcome is None and not second.ok


def test_a_diagnostic_survives_pickling() -> None:
    """`truclog validate -j N` sends each file's diagnostics back from its process."""
    diag = Diagnostic("a.jsonl", 5, "E406", "error", "twice", "g1", 2, ("Ana plays 7h",))
    assert pickle.loads(pickle.dumps(diag)) == diag


def test_a_copy_with_other_notes_and_extensions_is_the_same_game(tmp_path: Path) -> None:
    """Notes, marks and `_` fields are kept and ignored by the validator (format.md): a
    copy that differs in them alone is the same play."""
    end = {"type": "game_end", "abandoned": True}
    a = write_log(tmp_path / "a.jsonl", [*EXAMPLE, end])
    noted = [
        {**line, "note": "hm", "marks": ["review"], "_ms": 1.5, "_by": {"seat": 2}}
        for line in EXAMPLE
    ]
    write_log(tmp_path / "b.jsonl", [*noted, end])
    other = [*EXAMPLE[:-1], {**EXAMPLE[-1], "points": 1}]  # a claim differs: the same play too
    write_log(tmp_path / "c.jsonl", [*other, end])
    games = [g for g in check_logs([str(tmp_path)]) if isinstance(g, CheckedGame)]
    assert [g.duplicate_of for g in games] == [None, (a, 1), (a, 1)]


def test_a_bad_mark_is_e008_and_the_rest_of_the_hand_goes_unchecked(tmp_path: Path) -> None:
    lines = [dict(line) for line in EXAMPLE]
    lines[2]["marks"] = ["bluff?", "x" * 41]
    lines[3]["marks"] = ["é" * 40]  # forty characters: fine
    path = write_log(tmp_path / "m.jsonl", lines)
    (game,) = [g for g in check_log(path) if isinstance(g, CheckedGame)]
    (bad,) = [d for d in game.diagnostics if d.severity == "error"]
    assert (bad.code, bad.line, bad.hand) == ("E008", 3, 1)
    assert "marks.1: holds at most 40 characters, not 41" in bad.message
