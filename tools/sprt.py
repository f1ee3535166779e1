#!/usr/bin/env python3
"""One command from a change to its SPRT: builds both engines (`build_at.py`, cached by
commit, constants and features) and plays them with `match.py`'s SPRT.

    .venv/bin/python tools/sprt.py --test HEAD --base HEAD~1 --nodes 10000
    .venv/bin/python tools/sprt.py --test HEAD --features tune --option PRUNE_AT_LMR_DEPTH=0 --nodes 10000
    .venv/bin/python tools/sprt.py --test HEAD --base 8469a17 --tc 2+0.05 --elo 0,10

- `--set NAME=VALUE` / `--base-set NAME=VALUE`: a constant of params.rs in the test / base
  build (`build_at.py --set`).
- `--option NAME=VALUE` / `--base-option NAME=VALUE`: a UCI option of the test / base
  engine. With `--features tune` every search constant is an option, so one build screens
  a step that a tunable switches on: base and test are then the same binary, built once.
- `--nodes N` (a fixed-node screen: fast, but blind to a step's cost in time) or `--tc
  BASE+INC` (a time-control confirmation; add `--kaggle-clock` for the harness's clock).
  Both engines get Hash 1, the Kaggle openings in colour-swapped pairs, `--concurrency` 2.
- `--openings FILE`: another book, such as `tests/data/unbalanced_openings.epd` (a screen's
  verdict in about two thirds of the games; not for strength claims: docs/search.md).

Builds land in `target/sprt/<commit>-<digest>/minnow` and are reused; the match's PGN in
`data/sprt/<name>.pgn`. The last line is match.py's `RESULT …` line, then
`SPRT name=.. verdict=H1|H0|none games=..`.
"""

import argparse
import hashlib
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def elo_bounds(text: str) -> tuple[float, float]:
    """`--elo elo0,elo1` as two numbers; ValueError when it is not that."""
    bounds = [float(x) for x in text.split(",")]
    if len(bounds) != 2:
        raise ValueError(text)
    return bounds[0], bounds[1]


def match_command(args: argparse.Namespace, test_exe: Path, base_exe: Path, name: str, pgn: Path) -> list[str]:
    """The `match.py` command line of the SPRT."""
    elo0, elo1 = elo_bounds(args.elo)
    command = [sys.executable, str(ROOT / "tools" / "match.py"),
               "--engine1", engine_spec(test_exe, name, args.option),
               "--engine2", engine_spec(base_exe, "base", args.base_option),
               "--games", str(args.games), "--concurrency", str(args.concurrency), "--seed", str(args.seed),
               "--pgn", str(pgn), "--sprt", f"elo0={elo0:g}", f"elo1={elo1:g}", "alpha=0.05", "beta=0.05"]
    command += ["--nodes", str(args.nodes)] if args.nodes else ["--tc", args.tc]
    if args.kaggle_clock:
        command.append("--kaggle-clock")
    if args.openings:
        command += ["--openings", str(args.openings)]
    if args.adjudicate:
        command.append("--adjudicate")
    return command


def build_dir(commit: str, sets: list, features: str | None) -> Path:
    """The cache folder of one build: the commit and a digest of what changes the binary."""
    key = repr((sorted(sets), features or ""))
    digest = hashlib.sha1(key.encode()).hexdigest()[:8]
    return ROOT / "target" / "sprt" / f"{commit[:12]}-{digest}"


def build(rev: str, sets: list, features: str | None) -> Path:
    """The engine of `rev` with `sets` and `features`, built unless already there."""
    commit = subprocess.run(["git", "rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.strip()
    out = build_dir(commit, sets, features)
    exe = out / "minnow"
    if not exe.is_file():
        command = [sys.executable, str(ROOT / "tools" / "build_at.py"), commit, "--out", str(out)]
        command += [f"--set={s}" for s in sets]
        if features:
            command += ["--features", features]
        subprocess.run(command, cwd=ROOT, check=True)
    return exe


def engine_spec(exe: Path, name: str, options: list) -> str:
    """A match.py engine spec: Hash 1 and the given UCI options."""
    parts = [f"cmd={exe}", f"name={name}", "option.Hash=1"]
    for item in options:
        option, sep, value = item.partition("=")
        if not sep or not option:
            raise ValueError(f"--option {item!r}: expected NAME=VALUE")
        parts.append(f"option.{option}={value}")
    return " ".join(parts)


def verdict(result: str) -> str:
    """H1, H0 or none, from match.py's `RESULT …` line (`sprt=H1|H0|continue`)."""
    found = re.search(r"\bsprt=(H1|H0)\b", result)
    return found.group(1) if found else "none"


def main(argv: list | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--test", default="HEAD", help="commit under test (default HEAD)")
    ap.add_argument("--base", help="commit to beat (default: the test commit)")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="constant of the test build")
    ap.add_argument("--base-set", action="append", default=[], metavar="NAME=VALUE", help="constant of the base build")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="UCI option of the test engine")
    ap.add_argument("--base-option", action="append", default=[], metavar="NAME=VALUE", help="UCI option of the base engine")
    ap.add_argument("--features", help="cargo --features for both builds (e.g. tune)")
    clock = ap.add_mutually_exclusive_group(required=True)
    clock.add_argument("--nodes", type=int, help="fixed nodes a move")
    clock.add_argument("--tc", help="clock BASE+INC in seconds")
    ap.add_argument("--kaggle-clock", action="store_true", help="with --tc: the harness's clock")
    ap.add_argument("--adjudicate", action="store_true",
                    help="end games both engines agree on (match.py's fishtest rules; for fixed-node screens)")
    ap.add_argument("--elo", default="0,10", help="SPRT bounds elo0,elo1 (default 0,10)")
    ap.add_argument("--games", type=int, default=1000, help="most games (default 1000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--name", help="name of the test engine and the PGN (default: from the options)")
    ap.add_argument("--openings", type=Path, help="opening book (default: the harness's; "
                    "tests/data/unbalanced_openings.epd tells builds apart in fewer games)")
    args = ap.parse_args(argv)
    try:  # checked before the builds, which take minutes
        elo_bounds(args.elo)
    except ValueError:
        ap.error(f"--elo {args.elo!r}: expected elo0,elo1")
    if args.openings and not args.openings.is_file():
        ap.error(f"--openings {args.openings}: no such file")

    base_rev = args.base or args.test
    test_exe = build(args.test, args.set, args.features)
    base_exe = build(base_rev, args.base_set, args.features)
    name = args.name or re.sub(r"[^\w.=-]+", "_", "_".join([args.test, *args.set, *args.option]))[:60]
    pgn = ROOT / "data" / "sprt" / f"{name}.pgn"
    pgn.parent.mkdir(parents=True, exist_ok=True)
    command = match_command(args, test_exe, base_exe, name, pgn)
    lines = []
    with subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True) as run:
        for line in run.stdout:
            print(line, end="", flush=True)
            lines.append(line)
    result = next((line for line in reversed(lines) if line.startswith("RESULT ")), "")
    games = re.search(r"games=(\d+)", result)
    print(f"SPRT name={name} verdict={verdict(result)} games={games.group(1) if games else 0}")
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())
