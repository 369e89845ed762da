"""An independent audit of ``truclog stats`` against docs/stats.md.

Every expectation here was worked out from docs/stats.md, docs/rules.md and
docs/format.md alone, before reading the code: the counts by hand, the
strengths with a small double-dummy solver written from stats.md (scratch, not
part of the project) and checked by hand where short. Ana and Bob play; Bob
deals the first hand, so Ana leads it. Ranks are high to low as in the preset
(classic: 7 8 A K Q J T 9).

Strengths over thousands of holdings are the solver's exact fractions; it
agreed with ``truclog export``'s strength column on about 2,000 raises of
simulated games under every preset and several rules overrides.

Tests marked ``xfail`` are where the code disagrees with the contract.

A raise's strength ``s`` is checked through the bluff threshold: with
``--bluff-threshold`` just above ``s`` the raise is a bluff, at or just below
``s`` it is not ("strength below the threshold").
"""

from __future__ import annotations

import gzip
import json
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

import lines
import pytest
from click.testing import CliRunner
from lines import accept, deal, fold, log_text, play, raise_, redeal, reste, show

from truclog.cli import main

Event = dict[str, Any]
STATS = (
    "raises",
    "raises_faced",
    "folds_to_raise",
    "fold_rate",
    "raises_known",
    "bluffs",
    "bluff_rate",
)

game = partial(lines.game, dealer="Bob", players=("Ana", "Bob"), id="g1")
"""A game line of Ana and Bob, Bob dealing first."""


def write(tmp_path: Path, files: list[list[Event]]) -> list[str]:
    paths = []
    for i, events in enumerate(files):
        path = tmp_path / f"log{i}.truclog.jsonl"
        path.write_text(log_text(events), encoding="utf-8")
        paths.append(str(path))
    return paths


def stats(paths: list[str], *options: str) -> dict[str, dict[str, Any]]:
    result = CliRunner().invoke(main, ["stats", "--format", "json", *options, *paths])
    assert result.exit_code == 0, result.output
    return {row["player"]: row for row in json.loads(result.stdout)["players"]}


def assert_clean(paths: list[str]) -> None:
    result = CliRunner().invoke(main, ["validate", *paths])
    assert result.exit_code == 0, result.output


def counts(raises: int, faced: int, folds: int, known: int, bluffs: int) -> dict[str, Any]:
    """The seven contract numbers, rates derived as stats.md says (null on 0)."""
    return {
        "raises": raises,
        "raises_faced": faced,
        "folds_to_raise": folds,
        "fold_rate": folds / faced if faced else None,
        "raises_known": known,
        "bluffs": bluffs,
        "bluff_rate": bluffs / known if known else None,
    }


# --- the logs -------------------------------------------------------------

# Ana leads 7 8 9 and raises before the first card; Bob accepts, loses two tricks.
# Strength: Ana 7 8 9 leading, 29 unseen cards, C(29,3) = 3654 holdings -> 2609/3654 = 0.714.
LEADER_ACCEPTED = [
    game(),
    deal(1, "Bob", {"Ana": ["7h", "8h", "9s"], "Bob": ["As", "Ks", "Qs"]}),
    raise_("Ana", 2),
    accept("Bob"),
    play("Ana", "7h"),
    play("Bob", "As"),
    play("Ana", "8h"),
    play("Bob", "Ks"),
]

# Ana leads K; Bob (the dealer) raises with K on the table holding 7 9 T; Ana folds.
# Strength: unseen = 32 - {7,9,T} - {K} = 28, Ana holds 2 of them (378 holdings).
# Bob's 7 takes the K (losing trick 1 cannot do better); he then wins, leading 9 or
# T alike, exactly when Ana holds a 9 (a 9 against his 9 or T ties or loses, and a
# tie after a won first trick is his) or T T: (378 - C(25,2)) + C(3,2) = 78 + 3 = 81;
# 81/378 = 3/14 = 0.214 (a bluff).
FOLLOWER_ON_TABLE = [
    game(),
    deal(1, "Bob", {"Ana": ["Kh", "Qh", "Jh"], "Bob": ["7c", "9c", "Tc"]}),
    play("Ana", "Kh"),
    raise_("Bob", 2),
    fold("Ana"),
]

