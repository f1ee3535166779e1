#!/usr/bin/env python3
"""A soak: many harness games in one run, against mixed opponents, to show that the
submission never times out, never errs and does not grow in memory from game to game.

    .venv/bin/python tools/soak.py --log data/soak --jobs 2 \\
        --leg 'games=600 opponent=random' \\
        --leg 'games=200 opponent="cmd=/tmp/kagglefish/main.out nodes=2000 name=kf2000" latency=60 spikes=0.03:500' \\
        --leg 'games=200 opponent="cmd=target/release/minnow nodes=4000 name=minnow4000"'

Each leg is `games=N opponent=SPEC` with optional `latency=MS`, `spikes=P:MS` and `seed=S`
(the arena's flags, tools/arena.py; SPEC as its --opponent). A leg is played as arena runs of
at most --chunk games, --jobs at a time, each with its own output in LOG: chunkK.txt, .json
(each game's figures) and .pgn. A chunk whose .json exists is read back, not played again,
so the same command resumes a soak that was cut off. Games are ordered by leg, chunk and
game: "the first" and "the last" games below are in that order.

Prints each leg's W/D/L, timeouts and errors (ours; theirs too, which count when the
opponent is minnow), lowest bank, slowest move and engine peak RSS, then the totals and the
engine's peak RSS over the first and the last tenth of all games, ending with
`SOAK games=.. timeouts=.. errors=.. min_overage=.. max_move_ms=.. peak_rss_kib=..
rss_first_kib=.. rss_last_kib=.. unmeasured=..`. Exits with 1 if a chunk fails.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from arena import rss_ends  # the arena's own first- and last-tenth medians

ROOT = Path(__file__).resolve().parent.parent
LEG_KEYS = ("games", "opponent", "latency", "spikes", "seed")


def parse_leg(text: str) -> dict:
    """`games=N opponent=SPEC [latency=MS] [spikes=P:MS] [seed=S]` as a dict."""
    leg = {}
    for word in shlex.split(text):
        key, sep, value = word.partition("=")
        if not sep or key not in LEG_KEYS:
            raise argparse.ArgumentTypeError(f"leg {text!r}: expected KEY=VALUE with KEY one of {', '.join(LEG_KEYS)}")
        leg[key] = value
    if "opponent" not in leg or not leg.get("games", "").isdigit() or int(leg["games"]) < 1:
        raise argparse.ArgumentTypeError(f"leg {text!r}: needs games=N (N >= 1) and opponent=SPEC")
    return leg


def chunks(legs: list, size: int) -> list:
    """(leg index, chunk command arguments, games) for every chunk, in the soak's order. Each
    chunk starts its openings where the one before it in the leg ended."""
    out = []
    for i, leg in enumerate(legs):
        games, seed, k = int(leg["games"]), int(leg.get("seed", 1000 * i)), 0
        while k < games:
            n = min(size, games - k)
            n += n % 2 if k + n < games else 0  # keep colour pairs whole where the leg allows
            n = min(n, games - k)
            args = ["--opponent", leg["opponent"], "--games", str(n), "--seed", str((seed + k // 2 * 997) % 2000)]
            if leg.get("latency"):
                args += ["--latency", leg["latency"]]
            if leg.get("spikes"):
                args += ["--spikes", leg["spikes"]]
            out.append((i, args, n))
            k += n
    return out


def summarise(games: list) -> dict:
    """The figures of a list of game records (tools/arena.py --json)."""
    reasons = [g["reason"] for g in games]
    peaks = [g["peak_kib"] for g in games if g["peak_kib"] is not None]
    _, first, last = rss_ends(peaks) if peaks else (0, None, None)
    return {
        "games": len(games),
        "wins": sum(g["points"] == 1.0 for g in games),
        "draws": sum(g["points"] == 0.5 for g in games),
        "losses": sum(g["points"] == 0.0 for g in games),
        "timeouts": reasons.count("timeout (ours)"),
        "errors": reasons.count("error (ours)"),
        "their_timeouts": reasons.count("timeout (theirs)"),
        "their_errors": reasons.count("error (theirs)"),
        "min_overage": min((g["min_overage"] for g in games), default=None),
        "max_move_ms": max((g["max_move_ms"] for g in games), default=None),
        "peak_rss_kib": max(peaks) if peaks else None,
        "rss_first_kib": first,
        "rss_last_kib": last,
        "unmeasured": len(games) - len(peaks),
        "spikes": sum(g["spike_count"] for g in games),
    }


def describe(s: dict) -> str:
    bank = "none" if s["min_overage"] is None else f"{s['min_overage']:.3f} s"
    rss = "unmeasured" if s["peak_rss_kib"] is None else f"{s['peak_rss_kib']} KiB"
    return (f"{s['games']} games, W/D/L {s['wins']}/{s['draws']}/{s['losses']}; timeouts {s['timeouts']} "
            f"(theirs {s['their_timeouts']}), errors {s['errors']} (theirs {s['their_errors']}); lowest bank "
            f"{bank}, slowest move {s['max_move_ms']} ms, engine peak RSS {rss}, {s['spikes']} hiccups")


def main(argv: list | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--leg", action="append", type=parse_leg, required=True, help="one leg (see above); repeatable")
    ap.add_argument("--log", default=str(ROOT / "target" / "soak"), help="folder for each chunk's output")
    ap.add_argument("--jobs", type=int, default=2, help="arena runs at a time (default 2)")
    ap.add_argument("--chunk", type=int, default=50, help="games per arena run (default 50)")
    ap.add_argument("--submission", default=str(ROOT / "submission/submission.tar.gz"))
    args = ap.parse_args(argv)
    log = Path(args.log)
    log.mkdir(parents=True, exist_ok=True)
    plan = chunks(args.leg, max(1, args.chunk))
    print(f"soak: {sum(n for _, _, n in plan)} games in {len(plan)} arena runs, {args.jobs} at a time; "
          f"output in {log}", flush=True)

    def run(k: int) -> tuple:
        leg, extra, n = plan[k]
        data = log / f"chunk{k}.json"
        if data.is_file():
            return k, 0, json.loads(data.read_text())
        command = [sys.executable, str(ROOT / "tools" / "arena.py"), "--submission", args.submission, *extra,
                   "--json", str(data), "--pgn", str(log / f"chunk{k}.pgn"), "--html", "",
                   "--curve", str(log / f"chunk{k}_bank")]
        with open(log / f"chunk{k}.txt", "w") as f:
            done = subprocess.run(command, stdout=f, stderr=subprocess.STDOUT, cwd=ROOT)
        result = json.loads(data.read_text()) if done.returncode == 0 and data.is_file() else None
        if result is not None:
            print(f"chunk {k} (leg {leg + 1}): {describe(summarise(result['games']))}", flush=True)
        return k, done.returncode, result

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(run, range(len(plan))))
    failed = [(k, code) for k, code, result in results if result is None]
    for k, code in failed:
        print(f"chunk {k}: exit {code}, no figures (see {log / f'chunk{k}.txt'})")
    everything = []
    print()
    for i, leg in enumerate(args.leg):
        games = [g for k, _, result in results if result and plan[k][0] == i for g in result["games"]]
        everything += games
        extra = "".join(f" {key} {leg[key]}" for key in ("latency", "spikes") if leg.get(key))
        print(f"leg {i + 1}, {leg['opponent']}{extra}: {describe(summarise(games))}")
    total = summarise(everything)
    print(f"all: {describe(total)}")
    if total["peak_rss_kib"] is not None:
        print(f"engine peak RSS: median {total['rss_first_kib']:.0f} KiB over the first tenth of the games, "
              f"{total['rss_last_kib']:.0f} KiB over the last tenth; {total['unmeasured']} games unmeasured")
    words = [f"{key}={'unmeasured' if total[key] is None else total[key]}"
             for key in ("games", "timeouts", "errors", "their_timeouts", "their_errors", "min_overage",
                         "max_move_ms", "peak_rss_kib", "rss_first_kib", "rss_last_kib", "unmeasured")]
    print("SOAK " + " ".join(words))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
