"""The recording API: checked, durable, correctable, and safe across threads."""

from __future__ import annotations

import os
import random
import tempfile
import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from truclog.engine.actions import Accept, Deal, Fold, Play, Raise, Redeal
from truclog.engine.cards import CardError
from truclog.engine.cards import parse_card as c
from truclog.engine.state import Code, Phase, State
from truclog.errors import IllegalActionError, TruclogError
from truclog.format.writer import dumps
from truclog.record.recorder import Recorder, RecordError
from truclog.validate import CheckedGame, check_log

T0 = datetime(2026, 11, 29, 20, 14, 3, tzinfo=timezone(timedelta(hours=1)))
T = "2026-11-29T20:14:03+01:00"


def clock() -> datetime:
    return T0


def lines(path: Path) -> list[dict]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


def without_t(path: Path) -> list[dict]:
    return [{k: v for k, v in line.items() if k != "t"} for line in lines(path)]


def assert_clean(path: Path, finished: bool = False) -> list[CheckedGame]:
    """The log validates: no errors; and no warnings either when every game is finished."""
    games = []
    for item in check_log(str(path)):
        assert isinstance(item, CheckedGame), item
        found = (
            item.diagnostics if finished else [d for d in item.diagnostics if d.severity == "error"]
        )
        assert [d.message for d in found] == []
        games.append(item)
    return games


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return tmp_path / "cafe.truclog.jsonl"


def classic_game(path: Path, **kwargs) -> Recorder:
    return Recorder.start(path, ["Ana", "Marc"], dealer="Marc", clock=clock, **kwargs)


def test_a_game_to_the_target_writes_results_and_game_end(log: Path) -> None:
    with classic_game(log, id="cafe-1") as rec:
        # hand 1, Marc deals: Ana raises to 3, Marc folds: Ana scores the value before, 1
        rec.deal({"Ana": ["7h", "Q", "9s"]})
        rec.raise_("Ana", 3)
        rec.fold("Marc")
        # hand 2, Ana deals: Marc calls reste (12 - 0 = 12), Ana accepts, Marc wins two tricks
        rec.deal()
        rec.reste("Marc", note="all in")
        rec.accept("Ana")
        rec.play("Marc", "7c")
        rec.play("Ana", "8d")
        rec.play("Marc", "Ac")
        rec.play("Ana", "K")
        assert rec.over and rec.state is not None and rec.state.winner == "Marc"
    assert without_t(log) == [
        {
            "type": "game",
            "format": "truclog/1",
            "players": ["Ana", "Marc"],
            "dealer": "Marc",
            "rules": "classic",
            "id": "cafe-1",
            "date": "2026-11-29",
            "source": "tabletop",
        },
        {"type": "deal", "dealer": "Marc", "cards": {"Ana": ["7h", "Q", "9s"]}, "hand": 1},
        {"type": "raise", "player": "Ana", "to": 3},
        {"type": "fold", "player": "Marc"},
        {"type": "result", "winner": "Ana", "points": 1, "score": {"Ana": 1, "Marc": 0}},
        {"type": "deal", "dealer": "Ana", "hand": 2},
        {"type": "raise", "player": "Marc", "reste": True, "note": "all in"},
        {"type": "accept", "player": "Ana"},
        {"type": "play", "player": "Marc", "card": "7c"},
        {"type": "play", "player": "Ana", "card": "8d"},
        {"type": "play", "player": "Marc", "card": "Ac"},
        {"type": "play", "player": "Ana", "card": "K"},
        {"type": "result", "winner": "Marc", "points": 12, "score": {"Ana": 1, "Marc": 12}},
        {"type": "game_end", "winner": "Marc", "score": {"Ana": 1, "Marc": 12}},
    ]
    assert all(line["t"] == T for line in lines(log))
    assert_clean(log, finished=True)


def test_each_call_is_on_disk_and_fsynced_before_it_returns(
    log: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd))[1])
    with classic_game(log) as rec:
        for call in (lambda: rec.deal(), lambda: rec.raise_("Ana", 2), lambda: rec.accept("Marc")):
            before = len(synced)
            event = call()
            assert len(synced) > before
            assert orjson.loads(log.read_bytes().splitlines()[-1])["type"] == event.type