# Trick 1: Ana 7 beats Bob 8. Ana raises leading trick 2 with 9 Q (strength
# 19/54 = 0.352: unseen 27 after {7,9,Q} and Bob's 8, Bob holds 2 of them).
# Bob takes trick 2 with A and raises leading trick 3 with T: Ana's last card is
# one of 27 unseen; only a 9 (3 left) loses to T, a T ties and the tie goes to
# the first-trick winner Ana: 3/27 = 1/9.
LATER_TRICKS = [
    game(),
    deal(1, "Bob", {"Ana": ["7h", "9s", "Qd"], "Bob": ["8c", "Ac", "Td"]}),
    play("Ana", "7h"),
    play("Bob", "8c"),
    raise_("Ana", 2),
    accept("Bob"),
    play("Ana", "9s"),
    play("Bob", "Ac"),
    raise_("Bob", 3),
    accept("Ana"),
    play("Bob", "Td"),
    play("Ana", "Qd"),
]

# Starting score 10-4. Hand 1: Ana calls reste (remainder 2) with 7 7 8 (strength 1),
# Bob folds: 11-4. Hand 2: Bob calls reste leading 9 9 T (strength 3/3654 = 1/1218,
# a bluff), Ana accepts and wins the game.
RESTE = [
    game(score={"Ana": 10, "Bob": 4}),
    deal(1, "Bob", {"Ana": ["7h", "7s", "8d"], "Bob": ["9c", "9d", "Tc"]}),
    reste("Ana"),
    fold("Bob"),
    deal(2, "Ana", {"Ana": ["Kh", "Qh", "Jh"], "Bob": ["9s", "9h", "Th"]}),
    reste("Bob"),
    accept("Ana"),
    play("Bob", "9s"),
    play("Ana", "Kh"),
    play("Ana", "Qh"),
    play("Bob", "9h"),
]

# Both hands unseen; Ana raises, Bob folds: Ana's raise counts in raises only.
FOLDED_UNSEEN = [
    game(),
    deal(1, "Bob", {"Ana": ["??", "??", "??"]}),
    raise_("Ana", 2),
    fold("Bob"),
]

# Known only through show. Hand 1: Ana raises unseen, Bob folds, Ana shows 7 8 A
# (strength 3539/3654 = 0.969). Hand 2: Bob raises, Ana folds, Bob shows 9 9 T
# (strength 1/1218, a bluff).
KNOWN_BY_SHOW = [
    game(),
    deal(1, "Bob", {}),
    raise_("Ana", 2),
    fold("Bob"),
    show("Ana", ["7h", "8s", "As"]),
    deal(2, "Ana", {}),
    raise_("Bob", 2),
    fold("Ana"),
    show("Bob", ["9h", "9s", "Td"]),
]

# Known through plays. Hand 1: nothing dealt face up; Ana raises, plays 9 7 T over
# three tricks (strength of 7 9 T leading: 839/3654 = 0.230, a bluff).
# Hand 2: Bob's Q is dealt rank-only, the rest are ??; Bob raises, plays Q and 9,
# shows J (strength of Q J 9 leading: 43/1218 = 0.035, a bluff).
KNOWN_BY_PLAY = [
    game(),
    deal(1, "Bob", {"Ana": ["??", "??", "??"], "Bob": ["??", "??", "??"]}),
    raise_("Ana", 2),
    accept("Bob"),
    play("Ana", "9h"),
    play("Bob", "8c"),
    play("Bob", "Ac"),
    play("Ana", "7d"),
    play("Ana", "Tc"),
    play("Bob", "Kd"),
    deal(2, "Ana", {"Bob": ["Q", "??", "??"]}),
    raise_("Bob", 2),
    accept("Ana"),
    play("Bob", "Q"),
    play("Ana", "7s"),
    play("Ana", "8s"),
    play("Bob", "9d"),
    show("Bob", ["Jd"]),
]

