"""The help screen and the "go to hand" prompt."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from truclog.tui.widgets import HelpPage

HELP = """\
# truclog browse

Read hand histories: every game of the logs, the hands of a game, a replay of
a hand event by event, hands found by event, and the players' statistics. The
mouse works too: click a row to move to it, click it again (or press enter) to
open it, click a column header to sort. `home` / `end` go to the first / last
row of every list.

| where | key | does |
|---|---|---|
| everywhere | `?` / `f1` | this help |
| | `ctrl+p` | command palette: games, players, leaks, diagnostics, go to hand… |
| | `escape` | back |
| | `q` | quit |
| games | `enter` | the game's hands |
| | `/` | filter by id or player (`escape` clears) |
| | `s` / `r` | sort by the next column (marked ▲ or ▼) / reverse |
| | `f` | find hands by player, event, mark or words of a note |
| | `d` / `D` | this game's diagnostics / every diagnostic |
| | `p` | players |
| | `m` | the costliest decisions of a player (the logs reviewed once, `x` stops) |
| hands | `enter` | replay the hand |
| | `g` | go to hand N |
| | `d` | the game's diagnostics |
| | `s` / `l` | sort by the points lost (most first) or not / only the hands that lost points or all |
| replay | `→` `↓` `l` / `←` `↑` `h` | one event forward / back (or click an event) |
| | `home` / `end` | start / end of the hand |
| | `r` | next raise |
| | `n` `pgdn` / `p` `pgup` | next / previous hand |
| | `g` | go to hand N |
| | `v` | view: what an onlooker knew → each player's seat → every card the log reveals |
| | `c` | copy the hand as text (as `truclog show` prints it) |
| | `a` | your note and marks on the event (kept in the log's notes file, never in the log) |
| | `w` | show / hide the analysis graph: the hand's worth after each decision |
| | `s` | share the hand: its replay as one HTML file (from the seat shown), beside the log or where you say |
| | `i` | show or hide each player's fold and bluff rates over the hands before this one |
| players | `enter` | the hands behind the number under the cursor (on `given`: the costliest answers) |
| | `a` | the player's costliest answers: enter replays the hand at one |
| | `l` | the player's leaks (also from the command palette, for any player) |
| leaks | `+` / `-` | count among the winning players only those with twice / half as many hands |
| mistakes | `enter` | replay the hand at the decision |
| | `d` | drill: retry the decisions from the player's seat (`n` next) |
| | `x` | stop the review |
| find hands | `enter` | replay the hand |
| diagnostics | `enter` | replay the hand at the event |

Replay marks: `▶` to act, `D` dealer, `▒▒` a card face down, *slanted* cards
are revealed later by the log; beside a raise, its strength (`✗ bluff` below
the threshold); beside an answer to a raise, `sound` or `unsound` from the
answerer's cards and `right` or `wrong: gave N` in hindsight (the worths under the
table). Beside each card played and answer: its grade, `✓` best, `?!` inaccuracy,
`?` mistake, `??` blunder, with `−N` the points it lost both hands face up. Hand
marks: `R` raise, `F` fold, `!` reste, `D` redeal asked, `E` an error or lines skipped by the validator. Notes: `✎`
beside an event with a note, `#bluff?` its marks.
"""


class BrowseHelpScreen(HelpPage):
    """Every key of every screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "dismiss", "Close", id="help.toggle")
    ]
    TEXT = HELP


class GoToHandScreen(ModalScreen[int | None]):
    """Ask for a hand number; dismissed with the number, or ``None`` when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="goto.cancel")
    ]

    def __init__(self, count: int) -> None:
        super().__init__()
        self.count = count

    def compose(self) -> ComposeResult:
        with Vertical(id="goto-box"):
            yield Label(f"Go to hand (1 to {self.count}):")
            yield Input(type="integer", id="goto-input")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Closes with the hand number typed, or None when it is blank."""
        self.dismiss(int(event.value) if event.value.strip() else None)

    def action_cancel(self) -> None:
        self.dismiss(None)