@pytest.mark.parametrize(
    ("setup", "action", "code"),
    [
        ([], Play("Ana", c("7h")), Code.NO_HAND),
        ([Deal("Marc")], Play("Marc", c("7h")), Code.OUT_OF_TURN),
        ([Deal("Marc")], Fold("Ana"), Code.FOLD_NOT_ALLOWED),
        ([Deal("Marc")], Raise("Ana", to=1), Code.RAISE_NOT_ABOVE),
        ([Deal("Marc"), Raise("Ana", to=2)], Play("Ana", c("7h")), Code.ANSWER_PENDING),
        ([Deal("Marc"), Raise("Ana", to=2)], Accept("Ana"), Code.ANSWER_BY_RAISER),
        ([Deal("Marc"), Raise("Ana", to=2), Accept("Marc")], Raise("Ana", to=3), Code.RAISE_TWICE),
        ([Deal("Marc"), Play("Ana", c("7h"))], Redeal("Ana", True), Code.REDEAL_TOO_LATE),
        ([Deal("Marc")], Redeal("Marc", True), Code.REDEAL_WRONG_PLAYER),
        ([], Deal("Ana"), Code.DEAL_WRONG_DEALER),
        ([Deal("Marc")], Play("Ana", c("6h")), Code.CARD_NOT_IN_DECK),
    ],
)
def test_an_illegal_action_is_refused_and_writes_nothing(
    log: Path, setup: list, action, code: str
) -> None:
    with classic_game(log) as rec:
        for step in setup:
            rec.record(step)
        before = log.read_bytes()
        with pytest.raises(IllegalActionError) as caught:
            rec.record(action)
        assert caught.value.code == code
        assert str(caught.value)
        assert log.read_bytes() == before


def test_a_card_that_is_not_a_card_is_refused(log: Path) -> None:
    with classic_game(log) as rec:
        rec.deal()
        before = log.read_bytes()
        with pytest.raises(CardError):
            rec.play("Ana", "1x")
        with pytest.raises(CardError):
            rec.deal({"Ana": ["7h", "Zz", "9s"]})
        assert log.read_bytes() == before


def test_nothing_can_be_recorded_without_a_game(log: Path) -> None:
    with Recorder(log, clock=clock) as rec:
        with pytest.raises(RecordError, match="no game"):
            rec.deal()
        assert not log.exists() or log.read_bytes() == b""


def test_undo_within_a_hand_rewrites_the_log_and_keeps_the_line(log: Path) -> None:
    with classic_game(log) as rec:
        rec.deal()
        rec.raise_("Ana", 4)
        kept = log.read_bytes().splitlines(keepends=True)
        removed = rec.undo()
        assert [e.type for e in removed] == ["raise"]
        assert log.read_bytes().splitlines(keepends=True) == kept[:-1]
        assert Path(f"{log}.undone").read_bytes() == kept[-1]
        assert rec.state is not None and rec.state.pending is None
        rec.raise_("Ana", 2)
        rec.accept("Marc")
    assert_clean(log)


def test_undo_across_a_hand_boundary_takes_the_result_too(log: Path) -> None:
    with classic_game(log) as rec:
        rec.deal()
        rec.raise_("Ana", 2)
        rec.fold("Marc")
        rec.deal()
        assert [e.type for e in rec.undo()] == ["deal"]
        assert rec.state is not None and rec.state.phase is Phase.HAND_OVER
        undone = rec.undo()
        assert [e.type for e in undone] == ["fold", "result"]
        state = rec.state
        assert state is not None
        assert state.phase is Phase.PLAY and state.pending is not None and state.score["Ana"] == 0
        assert [line["type"] for line in lines(log)] == ["game", "deal", "raise"]
        aside = [orjson.loads(x)["type"] for x in Path(f"{log}.undone").read_bytes().splitlines()]
        assert aside == ["deal", "fold", "result"]
        rec.accept("Marc")
        assert_clean(log)


def test_undo_of_the_last_play_of_a_game_reopens_it(log: Path) -> None:
    with classic_game(log, match="rubber-1", id="r1-1") as rec:
        rec.deal()
        rec.reste("Ana")
        rec.accept("Marc")
        for player, card in [("Ana", "7"), ("Marc", "9"), ("Ana", "7"), ("Marc", "9")]:
            rec.play(player, card)
        assert [line["type"] for line in lines(log)][-3:] == ["result", "game_end", "game"]
        assert [e.type for e in rec.undo()] == ["play", "result", "game_end", "game"]
        assert not rec.over and rec.rubber == {"Ana": 0, "Marc": 0}
        assert rec.state is not None and rec.state.to_act == "Marc"
    assert_clean(log)