# A ?? card never revealed: Ana's hand is not known.
PARTLY_UNSEEN = [
    game(),
    deal(1, "Bob", {"Ana": ["7h", "??", "9s"]}),
    raise_("Ana", 2),
    fold("Bob"),
]

# Rank-only dealt cards count as known: Ana 7 7 A leading.
RANK_ONLY = [
    game(),
    deal(1, "Bob", {"Ana": ["7", "7", "A"]}),
    raise_("Ana", 2),
    fold("Bob"),
]

# Redeal: Ana's first cards 8 8 8 are redealt; she raises with 9 9 9 and Bob folds.
# The hand that counts is the second: 9 9 9 leading has strength 0 (bluff) under
# stats.md's unseen cards (deck minus this deal's three cards). A strength
# computed from the first deal (8 8 8) would be near 1.
REDEAL = [
    game(),
    deal(1, "Bob", {"Ana": ["8h", "8s", "8d"]}),
    redeal("Ana", True),
    deal(1, "Bob", {"Ana": ["9h", "9s", "9d"]}),
    raise_("Ana", 2),
    fold("Bob"),
]

# Redeal, second deal strength sensitive to the first deal's cards. First deal:
# Ana 8 8 8 (redeal: rest, so in the real deck no 8 but Bob's could come again).
# Second deal Ana A K 9 leading. stats.md: unseen = deck - {A,K,9} (29 cards,
# the 8s of the first deal included): strength 825/3654 = 275/1218 = 0.226.
# Leaving the first deal's three 8s out instead gives 825/2600 = 33/104 = 0.317.
REDEAL_UNSEEN = [
    game(),
    deal(1, "Bob", {"Ana": ["8h", "8s", "8d"]}),
    redeal("Ana", True),
    deal(1, "Bob", {"Ana": ["Ah", "Kh", "9d"]}),
    raise_("Ana", 2),
    fold("Bob"),
]

# Fold-anytime (gamerules). Hand 1: Bob folds with no raise pending (not a fold to
# a raise). Hand 2: Bob raises, Ana folds to it. Hand 3: Ana raises, Bob accepts,
# then folds unprompted.
FOLD_ANYTIME = [
    game(rules="gamerules"),
    deal(1, "Bob", {"Ana": ["9h", "Ks", "Qd"]}),
    play("Ana", "9h"),
    fold("Bob"),
    deal(2, "Ana", {}),
    raise_("Bob", 2),
    fold("Ana"),
    deal(3, "Bob", {}),
    raise_("Ana", 2),
    accept("Bob"),
    play("Ana", "Jh"),
    fold("Bob"),
]

# Two games in one file: LEADER_ACCEPTED then FOLLOWER_ON_TABLE under another id.
SEVERAL_GAMES = [*LEADER_ACCEPTED, {**FOLLOWER_ON_TABLE[0], "id": "g2"}, *FOLLOWER_ON_TABLE[1:]]

# Sackson (A K Q J T 9 8 7, double raises, no alternation): Ana raises twice in one
# hand, Bob accepts the first and folds to the second. 7 8 9 leading is weak here
# (1/126, below); the second raise, Bob's T on the table after Bob took trick 1,
# with 8 7 left, is lost for sure (0). Two bluffs.
SACKSON = [
    game(rules="sackson"),
    deal(1, "Bob", {"Ana": ["7h", "8h", "9s"]}),
    raise_("Ana", 2),
    accept("Bob"),
    play("Ana", "9s"),
    play("Bob", "Ks"),
    play("Bob", "Ts"),
    raise_("Ana", 4),
    fold("Bob"),
]


def one_raise(rules: Any, cards: list[str]) -> list[Event]:
    """Ana leads ``cards`` and raises at once; Bob folds."""
    return [game(rules=rules), deal(1, "Bob", {"Ana": cards}), raise_("Ana", 2), fold("Bob")]


