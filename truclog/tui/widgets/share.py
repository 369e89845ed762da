"""Share this hand, from either app: ask where its replay page goes (beside the log by
default), write it in a worker thread, and say where it went.

The page is the one ``truclog share --game ID --hand N [--seat PLAYER]`` writes
(:func:`truclog.share.page.share_file`): one HTML file, whole or not at all.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from truclog.errors import TruclogError
from truclog.replay import Game


class SharePrompt(ModalScreen[Path | None]):
    """Where to write the page: Enter writes it there, Escape gives up."""

    DEFAULT_CSS = """
    SharePrompt { align: center middle; }
    SharePrompt > Vertical {
        width: 90%; max-width: 100; height: auto; padding: 1 2;
        border: thick $accent; background: $surface;
    }
    SharePrompt .share-help { color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="share.cancel")
    ]

    def __init__(self, what: str, default: Path) -> None:
        super().__init__()
        self.what = what
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"Share {self.what} as one HTML file")
            yield Input(str(self.default), id="share-path")
            yield Static(
                "Enter writes it (a page that replays the hand in any browser, with no "
                "network); escape gives up.",
                classes="share-help",
            )

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Closes with the path typed (``~`` expanded), or None when it is blank."""
        event.stop()
        text = event.value.strip()
        self.dismiss(Path(text).expanduser() if text else None)

    def action_cancel(self) -> None:
        self.dismiss(None)


def share_hand(app: App[Any], load: Callable[[], Game], number: int, seat: str | None) -> None:
    """Share hand ``number`` of the game ``load`` reads (in a worker thread), from
    ``seat`` (every card the log records when ``None``): ask where, write, say where."""
    from truclog.share.page import share_path

    what = f"hand {number} " + (
        "(every card the log records)" if seat is None else f"from {seat}'s seat"
    )

    def read() -> None:
        try:
            game = load()
            default = share_path(game, number, seat)
        except TruclogError as exc:
            app.call_from_thread(_refused, app, exc)
            return

        def chosen(path: Path | None) -> None:
            if path is not None:
                app.run_worker(lambda: _write(app, game, number, seat, path), thread=True)

        app.call_from_thread(app.push_screen, SharePrompt(what, default), chosen)

    app.run_worker(read, thread=True, group="share")


def _write(app: App[Any], game: Game, number: int, seat: str | None, path: Path) -> None:
    from truclog.share.page import share_file

    try:
        written = share_file(game, number, seat, output=path)
    except TruclogError as exc:
        app.call_from_thread(_refused, app, exc)
        return
    app.call_from_thread(
        app.notify, f"hand {number} shared: {written}", title="Shared", markup=False, timeout=10
    )


def _refused(app: App[Any], exc: TruclogError) -> None:
    app.notify(str(exc), title="Not shared", severity="error", markup=False, timeout=10)
