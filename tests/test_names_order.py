"""Names are listed as people sort them, whatever their case and accents: ``Élodie``
between ``Camille`` and ``Gilles``, not after ``Yann`` (where code points put her)."""

from __future__ import annotations

import json

from click.testing import CliRunner

import truclog
from truclog.cli import main
from truclog.names import name_key
from truclog.tui.browse.catalog import SORT_KEYS, Catalog, GameEntry


def test_the_key_ignores_case_and_accents_then_tells_names_apart() -> None:
    names = ["Yann", "élodie", "Zoé", "Élodie", "bruno", "Ana", "Eloise", "ÉLODIE"]
    assert sorted(names, key=name_key) == [
        "Ana", "bruno", "ÉLODIE", "Élodie", "élodie", "Eloise", "Yann", "Zoé",
    ]  # fmt: skip


def test_statistics_rows_are_in_name_order() -> None:
    result = CliRunner().invoke(main, ["stats", "--format", "json", str(truclog.samples())])
    assert result.exit_code == 0, result.output
    players = [row["player"] for row in json.loads(result.stdout)["players"]]
    assert "Élodie" in players and players.index("Élodie") < players.index("Gilles")
    assert players == sorted(players, key=name_key)
    by_name = CliRunner().invoke(
        main, ["stats", "--format", "json", "--sort", "player", str(truclog.samples())]
    )
    assert [row["player"] for row in json.loads(by_name.stdout)["players"]] == players


def test_the_browsers_player_list_and_sort_by_players_are_in_name_order() -> None:
    def entry(sides: str, players: tuple[str, ...]) -> GameEntry:
        return GameEntry(
            path="x.jsonl", line=1, offset=0, id=sides, players=players, sides=sides,
            rules="classic", when="", score=(0, 0), winner="", hands=0, diagnostics=0, errors=0,
        )  # fmt: skip

    catalog = Catalog()
    catalog.entries += [
        entry("Yann v Zoé", ("Yann", "Zoé")),
        entry("élodie v Ana", ("élodie", "Ana")),
    ]
    catalog.entries += [entry("Bruno v Ana", ("Bruno", "Ana"))]
    assert catalog.players() == ["Ana", "Bruno", "élodie", "Yann", "Zoé"]
    ordered = sorted(catalog.entries, key=SORT_KEYS["players"])
    assert [e.sides for e in ordered] == ["Bruno v Ana", "élodie v Ana", "Yann v Zoé"]
