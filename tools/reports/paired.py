#!/usr/bin/env python3
"""Two builds' results on the same openings, compared opening by opening: the low-noise
reading of two runs played with the same seed (a candidate and main, each against the
same opponent).

    .venv/bin/python tools/reports/paired.py --engine minnow \\
        --a cand-3000.pgn cand-3500.pgn --b main-3000.pgn main-3500.pgn

Each game is keyed by its opening, the start position (the FEN header both tools write),
or without one as pool.py pairs games: `match.py` names an opening's two games Round "N.1"
and "N.2", `arena.py` gives both the opening's seed as Round. Runs with the same `--seed`
(and game count) play the same openings, so several seeds' files pool on each side. For
every opening that both A and B played equally often, the difference of their points there
is one sample; the mean difference per game, its standard error over openings, and the Elo
difference it stands for (at the two runs' mean score, by the logistic curve's slope there,
95% interval = 1.96 standard errors) are printed, beside each side's own score on those
openings. Openings only one side played are counted and left out. Because both sides met the
same openings, the openings' own share of the noise cancels: the interval is narrower than
the difference of two unpaired results (which is printed too, for comparison).

The last line is machine-readable: `PAIRED openings=.. games=.. a=.. b=.. diff=.. se=..
elo=.. err=..` (a, b: scores in percent; diff and se: points per 100 games).
"""

from __future__ import annotations

import argparse
import io
import math
import sys
from collections import defaultdict
from pathlib import Path

import chess.pgn

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from elo import Z95, score_to_elo, trinomial_elo  # noqa: E402
from pool import POINTS  # noqa: E402  (a result's points for White and Black, as pool.py counts them)


class PairError(Exception):
    """A PGN that cannot be read: unreadable, a game without the engine or a result."""


def by_opening(paths: list[Path], engines: set[str]) -> dict[str, list[float]]:
    """Our points in every game of the files, listed under the game's opening key."""
    out: dict[str, list[float]] = defaultdict(list)
    for path in paths:
        try:
            handle = io.StringIO(path.read_text(encoding="utf-8"))
        except OSError as err:
            raise PairError(f"{path}: {err.strerror or err}") from err
        number = 0
        while (game := chess.pgn.read_game(handle)) is not None:
            number += 1
            headers = game.headers
            white, black, result = headers.get("White"), headers.get("Black"), headers.get("Result")
            if (white in engines) == (black in engines) or result not in POINTS:
                raise PairError(f"{path}: game {number}: not one of {sorted(engines)} against another engine "
                                f"with a result ({white!r}, {black!r}, {result!r})")
            key = headers.get("FEN") or "round " + headers.get("Round", "").split(".")[0]
            out[key].append(POINTS[result][0 if white in engines else 1])
    return out


def elo_of(percent: float) -> float:
    """The Elo of a score in percent, kept finite (a clean sweep reads as 99.9%)."""
    return score_to_elo(min(max(percent / 100, 0.001), 0.999))


def compare(a: dict[str, list[float]], b: dict[str, list[float]]) -> dict:
    """The paired comparison of A and B over the openings both played equally often (their
    keys under "keys")."""
    common = sorted(k for k in a.keys() & b.keys() if len(a[k]) == len(b[k]))
    games = sum(len(a[k]) for k in common)
    if len(common) < 2:
        raise PairError(f"{len(common)} openings in common: nothing to compare")
    diffs = [sum(a[k]) - sum(b[k]) for k in common]
    per_game = len(common) / games  # each sample is the difference over len(a[k]) games
    mean = sum(diffs) / len(common)
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(common) - 1))
    diff, se = 100 * mean * per_game, 100 * sd / math.sqrt(len(common)) * per_game
    score_a = 100 * sum(sum(a[k]) for k in common) / games
    score_b = 100 * sum(sum(b[k]) for k in common) / games
    mid = min(max((score_a + score_b) / 200, 0.01), 0.99)
    slope = 400 / math.log(10) / (mid * (1 - mid))  # Elo per unit of score at the mean score
    return {
        "openings": len(common), "games": games, "a": score_a, "b": score_b, "diff": diff, "se": se,
        "elo": elo_of(score_a) - elo_of(score_b),
        "err": Z95 * se / 100 * slope,
        "left_out": len(a.keys() ^ b.keys()) + sum(1 for k in a.keys() & b.keys() if len(a[k]) != len(b[k])),
        "same": sum(1 for d in diffs if d == 0),
        "keys": common,
    }


def unpaired_error(points: dict[str, list[float]], keys: list[str]) -> float:
    """The 95% Elo error of one side's games on `keys` taken alone (trinomial)."""
    flat = [p for k in keys for p in points[k]]
    return trinomial_elo(flat.count(1.0), flat.count(0.5), flat.count(0.0)).error


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True, action="append", help="our engine's PGN name (repeatable)")
    ap.add_argument("--a", required=True, nargs="+", type=Path, help="the candidate's PGN files")
    ap.add_argument("--b", required=True, nargs="+", type=Path, help="the base's PGN files")
    args = ap.parse_args(argv)
    try:
        a, b = by_opening(args.a, set(args.engine)), by_opening(args.b, set(args.engine))
        r = compare(a, b)
    except PairError as err:
        print(f"paired.py: {err}", file=sys.stderr)
        return 2
    apart = math.hypot(unpaired_error(a, r["keys"]), unpaired_error(b, r["keys"]))
    print(f"{r['openings']} openings in common ({r['games']} games a side; {r['left_out']} left out), "
          f"the same points in {r['same']}: A {r['a']:.2f}%, B {r['b']:.2f}%")
    print(f"A - B: {r['diff']:+.2f} points per 100 games (se {r['se']:.2f}); "
          f"Elo {r['elo']:+.1f} +- {r['err']:.1f} (95%; unpaired it would be +- {apart:.1f})")
    print(f"PAIRED openings={r['openings']} games={r['games']} a={r['a']:.2f} b={r['b']:.2f} "
          f"diff={r['diff']:.2f} se={r['se']:.2f} elo={r['elo']:.1f} err={r['err']:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
