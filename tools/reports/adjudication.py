#!/usr/bin/env python3
"""What `match.py --adjudicate` would have done to games already played: how many games it
ends early, the share of plies and of the engines' move time it saves, and the games whose
adjudicated result differs from the one played out.

Reads PGNs written by `match.py` (or `sprt.py`, `arena.py`): each move's comment holds the
mover's score and its time ("+0.35/12 0.512s", "-M3/20 0.101s"), and the rules are
`match.Adjudication`'s, the defaults or KEY=VALUE settings as `match.py --adjudicate` takes
them.

    .venv/bin/python tools/reports/adjudication.py data/sprt/contcorr.pgn
    .venv/bin/python tools/reports/adjudication.py --set resign_score=600 data/sprt/*.pgn
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import chess
import chess.pgn

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from bank import MOVE_TIME  # noqa: E402
from match import MATE_CP, Adjudication  # noqa: E402

# match.py writes a score with its sign, then "/depth" (a bare "0.101s" is a time only).
COMMENT = re.compile(r"^\s*(?:(?P<mate>[+-]M\d+)|(?P<cp>[+-]\d+(?:\.\d+)?))(?=/|\s|$)")


def move_score(comment: str, white_moved: bool) -> int | None:
    """The score of one move's comment in centipawns from White's point of view (a mate as
    +-MATE_CP), or None when the comment has none."""
    found = COMMENT.match(comment)
    if not found:
        return None
    if found.group("mate"):
        value = MATE_CP if found.group("mate")[0] == "+" else -MATE_CP
    else:
        value = round(float(found.group("cp")) * 100)
    return value if white_moved else -value


def move_time(comment: str) -> float:
    """The seconds the move took, from its comment (0 when it has none)."""
    found = MOVE_TIME.search(comment)
    return float(found.group(1)) if found else 0.0


@dataclass
class Summary:
    """The totals over the games read."""

    games: int = 0
    plies: int = 0
    seconds: float = 0.0
    adjudicated: int = 0
    plies_saved: int = 0
    seconds_saved: float = 0.0
    # (file, Round, result played, result adjudicated, the ply it would have come at)
    differing: list[tuple[str, str, str, str, int]] = field(default_factory=list)

    def add_game(self, game: chess.pgn.Game, rules: Adjudication, where: str) -> None:
        """Counts one game: replays the adjudication over its moves' scores."""
        scores: list[int | None] = []
        times: list[float] = []
        for node in game.mainline():
            scores.append(move_score(node.comment, node.parent.board().turn == chess.WHITE))
            times.append(move_time(node.comment))
        self.games += 1
        self.plies += len(scores)
        self.seconds += sum(times)
        # As match.py decides: after each move, before the next one is asked for.
        for ply in range(1, len(scores)):
            verdict = rules.decide(scores[:ply])
            if verdict:
                self.adjudicated += 1
                self.plies_saved += len(scores) - ply
                self.seconds_saved += sum(times[ply:])
                played = game.headers.get("Result", "*")
                if verdict != played:
                    self.differing.append((where, game.headers.get("Round", "?"), played, verdict, ply))
                break

    def report(self) -> str:
        """The summary as text."""
        if not self.games:
            return "no games"
        share = lambda part, whole: 100.0 * part / whole if whole else 0.0  # noqa: E731
        lines = [
            f"games {self.games}, adjudicated {self.adjudicated} ({share(self.adjudicated, self.games):.1f}%)",
            f"plies saved {self.plies_saved} of {self.plies} ({share(self.plies_saved, self.plies):.1f}%), "
            f"move time saved {self.seconds_saved:.0f} of {self.seconds:.0f} s ({share(self.seconds_saved, self.seconds):.1f}%)",
            f"results changed: {len(self.differing)} of {self.games} ({share(len(self.differing), self.games):.2f}%)",
        ]
        lines += [f"  {where} Round {rnd}: played {played}, adjudicated {verdict} at ply {ply}"
                  for where, rnd, played, verdict, ply in self.differing]
        return "\n".join(lines)


def summarize(paths: Iterable[str | Path], rules: Adjudication) -> Summary:
    """The summary of every game in `paths`; ValueError for a game whose moves cannot be read."""
    summary = Summary()
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                if game.errors:
                    raise ValueError(f"{path}: game with Round {game.headers.get('Round', '?')!r}: its moves cannot be read ({game.errors[0]})")
                summary.add_game(game, rules, Path(path).name)
    return summary


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n", 2)[2])
    ap.add_argument("pgn", nargs="+", help="PGN files written by match.py")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="an adjudication setting other than the default (as match.py --adjudicate takes it)")
    args = ap.parse_args(argv)
    try:
        rules = Adjudication.parse(args.set)
    except ValueError as exc:
        ap.error(str(exc))
    try:
        summary = summarize(args.pgn, rules)
    except (OSError, ValueError) as exc:
        print(f"adjudication: {exc}", file=sys.stderr)
        return 1
    print(rules.describe())
    print(summary.report())
    return 0


if __name__ == "__main__":
    sys.exit(main())
