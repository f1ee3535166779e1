#!/usr/bin/env python3
"""SPSA tuning of the search's constants by self-play (the Fishtest / OpenBench method).

    cargo build --release --features tune --target-dir target/tune
    .venv/bin/python tools/spsa.py --engine target/tune/release/minnow \\
        --params RFP_MARGIN,FUTILITY_BASE,FUTILITY_PER_DEPTH,NMP_EVAL_DIVISOR \\
        --iterations 500 --tc 2+0.05 --state target/spsa/run1.json

The `tune` build lists every tunable of `engine/src/params.rs` as a UCI spin option (name,
default, min, max); this script reads them from the engine's `uci` answer, so the ranges
live in one place. Each iteration draws a random sign (+1 or -1) per parameter, plays game
pairs (same opening, colours swapped; `--pairs` per iteration, `--concurrency` at once)
between theta + c_k * sign and theta - c_k * sign, and moves theta along sign by
`R_k * c_k * (wins - losses)`, the scores of the plus engine. The gains follow Spall's
schedule as Fishtest sets it up: for N iterations, `c_k = c / k^0.101` with `c_end` (default
1/20 of the parameter's range) reached at the last iteration, and `a_k = a / (A + k)^0.602`
with `A = N / 10` and `a_end / c_end^2 = --r-end` (default 0.002). Values are rounded when
sent to the engine and theta stays inside each parameter's range.

The state (theta, the iteration, games and results so far) is written to `--state` after every
iteration, so a stopped run resumes where it was with the same command. Progress: one line
per iteration with theta, the plus engine's score so far, and the ETA. The last lines give
the tuned values in the form of `params.rs`. Check the result with an SPRT of the tuned
constants against the old ones (`tools/match.py`); SPSA moves towards better values, it does
not prove them.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools" / "lib"))

import chess.engine  # noqa: E402

from engines import open_engine, parse_engine_spec, quiet_engine_logs  # noqa: E402
from match import DEFAULT_OPENINGS, Adjudication, MatchConfig, TimeControl, load_openings, run_match, schedule_games  # noqa: E402

ALPHA = 0.602  # Spall's exponents
GAMMA = 0.101


@dataclass
class Param:
    """One tuned parameter: its range and its SPSA gains."""

    name: str
    default: int
    low: int
    high: int
    c_end: float
    r_end: float

    def gains(self, iterations: int) -> tuple[float, float, float]:
        """(c, a, A) of Spall's schedule for `iterations` iterations."""
        big_a = iterations / 10
        c = self.c_end * iterations**GAMMA
        a_end = self.r_end * self.c_end**2
        a = a_end * (big_a + iterations) ** ALPHA
        return c, a, big_a

    def step(self, k: int, iterations: int) -> tuple[float, float]:
        """(c_k, R_k = a_k / c_k^2) at iteration k (1-based)."""
        c, a, big_a = self.gains(iterations)
        c_k = c / k**GAMMA
        a_k = a / (big_a + k) ** ALPHA
        return c_k, a_k / c_k**2


def engine_tunables(engine: str) -> dict[str, tuple[int, int, int]]:
    """{name: (default, min, max)} of the engine's spin options in capitals (the tunables)."""
    quiet_engine_logs()
    with open_engine(parse_engine_spec(f"cmd={shlex.quote(engine)}")) as e:
        found = {}
        for name, option in e.options.items():
            if option.type == "spin" and name.isupper():
                found[name] = (int(option.default), int(option.min), int(option.max))
    return found


def parse_params(text: str, tunables: dict[str, tuple[int, int, int]], r_end: float) -> list[Param]:
    """`NAME[:c_end],...` -> Params; c_end defaults to 1/20 of the range (at least 1)."""
    params = []
    for word in filter(None, (w.strip() for w in text.split(","))):
        name, _, c_text = word.partition(":")
        if name not in tunables:
            known = ", ".join(sorted(tunables)) or "none (is this a --features tune build?)"
            raise SystemExit(f"spsa: {name} is not a tunable of the engine; it has: {known}")
        default, low, high = tunables[name]
        c_end = float(c_text) if c_text else max(1.0, (high - low) / 20)
        params.append(Param(name, default, low, high, c_end, r_end))
    if not params:
        raise SystemExit("spsa: no parameters given")
    return params


def clamp(value: float, p: Param) -> float:
    return min(max(value, p.low), p.high)


def spsa_update(theta: list[float], params: list[Param], signs: list[int], k: int, iterations: int,
                result: float) -> list[float]:
    """theta after an iteration whose plus engine scored `result` (wins - losses)."""
    new = []
    for value, p, sign in zip(theta, params, signs, strict=True):
        c_k, r_k = p.step(k, iterations)
        new.append(clamp(value + r_k * c_k * result * sign, p))
    return new


def engine_spec(engine: str, name: str, params: list[Param], values: list[float], hash_mib: int):
    words = [f"cmd={shlex.quote(engine)}", f"name={name}", f"option.Hash={hash_mib}"]
    words += [f"option.{p.name}={round(v)}" for p, v in zip(params, values, strict=True)]
    return parse_engine_spec(" ".join(words))


