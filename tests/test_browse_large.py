"""A large log: the games list fills in while the log is still being read, and a game\nis read again from its byte offset."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from truclog.actions import Accept, Deal, Fold, Play, Raise
from truclog.cards import deck
from truclog.engine import Phase, State
from truclog.tui.browse import BrowseApp
from truclog.tui.browse.catalog import GameEntry, index_in_child


def played_game(seed: int) -> list[dict[str, Any]]:
    """One legal classic game to 12, played at random through the engine."""
    rng = random.Random(seed)
    players = ["Ana", "Marc"]
    state = State.new(players, dealer="Marc")
    lines: list[dict[str, Any]] = [
        {"type": "game", "format": "truclog/1", "rules": "classic", "players": players,
         "dealer": "Marc", "date": "2026-11-29"}
    ]  # fmt: skip
    while state.phase is not Phase.GAME_OVER:
        (deal,) = state.legal_actions()
        assert isinstance(deal, Deal)
        cards = deck(state.rules.order)
        rng.shuffle(cards)
        dealt = {players[0]: cards[:3], players[1]: cards[3:6]}
        state.push(Deal.of(deal.dealer, dealt, deal.hand))
        lines.append({"type": "deal", "hand": deal.hand, "dealer": deal.dealer,
                      "cards": {p: [str(c) for c in cs] for p, cs in dealt.items()}})  # fmt: skip
        while state.phase is Phase.PLAY:
            player = state.to_act
            assert player is not None
            raised = Raise(player, to=state.value + 1)
            action: Accept | Fold | Raise | Play
            if state.pending is not None:
                action = rng.choice([Accept(player), Fold(player)])
            elif rng.random() < 0.1 and state.is_legal(raised):
                action = raised
            else:
                action = Play(player, rng.choice(state.known_cards(player)[0]))
            state.push(action)
            line: dict[str, Any] = {"type": type(action).__name__.lower(), "player": action.player}
            if isinstance(action, Play):
                line["card"] = str(action.card)
            if isinstance(action, Raise):
                line["to"] = action.to
            lines.append(line)
        outcome = state.outcome
        assert outcome is not None
        lines.append({"type": "result", "winner": outcome.winner, "points": outcome.points,
                      "score": dict(outcome.score)})  # fmt: skip
    return lines


def write_big_log(path: Path, games: int) -> int:
    """``games`` copies of a few played games under distinct ids; returns the hand count."""
    played = [played_game(seed) for seed in range(5)]
    hands = 0
    with path.open("w", encoding="utf-8") as out:
        for i in range(games):
            game = played[i % len(played)]
            game[0]["id"] = f"night-{i}"
            hands += sum(1 for line in game if line["type"] == "result")
            out.write("".join(json.dumps(line) + "\n" for line in game))
    return hands


def test_the_first_game_is_listed_before_the_log_is_read(tmp_path: Path) -> None:
    log = tmp_path / "big.truclog.jsonl"
    hands = write_big_log(log, games=600)
    assert hands > 5000
    batches = list(index_in_child([(str(log), "big")], lambda: False))
    first, fraction = batches[0]
    assert [e.id for e in first if isinstance(e, GameEntry)] == ["night-0"] and fraction < 1
    assert batches[-1][1] == 1.0
    entries = [e for batch, _ in batches for e in batch if isinstance(e, GameEntry)]
    assert [e.id for e in entries] == [f"night-{i}" for i in range(600)]
    assert sum(e.hands for e in entries) == hands and {e.path for e in entries} == {"big"}


async def test_a_large_log_opens_at_its_first_game(tmp_path: Path) -> None:
    log = tmp_path / "big.truclog.jsonl"
    write_big_log(log, games=600)
    app = BrowseApp([str(log)])
    async with app.run_test(size=(120, 36)) as pilot:
        while not app.catalog.entries:
            await pilot.pause(0.01)
        await pilot.press("enter", "enter", "end")  # the replay of hand 1, at its end
        heading = str(app.screen.query_one("#replay-table").content.renderables[0])
        assert heading.startswith("Hand 1 ·")
        assert " wins " in heading or "drawn hand" in heading


async def test_a_game_is_read_again_from_its_offset(tmp_path: Path) -> None:
    log = tmp_path / "big.truclog.jsonl"
    write_big_log(log, games=50)
    app = BrowseApp([str(log)])
    async with app.run_test(size=(120, 36)) as pilot:
        while not app.loaded:
            await pilot.pause(0.05)
        data = log.read_bytes()
        for entry in app.catalog.entries[::7]:
            assert entry.offset is not None
            assert data[entry.offset :].startswith(b'{"type": "game"')
            assert data[: entry.offset].count(b"\n") + 1 == entry.line
            game = app.catalog.open(entry)
            assert game is not None and game.id == entry.id
            assert len(game.hands) == entry.hands and game.line == entry.line
