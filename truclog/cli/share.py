"""``truclog share``: a hand or a game as one HTML file, or a rubber's result card."""

from __future__ import annotations

from pathlib import Path

import click

from truclog.errors import TruclogError


@click.command("share")
@click.argument("path", type=click.Path())
@click.option("--game", "game_id", metavar="ID", help="The game to replay (its id).")
@click.option("--hand", "number", type=int, metavar="N", help="Only hand N (default: every hand).")
@click.option(
    "--seat", metavar="PLAYER", help="Only what PLAYER saw: others' cards in hand left out."
)
@click.option("--mask-names", is_flag=True, help="Seats (Seat 1, Seat 2...) instead of names.")
@click.option("--rubber", "match", metavar="ID", help="A rubber's result card (its match id).")
@click.option(
    "--format",
    "form",
    type=click.Choice(["html", "png", "svg"]),
    help="html for --game (the default); png (the default) or svg for --rubber.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    help="The file to write (default: beside the log, named after the game).",
)
def share_command(
    path: str,
    game_id: str | None,
    number: int | None,
    seat: str | None,
    mask_names: bool,
    match: str | None,
    form: str | None,
    output: str | None,
) -> None:
    """Write a game of PATH as one file to share: a replay page, or a rubber's card.

    With --game, one self-contained HTML file that replays the game (or only hand
    N) step by step in any browser, phones too, with no network: the cards, each
    trick, the notes and the score at every step. With --seat, the file holds
    only what that player saw: the other players' cards appear when played or
    shown, and are absent from the file otherwise.

    With --rubber, the result card of a rubber (the games sharing that match id):
    who won, each game's score line and score sheet, as PNG or SVG (needs
    pip install 'truclog[plot]').

    Example: truclog share games.truclog.jsonl --game cafe-1 --hand 3 --seat Ana -o hand3.html
    """
    if (game_id is None) == (match is None):
        raise click.UsageError("give either --game ID (a replay page) or --rubber ID (a card)")
    try:
        if match is not None:
            if number is not None or seat is not None:
                raise click.UsageError("--hand and --seat go with --game, not --rubber")
            written = _rubber(path, match, form or "png", mask_names, output)
        else:
            assert game_id is not None
            if form not in (None, "html"):
                raise click.UsageError("a game is shared as html; png and svg are for --rubber")
            written = _game(path, game_id, number, seat, mask_names, output)
    except TruclogError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"wrote {written}")


def _game(
    path: str,
    game_id: str,
    number: int | None,
    seat: str | None,
    mask_names: bool,
    output: str | None,
) -> Path:
    from truclog.share.page import find_game, share_file

    return share_file(find_game(path, game_id), number, seat, mask_names, output)


def _rubber(path: str, match: str, form: str, mask_names: bool, output: str | None) -> Path:
    from truclog.format.atomic import write_atomically
    from truclog.share.page import file_word
    from truclog.share.result import read_rubber, result_card

    if form == "html":
        raise click.UsageError("a rubber's card is png or svg")
    card = result_card(read_rubber(path, match, mask_names), form)
    target = Path(output) if output is not None else Path(f"{file_word(match)}.{form}")
    write_atomically(target, card)
    return target
