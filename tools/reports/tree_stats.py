#!/usr/bin/env python3
"""Tree statistics of engines at equal nodes: how each one's search spends a node budget on
the `bench` positions (quiescence share, TT, cutoffs, null move, ProbCut, extensions,
reductions, re-searches), side by side.

    cargo build --release --features stats && cp target/release/minnow data/bin/stats/minnow
    .venv/bin/python tools/reports/tree_stats.py --engine 'cmd=data/bin/stats/minnow name=minnow' \\
        --engine 'cmd=path/to/other-stats-build name=other' --nodes 20000,80000 --out data/tree_stats/both

Each engine (an engine spec as tools/lib/engines.py reads it, `--engine` repeatable; UCI
only; Hash 1 unless the spec sets `option.Hash` or `memory`) searches each of the 16
positions of `frontend/src/bench.rs` from a cleared state (`ucinewgame`) with `go nodes N`
for each `--nodes` value (default 20000,80000,320000,1280000). The engine must be a build
that prints, just before `bestmove`, one line

    info string stats nodes=N qnodes=N tt_probes=N ... lmr_d1_m2=COUNT/PLIES ...

with every counter of the shared definition (minnow's `--features stats`, engine/src/stats.rs,
which documents each one); an engine that prints none is an error. The counters are summed over
the positions and printed as one Markdown table, a row per engine and node count: the mean depth
(of the last `info depth` line), the quiescence share (qnodes/nodes), the TT hit and cut rates
(of tt_probes), the first-move cut rate (of cut_nodes), the null-move success rate
(nmp_cuts/nmp_tries) and tries per 1,000 nodes, ProbCut tries per 1,000 nodes and success,
extensions per 1,000 nodes (check, singular, other), late-move reductions per 1,000 nodes and
their mean in plies (lmr_plies/lmr_count), and the aspiration (asp_fails/asp_iters) and PVS
(pvs_researches/pvs_tries) re-search rates. A second table for each engine gives the mean reduction
(and the count) by the node's depth and the move's number at the largest node count.

`--out DIR` also writes DIR/tree_stats.md (the tables) and DIR/tree_stats.json (the positions,
and for each engine and node count the depths and the summed counters).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))  # the shared modules
sys.path.insert(0, str(Path(__file__).resolve().parent))
from depth_at_nodes import bench_positions, last_depth, search_lines  # noqa: E402
from engines import EngineSpec, SpecError, parse_engine_spec  # noqa: E402
from uci_engine import EngineError, UciEngine  # noqa: E402

# The counters of the line, in its order (engine/src/stats.rs documents each one).
COUNTERS = ("nodes", "qnodes", "tt_probes", "tt_hits", "tt_cuts", "cut_nodes", "first_move_cuts",
            "nmp_tries", "nmp_cuts", "probcut_tries", "probcut_cuts", "ext_check", "ext_singular",
            "ext_other", "lmr_count", "lmr_plies", "asp_iters", "asp_fails", "pvs_tries", "pvs_researches")
# The reduction table's buckets: the low end of each node-depth and move-number range.
DEPTH_BUCKETS = (1, 3, 5, 7, 9, 12)
MOVE_BUCKETS = (2, 4, 8, 16)
BUCKETS = tuple(f"lmr_d{d}_m{m}" for d in DEPTH_BUCKETS for m in MOVE_BUCKETS)
STATS_PREFIX = "info string stats "


class StatsError(Exception):
    """An engine that prints no stats line, or a line that lacks a counter."""


def parse_stats(line: str) -> dict[str, int | list[int]]:
    """The counters of an `info string stats` line: each counter an int, each reduction
    bucket `[count, plies]`. Raises StatsError if one is missing or malformed."""
    fields = dict(word.partition("=")[::2] for word in line[len(STATS_PREFIX):].split())
    stats: dict[str, int | list[int]] = {}
    try:
        for key in COUNTERS:
            stats[key] = int(fields[key])
        for key in BUCKETS:
            count, plies = fields[key].split("/")
            stats[key] = [int(count), int(plies)]
    except KeyError as missing:
        raise StatsError(f"the stats line has no {missing.args[0]}= : {line!r}") from None
    except ValueError:
        raise StatsError(f"the stats line has a counter that is not a number: {line!r}") from None
    return stats


def search(engine: UciEngine, fen: str, nodes: int, timeout: float) -> tuple[int, dict]:
    """`go nodes N` on `fen` from a cleared state: the last depth reported and the stats."""
    lines = search_lines(engine, fen, nodes, timeout)
    stats_line = next((line for line in reversed(lines) if line.startswith(STATS_PREFIX)), None)
    if stats_line is None:
        raise StatsError(f"engine {engine.path!r} printed no 'info string stats' line before bestmove "
                         f"(go nodes {nodes}, position {fen}): is it a build with tree statistics "
                         "(minnow: cargo build --release --features stats)?")
    return last_depth(lines), parse_stats(stats_line)


def add(total: dict, stats: dict) -> None:
    """Adds one search's counters to `total`."""
    for key, value in stats.items():
        if isinstance(value, list):
            total[key] = [a + b for a, b in zip(total.get(key, [0, 0]), value)]
        else:
            total[key] = total.get(key, 0) + value