# The deck used for strength follows the preset's order (29 unseen cards, 3654
# holdings; classic-36: 33 unseen, C(33,3) = 5456). The same three ranks are strong
# or weak by preset:
# - sackson (A K Q J T 9 8 7, all_tied draw): 7 8 9 are the three lowest: 29/3654 = 1/126;
# - classic (7 8 A K Q J T 9): 7 8 9: 2609/3654 = 0.714;
# - francais (7 6 A K Q J T 9, all_tied draw): 6 6 7: 3573.5/3654 = 1021/1044 = 0.978;
# - classic-36 (7 6 A K Q J T 9 8): 8 6 9 (8 lowest): 839/5456 = 0.154.
SACKSON_789 = one_raise("sackson", ["7h", "8h", "9s"])
FRANCAIS = one_raise("francais", ["6h", "6s", "7c"])
CLASSIC_36 = one_raise("classic-36", ["8h", "6s", "9c"])


def all_tied(rules: Any, raiser: str) -> list[Event]:
    """Two tied tricks, then a raise in the third.

    ``Ana`` (the non-dealer) raises leading her Q: Bob's last card is one of 27
    unseen; 12 beat Q (7 7 8 8 8 8 A A K K K K), 3 tie (Q Q Q), 12 lose. A tie
    makes three tied tricks: classic (non_dealer) gives Ana the hand,
    15/27 = 5/9; a draw counts 0.5: 13.5/27 = 1/2 exactly.
    ``Bob`` (the dealer) raises with Ana's Q on the table and his own Q in hand:
    three tied tricks for sure, 0 under non_dealer, 1/2 under draw.
    """
    events = [
        game(rules=rules),
        deal(1, "Bob", {"Ana": ["7h", "Ah", "Qh"], "Bob": ["7s", "As", "Qs"]}),
        play("Ana", "7h"),
        play("Bob", "7s"),
        play("Ana", "Ah"),
        play("Bob", "As"),
    ]
    if raiser == "Ana":
        return [*events, raise_("Ana", 2), accept("Bob"), play("Ana", "Qh"), play("Bob", "Qs")]
    return [*events, play("Ana", "Qh"), raise_("Bob", 2), accept("Ana"), play("Bob", "Qs")]


DRAW = {"preset": "classic", "all_tied": "draw"}

# A game whose second hand has an illegal action (Bob plays out of turn after
# accepting): that hand is left out; the first hand counts.
ILLEGAL = [
    game(),
    deal(1, "Bob", {"Ana": ["7h", "7s", "7d"]}),
    raise_("Ana", 2),
    fold("Bob"),
    deal(2, "Ana", {"Bob": ["9h", "9s", "Td"]}),
    raise_("Bob", 2),
    accept("Ana"),
    play("Ana", "Kh"),
]

# A hand known only in part: dealt 7h (or a rank-only 7) that is then played or
# shown again is one card, not two; with 8s the hand has two known cards, not three.


def dealt_then_played(dealt: str, played: str) -> list[Event]:
    """Ana's deal shows only ``dealt``; she plays it as ``played``, then 8s."""
    return [
        game(),
        deal(1, "Bob", {"Ana": [dealt, "??", "??"], "Bob": ["9h", "9s", "9d"]}),
        raise_("Ana", 2),
        accept("Bob"),
        play("Ana", played),
        play("Bob", "9h"),
        play("Ana", "8s"),
        play("Bob", "9s"),
    ]


