#!/usr/bin/env python3
"""The bank curve: our remaining overage (the 10 s bank) against our move number, over many
games in the harness. `arena.py --curve PREFIX` writes PREFIX.csv and PREFIX.svg for its games;
this script overlays several such CSVs in one plot, e.g. before and after a time-management
change:

    .venv/bin/python tools/reports/bank_curve.py before.csv after.csv --out bank.svg

CSV columns: `move,games,median,p10,p90`: at our `move`-th move, over the `games` games that
lasted that long, the median and the 10th and 90th percentiles of the bank left after it (s).
The SVG is written by hand (no plotting library): one line per series for the median, a band
for p10..p90.

It also reads the games of `tools/match.py --kaggle-clock` (their PGN keeps each move's time
as `0.512s` in its comment): `--pgn FILE NAME` is the curve of engine NAME in those games,
its bank after each move being the base minus, move by move, the time beyond the free
increment (the clock match.py kept), e.g. the two sides of a time-management match:

    .venv/bin/python tools/reports/bank_curve.py --pgn m.pgn variant --pgn m.pgn base --out tm.svg --csv-dir out/
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from bank import banks_from_pgn, curve, read_csv, summary, svg, write_csv  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", nargs="*", type=Path, help="bank curves written by arena.py --curve")
    ap.add_argument("--pgn", nargs=2, action="append", default=[], metavar=("FILE", "NAME"),
                    help="engine NAME's curve in a match.py --kaggle-clock PGN (repeatable)")
    ap.add_argument("--csv-dir", type=Path, help="also write each --pgn curve as NAME.csv here")
    ap.add_argument("--out", type=Path, required=True, help="the SVG to write")
    ap.add_argument("--title", default="bank left after our move (median over games)")
    args = ap.parse_args()
    if not args.csv and not args.pgn:
        ap.error("give CSV files or --pgn FILE NAME")
    series = {p.stem: read_csv(p) for p in args.csv}
    for file, name in args.pgn:
        games = banks_from_pgn(Path(file).read_text(), name)
        if not games:
            ap.error(f"{file}: no game with a BASE+INC TimeControl in which {name} played")
        series[name] = curve(games)
        if args.csv_dir:
            args.csv_dir.mkdir(parents=True, exist_ok=True)
            write_csv(series[name], args.csv_dir / f"{name}.csv")
    args.out.write_text(svg(series, args.title))
    for name, rows in series.items():
        print(f"{name}: {summary(rows)}")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