def engine_spec(text: str) -> EngineSpec:
    """The spec of an engine this tool can drive (UCI, in the current folder)."""
    spec = parse_engine_spec(text)
    if spec.proto != "uci":
        raise SpecError(f"{spec.name}: tree statistics are read from UCI engines only")
    if spec.workdir is not None:
        raise SpecError(f"{spec.name}: dir= is not supported here")
    return spec


def run_engine(spec: EngineSpec, node_counts: list[int], fens: list[str], timeout: float) -> dict[int, dict]:
    """For each node count, the engine's depths and summed counters over `fens`."""
    options = dict(spec.options)
    if not any(name.lower() == "hash" for name in options):
        options["Hash"] = str(spec.memory or 1)
    results = {}
    with UciEngine(spec.argv[0], args=spec.argv[1:]) as engine:
        engine.handshake()
        for name, value in options.items():
            engine.send(f"setoption name {name} value {value}")
        for nodes in node_counts:
            started, depths, total = time.perf_counter(), [], {}
            for fen in fens:
                depth, stats = search(engine, fen, nodes, timeout)
                depths.append(depth)
                add(total, stats)
            results[nodes] = {"depths": depths, "stats": total}
            print(f"{spec.name} {nodes} nodes: {len(fens)} positions in {time.perf_counter() - started:.1f} s",
                  file=sys.stderr, flush=True)
    return results


def ratio(numerator: int, denominator: int, scale: float = 100.0, digits: int = 1) -> str:
    """numerator/denominator × scale, or '–' when the denominator is 0."""
    return f"{numerator * scale / denominator:.{digits}f}" if denominator else "–"


# The first table's columns after engine and nodes: (heading, function of the sums).
COLUMNS = (
    ("depth", lambda s, d: f"{sum(d) / len(d):.2f}"),
    ("qsearch %", lambda s, d: ratio(s["qnodes"], s["nodes"])),
    ("TT hit %", lambda s, d: ratio(s["tt_hits"], s["tt_probes"])),
    ("TT cut %", lambda s, d: ratio(s["tt_cuts"], s["tt_probes"])),
    ("1st-move cut %", lambda s, d: ratio(s["first_move_cuts"], s["cut_nodes"])),
    ("NMP ok %", lambda s, d: ratio(s["nmp_cuts"], s["nmp_tries"])),
    ("NMP /1k", lambda s, d: ratio(s["nmp_tries"], s["nodes"], 1000, 2)),
    ("ProbCut /1k", lambda s, d: ratio(s["probcut_tries"], s["nodes"], 1000, 2)),
    ("ProbCut ok %", lambda s, d: ratio(s["probcut_cuts"], s["probcut_tries"])),
    ("ext check /1k", lambda s, d: ratio(s["ext_check"], s["nodes"], 1000, 2)),
    ("ext singular /1k", lambda s, d: ratio(s["ext_singular"], s["nodes"], 1000, 2)),
    ("ext other /1k", lambda s, d: ratio(s["ext_other"], s["nodes"], 1000, 2)),
    ("LMR /1k", lambda s, d: ratio(s["lmr_count"], s["nodes"], 1000, 2)),
    ("LMR mean", lambda s, d: ratio(s["lmr_plies"], s["lmr_count"], 1, 2)),
    ("asp re %", lambda s, d: ratio(s["asp_fails"], s["asp_iters"])),
    ("PVS re %", lambda s, d: ratio(s["pvs_researches"], s["pvs_tries"])),
)


