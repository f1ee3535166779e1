#!/usr/bin/env python3
"""Time under mutual pondering, both sides: from harness games recorded by
`tools/arena.py --ponder-log --json FILE` against another submission (both adapters ponder),
each side's own time a move, the ponder time it received (the opponent's own time on the
move before, while it pondered), its ponder-hit rate (the opponent played the move it pondered
on), what a hit saves (its own time on hits against misses), its bank, and its effective
thinking time a move (own, plus the pondered time on a hit), by move number:

    .venv/bin/python tools/reports/ponder_picture.py games.json --svg docs/time/ponder

prints a table by ranges of move numbers and writes PREFIX_own.svg (own time a move, both
sides), PREFIX_effective.svg (own plus pondered on a hit) and PREFIX_bank.svg (bank left),
medians with their p10-p90 bands. Move 1 (no ponder before it) counts in own time and bank only.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from bank import curve, svg  # noqa: E402

RANGES = ((1, 20), (21, 40), (41, 60), (61, 80), (81, 10_000))


def side_moves(calls: list, other: list, first: bool, banks: list) -> list[dict]:
    """One dict a move of the side whose adapter made `calls` (`first`: it moved first);
    `other` is the opponent's calls, `banks` the side's bank after each of its moves."""
    out = []
    for k, (own, last, _move, _ponder) in enumerate(calls):
        row = {"move": k + 1, "own": own, "bank": banks[k] if k < len(banks) else None,
               "hit": None, "received": None}
        j = k - 1 if first else k  # the opponent's call that played `last`
        if k > 0 and 0 <= j < len(other):
            pondered = calls[k - 1][3]
            row["received"] = other[j][0] if pondered not in (None, "?") else 0.0
            row["hit"] = None if pondered == "?" else (pondered is not None and pondered == last)
        out.append(row)
    return out


def load(path: Path) -> tuple[str, list[tuple[list[dict], list[dict]]]]:
    """The opponent's name and, per game, (minnow's moves, the opponent's moves)."""
    data = json.loads(path.read_text())
    games = []
    for g in data["games"]:
        if "calls" not in g or None in g["calls"]:
            raise SystemExit(f"{path}: game {g.get('index')} has no calls of both sides: "
                             "play it with arena.py --ponder-log against a submission:ARCHIVE")
        ours, theirs = g["calls"]
        we_first = ours[0][1] == "" if ours else False
        games.append((side_moves(ours, theirs, we_first, g["banks"]),
                      side_moves(theirs, ours, not we_first, g["their_banks"])))
    return data["opponent"], games


def effective(row: dict) -> float:
    """Own time plus, on a ponder hit, the time pondered on the move."""
    return row["own"] + (row["received"] if row["hit"] else 0.0)


def table(names: tuple[str, str], games) -> str:
    """Medians by range of move numbers, one line a side and range."""
    lines = ["| moves | side | own (median) | ponder received | hit rate | own on a hit / a miss | "
             "effective | bank after |", "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    ms = lambda v: f"{1000 * statistics.median(v):.0f} ms" if v else "-"  # noqa: E731
    for low, high in RANGES:
        for side, name in enumerate(names):
            rows = [r for game in games for r in game[side] if low <= r["move"] <= high]
            if not rows:
                continue
            judged = [r for r in rows if r["hit"] is not None]
            hits = [r for r in judged if r["hit"]]
            misses = [r for r in judged if not r["hit"]]
            rate = f"{100 * len(hits) / len(judged):.0f}%" if judged else "-"
            banks = [r["bank"] for r in rows if r["bank"] is not None]
            label = f"{low}-{high}" if high < 10_000 else f"{low}+"
            bank = f"{statistics.median(banks):.2f} s" if banks else "-"
            lines.append(f"| {label} | {name} | {ms([r['own'] for r in rows])} | "
                         f"{ms([r['received'] for r in rows if r['received'] is not None])} | {rate} | "
                         f"{ms([r['own'] for r in hits])} / {ms([r['own'] for r in misses])} | "
                         f"{ms([effective(r) for r in judged])} | {bank} |")
    return "\n".join(lines)


def totals(names, games) -> str:
    """Whole-game figures a side: hit rate, own and effective time, bank at move 40 and at the end."""
    out = []
    for side, name in enumerate(names):
        rows = [r for game in games for r in game[side]]
        judged = [r for r in rows if r["hit"] is not None]
        hits = sum(1 for r in judged if r["hit"])
        at40 = [game[side][39]["bank"] for game in games if len(game[side]) >= 40]
        ends = [game[side][-1]["bank"] for game in games if game[side] and game[side][-1]["bank"] is not None]
        out.append(f"{name}: {len(rows)} moves, ponder hits {hits} of {len(judged)} "
                   f"({100 * hits / max(1, len(judged)):.1f}%), own time total a game "
                   f"{statistics.median([sum(r['own'] for r in g[side]) for g in games]):.2f} s (median), "
                   f"effective {statistics.median([sum(effective(r) for r in g[side] if r['hit'] is not None) for g in games]):.2f} s; "
                   f"bank at move 40 {statistics.median(at40) if at40 else float('nan'):.2f} s ({len(at40)} games), "
                   f"at the end {statistics.median(ends) if ends else float('nan'):.2f} s")
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", type=Path, help="arena.py --ponder-log --json output")
    ap.add_argument("--svg", metavar="PREFIX", help="write PREFIX_own.svg, PREFIX_effective.svg, PREFIX_bank.svg")
    args = ap.parse_args()
    opponent, games = load(args.json)
    names = ("minnow", opponent.removeprefix("submission "))
    print(f"{len(games)} games, minnow against {names[1]}, both pondering")
    print(table(names, games))
    print(totals(names, games))
    if args.svg:
        per_game = lambda side, f: [[f(r) for r in g[side]] for g in games]  # noqa: E731
        plots = (("own", lambda r: r["own"], "own time a move (s)", 0.6, 0.1),
                 ("effective", lambda r: effective(r) if r["hit"] is not None else r["own"],
                  "own + pondered on a hit (s)", 0.6, 0.1),
                 ("bank", lambda r: r["bank"] if r["bank"] is not None else 0.0, "bank left (s)", 10.0, 2.0))
        for suffix, f, label, top, step in plots:
            series = {name: curve(per_game(side, f)) for side, name in enumerate(names)}
            path = Path(f"{args.svg}_{suffix}.svg")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(svg(series, f"{label}, {len(games)} harness games", top, step, label))
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
