"""The recorder's entry line: a few keystrokes per event, read against the engine state.

Actions are typed in the engine's short notation (:mod:`truclog.engine.notation`:
``7h``, ``1``-``3``, ``r [N]``, ``rr``, ``a [NAME]``, ``f [NAME]``, ``x y|n``,
``d CARDS``, ``s NAME CARDS``); the entry line adds what asks the screen for more:

==================  ===============================================================
``d``               deal: a form for the cards you can see
``n text``          a note on the last line; ``m text`` a mark on it
``u``               undo; ``abandon``; ``new``; ``?`` help
``e``               edit the line picked in the log list; ``sheet`` the score sheet
==================  ===============================================================

>>> from truclog.engine.state import State
>>> s = State.new(["Ana", "Marc"], dealer="Marc")
>>> parse_command("d", s), parse_command("n Ana hesitates", s), parse_command("u", s)
(Request(kind='deal-form', text=''), Request(kind='note', text='Ana hesitates'), Request(kind='undo', text=''))
>>> deal = parse_command("d 7h Q 9s", s, me="Ana"); str(deal)
'Marc deals (Ana: 7h Q 9s)'
>>> s.push(deal); parse_command("zz", s)
Traceback (most recent call last):
...
truclog.engine.notation.NotationError: 'zz' is not an entry: type a card (7h, Q), 1-3, r [N], rr, a, f, x y|n, d, s, n, m, u (? for help)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from truclog.engine.actions import Accept, Action, Deal, Fold, Play, Raise, Redeal, Show
from truclog.engine.cards import Card
from truclog.engine.notation import NotationError, parse_action
from truclog.engine.state import Phase, State

HINT = "type a card (7h, Q), 1-3, r [N], rr, a, f, x y|n, d, s, n, m, u (? for help)"


CommandError = NotationError
"""An entry that cannot be read as an event (the engine's :class:`NotationError`)."""


@dataclass(frozen=True, slots=True)
class Request:
    """An entry that asks the screen for something other than an action."""

    kind: str  # "deal-form", "note", "mark", "undo", "abandon", "help", "new-game", "edit", "sheet"
    text: str = ""


Command = Action | Request

_REQUESTS = {
    "u": "undo",
    "undo": "undo",
    "abandon": "abandon",
    "new": "new-game",
    "e": "edit",
    "edit": "edit",
    "sheet": "sheet",
    "?": "help",
    "help": "help",
}


def parse_command(text: str, state: State, me: str | None = None) -> Command:
    """Read one entry; ``me`` is whose cards ``d 7h Q 9s`` gives (everyone's when None)."""
    words = text.split()
    if not words:
        raise CommandError(f"nothing entered: {HINT}")
    head, rest = words[0].lower(), words[1:]
    if head in _REQUESTS and not rest:
        return Request(_REQUESTS[head])
    if head in ("n", "note"):
        return Request("note", text.strip()[len(words[0]) :].strip())
    if head in ("m", "mark"):
        return Request("mark", text.strip()[len(words[0]) :].strip())
    if head in ("d", "deal") and not rest:
        return Request("deal-form")
    return parse_action(text, state, me=me, hint=HINT, entry="entry")  # the actions


def entry_keys(action: Action, players: Sequence[str]) -> str:
    """What to type to enter ``action`` again (an edit starts from it).

    >>> from truclog.engine.cards import parse_card as c
    >>> both = ["Ana", "Marc"]
    >>> [entry_keys(a, both) for a in (Raise("Ana", to=3), Raise("Ana", reste=True))]
    ['r 3', 'rr']
    >>> entry_keys(Deal.of("Marc", {"Ana": [c("7h"), c("Q"), None]}, hand=2), both)
    'd 7h Q ?? / ?? ?? ??'
    """
    if isinstance(action, Deal):
        hands = [" ".join(_dealt_text(card) for card in action.cards_of(p)) for p in players]
        return "d " + " / ".join(hands)
    if isinstance(action, Raise):
        return "rr" if action.reste else f"r {action.to}"
    if isinstance(action, (Accept, Fold)):
        return f"{'a' if isinstance(action, Accept) else 'f'} {action.player}"
    if isinstance(action, Redeal):
        return f"x {'y' if action.accepted else 'n'}"
    if isinstance(action, Show):
        return f"s {action.player} " + " ".join(str(card) for card in action.cards)
    assert isinstance(action, Play)
    return str(action.card)


def _dealt_text(card: Card | None) -> str:
    return "??" if card is None else str(card)


@dataclass(frozen=True, slots=True)
class Choice:
    """One line of the menu of legal entries: what to type, and what it records."""

    keys: str
    label: str
    action: Action | None = None  # None: the entry needs more (a raise amount, cards shown)


def legal_choices(state: State, me: str | None = None) -> list[Choice]:
    """The entries the engine allows now, for the menu (raises of any amount folded into one)."""
    legal = state.legal_actions()
    choices: list[Choice] = []
    answerers = [a.player for a in legal if isinstance(a, Accept)]
    span = state.raise_range()
    for action in legal:
        if isinstance(action, Deal):
            choices.append(Choice("d", f"{action.dealer} deals hand {action.hand}"))
        elif isinstance(action, Redeal):
            flag = "y" if action.accepted else "n"
            choices.append(Choice(f"x {flag}", str(action), action))
        elif isinstance(action, (Accept, Fold)):
            verb = "a" if isinstance(action, Accept) else "f"
            alone = not answerers or action.player == state.to_act
            keys = verb if alone else f"{verb} {action.player}"
            choices.append(Choice(keys, str(action), action))
        elif isinstance(action, Raise) and action.reste:
            to = state.remainder(action.player)
            choices.append(Choice("rr", f"{action.player} raises: reste (to {to})", action))
        elif isinstance(action, Play):
            choices.append(Choice(str(action.card), str(action), action))
    if span is not None:
        first = Raise(span.player, to=span.low)
        choices.append(Choice("r", f"{first.player} raises to {first.to}", first))
        if span.listed > span.low:
            label = f"{first.player} raises to N ({span.words(span.low + 1)})"
            choices.append(Choice("r N", label))
    if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER) and state.hand_no:
        choices.append(Choice("s NAME CARDS", "a player shows the cards still held"))
    return sorted(choices, key=_menu_order)


def _menu_order(choice: Choice) -> int:
    order = (Deal, Redeal, Accept, Fold, Raise, Play)
    action = choice.action
    if action is None:
        return 4 if choice.keys.startswith("r") else 0 if choice.keys == "d" else 9
    return next(i for i, kind in enumerate(order) if isinstance(action, kind))