RANK_ONLY_THEN_SHOWN = [
    game(),
    deal(1, "Bob", {"Ana": ["7", "??", "??"]}),
    raise_("Ana", 2),
    fold("Bob"),
    show("Ana", ["7h", "8s"]),
]
# Known through two show lines (7 8 9 leading: 0.714, no bluff).
TWO_SHOWS = [
    game(),
    deal(1, "Bob", {}),
    raise_("Ana", 2),
    fold("Bob"),
    show("Ana", ["7h"]),
    show("Ana", ["8s", "9d"]),
]
# The first deal was known, the second (the one played) is not: not known.
REDEAL_UNSEEN_SECOND = [
    game(),
    deal(1, "Bob", {"Ana": ["8h", "8s", "8d"]}),
    redeal("Ana", True),
    deal(1, "Bob", {"Ana": ["??", "??", "??"]}),
    raise_("Ana", 2),
    fold("Bob"),
]
# The log stops with a raise pending: it counts in raises; nobody faced it.
PENDING_AT_END = [game(), deal(1, "Bob", {"Ana": ["7h", "7s", "7d"]}), raise_("Ana", 2)]
# An illegal hand (2) between two legal ones: only hand 2 is left out.
ILLEGAL_MIDDLE = [
    *ILLEGAL,
    deal(3, "Bob", {"Ana": ["7c", "8s", "8d"]}),
    raise_("Ana", 2),
    fold("Bob"),
]
# Two different games that share an id are two games.
SAME_ID_OTHER_GAME = [
    game(),
    deal(1, "Bob", {"Ana": ["9h", "9s", "9d"]}),
    raise_("Ana", 2),
    fold("Bob"),
]
# Four players: Ana, Marc, Lu, Zoe in seating order, Zoe deals, Ana
# leads. Marc raises, Lu accepts; Lu raises, Zoe folds. Per player: whoever
# answers faces the raise. (stats.md defines strength for one opponent only, so
# only the counts of raises and answers are checked here.)
FOUR = [
    {
        "type": "game",
        "format": "truclog/1",
        "players": ["Ana", "Marc", "Lu", "Zoe"],
        "dealer": "Zoe",
        "rules": "classic",
        "id": "t1",
    },
    deal(
        1, "Zoe", {"Ana": ["7h", "8h", "9h"], "Marc": ["Ah", "Kh", "Qh"], "Lu": ["7s", "8s", "9s"]}
    ),
    play("Ana", "9h"),
    raise_("Marc", 2),
    accept("Lu"),
    play("Marc", "Ah"),
    play("Lu", "9s"),
    play("Zoe", "Qs"),
    play("Marc", "Kh"),
    raise_("Lu", 3),
    fold("Zoe"),
]


