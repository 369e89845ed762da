"""``truclog show``: one hand as text, the kind players paste into a forum or a chat."""

from __future__ import annotations

import sys

import click

from truclog.cli.options import bluff_threshold_option
from truclog.errors import TruclogError
from truclog.terminal import printable, printable_lines


@click.command("show")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--game", "game_id", required=True, metavar="ID", help="The game's id.")
@click.option("--hand", "number", required=True, type=int, metavar="N", help="The hand number.")
@bluff_threshold_option
@click.option(
    "--format",
    "form",
    type=click.Choice(["text", "html"]),
    default="text",
    show_default=True,
    help="html: the hand's replay page (as truclog share writes it) on standard output.",
)
def show_command(path: str, game_id: str, number: int, bluff_threshold: float, form: str) -> None:
    """Print hand N of game ID of the log PATH as readable text.

    Each player's cards (?? for a card the log never shows), every event with
    the strength of each raise and its bluff mark, each trick with who won it,
    and how the hand ended. The same text as the browser's copy key (c). With
    --format html, the hand's self-contained replay page instead (see truclog
    share for a seat's page, masked names or a file written whole).

    Example: truclog show games.truclog.jsonl --game cafe-1 --hand 2
    """
    if form == "html":
        _show_page(path, game_id, number)
        return
    from truclog.tui.browse.catalog import find_game
    from truclog.tui.browse.transcript import hand_text

    try:
        game = find_game(path, game_id)
    except TruclogError as exc:
        raise click.ClickException(str(exc)) from None
    if game is None:
        raise click.ClickException(f"{printable(path)}: no game with id {printable(game_id)!r}")
    for i, hand in enumerate(game.hands):
        if hand.number == number:
            click.echo(printable_lines(hand_text(game, i, bluff_threshold)), nl=False)
            return
    numbers = ", ".join(str(h.number) for h in game.hands) or "none"
    raise click.ClickException(
        f"{printable(path)}: game {printable(game_id)} has no hand {number} (hands: {numbers})"
    )


def _show_page(path: str, game_id: str, number: int) -> None:
    from truclog.share.page import find_game, share_page

    try:
        page = share_page(find_game(path, game_id), number)
    except TruclogError as exc:
        raise click.ClickException(str(exc)) from None
    sys.stdout.buffer.write(page)
    sys.stdout.buffer.flush()