def range_label(lows: tuple[int, ...], i: int) -> str:
    """`3-4` for bucket i of `lows`, `12+` for the last."""
    return f"{lows[i]}+" if i == len(lows) - 1 else f"{lows[i]}-{lows[i + 1] - 1}"


def markdown(results: dict[str, dict[int, dict]]) -> str:
    """The summary table, then each engine's reductions at its largest node count."""
    head = ["engine", "nodes"] + [name for name, _ in COLUMNS]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for name, by_nodes in results.items():
        for nodes, run in by_nodes.items():
            cells = [name, f"{nodes:,}"] + [cell(run["stats"], run["depths"]) for _, cell in COLUMNS]
            lines.append("| " + " | ".join(cells) + " |")
    for name, by_nodes in results.items():
        nodes = max(by_nodes)
        stats = by_nodes[nodes]["stats"]
        moves = [f"m{range_label(MOVE_BUCKETS, j)}" for j in range(len(MOVE_BUCKETS))]
        lines += ["", f"{name} at {nodes:,} nodes: mean reduction in plies (reductions), by node depth and move number",
                  "", "| depth | " + " | ".join(moves) + " |", "|" + " --- |" * (len(moves) + 1)]
        for i, d in enumerate(DEPTH_BUCKETS):
            cells = []
            for m in MOVE_BUCKETS:
                count, plies = stats[f"lmr_d{d}_m{m}"]
                cells.append(f"{ratio(plies, count, 1, 2)} ({count:,})")
            lines.append(f"| d{range_label(DEPTH_BUCKETS, i)} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def node_list(text: str) -> list[int]:
    """`20000,80000` as a list of positive ints."""
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated node counts, got {text!r}") from None
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError(f"node counts must be at least 1, got {text!r}")
    return counts


def main(argv: list | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", action="append", required=True, metavar="SPEC",
                    help="an engine spec (repeatable), e.g. 'cmd=data/bin/stats/minnow name=minnow'")
    ap.add_argument("--nodes", type=node_list, default=node_list("20000,80000,320000,1280000"),
                    help="comma-separated node counts (default 20000,80000,320000,1280000)")
    ap.add_argument("--out", type=Path, help="folder for tree_stats.md and tree_stats.json")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds allowed a search (default 600)")
    args = ap.parse_args(argv)
    fens = bench_positions()
    results: dict[str, dict[int, dict]] = {}
    try:
        specs = [engine_spec(text) for text in args.engine]
        names = [spec.name for spec in specs]
        if len(set(names)) < len(names):
            raise SpecError(f"two engines have the same name ({', '.join(names)}): give each a name=")
        for spec in specs:
            results[spec.name] = run_engine(spec, args.nodes, fens, args.timeout)
    except (SpecError, StatsError, EngineError) as e:
        print(f"tree_stats: error: {e}", file=sys.stderr)
        return 2
    table = markdown(results)
    print(table, end="")
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "tree_stats.md").write_text(table)
        raw = {"positions": fens, "engines": {name: {str(n): run for n, run in by_nodes.items()}
                                              for name, by_nodes in results.items()}}
        (args.out / "tree_stats.json").write_text(json.dumps(raw, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
