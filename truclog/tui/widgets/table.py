"""The card table of one moment of a game, drawn from an engine ``State``.

One row per seat (two or four), with who deals and who is to act, the cards
in hand, the card on the table and the tricks the seat's side has won; below,
each trick's result, the hand's value and any pending raise, and the score.

``reveal`` chooses what the hands show. Off, the table is seen as an onlooker
sees it: cards in hand face down, except those shown after the hand. On, every
card the log knows so far is face up, and ``later`` (player -> cards the log
reveals after this moment, by a play or a show) fills in the unseen ones in a
distinct style. ``seat`` shows the table from one player's chair: their own
cards face up (as the log ends up knowing them), the others as an onlooker
sees them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from truclog.engine.actions import Play, Show
from truclog.engine.cards import Card
from truclog.engine.state import Phase, State
from truclog.engine.trick import team_of
from truclog.tui.widgets.cards import card_label, card_text, cards_text

Later = Mapping[str, Sequence[Card]]


def take_matching(pool: list[Card], card: Card) -> bool:
    """Remove from ``pool`` a card ``card`` can be (same rank, suits not in conflict).

    >>> from truclog.engine.cards import Card
    >>> pool = [Card("Q"), Card("7", "h")]
    >>> take_matching(pool, Card("Q", "s")), pool
    (True, [Card('7', 'h')])
    >>> take_matching(pool, Card("7", "d"))
    False
    """
    for i, other in enumerate(pool):
        if other.matches(card):
            del pool[i]
            return True
    return False


def held_cards(
    state: State, player: str, reveal: bool, later: Sequence[Card] = ()
) -> tuple[list[Card | None], list[bool]]:
    """What to draw for a player's hand: cards (``None`` face down) and which are "later".

    >>> from truclog.engine.actions import Deal
    >>> from truclog.engine.cards import parse_card as c
    >>> s = State.new(["Ana", "Marc"], dealer="Marc")
    >>> s.push(Deal.of("Marc", {"Ana": [c("7h"), c("Q"), None]}))
    >>> held_cards(s, "Ana", reveal=False)
    ([None, None, None], [False, False, False])
    >>> held_cards(s, "Ana", reveal=True, later=[c("9s")])
    ([Card('7', 'h'), Card('Q', None), Card('9', 's')], [False, False, True])
    """
    known, unseen = state.known_cards(player)
    if not reveal:
        shown = [
            card
            for action in state.hand_actions
            if isinstance(action, Show) and action.player == player
            for card in action.cards
        ]
        faces = [card if take_matching(shown, card) else None for card in known]
        return [*faces, *([None] * unseen)], [False] * (len(known) + unseen)
    extra = list(later)[:unseen]
    cards: list[Card | None] = [*known, *extra, *([None] * (unseen - len(extra)))]
    flags = [False] * len(known) + [True] * len(extra) + [False] * (unseen - len(extra))
    return cards, flags


def _team_label(state: State, result: int | None) -> str:
    return "tied" if result is None else state.teams[result]


def tricks_board(state: State) -> Text:
    """Each trick of the hand: its cards in the order played and who won it.

    >>> from truclog.engine.actions import Deal, Play
    >>> from truclog.engine.cards import parse_card as c
    >>> s = State.new(["Ana", "Marc"], dealer="Marc")
    >>> s.push(Deal.of("Marc", {"Ana": [c("7h"), c("Q"), c("9s")]}))
    >>> s.push(Play("Ana", c("7h"))); s.push(Play("Marc", c("As")))
    >>> print(tricks_board(s).plain)
    Tricks  1 Ana 7♥ Marc A♠ → Ana
            2 …
    """
    text = Text("Tricks  ", style="bold")
    plays = [a for a in state.hand_actions if isinstance(a, Play)]
    size = len(state.players)
    for i in range(3):
        if i > len(state.results):
            break
        if i:
            text.append("\n        ")
        text.append(f"{i + 1} ", style="dim")
        cards = plays[i * size : (i + 1) * size]
        if not cards:
            text.append("…", style="dim")
            continue
        for play in cards:
            text.append(f"{play.player} ")
            text.append_text(card_text(play.card))
            text.append(" ")
        if i < len(state.results):
            result = state.results[i]
            text.append("→ ", style="dim")
            text.append(_team_label(state, result), style="italic" if result is None else "bold")
    return text


def value_text(state: State) -> Text:
    """The hand's value, with the pending raise and who must answer it."""
    text = Text("Value  ", style="bold")
    text.append(str(state.value), style="bold yellow")
    if state.reste_accepted:
        text.append("  (reste: the game rides on this hand)", style="yellow")
    pending = state.pending
    if pending is not None:
        raiser = state.players[pending.raiser]
        kind = f"reste ({pending.to})" if pending.reste else f"to {pending.to}"
        text.append(f"   {raiser} raises {kind}", style="bold magenta")
        text.append(f", {' or '.join(state.answerers)} to answer", style="magenta")
    return text


