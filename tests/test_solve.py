"""The C double-dummy solver (``truclog.solver._solve``) answers as the Python one of strength.py.

The Python solver is the reference: on random positions of every preset's order and
``all_tied`` rule (tricks so far, a card on the table or not, the player on turn or
answering, one to three cards left each) both give the same exact :class:`Odds` and
the same face-up outcome, and on arbitrary (mostly impossible) arguments both refuse
with a ``ValueError`` or both answer alike. Statistics of the sample logs and of
simulated logs are the same frames with and without the C solver, and the doctests of
strength.py and answer.py pass on the Python solver too.
"""

from __future__ import annotations

import doctest
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from truclog import build
from truclog.engine.rules import PRESETS, Rules
from truclog.engine.state import points_won
from truclog.simulate.bots import STYLES
from truclog.simulate.run import Simulation, simulate_to
from truclog.solver import answer, play, strength
from truclog.stats.kept import GameFilter, Tally
from truclog.stats.run import kept_games
from truclog.stats.tables import TableBuilder, Tables, answer_columns
from truclog.validate import CheckedGame, Diagnostic, GameTally, check_log, quick
from truclog.validate.quick_rules import core_rules

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
ORDERS = sorted({rules.order for rules in PRESETS.values()})
SOLVE = strength._solve

needs_solver = pytest.mark.skipif(SOLVE is None, reason="the C solver is not built")
needs_core = pytest.mark.skipif(
    SOLVE is None or not quick.AVAILABLE, reason="the quick core or the C solver is not built"
)
_quick = quick._quick


@contextmanager
def python_solver() -> Iterator[None]:
    """strength.py's Python solver only, with every memo emptied before and after."""
    saved = strength._solve
    strength._solve = None
    _forget()
    try:
        yield
    finally:
        strength._solve = saved
        _forget()


def _forget() -> None:
    strength._ranks.cache_clear()
    strength._dealt.cache_clear()


def either(call: Callable[[], Any]) -> tuple[str, Any]:
    """What a call answers, or that it refused with a ``ValueError``."""
    try:
        return "answer", call()
    except ValueError:
        return "refused", None


def python_odds(*args: Any) -> tuple[str, Any]:
    with python_solver():
        return either(lambda: tuple(strength._ranks.__wrapped__(*args)))


def c_odds(*args: Any) -> tuple[str, Any]:
    assert SOLVE is not None
    return either(lambda: SOLVE.odds(*args))


def outcomes_alike(preset: str, *args: Any) -> tuple[str, Any]:
    """``outcome_of`` under a preset's rules, which both solvers answer (or refuse) alike."""
    rules = PRESETS[preset]
    found = either(lambda: strength.outcome_of(rules, *args))
    with python_solver():
        assert either(lambda: strength.outcome_of(rules, *args)) == found
    return found


def _beats(order: str, a: str, b: str) -> str:
    """The first trick result of ``a`` against ``b``, from ``a``'s side."""
    return "T" if a == b else "W" if order.index(a) < order.index(b) else "L"


def _decided(results: str) -> bool:
    """Rule 5: two tricks won, or a tied trick and a won one, or the first won and
    the second tied, or three tricks."""
    won = results.replace("T", "")
    if len(results) < 2 or won.count("W") >= 2 or won.count("L") >= 2:
        return len(results) >= 2
    if results[0] == "T":
        return bool(won) or len(results) == 3
    return results[1] == "T" or len(results) == 3