COUNT_CASES = [
    pytest.param(
        [LEADER_ACCEPTED],
        {"Ana": counts(1, 0, 0, 1, 0), "Bob": counts(0, 1, 0, 0, 0)},
        id="leader-raise-accepted",
    ),
    pytest.param(
        [FOLLOWER_ON_TABLE],
        {"Ana": counts(0, 1, 1, 0, 0), "Bob": counts(1, 0, 0, 1, 1)},
        id="follower-raise-card-on-table-folded",
    ),
    pytest.param(
        [LATER_TRICKS],
        {"Ana": counts(1, 1, 0, 1, 1), "Bob": counts(1, 1, 0, 1, 1)},
        id="raises-in-second-and-third-trick",
    ),
    pytest.param(
        [RESTE],
        {"Ana": counts(1, 1, 0, 1, 0), "Bob": counts(1, 1, 1, 1, 1)},
        id="reste-with-starting-score",
    ),
    pytest.param(
        [FOLDED_UNSEEN],
        {"Ana": counts(1, 0, 0, 0, 0), "Bob": counts(0, 1, 1, 0, 0)},
        id="folded-unseen",
    ),
    pytest.param(
        [KNOWN_BY_SHOW],
        {"Ana": counts(1, 1, 1, 1, 0), "Bob": counts(1, 1, 1, 1, 1)},
        id="known-by-show",
    ),
    pytest.param(
        [KNOWN_BY_PLAY],
        {"Ana": counts(1, 1, 0, 1, 1), "Bob": counts(1, 1, 0, 1, 1)},
        id="known-by-play-and-rank-only-deal",
    ),
    pytest.param(
        [PARTLY_UNSEEN],
        {"Ana": counts(1, 0, 0, 0, 0), "Bob": counts(0, 1, 1, 0, 0)},
        id="unseen-card-never-revealed",
    ),
    pytest.param(
        [RANK_ONLY],
        {"Ana": counts(1, 0, 0, 1, 0), "Bob": counts(0, 1, 1, 0, 0)},
        id="rank-only-deal",
    ),
    pytest.param(
        [REDEAL],
        {"Ana": counts(1, 0, 0, 1, 1), "Bob": counts(0, 1, 1, 0, 0)},
        id="redeal-second-deal-counts",
    ),
    pytest.param(
        [FOLD_ANYTIME],
        {"Ana": counts(1, 1, 1, 0, 0), "Bob": counts(1, 1, 0, 0, 0)},
        id="fold-anytime-not-to-a-raise",
    ),
    pytest.param(
        [SEVERAL_GAMES],
        {"Ana": counts(1, 1, 1, 1, 0), "Bob": counts(1, 1, 0, 1, 1)},
        id="several-games",
    ),
    pytest.param(
        [SACKSON],
        {"Ana": counts(2, 0, 0, 2, 2), "Bob": counts(0, 2, 1, 0, 0)},
        id="sackson-two-raises-one-hand",
    ),
    pytest.param(
        [LEADER_ACCEPTED, LEADER_ACCEPTED],
        {"Ana": counts(1, 0, 0, 1, 0), "Bob": counts(0, 1, 0, 0, 0)},
        id="same-game-in-two-files",
    ),
    pytest.param(
        [ILLEGAL],
        {"Ana": counts(1, 0, 0, 1, 0), "Bob": counts(0, 1, 1, 0, 0)},
        id="illegal-hand-left-out",
    ),
    pytest.param(
        [ILLEGAL_MIDDLE],
        {"Ana": counts(2, 0, 0, 2, 0), "Bob": counts(0, 2, 2, 0, 0)},
        id="illegal-hand-between-legal-ones",
    ),
    *(
        pytest.param(
            [dealt_then_played(dealt, played)],
            {"Ana": counts(1, 0, 0, 0, 0), "Bob": counts(0, 1, 0, 0, 0)},
            id=f"dealt-{dealt}-played-{played}-is-one-card",
        )
        for dealt, played in [("7h", "7h"), ("10h", "Th"), ("th", "Th"), ("7", "7h")]
    ),
    pytest.param(
        [LEADER_ACCEPTED, [{**FOLLOWER_ON_TABLE[0], "id": "g2"}, *FOLLOWER_ON_TABLE[1:]]],
        {"Ana": counts(1, 1, 1, 1, 0), "Bob": counts(1, 1, 0, 1, 1)},
        id="several-games-in-two-files",
    ),
    pytest.param(
        [RANK_ONLY_THEN_SHOWN],
        {"Ana": counts(1, 0, 0, 0, 0), "Bob": counts(0, 1, 1, 0, 0)},
        id="rank-only-card-shown-is-one-card",
    ),
    pytest.param(
        [TWO_SHOWS],
        {"Ana": counts(1, 0, 0, 1, 0), "Bob": counts(0, 1, 1, 0, 0)},
        id="known-through-two-shows",
    ),
    pytest.param(
        [REDEAL_UNSEEN_SECOND],
        {"Ana": counts(1, 0, 0, 0, 0), "Bob": counts(0, 1, 1, 0, 0)},
        id="redeal-first-deal-does-not-make-known",
    ),
    pytest.param(
        [PENDING_AT_END],
        {"Ana": counts(1, 0, 0, 1, 0), "Bob": counts(0, 0, 0, 0, 0)},
        id="raise-pending-at-end-of-log",
    ),
    pytest.param(
        [LEADER_ACCEPTED, SAME_ID_OTHER_GAME],
        {"Ana": counts(2, 0, 0, 2, 1), "Bob": counts(0, 2, 1, 0, 0)},
        id="same-id-different-games",
    ),
]


@pytest.mark.parametrize(("files", "expected"), COUNT_CASES)
def test_contract_counts(
    tmp_path: Path, files: list[list[Event]], expected: dict[str, dict[str, Any]]
) -> None:
    paths = write(tmp_path, files)
    if files[0] not in (ILLEGAL, ILLEGAL_MIDDLE):
        assert_clean(paths)
    rows = stats(paths)
    assert {p: {k: rows[p][k] for k in STATS} for p in expected} == expected


