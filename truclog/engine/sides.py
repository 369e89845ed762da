"""Who scores in a game: the two players, or two teams of partners sitting opposite.

A game of four players seats them in turn, so that seats 1 and 3 play against seats
2 and 4. A team is named by the ``teams`` of its ``game`` line, else by its partners
joined with ``+``, first seat first.

>>> sides_of(["Ana", "Marc"]), sides_of(["Ana", "Marc", "Lu", "Zoé"])
(('Ana', 'Marc'), ('Ana+Lu', 'Marc+Zoé'))
>>> sides_of(["Ana", "Marc", "Lu", "Zoé"], {"Nord": ["Marc", "Zoé"], "Sud": ["Lu", "Ana"]})
('Sud', 'Nord')
>>> partners(["Ana", "Marc", "Lu", "Zoé"])
(('Ana', 'Lu'), ('Marc', 'Zoé'))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def sides_of(
    players: Sequence[str], teams: Mapping[str, Sequence[str]] | None = None
) -> tuple[str, ...]:
    """Who scores in a game of ``players`` (two or four): the players, or the two teams
    of partners sitting opposite, named by ``teams`` (a team name -> its two partners,
    already checked to sit opposite) or else ``A+C`` and ``B+D``."""
    if len(players) != 4:
        return tuple(players)
    names = ["+".join(pair) for pair in partners(players)]
    for name, members in (teams or {}).items():
        names[players.index(members[0]) % 2] = name
    return tuple(names)


def partners(players: Sequence[str]) -> tuple[tuple[str, str], tuple[str, str]]:
    """The two pairs of partners of a four-player game, first seat's first: partners
    sit opposite (seats 1 and 3 against 2 and 4)."""
    return (players[0], players[2]), (players[1], players[3])
