"""The footer of keys, composed again only when its keys change.

Textual's :class:`~textual.widgets.Footer` builds its keys again whenever the
screen's bindings may have changed (the screen shown, each move of the focus),
and styling a footer's keys costs about as much as the rest of a small screen:
opening a screen paid for it three or four times. Each key is also born compact and
made as wide as the footer once mounted, each change styling it again: here it is born
as wide as the footer.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


def shown_keys(screen: Screen[Any]) -> tuple[tuple[str, str, str, bool, str], ...]:
    """The keys a footer of ``screen`` shows: key, description, action, enabled, tooltip."""
    return tuple(
        (binding.key, binding.description, binding.action, enabled, tooltip)
        for _, binding, enabled, tooltip in screen.active_bindings.values()
        if binding.show
    )


class KeysFooter(Footer):
    """A footer that builds its keys again only when the keys to show differ."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.keys: tuple[tuple[str, str, str, bool, str], ...] | None = None

    def compose(self) -> ComposeResult:
        """The footer's keys, each as compact as the footer from the start (but the command
        palette's, which Textual keeps compact whatever the footer)."""
        for widget in super().compose():
            if isinstance(widget, FooterKey) and not widget.has_class("-command-palette"):
                widget.set_reactive(FooterKey.compact, self.compact)
            yield widget

    def bindings_changed(self, screen: Screen[Any]) -> None:
        """Rebuilds the footer only when the keys it would show have changed (stepping through a
        replay leaves them alone)."""
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            keys = shown_keys(screen)
            if keys == self.keys:
                return
            self.keys = keys
        super().bindings_changed(screen)