# (log, raiser, strength of the raiser's only raise)
STRENGTH_CASES = [
    pytest.param(LEADER_ACCEPTED, "Ana", Fraction(2609, 3654), id="leader-789"),
    pytest.param(FOLLOWER_ON_TABLE, "Bob", Fraction(3, 14), id="follower-card-on-table"),
    pytest.param(LATER_TRICKS, "Ana", Fraction(19, 54), id="second-trick"),
    pytest.param(LATER_TRICKS, "Bob", Fraction(1, 9), id="third-trick"),
    pytest.param(RESTE, "Ana", Fraction(1), id="reste-certain"),
    pytest.param(RESTE, "Bob", Fraction(1, 1218), id="reste-bluff"),
    pytest.param(KNOWN_BY_SHOW, "Ana", Fraction(3539, 3654), id="known-by-show"),
    pytest.param(KNOWN_BY_PLAY, "Ana", Fraction(839, 3654), id="known-by-play"),
    pytest.param(KNOWN_BY_PLAY, "Bob", Fraction(43, 1218), id="rank-only-and-shown"),
    pytest.param(REDEAL, "Ana", Fraction(0), id="redeal-999"),
    pytest.param(REDEAL_UNSEEN, "Ana", Fraction(275, 1218), id="redeal-unseen-includes-first-deal"),
    pytest.param(SACKSON_789, "Ana", Fraction(1, 126), id="sackson-deck"),
    pytest.param(FRANCAIS, "Ana", Fraction(1021, 1044), id="francais-deck"),
    pytest.param(CLASSIC_36, "Ana", Fraction(839, 5456), id="classic-36-deck"),
    pytest.param(
        all_tied("classic", "Ana"), "Ana", Fraction(5, 9), id="all-tied-non-dealer-raiser"
    ),
    pytest.param(all_tied(DRAW, "Ana"), "Ana", Fraction(1, 2), id="all-tied-draw-raiser"),
    pytest.param(all_tied("classic", "Bob"), "Bob", Fraction(0), id="all-tied-dealer-raiser"),
    pytest.param(all_tied(DRAW, "Bob"), "Bob", Fraction(1, 2), id="all-tied-draw-dealer-raiser"),
]


def bluffs_at(paths: list[str], player: str, threshold: float) -> int:
    bluffs: int = stats(paths, "--bluff-threshold", repr(threshold))[player]["bluffs"]
    return bluffs


@pytest.mark.parametrize(("events", "raiser", "strength"), STRENGTH_CASES)
def test_raise_strength(
    tmp_path: Path, events: list[Event], raiser: str, strength: Fraction
) -> None:
    paths = write(tmp_path, [events])
    assert_clean(paths)
    assert bluffs_at(paths, raiser, min(1.0, float(strength) + 1e-9)) == (1 if strength < 1 else 0)
    assert bluffs_at(paths, raiser, max(0.0, float(strength) - 1e-9)) == 0


def test_four_players_raises_and_answers(tmp_path: Path) -> None:
    paths = write(tmp_path, [FOUR])
    assert_clean(paths)
    rows = stats(paths)
    fields = ("raises", "raises_faced", "folds_to_raise", "fold_rate")
    assert {p: tuple(rows[p][k] for k in fields) for p in rows} == {
        "Ana": (0, 0, 0, None),
        "Marc": (1, 0, 0, None),
        "Lu": (1, 1, 0, 0.0),
        "Zoe": (0, 1, 1, 1.0),
    }