def test_a_rubber_starts_the_next_game_until_someone_wins_two(log: Path) -> None:
    rules = {"preset": "classic", "target": 2}
    with classic_game(log, rules=rules, match="rubber-1", id="cafe-1") as rec:
        headers = []
        for winner in ("Ana", "Marc", "Ana"):
            header = rec.header
            assert header is not None and rec.state is not None
            headers.append((header.id, header.dealer))
            loser = "Marc" if winner == "Ana" else "Ana"
            rec.deal()
            if rec.state.to_act == winner:
                rec.raise_(winner, 2)
                rec.accept(loser)
            else:
                rec.raise_(loser, 2)
                rec.accept(winner)
            while rec.header is header and not rec.over:
                player = rec.state.to_act
                rec.play(player, "7" if player == winner else "9")
        assert headers == [("cafe-1", "Marc"), ("cafe-2", "Ana"), ("cafe-3", "Marc")]
        assert rec.rubber == {"Ana": 2, "Marc": 1}
        assert rec.over
    assert [line["type"] for line in lines(log)].count("game") == 3
    assert lines(log)[-1]["type"] == "game_end"
    assert all(g.header.match == "rubber-1" for g in assert_clean(log, finished=True))


def test_abandon_ends_the_game_and_a_new_one_may_follow(log: Path) -> None:
    with classic_game(log) as rec:
        rec.deal()
        rec.raise_("Ana", 2)
        rec.fold("Marc")
        with pytest.raises(RecordError, match="in progress"):
            rec.new_game(["Ana", "Marc"], "Ana")
        rec.abandon(note="closing time")
        assert lines(log)[-1] == {
            "type": "game_end",
            "score": {"Ana": 1, "Marc": 0},
            "abandoned": True,
            "t": T,
            "note": "closing time",
        }
        with pytest.raises(RecordError, match="over"):
            rec.deal()
        rec.new_game(["Ana", "Marc"], "Ana", score={"Ana": 1})
        rec.deal()
    games = assert_clean(log)
    assert len(games) == 2


def test_notes_go_on_the_last_entered_line_and_replaced_notes_are_kept(log: Path) -> None:
    with classic_game(log) as rec:
        rec.deal()
        rec.raise_("Ana", 2)
        rec.fold("Marc")
        rec.note("Marc did not believe it")
        assert lines(log)[-2]["note"] == "Marc did not believe it"
        rec.note("Marc believed it", at=-2)
        rec.note("first deal", at=1)
        assert lines(log)[1]["note"] == "first deal"
        assert lines(log)[-2]["note"] == "Marc believed it"
        aside = Path(f"{log}.undone").read_bytes().splitlines()
        assert [orjson.loads(x).get("note") for x in aside] == ["Marc did not believe it"]
    assert_clean(log)


def test_marks_go_on_with_the_entry_or_after_it_and_edits_keep_them(log: Path) -> None:
    with classic_game(log) as rec:
        rec.deal()
        with pytest.raises(RecordError, match="at most 40 characters"):
            rec.record(Raise("Ana", to=2), marks=["y" * 41])
        rec.record(Raise("Ana", to=2), marks=["bluff?"])
        assert lines(log)[-1]["marks"] == ["bluff?"]
        rec.fold("Marc")
        rec.mark("review")  # the last entry: the fold, not the result after it
        rec.mark("review")  # once only
        assert lines(log)[-2]["marks"] == ["review"] and "marks" not in lines(log)[-1]
        rec.mark("bluff?", at=2, on=False)
        assert "marks" not in lines(log)[2]
        with pytest.raises(RecordError, match="must not be empty"):
            rec.mark("")
        with pytest.raises(RecordError, match="at most 40 characters"):
            rec.mark("x" * 41)
        rec.edit(2, Raise("Ana", to=3))  # the edit keeps the fold's marks after it
        assert lines(log)[3]["marks"] == ["review"]
        aside = [orjson.loads(x) for x in Path(f"{log}.undone").read_bytes().splitlines()]
        assert [x.get("marks") for x in aside[:2]] == [["review"], ["bluff?"]]
    assert_clean(log)


def test_resume_rebuilds_the_exact_state(log: Path) -> None:
    with classic_game(log) as rec:
        rec.deal({"Ana": ["7h", "Q", "9s"]})
        rec.redeal("Ana", True)
        rec.deal({"Ana": ["8h", "K", "Js"]})
        rec.raise_("Ana", 2)
        rec.accept("Marc")
        rec.play("Ana", "8h")
        assert rec.state is not None
        expected = rec.state.copy()
    with Recorder.resume(log, clock=clock) as again:
        state = again.state
        assert state is not None
        assert state.history == expected.history
        assert (state.hand_no, state.value, state.to_act, state.trick) == (
            expected.hand_no,
            expected.value,
            expected.to_act,
            expected.trick,
        )
        assert again.repaired is None and again.completed == []
        again.play("Marc", "9c")


