"""``truclog share``: a seat's page holds no card that seat never saw, names are masked
everywhere, text from a log cannot become markup, and the file is written whole.

What a seat saw is read from the log's own lines (each deal's cards, the played and
shown cards), not from the page's code: the other players' cards written on a deal
line that were never played or shown must be absent from the file's bytes.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from truclog.cli import main
from truclog.engine.cards import Card, parse_card
from truclog.record.annotations import annotate
from truclog.replay import Game, read_games
from truclog.share import ShareError
from truclog.share.masks import SUIT_SYMBOLS
from truclog.share.page import page_data, share_page, share_path
from truclog.simulate.run import Simulation, simulate_to

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
SAMPLE_LOGS = sorted(SAMPLES.glob("*.jsonl"))
DATA = re.compile(r'<script type="application/json" id="truclog-data">(.*?)</script>', re.S)


def data_of(page: bytes) -> dict:
    found = DATA.search(page.decode())
    assert found is not None
    return json.loads(found.group(1))


def raw_lines(path: str) -> list[dict]:
    return [orjson.loads(line) for line in Path(path).read_bytes().splitlines()]


def card(text: str) -> Card | None:
    return None if text == "??" else parse_card(text)


def what_the_log_says(game: Game, number: int, seat: str) -> tuple[set[Card], set[Card]]:
    """From the hand's lines as written: the cards the seat saw (its own, every card
    played or shown) and the cards the log gives the other players."""
    lines = raw_lines(game.path)
    hand = next(h for h in game.hands if h.number == number)
    seen: set[Card] = set()
    others: set[Card] = set()
    for step in hand.steps:
        line = lines[step.line - 1]
        kind = line.get("type")
        if kind == "deal":
            for player, cards in (line.get("cards") or {}).items():
                known = {c for c in map(card, cards) if c is not None}
                (seen if player == seat else others).update(known)
        elif kind == "play":
            seen.add(parse_card(line["card"]))
        elif kind == "show":
            seen.update(map(parse_card, line["cards"]))
    return seen, others


def forms(unseen: Card) -> list[str]:
    """How a page could hold a card: its code (``Th``, ``10h``, ``T♥``), or for a card
    known by rank only, that rank as a JSON string."""
    if unseen.suit is None:
        return [f'"{unseen.rank}"']
    ranks = ["T", "10"] if unseen.rank == "T" else [unseen.rank]
    return [r + s for r in ranks for s in (unseen.suit, SUIT_SYMBOLS[unseen.suit])]


def assert_absent(page: bytes, cards: set[Card], where: str) -> None:
    text = page.decode()
    for unseen in cards:
        for form in forms(unseen):
            found = re.search(rf"(?<![A-Za-z0-9+/]){re.escape(form)}(?![A-Za-z0-9+/])", text)
            assert found is None, f"{where}: {form} was never seen, yet the page holds it"


def hands_and_seats(paths: list[Path]) -> Iterator[tuple[Game, int, str]]:
    for game in read_games(paths):
        for hand in game.hands:
            for seat in game.players:
                yield game, hand.number, seat


def check_seat_pages(paths: list[Path]) -> int:
    """Every hand from every seat: the unseen cards absent, the seen ones there."""
    pages = 0
    for game, number, seat in hands_and_seats(paths):
        seen, others = what_the_log_says(game, number, seat)
        page = share_page(game, number, seat)
        where = f"{game.id} hand {number} from {seat}"
        assert_absent(page, others - seen, where)
        text = page.decode()
        for shown in seen:
            assert f'"{shown}"' in text, f"{where}: {shown} was seen, the page lacks it"
        pages += 1
    return pages


def test_a_seats_page_of_each_sample_hand_holds_no_card_it_never_saw() -> None:
    assert check_seat_pages(SAMPLE_LOGS) > 100


@pytest.mark.parametrize(
    ("rules", "players"),
    [
        ("classic", ("Ana", "Marc")),
        ("sackson", ("Ana", "Marc", "Lu", "Zoé")),
        ("francais", ("Ana", "Marc")),
    ],
)
def test_a_seats_page_of_simulated_hands_holds_no_card_it_never_saw(
    tmp_path: Path, rules: str, players: tuple[str, ...]
) -> None:
    log = tmp_path / "sim.truclog.jsonl"
    simulate_to(Simulation(games=2, seed=11, rules=rules, players=players, notes=0.3), log)
    assert check_seat_pages([log]) > 20


def test_a_seats_page_of_a_whole_game_holds_no_card_it_never_saw(tmp_path: Path) -> None:
    log = tmp_path / "sim.truclog.jsonl"
    simulate_to(Simulation(games=1, seed=3, hidden=0.3, notes=0.3), log)
    game = next(read_games(log))
    for seat in game.players:
        seen: set[Card] = set()
        others: set[Card] = set()
        for hand in game.hands:
            hand_seen, hand_others = what_the_log_says(game, hand.number, seat)
            seen |= hand_seen
            others |= hand_others
        assert others - seen, "a game where every card is seen tests nothing"
        assert_absent(share_page(game, None, seat), others - seen, f"{game.id} from {seat}")


def test_without_a_seat_the_page_holds_every_card_the_log_records() -> None:
    game = next(read_games(SAMPLE_LOGS[0]))
    text = share_page(game, 1).decode()
    seen, others = what_the_log_says(game, 1, game.players[0])
    for known in seen | others:
        assert f'"{known}"' in text


GAME = {"type": "game", "format": "truclog/1", "rules": "classic", "players": ["Ana", "Marc"],
        "dealer": "Marc"}  # fmt: skip
DEAL = {"type": "deal", "hand": 1, "dealer": "Marc",
        "cards": {"Ana": ["7h", "Q", "9s"], "Marc": ["As", "Kd", "8c"]}}  # fmt: skip


def write_log(path: Path, *lines: dict) -> Path:
    path.write_bytes(b"".join(orjson.dumps(line) + b"\n" for line in lines))
    return path


def test_a_note_naming_a_card_the_seat_never_saw_shows_it_as_hidden(tmp_path: Path) -> None:
    log = write_log(
        tmp_path / "note.truclog.jsonl",
        GAME | {"id": "n"},
        DEAL | {"note": "Marc holds As and Kd; Ana 7h"},
        {"type": "play", "player": "Ana", "card": "7h"},
        {"type": "play", "player": "Marc", "card": "Kd", "note": "Kd was Marc's, As still hidden"},
    )
    game = next(read_games(log))
    steps = page_data(game, 1, "Ana")["hands"][0]["steps"]
    assert steps[0]["note"] == "Marc holds ?? and ??; Ana 7h"
    assert steps[2]["note"] == "Kd was Marc's, ?? still hidden"
    assert page_data(game, 1)["hands"][0]["steps"][0]["note"] == "Marc holds As and Kd; Ana 7h"
    marc = page_data(game, 1, "Marc")["hands"][0]["steps"]  # Ana's 7h: seen once played
    assert marc[0]["note"] == "Marc holds As and Kd; Ana ??"


def test_notes_and_marks_of_the_line_and_of_the_notes_file(tmp_path: Path) -> None:
    log = write_log(
        tmp_path / "marked.truclog.jsonl",
        GAME | {"id": "m"},
        DEAL | {"marks": ["deal"]},
        {"type": "raise", "player": "Ana", "to": 2, "note": "bold", "marks": ["bluff?"]},
    )
    annotate(log, "m", 1, 2, note="Marc read it: As in hand", add=["Marc tell", "As"], clock=None)
    game = next(read_games(log))
    whole = page_data(game, 1)["hands"][0]["steps"]
    assert (whole[0]["note"], whole[0]["marks"]) == (None, ["deal"])
    assert whole[1]["note"] == "bold\nMarc read it: As in hand"
    assert whole[1]["marks"] == ["bluff?", "Marc tell", "As"]
    ana = page_data(game, 1, "Ana", mask_names=True)["hands"][0]["steps"][1]
    assert ana["note"] == "bold\nSeat 2 read it: ?? in hand"
    assert ana["marks"] == ["bluff?", "Seat 2 tell", "??"]


def test_masked_names_appear_nowhere_in_the_file() -> None:
    for game in read_games(SAMPLE_LOGS):
        page = share_page(game, mask_names=True)
        text = page.decode()
        names = {*game.players, *game.teams}
        for name in names:
            found = re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.IGNORECASE)
            assert found is None, f"{game.id}: {name!r} is in the masked page: {found}"
        data = data_of(page)
        seats = [f"Seat {i + 1}" for i in range(len(game.players))]
        assert data["players"] == seats
        first = data["hands"][0]["steps"][0]["table"]["seats"]
        assert [row["name"] for row in first] == seats


def test_masked_names_are_replaced_in_ids_and_notes_whatever_their_case(tmp_path: Path) -> None:
    players = {"players": ["Zéphyrine", "Bartholomew"], "dealer": "Bartholomew"}
    log = write_log(
        tmp_path / "names.truclog.jsonl",
        GAME | players | {"id": "zephyrine-v-bartholomew"},
        DEAL | {"dealer": "Bartholomew", "cards": {"Zéphyrine": ["7h", "Q", "9s"]},
                "note": "ZÉPHYRINE smiles at bartholomew"},
    )  # fmt: skip
    game = next(read_games(log))
    page = share_page(game, 1, "Zéphyrine", mask_names=True)
    folded = page.decode().casefold()
    assert "zéphyrine" not in folded and "bartholomew" not in folded
    data = data_of(page)
    assert data["game"] == "Seat 1-v-Seat 2"
    assert data["hands"][0]["steps"][0]["note"] == "Seat 1 smiles at Seat 2"
    assert data["view"] == "Seat 1's seat"


HOSTILE = "</script><img src=x onerror=alert(1)>"


def hostile_log(path: Path) -> Path:
    return write_log(
        path,
        GAME | {"id": '"><svg onload=alert(3)>', "players": [HOSTILE, "Marc"]},
        DEAL | {"cards": {HOSTILE: ["7h", "Q", "9s"]},
                "note": "</SCRIPT><script>alert(2)</script><!--"},
        {"type": "play", "player": HOSTILE, "card": "7h", "note": "]]></style>{{ 7*7 }}",
         "marks": ["<b onclick=alert(4)>x</b>"]},
    )  # fmt: skip


def test_text_from_the_log_never_becomes_markup(tmp_path: Path) -> None:
    game = next(read_games(hostile_log(tmp_path / "hostile.truclog.jsonl")))
    page = share_page(game, 1)
    text = page.decode()
    assert text.lower().count("<script") == 2  # the data and the page's own script
    assert text.lower().count("</script") == 2
    assert text.count("</style>") == 1  # the page's own style
    for markup in ("<img", "<svg", "<!--", "</SCRIPT>", "<b "):
        assert markup not in text
    assert "49" not in text.split('id="truclog-data">')[1]  # no template ran the note
    data = data_of(page)
    assert data["players"][0] == HOSTILE
    assert data["hands"][0]["steps"][0]["note"] == "</SCRIPT><script>alert(2)</script><!--"


def test_every_problem_shows_at_its_line_or_the_step_before_it() -> None:
    for path in sorted((SAMPLES / "invalid").glob("*.jsonl")):
        for game in read_games(path):
            if not game.hands:
                continue
            shown = [
                (step["line"], problem)
                for hand in page_data(game)["hands"]
                for step in hand["steps"]
                for problem in step["problems"]
            ]
            for diagnostic in game.diagnostics:
                text = f"{diagnostic.code} {diagnostic.message}"
                at = [line for line, problem in shown if problem == text]
                assert at, f"{path.name}: {text} is not on the page"
                assert at[0] <= max(diagnostic.line, game.hands[0].steps[0].line)
    game = next(read_games(SAMPLES / "invalid" / "E001-not-json.truclog.jsonl"))
    first = page_data(game)["hands"][0]["steps"][0]
    assert first["line"] == 2 and first["problems"][0].startswith("E001 ")  # line 3 is no step


def test_review_grades_in_full_and_only_a_seats_own_soundness_from_a_seat() -> None:
    graded = 0
    for game in read_games(SAMPLE_LOGS):
        for hand in game.hands:
            decisions = {d.step.line: d for d in hand.review()}
            whole = page_data(game, hand.number)["hands"][0]["steps"]
            for step in whole:
                decision = decisions.get(step["line"])
                if decision is None or (decision.grade is None and decision.sound is None):
                    assert step["review"] is None
                    continue
                graded += decision.grade is not None
                said = "sound" if decision.sound else "unsound"
                assert step["review"]["grade"] == str(decision.grade or said)
                if decision.lost:
                    assert f"lost {decision.lost}" in step["review"]["text"]
            for seat in game.players:
                for step in page_data(game, hand.number, seat)["hands"][0]["steps"]:
                    decision = decisions.get(step["line"])
                    if decision is None or decision.player != seat or decision.sound is None:
                        assert step["review"] is None
                    else:
                        said = "sound" if decision.sound else "unsound"
                        assert step["review"]["grade"] == said
                        assert "hindsight" not in step["review"]["text"]
    assert graded > 50


def test_a_share_of_what_the_log_does_not_hold_says_so() -> None:
    game = next(read_games(SAMPLE_LOGS[0]))
    with pytest.raises(ShareError, match="has no hand 99"):
        page_data(game, 99)
    with pytest.raises(ShareError, match="'Zoé' does not play"):
        page_data(game, 1, "Zoé")


def test_a_game_too_long_for_one_page_is_shared_a_hand_at_a_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = next(read_games(SAMPLE_LOGS[0]))
    monkeypatch.setattr("truclog.share.page.MOST_HANDS", 14)
    with pytest.raises(ShareError, match="has 15 hands, more than a page holds"):
        page_data(game)
    assert len(page_data(game, 15)["hands"]) == 1


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_share_writes_the_page_beside_the_log_with_the_users_umask(tmp_path: Path) -> None:
    log = tmp_path / "cafe.truclog.jsonl"
    log.write_bytes(SAMPLE_LOGS[0].read_bytes())
    game = next(read_games(log))
    old = os.umask(0o027)
    try:
        code, out = run("share", str(log), "--game", game.id, "--hand", "2", "--seat", "Ana")
    finally:
        os.umask(old)
    assert code == 0, out
    written = share_path(game, 2, "Ana")
    assert written.parent == tmp_path and out == f"wrote {written}\n"
    assert stat.S_IMODE(written.stat().st_mode) == 0o640
    assert written.read_bytes() == share_page(game, 2, "Ana")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([log.name, written.name])


def test_show_format_html_prints_the_hands_page() -> None:
    game = next(read_games(SAMPLE_LOGS[0]))
    result = CliRunner().invoke(
        main, ["show", str(SAMPLE_LOGS[0]), "--game", game.id, "--hand", "2", "--format", "html"]
    )
    assert result.exit_code == 0, result.output
    assert result.stdout_bytes == share_page(game, 2)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "nope"], "no game with id 'nope'"),
        (["--game", "cafe-du-port-2026-11-29-1", "--hand", "40"], "has no hand 40"),
        (["--game", "cafe-du-port-2026-11-29-1", "--seat", "Bob"], "'Bob' does not play"),
        (["--rubber", "nope"], "no game of rubber 'nope'"),
        ([], "give either --game ID"),
        (["--game", "g", "--rubber", "r"], "give either --game ID"),
        (["--game", "cafe-du-port-2026-11-29-1", "--format", "png"], "shared as html"),
        (["--rubber", "r", "--hand", "1"], "--hand and --seat go with --game"),
        (["--rubber", "r", "--format", "html"], "a rubber's card is png or svg"),
    ],
)
def test_share_errors_are_one_line(args: list[str], message: str) -> None:
    code, out = run("share", str(SAMPLE_LOGS[0]), *args)
    assert code in (1, 2)
    assert message in out and "Traceback" not in out


def test_a_path_that_cannot_be_written_is_one_line_and_leaves_nothing(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_bytes(b"x")
    code, out = run(
        "share",
        str(SAMPLE_LOGS[0]),
        "--game",
        "cafe-du-port-2026-11-29-1",
        "-o",
        str(blocker / "hand.html"),
    )
    assert code == 1 and "cannot write" in out and "Traceback" not in out
    assert [p.name for p in tmp_path.iterdir()] == ["not-a-folder"]