def score_text(state: State) -> Text:
    """The score of both sides and the target."""
    text = Text("Score  ", style="bold")
    for i, (team, points) in enumerate(state.score.items()):
        if i:
            text.append("  ·  ", style="dim")
        text.append(f"{team} ")
        text.append(str(points), style="bold")
    text.append(f"   (target {state.rules.target})", style="dim")
    return text


def heading_text(state: State) -> Text:
    """Which hand, who deals, under which rules, and how the hand ended."""
    if not state.hand_no:
        text = Text(f"Before the first deal · {state.dealer_name} deals", style="bold")
    else:
        text = Text(f"Hand {state.hand_no} · {state.dealer_name} deals", style="bold")
    text.append(f" · {state.rules.describe()}", style="dim")
    outcome = state.outcome
    if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER) and outcome is not None:
        if outcome.winner is None:
            text.append("   drawn hand", style="bold cyan")
        else:
            how = "by " + outcome.ending if outcome.ending != "fold" else "on a fold"
            text.append(f"   {outcome.winner} wins {outcome.points} {how}", style="bold green")
    if state.phase is Phase.REDEAL:
        text.append("   redeal granted", style="bold cyan")
    if state.winner is not None:
        text.append(f" · {state.winner} wins the game", style="bold green")
    return text


def seats_table(state: State, reveal: bool, later: Later, seat: str | None = None) -> Table:
    """One row per seat: marks, name (and side), hand, card on the table, tricks won."""
    table = Table(box=None, pad_edge=False, padding=(0, 1), expand=False)
    for name in ("", "player", "hand", "table", "tricks"):
        table.add_column(name, header_style="dim", no_wrap=True)
    on_table = dict(state.trick)
    previous = dict(state.last_trick) if not state.trick else {}
    won = [sum(1 for r in state.results if r == team) for team in (0, 1)]
    playing = state.phase is Phase.PLAY
    for chair, player in enumerate(state.players):
        marks = Text("▶" if playing and state.to_act == player else " ", style="bold yellow")
        marks.append("D" if chair == state.dealer else " ", style="bold cyan")
        label = Text(player, style="bold underline" if player == seat else "bold")
        if len(state.players) == 4:
            label.append(f" ({state.teams[team_of(chair)]})", style="dim")
        face_up = reveal or player == seat
        cards, flags = held_cards(state, player, face_up, later.get(player, ()) if face_up else ())
        hand = cards_text(cards, flags) if cards else Text("—", style="dim")
        if chair in on_table:
            table_card = card_text(on_table[chair])
        elif chair in previous:
            table_card = Text(card_label(previous[chair]), style="dim")
        else:
            table_card = Text("··", style="dim")
        table.add_row(marks, label, hand, table_card, str(won[team_of(chair)]))
    return table


def table_renderable(
    state: State, reveal: bool = False, later: Later | None = None, seat: str | None = None
) -> Group:
    """Everything the table view draws, as one Rich renderable."""
    parts: list[RenderableType] = [
        heading_text(state),
        seats_table(state, reveal, later or {}, seat),
        tricks_board(state),
        value_text(state),
        score_text(state),
    ]
    return Group(*parts)


class TableView(Static):
    """The card table for a ``State``; call :meth:`show` whenever the state changes."""

    DEFAULT_CSS = """
    TableView { height: auto; padding: 0 1; }
    """

    def show(
        self,
        state: State,
        reveal: bool = False,
        later: Later | None = None,
        seat: str | None = None,
    ) -> None:
        """Draws the table at ``state``: as an onlooker sees it, every known card face up
        when ``reveal`` (``later``: the cards the log shows after this moment), or from
        ``seat``'s chair."""
        self.update(table_renderable(state, reveal, later, seat))
