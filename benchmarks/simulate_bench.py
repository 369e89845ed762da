"""Simulator benchmark: how many hands per second ``truclog simulate`` writes.

    python benchmarks/simulate_bench.py [--hands 20000] [--seed 1] [--rules classic]

Writes simulated logs to a temporary file (buffered, as the command does) for
two and four players, plain and with every realism option, and prints hands/s
in wall-clock and CPU time (on a shared machine the CPU figure is the steadier
one), with the time a 1M-hand corpus would take at that pace. A first short
run warms the strength memo, as any long run does within its first seconds.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from truclog.simulate.run import Simulation, simulate_to

CASES = {
    "two players": {"players": ("Ana", "Marc")},
    "two players, realistic": {
        "players": ("Ana", "Marc"),
        "hidden": 0.3,
        "timestamps": True,
        "notes": 0.03,
        "annotate": True,
    },
    "four players": {"players": ("Ana", "Marc", "Lu", "Zoé")},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="classic")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "bench.truclog.jsonl"
        simulate_to(Simulation(hands=2_000, seed=args.seed + 1, rules=args.rules), out)
        print(
            f"{'case':<24} {'hands':>8} {'MB':>7} {'hands/s':>9} {'cpu hands/s':>12} {'1M hands':>9}"
        )
        for name, options in CASES.items():
            sim = Simulation(hands=args.hands, seed=args.seed, rules=args.rules, **options)  # type: ignore[arg-type]
            wall, cpu = time.perf_counter(), time.process_time()
            tally = simulate_to(sim, out)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            per_million = 1_000_000 / (tally.hands / cpu) / 60
            print(
                f"{name:<24} {tally.hands:>8} {tally.bytes / 1e6:>7.1f} "
                f"{tally.hands / wall:>9.0f} {tally.hands / cpu:>12.0f} {per_million:>7.1f} min"
            )


if __name__ == "__main__":
    main()
