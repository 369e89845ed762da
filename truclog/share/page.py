"""One HTML file that replays a hand (or a whole game) in any browser, with no network.

The file holds its style, its script and the steps of the replay as JSON data
(:mod:`truclog.share.moments`); the script only draws them, one step at a time
(buttons, arrow keys, a tap on an event). It loads nothing: its Content Security
Policy forbids every request and lets run only its own script and style (by their
hashes), so that nothing a log holds can become code, and every text from the log
is escaped (the JSON data as Jinja's ``tojson`` writes it inside HTML, drawn with
``textContent``).
"""

from __future__ import annotations

import base64
import hashlib
import re
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from truclog.replay import Game, Paths, read_games
from truclog.share import ShareError
from truclog.share.masks import NameMask
from truclog.share.moments import game_moments

MOST_HANDS = 400
"""Hands a whole game's page holds at the most (a game to 12 points takes a dozen or two;
one of drawn hands without end would make a file no phone opens): a longer game is
shared a hand at a time."""


def find_game(paths: Paths, game_id: str) -> Game:
    """The game with this id in the logs (the first, if copies hold it)."""
    for game in read_games(paths):
        if game.id == game_id:
            return game
    raise ShareError(f"no game with id {game_id!r} in {_paths_words(paths)}")


def _paths_words(paths: Paths) -> str:
    return str(paths) if isinstance(paths, str | Path) else ", ".join(map(str, paths))


def page_data(
    game: Game, hand: int | None = None, seat: str | None = None, mask_names: bool = False
) -> dict[str, Any]:
    """What the page shows, as plain values: the game, and each hand's steps.

    ``hand`` is a hand number (every hand when ``None``); ``seat`` a player whose
    view the page keeps to; ``mask_names`` shows seats instead of names.
    """
    if seat is not None and seat not in game.players:
        raise ShareError(
            f"{seat!r} does not play in game {game.id} (players: {', '.join(game.players)})"
        )
    numbers = [h.number for h in game.hands]
    if hand is not None and hand not in numbers:
        listed = ", ".join(map(str, numbers)) or "none"
        raise ShareError(f"game {game.id} has no hand {hand} (hands: {listed})")
    if hand is None and len(numbers) > MOST_HANDS:
        raise ShareError(
            f"game {game.id} has {len(numbers)} hands, more than a page holds "
            f"({MOST_HANDS}): share one hand at a time (--hand N)"
        )
    names = NameMask(game.players, game.teams, mask_names)
    day = game.date
    return {
        "game": names.text(game.id),
        "date": None if day is None else day.isoformat(),
        "rules": game.rules.describe(),
        "target": game.rules.target,
        "players": [names.player(p) for p in game.players],
        "teams": [names.player(t) for t in game.teams],
        "view": "every card the log records" if seat is None else f"{names.player(seat)}'s seat",
        "hands": list(game_moments(game, None if hand is None else [hand], seat, names)),
    }


@cache
def _asset(name: str) -> str:
    return (files("truclog.share") / "templates" / name).read_text("utf-8")


def _csp_hash(text: str) -> str:
    digest = hashlib.sha256(text.encode()).digest()
    return "'sha256-" + base64.b64encode(digest).decode() + "'"


def render_page(data: dict[str, Any]) -> bytes:
    """The page of ``data`` (:func:`page_data`) as one HTML file."""
    from jinja2 import Environment
    from markupsafe import Markup

    environment = Environment(autoescape=True, keep_trailing_newline=True)
    template = environment.from_string(_asset("page.html.j2"))
    style, script = _asset("page.css"), _asset("page.js")
    hand = data["hands"][0]["number"] if len(data["hands"]) == 1 else None
    title = data["game"] + ("" if hand is None else f" · hand {hand}")
    policy = (
        "default-src 'none'; "
        f"style-src {_csp_hash(style)}; script-src {_csp_hash(script)}; "
        "img-src 'none'; connect-src 'none'; form-action 'none'; base-uri 'none'"
    )
    page = template.render(
        title=title, policy=policy, style=Markup(style), script=Markup(script), data=data
    )
    return page.encode()


def share_page(
    game: Game, hand: int | None = None, seat: str | None = None, mask_names: bool = False
) -> bytes:
    """The replay page of hand ``hand`` of ``game`` (every hand when ``None``)."""
    return render_page(page_data(game, hand, seat, mask_names))


def file_word(text: str) -> str:
    """``text`` made safe as part of a file name: letters, digits and ``.+-_`` only.

    >>> file_word("cafe/1 (Zoé)")
    'cafe-1-Zoé'
    """
    return re.sub(r"[^\w.+-]+", "-", text).strip(".-") or "-"


def share_path(
    game: Game, hand: int | None = None, seat: str | None = None, mask_names: bool = False
) -> Path:
    """Where a share goes by default: beside the game's log, named after the log, the
    game, the hand and the seat (as the page names them), ending in ``.html``.

    >>> game = next(read_games("sample_logs/2026-11-29-cafe-du-port-classic.truclog.jsonl"))
    >>> share_path(game, 3, "Ana"), share_path(game, None, "Ana", mask_names=True).name
    (PosixPath('sample_logs/2026-11-29-cafe-du-port-classic.truclog.cafe-du-port-2026-11-29-1.hand-3.Ana.html'), '2026-11-29-cafe-du-port-classic.truclog.cafe-du-port-2026-11-29-1.Seat-1.html')
    """
    names = NameMask(game.players, game.teams, mask_names)
    log = Path(game.path)
    folder = log.parent if log.is_file() else Path()
    parts: list[str] = [
        log.name.removesuffix(".gz").removesuffix(".jsonl") if log.is_file() else "game",
        names.text(game.id),
        *([] if hand is None else [f"hand-{hand}"]),
        *([] if seat is None else [names.player(seat)]),
    ]
    return folder / (".".join(map(file_word, parts)) + ".html")


def share_file(
    game: Game,
    hand: int | None = None,
    seat: str | None = None,
    mask_names: bool = False,
    output: str | Path | None = None,
) -> Path:
    """Write the page to ``output`` (default: :func:`share_path`) whole or not at all,
    with the user's umask; returns where it went."""
    from truclog.format.atomic import write_atomically

    page = share_page(game, hand, seat, mask_names)
    target = Path(output) if output is not None else share_path(game, hand, seat, mask_names)
    write_atomically(target, page)
    return target
