"""Every code truclog gives a problem, declared once.

A problem found in a log, or an error raised by the API, carries a stable code
(``E`` an error, ``W`` a warning) that scripts can tell apart without reading
messages; ``docs/validation.md`` documents each one, and a test holds the two to the
same set. The codes are grouped by who finds the problem: :class:`Read` the reader
(the line format), :class:`Code` the engine (illegal actions, rubbers),
:class:`Check` the validator (game lines and claims), :class:`Tool` the recorder.
A new code is one more line in its group (and a row in the documentation).

>>> Code.OUT_OF_TURN, Check.RESULT_SCORE, Read.NOT_JSON
('E205', 'E704', 'E001')
>>> declared()["W802"]
'Check.DUPLICATE'
"""

from __future__ import annotations

from typing import Final


class Read:
    """A line the reader cannot make an event of."""

    UNREADABLE: Final = "E000"
    NOT_JSON: Final = "E001"
    NOT_OBJECT: Final = "E002"
    NOT_EVENT: Final = "E003"
    TORN: Final = "E004"
    NOT_UTF8: Final = "E005"
    LINE_TOO_LONG: Final = "E006"
    NUMBER_TOO_LARGE: Final = "E007"
    BAD_MARK: Final = "E008"
    NOTES_LEFT_OUT: Final = "W008"
    NOT_TEXT: Final = "E009"


class Code:
    """An action the rules do not allow, a bad rule, a rubber told something wrong."""

    BAD_RULES: Final = "E102"
    NOTHING_TO_UNDO: Final = "E200"
    UNKNOWN_PLAYER: Final = "E201"
    NO_HAND: Final = "E202"
    HAND_DECIDED: Final = "E203"
    GAME_OVER: Final = "E204"
    OUT_OF_TURN: Final = "E205"
    ANSWER_PENDING: Final = "E206"
    DEAL_WRONG_DEALER: Final = "E211"
    DEAL_WRONG_NUMBER: Final = "E212"
    DEAL_IN_PROGRESS: Final = "E213"
    DEAL_WRONG_COUNT: Final = "E214"
    RUBBER_GAME_NOT_OVER: Final = "E221"
    RUBBER_OVER: Final = "E222"
    CARD_NOT_IN_DECK: Final = "E301"
    CARD_TWICE: Final = "E302"
    FIFTH_OF_RANK: Final = "E303"
    CARD_NOT_HELD: Final = "E304"
    ILLEGAL: Final = "E400"
    RAISE_PENDING: Final = "E401"
    RAISE_NOT_ABOVE: Final = "E402"
    RAISE_NOT_DOUBLE: Final = "E403"
    RAISE_ABOVE_MAX: Final = "E404"
    RAISE_PAST_TARGET: Final = "E405"
    RAISE_TWICE: Final = "E406"
    RESTE_NOT_ALLOWED: Final = "E407"
    RESTE_NOT_A_RAISE: Final = "E408"
    RAISE_AFTER_RESTE: Final = "E409"
    NOTHING_PENDING: Final = "E411"
    ANSWER_BY_RAISER: Final = "E412"
    FOLD_NOT_ALLOWED: Final = "E413"
    REDEAL_NOT_ALLOWED: Final = "E501"
    REDEAL_WRONG_PLAYER: Final = "E502"
    REDEAL_TWICE: Final = "E503"
    REDEAL_TOO_LATE: Final = "E504"
    SHOW_TOO_EARLY: Final = "E601"


class Check:
    """What the validator finds beyond single actions: games, claims, rubbers, whole logs."""

    BAD_GAME: Final = "E101"
    NO_GAME: Final = "E103"
    RESULT_EARLY: Final = "E701"
    RESULT_WINNER: Final = "E702"
    RESULT_POINTS: Final = "E703"
    RESULT_SCORE: Final = "E704"
    RESULT_TWICE: Final = "E705"
    END_WINNER: Final = "E711"
    END_SCORE: Final = "E712"
    END_ABANDONED: Final = "E713"
    END_NOT_OVER: Final = "E714"
    AFTER_END: Final = "E715"
    RUBBER_OUT_OF_ORDER: Final = "E223"
    RUBBER_OTHER_SIDES: Final = "E224"
    UNFINISHED: Final = "W801"
    DUPLICATE: Final = "W802"


class Tool:
    """A tool used wrongly."""

    RECORDER: Final = "E800"
    COMMAND: Final = "E801"
    SHARE: Final = "E802"


GROUPS: Final = (Read, Code, Check, Tool)


def declared() -> dict[str, str]:
    """Every code, with the constant that declares it (``"Code.OUT_OF_TURN"``)."""
    return {
        value: f"{group.__name__}.{name}"
        for group in GROUPS
        for name, value in vars(group).items()
        if name.isupper()
    }
