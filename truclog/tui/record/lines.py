"""How the recorder shows the lines of its log and the state of play, in words.

>>> from truclog.format.events import parse_event
>>> event_text(parse_event('{"type":"raise","player":"Ana","to":2,"note":"grins"}')).plain
'Ana raises to 2  ✎ grins'
>>> event_text(parse_event('{"type":"result","winner":null,"points":0,"score":{"Ana":2,"Marc":0}}')).plain
'drawn hand · Ana 2 · Marc 0'
"""

from __future__ import annotations

from rich.text import Text

from truclog.diagnostic import score_words
from truclog.engine.state import RUBBER_WINS, Phase
from truclog.format.events import Event, GameEndEvent, GameEvent, ResultEvent, event_to_action
from truclog.record.recorder import Recorder


def event_text(event: Event) -> Text:
    """One line of the log, as the event list shows it."""
    if isinstance(event, GameEvent):
        rules = event.rules_obj.describe()
        text = Text(f"game: {' · '.join(event.players)} ({rules}), {event.dealer} deals first")
        text.stylize("bold")
    elif isinstance(event, ResultEvent):
        who = "drawn hand" if event.winner is None else f"{event.winner} wins {event.points}"
        text = Text(f"{who} · {score_words(event.score, ' · ')}", style="green")
    elif isinstance(event, GameEndEvent):
        if event.abandoned:
            text = Text(f"game abandoned at {score_words(event.score, ' · ')}", style="bold red")
        else:
            text = Text(
                f"{event.winner} wins the game · {score_words(event.score, ' · ')}",
                style="bold green",
            )
    else:
        text = Text(str(event_to_action(event)))
    if event.note:
        text.append(f"  ✎ {event.note}", style="italic yellow")
    for mark in event.marks or ():
        text.append(f"  #{mark}", style="bold magenta")
    return text


def status_text(recorder: Recorder) -> Text:
    """Who is to act, who deals next, the rubber, and what to do when a game is over."""
    state = recorder.state
    if state is None:
        return Text("No game yet.")
    text = Text()
    if recorder.over:
        if state.winner is None:
            text.append("Game abandoned.", style="bold red")
        else:
            text.append(f"Game over: {state.winner} wins.", style="bold green")
        text.append("  Type new for another game, or ctrl+q to quit.")
    elif state.phase is Phase.PLAY:
        doing = "to answer the raise" if state.pending is not None else "to play"
        text.append("To act ", style="bold")
        text.append(f"{state.to_act} {doing}", style="bold yellow")
        text.append("   Deals next ", style="bold")
        text.append(str(recorder.next_dealer))
    else:
        text.append("To deal ", style="bold")
        text.append(str(recorder.next_dealer), style="bold yellow")
    if recorder.rubber:
        match = recorder.header.match if recorder.header else ""
        text.append(f"\nRubber {match}: ", style="bold")
        text.append(score_words(recorder.rubber, " · ") + f" games (first to {RUBBER_WINS})")
    return text
