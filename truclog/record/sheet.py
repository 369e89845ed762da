"""The score sheet of a game: one row per hand, as the engine decided it, printable as text.

Each row gives the hand, its dealer, the raises (who raised, to what, and any
redeal granted), how it ended, who scored, the points and the running score.

>>> from truclog.engine.actions import Accept, Deal, Fold, Play, Raise
>>> from truclog.engine.cards import parse_card
>>> s = State.new(["Ana", "Marc"], dealer="Marc")
>>> for action in (Deal.of("Marc", hand=1), Raise("Ana", to=2), Accept("Marc"),
...                Play("Ana", parse_card("7h")), Raise("Marc", to=3), Fold("Ana"),
...                Deal.of("Ana", hand=2)):
...     s.push(action)
>>> print(sheet_text(s))
Ana · Marc, classic to 12
hand  dealer  raises        ended  scored  points  Ana  Marc
   1  Marc    Ana 2, Marc 3 fold   Marc         2    0     2
   2  Ana                   —
Hand 2 in play: Ana 0, Marc 2.
"""

from __future__ import annotations

from dataclasses import dataclass

from truclog.diagnostic import score_words
from truclog.engine.actions import Deal, Raise, Redeal
from truclog.engine.state import Phase, State


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One hand of the sheet; ``ending`` and what follows are empty for a hand in play."""

    hand: int
    dealer: str
    raises: str
    ending: str = ""
    scored: str = ""
    points: int | None = None
    score: tuple[int, ...] = ()


def sheet_rows(state: State) -> list[SheetRow]:
    """The rows of a game's hands, from the actions it went through."""
    dealers: dict[int, str] = {}
    raises: dict[int, list[str]] = {}
    hand = 0
    for action in state.history:
        if isinstance(action, Deal):
            hand = action.hand or hand + 1
            dealers[hand] = action.dealer
            raises.setdefault(hand, [])
        elif isinstance(action, Raise):
            raises[hand].append(f"{action.player} {'reste' if action.reste else action.to}")
        elif isinstance(action, Redeal) and action.accepted:
            raises[hand].append("redeal")
    outcomes = {outcome.hand: outcome for outcome in state.outcomes}
    rows = []
    for number, dealer in dealers.items():
        told = ", ".join(raises[number])
        outcome = outcomes.get(number)
        if outcome is None:
            rows.append(SheetRow(number, dealer, told))
            continue
        scored = outcome.winner or "(drawn)"
        score = tuple(outcome.score[team] for team in state.teams)
        rows.append(SheetRow(number, dealer, told, outcome.ending, scored, outcome.points, score))
    return rows


def sheet_text(state: State) -> str:
    """The sheet as plain text, with the game's standing on its last line."""
    rows = sheet_rows(state)
    teams = list(state.teams)
    wide = max([len("raises"), *(len(row.raises) for row in rows)])
    who = max([len("scored"), *(len(row.scored) for row in rows)])
    widths = [max(len(team), 3) for team in teams]
    head = f"hand  dealer  {'raises':<{wide}} ended  {'scored':<{who}}  points  "
    lines = [
        f"{' · '.join(state.players)}, {state.rules.describe()} to {state.rules.target}",
        (head + "  ".join(f"{t:>{w}}" for t, w in zip(teams, widths, strict=True))).rstrip(),
    ]
    dealer = max([len("dealer"), *(len(row.dealer) for row in rows)])
    for row in rows:
        line = f"{row.hand:>4}  {row.dealer:<{dealer}}  {row.raises:<{wide}} "
        if row.points is None:
            lines.append((line + "—").rstrip())
            continue
        line += f"{row.ending:<6} {row.scored:<{who}}  {row.points:>6}  "
        lines.append(line + "  ".join(f"{p:>{w}}" for p, w in zip(row.score, widths, strict=True)))
    lines.append(_standing(state))
    return "\n".join(lines)


def _standing(state: State) -> str:
    score = score_words(state.score)
    if state.phase is Phase.GAME_OVER:
        return f"{state.winner} wins the game: {score}."
    if state.phase is Phase.PLAY or state.phase is Phase.REDEAL:
        return f"Hand {state.hand_no} in play: {score}."
    return f"After {state.hand_no} hand(s): {score}."