# Strength exactly at the threshold is not a bluff ("below the threshold").
# Bob (dealer) follows Ana's A holding 8 Q 9 (classic): 28 unseen, 378 holdings
# for Ana's two other cards; the solver gives 189/378 = 1/2 exactly.
EXACT_HALF = [
    game(),
    deal(1, "Bob", {"Ana": ["Ah", "Kh", "Jh"], "Bob": ["8c", "Qc", "9c"]}),
    play("Ana", "Ah"),
    raise_("Bob", 2),
    fold("Ana"),
]
# gamerules (all_tied draw): Bob follows Ana's 7 holding 7 T T: the solver gives
# 94.5/378 = 1/4 exactly (a drawn hand counts 0.5).
EXACT_QUARTER = [
    game(rules="gamerules"),
    deal(1, "Bob", {"Ana": ["7h", "Kh", "Jh"], "Bob": ["7c", "Tc", "Td"]}),
    play("Ana", "7h"),
    raise_("Bob", 2),
    fold("Ana"),
]


@pytest.mark.parametrize(
    ("events", "raiser", "threshold", "bluffs"),
    [
        pytest.param(EXACT_HALF, "Bob", None, 0, id="half-at-default"),
        pytest.param(EXACT_HALF, "Bob", "0.5000001", 1, id="half-just-above"),
        pytest.param(EXACT_QUARTER, "Bob", "0.25", 0, id="quarter-at-0.25"),
        pytest.param(EXACT_QUARTER, "Bob", "0.2500001", 1, id="quarter-just-above"),
        pytest.param(all_tied(DRAW, "Ana"), "Ana", None, 0, id="all-tied-draw-half-at-default"),
    ],
)
def test_strength_at_threshold(
    tmp_path: Path, events: list[Event], raiser: str, threshold: str | None, bluffs: int
) -> None:
    paths = write(tmp_path, [events])
    assert_clean(paths)
    options = ("--bluff-threshold", threshold) if threshold else ()
    assert stats(paths, *options)[raiser]["bluffs"] == bluffs


def test_overlapping_paths_and_compressed_copy_count_once(tmp_path: Path) -> None:
    (path,) = write(tmp_path, [LEADER_ACCEPTED])
    copy = tmp_path / "copy" / "same.truclog.jsonl.gz"
    copy.parent.mkdir()
    copy.write_bytes(gzip.compress(log_text(LEADER_ACCEPTED).encode()))
    rows = stats([str(tmp_path), path, str(copy)])
    assert {p: {k: rows[p][k] for k in STATS} for p in rows} == {
        "Ana": counts(1, 0, 0, 1, 0),
        "Bob": counts(0, 1, 0, 0, 0),
    }


RESULT = {"type": "result", "winner": "Ana", "points": 2, "score": {"Ana": 2, "Bob": 0}}
WRONG_RESULT = {"type": "result", "winner": "Bob", "points": 2, "score": {"Ana": 0, "Bob": 2}}


def test_hand_with_a_wrong_result_claim_is_left_out(tmp_path: Path) -> None:
    # "Only validated play goes into the tables; hands with errors are left out
    # and counted"; the validator finds E702/E704 in this hand. A player with no counted
    # hand may have no row at all.
    paths = write(tmp_path, [[*LEADER_ACCEPTED, WRONG_RESULT]])
    rows = stats(paths)
    ana, bob = rows.get("Ana", {}), rows.get("Bob", {})
    assert (ana.get("raises", 0), bob.get("raises_faced", 0)) == (0, 0)


@pytest.mark.parametrize(
    "copy",
    [
        pytest.param(
            LEADER_ACCEPTED[:4],
            id="snapshot-during-the-game",
            marks=pytest.mark.xfail(
                reason="'The same game found twice (a copied file, overlapping "
                "folders) is counted once'; a copy taken while the game was being recorded "
                "(format.md: 'a log can be appended to as a game is played and read back at "
                "any point') is the same game (same id, players and play), counted twice",
                strict=True,
            ),
        ),
        pytest.param([*LEADER_ACCEPTED, RESULT], id="copy-with-result-lines"),
    ],
)
def test_same_game_in_another_form_counts_once(tmp_path: Path, copy: list[Event]) -> None:
    paths = write(tmp_path, [LEADER_ACCEPTED, copy])
    assert_clean(paths)
    rows = stats(paths)
    assert (rows["Ana"]["raises"], rows["Bob"]["raises_faced"]) == (1, 1)