def load_state(path: Path, params: list[Param], iterations: int) -> dict:
    if path.exists():
        state = json.loads(path.read_text())
        if [p["name"] for p in state["params"]] != [p.name for p in params] or state["iterations"] != iterations:
            raise SystemExit(f"spsa: {path} belongs to another run (other parameters or iterations); "
                             "use another --state")
        return state
    return {
        "params": [{"name": p.name, "default": p.default, "min": p.low, "max": p.high, "c_end": p.c_end,
                    "r_end": p.r_end} for p in params],
        "iterations": iterations,
        "done": 0,
        "theta": [float(p.default) for p in params],
        "wins": 0, "draws": 0, "losses": 0,
        "seconds": 0.0,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True, help="a build with --features tune")
    ap.add_argument("--params", required=True, help="NAME[:c_end],... (tunables of the engine)")
    ap.add_argument("--iterations", type=int, default=500)
    ap.add_argument("--pairs", type=int, default=2, help="game pairs per iteration (default: %(default)s)")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--tc", default=None, help="clock BASE+INC in seconds (default 2+0.05 unless --nodes)")
    ap.add_argument("--nodes", type=int, help="node limit per move (alone: a fixed-node run; the fast way to move constants)")
    ap.add_argument("--kaggle-clock", action="store_true", help="the harness's clock (increment free, not banked)")
    ap.add_argument("--hash", type=int, default=1, help="Hash MiB of both engines")
    ap.add_argument("--r-end", type=float, default=0.002, help="a_end / c_end^2 (default: %(default)s)")
    ap.add_argument("--openings", default=str(DEFAULT_OPENINGS))
    ap.add_argument("--seed", type=int, default=1, help="signs and openings (default: %(default)s)")
    ap.add_argument("--state", type=Path, default=ROOT / "target/spsa/state.json")
    ap.add_argument("--adjudicate", action="store_true",
                    help="end games both engines agree on (match.py's fishtest rules): a fifth less time at fixed nodes")
    args = ap.parse_args(argv)

    if args.nodes is not None and args.nodes < 1:
        ap.error("--nodes must be positive")
    if args.kaggle_clock and args.tc is None:
        ap.error("--kaggle-clock needs --tc")
    if args.tc is None and args.nodes is None:
        args.tc = "2+0.05"
    try:
        base, inc = TimeControl.parse_tc(args.tc) if args.tc else (None, 0.0)
    except ValueError as exc:
        ap.error(str(exc))
    tc = TimeControl(base, inc, nodes=args.nodes, kaggle=args.kaggle_clock)
    adjudication = Adjudication() if args.adjudicate else None
    params = parse_params(args.params, engine_tunables(args.engine), args.r_end)
    state = load_state(args.state, params, args.iterations)
    args.state.parent.mkdir(parents=True, exist_ok=True)
    openings = load_openings(args.openings)
    print(f"spsa: {len(params)} parameters, {args.iterations} iterations of {args.pairs} pairs at {tc.describe()}; "
          f"state {args.state} (iteration {state['done']} done)")
    for p in params:
        c, a, big_a = p.gains(args.iterations)
        print(f"  {p.name}: default {p.default}, range {p.low}..{p.high}, c_end {p.c_end:g}, c {c:.2f}, a {a:.3g}, A {big_a:g}")

    while state["done"] < args.iterations:
        k = state["done"] + 1
        rng = random.Random(args.seed * 1_000_003 + k)
        signs = [rng.choice((-1, 1)) for _ in params]
        steps = [p.step(k, args.iterations)[0] for p in params]
        plus = [clamp(t + c * s, p) for t, c, s, p in zip(state["theta"], steps, signs, params, strict=True)]
        minus = [clamp(t - c * s, p) for t, c, s, p in zip(state["theta"], steps, signs, params, strict=True)]
        specs = (engine_spec(args.engine, "plus", params, plus, args.hash),
                 engine_spec(args.engine, "minus", params, minus, args.hash))
        jobs = schedule_games(openings, 2 * args.pairs, seed=args.seed * 7919 + k)
        started = time.time()
        tally, _ = run_match(MatchConfig(specs, tc, jobs, args.concurrency, event="minnow spsa", adjudication=adjudication))
        result = tally.wins - tally.losses
        state["theta"] = spsa_update(state["theta"], params, signs, k, args.iterations, result)
        state["done"] = k
        state["wins"] += tally.wins
        state["draws"] += tally.draws
        state["losses"] += tally.losses
        state["seconds"] += time.time() - started
        tmp = args.state.with_suffix(".tmp")
        tmp.write_text(json.dumps(state, indent=1))
        tmp.replace(args.state)
        eta = state["seconds"] / k * (args.iterations - k)
        games = state["wins"] + state["draws"] + state["losses"]
        print(f"[{k}/{args.iterations}] {result:+d} | " + " ".join(f"{p.name}={t:.1f}" for p, t in zip(params, state["theta"], strict=True))
              + f" | plus W/D/L {state['wins']}/{state['draws']}/{state['losses']} of {games} | ETA {eta / 60:.0f} min",
              flush=True)

    print("tuned values (params.rs):")
    for p, t in zip(params, state["theta"], strict=True):
        print(f"    {p.name} = {round(t)}  (default {p.default}, theta {t:.2f})")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except chess.engine.EngineError as exc:
        print(f"spsa: engine error: {exc}", file=sys.stderr)
        sys.exit(1)
