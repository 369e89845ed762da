"""Statistics from the quick core's facts are the statistics of the engine's replay.

``truclog stats`` builds its rows of a game the quick core clears from the facts the
core gives of it (``truclog.validate._quick.scan(..., facts=True)``), and of every other game
from the engine's replay of the validator's hands. The engine is the reference: each
test here builds the narrow tables (what statistics count) both ways, from the same
logs, and wants identical frames. The logs: the bundled samples, and simulated games
of every preset, two and four players, with hidden deals, redeals, reste, folds,
shows and drawn hands, which the tests check the logs do hold.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from datetime import UTC, date, datetime
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from truclog.engine.rules import PRESETS, get_rules
from truclog.simulate.bots import STYLES
from truclog.simulate.run import Simulation, simulate_to
from truclog.solver.play import Seen, Worth, play_marks
from truclog.stats.counts import Grouping
from truclog.stats.kept import GameFilter
from truclog.stats.run import collect, count_file
from truclog.stats.tables import ANSWER_COLUMNS, COUNTED, TableBuilder, Tables, read_tables
from truclog.validate import CheckedGame, Diagnostic, GameTally, check_log, quick

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
FOUR = ("A", "B", "C", "D")

needs_core = pytest.mark.skipif(not quick.AVAILABLE, reason="the C core is not built")


def narrow(
    items: Iterable[CheckedGame | GameTally | Diagnostic], in_lists: bool = False
) -> tuple[Tables, int]:
    """The narrow tables of the games among ``items``, and how many came as facts;
    ``in_lists``: the batch kept in Python lists, as without the C core."""
    builder, facts = TableBuilder(narrow=True), 0
    if in_lists:
        builder.rows = None
    for item in items:
        if isinstance(item, GameTally):
            facts += 1
        if isinstance(item, CheckedGame | GameTally):
            builder.add(item)
    return builder.flush(), facts


def both_ways(path: Path) -> tuple[Tables, Tables, int]:
    """The narrow tables from the engine's replay, from the facts (as ``truclog stats``
    asks for them: rows of C values), and how many games the facts gave. The facts as
    lists make the same tables, and so do both kept in Python lists (as without the C
    core)."""
    replayed, none = narrow(check_log(str(path)))
    assert none == 0
    from_facts, facts = narrow(quick.check_log(str(path), facts=quick.ROWS_FACTS))
    if facts:
        assert_same(
            narrow(quick.check_log(str(path), facts=quick.STATS_FACTS), in_lists=True)[0],
            from_facts,
        )
        assert_same(narrow(check_log(str(path)), in_lists=True)[0], from_facts)
    return replayed, from_facts, facts


def assert_same(replayed: Tables, from_facts: Tables) -> None:
    for name in ("games", "actions", "seats"):
        assert_frame_equal(getattr(replayed, name), getattr(from_facts, name))


def simulations(
    preset: str | dict[str, object], players: tuple[str, ...], seed: int
) -> list[Simulation]:
    """Games of ``preset`` as the simulator writes them: plain, hidden deals, teams."""
    teams = ("nous", "eux") if len(players) == 4 else None
    styles = {players[0]: STYLES["bluffer"], players[1]: STYLES["calling-station"]}
    ways: list[dict[str, object]] = [
        {"games": 4},
        {"games": 4, "hidden": 0.3, "timestamps": True, "styles": styles},
        {"games": 3, "hidden": 1.0, "notes": 0.3, "teams": teams},
        {"games": 3, "hidden": 0.2, "default_style": STYLES["random"], "annotate": True},
    ]
    return [
        Simulation(seed=seed + n, rules=preset, players=players, **way)  # type: ignore[arg-type]
        for n, way in enumerate(ways)
    ]


def simulated_log(
    tmp_path: Path, preset: str | dict[str, object], players: tuple[str, ...]
) -> Path:
    path = tmp_path / "simulated.truclog.jsonl"
    with path.open("wb") as out:
        for n, sim in enumerate(simulations(preset, players, seed=len(players) * 10)):
            part = tmp_path / f"part-{n}.truclog.jsonl"
            simulate_to(sim, part)
            out.write(part.read_bytes())
    return path


@needs_core
@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.jsonl")), ids=lambda p: p.name[11:30])
def test_a_sample_counts_the_same_from_facts(path: Path) -> None:
    replayed, from_facts, facts = both_ways(path)
    assert facts == replayed.games.height > 0
    assert_same(replayed, from_facts)


@needs_core
@pytest.mark.parametrize("players", [("Ana", "Marc"), FOUR], ids=["two", "four"])
@pytest.mark.parametrize("preset", list(PRESETS))
def test_simulated_games_count_the_same_from_facts(
    preset: str, players: tuple[str, ...], tmp_path: Path
) -> None:
    replayed, from_facts, facts = both_ways(simulated_log(tmp_path, preset, players))
    assert facts == replayed.games.height >= 14
    assert_same(replayed, from_facts)
    seats, actions = replayed.seats, replayed.actions
    assert seats.get_column("size").unique().to_list() == [len(players)]
    assert seats.get_column("cards").null_count() > 0  # hidden deals
    assert seats.get_column("cards").is_not_null().any()
    assert actions.filter(pl.col("type") == "redeal").height > 0 or PRESETS[preset].redeal == "none"
    assert actions.filter(pl.col("type") == "fold").height > 0
    reviewed = actions.filter(pl.col("type").is_in(["accept", "fold"]) & pl.col("right"))
    if len(players) == 2:  # strengths and reviews, worked out in C from the facts
        assert actions.filter(pl.col("type") == "raise").get_column("strength").is_not_null().any()
        assert reviewed.height > 0 and actions.get_column("sound").is_not_null().any()
    else:  # nor defined with partners
        assert actions.select(pl.col("strength", *ANSWER_COLUMNS).null_count()).row(0) == (
            actions.height,
        ) * (1 + len(ANSWER_COLUMNS))
    if PRESETS[preset].reste:
        assert actions.filter(pl.col("reste").fill_null(False)).height > 0


@needs_core
def test_plays_remembered_under_other_ranks_in_the_same_order_review_the_same(
    tmp_path: Path,
) -> None:
    # the core remembers a play's review by the powers of the ranks (their places in the
    # order), its ranks by their places in the hand: a log whose every 8 is a 6, under
    # an order where the 6 stands where the 8 stood, asks the same plays again, each
    # found remembered, and must be reviewed as the engine replays it
    first = simulated_log(tmp_path, "classic", ("Ana", "Marc"))
    replayed, from_facts, facts = both_ways(first)
    assert facts == replayed.games.height >= 14
    assert_same(replayed, from_facts)
    order = PRESETS["classic"].order
    assert "8" in order and "6" not in order
    moved = tmp_path / "moved.truclog.jsonl"
    text = re.sub(r'"8([hdcs])"', r'"6\1"', first.read_text())
    rules = json.dumps(
        {"preset": "classic", "order": order.replace("8", "6")}, separators=(",", ":")
    )
    moved.write_text(text.replace('"rules":"classic"', f'"rules":{rules}'))
    assert text.count('"6') > 100
    replayed, from_facts, facts = both_ways(moved)
    assert facts == replayed.games.height >= 14
    assert_same(replayed, from_facts)
    plays = from_facts.actions.filter(pl.col("type") == "play")
    assert plays.get_column("sound").is_not_null().sum() > 100
    assert plays.get_column("right").is_not_null().sum() > 50


@needs_core
@pytest.mark.parametrize("facts", [quick.ROWS_FACTS, quick.STATS_FACTS], ids=["rows", "lists"])
def test_games_read_a_few_bytes_at_a_time_give_the_same_facts(
    facts: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a game longer than a block is scanned on without its facts until its end is
    # read, then once with them: its facts are those of the game read at once
    path = simulated_log(tmp_path, "classic", FOUR)
    at_once, cleared = narrow(quick.check_log(str(path), facts=facts))
    monkeypatch.setattr(quick, "BLOCK", 500)  # every game spans blocks
    in_blocks, cleared_so = narrow(quick.check_log(str(path), facts=facts))
    assert cleared == cleared_so == at_once.games.height >= 14
    assert_same(in_blocks, at_once)


@pytest.mark.parametrize("players", [("Ana", "Marc"), FOUR], ids=["two", "four"])
def test_the_rows_statistics_count_are_the_full_tables_rows(
    players: tuple[str, ...], tmp_path: Path
) -> None:
    # the full tables write every action's row along the replay; statistics write the
    # rows they count from the hand's facts: the same rows, column for column
    path = simulated_log(tmp_path, "sackson", players)
    games = [g for g in check_log(str(path)) if isinstance(g, CheckedGame)]
    full = read_tables(games)
    counted, _ = narrow(games)
    kinds = ["raise", "accept", "fold", "redeal", "play"]
    rows = full.actions.filter(pl.col("type").is_in(kinds)).select(COUNTED)
    assert rows.height > 100 and set(rows.get_column("type")) == set(kinds)
    assert_frame_equal(rows, counted.actions)
    assert_frame_equal(full.seats, counted.seats)
    assert full.hands.height == full.seats.height // len(players)


THREE_TIED_TRICKS = b"""\
{"type":"game","format":"truclog/1","id":"d","rules":"gamerules","players":["Ana","Marc"],"dealer":"Marc"}
{"type":"deal","hand":1,"dealer":"Marc","cards":{"Ana":["7h","Ah","9s"],"Marc":["??","??","??"]}}
{"type":"play","player":"Ana","card":"9s"}
{"type":"play","player":"Marc","card":"9d"}
{"type":"raise","player":"Ana","to":2}
{"type":"accept","player":"Marc"}
{"type":"play","player":"Ana","card":"Ah"}
{"type":"play","player":"Marc","card":"Ac"}
{"type":"play","player":"Ana","card":"7h"}
{"type":"play","player":"Marc","card":"7c"}
{"type":"result","winner":null,"points":0,"score":{"Ana":0,"Marc":0}}
"""


@needs_core
def test_draws_unprompted_folds_and_shows_count_the_same(tmp_path: Path) -> None:
    rules = {"preset": "gamerules", "fold_anytime": True}
    path = simulated_log(tmp_path, rules, ("Ana", "Marc"))
    path.write_bytes(path.read_bytes() + THREE_TIED_TRICKS)
    replayed, from_facts, facts = both_ways(path)
    assert facts == replayed.games.height
    assert_same(replayed, from_facts)
    seats, actions = replayed.seats, replayed.actions
    drawn = seats.filter(pl.col("ending") == "draw")
    assert drawn.select("player", "cards", "winner", "tricks").rows() == [
        ("Ana", "7A9", None, 3),
        ("Marc", "7A9", None, 3),  # dealt unseen, known from his plays
    ]
    assert actions.filter((pl.col("type") == "fold") & pl.col("pending").is_null()).height > 0
    assert b'"type":"show"' in path.read_bytes()
    assert actions.get_column("sound").is_not_null().any()
    assert actions.get_column("right").is_not_null().any()


MARC_RAISES_AFTER_A_TRICK = b"""\
{"type":"game","format":"truclog/1","id":"g","rules":"classic","players":["Ana","Marc"],"dealer":"Marc"}
{"type":"deal","hand":1,"dealer":"Marc","cards":{"Ana":["7h","Ah","9s"],"Marc":["Kd","8c","Qs"]}}
{"type":"play","player":"Ana","card":"9s"}
{"type":"play","player":"Marc","card":"8c"}
{"type":"raise","player":"Marc","to":2}
{"type":"accept","player":"Ana"}
{"type":"play","player":"Marc","card":"Kd"}
{"type":"play","player":"Ana","card":"7h"}
{"type":"play","player":"Ana","card":"Ah"}
{"type":"play","player":"Marc","card":"Qs"}
{"type":"result","winner":"Ana","points":2,"score":{"Ana":2,"Marc":0}}
"""


CLASSIC = get_rules("classic")


@needs_core
def test_the_facts_of_a_hand_are_its_moments(tmp_path: Path) -> None:
    # classic: 7 > 8 > A > K > Q > J > 10 > 9. Marc's 8 takes the 9, Marc raises
    # on his lead (his 8 played, Ana's 9, one trick won), Ana's 7 takes the K and
    # her A the Q: Ana wins the hand at 2.
    path = tmp_path / "hand.truclog.jsonl"
    path.write_bytes(MARC_RAISES_AFTER_A_TRICK)
    (game,) = quick.check_log(str(path), facts=True)
    assert isinstance(game, GameTally) and game.facts is not None
    assert game.facts.teams == ("Ana", "Marc")
    # the hand: number 1, Marc (seat 1) dealt, 0-0 before it, Ana's side won 2 points
    # by tricks, no reste, three tricks, the first taken by Marc's side; each seat's
    # ranks, high to low
    hand = [[1], [1], [0], [0], [0], [2], [1], [0], [3], [1], ["7A9"], ["8KQ"], [None], [None]]
    assert list(game.facts.hands) == hand
    # Marc's raise to 2 (from 1) as leader, answered by Ana's accept as follower.
    # Its strength: Ana holds 2 of the 28 cards Marc does not see (all but his 8 K Q and
    # her 9), C(28, 2) = 378 ways. Marc has the first trick and leads K or Q: he loses
    # only if she takes both tricks left, strictly, so both her cards beat Q and one
    # beats K: of the 14 above Q (three 8s, four 7s, four As, three Ks), all pairs but
    # two Ks: C(14, 2) - C(3, 2) = 88. Strength (378 - 88) / 378.
    # Her accept: the stakes are 2 to Marc if he wins (0 + 2), 2 to her, 1 conceded
    # by a fold (0 + 1). She holds 7 and A, lost the first trick and must take both
    # the others: she fails if Marc holds a 7 (3 left) or two of the three 8s and three
    # As, so she wins C(25, 2) - C(6, 2) = 285 of 378 holdings (none drawn): accepting
    # is worth (285 * 2 - 93 * 2) / 378, folding -1, so the accept is sound; face up
    # her 7 and A take his K and Q: accepting won 2 against -1, right, no points given.
    # The plays come as rows too, each with its rank, the hand's value then, whether
    # an accepted reste rides on it, and its review (sound, right, lost). Face up, Ana's
    # lead of the 9 is the only one that wins (her 7 or A first leaves Marc's 8 to
    # take a trick and his K or Q the last), so it is right; after it Marc loses
    # whatever he plays, so each of his plays is right; her 7 on his K and her last
    # cards win too. Her 7 on his K is not sound: her A takes it as well and keeps the
    # 7, which no card beats, for the last trick. A last card is always sound and
    # right. The soundness of Marc's plays and of her lead is the reference reviewer's.
    accept = (285 * 2 - 93 * 2) / 378
    review = (None,) * 5
    nine = play_marks(CLASSIC, "9", Worth(1, 1), Seen(), "7A9")[0]
    eight = play_marks(CLASSIC, "8", Worth(1, 1), Seen("", "9", "", True, True), "8KQ")[0]
    king = play_marks(CLASSIC, "K", Worth(2, 2), Seen("8", "9", "W", False, True), "8KQ")[0]
    told = [  # the hand's index, seat, type, reste, accepted (a redeal's), the raise
        # waiting, strength, the raise's answer, the review (accepting's worth,
        # folding's, sound, right, points given), to, position, lost, card, value
        (0, 0, "play", False, None, None, None, None, None, None, nine, True, None, None, "leader", 0, "9", 1),
        (0, 1, "play", False, None, None, None, None, None, None, eight, True, None, None, "follower", 0, "8", 1),
        (0, 1, "raise", False, None, None, 290 / 378, "accept", *review, 2, "leader", None, None, None),
        (0, 0, "accept", None, None, 2, None, None, accept, -1.0, True, True, 0, None, "follower", None, None, None),
        (0, 1, "play", False, None, None, None, None, None, None, king, True, None, None, "leader", 0, "K", 2),
        (0, 0, "play", False, None, None, None, None, None, None, False, True, None, None, "follower", 0, "7", 2),
        (0, 0, "play", False, None, None, None, None, None, None, True, True, None, None, "leader", 0, "A", 2),
        (0, 1, "play", False, None, None, None, None, None, None, True, True, None, None, "follower", 0, "Q", 2),
    ]  # fmt: skip
    assert list(game.facts.actions) == [list(column) for column in zip(*told, strict=True)]
    replayed, from_facts, _ = both_ways(path)
    assert_same(replayed, from_facts)
    counted = from_facts.actions.filter(pl.col("type") != "play")
    rows = counted.select("type", "player", "to", "pending", "position", "answer")
    assert rows.rows() == [
        ("raise", "Marc", 2, None, "leader", "accept"),
        ("accept", "Ana", None, 2, "follower", None),
    ]
    assert counted.get_column("hand_won").to_list() == [False, True]
    # Ana's lead of the 9 is the one that wins: Marc must take it (with the 8, his K
    # or his Q) and Ana's 7 and A then take his two others; led first, her 7 or her A
    # lets his 8 and K take two tricks. Whatever Marc does then, he loses.
    plays = from_facts.actions.filter(pl.col("type") == "play")
    assert plays.select("player", "right", "lost").rows() == [
        ("Ana", True, 0),
        ("Marc", True, 0),
        ("Marc", True, 0),
        ("Ana", True, 0),
        ("Ana", True, 0),
        ("Marc", True, 0),
    ]
    assert from_facts.seats.get_column("cards").to_list() == ["7A9", "8KQ"]


@needs_core
def test_stats_count_the_same_with_and_without_the_quick_core(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = [
        str(simulated_log(tmp_path, "sackson", ("Ana", "Marc"))),
        *map(str, SAMPLES.glob("*.jsonl")),
    ]
    grouping = Grouping(("opponent", "position", "month"))
    quick_counts, quick_tally = collect(paths, grouping)
    monkeypatch.setattr(quick, "AVAILABLE", False)
    counts, tally = collect(paths, grouping)
    assert quick_counts.counts == counts.counts
    assert quick_tally == tally


@needs_core
def test_a_game_filtered_by_day_is_filtered_from_its_facts(tmp_path: Path) -> None:
    path = tmp_path / "timed.truclog.jsonl"
    simulate_to(Simulation(games=3, seed=4, timestamps=True), path)
    keep = GameFilter(since=date(2100, 1, 1))
    counted = count_file(str(path), Grouping(), keep)
    assert counted.tally.filtered_out == 3 and len(counted.counts) == 0


@needs_core
def test_a_game_without_a_date_is_dated_by_its_first_timed_line(tmp_path: Path) -> None:
    path = tmp_path / "undated.truclog.jsonl"
    simulate_to(
        Simulation(games=2, seed=8, timestamps=True, start=datetime(2027, 3, 4, 20, tzinfo=UTC)),
        path,
    )
    lines = []
    for line in path.read_bytes().splitlines(keepends=True):
        if line.startswith(b'{"type":"game"'):
            header = json.loads(line)
            header.pop("date", None), header.pop("t", None)
            line = json.dumps(header).encode() + b"\n"
        lines.append(line)
    path.write_bytes(b"".join(lines))
    replayed, from_facts, facts = both_ways(path)
    assert facts == 2
    assert_same(replayed, from_facts)
    days = from_facts.games.get_column("date").to_list()
    assert days[0] == date(2027, 3, 4) and None not in days  # no date but in the lines


def raised_again_and_again(raises: int) -> bytes:
    """A gamerules hand (raises to any higher value, no limit) that Ana raises ``raises``
    times, each accepted, and wins with her three sevens."""
    lines = [
        '{"type":"game","format":"truclog/1","id":"m","rules":"gamerules","players":["Ana","Marc"],"dealer":"Marc"}',
        '{"type":"deal","hand":1,"dealer":"Marc","cards":{"Ana":["7h","7s","7d"],"Marc":["9h","9s","9d"]}}',
    ]
    for to in range(2, raises + 2):
        lines += [
            f'{{"type":"raise","player":"Ana","to":{to}}}',
            '{"type":"accept","player":"Marc"}',
        ]
    for mine, his in (("7h", "9h"), ("7s", "9s")):
        lines += [f'{{"type":"play","player":"Ana","card":"{mine}"}}']
        lines += [f'{{"type":"play","player":"Marc","card":"{his}"}}']
    score = raises + 1
    lines += [
        f'{{"type":"result","winner":"Ana","points":{score},"score":{{"Ana":{score},"Marc":0}}}}'
    ]
    return "\n".join(lines).encode() + b"\n"


@needs_core
@pytest.mark.parametrize(("raises", "facts"), [(32, 1), (33, 0)])
def test_a_hand_of_too_many_raises_is_replayed(raises: int, facts: int, tmp_path: Path) -> None:
    # the core keeps 64 raises and answers of a hand: 32 raises and their accepts come
    # as facts, a 33rd goes to the engine's replay; both count the same
    path = tmp_path / "raises.truclog.jsonl"
    path.write_bytes(raised_again_and_again(raises))
    replayed, from_facts, given = both_ways(path)
    assert given == facts
    assert_same(replayed, from_facts)
    actions = from_facts.actions.filter(pl.col("type") != "play")
    assert actions.height == 2 * raises
    assert actions.get_column("strength").to_list()[::2] == [1.0] * raises  # three sevens
    assert actions.get_column("right").to_list()[1::2] == [False] * raises  # Marc's accepts
