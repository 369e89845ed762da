"""Validate, stats and export on a real Dask cluster (a LocalCluster of two worker
processes) give what the single-machine commands give on the same files: the same
JSON report, the same statistics, the same tables; a file that fails is reported
without losing the others, and a worker killed mid-run changes nothing."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import dask
import duckdb
import polars as pl
import pytest
from click.testing import CliRunner
from dask.distributed import Client, LocalCluster
from polars.testing import assert_frame_equal

from truclog.cli import main
from truclog.simulate.bots import STYLES
from truclog.simulate.run import Simulation, simulate_to
from truclog.stats import distributed
from truclog.stats.counts import Grouping, finish
from truclog.stats.run import collect
from truclog.stats.tables import SCHEMAS
from truclog.validate.report import report_file

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_logs"
KEYS = {
    "games": ["fingerprint"],
    "hands": ["fingerprint", "hand"],
    "actions": ["fingerprint", "seq"],
    "annotations": ["fingerprint", "hand", "step", "source"],
}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Simulated logs of several presets (one gzipped), the sample logs, a copy of a
    log under another name (its games count once) and a broken log."""
    folder = tmp_path_factory.mktemp("corpus")
    styles = {"Ana": STYLES["bluffer"], "Marc": STYLES["calling-station"]}
    runs = {
        "a-classic.jsonl": Simulation(games=5, seed=31, styles=styles, hidden=0.3),
        "b-sackson.jsonl": Simulation(games=4, seed=32, rules="sackson"),
        "c-four.jsonl": Simulation(games=3, seed=33, players=("A", "B", "C", "D")),
    }
    for name, simulation in runs.items():
        simulate_to(simulation, folder / name)
    with (
        (folder / "b-sackson.jsonl").open("rb") as raw,
        gzip.open(folder / "d.jsonl.gz", "wb") as gz,
    ):
        shutil.copyfileobj(raw, gz)
    for sample in SAMPLES.glob("*.jsonl"):
        shutil.copy(sample, folder / f"e-{sample.name}")
    shutil.copy(folder / "a-classic.jsonl", folder / "f-copy.jsonl")
    for broken in ("E304-card-not-held", "E704-wrong-score", "E004-torn-last-line"):
        shutil.copy(SAMPLES / "invalid" / f"{broken}.truclog.jsonl", folder / f"g-{broken}.jsonl")
    return folder


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout


def test_validate_json_is_byte_equal(corpus: Path, client: Client) -> None:
    address = client.scheduler.address
    here = run("validate", "--format", "json", str(corpus))
    there = run("validate", "--format", "json", "--scheduler", address, str(corpus))
    assert here == there
    assert here[0] == 1  # the broken logs
    document = json.loads(there[1])
    codes = {d["code"] for f in document["files"] for d in f["diagnostics"]}
    assert {"E304", "E704", "E004", "W802"} <= codes


def test_validate_text_is_the_same(corpus: Path, client: Client) -> None:
    address = client.scheduler.address
    assert run("validate", str(corpus)) == run("validate", "--scheduler", address, str(corpus))


def test_a_file_that_cannot_be_read_is_reported_and_the_others_kept(
    corpus: Path, client: Client
) -> None:
    files = sorted(str(p) for p in corpus.glob("[ab]*.jsonl"))
    gone = str(corpus / "vanished.jsonl")  # listed, then gone before a worker opens it
    reports = list(distributed.reports(client, [files[0], gone, files[1]]))
    assert [r.path for r in reports] == [files[0], gone, files[1]]
    assert [d.code for d in reports[1].diagnostics] == ["E000"]
    assert reports[1].diagnostics[0].path == gone
    assert "No such file" in reports[1].diagnostics[0].message
    for report, path in zip([reports[0], reports[2]], files, strict=True):
        alone = report_file(path)
        assert (report.game_count, report.hands, report.diagnostics) == (
            alone.game_count,
            alone.hands,
            alone.diagnostics,
        )