def test_resume_repairs_a_torn_last_line(log: Path) -> None:
    with classic_game(log) as rec:
        rec.deal()
    intact = log.read_bytes()
    with open(log, "ab") as f:
        f.write(b'{"type":"raise","player":"An')
    with Recorder.resume(log, clock=clock) as rec:
        assert rec.repaired == b'{"type":"raise","player":"An'
        assert Path(f"{log}.torn").read_bytes().startswith(b'{"type":"raise","player":"An')
        assert log.read_bytes() == intact
        rec.raise_("Ana", 2)
    assert_clean(log)


def test_resume_writes_the_result_a_crash_left_unwritten(log: Path) -> None:
    with classic_game(log) as rec:
        rec.deal()
        rec.raise_("Ana", 2)
        rec.fold("Marc")
    cut = b"".join(log.read_bytes().splitlines(keepends=True)[:-1])
    log.write_bytes(cut)
    with Recorder.resume(log, clock=clock) as rec:
        assert [e.type for e in rec.completed] == ["result"]
    assert lines(log)[-1] == {
        "type": "result",
        "winner": "Ana",
        "points": 1,
        "score": {"Ana": 1, "Marc": 0},
        "t": T,
    }


def test_resume_refuses_a_log_that_does_not_read(log: Path) -> None:
    log.write_text(
        '{"type":"game","format":"truclog/1","players":["A","B"],"dealer":"A"}\n{oops}\n'
    )
    with pytest.raises(RecordError, match=r":2: "):
        Recorder.resume(log)
    with pytest.raises(RecordError, match="no such log"):
        Recorder.resume(log.with_name("missing.jsonl"))


def test_resume_refuses_an_illegal_line_with_its_number(log: Path) -> None:
    log.write_text(
        '{"type":"game","format":"truclog/1","players":["A","B"],"dealer":"A"}\n'
        '{"type":"deal","dealer":"B"}\n'
    )
    with pytest.raises(TruclogError, match=r":2: B cannot deal"):
        Recorder.resume(log)


def test_a_closed_recorder_writes_nothing(log: Path) -> None:
    rec = classic_game(log)
    rec.close()
    rec.close()
    before = log.read_bytes()
    for call in (rec.deal, rec.undo, lambda: rec.note("late")):
        with pytest.raises(RecordError, match="closed"):
            call()
    assert log.read_bytes() == before


def test_one_file_one_recorder(log: Path) -> None:
    with classic_game(log), pytest.raises(RecordError, match="already being recorded"):
        Recorder(log)
    Recorder.resume(log).close()


def test_four_players_answer_by_either_opponent_and_score_by_team(log: Path) -> None:
    players = ["Ana", "Marc", "Lu", "Zoé"]
    teams = {"nous": ["Ana", "Lu"], "eux": ["Marc", "Zoé"]}
    with Recorder.start(log, players, "Zoé", teams=teams, clock=None) as rec:
        rec.deal()
        rec.raise_("Ana", 2)
        rec.accept("Zoé")
        for player, card in [("Ana", "7"), ("Marc", "9"), ("Lu", "T"), ("Zoé", "J")]:
            rec.play(player, card)
        for player, card in [("Ana", "8"), ("Marc", "9"), ("Lu", "T"), ("Zoé", "J")]:
            rec.play(player, card)
        assert rec.next_dealer == "Ana"
    assert lines(log)[-1] == {
        "type": "result",
        "winner": "nous",
        "points": 2,
        "score": {"nous": 2, "eux": 0},
    }
    assert_clean(log)


def random_game(seed: int) -> list:
    """A legal game of random choices, as engine actions."""
    rng = random.Random(seed)
    state = State.new(["Ana", "Marc"], dealer="Marc", rules="classic")
    actions = []
    while state.phase is not Phase.GAME_OVER:
        action = rng.choice(state.legal_actions())
        actions.append(action)
        state.push(action)
    return actions


