"""An independent audit of `truclog validate` against the rules and the format.

Every case below was written from the rules, the line format, the original
rule texts and what the validator is asked to check alone, before reading the engine. Each
case is a small log; a line wrapped in :func:`bad` is one the validator must
report as an error, with a code of the given family (``"E4"`` means any raise
error, ``"E"`` any error). Every other line must pass. The game's final score,
winner and completeness are checked where the case gives them.

Cases where the validator disagrees with the contract are marked
``xfail(strict=True)`` with the contract text that decides them.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st
from lines import accept, deal, fold, game, game_end, play, raise_, redeal, reste, result, show

from truclog.cli import main

Event = dict[str, Any]

A, M = "Ana", "Marc"
UNSET: Any = object()


@dataclass(frozen=True)
class Bad:
    """A line the validator must reject with a code starting with ``code``."""

    event: Event | str
    code: str


def bad(event: Event | str, code: str = "E") -> Bad:
    return Bad(event, code)


@dataclass
class Case:
    name: str
    lines: list[Event | Bad | str]
    score: dict[str, int] | None = None
    winner: Any = UNSET
    complete: bool | None = None
    warnings: list[str] = field(default_factory=list)
    games: int | None = None
    hands: int | None = None
    xfail: str | None = None
    raw: bytes | None = None


# --- events, as a careful reader of format.md writes them ---------------------


def sc(ana: int, marc: int) -> dict[str, int]:
    return {A: ana, M: marc}


def ana_takes_two(leader: str = A) -> list[Event | Bad | str]:
    """Two tricks to Ana (K over Q in every preset's order); Ana leads both."""
    return [play(A, "Kh"), play(M, "Qh"), play(A, "Kd"), play(M, "Qd")]


def marc_takes_two() -> list[Event | Bad | str]:
    """Ana leads a Q into Marc's K, then Marc leads and wins again."""
    return [play(A, "Qh"), play(M, "Kh"), play(M, "Kd"), play(A, "Qd")]


def start(rules: Any = "classic", **more: Any) -> list[Event | Bad | str]:
    return [game(rules, **more), deal(1)]


# --- rule 3, 4 and 5: tricks and deciding the hand ----------------------------

TRICKS = [
    Case(
        "two tricks won",
        [*start(), *ana_takes_two(), result(A, 1, sc(1, 0))],
        sc(1, 0),
        None,
        False,
    ),
    Case(
        "two tricks won: a third card is refused",
        [*start(), *ana_takes_two(), bad(play(A, "9s"), "E203")],
    ),
    Case(
        "first won, second tied: first-trick winner",
        [
            *start(),
            play(A, "7h"),
            play(M, "9s"),
            play(A, "Kh"),
            play(M, "Ks"),
            result(A, 1, sc(1, 0)),
        ],
        sc(1, 0),
    ),
    Case(
        "first won, second tied: no third trick",
        [
            *start(),
            play(A, "7h"),
            play(M, "9s"),
            play(A, "Kh"),
            play(M, "Ks"),
            bad(play(A, "Qh"), "E203"),
        ],
    ),
    Case(
        "one each, third tied: first-trick winner",
        [
            *start(),
            play(A, "7h"),
            play(M, "9s"),
            play(A, "9h"),
            play(M, "Ks"),
            play(M, "Qs"),
            play(A, "Qh"),
            result(A, 1, sc(1, 0)),
        ],
        sc(1, 0),
    ),
    Case(
        "one each, third tied, first won by the dealer",
        [
            *start(),
            play(A, "9h"),
            play(M, "7s"),
            play(M, "9s"),
            play(A, "Kh"),
            play(A, "Qh"),
            play(M, "Qs"),
            result(M, 1, sc(0, 1)),
        ],
        sc(0, 1),
    ),
    Case(
        "first tied: next non-tied trick decides, at once",
        [
            *start(),
            play(A, "Kh"),
            play(M, "Ks"),
            play(A, "9h"),
            play(M, "7s"),
            result(M, 1, sc(0, 1)),
        ],
        sc(0, 1),
    ),
    Case(
        "first tied and second won: no third trick",
        [
            *start(),
            play(A, "Kh"),
            play(M, "Ks"),
            play(A, "9h"),
            play(M, "7s"),
            bad(play(M, "Qs"), "E203"),
        ],
    ),
    Case(
        "first two tied: the third decides",
        [
            *start(),
            play(A, "Kh"),
            play(M, "Ks"),
            play(A, "Qh"),
            play(M, "Qs"),
            play(A, "7h"),
            play(M, "9s"),
            result(A, 1, sc(1, 0)),
        ],
        sc(1, 0),
    ),
    Case(
        "all three tied, classic: the non-dealer wins",
        [
            *start(),
            play(A, "Kh"),
            play(M, "Ks"),
            play(A, "Qh"),
            play(M, "Qs"),
            play(A, "7h"),
            play(M, "7s"),
            result(A, 1, sc(1, 0)),
        ],
        sc(1, 0),
    ),
    Case(
        "all three tied, classic with Ana dealing: Marc wins",
        [
            game(dealer=A),
            deal(1, A),
            play(M, "Kh"),
            play(A, "Ks"),
            play(M, "Qh"),
            play(A, "Qs"),
            play(M, "7h"),
            play(A, "7s"),
            result(M, 1, sc(0, 1)),
        ],
        sc(0, 1),
    ),
    Case(
        "all three tied, gamerules: a draw, winner null",
        [
            *start("gamerules"),
            play(A, "Kh"),
            play(M, "Ks"),
            play(A, "Qh"),
            play(M, "Qs"),
            play(A, "7h"),
            play(M, "7s"),
            result(None, 0, sc(0, 0)),
        ],
        sc(0, 0),
        None,
    ),
    Case(
        "all three tied, gamerules: a result naming a winner is wrong",
        [
            *start("gamerules"),
            play(A, "Kh"),
            play(M, "Ks"),
            play(A, "Qh"),
            play(M, "Qs"),
            play(A, "7h"),
            play(M, "7s"),
            bad(result(A, 1, sc(1, 0)), "E70"),
        ],
    ),
    Case(
        "all three tied, rules object all_tied draw on classic",
        [
            *start({"preset": "classic", "all_tied": "draw"}),
            play(A, "Kh"),
            play(M, "Ks"),
            play(A, "Qh"),
            play(M, "Qs"),
            play(A, "7h"),
            play(M, "7s"),
            result(None, 0, sc(0, 0)),
        ],
        sc(0, 0),
    ),
    Case(
        "after a tie the leader leads again",
        [*start(), play(A, "Kh"), play(M, "Ks"), bad(play(M, "7s"), "E205")],
    ),
    Case(
        "the trick winner leads the next",
        [*start(), play(A, "9h"), play(M, "7s"), bad(play(A, "Kh"), "E205")],
    ),
    Case("the dealer may not lead the first trick", [*start(), bad(play(M, "7s"), "E205")]),
    Case(
        "one each, the third won by its leader",
        [
            *start(),
            play(A, "7h"),
            play(M, "9s"),
            play(A, "9h"),
            play(M, "Ks"),
            play(M, "Qs"),
            play(A, "Jh"),
            result(M, 1, sc(0, 1)),
        ],
        sc(0, 1),
    ),
]

# --- rank orders of the presets -------------------------------------------------

ORDERS = [
    Case(
        "classic: 7 beats 8",
        [*start(), play(A, "8h"), play(M, "7s"), play(M, "Ks"), play(A, "Qh")],
        sc(0, 1),
    ),
    Case(
        "classic: 8 beats A",
        [*start(), play(A, "Ah"), play(M, "8s"), play(M, "Ks"), play(A, "Qh")],
        sc(0, 1),
    ),
    Case(
        "classic: T beats 9",
        [*start(), play(A, "9h"), play(M, "Ts"), play(M, "Ks"), play(A, "Qh")],
        sc(0, 1),
    ),
    Case(
        "sackson: A beats 7",
        [*start("sackson"), play(A, "7h"), play(M, "As"), play(M, "Ks"), play(A, "Qh")],
        sc(0, 1),
    ),
    Case(
        "sackson: 8 beats 7",
        [*start("sackson"), play(A, "7h"), play(M, "8s"), play(M, "Ks"), play(A, "Qh")],
        sc(0, 1),
    ),
    Case(
        "francais: 6 beats A",
        [*start("francais"), play(A, "Ah"), play(M, "6s"), play(M, "Ks"), play(A, "Qh")],
        sc(0, 1),
    ),
    Case(
        "francais: 7 beats 6",
        [*start("francais"), play(A, "6h"), play(M, "7s"), play(M, "Ks"), play(A, "Qh")],
        sc(0, 1),
    ),
    Case("francais: no 8 in the deck", [*start("francais"), bad(play(A, "8h"), "E301")]),
    Case("classic: no 6 in the deck", [*start(), bad(play(A, "6h"), "E301")]),
    Case(
        "classic-36: 6 beats A, 8 is lowest",
        [*start("classic-36"), play(A, "Ah"), play(M, "6s"), play(M, "9s"), play(A, "8h")],
        sc(0, 1),
    ),
    Case(
        "eight-high: 8 beats 7",
        [*start("eight-high"), play(A, "7h"), play(M, "8s"), play(M, "Ks"), play(A, "Qh")],
        sc(0, 1),
    ),
    Case(
        "eight-low: 9 beats 8",
        [*start("eight-low"), play(A, "8h"), play(M, "9s"), play(M, "Ks"), play(A, "Qh")],
        sc(0, 1),
    ),
    Case(
        "eight-low: 7 beats A",
        [*start("eight-low"), play(A, "Ah"), play(M, "7s"), play(M, "Ks"), play(A, "Qh")],
        sc(0, 1),
    ),
    Case(
        "rules object: order override",
        [
            *start({"preset": "classic", "order": "AKQJT987"}),
            play(A, "7h"),
            play(M, "As"),
            play(M, "Ks"),
            play(A, "Qh"),
        ],
        sc(0, 1),
    ),
]

# --- rule 6, 11, 12: raises -----------------------------------------------------

RAISES = [
    Case(
        "raise accepted: the hand is worth the new value",
        [*start(), raise_(A, 2), accept(M), *ana_takes_two(), result(A, 2, sc(2, 0))],
        sc(2, 0),
    ),
    Case(
        "raise refused: the raiser scores the value before the raise",
        [*start(), raise_(A, 3), fold(M), result(A, 1, sc(1, 0))],
        sc(1, 0),
    ),
    Case(
        "raise refused: the hand is over",
        [*start(), raise_(A, 3), fold(M), bad(play(A, "Kh"), "E203")],
    ),
    Case(
        "classic raises any amount: 1 to 5",
        [*start(), raise_(A, 5), accept(M), *ana_takes_two(), result(A, 5, sc(5, 0))],
        sc(5, 0),
    ),
    Case("a raise not above the value", [*start(), bad(raise_(A, 1), "E402")]),
    Case(
        "a raise not above an accepted value",
        [*start(), raise_(A, 3), accept(M), play(A, "Kh"), bad(raise_(M, 3), "E402")],
    ),
    Case(
        "a raise by the follower before playing",
        [
            *start(),
            play(A, "Kh"),
            raise_(M, 2),
            accept(A),
            play(M, "Ah"),
            play(M, "Kd"),
            play(A, "Qd"),
            result(M, 2, sc(0, 2)),
        ],
        sc(0, 2),
    ),
    Case(
        "follower raises, leader folds: follower scores the old value",
        [
            *start(),
            raise_(A, 2),
            accept(M),
            play(A, "Kh"),
            raise_(M, 4),
            fold(A),
            result(M, 2, sc(0, 2)),
        ],
        sc(0, 2),
    ),
    Case("a raise by the player not on turn", [*start(), bad(raise_(M, 2), "E2")]),
    Case(
        "a raise by the player who just played, not on turn",
        [*start(), play(A, "Kh"), bad(raise_(A, 2), "E2")],
    ),
    Case("a raise while a raise is pending", [*start(), raise_(A, 2), bad(raise_(M, 3), "E401")]),
    Case("a play while a raise is pending", [*start(), raise_(A, 2), bad(play(A, "Kh"), "E206")]),
    Case(
        "alternate: a second raise by the same player in the same turn",
        [*start(), raise_(A, 2), accept(M), bad(raise_(A, 3), "E406")],
    ),
    Case(
        "alternate: a second raise by the same player in a later trick",
        [
            *start(),
            raise_(A, 2),
            accept(M),
            play(A, "Kh"),
            play(M, "Qh"),
            bad(raise_(A, 3), "E406"),
        ],
    ),
    Case(
        "alternate: raises taking turns across tricks",
        [
            *start(),
            raise_(A, 2),
            accept(M),
            play(A, "Kh"),
            raise_(M, 3),
            accept(A),
            play(M, "Qh"),
            raise_(A, 4),
            accept(M),
            play(A, "Kd"),
            play(M, "Qd"),
            result(A, 4, sc(4, 0)),
        ],
        sc(4, 0),
    ),
    Case(
        "gamerules: the same player may raise twice",
        [
            *start("gamerules"),
            raise_(A, 2),
            accept(M),
            raise_(A, 3),
            accept(M),
            *ana_takes_two(),
            result(A, 3, sc(3, 0)),
        ],
        sc(3, 0),
    ),
    Case(
        "accept with nothing pending",
        [*start(), bad(accept(M), "E411")],
    ),
    Case("the raiser accepts his own raise", [*start(), raise_(A, 2), bad(accept(A), "E412")]),
    Case("the raiser folds his own raise", [*start(), raise_(A, 2), bad(fold(A), "E4")]),
    Case(
        "gamerules: the raiser folds his own pending raise",
        [*start("gamerules"), raise_(A, 2), bad(fold(A), "E4")],
    ),
    Case("classic: a fold with no raise pending", [*start(), bad(fold(A), "E413")]),
    Case(
        "gamerules: fold anytime, by the player on turn",
        [*start("gamerules"), fold(A), result(M, 1, sc(0, 1))],
        sc(0, 1),
    ),
    Case(
        "gamerules: fold anytime, by the player not on turn",
        [*start("gamerules"), fold(M), result(A, 1, sc(1, 0))],
        sc(1, 0),
    ),
    Case(
        "gamerules: fold anytime after an accepted raise scores the current value",
        [
            *start("gamerules"),
            raise_(A, 3),
            accept(M),
            play(A, "Kh"),
            play(M, "Qh"),
            fold(M),
            result(A, 3, sc(3, 0)),
        ],
        sc(3, 0),
    ),
    Case(
        "gamerules: fold anytime mid-trick by the player who just played",
        [
            *start("gamerules"),
            raise_(A, 3),
            accept(M),
            play(A, "Kh"),
            fold(A),
            result(M, 3, sc(0, 3)),
        ],
        sc(0, 3),
    ),
    Case(
        "sackson: double 1 to 2 to 4",
        [
            *start("sackson"),
            raise_(A, 2),
            accept(M),
            raise_(A, 4),
            accept(M),
            *ana_takes_two(),
            result(A, 4, sc(4, 0)),
        ],
        sc(4, 0),
    ),
    Case("sackson: not a double", [*start("sackson"), bad(raise_(A, 3), "E403")]),
    Case("francais: 1 to 4 is not a double", [*start("francais"), bad(raise_(A, 4), "E403")]),
    Case(
        "francais: 2, 4, 8 then no more",
        [
            *start("francais"),
            raise_(A, 2),
            accept(M),
            raise_(A, 4),
            accept(M),
            raise_(A, 8),
            accept(M),
            bad(raise_(A, 16), "E404"),
        ],
    ),
    Case(
        "francais: up to 8 is legal",
        [
            *start("francais"),
            raise_(A, 2),
            accept(M),
            raise_(A, 4),
            accept(M),
            raise_(A, 8),
            accept(M),
            *ana_takes_two(),
            result(A, 8, sc(8, 0)),
        ],
        sc(8, 0),
    ),
    Case(
        "rules object: max_value 3 allows 3",
        [*start({"preset": "classic", "max_value": 3}), raise_(A, 3), accept(M), *ana_takes_two()],
        sc(3, 0),
    ),
    Case(
        "rules object: max_value 3 refuses 4",
        [*start({"preset": "classic", "max_value": 3}), bad(raise_(A, 4), "E404")],
    ),
    Case(
        "sackson cap: a raise to exactly the target is allowed",
        [
            game("sackson", score=sc(8, 0)),
            deal(1),
            raise_(A, 2),
            accept(M),
            raise_(A, 4),
            accept(M),
            *ana_takes_two(),
            result(A, 4, sc(12, 0)),
        ],
        sc(12, 0),
        A,
        True,
    ),
    Case(
        "sackson cap: a raise past the target is refused",
        [
            game("sackson", score=sc(9, 0)),
            deal(1),
            raise_(A, 2),
            accept(M),
            bad(raise_(A, 4), "E405"),
        ],
    ),
    Case(
        "sackson cap: 10 points, 1 to 2 reaches 12 exactly",
        [game("sackson", score=sc(10, 0)), deal(1), raise_(A, 2), accept(M), *ana_takes_two()],
        sc(12, 0),
        A,
        True,
    ),
    Case(
        "sackson cap: the opponent's score does not cap the raiser",
        [
            game("sackson", score=sc(0, 11)),
            deal(1),
            raise_(A, 2),
            accept(M),
            raise_(A, 4),
            accept(M),
            *ana_takes_two(),
        ],
        sc(4, 11),
    ),
    Case(
        "classic: no cap, a raise may carry past 12",
        [
            game("classic", score=sc(10, 0)),
            deal(1),
            raise_(A, 5),
            accept(M),
            *ana_takes_two(),
            result(A, 5, sc(15, 0)),
        ],
        sc(15, 0),
        A,
        True,
    ),
    Case(
        "a raise to a non-integer",
        [*start(), bad({"type": "raise", "player": A, "to": 2.5}, "E003")],
    ),
    Case(
        "a raise with both to and reste",
        [*start(), bad({"type": "raise", "player": A, "to": 2, "reste": True}, "E003")],
    ),
    Case(
        "a raise with neither to nor reste",
        [*start(), bad({"type": "raise", "player": A}, "E003")],
    ),
]

# --- rule 7: reste ------------------------------------------------------------------

RESTE = [
    Case(
        "reste accepted and won by the raiser",
        [
            game("classic", score=sc(3, 5)),
            deal(1),
            reste(A),
            accept(M),
            *ana_takes_two(),
            result(A, 9, sc(12, 5)),
        ],
        sc(12, 5),
        A,
        True,
    ),
    Case(
        "reste accepted and won by the other player: his score becomes the target",
        [
            game("classic", score=sc(3, 5)),
            deal(1),
            reste(A),
            accept(M),
            *marc_takes_two(),
            result(M, 7, sc(3, 12)),
        ],
        sc(3, 12),
        M,
        True,
    ),
    Case(
        "reste accepted then drawn (gamerules): nobody scores, the game goes on",
        [
            game("gamerules", score=sc(3, 5)),
            deal(1),
            reste(A),
            accept(M),
            play(A, "Kh"),
            play(M, "Ks"),
            play(A, "Qh"),
            play(M, "Qs"),
            play(A, "7h"),
            play(M, "7s"),
            result(None, 0, sc(3, 5)),
            deal(2, A),
            play(M, "Kh"),
            play(A, "Qh"),
            play(M, "Kd"),
            play(A, "Qd"),
            result(M, 1, sc(3, 6)),
        ],
        sc(3, 6),
        None,
        False,
    ),
    Case(
        "reste accepted, all tied under classic: the non-dealer wins the game",
        [
            game("classic", score=sc(3, 5)),
            deal(1),
            play(A, "Kh"),
            reste(M),
            accept(A),
            play(M, "Ks"),
            play(A, "Qh"),
            play(M, "Qs"),
            play(A, "7h"),
            play(M, "7s"),
        ],
        sc(12, 5),
        A,
        True,
    ),
    Case(
        "reste refused under previous: the old value",
        [
            game("classic", score=sc(3, 5)),
            deal(1),
            raise_(A, 2),
            accept(M),
            play(A, "Kh"),
            reste(M),
            fold(A),
            result(M, 2, sc(3, 7)),
        ],
        sc(3, 7),
        None,
        False,
    ),
    Case(
        "reste refused under game (gamerules): the raiser wins the game",
        [game("gamerules", score=sc(3, 5)), deal(1), reste(A), fold(M)],
        sc(12, 5),
        A,
        True,
    ),
    Case(
        "reste refused under game: later deals are refused",
        [game("gamerules", score=sc(3, 5)), deal(1), reste(A), fold(M), bad(deal(2, A), "E204")],
    ),
    Case(
        "reste after a raise, by the follower",
        [
            *start(),
            raise_(A, 2),
            accept(M),
            play(A, "Kh"),
            reste(M),
            accept(A),
            play(M, "As"),
            play(M, "Ks"),
            play(A, "Qh"),
        ],
        sc(0, 12),
        M,
        True,
    ),
    Case(
        "no raise after an accepted reste",
        [*start(), reste(A), accept(M), play(A, "Kh"), bad(raise_(M, 13), "E409")],
    ),
    Case(
        "no reste after an accepted reste",
        [*start("gamerules"), reste(A), accept(M), bad(reste(A), "E4")],
    ),
    Case(
        "reste that is not a raise (11 points, hand worth 1)",
        [game("classic", score=sc(11, 0)), deal(1), bad(reste(A), "E408")],
    ),
    Case(
        "reste that is not a raise (hand already worth the remainder)",
        [
            game("gamerules", score=sc(8, 0)),
            deal(1),
            raise_(A, 4),
            accept(M),
            bad(reste(A), "E408"),
        ],
    ),
    Case("francais: no reste", [*start("francais"), bad(reste(A), "E407")]),
    Case(
        "rules object: reste false on classic",
        [*start({"preset": "classic", "reste": False}), bad(reste(A), "E407")],
    ),
    Case(
        "sackson: reste is not held to doubling",
        [game("sackson", score=sc(5, 0)), deal(1), reste(A), accept(M), *ana_takes_two()],
        sc(12, 0),
        A,
        True,
    ),
    Case(
        "sackson cap: reste at 10 points is the way to go higher",
        [
            game("sackson", score=sc(10, 0)),
            deal(1),
            raise_(A, 2),
            accept(M),
            play(A, "Kh"),
            play(M, "Qh"),
            bad(raise_(A, 4), "E405"),
        ],
    ),
    Case(
        "gamerules: fold anytime after an accepted reste, by the raiser's opponent",
        [game("gamerules", score=sc(3, 5)), deal(1), reste(A), accept(M), play(A, "Kh"), fold(M)],
        sc(12, 5),
        A,
        True,
    ),
    Case(
        "gamerules: fold anytime after an accepted reste, by the raiser",
        [
            game("gamerules", score=sc(3, 5)),
            deal(1),
            reste(A),
            accept(M),
            play(A, "Kh"),
            play(M, "Qh"),
            fold(A),
        ],
        sc(3, 12),
        M,
        True,
    ),
    Case(
        "alternate: reste counts as a raise",
        [*start(), reste(A), fold(M), deal(2, A), raise_(M, 2), accept(A), bad(reste(M), "E406")],
    ),
]

# --- rule 8 and 10: redeals and deals -------------------------------------------------

DEALS = [
    Case(
        "redeal accepted: the same dealer deals the same hand again",
        [
            game(),
            deal(1, cards={A: ["7h", "Q", "9s"]}),
            redeal(A, True),
            deal(1, cards={A: ["8h", "Ks", "Js"]}),
            play(A, "8h"),
            play(M, "9d"),
            play(A, "Ks"),
            play(M, "Jd"),
            result(A, 1, sc(1, 0)),
            deal(2, A),
            play(M, "Kh"),
            play(A, "Qh"),
            play(M, "Kd"),
            play(A, "Qd"),
        ],
        sc(1, 1),
    ),
    Case(
        "redeal rest: a card of the first deal cannot come again",
        [
            game(),
            deal(1, cards={A: ["7h", "Q", "9s"]}),
            redeal(A, True),
            bad(deal(1, cards={A: ["7h", "Ks", "Js"]}), "E302"),
        ],
    ),
    Case(
        "redeal rest: a card of the first deal cannot be played after it",
        [
            game(),
            deal(1, cards={A: ["7h", "Q", "9s"]}),
            redeal(A, True),
            deal(1),
            bad(play(A, "7h"), "E302"),
        ],
    ),
    Case(
        "redeal rest: a fifth of a rank across both deals",
        [
            game(),
            deal(1, cards={A: ["7h", "7d", "7c"]}),
            redeal(A, True),
            deal(1, cards={A: ["7", "Ks", "Js"]}),
        ],
        # the 4th seven (suit unknown) is the 7s: legal
        sc(0, 0),
    ),
    Case(
        "redeal rest: a fifth seven across both deals",
        [
            game(),
            deal(1, cards={A: ["7h", "7d", "7c"], M: ["7s", "??", "??"]}),
            redeal(A, True),
            bad(deal(1, cards={A: ["7", "Ks", "Js"]}), "E30"),
        ],
    ),
    Case(
        "redeal reshuffle (sackson): the same card may come again",
        [
            game("sackson"),
            deal(1, cards={A: ["7h", "Q", "9s"]}),
            redeal(A, True),
            deal(1, cards={A: ["7h", "Ks", "Js"]}),
            play(A, "7h"),
            play(M, "8d"),
            play(M, "Qd"),
            play(A, "Js"),
            result(M, 1, sc(0, 1)),
        ],
        sc(0, 1),
    ),
    Case(
        "redeal refused: play goes on with the same cards",
        [
            game(),
            deal(1, cards={A: ["7h", "Q", "9s"]}),
            redeal(A, False),
            play(A, "7h"),
            play(M, "9d"),
            play(A, "Q"),
            play(M, "Jd"),
        ],
        sc(1, 0),
    ),
    Case(
        "redeal refused then asked again",
        [game(), deal(1), redeal(A, False), bad(redeal(A, True), "E503")],
    ),
    Case(
        "redeal accepted then asked again",
        [game(), deal(1), redeal(A, True), deal(1), bad(redeal(A, True), "E503")],
    ),
    Case(
        "redeal refused: no new deal",
        [game(), deal(1), redeal(A, False), bad(deal(1), "E213")],
    ),
    Case("redeal asked by the dealer", [game(), deal(1), bad(redeal(M, True), "E502")]),
    Case(
        "redeal after a raise",
        [game(), deal(1), raise_(A, 2), accept(M), bad(redeal(A, True), "E504")],
    ),
    Case("redeal after a card", [game(), deal(1), play(A, "Kh"), bad(redeal(A, True), "E504")]),
    Case(
        "redeal none",
        [game({"preset": "classic", "redeal": "none"}), deal(1), bad(redeal(A, False), "E501")],
    ),
    Case(
        "redeal accepted: play before the new deal",
        [game(), deal(1), redeal(A, True), bad(play(A, "Kh"), "E202")],
    ),
    Case(
        "redeal accepted: the new deal keeps its hand number",
        [game(), deal(1), redeal(A, True), bad(deal(2), "E212")],
    ),
    Case(
        "redeal accepted: the same dealer deals again",
        [game(), deal(1), redeal(A, True), bad(deal(1, A), "E211")],
    ),
    Case(
        "the deal passes after a hand",
        [game(), deal(1), *ana_takes_two(), bad(deal(2, M), "E211")],
    ),
    Case(
        "the deal passes after a drawn hand",
        [
            game("gamerules"),
            deal(1),
            play(A, "Kh"),
            play(M, "Ks"),
            play(A, "Qh"),
            play(M, "Qs"),
            play(A, "7h"),
            play(M, "7s"),
            deal(2, A),
            play(M, "Kh"),
            play(A, "Qh"),
            play(M, "Kd"),
            play(A, "Qd"),
        ],
        sc(0, 1),
    ),
    Case(
        "the deal passes after a drawn hand: same dealer refused",
        [
            game("gamerules"),
            deal(1),
            play(A, "Kh"),
            play(M, "Ks"),
            play(A, "Qh"),
            play(M, "Qs"),
            play(A, "7h"),
            play(M, "7s"),
            bad(deal(2, M), "E211"),
        ],
    ),
    Case(
        "the deal passes once after a redeal",
        [
            game(),
            deal(1),
            redeal(A, True),
            deal(1),
            *ana_takes_two(),
            deal(2, A),
            play(M, "Kh"),
            play(A, "Qh"),
            play(M, "Kd"),
            play(A, "Qd"),
            deal(3, M),
            *ana_takes_two(),
        ],
        sc(2, 1),
    ),
    Case("a wrong hand number", [game(), bad(deal(2), "E212")]),
    Case(
        "the second hand numbered 3", [game(), deal(1), *ana_takes_two(), bad(deal(3, A), "E212")]
    ),
    Case(
        "a deal while a hand is in progress",
        [game(), deal(1), play(A, "Kh"), play(M, "Qh"), bad(deal(2, A), "E213")],
    ),
    Case(
        "a deal without a hand number is numbered for you",
        [
            game(),
            {"type": "deal", "dealer": M},
            *ana_takes_two(),
            {"type": "deal", "dealer": A},
            play(M, "Kh"),
            play(A, "Qh"),
            play(M, "Kd"),
            play(A, "Qd"),
        ],
        sc(1, 1),
    ),
    Case("a play before any deal", [game(), bad(play(A, "Kh"), "E202")]),
    Case("the first dealer is the game's dealer", [game(), bad(deal(1, A), "E211")]),
    Case("a deal with two cards", [game(), bad(deal(1, cards={A: ["7h", "Q"]}), "E")]),
    Case("a deal with four cards", [game(), bad(deal(1, cards={A: ["7h", "Q", "K", "J"]}), "E")]),
]

# --- cards --------------------------------------------------------------------------

CARDS = [
    Case(
        "unseen cards and a player left out",
        [
            game(),
            deal(1, cards={A: ["??", "??", "??"]}),
            play(A, "Kh"),
            play(M, "Qh"),
            play(A, "Kd"),
            play(M, "Qd"),
        ],
        sc(1, 0),
    ),
    Case(
        "a rank-only card matches a suited play",
        [
            game(),
            deal(1, cards={A: ["K", "K", "9"]}),
            play(A, "Kh"),
            play(M, "Qh"),
            play(A, "Kd"),
            play(M, "Qd"),
        ],
        sc(1, 0),
    ),
    Case(
        "a suited card does not match another suit",
        [game(), deal(1, cards={A: ["Kh", "Kd", "9s"]}), bad(play(A, "Ks"), "E304")],
    ),
    Case(
        "a card not held when all three are known",
        [game(), deal(1, cards={A: ["7h", "Q", "9s"]}), bad(play(A, "As"), "E304")],
    ),
    Case(
        "a card held, played twice",
        [
            game(),
            deal(1, cards={A: ["7h", "Q", "9s"]}),
            play(A, "7h"),
            play(M, "9d"),
            bad(play(A, "7h"), "E3"),
        ],
    ),
    Case(
        "a card played by the other player",
        [game(), deal(1, cards={A: ["7h", "Q", "9s"]}), play(A, "Q"), bad(play(M, "7h"), "E30")],
    ),
    Case(
        "a card dealt to both players",
        [game(), bad(deal(1, cards={A: ["7h", "Q", "9s"], M: ["7h", "K", "J"]}), "E302")],
    ),
    Case(
        "a fifth card of a rank in one deal",
        [game(), bad(deal(1, cards={A: ["7", "7", "7"], M: ["7", "7", "K"]}), "E303")],
    ),
    Case(
        "a fifth card of a rank by a play",
        [
            game(),
            deal(1, cards={A: ["7h", "7d", "7c"]}),
            play(A, "7h"),
            play(M, "7s"),
            play(A, "7d"),
            bad(play(M, "7"), "E303"),
        ],
    ),
    Case(
        "four of a rank is fine",
        [
            game(),
            deal(1, cards={A: ["7h", "7d", "Q"], M: ["7c", "7s", "K"]}),
            play(A, "7h"),
            play(M, "7c"),
            play(A, "7d"),
            play(M, "7s"),
            play(A, "Q"),
            play(M, "K"),
        ],
        sc(0, 1),
    ),
    Case(
        "10 for T, matched against T",
        [
            game(),
            deal(1, cards={A: ["10h", "Kd", "Kc"]}),
            play(A, "Th"),
            play(M, "9h"),
            play(A, "Kd"),
            play(M, "Qd"),
        ],
        sc(1, 0),
    ),
    Case(
        "T dealt, 10 played",
        [
            game(),
            deal(1, cards={A: ["Th", "Kd", "Kc"]}),
            play(A, "10h"),
            play(M, "9h"),
            play(A, "Kd"),
            play(M, "Qd"),
        ],
        sc(1, 0),
    ),
    Case(
        "10 and T are the same card",
        [game(), deal(1, cards={A: ["Th", "Kd", "Kc"]}), play(A, "Kd"), bad(play(M, "10h"), "E30")],
    ),
    Case(
        "case does not matter",
        [
            game(),
            deal(1, cards={A: ["kH", "KD", "9s"]}),
            play(A, "Kh"),
            play(M, "qh"),
            play(A, "kd"),
            play(M, "QD"),
        ],
        sc(1, 0),
    ),
    Case("an unseen card cannot be played", [game(), deal(1), bad(play(A, "??"), "E003")]),
    Case("not a card", [game(), deal(1), bad(play(A, "Xh"), "E003")]),
    Case("a bad suit", [game(), deal(1), bad(play(A, "Kx"), "E003")]),
    Case("a 6 dealt under classic", [game(), bad(deal(1, cards={A: ["6h", "Q", "9s"]}), "E301")]),
    Case(
        "show the unplayed cards after a fold",
        [
            game(),
            deal(1, cards={A: ["7h", "Q", "9s"]}),
            raise_(A, 2),
            fold(M),
            show(A, ["7h", "Q", "9s"]),
            show(M, ["Ks", "Kd", "Kc"]),
        ],
        sc(1, 0),
    ),
    Case(
        "show the last card after two tricks",
        [
            game(),
            deal(1, cards={A: ["Kh", "Kd", "9s"]}),
            *ana_takes_two(),
            show(A, ["9s"]),
            show(M, ["J"]),
        ],
        sc(1, 0),
    ),
    Case(
        "show before the hand ended", [game(), deal(1), play(A, "Kh"), bad(show(A, ["Kd"]), "E601")]
    ),
    Case(
        "show a card already played",
        [
            game(),
            deal(1, cards={A: ["Kh", "Kd", "9s"]}),
            *ana_takes_two(),
            bad(show(A, ["Kh"]), "E3"),
        ],
    ),
    Case(
        "show a card not held",
        [
            game(),
            deal(1, cards={A: ["Kh", "Kd", "9s"]}),
            *ana_takes_two(),
            bad(show(A, ["As"]), "E3"),
        ],
    ),
    Case(
        "show a card the opponent played",
        [game(), deal(1), *ana_takes_two(), bad(show(M, ["Kh"]), "E3")],
    ),
]

# --- claims: result and game_end ------------------------------------------------------

CLAIMS = [
    Case(
        "result: the wrong winner", [*start(), *ana_takes_two(), bad(result(M, 1, sc(0, 1)), "E70")]
    ),
    Case(
        "result: the wrong points", [*start(), *ana_takes_two(), bad(result(A, 2, sc(2, 0)), "E70")]
    ),
    Case(
        "result: the wrong score", [*start(), *ana_takes_two(), bad(result(A, 1, sc(1, 1)), "E704")]
    ),
    Case(
        "result: before the hand is decided",
        [*start(), play(A, "Kh"), play(M, "Qh"), bad(result(A, 1, sc(1, 0)), "E701")],
    ),
    Case(
        "result: twice",
        [*start(), *ana_takes_two(), result(A, 1, sc(1, 0)), bad(result(A, 1, sc(1, 0)), "E705")],
    ),
    Case(
        "result: a fold scores the value before the raise",
        [
            *start(),
            raise_(A, 2),
            accept(M),
            play(A, "Kh"),
            raise_(M, 5),
            fold(A),
            bad(result(M, 5, sc(0, 5)), "E70"),
        ],
    ),
    Case(
        "result: a wrong score is reported once, later hands follow the players' count",
        [
            *start(),
            *ana_takes_two(),
            bad(result(A, 1, sc(2, 0)), "E704"),
            deal(2, A),
            play(M, "Kh"),
            play(A, "Qh"),
            play(M, "Kd"),
            play(A, "Qd"),
            result(M, 1, sc(2, 1)),
        ],
        sc(2, 1),
    ),
    Case(
        "result: a score missing a player",
        [*start(), *ana_takes_two(), bad(result(A, 1, {A: 1}), "E7")],
    ),
    Case(
        "game_end with the winner and score",
        [
            game(score=sc(11, 0)),
            deal(1),
            *ana_takes_two(),
            result(A, 1, sc(12, 0)),
            game_end(winner=A, score=sc(12, 0)),
        ],
        sc(12, 0),
        A,
        True,
    ),
    Case(
        "game_end naming the wrong winner",
        [
            game(score=sc(11, 0)),
            deal(1),
            *ana_takes_two(),
            bad(game_end(winner=M, score=sc(12, 0)), "E711"),
        ],
    ),
    Case(
        "game_end giving the wrong score",
        [
            game(score=sc(11, 0)),
            deal(1),
            *ana_takes_two(),
            bad(game_end(winner=A, score=sc(13, 0)), "E712"),
        ],
    ),
    Case(
        "game_end abandoned before the target",
        [*start(), *ana_takes_two(), game_end(abandoned=True, score=sc(1, 0))],
        sc(1, 0),
        None,
        False,
    ),
    Case(
        "game_end abandoned with no fields beyond",
        [*start(), *ana_takes_two(), game_end(abandoned=True)],
        sc(1, 0),
        None,
        False,
    ),
    Case(
        "game_end abandoned mid-hand",
        [*start(), play(A, "Kh"), game_end(abandoned=True)],
        sc(0, 0),
        None,
        False,
    ),
    Case(
        "game_end not abandoned before the target",
        [*start(), *ana_takes_two(), bad(game_end(score=sc(1, 0)), "E714")],
    ),
    Case(
        "game_end abandoned but won",
        [
            game(score=sc(11, 0)),
            deal(1),
            *ana_takes_two(),
            bad(game_end(abandoned=True, score=sc(12, 0)), "E713"),
        ],
    ),
    Case(
        "a game that stops before the target: warning only",
        [*start(), *ana_takes_two()],
        sc(1, 0),
        None,
        False,
        warnings=["W801"],
    ),
    Case(
        "a deal after the game is won",
        [game(score=sc(11, 0)), deal(1), *ana_takes_two(), bad(deal(2, A), "E204")],
    ),
    Case(
        "show and result may follow the game's end",
        [
            game(score=sc(11, 0)),
            deal(1, cards={A: ["Kh", "Kd", "9s"]}),
            *ana_takes_two(),
            show(A, ["9s"]),
            result(A, 1, sc(12, 0)),
            game_end(winner=A, score=sc(12, 0)),
        ],
        sc(12, 0),
        A,
        True,
    ),
    Case(
        "a deal after game_end",
        [*start(), *ana_takes_two(), game_end(abandoned=True), bad(deal(2, A), "E7")],
    ),
    Case(
        "game end exactly at the target by a starting score",
        [game(score=sc(0, 11)), deal(1), *marc_takes_two(), result(M, 1, sc(0, 12))],
        sc(0, 12),
        M,
        True,
    ),
    Case(
        "a drawn hand: result with winner null and 0 points",
        [
            game("gamerules", score=sc(4, 2)),
            deal(1),
            play(A, "Kh"),
            play(M, "Ks"),
            play(A, "Qh"),
            play(M, "Qs"),
            play(A, "7h"),
            play(M, "7s"),
            result(None, 0, sc(4, 2)),
        ],
        sc(4, 2),
        None,
        False,
    ),
    Case(
        "a drawn hand: result claiming a point",
        [
            game("gamerules"),
            deal(1),
            play(A, "Kh"),
            play(M, "Ks"),
            play(A, "Qh"),
            play(M, "Qs"),
            play(A, "7h"),
            play(M, "7s"),
            bad(result(None, 1, sc(0, 0)), "E703"),
        ],
    ),
]

# --- the file and its fields ------------------------------------------------------

G1 = json.dumps(game()).encode()
D1 = json.dumps(deal(1)).encode()
PLAYS = b"\n".join(json.dumps(e).encode() for e in ana_takes_two())

FILES = [
    Case(
        "a BOM and CRLF line ends",
        [],
        sc(1, 0),
        raw=b"\xef\xbb\xbf" + b"\r\n".join([G1, D1, PLAYS.replace(b"\n", b"\r\n")]) + b"\r\n",
    ),
    Case(
        "blank lines are ignored", ["", game(), "", "   ", deal(1), *ana_takes_two(), ""], sc(1, 0)
    ),
    Case(
        "an error's line counts blank lines", ["", game(), "", deal(1), bad(play(M, "Kh"), "E205")]
    ),
    Case(
        "extension fields, t and note are kept",
        [
            {**game(), "_table": 4, "t": "2026-11-29T20:14:03+01:00", "note": "friday"},
            {**deal(1), "_camera": "b"},
            {**play(A, "Kh"), "t": "2026-11-29T20:14:05Z"},
            {**play(M, "Qh"), "_x": {"nested": [1, 2]}},
            *ana_takes_two()[2:],
        ],
        sc(1, 0),
    ),
    Case("an unknown field", [game(), deal(1), bad({**play(A, "Kh"), "colour": "red"}, "E003")]),
    Case("an unknown field on the game line", [bad({**game(), "table": 4}, "E")]),
    Case(
        "a timestamp without offset",
        [game(), deal(1), bad({**play(A, "Kh"), "t": "2026-11-29T20:14:03"}, "E003")],
    ),
    Case("a note that is not text", [game(), deal(1), bad({**play(A, "Kh"), "note": 5}, "E003")]),
    Case("a deal before any game", [bad(deal(1), "E103")]),
    Case(
        "not JSON",
        [game(), deal(1), bad('{"type": "play", "player": "Ana"', "E001"), *ana_takes_two()],
    ),
    Case("not an object", [game(), bad('["play", "Ana"]', "E002")]),
    Case("an unknown type", [game(), bad({"type": "bid", "player": A}, "E002")]),
    Case("an unknown player", [game(), deal(1), bad(play("Zoé", "Kh"), "E201")]),
    Case("the wrong format string", [bad({**game(), "format": "truclog/2"}, "E")]),
    Case("players not distinct", [bad(game(players=(A, A), dealer=A), "E")]),
    Case("three players", [bad(game(players=(A, M, "Lu")), "E")]),
    Case("a dealer who is not a player", [bad(game(dealer="Zoé"), "E")]),
    Case("an unknown preset", [bad(game("belote"), "E")]),
    Case("an unknown rules override", [bad(game({"preset": "classic", "jokers": True}), "E")]),
    Case(
        "a game with a match id, id, date, source and tags",
        [
            game(
                id="r1-g1", match="r1", date="2026-11-29", source="tabletop", tags={"place": "café"}
            ),
            deal(1),
            *ana_takes_two(),
        ],
        sc(1, 0),
    ),
    Case("source free text", [game(source="my phone"), deal(1), *ana_takes_two()], sc(1, 0)),
    Case(
        "several games in one file",
        [
            game(id="g1", score=sc(11, 0), match="m"),
            deal(1),
            *ana_takes_two(),
            result(A, 1, sc(12, 0)),
            game(id="g2", dealer=A, match="m"),
            deal(1, A),
            play(M, "Kh"),
            play(A, "Qh"),
            play(M, "Kd"),
            play(A, "Qd"),
            game_end(abandoned=True),
        ],
        games=2,
    ),
    Case(
        "each game starts from its own score",
        [
            game(id="g1", score=sc(11, 0)),
            deal(1),
            *ana_takes_two(),
            game(id="g2"),
            deal(1),
            *ana_takes_two(),
            game_end(abandoned=True),
        ],
        sc(1, 0),
        None,
        False,
        games=2,
    ),
    Case(
        "a game line starts a new game even mid-hand",
        [
            game(id="g1"),
            deal(1),
            play(A, "Kh"),
            game(id="g2"),
            deal(1),
            *ana_takes_two(),
            game_end(abandoned=True),
        ],
        sc(1, 0),
        games=2,
        warnings=["W801"],
    ),
    Case(
        "rules target override",
        [
            game({"preset": "classic", "target": 3}),
            deal(1),
            raise_(A, 3),
            accept(M),
            *ana_takes_two(),
        ],
        {A: 3, M: 0},
        A,
        True,
    ),
    Case(
        "rules target override: reste is the remainder to that target",
        [
            game({"preset": "classic", "target": 5}, score=sc(1, 0)),
            deal(1),
            reste(A),
            accept(M),
            *marc_takes_two(),
            result(M, 5, sc(1, 5)),
        ],
        sc(1, 5),
        M,
        True,
    ),
]

# --- four players --------------------------------------------------------------------

P4 = ("Ana", "Marc", "Lu", "Zoé")
NOUS, EUX = "Ana+Lu", "Marc+Zoé"


def team(nous: int, eux: int) -> dict[str, int]:
    return {NOUS: nous, EUX: eux}


FOUR = [
    Case(
        "four players: the player after the dealer leads, teams win tricks",
        [
            game(players=P4, dealer="Zoé"),
            deal(1, "Zoé"),
            play(A, "Kh"),
            play(M, "Qh"),
            play("Lu", "9h"),
            play("Zoé", "Jh"),
            play(A, "Kd"),
            play(M, "Qd"),
            play("Lu", "9d"),
            play("Zoé", "Jd"),
            result(NOUS, 1, team(1, 0)),
        ],
        team(1, 0),
    ),
    Case(
        "four players: partners sharing the top rank win for their team",
        [
            game(players=P4, dealer="Zoé"),
            deal(1, "Zoé"),
            play(A, "7h"),
            play(M, "Qh"),
            play("Lu", "7d"),
            play("Zoé", "Jh"),
            play(A, "Kd"),
            play(M, "Qd"),
            play("Lu", "9d"),
            play("Zoé", "Jd"),
        ],
        team(1, 0),
    ),
    Case(
        "four players: both teams on the top rank tie the trick",
        [
            game(players=P4, dealer="Zoé"),
            deal(1, "Zoé"),
            play(A, "7h"),
            play(M, "7s"),
            play("Lu", "9h"),
            play("Zoé", "Jh"),
            bad(play(M, "Kd"), "E205"),
        ],
    ),
    Case(
        "four players: out of seating order",
        [
            game(players=P4, dealer="Zoé"),
            deal(1, "Zoé"),
            play(A, "Kh"),
            bad(play("Lu", "Qh"), "E205"),
        ],
    ),
    Case(
        "four players: the deal passes to the next player",
        [
            game(players=P4, dealer="Zoé"),
            deal(1, "Zoé"),
            play(A, "Kh"),
            play(M, "Qh"),
            play("Lu", "9h"),
            play("Zoé", "Jh"),
            play(A, "Kd"),
            play(M, "Qd"),
            play("Lu", "9d"),
            play("Zoé", "Jd"),
            bad(deal(2, "Marc"), "E211"),
        ],
    ),
    Case(
        "four players: a partner may not answer a raise",
        [game(players=P4, dealer="Zoé"), deal(1, "Zoé"), raise_(A, 2), bad(accept("Lu"), "E4")],
    ),
    Case(
        "four players: either opponent may answer",
        [
            game(players=P4, dealer="Zoé"),
            deal(1, "Zoé"),
            raise_(A, 2),
            fold("Zoé"),
            result(NOUS, 1, team(1, 0)),
        ],
        team(1, 0),
    ),
    Case(
        "four players: alternate raises per team",
        [
            game(players=P4, dealer="Zoé"),
            deal(1, "Zoé"),
            raise_(A, 2),
            accept(M),
            play(A, "Kh"),
            play(M, "Qh"),
            bad(raise_("Lu", 3), "E406"),
        ],
    ),
    Case(
        "four players: named teams",
        [
            game(players=P4, dealer="Zoé", teams={"nous": ["Ana", "Lu"], "eux": ["Marc", "Zoé"]}),
            deal(1, "Zoé"),
            raise_(A, 2),
            fold(M),
            result("nous", 1, {"nous": 1, "eux": 0}),
        ],
        {"nous": 1, "eux": 0},
    ),
]


# --- further corners ------------------------------------------------------------------

MORE = [
    Case(
        "alternate raises do not carry over to the next hand",
        [
            *start(),
            raise_(A, 2),
            accept(M),
            *ana_takes_two(),
            deal(2, A),
            play(M, "Kh"),
            raise_(A, 2),
            accept(M),
            play(A, "Ah"),
        ],
    ),
    Case(
        "sackson at 11: a raise to 2 is past the target",
        [game("sackson", score=sc(11, 0)), deal(1), bad(raise_(A, 2), "E405")],
    ),
    Case(
        "sackson at 11: reste of 1 is not a raise",
        [game("sackson", score=sc(11, 0)), deal(1), bad(reste(A), "E408")],
    ),
    Case(
        "classic at 10: reste of 2 on a hand worth 2 is not a raise",
        [
            game("classic", score=sc(10, 0)),
            deal(1),
            play(A, "Kh"),
            raise_(M, 2),
            accept(A),
            play(M, "Qh"),
            bad(reste(A), "E408"),
        ],
    ),
    Case("a raise to 0", [*start(), bad(raise_(A, 0), "E4")]),
    Case("a raise to a string", [*start(), bad({"type": "raise", "player": A, "to": "2"}, "E003")]),
    Case("a raise to true", [*start(), bad({"type": "raise", "player": A, "to": True}, "E003")]),
    Case("reste false", [*start(), bad({"type": "raise", "player": A, "reste": False}, "E")]),
    Case(
        "redeal accepted not a bool",
        [game(), deal(1), bad({"type": "redeal", "player": A, "accepted": "yes"}, "E003")],
    ),
    Case(
        "reste refused under game: the result claims the remainder",
        [
            game("gamerules", score=sc(3, 5)),
            deal(1),
            reste(A),
            fold(M),
            result(A, 9, sc(12, 5)),
            game_end(winner=A, score=sc(12, 5)),
        ],
        sc(12, 5),
        A,
        True,
    ),
    Case(
        "a play after the game is won",
        [game(score=sc(11, 0)), deal(1), raise_(A, 2), fold(M), bad(play(A, "Kh"), "E20")],
    ),
    Case(
        "show after game_end",
        [
            game(score=sc(11, 0)),
            deal(1, cards={A: ["Kh", "Kd", "9s"]}),
            *ana_takes_two(),
            result(A, 1, sc(12, 0)),
            game_end(winner=A, score=sc(12, 0)),
            show(A, ["9s"]),
        ],
        sc(12, 0),
        A,
        True,
    ),
    Case(
        "a second game_end",
        [*start(), *ana_takes_two(), game_end(abandoned=True), bad(game_end(abandoned=True), "E7")],
    ),
    Case(
        "game_end abandoned naming a winner",
        [*start(), *ana_takes_two(), bad(game_end(abandoned=True, winner=A), "E711")],
    ),
    Case(
        "game_end abandoned with winner null",
        [*start(), *ana_takes_two(), game_end(abandoned=True, winner=None, score=sc(1, 0))],
        sc(1, 0),
        None,
        False,
    ),
    Case(
        "recovery: after an error, the score of the skipped result",
        [
            *start(),
            play(A, "Kh"),
            bad(play(A, "Kd"), "E205"),
            play(M, "Qh"),
            result(A, 1, sc(1, 0)),
            deal(2, A),
            play(M, "Kh"),
            play(A, "Qh"),
            play(M, "Kd"),
            play(A, "Qd"),
            result(M, 1, sc(1, 1)),
        ],
        sc(1, 1),
    ),
    Case(
        "recovery: errors in two hands are both reported",
        [
            *start(),
            bad(play(M, "Kh"), "E205"),
            deal(2, A),
            bad(play(A, "Kh"), "E205"),
        ],
    ),
    Case(
        "the same game twice in a file: a warning",
        [
            game(id="g", score=sc(11, 0)),
            deal(1),
            *ana_takes_two(),
            game(id="g", score=sc(11, 0)),
            deal(1),
            *ana_takes_two(),
        ],
        games=2,
        warnings=["W802"],
    ),
    Case(
        "a deal dealt by a stranger",
        [
            game(),
            bad(deal(1, "Zoé"), "E2"),
            game(id="g2"),
            deal(1),
            *ana_takes_two(),
            game_end(abandoned=True),
        ],
        sc(1, 0),
        games=2,
    ),
    Case(
        "a deal dealt by a stranger hides the errors before it",
        [game(), deal(1), play(A, "Kh"), bad(play(A, "Kd"), "E205"), bad(deal(2, "Zoé"), "E2")],
    ),
    Case(
        "a free-text date",
        [game(date="Saturday 29 November 2026"), deal(1), *ana_takes_two()],
        sc(1, 0),
    ),
    Case(
        "a raise to a value with reste false",
        [
            *start(),
            {"type": "raise", "player": A, "to": 2, "reste": False},
            accept(M),
            *ana_takes_two(),
        ],
        sc(2, 0),
    ),
    Case(
        "a deal's cards for a stranger",
        [game(), bad(deal(1, cards={"Zoé": ["7h", "Q", "9s"]}), "E")],
    ),
    Case(
        "the same card twice in one hand of the deal",
        [game(), bad(deal(1, cards={A: ["7h", "7h", "9s"]}), "E302")],
    ),
    Case(
        "a result naming a stranger",
        [*start(), *ana_takes_two(), bad(result("Zoé", 1, sc(1, 0)), "E")],
    ),
    Case(
        "a result with an extra player in the score",
        [*start(), *ana_takes_two(), bad(result(A, 1, {A: 1, M: 0, "Zoé": 0}), "E")],
    ),
    Case("a hand number 0", [game(), bad(deal(0), "E")]),
    Case("a type in capitals", [game(), bad({"type": "Deal", "hand": 1, "dealer": M}, "E002")]),
    Case("a card with spaces", [*start(), bad(play(A, " Kh"), "E003")]),
    Case(
        "a card 10 with an upper-case suit",
        [*start(), play(A, "10H"), play(M, "9h"), play(A, "Kd"), play(M, "Qd")],
        sc(1, 0),
    ),
    Case("a card 1", [*start(), bad(play(A, "1h"), "E003")]),
    Case(
        "rules object: an order with a 6 puts the 6 in the deck",
        [
            *start({"preset": "classic", "order": "76AKQJT9"}),
            play(A, "Ah"),
            play(M, "6s"),
            play(M, "Ks"),
            play(A, "Qh"),
        ],
        sc(0, 1),
    ),
    Case(
        "rules object: an order without 8 takes 8 out of the deck",
        [*start({"preset": "classic", "order": "76AKQJT9"}), bad(play(A, "8h"), "E301")],
    ),
    Case(
        "rules object: raises double on classic",
        [*start({"preset": "classic", "raises": "double"}), bad(raise_(A, 3), "E403")],
    ),
    Case(
        "rules object: alternate raises off on classic",
        [
            *start({"preset": "classic", "alternate_raises": False}),
            raise_(A, 2),
            accept(M),
            raise_(A, 3),
            accept(M),
        ],
    ),
    Case(
        "rules object: fold anytime on classic",
        [*start({"preset": "classic", "fold_anytime": True}), fold(M)],
        sc(1, 0),
    ),
    Case(
        "rules object: reste refused game on classic",
        [*start({"preset": "classic", "reste_refused": "game"}), reste(A), fold(M)],
        sc(12, 0),
        A,
        True,
    ),
    Case(
        "rules object: cap at target on classic",
        [
            game({"preset": "classic", "cap_at_target": True}, score=sc(10, 0)),
            deal(1),
            bad(raise_(A, 3), "E405"),
        ],
    ),
    Case(
        "rules object: redeal reshuffle on classic",
        [
            game({"preset": "classic", "redeal": "reshuffle"}),
            deal(1, cards={A: ["7h", "Q", "9s"]}),
            redeal(A, True),
            deal(1, cards={A: ["7h", "Q", "9s"]}),
        ],
    ),
    Case(
        "rules object: a bad override value",
        [bad(game({"preset": "classic", "raises": "triple"}), "E")],
    ),
    Case(
        "a timestamp with fractions and Z",
        [game(), deal(1), {**play(A, "Kh"), "t": "2026-11-29T20:14:03.250Z"}],
    ),
    Case(
        "a last line without its line feed",
        [],
        sc(1, 0),
        raw=b"\n".join([G1, D1, PLAYS]),
    ),
    Case(
        "four players: the first to play the winning rank leads next",
        [
            game(players=P4, dealer="Zoé"),
            deal(1, "Zoé"),
            play(A, "Qh"),
            play(M, "7h"),
            play("Lu", "9h"),
            play("Zoé", "7d"),
            bad(play("Zoé", "Kd"), "E205"),
        ],
    ),
    Case(
        "four players: all tied goes to the non-dealing team",
        [
            game(players=P4, dealer="Zoé"),
            deal(1, "Zoé"),
            play(A, "Kh"),
            play(M, "Ks"),
            play("Lu", "9h"),
            play("Zoé", "Jh"),
            play(A, "Qh"),
            play(M, "Qs"),
            play("Lu", "9d"),
            play("Zoé", "Jd"),
            play(A, "Th"),
            play(M, "Ts"),
            play("Lu", "9s"),
            play("Zoé", "9c"),
        ],
        team(1, 0),
    ),
    Case(
        "four players: the dealer's partner may not ask for a redeal",
        [game(players=P4, dealer="Zoé"), deal(1, "Zoé"), bad(redeal(M, True), "E502")],
    ),
    Case(
        "four players: the player after the dealer asks for a redeal",
        [game(players=P4, dealer="Zoé"), deal(1, "Zoé"), redeal(A, False), play(A, "Kh")],
    ),
    Case(
        "four players: reste is the raising team's remainder",
        [
            game(players=P4, dealer="Zoé", score=team(7, 2)),
            deal(1, "Zoé"),
            reste(A),
            accept(M),
            play(A, "Kh"),
            play(M, "Qh"),
            play("Lu", "9h"),
            play("Zoé", "Jh"),
            play(A, "Kd"),
            play(M, "Qd"),
            play("Lu", "9d"),
            play("Zoé", "Jd"),
            result(NOUS, 5, team(12, 2)),
        ],
        team(12, 2),
        NOUS,
        True,
    ),
    Case(
        "first won by the dealer, second tied: the dealer wins",
        [
            *start(),
            play(A, "9h"),
            play(M, "7s"),
            play(M, "Ks"),
            play(A, "Kh"),
            bad(play(M, "Qs"), "E203"),
        ],
    ),
    Case(
        "first two tied, the follower takes the third",
        [
            *start(),
            play(A, "Kh"),
            play(M, "Ks"),
            play(A, "Qh"),
            play(M, "Qs"),
            play(A, "9h"),
            play(M, "7s"),
        ],
        sc(0, 1),
    ),
    Case(
        "a raise after the hand is decided",
        [*start(), *ana_takes_two(), bad(raise_(M, 2), "E203")],
    ),
    Case("a deal while a raise is pending", [*start(), raise_(A, 2), bad(deal(2, A), "E2")]),
    Case(
        "classic: after the follower's raise the leader may raise again",
        [
            *start(),
            raise_(A, 2),
            accept(M),
            play(A, "9h"),
            raise_(M, 3),
            accept(A),
            play(M, "7s"),
            play(M, "Ks"),
            raise_(A, 5),
            accept(M),
            play(A, "Kh"),
        ],
    ),
    Case(
        "sackson: doubling past the target at 6 points, reste allowed",
        [
            game("sackson", score=sc(6, 0)),
            deal(1),
            raise_(A, 2),
            accept(M),
            raise_(A, 4),
            accept(M),
            bad(raise_(A, 8), "E405"),
        ],
    ),
    Case(
        "sackson: reste at 6 points on a hand worth 4",
        [
            game("sackson", score=sc(6, 0)),
            deal(1),
            raise_(A, 2),
            accept(M),
            raise_(A, 4),
            accept(M),
            reste(A),
            accept(M),
        ],
    ),
    Case(
        "a partly unseen hand: two kings for one unseen card",
        [
            game(),
            deal(1, cards={A: ["7h", "Q", "??"]}),
            play(A, "Kh"),
            play(M, "Jh"),
            bad(play(A, "Kd"), "E304"),
        ],
    ),
    Case(
        "a partly unseen hand: the unseen card is played",
        [
            game(),
            deal(1, cards={A: ["7h", "??", "??"]}),
            play(A, "Kh"),
            play(M, "Qh"),
            play(A, "Kd"),
            play(M, "Qd"),
        ],
        sc(1, 0),
    ),
    Case(
        "a rank-only hand: the same suited card twice",
        [
            game(),
            deal(1, cards={A: ["K", "K", "9"]}),
            play(A, "Kh"),
            play(M, "Kd"),
            play(A, "9h"),
            bad(play(M, "Kh"), "E30"),
        ],
    ),
    Case(
        "show of cards that differ from the deal",
        [
            game(),
            deal(1, cards={A: ["7h", "Q", "9s"]}),
            raise_(A, 2),
            fold(M),
            bad(show(A, ["Kh", "Q", "9s"]), "E3"),
        ],
    ),
    Case(
        "show of a rank-only dealt card with its suit",
        [
            game(),
            deal(1, cards={A: ["7h", "Q", "9s"]}),
            raise_(A, 2),
            fold(M),
            show(A, ["7h", "Qs", "9s"]),
        ],
        sc(1, 0),
    ),
    Case(
        "show of the same card twice",
        [game(), deal(1), raise_(A, 2), fold(M), bad(show(A, ["7h", "7h"]), "E3")],
    ),
    Case(
        "show of four cards",
        [game(), deal(1), raise_(A, 2), fold(M), bad(show(A, ["7h", "7d", "7c", "7s"]), "E")],
    ),
    Case(
        "a timestamp in lower case (RFC 3339 allows t and z)",
        [game(), deal(1), {**play(A, "Kh"), "t": "2026-11-29t20:14:03z"}],
    ),
    Case("a tag that is not text", [bad(game(tags={"table": 4}), "E003")]),
    Case("an id that is not text", [bad(game(id=4), "E003")]),
    Case(
        "a game line without a dealer",
        [bad({"type": "game", "format": "truclog/1", "players": [A, M]}, "E003")],
    ),
    Case(
        "a game line with no format",
        [bad({"type": "game", "players": [A, M], "dealer": M}, "E003")],
    ),
    Case(
        "a game line with the rules left out is classic",
        [
            {"type": "game", "format": "truclog/1", "players": [A, M], "dealer": M},
            deal(1),
            bad(play(A, "6h"), "E301"),
        ],
    ),
    Case(
        "starting score for one player only: the other starts at 0",
        [game(score={A: 11}), deal(1), *marc_takes_two(), result(M, 1, sc(11, 1))],
        sc(11, 1),
    ),
    Case(
        "four players: a raise answered by the raiser's partner (fold)",
        [game(players=P4, dealer="Zoé"), deal(1, "Zoé"), raise_(A, 2), bad(fold("Lu"), "E4")],
    ),
    Case(
        "four players: the deal passes after a redeal to the next seat",
        [
            game(players=P4, dealer="Zoé"),
            deal(1, "Zoé"),
            redeal(A, True),
            deal(1, "Zoé"),
            raise_(A, 2),
            fold(M),
            deal(2, A),
            play(M, "Kh"),
        ],
        team(1, 0),
    ),
    Case(
        "four players: game_end naming the winning team",
        [
            game(players=P4, dealer="Zoé", score=team(11, 3)),
            deal(1, "Zoé"),
            raise_(A, 2),
            fold(M),
            result(NOUS, 1, team(12, 3)),
            game_end(winner=NOUS, score=team(12, 3)),
        ],
        team(12, 3),
        NOUS,
        True,
    ),
    Case(
        "four players: sackson cap on the team score",
        [
            game("sackson", players=P4, dealer="Zoé", score=team(9, 0)),
            deal(1, "Zoé"),
            raise_(A, 2),
            accept(M),
            play(A, "Kh"),
            play(M, "Qh"),
            bad(raise_("Lu", 4), "E405"),
        ],
    ),
    Case(
        "four players: a play by a stranger",
        [game(players=P4, dealer="Zoé"), deal(1, "Zoé"), bad(play("Jo", "Kh"), "E201")],
    ),
]

MORE_CARDS = [
    Case(
        "rules object: max_value also bounds a reste",
        # rules.md rule 7: reste is "a raise to exactly the raiser's remainder"; rule 12:
        # "`max_value`: no raise above it". Reachable only with a rules object.
        [*start({"preset": "classic", "max_value": 4}), bad(reste(A), "E404")],
    ),
    Case(
        "a rank-only play, then the suited card of the same rank",
        [
            game(),
            deal(1, cards={M: ["Td", "??", "??"]}),
            play(A, "J"),
            play(M, "T"),
            play(A, "8"),
            play(M, "Td"),
        ],
        sc(1, 0),
    ),
    Case(
        "a rank-only play taken for the wrong dealt card",
        [game(), deal(1, cards={A: ["Th", "T", "8"]}), play(A, "T"), play(M, "9s"), play(A, "Td")],
    ),
    Case(
        "show a suited card after a rank-only play of its rank",
        [
            game(),
            deal(1, cards={A: ["Kh", "??", "??"]}),
            raise_(A, 2),
            fold(M),
            show(A, ["K", "Kh"]),
        ],
        sc(1, 0),
    ),
    Case(
        "a rank-only play matches a suited dealt card",
        [
            game(),
            deal(1, cards={A: ["Kh", "Kd", "9s"]}),
            play(A, "K"),
            play(M, "Qh"),
            play(A, "K"),
            play(M, "Qd"),
        ],
        sc(1, 0),
    ),
    Case(
        "a lower-case t",
        [
            game(),
            deal(1, cards={A: ["th", "Kd", "Kc"]}),
            play(A, "Th"),
            play(M, "9h"),
            play(A, "Kd"),
            play(M, "Qd"),
        ],
        sc(1, 0),
    ),
    Case(
        "four players: a fifth card of a rank in the deal",
        [
            game(players=P4, dealer="Zoé"),
            bad(
                deal(
                    1, "Zoé", cards={A: ["7", "7", "K"], M: ["7", "Q", "J"], "Lu": ["7", "7", "9"]}
                ),
                "E303",
            ),
        ],
    ),
    Case(
        "four players: gamerules all tied is a draw",
        [
            game("gamerules", players=P4, dealer="Zoé"),
            deal(1, "Zoé"),
            *[play(A, "Kh"), play(M, "Ks"), play("Lu", "9h"), play("Zoé", "Jh")],
            *[play(A, "Qh"), play(M, "Qs"), play("Lu", "9d"), play("Zoé", "Jd")],
            *[play(A, "Th"), play(M, "Ts"), play("Lu", "9s"), play("Zoé", "9c")],
            result(None, 0, team(0, 0)),
            deal(2, A),
            play(M, "Kh"),
        ],
        team(0, 0),
        hands=2,
    ),
    Case(
        "four players: the deal goes round the table",
        [
            game(players=P4, dealer="Zoé"),
            deal(1, "Zoé"),
            raise_(A, 2),
            fold(M),
            deal(2, A),
            raise_(M, 2),
            fold("Lu"),
            deal(3, M),
            raise_("Lu", 2),
            fold("Zoé"),
            deal(4, "Lu"),
            raise_("Zoé", 2),
            fold(A),
            bad(deal(5, "Lu"), "E211"),
        ],
    ),
    Case(
        "four players: fold anytime by any player",
        [game("gamerules", players=P4, dealer="Zoé"), deal(1, "Zoé"), play(A, "Kh"), fold("Lu")],
        team(0, 1),
    ),
]

RECOVERY = [
    Case(
        "recovery: no result claimed, the score it had",
        [
            *start(),
            play(A, "Kh"),
            bad(play(A, "Kd"), "E205"),
            play(M, "Qh"),
            play(A, "Kd"),
            play(M, "Qd"),
            deal(2, A),
            *[play(M, "Kh"), play(A, "Qh"), play(M, "Kd"), play(A, "Qd")],
        ],
        sc(0, 1),
        hands=2,
    ),
    Case(
        "recovery: game_end takes the claimed score of the skipped hand",
        [
            *start(),
            bad(play(M, "Kh"), "E205"),
            result(A, 1, sc(1, 0)),
            game_end(abandoned=True, score=sc(1, 0)),
        ],
        sc(1, 0),
    ),
    Case(
        "recovery: a game line ends the skipping",
        [
            *start(),
            bad(play(M, "Kh"), "E205"),
            play(A, "Kh"),
            game(id="g2"),
            deal(1),
            bad(play(M, "Kh"), "E205"),
        ],
        games=2,
    ),
    Case(
        "hands: a redeal is not a new hand",
        [game(), deal(1), redeal(A, True), deal(1), *ana_takes_two(), deal(2, A), play(M, "Kh")],
        sc(1, 0),
        hands=2,
    ),
    Case(
        "hands: a drawn hand is a hand",
        [
            *start("gamerules"),
            *[
                play(A, "Kh"),
                play(M, "Ks"),
                play(A, "Qh"),
                play(M, "Qs"),
                play(A, "7h"),
                play(M, "7s"),
            ],
            deal(2, A),
        ],
        sc(0, 0),
        hands=2,
    ),
]

CASES = (
    MORE_CARDS
    + RECOVERY
    + TRICKS
    + ORDERS
    + RAISES
    + RESTE
    + DEALS
    + CARDS
    + CLAIMS
    + FILES
    + FOUR
    + MORE
)


# --- running a case ---------------------------------------------------------------


def text_of(item: Event | Bad | str) -> str:
    event = item.event if isinstance(item, Bad) else item
    return event if isinstance(event, str) else json.dumps(event, ensure_ascii=False)


def expected_errors(case: Case) -> dict[int, str]:
    return {n: item.code for n, item in enumerate(case.lines, 1) if isinstance(item, Bad)}


def run(case: Case, tmp_path: Path) -> tuple[int, dict[str, Any]]:
    path = tmp_path / "case.truclog.jsonl"
    if case.raw is not None:
        path.write_bytes(case.raw)
    else:
        path.write_text("".join(text_of(item) + "\n" for item in case.lines), encoding="utf-8")
    outcome = CliRunner().invoke(main, ["validate", "--format", "json", str(path)])
    return outcome.exit_code, json.loads(outcome.output)


def params() -> list[Any]:
    marks = lambda case: [pytest.mark.xfail(reason=case.xfail, strict=True)] if case.xfail else []  # noqa: E731
    return [pytest.param(case, id=case.name, marks=marks(case)) for case in CASES]


def test_case_names_are_unique() -> None:
    names = [case.name for case in CASES]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("case", params())
def test_validator_agrees_with_the_contract(case: Case, tmp_path: Path) -> None:
    status, report = run(case, tmp_path)
    (file,) = report["files"]
    found = {d["line"]: d["code"] for d in file["diagnostics"] if d["severity"] == "error"}
    wanted = expected_errors(case)
    assert set(found) == set(wanted), file["diagnostics"]
    for line, family in wanted.items():
        assert found[line].startswith(family), file["diagnostics"]
    assert status == (1 if wanted else 0)
    for diagnostic in file["diagnostics"]:
        if diagnostic["code"][:2] in ("E4", "E5") or diagnostic["code"] in ("E205", "E206"):
            assert diagnostic.get("legal"), diagnostic  # what was legal at that point
    warnings = [d["code"] for d in file["diagnostics"] if d["severity"] == "warning"]
    for code in case.warnings:
        assert code in warnings, file["diagnostics"]
    if case.games is not None:
        assert len(file["games"]) == case.games
    if case.complete:
        assert "W801" not in warnings
    last = file["games"][-1] if file["games"] else None
    if case.score is not None:
        assert last is not None and last["score"] == case.score
    if case.winner is not UNSET:
        assert last is not None and last["winner"] == case.winner
    if case.complete is not None:
        assert last is not None and last["complete"] is case.complete
    if case.hands is not None:
        assert last is not None and last["hands"] == case.hands


@pytest.mark.parametrize(
    "events",
    [
        [game(), deal(1), raise_(A, 2**70), accept(M), *ana_takes_two()],
        [game(), deal(2**70)],
        [game(score=sc(2**70, 0))],
    ],
    ids=["raise to 2**70", "hand 2**70", "starting score 2**70"],
)
def test_huge_numbers_get_an_answer_in_json(events: list[Event], tmp_path: Path) -> None:
    path = tmp_path / "big.truclog.jsonl"
    path.write_text("".join(json.dumps(event) + "\n" for event in events))
    outcome = CliRunner().invoke(main, ["validate", "--format", "json", str(path)])
    assert outcome.exception is None or isinstance(outcome.exception, SystemExit)
    assert outcome.exit_code in (0, 1)
    assert json.loads(outcome.output)["summary"]["files"] == 1


def test_recovery_says_how_many_lines_were_not_checked(tmp_path: Path) -> None:
    case = Case(
        "skipped",
        [
            *start(),
            bad(play(M, "Kh"), "E205"),
            play(A, "Kh"),
            play(M, "Qh"),
            play(A, "Kd"),
            deal(2, A),
        ],
    )
    _, report = run(case, tmp_path)
    (diagnostic,) = [d for d in report["files"][0]["diagnostics"] if d["severity"] == "error"]
    assert diagnostic["line"] == 3
    assert "3" in diagnostic["message"] and "not checked" in diagnostic["message"]


# --- an independent referee: rules.md read on its own, against random logs ------------

PRESET_TABLE = {
    # order, raises, max_value, cap, alternate, reste, refused, all_tied, fold_anytime
    "classic": ("78AKQJT9", "any", None, False, True, True, "previous", "non_dealer", False),
    "gamerules": ("78AKQJT9", "any", None, False, False, True, "game", "draw", True),
    "sackson": ("AKQJT987", "double", None, True, False, True, "previous", "draw", False),
    "francais": ("76AKQJT9", "double", 8, False, False, False, "previous", "draw", False),
    "classic-36": ("76AKQJT98", "any", None, False, True, True, "previous", "non_dealer", False),
    "eight-high": ("87AKQJT9", "any", None, False, True, True, "previous", "non_dealer", False),
    "eight-low": ("7AKQJT98", "any", None, False, True, True, "previous", "non_dealer", False),
}
TARGET = 12


class Illegal(Exception):
    """An action the rules forbid; ``args[0]`` is the family of code expected."""


class Referee:
    """Who may act and what a hand scores, from the rules of team play alone (no cards)."""

    def __init__(self, preset: str, seats: int, dealer: int, score: list[int]) -> None:
        (self.order, self.raises, self.max_value, self.cap, self.alternate, self.reste,
         self.refused, self.all_tied, self.fold_anytime) = PRESET_TABLE[preset]  # fmt: skip
        self.seats, self.dealer, self.score = seats, dealer, score
        self.hand, self.first = 0, True
        self.phase = "over" if max(score) >= TARGET else "deal"

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.seats

    def deal(self, seat: int, hand: int) -> None:
        if self.phase in ("over", "play"):
            raise Illegal("E204" if self.phase == "over" else "E213")
        if self.phase == "redeal":
            if (seat, hand) != (self.dealer, self.hand):
                raise Illegal("E21")
            self.start(asked=True)
            return
        dealer = self.dealer if self.first else self.next_seat(self.dealer)
        if (seat, hand) != (dealer, self.hand + 1):
            raise Illegal("E21")
        self.first, self.dealer, self.hand = False, dealer, hand
        self.start(asked=False)

    def start(self, asked: bool) -> None:
        self.phase, self.value = "play", 1
        self.pending: tuple[int, int, bool] | None = None
        self.last_team: int | None = None
        self.reste_accepted, self.asked, self.acted = False, asked, False
        self.results: list[int | None] = []
        self.trick: list[tuple[int, str]] = []
        self.turn = self.next_seat(self.dealer)

    def in_hand(self) -> None:
        if self.phase != "play":
            raise Illegal({"over": "E20", "decided": "E203"}.get(self.phase, "E202"))

    def redeal(self, seat: int) -> None:
        self.in_hand()
        if seat != self.next_seat(self.dealer):
            raise Illegal("E502")
        if self.asked or self.acted:
            raise Illegal("E50")
        self.asked = self.acted = True

    def raise_to(self, seat: int, to: int | None) -> None:
        self.in_hand()
        if self.pending:
            raise Illegal("E401")
        if seat != self.turn:
            raise Illegal("E205")
        team = seat % 2
        if self.reste_accepted:
            raise Illegal("E409")
        if self.alternate and self.last_team == team:
            raise Illegal("E406")
        remainder = TARGET - self.score[team]
        if to is None and not self.reste:
            raise Illegal("E407")
        if to is None and remainder <= self.value:
            raise Illegal("E408")
        if to is not None:
            self.check_value(team, to)
        self.pending = (team, remainder if to is None else to, to is None)
        self.last_team, self.acted = team, True

    def check_value(self, team: int, to: int) -> None:
        if to <= self.value:
            raise Illegal("E402")
        if self.raises == "double" and to != 2 * self.value:
            raise Illegal("E403")
        if self.max_value is not None and to > self.max_value:
            raise Illegal("E404")
        if self.cap and self.score[team] + to > TARGET:
            raise Illegal("E405")

    def answer(self, seat: int, accepted: bool) -> None:
        self.in_hand()
        if self.pending is None:
            if accepted or not self.fold_anytime:
                raise Illegal("E41")
            self.end(1 - seat % 2)
            return
        team, to, reste = self.pending
        if seat % 2 == team:
            raise Illegal("E412")
        self.pending = None
        if accepted:
            self.value, self.reste_accepted = to, reste
        else:
            self.end(team, to_game=reste and self.refused == "game")

    def play(self, seat: int, card: str) -> None:
        self.in_hand()
        if self.pending:
            raise Illegal("E206")
        if seat != self.turn:
            raise Illegal("E205")
        self.acted = True
        self.trick.append((seat, card))
        self.turn = self.next_seat(seat)
        if len(self.trick) == self.seats:
            self.close_trick()

    def close_trick(self) -> None:
        best = min(self.order.index(card[0]) for _, card in self.trick)
        top = [seat for seat, card in self.trick if self.order.index(card[0]) == best]
        tied = len({seat % 2 for seat in top}) > 1
        self.results.append(None if tied else top[0] % 2)
        self.turn = self.trick[0][0] if tied else top[0]
        self.trick = []
        decided, team = self.decided()
        if decided:
            if team is None and self.all_tied == "non_dealer":
                team = 1 - self.dealer % 2
            self.end(team)

    def decided(self) -> tuple[bool, int | None]:
        """Rule 5, clause by clause."""
        r = self.results
        won = [team for team in r if team is not None]
        for team in (0, 1):
            if won.count(team) == 2:
                return True, team
        if r[0] is None:
            return (True, won[0]) if won else (len(r) == 3, None)
        if (len(r) >= 2 and r[1] is None) or (len(r) == 3 and r[2] is None):
            return True, r[0]
        return False, None

    def end(self, team: int | None, to_game: bool = False) -> None:
        if team is not None:
            gain = TARGET - self.score[team] if to_game or self.reste_accepted else self.value
            self.score[team] += gain
        self.phase = "over" if max(self.score) >= TARGET else "decided"


def referee_log(rng: Any, seats: int) -> tuple[list[Event], int | None, str, Referee]:
    """A random log, mostly legal; the line of its first illegal action and that code family."""
    names = [A, M, "Lu", "Zoé"][:seats]
    preset = rng.choice(sorted(PRESET_TABLE))
    dealer = rng.randrange(seats)
    score = [rng.choice([0, 0, 5, 9, 10, 11]), rng.choice([0, 0, 4, 10, 11])]
    ref = Referee(preset, seats, dealer, list(score))
    sides = [A, M] if seats == 2 else [NOUS, EUX]
    lines: list[Event] = [
        game(preset, names[dealer], tuple(names), score=dict(zip(sides, score, strict=True)))
    ]
    deck = [rank + suit for rank in ref.order for suit in "cdhs"]
    held: list[list[str]] = [[] for _ in names]
    for _ in range(rng.randint(5, 80)):
        moves = candidates(ref, seats, held)
        legal = [m for m in moves if allowed(ref, m)]
        plays = [m for m in legal if m[0] == "play"]
        if plays and rng.random() < 0.75:
            move = rng.choice(plays)
        else:
            move = rng.choice(legal) if legal and rng.random() < 0.95 else rng.choice(moves)
        kind, seat, arg = move
        event = as_event(names, move, held)
        try:
            perform(ref, move)
        except Illegal as exc:
            return [*lines, event], len(lines) + 1, str(exc), ref
        if kind == "deal":  # few ranks, so that tied tricks are common
            ranks = rng.sample(ref.order, seats // 2 + 1)
            pool = [card for card in deck if card[0] in ranks]
            rng.shuffle(pool)
            held = [pool[3 * i : 3 * i + 3] for i in range(seats)]
        elif kind == "play":
            held[seat].remove(arg)
        lines.append(event)
    return lines, None, "", ref


def candidates(ref: Referee, seats: int, held: list[list[str]]) -> list[tuple[str, int, Any]]:
    moves: list[tuple[str, int, Any]] = []
    value = getattr(ref, "value", 1)
    for seat in range(seats):
        moves += [("deal", seat, ref.hand + 1), ("deal", seat, max(ref.hand, 1))]
        moves += [("redeal", seat, True), ("redeal", seat, False), ("reste", seat, None)]
        moves += [("accept", seat, None), ("fold", seat, None)]
        moves += [("raise", seat, to) for to in {value + 1, 2 * value, value + 3, 8, 16}]
        moves += [("play", seat, card) for card in held[seat]]
    return moves


def perform(ref: Referee, move: tuple[str, int, Any]) -> None:
    kind, seat, arg = move
    if kind == "deal":
        ref.deal(seat, arg)
    elif kind == "redeal":
        ref.redeal(seat)
        if arg:
            ref.phase = "redeal"
    elif kind in ("raise", "reste"):
        ref.raise_to(seat, arg)
    elif kind in ("accept", "fold"):
        ref.answer(seat, kind == "accept")
    else:
        ref.play(seat, arg)


def allowed(ref: Referee, move: tuple[str, int, Any]) -> bool:
    probe = copy.deepcopy(ref)
    try:
        perform(probe, move)
    except Illegal:
        return False
    return True


def as_event(names: list[str], move: tuple[str, int, Any], held: list[list[str]]) -> Event:
    kind, seat, arg = move
    name = names[seat]
    if kind == "deal":
        return deal(arg, name)
    if kind == "redeal":
        return redeal(name, arg)
    if kind == "reste":
        return reste(name)
    if kind == "raise":
        return raise_(name, arg)
    if kind in ("accept", "fold"):
        return {"type": kind, "player": name}
    return play(name, arg)


@settings(
    max_examples=120,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(rng=st.randoms(use_true_random=False), seats=st.sampled_from([2, 4]))
def test_validator_agrees_with_an_independent_referee(rng: Any, seats: int, tmp_path: Path) -> None:
    lines, bad_line, family, ref = referee_log(rng, seats)
    case = Case("referee", [bad(e, family) if n == bad_line else e for n, e in enumerate(lines, 1)])
    _, report = run(case, tmp_path)
    (file,) = report["files"]
    errors = [(d["line"], d["code"]) for d in file["diagnostics"] if d["severity"] == "error"]
    note("\n".join(map(text_of, lines)))
    if bad_line is None:
        assert errors == []
        (checked,) = file["games"]
        sides = [A, M] if seats == 2 else [NOUS, EUX]
        assert checked["score"] == dict(zip(sides, ref.score, strict=True))
        assert checked["complete"] is (ref.phase == "over")
    else:
        assert [line for line, _ in errors] == [bad_line]
        assert errors[0][1].startswith(family)