def test_a_task_that_fails_on_the_cluster_becomes_a_problem_of_its_file(client: Client) -> None:
    results = list(
        distributed.ordered(client, _fails_on_b, ["a", "b", "c"], lambda item, exc: f"{item}!{exc}")
    )
    assert results == ["a", "b!no b here", "c"]


def _fails_on_b(item: str) -> str:
    if item == "b":
        raise RuntimeError("no b here")
    return item


def test_stats_json_is_equal(corpus: Path, client: Client) -> None:
    address = client.scheduler.address
    for extra in ([], ["--by", "opponent"], ["--rules", "sackson"]):
        here = run("stats", "--format", "json", *extra, str(corpus))
        there = run("stats", "--format", "json", "--scheduler", address, *extra, str(corpus))
        assert here == there
        assert here[0] == 0
        assert run("stats", "--format", "json", "-j", "2", *extra, str(corpus)) == here
        summary = json.loads(there[1])["summary"]
        # f-copy of a-classic, d.jsonl.gz of b-sackson: copies whether filtered out or not
        assert summary["duplicate_games"] == 5 + 4


def test_a_bad_hand_is_left_out_the_same_on_the_cluster(tmp_path: Path, client: Client) -> None:
    """A deal while a hand is in progress: both hands of that number are left out, on
    one machine and on the cluster alike (the file is not dropped by either)."""
    cafe = SAMPLES / "2026-11-29-cafe-du-port-classic.truclog.jsonl"
    text = cafe.read_text().replace('"accepted":true', '"accepted":false', 1)
    (tmp_path / "dealt-again.jsonl").write_text(text)
    shutil.copy(SAMPLES / "2026-12-06-sackson-rubber.truclog.jsonl", tmp_path / "other.jsonl")
    address = client.scheduler.address
    here = run("stats", "--format", "json", str(tmp_path))
    there = run("stats", "--format", "json", "--scheduler", address, str(tmp_path))
    assert here == there
    players = {row["player"]: row for row in json.loads(here[1])["players"]}
    assert players["Ana"]["hands_played"] == 14  # of the café game's 15 hands
    for name in ("here", "there"):
        extra = [] if name == "here" else ["--scheduler", address]
        assert run("export", "--to", str(tmp_path / name), *extra, str(tmp_path))[0] == 0
    for table in KEYS:
        assert_frame_equal(
            pl.read_parquet(tmp_path / "here" / table).sort(KEYS[table]),
            pl.read_parquet(tmp_path / "there" / table).sort(KEYS[table]),
            check_column_order=False,
        )


def read_back(folder: Path, table: str) -> pl.DataFrame:
    frame = pl.read_parquet(folder / table / "**" / "*.parquet", hive_partitioning=True)
    return frame.select(sorted(frame.columns)).sort(KEYS[table], nulls_last=True)


def test_export_writes_the_same_tables_as_one_dataset(
    corpus: Path, client: Client, tmp_path: Path
) -> None:
    address = client.scheduler.address
    for extra in (["--rules", "sackson"], []):
        here, there = tmp_path / f"here{len(extra)}", tmp_path / f"there{len(extra)}"
        done_here = CliRunner().invoke(
            main, ["export", "--partition-by", "date", "--to", str(here), *extra, str(corpus)]
        )
        done_there = CliRunner().invoke(
            main, ["export", "--scheduler", address, "--to", str(there), *extra, str(corpus)]
        )
        assert done_here.exit_code == done_there.exit_code == 0
        assert done_here.stderr.replace(str(here), "DIR") == done_there.stderr.replace(
            str(there), "DIR"
        )  # the same games, duplicates and filtered games said
        for table in SCHEMAS:
            assert_frame_equal(read_back(here, table), read_back(there, table))
        assert not list(there.glob(".staging-*"))
    query = (
        "SELECT count(*), count(DISTINCT fingerprint), count(DISTINCT date) FROM read_parquet("
        f"'{there}/games/**/*.parquet', hive_partitioning = true)"
    )
    [(rows, distinct, dates)] = duckdb.connect().execute(query).fetchall()
    games = read_back(here, "games")
    assert rows == distinct == games.height
    assert dates == games["date"].n_unique()


