"""The short notation of actions that the recorder's entry line and the tests read.

==================  ===============================================================
``7h``, ``Q``       play a card (rank, suit optional) for the player on turn
``1`` ``2`` ``3``   play the first, second, third known card of the player on turn
``p 7h``            play, spelled out (``play 7h``)
``r``, ``r 4``      raise to the smallest legal value, or to 4 (``raise 4``)
``rr``              reste: raise to the remainder (``reste``, ``raise reste``)
``a``, ``a Zoé``    accept the pending raise (who answers may be named, four players);
                    with no raise pending, ``a`` or ``A`` is the ace (``accept``)
``f``, ``f Zoé``    fold (to the raise; or give up the hand where the rules allow) (``fold``)
``x y``, ``x n``    redeal asked by the non-dealer, granted (``y``) or refused (``n``)
                    (``redeal yes``, ``redeal no``)
``d 7h Q 9s``       deal: the cards of ``me`` (or of the first player), ``d 7h Q 9s / As ?? ??``
                    everyone's in seating order (``deal ...``)
``s Marc K J``      cards a player shows after the hand (``show Marc K J``)
==================  ===============================================================

The engine decides who acts (the player on turn, the answerer, the player who may
ask for a redeal); ``player`` names someone else, as a log may (the engine then
says whether that is legal).

>>> from truclog.engine.state import State
>>> from truclog.engine.actions import Deal
>>> from truclog.engine.cards import parse_card as c
>>> s = State.new(["Ana", "Marc"], dealer="Marc")
>>> s.push(Deal.of("Marc", {"Ana": [c("7h"), c("Q"), c("9s")]}, hand=1))
>>> [str(parse_action(text, s)) for text in ("2", "r", "raise 5", "rr", "play 9")]
['Ana plays Q', 'Ana raises to 2', 'Ana raises to 5', 'Ana raises: reste', 'Ana plays 9']
>>> str(parse_action("7h", s, player="Marc"))
'Marc plays 7h'
>>> parse_action("zz", s)
Traceback (most recent call last):
...
truclog.engine.notation.NotationError: 'zz' is not an action: type a card (7h, Q), 1-3, r [N], rr, a, f, x y|n, d CARDS, s NAME CARDS
"""

from __future__ import annotations

from collections.abc import Sequence

from truclog.codes import Tool
from truclog.engine.actions import Accept, Action, Deal, Fold, Play, Raise, Redeal, Show
from truclog.engine.cards import Card, parse_card, parse_dealt
from truclog.engine.state import Phase, State
from truclog.errors import CardError, TruclogError

HINT = "type a card (7h, Q), 1-3, r [N], rr, a, f, x y|n, d CARDS, s NAME CARDS"
"""What the notation accepts, in a few words, for messages."""

_YES = {"y", "yes", "o", "oui", "1", "granted", "true"}
_NO = {"n", "no", "non", "0", "refused", "false"}


class NotationError(TruclogError):
    """Text that cannot be read as an action."""

    code = Tool.COMMAND


def parse_action(
    text: str,
    state: State,
    *,
    me: str | None = None,
    player: str | None = None,
    hint: str = HINT,
    entry: str = "action",
) -> Action:
    """The action ``text`` stands for in ``state``, in the short notation above.

    ``me``: whose cards ``d 7h Q 9s`` gives (everyone's, in seating order, when None);
    ``player``: who acts, rather than whom the engine expects (not checked here: the
    engine says whether it is legal). ``hint`` and ``entry`` word the messages
    (``'zz' is not an action: ...``). Raises :class:`NotationError`.
    """
    words = text.split()
    if not words:
        raise NotationError(f"nothing entered: {hint}")
    head, rest = words[0].lower(), words[1:]
    if head in ("d", "deal") and rest:
        return _deal(rest, state, me)
    if head in ("r", "raise") and rest != ["reste"]:
        return _raise(rest, state, player)
    if head in ("rr", "reste", "r", "raise"):
        return Raise(player or _on_turn(state), reste=True)
    if head == "a" and not rest and state.pending is None and state.phase is Phase.PLAY:
        return _play("A", state, text, hint, entry, player)  # nothing to accept: the ace
    if head in ("a", "accept", "f", "fold"):
        return _answer(head[0], rest, state, player)
    if head in ("x", "redeal"):
        return _redeal(rest, state, player)
    if head in ("s", "show"):
        return _show(rest if player is None else [player, *rest], state, player is not None)
    if head in ("p", "play") and len(rest) == 1:
        head = rest[0]
    elif rest:
        raise NotationError(f"'{text.strip()}' is not an {entry}: {hint}")
    return _play(head, state, text, hint, entry, player)


