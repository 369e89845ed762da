"""The Textual recorder, driven by keystrokes: the log it writes, what it shows, what it refuses."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import orjson
import pytest
from recording import enter, message, steady
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static

from truclog.record.recorder import Recorder
from truclog.tui.record.app import RecordApp
from truclog.tui.record.screens.prompts import DealScreen
from truclog.tui.record.screens.record import RecordScreen
from truclog.tui.record.screens.start import Setup, StartScreen
from truclog.validate import CheckedGame, check_log

T0 = datetime(2026, 11, 29, 20, 14, 3, tzinfo=timezone(timedelta(hours=1)))
SIZE = (120, 44)

# The game below, written out from the rules (classic: 7 8 A K Q J 10 9, value 1,
# raises alternate, reste to the remainder), line by line as truclog/1 wants it.
EXPECTED = """\
{"type":"game","format":"truclog/1","players":["Ana","Marc"],"dealer":"Marc","rules":"classic","id":"cafe-7","date":"2026-11-29","source":"tabletop","t":"2026-11-29T20:14:03+01:00"}
{"type":"deal","dealer":"Marc","cards":{"Ana":["7h","Q","9s"]},"hand":1,"t":"2026-11-29T20:14:03+01:00"}
{"type":"redeal","player":"Ana","accepted":true,"t":"2026-11-29T20:14:03+01:00"}
{"type":"deal","dealer":"Marc","cards":{"Ana":["8h","K","Js"]},"hand":1,"t":"2026-11-29T20:14:03+01:00"}
{"type":"raise","player":"Ana","to":2,"t":"2026-11-29T20:14:03+01:00"}
{"type":"accept","player":"Marc","t":"2026-11-29T20:14:03+01:00"}
{"type":"play","player":"Ana","card":"8h","t":"2026-11-29T20:14:03+01:00"}
{"type":"play","player":"Marc","card":"7c","t":"2026-11-29T20:14:03+01:00","note":"Marc smiles"}
{"type":"play","player":"Marc","card":"A","t":"2026-11-29T20:14:03+01:00"}
{"type":"play","player":"Ana","card":"K","t":"2026-11-29T20:14:03+01:00"}
{"type":"result","winner":"Marc","points":2,"score":{"Ana":0,"Marc":2},"t":"2026-11-29T20:14:03+01:00"}
{"type":"show","player":"Ana","cards":["Js"],"t":"2026-11-29T20:14:03+01:00"}
{"type":"deal","dealer":"Ana","hand":2,"t":"2026-11-29T20:14:03+01:00"}
{"type":"redeal","player":"Marc","accepted":false,"t":"2026-11-29T20:14:03+01:00"}
{"type":"raise","player":"Marc","to":3,"t":"2026-11-29T20:14:03+01:00"}
{"type":"fold","player":"Ana","t":"2026-11-29T20:14:03+01:00"}
{"type":"result","winner":"Marc","points":1,"score":{"Ana":0,"Marc":3},"t":"2026-11-29T20:14:03+01:00"}
{"type":"deal","dealer":"Marc","hand":3,"t":"2026-11-29T20:14:03+01:00"}
{"type":"play","player":"Ana","card":"7s","t":"2026-11-29T20:14:03+01:00"}
{"type":"play","player":"Marc","card":"8d","t":"2026-11-29T20:14:03+01:00"}
{"type":"raise","player":"Ana","reste":true,"t":"2026-11-29T20:14:03+01:00"}
{"type":"accept","player":"Marc","t":"2026-11-29T20:14:03+01:00"}
{"type":"play","player":"Ana","card":"A","t":"2026-11-29T20:14:03+01:00"}
{"type":"play","player":"Marc","card":"K","t":"2026-11-29T20:14:03+01:00"}
{"type":"result","winner":"Ana","points":12,"score":{"Ana":12,"Marc":3},"t":"2026-11-29T20:14:03+01:00"}
{"type":"game_end","winner":"Ana","score":{"Ana":12,"Marc":3},"t":"2026-11-29T20:14:03+01:00"}
"""


def clock() -> datetime:
    return T0


def shown_lines(app: RecordApp) -> int:
    return app.screen.query_one("#events", OptionList).option_count


def last_shown(app: RecordApp) -> str:
    events = app.screen.query_one("#events", OptionList)
    return str(events.get_option_at_index(events.option_count - 1).prompt)


async def start_game(pilot: Pilot, app: RecordApp) -> None:
    assert isinstance(app.screen, StartScreen)
    await pilot.press(*"Ana", "tab", *"Marc")
    app.screen.query_one("#dealer", Input).focus()
    await pilot.press(*"marc")
    app.screen.query_one("#game-id", Input).focus()
    await pilot.pause()
    await enter(pilot, "cafe-7")
    assert isinstance(app.screen, RecordScreen)


async def deal_form(pilot: Pilot, app: RecordApp, *cards: str) -> None:
    await enter(pilot, "d")
    assert isinstance(app.screen, DealScreen)
    for i, text in enumerate(cards):
        app.screen.query_one(f"#cards-{i}", Input).focus()
        await pilot.press(*text)
    await pilot.press("enter")
    await pilot.pause()
    assert isinstance(app.screen, RecordScreen)


async def test_a_full_game_entered_by_keystrokes_writes_the_expected_log(tmp_path: Path) -> None:
    log = tmp_path / "cafe.truclog.jsonl"
    app = RecordApp(setup=Setup(path=str(log)), clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await start_game(pilot, app)
        # hand 1: Marc deals; Ana asks for a redeal, granted; the new deal keeps number 1
        await deal_form(pilot, app, "7h Q 9s")
        await enter(pilot, "x y")
        await enter(pilot, "d 8h K Js")
        await enter(pilot, "r")
        await enter(pilot, "a")
        await enter(pilot, "r 3")  # Ana raised last: alternate raises refuse it
        assert "refused" in message(app) and "twice in a row" in message(app)
        await enter(pilot, "1")
        await enter(pilot, "7c")
        await enter(pilot, "n Marc smiles")
        await enter(pilot, "A")
        await enter(pilot, "Qd")  # Ana does not hold a queen any more
        assert "refused" in message(app) and "does not hold" in message(app)
        await enter(pilot, "1")
        assert last_shown(app) == "Marc wins 2 · Ana 0 · Marc 2"
        await enter(pilot, "s Ana Js")
        # hand 2: Ana deals; Marc's redeal refused; Marc raises, Ana folds (undone and redone)
        await deal_form(pilot, app)
        await enter(pilot, "x n")
        await enter(pilot, "r 3")
        await enter(pilot, "f")
        assert shown_lines(app) == 17
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert "undone" in message(app) and shown_lines(app) == 15
        await enter(pilot, "f")
        # hand 3: Marc deals; a wrong card undone; Ana calls reste and takes the game
        await deal_form(pilot, app)
        await enter(pilot, "7s")
        await enter(pilot, "9")
        await enter(pilot, "u")
        await enter(pilot, "8d")
        await enter(pilot, "rr")
        await enter(pilot, "a")
        await enter(pilot, "A")
        await enter(pilot, "K")
        assert message(app) == (
            "recorded (line 24 on disk): Marc plays K → Ana wins 12 · Ana 12 · Marc 3"
            " → Ana wins the game · Ana 12 · Marc 3"
        )
        assert shown_lines(app) == len(EXPECTED.splitlines())
        assert "Ana wins" in str(app.screen.query_one("#status").render())
        await enter(pilot, "7h")
        assert "game is over" in message(app)
    assert log.read_text() == EXPECTED
    undone = [orjson.loads(x) for x in Path(f"{log}.undone").read_bytes().splitlines()]
    assert [(e["type"], e.get("player"), e.get("card")) for e in undone] == [
        ("fold", "Ana", None),
        ("result", None, None),
        ("play", "Marc", "9"),
    ]
    (game,) = check_log(str(log))
    assert isinstance(game, CheckedGame)
    assert game.diagnostics == [] and game.complete and game.winner == "Ana"


async def test_only_legal_entries_are_offered_and_picked_from_the_menu(tmp_path: Path) -> None:
    log = tmp_path / "menu.truclog.jsonl"
    app = RecordApp(setup=Setup(path=str(log), players=("Ana", "Marc"), dealer="Marc"), clock=None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        await enter(pilot, "d 7h Q 9s")
        menu = app.screen.query_one("#choices", OptionList)
        labels = [str(menu.get_option_at_index(i).prompt) for i in range(menu.option_count)]
        assert any("Ana plays 7h" in label for label in labels)
        assert any("Ana raises to 2" in label for label in labels)
        assert not any("Marc" in label and "plays" in label for label in labels)
        assert not any("accept" in label for label in labels)
        menu.focus()
        index = next(i for i, label in enumerate(labels) if "Ana plays 7h" in label)
        menu.highlighted = index
        await pilot.press("enter")
        await pilot.pause()
    assert orjson.loads(log.read_bytes().splitlines()[-1]) == {
        "type": "play",
        "player": "Ana",
        "card": "7h",
    }


async def test_resume_opens_on_the_game_and_reports_the_repair(tmp_path: Path) -> None:
    log = tmp_path / "torn.truclog.jsonl"
    with Recorder.start(log, ["Ana", "Marc"], "Marc", clock=None) as recorder:
        recorder.deal()
        recorder.raise_("Ana", 2)
    with open(log, "ab") as f:
        f.write(b'{"type":"acc')
    recorder = Recorder.resume(log, clock=None)
    app = RecordApp(recorder, clock=None)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, RecordScreen)
        assert any("cut short" in n.message for n in app._notifications)
        await enter(pilot, "a")
        assert "Marc accepts" in message(app)
    assert Path(f"{log}.torn").read_bytes() == b'{"type":"acc\n'
    assert orjson.loads(log.read_bytes().splitlines()[-1])["type"] == "accept"


async def test_four_players_deal_form_names_everyone(tmp_path: Path) -> None:
    log = tmp_path / "four.truclog.jsonl"
    setup = Setup(
        path=str(log), players=("Ana", "Marc", "Lu", "Zoé"), dealer="Zoé", teams="nous, eux"
    )
    app = RecordApp(setup=setup, clock=None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        await enter(pilot, "d")
        assert isinstance(app.screen, DealScreen)
        assert len(app.screen.query(Input)) == 4
        await pilot.press("enter")
        await pilot.pause()
        await enter(pilot, "r")
        await enter(pilot, "a Zoé")
        assert "Zoé accepts" in message(app)
    header = orjson.loads(log.read_bytes().splitlines()[0])
    assert header["teams"] == {"nous": ["Ana", "Lu"], "eux": ["Marc", "Zoé"]}


@pytest.mark.parametrize("entries", [["d 7h Q 9s", "r", "a", "7h"]])
def test_record_screen_snapshot(
    snap_compare, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, entries: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    app = RecordApp(
        setup=Setup(path="snap.truclog.jsonl", players=("Ana", "Marc"), dealer="Marc"),
        clock=clock,
    )

    async def run_before(pilot: Pilot) -> None:
        await pilot.press("enter")
        await pilot.pause()
        for text in entries:
            await enter(pilot, text)
        await steady(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


async def test_rubber_note_on_a_chosen_line_abandon_and_a_new_game(tmp_path: Path) -> None:
    log = tmp_path / "rubber.truclog.jsonl"
    setup = Setup(path=str(log), players=("Ana", "Marc"), dealer="Marc", match=True)
    app = RecordApp(setup=setup, clock=None)
    async with app.run_test(size=SIZE) as pilot:
        app.screen.query_one("#overrides", Input).value = "target=2"
        app.screen.query_one("#match-id", Input).value = "rubber-9"
        await pilot.press("ctrl+s")
        await pilot.pause()
        for text in ("d", "r", "a", "7", "9", "7", "9"):
            if text == "d":
                await deal_form(pilot, app)
            else:
                await enter(pilot, text)
        # the first game is over and the second of the rubber has started by itself
        assert "Rubber rubber-9: Ana 1 · Marc 0" in str(app.screen.query_one("#status").render())
        assert last_shown(app).startswith("game: Ana · Marc")
        # a note on the first line of the new game, chosen in the log list
        events = app.screen.query_one("#events", OptionList)
        events.focus()
        events.highlighted = 0
        await pilot.press("ctrl+n")
        await pilot.pause()
        await enter(pilot, "second game, Ana deals")
        # abandon it, then start another game in the same log
        await pilot.press("f8")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert last_shown(app) == "game abandoned at Ana 0 · Marc 0"
        app.screen.query_one("#entry", Input).focus()
        await pilot.pause()
        await enter(pilot, "new")
        assert isinstance(app.screen, StartScreen)
        assert app.screen.query_one("#dealer", Input).value == "Marc"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, RecordScreen)
        await enter(pilot, "?")
        assert type(app.screen).__name__ == "RecordHelpScreen"
    events = [orjson.loads(line) for line in log.read_bytes().splitlines()]
    games = [e for e in events if e["type"] == "game"]
    assert [(g["dealer"], g.get("match"), g.get("note")) for g in games] == [
        ("Marc", "rubber-9", None),
        ("Ana", "rubber-9", "second game, Ana deals"),
        ("Marc", None, None),
    ]
    assert {"type": "game_end", "score": {"Ana": 0, "Marc": 0}, "abandoned": True} in events
    checked = [g for g in check_log(str(log)) if isinstance(g, CheckedGame)]
    assert len(checked) == 3
    assert [d.message for g in checked for d in g.diagnostics if d.severity == "error"] == []


async def test_starting_on_a_log_with_a_game_in_progress_points_to_resume(tmp_path: Path) -> None:
    log = tmp_path / "busy.truclog.jsonl"
    with Recorder.start(log, ["Ana", "Marc"], "Marc", clock=None) as recorder:
        recorder.deal()
    before = log.read_bytes()
    app = RecordApp(setup=Setup(path=str(log), players=("Ana", "Marc"), dealer="Ana"), clock=None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        error = str(app.screen.query_one("#start-error", Static).render())
        assert "game in progress" in error and "--resume" in error
        app.screen.query_one("#player-1", Input).value = ""
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "two or four players, not 1" in str(app.screen.query_one("#start-error").render())
    assert log.read_bytes() == before
    Recorder.resume(log).close()


def test_start_screen_snapshot(snap_compare) -> None:
    setup = Setup(path="cafe.truclog.jsonl", players=("Ana", "Marc"), rules="gamerules", match=True)
    app = RecordApp(setup=setup, clock=clock)
    assert snap_compare(app, terminal_size=SIZE, run_before=steady)


async def test_a_mark_goes_on_the_last_entry_with_one_key_or_one_tap(tmp_path: Path) -> None:
    log = tmp_path / "marks.truclog.jsonl"
    app = RecordApp(setup=Setup(path=str(log), players=("Ana", "Marc"), dealer="Marc"), clock=None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+s")
        await pilot.pause()
        await deal_form(pilot, app, "7h Q 9s")
        await enter(pilot, "r")
        await pilot.press("ctrl+k")  # one key: the mark dialog for the last entry
        await pilot.pause()
        await enter(pilot, "bluff?")
        assert "#bluff?" in last_shown(app)
        await pilot.click("#mark-1")  # one tap: "review"
        await pilot.pause()
        assert "marked" in message(app)
        await enter(pilot, "a")
        await enter(pilot, "m misdeal")  # typed, on the accept
        await pilot.click("#mark-1")  # review on the accept, then off again
        await pilot.click("#mark-1")
        await pilot.pause()
        assert "mark taken off" in message(app)
    lines = [orjson.loads(line) for line in log.read_bytes().splitlines()]
    assert [(e["type"], e.get("marks")) for e in lines[2:]] == [
        ("raise", ["bluff?", "review"]),
        ("accept", ["misdeal"]),
    ]
    (game,) = [g for g in check_log(str(log)) if isinstance(g, CheckedGame)]
    assert game.errors == 0
    undone = (tmp_path / "marks.truclog.jsonl.undone").read_bytes().splitlines()
    assert orjson.loads(undone[0])["marks"] == ["bluff?"]  # what a mark replaced is kept