def test_export_refuses_a_folder_that_holds_tables(
    corpus: Path, client: Client, tmp_path: Path
) -> None:
    (tmp_path / "games").mkdir()
    code, _ = run(
        "export", "--scheduler", client.scheduler.address, "--to", str(tmp_path), str(corpus)
    )
    assert code != 0
    assert not (tmp_path / "hands").exists()


def test_a_worker_killed_mid_run_changes_nothing(corpus: Path, tmp_path: Path) -> None:
    """Kill one worker process while files are being counted: Dask runs its tasks again
    (the nanny starts a new worker), and the statistics come out the same."""
    many = tmp_path / "many"
    many.mkdir()
    for i in range(12):
        simulate_to(Simulation(games=2, seed=100 + i), many / f"log-{i:02d}.jsonl")
    grouping = Grouping()
    expected, expected_tally = collect([str(many)], grouping)
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        pids = list(client.run(os.getpid).values())
        killed: list[int] = []

        def kill_once(size: int, hands: int) -> None:
            if not killed:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])

        counts, tally = distributed.statistics(client, [str(many)], grouping, progress=kill_once)
        assert killed
        assert pids[0] not in client.run(os.getpid).values()
    assert tally == expected_tally
    assert finish(counts, "player") == finish(expected, "player")


def test_local_n_starts_a_cluster_of_its_own(corpus: Path) -> None:
    path = str(corpus / "a-classic.jsonl")
    assert run("validate", "--scheduler", "local:1", path) == run("validate", path)


@pytest.mark.parametrize("bad", ["local:0", "local:x"])
def test_a_bad_scheduler_is_a_clear_error(corpus: Path, bad: str) -> None:
    result = CliRunner().invoke(main, ["validate", "--scheduler", bad, str(corpus)])
    assert result.exit_code == 2
    assert "local:N" in result.output
    assert "Traceback" not in result.output


def test_an_unreachable_scheduler_is_a_clear_error(corpus: Path) -> None:
    with dask.config.set({"distributed.comm.timeouts.connect": "2s"}):
        result = CliRunner().invoke(
            main, ["stats", "--scheduler", "tcp://127.0.0.1:9", str(corpus / "a-classic.jsonl")]
        )
    assert result.exit_code == 2
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in result.output


def test_urls_and_globs_name_the_same_logs(corpus: Path) -> None:
    local = run(
        "stats", "--format", "json", str(corpus / "a-classic.jsonl"), str(corpus / "d.jsonl.gz")
    )
    url = run("stats", "--format", "json", f"file://{corpus}/[ad]*.jsonl*")
    assert local == url
    whole = json.loads(run("validate", "--format", "json", f"file://{corpus}")[1])
    assert whole["summary"]["files"] == len(list(corpus.iterdir()))


def test_without_scheduler_dask_is_not_imported(corpus: Path) -> None:
    code = (
        "import sys\nfrom truclog.cli import main\n"
        f"try:\n    main(['validate', {str(corpus / 'a-classic.jsonl')!r}])\n"
        "except SystemExit:\n    pass\n"
        "assert 'dask' not in sys.modules and 'distributed' not in sys.modules, 'dask imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("command", ["validate", "stats"])
def test_standard_input_on_a_cluster_is_a_clear_error(command: str) -> None:
    result = CliRunner().invoke(main, [command, "--scheduler", "local:1", "-"], input="")
    assert result.exit_code == 2
    assert "standard input (-) cannot be read on a Dask cluster" in result.output


def test_review_json_is_equal(corpus: Path, client: Client) -> None:
    address = client.scheduler.address
    here = run("review", "--format", "json", str(corpus))
    there = run("review", "--format", "json", "--scheduler", address, str(corpus))
    assert here == there
    assert here[0] == 0
    assert run("review", "--format", "json", "-j", "2", str(corpus)) == here
    decisions = json.loads(there[1])["decisions"]
    assert not [d for d in decisions if Path(d["path"]).name == "f-copy.jsonl"]  # counted once
    assert sum(d["right"] is not None for d in decisions) > 100
