#!/usr/bin/env python3
"""The search's yardstick against an opponent, at equal nodes: one command for the table of
docs/search.md (minnow against KaggleFish, the competition's 3rd place).

    .venv/bin/python tools/yardstick.py --minnow target/release/minnow \\
        --opponent 'cmd=/tmp/kagglefish/main.out name=kagglefish' --out data/yardstick/HEAD

It plays, each with tools/match.py (Kaggle openings in colour-swapped pairs, Hash 1, no
clock), `--games` games of
- minnow against the opponent at each of `--nodes` nodes a move (5,000, 20,000, 80,000);
- each engine against itself with twice the nodes, at each of `--double` (10,000 → 20,000
  and 40,000 → 80,000): how much more nodes buy each search;
and measures each engine's depth and effective branching factor at each of `--nodes` on the
16 `bench` positions (tools/reports/depth_at_nodes.py). Every match's PGN and log are in
OUT; a rerun of the same command plays only the games a match lacks (`match.py --resume`),
so a cut run resumes. The table goes to OUT/yardstick.md and to the screen, and the last
line is `YARDSTICK rows=..`.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools" / "lib"))
from engines import parse_engine_spec  # noqa: E402
from series import read_summary  # noqa: E402


def summary(output: str, kind: str, what: str, log: Path) -> dict[str, str]:
    """The fields of the last `kind` line (RESULT, DEPTH) of a tool's output."""
    found = read_summary(output, (kind,))
    if found is None:
        raise SystemExit(f"yardstick: no {kind} line from {what}; see {log}")
    return found


def run(command: list[str], log: Path) -> str:
    """Runs a tool under this Python, appending its output to log; returns the output."""
    out = subprocess.run([sys.executable, *command], cwd=ROOT, capture_output=True, text=True)
    with open(log, "a") as f:
        f.write(out.stdout + out.stderr)
    if out.returncode != 0:
        raise SystemExit(f"yardstick: {shlex.join(command)} failed (exit {out.returncode}); see {log}")
    return out.stdout


def spec_with(spec: str, **settings: object) -> str:
    """An engine spec with settings added (name=, nodes=), replacing any given."""
    words = [w for w in shlex.split(spec) if w.partition("=")[0] not in settings]
    return shlex.join(words + [f"{k}={v}" for k, v in settings.items()])


def match(args, name: str, spec1: str, spec2: str, nodes: int) -> dict[str, str]:
    """One match of args.games games (resumed if its PGN exists); its RESULT fields."""
    pgn, log = args.out / f"{name}.pgn", args.out / f"{name}.log"
    command = ["tools/match.py", "--engine1", spec1, "--engine2", spec2, "--nodes", str(nodes),
               "--games", str(args.games), "--concurrency", str(args.concurrency), "--seed", str(args.seed),
               "--pgn", str(pgn), "--resume"]
    return summary(run(command, log), "RESULT", name, log)


def depth(args, name: str, program: str, nodes: int) -> dict[str, str]:
    """DEPTH fields of tools/reports/depth_at_nodes.py for one engine program."""
    log = args.out / f"depth_{name}_{nodes}.log"
    out = run(["tools/reports/depth_at_nodes.py", "--engine", program, "--nodes", str(nodes)], log)
    return summary(out, "DEPTH", f"{name} at {nodes} nodes", log)


def score(result: dict[str, str]) -> str:
    """`W / D / L`, score and Elo of a RESULT line."""
    return (f"{result['wins']} / {result['draws']} / {result['losses']} | {100 * float(result['score']):.1f}% | "
            f"{float(result['elo']):+.0f} ± {float(result['err']):.0f}")


def main(argv: list | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minnow", default=str(ROOT / "target/release/minnow"), help="minnow's binary")
    ap.add_argument("--opponent", default="cmd=/tmp/kagglefish/main.out name=kagglefish",
                    help="the opponent's engine spec (tools/lib/engines.py)")
    ap.add_argument("--nodes", default="5000,20000,80000", help="nodes a move of the matches against the opponent")
    ap.add_argument("--double", default="10000,40000", help="N of each engine's 2N-against-N matches")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=961)
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--out", type=Path, default=ROOT / "data" / "yardstick")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    opponent = parse_engine_spec(args.opponent)
    minnow = spec_with(f"cmd={shlex.quote(args.minnow)} option.Hash=1", name="minnow")
    other = spec_with(args.opponent, **({} if "option.Hash" in args.opponent else {"option.Hash": 1}))
    nodes = [int(n) for n in args.nodes.split(",") if n]
    double = [int(n) for n in args.double.split(",") if n]

    rows = ["| what | nodes a move | W / D / L | score | Elo (95%) |", "| --- | --- | --- | ---: | --- |"]
    for n in nodes:
        result = match(args, f"vs_{opponent.name}_{n}", minnow, other, n)
        rows.append(f"| minnow against {opponent.name} | {n:,} | {score(result)} |")
    for label, spec in (("minnow", minnow), (opponent.name, other)):
        for n in double:
            result = match(args, f"{label}_{2 * n}_vs_{n}", spec_with(spec, name=f"{label}{2 * n}", nodes=2 * n),
                           spec_with(spec, name=f"{label}{n}", nodes=n), n)
            rows.append(f"| {label}, {2 * n:,} against {n:,} | {2 * n:,} / {n:,} | {score(result)} |")
    rows += ["", "| engine | nodes a move | mean depth (min–max) | effective branching factor |",
             "| --- | ---: | --- | ---: |"]
    for label, program in (("minnow", args.minnow), (opponent.name, opponent.argv[0])):
        for n in nodes:
            d = depth(args, label, program, n)
            rows.append(f"| {label} | {n:,} | {d['mean']} ({d['min']}–{d['max']}) | {d['ebf']} |")
    table = "\n".join(rows) + "\n"
    (args.out / "yardstick.md").write_text(table)
    print(table)
    print(f"YARDSTICK rows={len(nodes) + 2 * len(double)} games={args.games} seed={args.seed} out={args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
