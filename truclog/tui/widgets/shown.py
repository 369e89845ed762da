"""Text from logs drawn, never obeyed: the apps' one line filter.

Every line either app draws passes through :class:`Shown` (Textual's line filters see
every widget's lines), so a player's name, a game's id, a note or a tag that holds
an escape sequence (an OSC 52 that writes the clipboard, a clear-screen) is drawn
with its control characters written out, as ``truclog validate`` prints them
(:func:`~truclog.terminal.printable`). A line keeps its width: what the escapes add
is cut at its end.
"""

from __future__ import annotations

from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

from truclog.terminal import printable


class Shown(LineFilter):
    """Each segment's text made printable; the line cut back to its width."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        """The segments with control characters shown printably, the line kept at its width."""
        if all(segment.control or printable(segment.text) == segment.text for segment in segments):
            return segments
        width = Segment.get_line_length(segments)
        shown = [
            segment if segment.control else Segment(printable(segment.text), segment.style)
            for segment in segments
        ]
        return Segment.adjust_line_length(shown, width)


SHOWN = Shown()
"""The filter both apps add to Textual's (one instance: strips cache by filter)."""
