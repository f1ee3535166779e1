#!/usr/bin/env python3
"""How long an engine takes from `go` to `bestmove` on a nearly empty clock: whether a build
can overstep a short bank (docs/search.md: the time-forfeit check of the search bundle af89178).

    python3 tools/reports/answer_time.py [--engine target/release/minnow] [--positions 300]
                                 [--wtime 40] [--winc 50] [--runs 3] [--seed 1]

For each of `--positions` openings of the harness (tests/data/kaggle_openings.epd, chosen
with `--seed`), sends `position fen …` and `go wtime W btime W winc I binc I` (milliseconds)
and times the answer. Prints the median, p99 and maximum of each run, and a line
`ANSWER runs=.. p50_ms=.. p99_ms=.. max_ms=..` with the p99 range over the runs. Run it
beside a load (e.g. a `cargo build`) to see the time under contention.
"""

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from uci_engine import UciEngine  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def percentile(values: list, share: float) -> float:
    """The nearest-rank percentile (`share` in 0..1) of `values`."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


def answer_times(engine: str, fens: list, wtime: int, winc: int) -> list:
    """Milliseconds from `go` to `bestmove` for each position, one engine process."""
    times = []
    with UciEngine(engine, timeout=10.0) as uci:
        uci.handshake()
        for fen in fens:
            uci.send(f"position fen {fen}")
            uci.send("isready")
            uci.wait_for("readyok")
            start = time.perf_counter()
            uci.send(f"go wtime {wtime} btime {wtime} winc {winc} binc {winc}")
            deadline = start + 10.0
            while not uci.read_line(deadline, "bestmove").startswith("bestmove"):
                pass
            times.append((time.perf_counter() - start) * 1000)
    return times


def main(argv: list | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default=str(ROOT / "target/release/minnow"))
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--wtime", type=int, default=40, help="bank in ms (default 40)")
    ap.add_argument("--winc", type=int, default=50, help="increment in ms (default 50)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    openings = [line.strip() for line in (ROOT / "tests/data/kaggle_openings.epd").read_text().splitlines() if line.strip()]
    fens = random.Random(args.seed).sample(openings, min(args.positions, len(openings)))
    p50, p99, top = [], [], []
    for run in range(args.runs):
        times = answer_times(args.engine, fens, args.wtime, args.winc)
        p50.append(statistics.median(times))
        p99.append(percentile(times, 0.99))
        top.append(max(times))
        print(f"run {run + 1}: median {p50[-1]:.1f} ms, p99 {p99[-1]:.1f} ms, max {top[-1]:.1f} ms ({len(times)} positions)")
    spread = {"p50_ms": p50, "p99_ms": p99}
    fields = [f"runs={args.runs}"] + [f"{k}={min(v):.1f}-{max(v):.1f}" for k, v in spread.items()]
    print("ANSWER", *fields, f"max_ms={max(top):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
