"""The bank curve's arithmetic: our remaining overage (the 10 s bank) after each of our
moves, over many games, as `move,games,median,p10,p90` rows; CSV in and out, a hand-written
SVG plot, and the banks a `match.py --kaggle-clock` PGN implies (from each engine's move
comments, `our_moves`). Used by arena.py (its `--curve`), reports/bank_curve.py (overlays of
several runs) and reports/nodes_at_clock.py (the move times).
"""

from __future__ import annotations

import csv
import re
import statistics
from pathlib import Path

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")
MIN_GAMES = 5  # moves reached by fewer games are left off the curve


def curve(banks_per_game: list[list[float]], min_games: int = MIN_GAMES) -> list[tuple[int, int, float, float, float]]:
    """(move, games, median, p10, p90) for every move number at least `min_games` games
    reached; `banks_per_game[g][k]` is game g's bank after our move k + 1."""
    rows = []
    longest = max((len(b) for b in banks_per_game), default=0)
    for k in range(longest):
        values = sorted(b[k] for b in banks_per_game if len(b) > k)
        if len(values) < max(1, min_games):
            break
        deciles = statistics.quantiles(values, n=10, method="inclusive") if len(values) > 1 else values * 9
        rows.append((k + 1, len(values), statistics.median(values), deciles[0], deciles[-1]))
    return rows


MOVE_TIME = re.compile(r"(\d+\.\d+)s\b")  # match.py's move comment: "+0.35/12 0.512s"


def our_moves(text: str, name: str):
    """For each game of a PGN in which engine `name` played (as White or Black): the game's
    headers and the comments of `name`'s moves, in order."""
    import io

    import chess
    import chess.pgn

    handle = io.StringIO(text)
    while (game := chess.pgn.read_game(handle)) is not None:
        headers = game.headers
        if name not in (headers.get("White"), headers.get("Black")):
            continue
        ours = chess.WHITE if headers.get("White") == name else chess.BLACK
        yield headers, [node.comment for node in game.mainline() if node.parent.board().turn == ours]


def banks_from_pgn(text: str, name: str) -> list[list[float]]:
    """Bank after each of `name`'s moves, one list per game of a match.py Kaggle-clock PGN
    in which `name` played (games without a TimeControl `BASE+INC` are skipped; a move
    without a time in its comment costs nothing)."""
    games = []
    for headers, comments in our_moves(text, name):
        tc = re.fullmatch(r"([\d.]+)\+([\d.]+)", headers.get("TimeControl", ""))
        if not tc:
            continue
        base, inc = float(tc.group(1)), float(tc.group(2))
        bank, banks = base, []
        for comment in comments:
            spent = MOVE_TIME.search(comment)
            bank -= max(0.0, float(spent.group(1)) - inc) if spent else 0.0
            banks.append(bank)
        games.append(banks)
    return games


def write_csv(rows, path: Path) -> None:
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["move", "games", "median", "p10", "p90"])
        for move, games, med, p10, p90 in rows:
            w.writerow([move, games, f"{med:.3f}", f"{p10:.3f}", f"{p90:.3f}"])


def read_csv(path: Path):
    with open(path) as f:
        return [(int(r["move"]), int(r["games"]), float(r["median"]), float(r["p10"]), float(r["p90"]))
                for r in csv.DictReader(f)]


def svg(series: dict[str, list], title: str, max_bank: float = 10.0, y_step: float = 2.0,
        y_label: str = "bank left (s)") -> str:
    """A line plot of each series' median with its p10..p90 band; x: our move, y: bank (s),
    or any other per-move figure on a scale of 0..`max_bank` (ticks every `y_step`)."""
    width, height, left, right, top, bottom = 720, 400, 56, 16, 36, 44
    max_move = max((rows[-1][0] for rows in series.values() if rows), default=1)
    max_move = max(10, -(-max_move // 10) * 10)
    x = lambda m: left + (width - left - right) * m / max_move  # noqa: E731
    y = lambda b: top + (height - top - bottom) * (1 - min(b, max_bank) / max_bank)  # noqa: E731
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="14">{title}</text>']
    for i in range(round(max_bank / y_step) + 1):
        b = i * y_step
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{y(b):.1f}" y2="{y(b):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{y(b) + 4:.1f}" text-anchor="end">{b:g}</text>')
    step = 10 if max_move <= 100 else 20
    for m in range(0, max_move + 1, step):
        out.append(f'<line x1="{x(m):.1f}" x2="{x(m):.1f}" y1="{top}" y2="{height - bottom}" stroke="#eee"/>')
        out.append(f'<text x="{x(m):.1f}" y="{height - bottom + 16}" text-anchor="middle">{m}</text>')
    out.append(f'<text x="{width / 2}" y="{height - 8}" text-anchor="middle">our move number</text>')
    out.append(f'<text x="14" y="{height / 2}" text-anchor="middle" '
               f'transform="rotate(-90 14 {height / 2})">{y_label}</text>')
    for i, (name, rows) in enumerate(series.items()):
        colour = COLOURS[i % len(COLOURS)]
        if not rows:
            continue
        band = [(x(m), y(p90)) for m, _, _, _, p90 in rows] + [(x(m), y(p10)) for m, _, _, p10, _ in reversed(rows)]
        out.append(f'<polygon fill="{colour}" fill-opacity="0.12" stroke="none" points="'
                   + " ".join(f"{a:.1f},{b:.1f}" for a, b in band) + '"/>')
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="'
                   + " ".join(f"{x(m):.1f},{y(med):.1f}" for m, _, med, _, _ in rows) + '"/>')
        ly = top + 16 + 18 * i
        out.append(f'<line x1="{width - 250}" x2="{width - 226}" y1="{ly - 4}" y2="{ly - 4}" '
                   f'stroke="{colour}" stroke-width="2"/>')
        out.append(f'<text x="{width - 220}" y="{ly}">{name} (median, p10-p90)</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def summary(rows, at=(1, 10, 20, 30, 40, 60, 80)) -> str:
    """`move 10: 8.91 s (100 games)` for a few move numbers, as one line."""
    by_move = {r[0]: r for r in rows}
    return "; ".join(f"move {m}: {by_move[m][2]:.2f} s ({by_move[m][1]})" for m in at if m in by_move)
