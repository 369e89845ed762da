"""The recorder's entry line: a few keystrokes per event, read against the engine state.

==================  ===============================================================
``7h``, ``Q``       play a card (rank, suit optional) for the player on turn
``1`` ``2`` ``3``   play the first, second, third known card of the player on turn
``r``, ``r 4``      raise to the smallest legal value, or to 4
``rr``              reste: raise to the remainder
``a``, ``a Zoé``    accept the pending raise (who answers may be named, four players);
                    with no raise pending, ``a`` or ``A`` is the ace
``f``, ``f Zoé``    fold (to the raise; or give up the hand where the rules allow)
``x y``, ``x n``    redeal asked by the non-dealer, granted (``y``) or refused (``n``)
``d``               deal: a form for the cards you can see; ``d 7h Q 9s`` gives yours,
                    ``d 7h Q 9s / As ?? ??`` everyone's in seating order
``s Marc K J``      cards a player shows after the hand
``n text``          a note on the last line; ``u`` undo; ``abandon``; ``new``; ``?`` help
``e``               edit the line picked in the log list; ``sheet`` the score sheet
==================  ===============================================================

>>> from truclog.engine.state import State
>>> from truclog.engine.actions import Deal
>>> from truclog.engine.cards import parse_card as c
>>> s = State.new(["Ana", "Marc"], dealer="Marc")
>>> s.push(Deal.of("Marc", {"Ana": [c("7h"), c("Q"), c("9s")]}, hand=1))
>>> [str(parse_command(text, s)) for text in ("2", "r", "r 5", "rr", "9")]
['Ana plays Q', 'Ana raises to 2', 'Ana raises to 5', 'Ana raises: reste', 'Ana plays 9']
>>> parse_command("zz", s)
Traceback (most recent call last):
...
truclog.tui.record.commands.CommandError: 'zz' is not an entry: type a card (7h, Q), 1-3, r [N], rr, a, f, x y|n, d, s, n, u (? for help)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from truclog.codes import Tool
from truclog.engine.actions import Accept, Action, Deal, Fold, Play, Raise, Redeal, Show
from truclog.engine.cards import Card, parse_card, parse_dealt
from truclog.engine.state import Phase, State
from truclog.errors import CardError, TruclogError

HINT = "type a card (7h, Q), 1-3, r [N], rr, a, f, x y|n, d, s, n, m, u (? for help)"


class CommandError(TruclogError):
    """An entry that cannot be read as an event."""

    code = Tool.COMMAND


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
_YES = {"y", "yes", "o", "oui", "1", "granted", "true"}
_NO = {"n", "no", "non", "0", "refused", "false"}


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
    if head in ("d", "deal"):
        return _deal(rest, state, me) if rest else Request("deal-form")
    if head in ("r", "raise"):
        return _raise(rest, state)
    if head in ("rr", "reste"):
        return Raise(_on_turn(state), reste=True)
    if head == "a" and not rest and state.pending is None and state.phase is Phase.PLAY:
        return _play("A", state, text)  # nothing to accept: the ace
    if head in ("a", "accept", "f", "fold"):
        return _answer(head[0], rest, state)
    if head in ("x", "redeal"):
        return _redeal(rest, state)
    if head in ("s", "show"):
        return _show(rest, state)
    if head in ("p", "play") and len(rest) == 1:
        head = rest[0]
    elif rest:
        raise CommandError(f"'{text.strip()}' is not an entry: {HINT}")
    return _play(head, state, text)


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


def _on_turn(state: State) -> str:
    if state.phase is not Phase.PLAY:
        raise CommandError(_no_hand(state))
    return state.players[state.turn]


def _no_hand(state: State) -> str:
    if state.phase is Phase.GAME_OVER:
        return "the game is over"
    return f"no hand is in progress: {state.to_act} must deal (d)"


def _player(name: str, state: State) -> str:
    for player in state.players:
        if player.lower() == name.lower():
            return player
    matches = [p for p in state.players if p.lower().startswith(name.lower())]
    if len(matches) == 1:
        return matches[0]
    raise CommandError(f"{name!r} is not a player of this game ({', '.join(state.players)})")


def _play(word: str, state: State, text: str) -> Play:
    player = _on_turn(state)
    if word in ("1", "2", "3"):
        known, _ = state.known_cards(player)
        index = int(word) - 1
        if index >= len(known):
            raise CommandError(f"{player} has {len(known)} known card(s): no card {word}")
        return Play(player, known[index])
    try:
        return Play(player, parse_card(word))
    except CardError:
        raise CommandError(f"'{text.strip()}' is not an entry: {HINT}") from None


def _raise(rest: Sequence[str], state: State) -> Raise:
    player = _on_turn(state)
    if not rest:
        legal = [a for a in state.legal_actions() if isinstance(a, Raise) and not a.reste]
        if not legal:
            raise CommandError(f"{player} cannot raise now" + _why(state, Raise(player, to=0)))
        return legal[0]
    if len(rest) == 1 and rest[0].isdigit():
        return Raise(player, to=int(rest[0]))
    raise CommandError("a raise is r (the smallest raise), r N (to N) or rr (reste)")


def _why(state: State, action: Action) -> str:
    try:
        state.check(action)
    except TruclogError as exc:
        return f": {exc}"
    return ""


def _answer(kind: str, rest: Sequence[str], state: State) -> Accept | Fold:
    if len(rest) > 1:
        raise CommandError("name at most one player: a Zoé, f Zoé")
    if state.phase is not Phase.PLAY:
        raise CommandError(_no_hand(state))
    player = _player(rest[0], state) if rest else state.to_act
    assert player is not None
    return Accept(player) if kind == "a" else Fold(player)


def _redeal(rest: Sequence[str], state: State) -> Redeal:
    if state.phase is not Phase.PLAY:
        raise CommandError(_no_hand(state))
    asker = state.redeal_asker
    answer = rest[0].lower() if len(rest) == 1 else ""
    if answer in _YES:
        return Redeal(asker, True)
    if answer in _NO:
        return Redeal(asker, False)
    raise CommandError(
        f"a redeal needs {state.dealer_name}'s answer: x y (granted) or x n (refused)"
    )


def _show(rest: Sequence[str], state: State) -> Show:
    if len(rest) < 2:
        raise CommandError("show is s NAME CARDS, e.g. s Marc K J")
    player = _player(rest[0], state)
    try:
        return Show(player, tuple(parse_card(word) for word in rest[1:]))
    except CardError as exc:
        raise CommandError(str(exc)) from None


def deal_cards(groups: Sequence[str], players: Sequence[str]) -> dict[str, list[Card | None]]:
    """Cards per player from one text per player (``"7h Q ??"``; blank = unseen).

    >>> deal_cards(["7h q ??", ""], ["Ana", "Marc"])
    {'Ana': [Card('7', 'h'), Card('Q', None), None]}
    """
    cards: dict[str, list[Card | None]] = {}
    for player, text in zip(players, groups, strict=False):
        words = text.split()
        if not words:
            continue
        if len(words) > 3:
            raise CommandError(f"{player} is dealt 3 cards, not {len(words)}")
        try:
            held = [parse_dealt(word) for word in words]
        except CardError as exc:
            raise CommandError(f"{player}'s cards: {exc}") from None
        cards[player] = held + [None] * (3 - len(held))
    return cards


def _deal(rest: Sequence[str], state: State, me: str | None) -> Deal:
    groups = " ".join(rest).split("/")
    if me is not None and len(groups) == 1:
        players: Sequence[str] = [me]
    else:
        players = state.players
    if len(groups) > len(players):
        raise CommandError(f"cards for {len(groups)} players, but there are {len(players)}")
    return deal_for(state, deal_cards(groups, players))


def deal_for(state: State, cards: dict[str, list[Card | None]]) -> Deal:
    """The deal due now (same dealer after a granted redeal) with these cards."""
    legal = [a for a in state.legal_actions() if isinstance(a, Deal)]
    if not legal:
        raise CommandError(
            "no deal is due: "
            + ("the game is over" if state.phase is Phase.GAME_OVER else "a hand is in progress")
        )
    return Deal.of(legal[0].dealer, cards, hand=legal[0].hand)


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
    raises = [a for a in legal if isinstance(a, Raise) and not a.reste]
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
    if raises:
        first = raises[0]
        choices.append(Choice("r", f"{first.player} raises to {first.to}", first))
        if len(raises) > 1:
            top = raises[-1].to
            more = "" if state.rules.max_value or state.rules.cap_at_target else " or more"
            label = f"{first.player} raises to N ({raises[1].to} to {top}{more})"
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