def test_concurrent_games_in_threads_write_what_a_lone_recorder_writes(tmp_path: Path) -> None:
    games = {seed: random_game(seed) for seed in range(8)}
    (tmp_path / "alone").mkdir()
    (tmp_path / "thread").mkdir()  # logs of the same names: the same game ids
    for seed, actions in games.items():
        with Recorder.start(
            tmp_path / "alone" / f"{seed}.jsonl", ["Ana", "Marc"], "Marc", clock=clock
        ) as rec:
            for action in actions:
                rec.record(action)
    barrier = threading.Barrier(len(games))
    failures: list[BaseException] = []

    def play(seed: int) -> None:
        try:
            path = tmp_path / "thread" / f"{seed}.jsonl"
            with Recorder.start(path, ["Ana", "Marc"], "Marc", clock=clock) as rec:
                barrier.wait()
                for action in games[seed]:
                    rec.record(action)
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=play, args=(seed,)) for seed in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    for seed in games:
        thread_log = tmp_path / "thread" / f"{seed}.jsonl"
        assert thread_log.read_bytes() == (tmp_path / "alone" / f"{seed}.jsonl").read_bytes()
        assert assert_clean(thread_log)[0].complete


def test_threads_sharing_one_recorder_never_interleave_a_line(log: Path) -> None:
    with classic_game(log, rules={"preset": "gamerules"}) as rec:
        rec.deal()
        errors: list[Exception] = []

        def race(player: str) -> None:
            for _ in range(20):
                try:
                    rec.note(f"{player} was here")
                    state = rec.state
                    assert state is not None
                    if state.phase is Phase.PLAY and state.pending is None:
                        rec.raise_(state.to_act or player, state.value + 1)
                    elif state.pending is not None:
                        rec.accept(state.to_act or player)
                except IllegalActionError:
                    pass
                except Exception as exc:
                    errors.append(exc)

        threads = [threading.Thread(target=race, args=(p,)) for p in ("Ana", "Marc", "Ana")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
    assert_clean(log)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), back=st.integers(1, 12))
def test_undo_then_recording_the_same_again_gives_the_same_log(seed: int, back: int) -> None:
    actions = random_game(seed)[:40]
    back = min(back, len(actions))
    with tempfile.TemporaryDirectory() as where:
        log = Path(where) / "undo.jsonl"
        with Recorder.start(log, ["Ana", "Marc"], "Marc", clock=None) as rec:
            for action in actions:
                rec.record(action)
            whole = log.read_bytes()
            undone = [event for _ in range(back) for event in rec.undo()]
            assert rec.state is not None and rec.state.history == actions[: len(actions) - back]
            for action in actions[len(actions) - back :]:
                rec.record(action)
        assert log.read_bytes() == whole
        aside = Path(f"{log}.undone").read_bytes().splitlines(keepends=True)
        assert aside == [dumps(event) for event in undone]


def test_four_players_resume_keeps_the_teams(log: Path) -> None:
    players = ["Ana", "Marc", "Lu", "Zoé"]
    with Recorder.start(
        log, players, "Ana", teams={"eux": ["Marc", "Zoé"], "nous": ["Ana", "Lu"]}
    ) as rec:
        rec.deal()
        rec.raise_("Marc", 3)
    with Recorder.resume(log) as rec:
        assert rec.state is not None
        assert rec.state.teams == ("nous", "eux") and rec.state.pending is not None
        rec.fold("Lu")
    assert lines(log)[-1]["score"] == {"nous": 0, "eux": 1}
    assert_clean(log)


def test_each_game_gets_an_id_from_the_place_the_date_and_its_number(tmp_path: Path) -> None:
    day = T0.date().isoformat()
    log = tmp_path / f"{day}-cafe-du-port.truclog.jsonl"
    with Recorder.start(log, ["Ana", "Marc"], "Marc", clock=clock) as rec:
        rec.abandon()
        rec.new_game(["Ana", "Zoé"], "Zoé")
        rec.abandon()
        rec.new_game(["Ana", "Zoé"], "Ana", id="revanche")
        rec.abandon()
        rec.new_game(["Ana", "Zoé"], "Zoé")
    ids = [line["id"] for line in lines(log) if line["type"] == "game"]
    assert ids == [
        f"cafe-du-port-{day}-1",
        f"cafe-du-port-{day}-2",
        "revanche",
        f"cafe-du-port-{day}-4",
    ]
    games = [g for g in check_log(str(log)) if isinstance(g, CheckedGame)]
    assert [d.code for g in games for d in g.diagnostics if d.severity == "error"] == []
    with Recorder.start(tmp_path / "plage.jsonl", ["Ana", "Marc"], "Marc", clock=None) as rec:
        assert rec.header is not None and rec.header.id == "plage-1"  # no clock: no date