def _on_turn(state: State) -> str:
    if state.phase is not Phase.PLAY:
        raise NotationError(_no_hand(state))
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
    raise NotationError(f"{name!r} is not a player of this game ({', '.join(state.players)})")


def _play(word: str, state: State, text: str, hint: str, entry: str, player: str | None) -> Play:
    player = player or _on_turn(state)
    if word in ("1", "2", "3"):
        known, _ = state.known_cards(player)
        index = int(word) - 1
        if index >= len(known):
            raise NotationError(f"{player} has {len(known)} known card(s): no card {word}")
        return Play(player, known[index])
    try:
        return Play(player, parse_card(word))
    except CardError:
        raise NotationError(f"'{text.strip()}' is not an {entry}: {hint}") from None


def _raise(rest: Sequence[str], state: State, player: str | None) -> Raise:
    player = player or _on_turn(state)
    if not rest:
        span = state.raise_range(player)
        if span is None:
            raise NotationError(f"{player} cannot raise now" + _why(state, Raise(player, to=0)))
        return Raise(player, to=span.low)
    if len(rest) == 1 and rest[0].removeprefix("-").isdigit():  # the engine judges the value
        return Raise(player, to=int(rest[0]))
    raise NotationError("a raise is r (the smallest raise), r N (to N) or rr (reste)")


def _why(state: State, action: Action) -> str:
    try:
        state.check(action)
    except TruclogError as exc:
        return f": {exc}"
    return ""


def _answer(kind: str, rest: Sequence[str], state: State, player: str | None) -> Accept | Fold:
    if player is not None and not rest:
        return Accept(player) if kind == "a" else Fold(player)
    if len(rest) > 1:
        raise NotationError("name at most one player: a Zoé, f Zoé")
    if state.phase is not Phase.PLAY:
        raise NotationError(_no_hand(state))
    player = _player(rest[0], state) if rest else state.to_act
    assert player is not None
    return Accept(player) if kind == "a" else Fold(player)


def _redeal(rest: Sequence[str], state: State, player: str | None) -> Redeal:
    if player is None and state.phase is not Phase.PLAY:
        raise NotationError(_no_hand(state))
    asker = player or state.redeal_asker
    answer = rest[0].lower() if len(rest) == 1 else ""
    if answer in _YES:
        return Redeal(asker, True)
    if answer in _NO:
        return Redeal(asker, False)
    raise NotationError(
        f"a redeal needs {state.dealer_name}'s answer: x y (granted) or x n (refused)"
    )


def _show(rest: Sequence[str], state: State, named: bool = False) -> Show:
    if len(rest) < 2:
        raise NotationError("show is s NAME CARDS, e.g. s Marc K J")
    player = rest[0] if named else _player(rest[0], state)
    try:
        return Show(player, tuple(parse_card(word) for word in rest[1:]))
    except CardError as exc:
        raise NotationError(str(exc)) from None


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
            raise NotationError(f"{player} is dealt 3 cards, not {len(words)}")
        try:
            held = [parse_dealt(word) for word in words]
        except CardError as exc:
            raise NotationError(f"{player}'s cards: {exc}") from None
        cards[player] = held + [None] * (3 - len(held))
    return cards


def _deal(rest: Sequence[str], state: State, me: str | None) -> Deal:
    groups = " ".join(rest).split("/")
    if me is not None and len(groups) == 1:
        players: Sequence[str] = [me]
    else:
        players = state.players
    if len(groups) > len(players):
        raise NotationError(f"cards for {len(groups)} players, but there are {len(players)}")
    return deal_for(state, deal_cards(groups, players))


def deal_for(state: State, cards: dict[str, list[Card | None]]) -> Deal:
    """The deal due now (same dealer after a granted redeal) with these cards."""
    legal = [a for a in state.legal_actions() if isinstance(a, Deal)]
    if not legal:
        raise NotationError(
            "no deal is due: "
            + ("the game is over" if state.phase is Phase.GAME_OVER else "a hand is in progress")
        )
    return Deal.of(legal[0].dealer, cards, hand=legal[0].hand)
