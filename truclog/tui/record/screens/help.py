"""The recorder's help: the entries and the keys."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from truclog.tui.widgets import HelpPage

HELP = """\
# Recording a game

Type an entry in the line at the bottom and press **Enter**. The engine checks
it: a legal entry is written to the log (flushed to disk) before it appears in
the list on the right; an impossible one is refused with the reason. The menu
above the entry line lists what is legal now: the arrows go there from the
entry line; pick one with Enter, or click or tap it (Escape goes back).

| entry | records |
|---|---|
| `7h`, `Q`, `p 7h` | the player on turn plays the card (rank, suit optional) |
| `1` `2` `3` | the player on turn plays their first, second, third known card |
| `r`, `r 4` | raise to the smallest legal value, or to 4 |
| `rr` | reste: raise to the raiser's remainder |
| `a`, `a Zoé` | accept the pending raise (name who answers, four players); with no raise pending, `a` is the ace |
| `f`, `f Zoé` | fold to the raise (or give up the hand where the rules allow) |
| `x y`, `x n` | the non-dealer asks for a redeal; granted (`y`) or refused (`n`) |
| `d` | the next deal: a form for the cards you can see |
| `d 7h Q 9s` | the deal, with your cards (everyone's in seating order: `7h Q 9s / As K ??`) |
| `s Marc K J` | after the hand, the cards a player shows (also once the game is over) |
| `n text` | a note on the last line of the log |
| `m bluff?` | a mark on the last entry (again: off); the buttons below the log do it in one tap |
| `u` | undo the last entry (its result line goes too) |
| `abandon` | end the game before anyone reached the target |
| `new` | start another game in the same log, once this one is over |
| `e` | edit the line picked in the log list (the rest of the game is checked again) |
| `sheet` | the score sheet: hands, dealers, raises, points, running score |

The `result` line is written by itself when a hand is decided, `game_end`
when someone reaches the target, and the next game of a rubber starts by
itself. Undo rewrites the log atomically and keeps what it removes in
`<log>.undone`.

| key | does |
|---|---|
| ctrl+z | undo |
| ctrl+n | note on the line selected in the log list (the last line from the entry line) |
| ctrl+k | mark the line selected in the log list (the last entry from the entry line) |
| ctrl+e | edit the line selected in the log list (the last entry from the entry line) |
| f6 | score sheet |
| f7 | share this hand: its replay as one HTML file, beside the log or where you say |
| f2 | deal form |
| f8 | abandon the game |
| f1 | this help |
| ctrl+p | command palette |
| ctrl+q | quit (everything shown is already on disk) |
"""


class RecordHelpScreen(HelpPage):
    """The entries and the keys of the recorder."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("f1", "dismiss", "Close", id="help.toggle")]
    TEXT = HELP
    BOX_CLASSES = "dialog help"
