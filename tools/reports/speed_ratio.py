#!/usr/bin/env python3
"""Speed of a new engine build against an old one: bench nps and perft nps, interleaved.

    python3 tools/reports/speed_ratio.py --old /tmp/minnow-old --new target/release/minnow --repeats 7

Each repeat runs, for the old binary and then the new one (the order alternates every
repeat, so drifting machine load hits both alike): `<exe> bench` (its last line gives nodes
and nps; both builds must print the same node count, or the search changed and the tool
stops with status 1, unless `--different-search` allows it, to compare builds with different
evaluations) and `go perft 6` from the start position in a fresh process (wall
clock from sending the command to `Nodes searched`, node count checked). The table gives
the medians and the new/old ratios of the medians; above 1 the new build is faster. The
last line is machine-readable:
`SPEED bench_nodes=N bench_ratio=R perft_ratio=R repeats=K`.

`--positions FILE --nodes N` measures instead on the positions of real games, one FEN a
line (`tests/data/game_positions.fen`: 119 positions of 2+0.05 self-play): both engines
stay open, and each position is searched to N nodes (`ucinewgame`, Hash 1) by one build and
then the other, the order alternating, so that the machine's drift falls on both within
seconds. Each repeat sums each build's seconds over every position; the ratio is the
median of the repeats' old/new ratios, with the mean depth reached (the last `info depth`)
to show whether the trees are the same. Bench's 16 positions can misstate a cost that
grows with the share of time in the evaluation: a dense layer measured 0.99x on bench and
0.90x on these positions. Last line:
`SPEED positions=P nodes=N ratio=R repeats=K`.

Run it on an otherwise idle machine: a match or datagen on the other core skews both
builds, though the interleaving keeps the ratio fair.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))  # the shared modules
from depth_at_nodes import last_depth  # noqa: E402
from perft_speed import WrongNodeCount, time_perft  # noqa: E402
from uci_engine import EngineError, UciEngine  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PERFT = ("startpos", 6, 119_060_324)


def bench(exe: str) -> tuple[int, int]:
    """(nodes, nps) from the last line of `exe bench`: `<nodes> nodes <nps> nps`."""
    out = subprocess.run([exe, "bench"], capture_output=True, text=True, timeout=600, check=True).stdout
    words = out.strip().splitlines()[-1].split()
    if len(words) != 4 or words[1] != "nodes" or words[3] != "nps":
        raise EngineError(f"{exe}: unexpected bench line {out.strip().splitlines()[-1]!r}")
    return int(words[0]), int(words[2])


def search_seconds(engine: UciEngine, fen: str, nodes: int) -> tuple[float, int]:
    """(wall seconds, depth of the last `info depth`) of `go nodes` on `fen` from a new game."""
    engine.send("ucinewgame")
    engine.send(f"position fen {fen}")
    engine.send("isready")
    engine.wait_for("readyok")
    start = time.perf_counter()
    engine.send(f"go nodes {nodes}")
    deadline = start + engine.timeout
    lines = []
    while True:
        line = engine.read_line(deadline, "'bestmove'")
        if line.startswith("bestmove"):
            return time.perf_counter() - start, last_depth(lines)
        lines.append(line)


def positions_ratio(builds: dict[str, str], fens: list[str], nodes: int, repeats: int) -> float:
    """The median over `repeats` of old/new total seconds on `fens`; prints a line a repeat."""
    ratios = []
    with UciEngine(builds["old"]) as old, UciEngine(builds["new"]) as new:
        engines = {"old": old, "new": new}
        for engine in engines.values():
            engine.handshake()
            engine.send("setoption name Hash value 1")
        for rep in range(repeats):
            secs = {"old": 0.0, "new": 0.0}
            depths: dict[str, list[int]] = {"old": [], "new": []}
            for i, fen in enumerate(fens):
                for name in ("old", "new") if (rep + i) % 2 == 0 else ("new", "old"):
                    t, d = search_seconds(engines[name], fen, nodes)
                    secs[name] += t
                    depths[name].append(d)
            ratios.append(secs["old"] / secs["new"])
            print(f"run {rep + 1}/{repeats}  " + "  ".join(
                f"{name} {nodes * len(fens) / secs[name]:>10,.0f} nps depth {statistics.mean(depths[name]):.2f}"
                for name in ("old", "new")) + f"  new/old {ratios[-1]:.3f}", flush=True)
    return statistics.median(ratios)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True, help="the reference build")
    ap.add_argument("--new", default=str(ROOT / "target/release/minnow"), help="the build measured (default: %(default)s)")
    ap.add_argument("--repeats", type=int, default=5, help="measurements per build (default: %(default)s)")
    ap.add_argument("--no-perft", action="store_true", help="bench only")
    ap.add_argument("--different-search", action="store_true",
                    help="allow different bench node counts (builds with different evaluations: "
                         "nps still compares their speed, not their strength)")
    ap.add_argument("--positions", type=Path,
                    help="measure on these positions (one FEN a line) instead of bench and perft")
    ap.add_argument("--nodes", type=int, default=100_000,
                    help="with --positions, nodes a search (default: %(default)s)")
    args = ap.parse_args(argv)
    if args.repeats < 1:
        ap.error("--repeats must be at least 1")

    builds = {"old": args.old, "new": args.new}
    if args.positions is not None:
        if args.nodes < 1:
            ap.error("--nodes must be at least 1")
        try:
            fens = [line.strip() for line in args.positions.read_text().splitlines() if line.strip()]
            if not fens:
                raise OSError(f"{args.positions}: no positions")
            ratio = positions_ratio(builds, fens, args.nodes, args.repeats)
        except (EngineError, OSError) as exc:
            print(f"ERROR: {exc}", file=sys.stderr)
            return 1
        print(f"nodes/s ratio new/old {ratio:.3f} (median of {args.repeats} repeats)")
        print(f"SPEED positions={len(fens)} nodes={args.nodes} ratio={ratio:.3f} repeats={args.repeats}")
        return 0
    nps: dict[str, list[int]] = {"old": [], "new": []}
    perft: dict[str, list[float]] = {"old": [], "new": []}
    nodes: dict[str, int] = {}
    try:
        for rep in range(args.repeats):
            order = ("old", "new") if rep % 2 == 0 else ("new", "old")
            for name in order:
                n, speed = bench(builds[name])
                nodes[name] = n
                nps[name].append(speed)
                line = f"run {rep + 1}/{args.repeats} {name}  bench {n} nodes {speed:>9,d} nps"
                if not args.no_perft:
                    secs = time_perft(builds[name], PERFT[0], PERFT[1], PERFT[2], 600.0)
                    perft[name].append(secs)
                    line += f"  perft 6 {secs:.3f} s"
                print(line, flush=True)
    except (EngineError, WrongNodeCount, subprocess.SubprocessError, OSError) as exc:
        print(f"ERROR: {exc}", file=sys.stderr)
        return 1
    if nodes["old"] != nodes["new"] and not args.different_search:
        print(f"ERROR: bench node counts differ: old {nodes['old']}, new {nodes['new']} (the search changed)", file=sys.stderr)
        return 1

    bench_ratio = statistics.median(nps["new"]) / statistics.median(nps["old"])
    print(f"\n{'':6} {'bench nps (median)':>20} {'perft 6 s (median)':>20}")
    for name in ("old", "new"):
        p = f"{statistics.median(perft[name]):.3f}" if perft[name] else "-"
        print(f"{name:6} {statistics.median(nps[name]):>20,.0f} {p:>20}")
    print(f"bench nps ratio new/old {bench_ratio:.3f}")
    perft_ratio = None
    if perft["old"]:
        perft_ratio = statistics.median(perft["old"]) / statistics.median(perft["new"])
        print(f"perft nps ratio new/old {perft_ratio:.3f}")
    if nodes["old"] != nodes["new"]:
        print(f"bench node counts: old {nodes['old']}, new {nodes['new']} (different searches)")
    print(f"SPEED bench_nodes={nodes['new']} bench_ratio={bench_ratio:.3f} "
          f"perft_ratio={'-' if perft_ratio is None else f'{perft_ratio:.3f}'} repeats={args.repeats}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