@st.composite
def positions(draw: st.DrawFn) -> tuple[Any, ...]:
    """A reachable position of a two-player hand, from one player's side: the
    arguments of the solver's ``odds`` and, for ``outcome``, the opponent's cards
    still in hand."""
    preset = draw(st.sampled_from(sorted(PRESETS)))
    rules = PRESETS[preset]
    order = rules.order
    deck = draw(st.permutations([rank for rank in order for _ in range(4)]))
    hands = [list(deck[:3]), list(deck[3:6])]
    played: list[str] = ["", ""]
    results = ""  # from seat 0's side
    leader = draw(st.integers(0, 1))
    for _ in range(draw(st.integers(0, 2))):
        cards = [hands[s].pop(draw(st.integers(0, len(hands[s]) - 1))) for s in (0, 1)]
        played = [played[0] + cards[0], played[1] + cards[1]]
        result = _beats(order, cards[0], cards[1])
        results += result
        if result != "T":
            leader = 0 if result == "W" else 1
        if _decided(results):
            break
    table = None
    if draw(st.booleans()) and hands[leader]:
        table = hands[leader].pop(draw(st.integers(0, len(hands[leader]) - 1)))
        played[leader] += table
    on_turn = 1 - leader if table else leader
    to_move = draw(st.booleans())
    me = on_turn if to_move else 1 - on_turn
    dealt = played[me] + "".join(hands[me])
    mine = results if me == 0 else results.translate(str.maketrans("WL", "LW"))
    dealer = draw(st.booleans())
    tied = strength._tied(rules.all_tied, dealer)
    args = (order, dealt, "".join(hands[me]), played[1 - me], mine, table, tied, to_move)
    return args, "".join(hands[1 - me]), preset, dealer


@needs_solver
@settings(max_examples=400, deadline=None)
@given(positions())
def test_odds_of_reachable_positions_are_the_same(position: tuple[Any, ...]) -> None:
    args = position[0]
    found = c_odds(*args)
    assert found == python_odds(*args)
    assert found[0] == "answer", args
    wins, draws, weights = found[1]
    assert isinstance(wins, int) and 0 <= wins + draws <= weights


@needs_solver
@settings(max_examples=400, deadline=None)
@given(positions())
def test_face_up_outcomes_of_reachable_positions_are_the_same(position: tuple[Any, ...]) -> None:
    (_, _, held, _, results, table, _, to_move), theirs, preset, dealer = position
    found = outcomes_alike(preset, held, theirs, results, table, dealer, to_move)
    assert found[0] == "answer" and found[1] in (0.0, 0.5, 1.0)


RANKS = st.text(alphabet="789TJQKA6X", max_size=4)
RESULTS = st.text(alphabet="WLTx", max_size=4)


@st.composite
def loose_odds_arguments(draw: st.DrawFn) -> tuple[Any, ...]:
    """The solver's ``odds`` arguments, each field sound most of the time but none
    held to the others: hands of two to four ranks, ranks not in the deck, cards held
    that the hand does not have, five of a rank, four cards played, results past a
    decided hand or not W, L, T, a card on the table that nobody played."""
    order = draw(st.sampled_from(ORDERS))

    def sound() -> bool:
        return draw(st.integers(0, 7)) > 0

    ranks = st.sampled_from(order) if sound() else st.sampled_from(order + "X")
    hand = "".join(draw(st.lists(ranks, min_size=3, max_size=3) if sound() else RANKS))
    kept = draw(st.lists(st.booleans(), min_size=len(hand), max_size=len(hand)))
    held = "".join(r for r, keep in zip(hand, kept, strict=True) if keep)
    held = held if sound() else draw(RANKS)
    played = "".join(draw(st.lists(ranks, max_size=3 if sound() else 4)))
    results = draw(st.text(alphabet="WLT", max_size=3) if sound() else RESULTS)
    table = None
    if draw(st.booleans()):
        table = draw(st.sampled_from(played + hand) if played + hand and sound() else RANKS)
    tied = draw(st.sampled_from([0.0, 0.5, 1.0]))
    return order, hand, held, played, results, table, tied, draw(st.booleans())


CLASSIC_ORDER = PRESETS["classic"].order


