#!/usr/bin/env python3
"""One result from several runs of a match: the games of every PGN given, from ENGINE's
point of view, pooled game pair by game pair (`--engine` again for another name the same
build played under in another run).

A match played on, with another seed, into another file (or a time-control run split over
sessions) is one experiment; its runs' W/D/L add up, and so do their game pairs'
pentanomial counts, from which the Elo and its 95% interval are computed by the same
function `tools/match.py` and `tools/arena.py` report with (`pentanomial_elo` of
`tools/lib/elo.py`; `trinomial_elo` for a file without pairs).

    .venv/bin/python tools/reports/pool.py --engine ttkeep --engine ttkeep2 \
        data/sprt/ttkeep.pgn data/sprt/ttkeep2.pgn

Pairs are found as each tool writes them: `match.py` (and `sprt.py`, which runs it) names
a pair's games Round "N.1" and "N.2"; `arena.py` gives both games of a pair the same Round
(their opening's seed). A game whose partner is missing (a run stopped mid-pair) counts in
W/D/L but not in the pairs, and is reported. Every game must have one ENGINE name as White
or as Black (not both), and a result; any other game stops the tool with a message naming
it.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import chess.pgn

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from elo import EloEstimate, fmt_elo, fmt_err, pentanomial_elo, trinomial_elo  # noqa: E402

POINTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}


class PoolError(Exception):
    """A PGN that cannot be pooled: a game without ENGINE, without a result, or unreadable."""


@dataclass
class Pool:
    """W/D/L and pentanomial counts from one engine's point of view."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    pentanomial: list[int] = field(default_factory=lambda: [0] * 5)
    unpaired: int = 0
    opponents: Counter[str] = field(default_factory=Counter)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def add(self, other: Pool) -> None:
        self.wins += other.wins
        self.draws += other.draws
        self.losses += other.losses
        self.pentanomial = [a + b for a, b in zip(self.pentanomial, other.pentanomial, strict=True)]
        self.unpaired += other.unpaired
        self.opponents.update(other.opponents)

    def elo(self) -> EloEstimate:
        if sum(self.pentanomial) >= 2:
            return pentanomial_elo(self.pentanomial)
        return trinomial_elo(self.wins, self.draws, self.losses)


def read_pool(text: str, engines: set[str], where: str = "<pgn>") -> Pool:
    """The games of one PGN's text from the point of view of the player named in `engines`
    (see the module's doc)."""
    pool = Pool()
    open_pairs: dict[str, list[float]] = {}
    handle = io.StringIO(text)
    number = 0
    while (game := chess.pgn.read_game(handle)) is not None:
        number += 1
        headers = game.headers
        here = f"{where}: game {number} (Round {headers.get('Round', '?')!r})"
        white, black = headers.get("White"), headers.get("Black")
        if (white in engines) == (black in engines):
            raise PoolError(f"{here}: not one of {sorted(engines)} against another engine ({white!r}, {black!r})")
        result = headers.get("Result")
        if result not in POINTS:
            raise PoolError(f"{here}: no result ({result!r})")
        ours = 0 if white in engines else 1
        points = POINTS[result][ours]
        pool.opponents[(white, black)[1 - ours]] += 1
        pool.wins += points == 1.0
        pool.draws += points == 0.5
        pool.losses += points == 0.0
        key = headers.get("Round", "").split(".")[0]
        open_pairs.setdefault(key, []).append(points)
        if len(open_pairs[key]) == 2:
            pool.pentanomial[round(2 * sum(open_pairs.pop(key)))] += 1
    pool.unpaired = sum(len(v) for v in open_pairs.values())
    return pool


def describe(label: str, pool: Pool) -> str:
    est = pool.elo()
    low, high = (f"{v:+.1f}" for v in (est.low, est.high))
    pairs = f"pentanomial {' / '.join(map(str, pool.pentanomial))}" if sum(pool.pentanomial) else "no pairs"
    unpaired = f", {pool.unpaired} unpaired" if pool.unpaired else ""
    return (f"{label}: {pool.games} games, W/D/L {pool.wins} / {pool.draws} / {pool.losses}, {pairs}{unpaired}; "
            f"{est.elo:+.1f} +- {est.error:.1f} (95% {low}..{high}, {est.model}); "
            f"normalized {fmt_elo(est.normalized)} +- {fmt_err(est.normalized_error)}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True, action="append",
                    help="the engine whose results are counted (its PGN name; repeatable)")
    ap.add_argument("pgn", nargs="+", type=Path, help="the runs' PGN files")
    args = ap.parse_args(argv)
    total = Pool()
    try:
        for path in args.pgn:
            try:
                text = path.read_text(encoding="utf-8")
            except OSError as err:
                raise PoolError(f"{path}: {err.strerror or err}") from err
            pool = read_pool(text, set(args.engine), str(path))
            print(describe(str(path), pool))
            total.add(pool)
    except PoolError as err:
        print(f"pool.py: {err}", file=sys.stderr)
        return 2
    print(describe("pooled", total))
    others = ", ".join(f"{name} ({n})" for name, n in total.opponents.most_common())
    print(f"opponents: {others}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
