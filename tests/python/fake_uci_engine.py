#!/usr/bin/env python3
"""A tiny UCI perft engine built on python-chess, for testing the tools.

`fake_uci_engine.py MODE` answers `go perft` correctly in mode "ok"; the other
modes misbehave on purpose: "miscount" adds one to the first root move's
count, "no-ep" leaves en passant captures out, "die" exits with status 3
(after a line on stderr, at `go perft` or `go nodes`), "hang" never answers. An info line precedes each
perft answer, as Stockfish prints, to check that parsers skip it.

`go nodes N` is answered with two `info depth` lines (the last at depth
pieces % 7 + 2, pieces being the number of pieces on the board) and a legal
`bestmove`; in mode "stats" also with a tree-statistics line before
`bestmove` (`stats_line`, for tools/reports/tree_stats.py); in mode "score" the last
depth line has `score cp` 100 times the mover's men less the opponent's (for
tools/reports/annotate.py).
"""

import sys
import time
from pathlib import Path

import chess

for folder in ("lib", "suites"):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / folder))
from crosscheck import reference_divide  # noqa: E402


def answer_perft(board: chess.Board, depth: int, mode: str) -> None:
    """Print the perft divide and total the way `mode` says."""
    if mode == "die":
        print("fake engine: dying on purpose", file=sys.stderr, flush=True)
        sys.exit(3)
    if mode == "hang":
        time.sleep(3600)
    divide = reference_divide(board.fen(en_passant="fen"), depth)
    if mode == "miscount" and divide:
        first = next(iter(divide))
        divide[first] += 1
    if mode == "no-ep":
        divide = {m: n for m, n in divide.items() if not board.is_en_passant(chess.Move.from_uci(m))}
    print("info string fake perft")
    for move, count in divide.items():
        print(f"{move}: {count}")
    print(f"\nNodes searched: {sum(divide.values())}\n", flush=True)


def stats_line(board: chess.Board, nodes: int) -> str:
    """An `info string stats` line of made-up counters, some of them depending on the board."""
    pieces = len(board.piece_map())
    counters = {"nodes": nodes, "qnodes": nodes // 2, "tt_probes": nodes // 4, "tt_hits": pieces, "tt_cuts": 1,
                "cut_nodes": 10, "first_move_cuts": 9, "nmp_tries": 4, "nmp_cuts": 2, "probcut_tries": 0,
                "probcut_cuts": 0, "ext_check": pieces % 5, "ext_singular": 1, "ext_other": 0, "lmr_count": 3,
                "lmr_plies": 5, "asp_iters": 2, "asp_fails": 1, "pvs_tries": 8, "pvs_researches": 2}
    buckets = {f"lmr_d{d}_m{m}": "0/0" for d in (1, 3, 5, 7, 9, 12) for m in (2, 4, 8, 16)}
    buckets.update(lmr_d3_m4="2/3", lmr_d12_m16="1/2")
    words = [f"{k}={v}" for k, v in counters.items()] + [f"{k}={v}" for k, v in buckets.items()]
    return "info string stats " + " ".join(words)


def answer_go_nodes(board: chess.Board, nodes: int, mode: str) -> None:
    """Two depth lines, the stats line in mode "stats", and the first legal move."""
    if mode == "die":
        print("fake engine: dying on purpose", file=sys.stderr, flush=True)
        sys.exit(3)
    score = ""
    if mode == "score":
        mine = chess.popcount(board.occupied_co[board.turn])
        score = f" score cp {100 * (2 * mine - len(board.piece_map()))}"
    print(f"info depth 1 nodes 10\ninfo depth {len(board.piece_map()) % 7 + 2} nodes {nodes}{score}")
    if mode == "stats":
        print(stats_line(board, nodes))
    best = next(iter(board.legal_moves), None)
    print(f"bestmove {best.uci() if best else '0000'}", flush=True)


def main() -> None:
    """Serve UCI commands from stdin until 'quit' or end of input."""
    mode = sys.argv[1] if len(sys.argv) > 1 else "ok"
    board = chess.Board()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            print("id name fake\nuciok", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "position":
            moves_at = words.index("moves") if "moves" in words else len(words)
            board = chess.Board() if words[1] == "startpos" else chess.Board(" ".join(words[2:moves_at]))
            for move in words[moves_at + 1:]:
                board.push_uci(move)
        elif words[:2] == ["go", "perft"]:
            answer_perft(board, int(words[2]), mode)
        elif words[:2] == ["go", "nodes"]:
            answer_go_nodes(board, int(words[2]), mode)
        elif words[0] == "quit":
            return


if __name__ == "__main__":
    main()