@needs_solver
@settings(max_examples=1000, deadline=None)
@given(loose_odds_arguments())
@example((CLASSIC_ORDER, "777", "77", "77", "", None, 1.0, True))  # five sevens
@example((CLASSIC_ORDER, "AKQ", "AKQ", "9999", "", None, 1.0, True))  # four played
@example((CLASSIC_ORDER, "AKQ", "", "999", "WLTW", None, 0.5, True))  # a fourth trick
@example((CLASSIC_ORDER, "AKQ", "Q", "9", "WL", "A", 0.5, True))  # the A is not theirs
@example((CLASSIC_ORDER, "AKQ", "KQ", "9", "W", "A", 0.5, False))  # the A is mine
@example((CLASSIC_ORDER, "AK6", "AK6", "", "", None, 0.5, True))  # no 6 in the deck
def test_arbitrary_odds_arguments_are_refused_or_answered_alike(args: tuple[Any, ...]) -> None:
    assert c_odds(*args) == python_odds(*args)


@needs_solver
@settings(max_examples=600, deadline=None)
@given(
    st.sampled_from(sorted(PRESETS)),
    RANKS,
    RANKS,
    RESULTS,
    st.none() | st.text(alphabet="789AKX", max_size=2),
    st.booleans(),
    st.booleans(),
)
def test_arbitrary_outcome_arguments_are_refused_or_answered_alike(
    preset: str,
    held: str,
    theirs: str,
    results: str,
    table: str | None,
    dealer: bool,
    to_move: bool,
) -> None:
    outcomes_alike(preset, held, theirs, results, table, dealer, to_move)


@needs_solver
def test_the_c_solver_counts_whole_holdings() -> None:
    # classic 7 > 8 > A > K > Q > J > T > 9. Three sevens of the four: nothing beats
    # them, over all C(29, 3) = 3654 holdings of the opponent. 7 9 9 following an A:
    # the opponent holds two of the 28 cards left, C(28, 2) = 378 ways (53 of them
    # won, as tests/test_strength.py works out by brute force over suits).
    assert SOLVE is not None
    assert SOLVE.odds("78AKQJT9", "799", "799", "A", "", "A", 1.0, True) == (53, 0, 378)
    assert SOLVE.odds("78AKQJT9", "777", "777", "", "", None, 1.0, True) == (3654, 0, 3654)
    assert SOLVE.outcome("78AKQJT9", "A9", "7", "L", "8", 1.0, True) == 0.0


@needs_solver
def test_a_solver_built_from_another_source_is_not_used(tmp_path: Path) -> None:
    """Built from another ``_solve.c``, or from another header it includes, the C solver
    is not used."""
    folder = tmp_path / "solver"
    folder.mkdir()
    beside = str(folder / "build.py")
    assert build.solver(beside) is SOLVE  # an installed package: no source beside it
    source = Path(strength.__file__).with_name("_solve.c")
    if source.exists():  # a work tree: built from this very source
        assert build.solver() is SOLVE
        (folder / "_solve.c").write_bytes(source.read_bytes())
        (folder / "_solve.h").write_bytes(source.with_name("_solve.h").read_bytes())
        trick = tmp_path / "engine" / "_trick.h"
        trick.parent.mkdir()
        trick.write_bytes((source.parent.parent / "engine" / "_trick.h").read_bytes())
        build.solver.cache_clear()
        assert build.solver(beside) is SOLVE
        trick.write_bytes(trick.read_bytes() + b"/* edited since the build */\n")
        build.solver.cache_clear()
        assert build.solver(beside) is None
    (folder / "_solve.c").write_text("/* edited since the build */\n")
    build.solver.cache_clear()
    assert build.solver(beside) is None
    build.solver.cache_clear()


