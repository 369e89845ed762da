"""``truclog stats --plot FILE``: a plot saved as a PNG or SVG image instead of the
statistics (matplotlib, the optional extra ``truclog[plot]``)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import click

from truclog.errors import TruclogError
from truclog.stats.kept import GameFilter


def game_plot(paths: Sequence[str], game_id: str, output: str) -> None:
    """The score of game ``game_id`` (its first copy in the logs), hand by hand."""
    from truclog.replay import read_games
    from truclog.stats.charts import score_by_hand
    from truclog.stats.plots import image_format, save, score_figure

    image_format(output)
    ids: list[str] = []
    for game in read_games(list(paths)):
        if game.id == game_id:
            sides = " v ".join(game.checked.teams)
            title = f"{game.id} ({sides}): score after each hand"
            figure = score_figure(score_by_hand(game), game.rules.target, title)
            save(figure, output)
            _written(output, f"the score of {game.id}, {len(game.hands)} hands")
            return
        ids.append(game.id)
    from difflib import get_close_matches

    close = get_close_matches(game_id, ids, n=3)
    hint = f" (did you mean {' or '.join(close)}?)" if close else ""
    raise click.BadParameter(f"no game '{game_id}' in these logs{hint}", param_hint="--game")


def rates_plot(
    paths: Sequence[str],
    output: str,
    players: tuple[str, ...],
    ignore_case: bool,
    threshold: float,
    opponents: tuple[str, ...],
    keep: GameFilter,
    jobs: int,
    check_names: Any,
) -> None:
    """One player's fold and bluff rates by month, with their Wilson intervals."""
    from truclog.stats.charts import monthly_rates
    from truclog.stats.counts import Grouping, finish
    from truclog.stats.plots import image_format, rates_figure, save
    from truclog.stats.run import collect

    image_format(output)
    if len(players) != 1:
        raise click.UsageError("--plot without --game charts one player: give one --player NAME")
    grouping = Grouping(("month",), threshold, opponents, players=players, ignore_case=ignore_case)
    counts, _ = collect(paths, grouping, keep, jobs)
    check_names(counts, players, ignore_case)
    rows = finish(counts, "player", players, split=True, ignore_case=ignore_case)
    whole = finish(counts, "player", players, ignore_case=ignore_case)
    if not whole:
        raise click.BadParameter(f"'{players[0]}' is a team, not a player", param_hint="--player")
    monthly = monthly_rates(rows, str(whole[0]["player"]))
    save(rates_figure(monthly), output)
    _written(output, f"{monthly.player}'s rates over {len(monthly.months)} months")


def _written(output: str, what: str) -> None:
    sys.stderr.write(f"{output}: {what}\n")


def failed(exc: TruclogError) -> click.ClickException:
    """The error click shows for ``exc``: its message, with no traceback."""
    return click.ClickException(exc.message)
