#!/usr/bin/env python3
"""Runs one tool command once per seed, a few at a time, and sums the results: how the
harness runs of docs/strength.md were played (four seeds of 30 games, two at once).

    python3 tools/series.py --seeds 1300,1400,2100,2200 [--jobs 2] [--log DIR] -- \\
        tools/arena.py --opponent 'cmd=ethereal-chess option.Hash=2' --games 30 \\
        --seed {seed} --curve target/series/eth{seed}

Every `{seed}` in the command becomes the run's seed; a command that starts with a `.py`
file runs under this interpreter. Each run's output goes to DIR/<seed>.txt (default
`target/series`). The summary line of each run, `ARENA games=.. wins=..` (tools/arena.py)
or `RESULT games=.. wins=..` (tools/match.py), is read back, and the totals are printed
with their Elo (trinomial, 95%), and for arena runs the timeouts, errors, the lowest
overage and the highest peak RSS, ending with a `SERIES games=.. wins=.. draws=..
losses=.. elo=.. err=..` line. Exits with 1 if a run fails or prints no summary line.
"""

import argparse
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from elo import fmt_elo, fmt_err, trinomial_elo  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def command_for(template: list, seed: int) -> list:
    """The command of one run: `{seed}` replaced, a leading `.py` run by this Python."""
    command = [word.replace("{seed}", str(seed)) for word in template]
    if command and command[0].endswith(".py"):
        command.insert(0, sys.executable)
    return command


def read_summary(output: str, kinds: tuple = ("ARENA", "RESULT")) -> dict | None:
    """The `key=value` fields of the last summary line of a run's output, a line that starts
    with one of `kinds` (ARENA or RESULT by default; `kind` says which)."""
    found = re.findall(rf"^({'|'.join(kinds)}) (.*)$", output, re.M)
    if not found:
        return None
    kind, rest = found[-1]
    fields = dict(word.split("=", 1) for word in rest.split() if "=" in word)
    fields["kind"] = kind
    return fields


def totals(summaries: list) -> dict:
    """W/D/L summed over runs, with the Elo of the sum; for arena runs also the timeouts and
    errors summed, the lowest overage and the highest peak RSS."""
    total = {key: sum(int(s[key]) for s in summaries) for key in ("games", "wins", "draws", "losses")}
    estimate = trinomial_elo(total["wins"], total["draws"], total["losses"])
    total["elo"], total["err"] = estimate.elo, estimate.error
    arena = [s for s in summaries if s["kind"] == "ARENA"]
    if arena:
        total["timeouts"] = sum(int(s.get("timeouts", 0)) for s in arena)
        total["errors"] = sum(int(s.get("errors", 0)) for s in arena)
        overages = [float(s["min_overage"]) for s in arena if s.get("min_overage") not in (None, "", "nan")]
        rss = [int(s["peak_rss_kib"]) for s in arena if s.get("peak_rss_kib", "").isdigit()]
        total["min_overage"] = min(overages) if overages else None
        total["peak_rss_kib"] = max(rss) if rss else None
    return total


def series_line(total: dict) -> str:
    words = [f"{k}={total[k]}" for k in ("games", "wins", "draws", "losses")]
    words += [f"elo={fmt_elo(total['elo'])}", f"err={fmt_err(total['err'])}"]
    for key in ("timeouts", "errors", "min_overage", "peak_rss_kib"):
        if key in total:
            words.append(f"{key}={total[key]}")
    return "SERIES " + " ".join(words)


def main(argv: list | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", required=True, help="comma-separated seeds, one run each")
    ap.add_argument("--jobs", type=int, default=2, help="runs at a time (default 2)")
    ap.add_argument("--log", default=os.path.join(ROOT, "target", "series"), help="folder for each run's output")
    ap.add_argument("command", nargs=argparse.REMAINDER, help="-- then the command, with {seed}")
    args = ap.parse_args(argv)
    template = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not template:
        ap.error("no command given")
    seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    os.makedirs(args.log, exist_ok=True)

    def run(seed: int) -> tuple:
        log = os.path.join(args.log, f"{seed}.txt")
        with open(log, "w") as f:
            done = subprocess.run(command_for(template, seed), stdout=f, stderr=subprocess.STDOUT, cwd=ROOT)
        with open(log) as f:
            return seed, done.returncode, read_summary(f.read()), log

    failed = False
    summaries = []
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for seed, code, summary, log in pool.map(run, seeds):
            if code != 0 or summary is None:
                print(f"seed {seed}: exit {code}, {'no summary line' if summary is None else 'failed'} (see {log})")
                failed = True
                continue
            summaries.append(summary)
            print(f"seed {seed}: {summary['wins']} W / {summary['draws']} D / {summary['losses']} L "
                  f"of {summary['games']} ({log})")
    if summaries:
        total = totals(summaries)
        print(f"total: {total['wins']} W / {total['draws']} D / {total['losses']} L of {total['games']}, "
              f"Elo {fmt_elo(total['elo'])} +- {fmt_err(total['err'])} (trinomial)")
        print(series_line(total))
    return 1 if failed or not summaries else 0


if __name__ == "__main__":
    sys.exit(main())
