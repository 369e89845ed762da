"""Players' names sorted as people sort them: whatever their case and accents.

Every list of names truclog shows (statistics rows, ratings, the browser's players and
its sort by player) is sorted by :func:`name_key`: the name decomposed (Unicode NFKD),
its accents and other combining marks dropped, then case-folded; names equal so are
then ordered by the name itself, so that the order never depends on the input's. The
key is a string (the folded name, a NUL, the name), so that a table column can hold it.

>>> sorted(["Yann", "élodie", "Élodie", "Zoé", "bruno", "Ana"], key=name_key)
['Ana', 'bruno', 'Élodie', 'élodie', 'Yann', 'Zoé']
>>> sorted(["Yann", "élodie", "Élodie", "Zoé", "bruno", "Ana"])[-1]  # by code point
'élodie'
"""

from __future__ import annotations

import unicodedata


def name_key(name: str) -> str:
    """The collation key of ``name``: without accents, case-folded; then the name."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return f"{bare.casefold()}\0{name}"