@needs_solver
def test_statistics_take_no_facts_from_a_core_whose_solver_is_stale(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A work tree whose ``_solve.c`` was edited since the build: strength.py falls back
    to the Python solver, and the quick core (which would ask the old C solver) gives
    statistics no facts, so every game is replayed by the engine."""
    assert quick.facts_available()
    monkeypatch.setattr(build, "solver", lambda beside="": None)
    assert not quick.facts_available()
    tally = Tally()
    path = str(SAMPLES / "2026-11-29-cafe-du-port-classic.truclog.jsonl")
    games = list(kept_games(path, GameFilter(), tally, set(), facts=True))
    assert games and not any(isinstance(game, GameTally) for game in games)


@pytest.mark.parametrize("module", [strength, answer], ids=["strength", "answer"])
def test_doctests_pass_on_the_python_solver(module: Any) -> None:
    with python_solver():
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 5 and result.failed == 0


# --- statistics with and without the C solver --------------------------------


def tables(items: Iterable[CheckedGame | GameTally | Diagnostic], narrow: bool) -> Tables:
    builder = TableBuilder(narrow=narrow)
    for item in items:
        if isinstance(item, CheckedGame | GameTally):
            builder.add(item)
    return builder.flush()


def all_tables(path: Path) -> list[Tables]:
    """The full tables of the engine's replay, and the narrow ones of the quick core's
    facts when it is built."""
    found = [tables(check_log(str(path)), narrow=False)]
    if quick.AVAILABLE:
        found.append(tables(quick.check_log(str(path), facts=True), narrow=True))
    return found


def assert_same_with_and_without_c(path: Path) -> Tables:
    with_c = all_tables(path)
    with python_solver():
        without = all_tables(path)
    for a, b in zip(with_c, without, strict=True):
        for name in ("games", "hands", "actions", "seats"):
            assert_frame_equal(getattr(a, name), getattr(b, name))
    return with_c[0]


@needs_solver
def test_the_sample_logs_count_the_same_without_the_c_solver() -> None:
    judged = 0
    for path in sorted(SAMPLES.glob("*.jsonl")):
        actions = assert_same_with_and_without_c(path).actions
        judged += actions.get_column("right").is_not_null().sum()
    assert judged > 0


@needs_solver
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_simulated_logs_count_the_same_without_the_c_solver(preset: str, tmp_path: Path) -> None:
    path = tmp_path / "simulated.truclog.jsonl"
    styles = {"Ana": STYLES["bluffer"], "Marc": STYLES["calling-station"]}
    simulate_to(
        Simulation(seed=7, rules=preset, players=("Ana", "Marc"), games=4, styles=styles),
        path,
    )
    actions = assert_same_with_and_without_c(path).actions
    for column in ("strength", "sound", "right"):
        assert actions.get_column(column).is_not_null().sum() > 3, column


# --- the quick core's strengths and reviews ----------------------------------


def core_table(rules: Rules, scores: tuple[int, int] = (0, 0)) -> tuple[Any, ...]:
    """The table the quick core plays a two-player game of ``rules`` on (see quick.table)."""
    played = core_rules(rules)
    assert played is not None
    return ((b"Ana", b"Marc"), (b"Ana", b"Marc"), 0, *scores, *played, False)


def python_strength(rules: Rules, hand: str, at_raise: tuple[Any, ...]) -> float | None:
    """strength.py's strength of a raise, as statistics ask it (None: impossible)."""
    mine, theirs, results, on_table, dealer = at_raise
    held = list(hand)
    try:
        for rank in mine:
            held.remove(rank)
        return strength.strength_of(rules, hand, "".join(held), theirs, results, on_table, dealer)
    except ValueError:
        return None


def python_review(
    rules: Rules, accepted: bool, stake: tuple[Any, ...], at_raise: tuple[Any, ...], hands: Any
) -> tuple[Any, ...]:
    """answer.py's review of an answer, as the columns of the ``actions`` table, then
    its best answers and what is at stake (as the review of decisions has them)."""
    mine, theirs, results, on_table, dealer = at_raise
    seen = answer.Position(
        theirs, mine, results.translate(TURNED), on_table is not None, not dealer
    )
    at_stake = answer.stakes(rules, *stake)
    review = answer.judge(rules, accepted, at_stake, seen, *hands)
    best = review.best if review.odds is not None else None
    return (*answer_columns(review), best, at_stake.gain + at_stake.to)


TURNED = str.maketrans("WL", "LW")


@st.composite
def raised(draw: st.DrawFn) -> tuple[Any, ...]:
    """A raise in a reachable position (from ``positions``, the raiser on turn), an
    answer to it and its stakes: scores near the target often, a reste sometimes; each
    side's dealt ranks, either side's unknown (None) now and then."""
    args, theirs_held, preset, dealer = draw(positions().filter(lambda p: p[0][7]))
    _, dealt, held, theirs, results, table, _, _ = args
    rules = PRESETS[preset]
    mine = dealt[: len(dealt) - len(held)]
    target = rules.target
    near = st.integers(max(target - 4, 0), target - 1)
    score = st.integers(0, target - 1) | near
    scores = (draw(score), draw(score))
    previous = draw(st.integers(1, 4))
    reste = rules.reste and draw(st.booleans())
    to = target - scores[0] if reste else draw(st.integers(previous + 1, previous + 6))
    answerer = theirs + theirs_held
    hands = (
        draw(st.sampled_from([answerer, answerer, None])),
        draw(st.sampled_from([dealt, dealt, None])),
    )
    at_raise = (mine, theirs, results, table, dealer)
    stake = (*scores, to, previous, reste)
    return rules, dealt, at_raise, draw(st.booleans()), stake, hands


@needs_core
@settings(max_examples=300, deadline=None)
@given(raised())
def test_the_core_gives_a_raise_the_strength_of_strength_py(question: tuple[Any, ...]) -> None:
    rules, dealt, at_raise, *_ = question
    found = _quick.strength(core_table(rules), dealt, at_raise)
    with python_solver():
        assert found == python_strength(rules, dealt, at_raise)
    assert found is not None and 0.0 <= found <= 1.0


@needs_core
@settings(max_examples=300, deadline=None)
@given(raised())
def test_the_core_reviews_an_answer_as_answer_py(question: tuple[Any, ...]) -> None:
    rules, _, at_raise, accepted, stake, hands = question
    found = _quick.review(core_table(rules), accepted, stake, at_raise, hands, True)
    with python_solver():
        assert found == python_review(rules, accepted, stake, at_raise, hands)
    assert found[:5] == _quick.review(core_table(rules), accepted, stake, at_raise, hands)
    assert (found[0] is None) == (hands[0] is None)
    assert (found[3] is None) == (None in hands) == (found[5] is None)


@needs_core
@settings(max_examples=500, deadline=None)
@given(loose_odds_arguments(), st.sampled_from(sorted(PRESETS)), st.booleans(), st.booleans())
def test_the_core_refuses_impossible_positions_as_python_does(
    args: tuple[Any, ...], preset: str, dealer: bool, accepted: bool
) -> None:
    # a dealt hand, the raiser's plays, the others', results and a card on the table
    # none of them held to the others: both give no strength, or the same
    _, hand, held, played, results, table, _, _ = args
    rules = PRESETS[preset]
    mine = held if len(held) <= len(hand) else hand
    if not all(rank.isascii() for rank in hand + mine + played + results + (table or "")):
        return
    table = table[:1] or None if table is not None else None
    at_raise = (mine, played, results, table, dealer)
    with python_solver():
        assert _quick.strength(core_table(rules), hand, at_raise) == python_strength(
            rules, hand, at_raise
        )
        hands = (hand, played + hand[len(played) :])
        stake = (3, 5, 4, 2, False)
        found = _quick.review(core_table(rules), accepted, stake, at_raise, hands, True)
        assert found == python_review(rules, accepted, stake, at_raise, hands)


@needs_core
@pytest.mark.parametrize(
    ("preset", "accepted", "review", "best"),
    [
        # reste_refused: previous. A fold concedes the 2 points before the reste: it
        # is worth -2, accepting -46/27 (sound to accept); face up accepting loses 3.
        ("classic", True, (-46 / 27, -2.0, True, False, 1), ("fold",)),
        ("classic", False, (-46 / 27, -2.0, False, True, 0), ("fold",)),
        # reste_refused: game. A fold concedes the game (9 + 3 = 12): -3, and face up
        # accepting loses 3 too: either answer is right.
        ("gamerules", True, (-46 / 27, -3.0, True, True, 0), ("accept", "fold")),
        ("gamerules", False, (-46 / 27, -3.0, False, True, 0), ("accept", "fold")),
    ],
)
def test_a_reste_on_the_last_trick_is_reviewed_by_hand(
    preset: str, accepted: bool, review: tuple[Any, ...], best: tuple[str, ...]
) -> None:
    # 7 > 8 > A > K > Q > J > 10 > 9 in both presets, game to 12. Marc (9 points) was
    # dealt 8 9 Q, Ana (10 points, the dealer) A K J. Marc's 8 took her A, her K his 9,
    # and she leads her J to the last trick: Marc asks the reste, 12 - 9 = 3 (the hand
    # was worth 2). His Q beats her J: the raise wins whatever she does (strength 1).
    # Answering, Ana sees 32 - 3 - 2 = 27 cards Marc may hold: she takes the trick
    # (and the hand) with the 10s and the 9s left (4 + 3 = 7); a tie gives the hand to
    # Marc, who took the first trick, as do the 17 above J (4 7s, 3 8s, 3 As, 3 Ks,
    # 4 Qs). Stakes: Marc wins 3 (to 12), Ana 2 (to 12), so accepting is worth
    # (7 * 2 - 20 * 3) / 27 = -46/27 to her.
    rules = PRESETS[preset]
    at_raise = ("89", "AKJ", "WL", "J", False)
    assert _quick.strength(core_table(rules), "8Q9", at_raise) == 1.0
    stake = (9, 10, 3, 2, True)
    assert answer.stakes(rules, 9, 10, 3, 2, True).gain == 2
    found = _quick.review(core_table(rules), accepted, stake, at_raise, ("AKJ", "8Q9"), True)
    # at stake: Marc's 3 (to 12) and Ana's 2
    assert found == (*review, best, 3 + 2)
    assert python_review(rules, accepted, stake, at_raise, ("AKJ", "8Q9")) == found


@needs_core
def test_stakes_past_the_core_go_to_python() -> None:
    table, at_raise = core_table(PRESETS["classic"]), ("", "", "", None, False)
    assert _quick.review(table, True, (0, 0, 2**40, 1, False), at_raise, ("AKQ", None))[0] > 0
    with pytest.raises(ValueError, match="goes to Python"):
        _quick.review(table, True, (0, 0, 2**40 + 1, 1, False), at_raise, ("AKQ", None))


# --- the quick core's review of plays -----------------------------------------


@st.composite
def plays(draw: st.DrawFn) -> tuple[Any, ...]:
    """A play in a reachable position of a two-player hand: the non-dealer leads the
    first trick, the winner of a trick the next (the leader again after a tie), and
    the hand is not decided yet. The scores before the hand (near the target often),
    the hand's value, a reste sometimes; either side's dealt ranks unknown (None) now
    and then."""
    preset = draw(st.sampled_from(sorted(PRESETS)))
    rules = PRESETS[preset]
    order = rules.order
    deck = draw(st.permutations([rank for rank in order for _ in range(4)]))
    dealt = ["".join(deck[:3]), "".join(deck[3:6])]
    held = [list(dealt[0]), list(dealt[1])]
    dealer = draw(st.integers(0, 1))
    leader, results, before = 1 - dealer, "", []  # results from seat 0's side
    for _ in range(draw(st.integers(0, 5))):
        if _decided(results):
            break
        seat = leader if len(before) % 2 == 0 else 1 - leader
        before.append((seat, held[seat].pop(draw(st.integers(0, len(held[seat]) - 1)))))
        if len(before) % 2 == 0:
            cards = dict(before[-2:])
            result = _beats(order, cards[0], cards[1])
            results += result
            leader = leader if result == "T" else 0 if result == "W" else 1
    assume(not _decided(results))
    seat = leader if len(before) % 2 == 0 else 1 - leader
    card = draw(st.sampled_from(held[seat]))
    target = rules.target
    score = st.integers(0, target - 1) | st.integers(max(target - 4, 0), target - 1)
    scores = (draw(score), draw(score))
    stake = (draw(st.integers(1, 6)), bool(rules.reste) and draw(st.booleans()))
    hands = (
        draw(st.sampled_from([dealt[seat], dealt[seat], None])),
        draw(st.sampled_from([dealt[1 - seat], dealt[1 - seat], None])),
    )
    return rules, dealer, scores, tuple(before), seat, card, stake, hands


def python_play(
    rules: Rules,
    dealer: int,
    scores: tuple[int, int],
    before: tuple[tuple[int, str], ...],
    seat: int,
    card: str,
    stake: tuple[int, bool],
    hands: tuple[str | None, str | None],
) -> tuple[bool | None, bool | None, int | None, tuple[str, ...] | None, int]:
    """play.py's sound, right, lost and best of the play, its position read from the
    plays, and what is at stake."""
    mine = "".join(rank for by, rank in before if by == seat)
    theirs = "".join(rank for by, rank in before if by != seat)
    results = ""
    for first, second in zip(before[::2], before[1::2], strict=False):
        ours, other = (first, second) if first[0] == seat else (second, first)
        results += _beats(rules.order, ours[1], other[1])
    seen = play.Seen(mine, theirs, results, len(before) % 2 == 1, seat == dealer)
    value, reste = stake
    worth = play.Worth(
        points_won(rules, scores[seat], value, reste),
        points_won(rules, scores[1 - seat], value, reste),
    )
    review = play.judge_play(rules, card, worth, seen, *hands)
    marks = play.play_marks(rules, card, worth, seen, *hands)
    assert marks == (review.sound, review.right, review.lost)
    return (*marks, review.best, worth.at_stake)


@needs_core
@settings(max_examples=300, deadline=None)
@given(plays())
def test_the_core_reviews_a_play_as_play_py(question: tuple[Any, ...]) -> None:
    rules, dealer, scores, before, seat, card, stake, hands = question
    table = core_table(rules, scores)
    table = (*table[:2], dealer, *table[3:])
    found = _quick.play(table, before, seat, card, stake, hands, True)
    with python_solver():
        play.judged_play.cache_clear()
        assert found == python_play(rules, dealer, scores, before, seat, card, stake, hands)
    play.judged_play.cache_clear()
    assert found[:3] == _quick.play(table, before, seat, card, stake, hands)
    assert (found[0] is None) == (hands[0] is None)
    assert (found[2] is None) == (None in hands) == (found[3] is None)
    assert found[2] is None or found[2] >= 0


@needs_core
def test_a_play_is_reviewed_by_hand() -> None:
    # classic: 7 > 8 > A > K > Q > J > 10 > 9; Marc (seat 1) dealt, 0-0, the hand
    # worth 2. Marc's 8 took Ana's 9 and he leads his K: her A takes it and keeps her
    # 7, which wins the last trick whatever he holds, so the A is sound; her 7 wins as
    # well face up (her A then takes his Q), so both are right, but the 7 is not sound.
    table = core_table(PRESETS["classic"])
    table = (*table[:2], 1, *table[3:])
    before = ((0, "9"), (1, "8"), (1, "K"))
    hands = ("7A9", "8KQ")
    assert _quick.play(table, before, 0, "A", (2, False), hands) == (True, True, 0)
    assert _quick.play(table, before, 0, "7", (2, False), hands) == (False, True, 0)
    # Ana's 9 led into his 8, K, Q is the only card that wins face up: her A or 7
    # first leaves his 8 a trick and his K or Q the last. Led by her A, the hand (worth
    # 1 from 0-0) goes to Marc: 2 points lost.
    assert _quick.play(table, (), 0, "9", (1, False), hands)[1:] == (True, 0)
    assert _quick.play(table, (), 0, "A", (1, False), hands)[1:] == (False, 2)
    assert _quick.play(table, (), 0, "A", (1, False), hands, True)[3:] == (("9",), 2)
    with pytest.raises(ValueError, match="goes to Python"):
        _quick.play(table, (), 0, "A", (2**37, False), hands)
