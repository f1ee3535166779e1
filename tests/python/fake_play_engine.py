#!/usr/bin/env python3
"""A tiny UCI playing engine built on python-chess, for testing the match and EPD tools.

`fake_play_engine.py [MODE [AT]]` plays at once: a checkmating move when
there is one (with `info depth 1 score mate 1`), otherwise a capture of the
most valuable piece it can take, otherwise the first legal move in UCI order
(`score cp 0`). From its AT-th move of a game on (default 1) it misbehaves as
MODE says: "ok" never does; "crash" exits with status 3; "illegal" answers a
move that is not legal; "none" answers `bestmove (none)`; "hang" never
answers; "slow" answers 0.3 s after its time (movetime, or the whole clock).
"""

import sys
import time

import chess

VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}


def choose(board: chess.Board) -> tuple[chess.Move, str]:
    """(move, score text) for the position."""
    moves = sorted(board.legal_moves, key=lambda m: m.uci())
    for move in moves:
        board.push(move)
        mate = board.is_checkmate()
        board.pop()
        if mate:
            return move, "mate 1"
    captures = [m for m in moves if board.is_capture(m) and board.piece_type_at(m.to_square)]
    if captures:
        return max(captures, key=lambda m: VALUES[board.piece_type_at(m.to_square)]), "cp 0"
    return moves[0], "cp 0"


def illegal_move(board: chess.Board) -> str:
    """A well-formed move that is not legal in the position."""
    for from_square in chess.SQUARES:
        for to_square in chess.SQUARES:
            move = chess.Move(from_square, to_square)
            if from_square != to_square and move not in board.legal_moves:
                return move.uci()
    raise AssertionError("unreachable")


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "ok"
    at = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    board = chess.Board()
    moves_played = 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "uci":
            print("id name fake-play\noption name Hash type spin default 1 min 1 max 16\nuciok", flush=True)
        elif command == "isready":
            print("readyok", flush=True)
        elif command == "ucinewgame":
            moves_played = 0
        elif command == "position":
            if words[1] == "startpos":
                board = chess.Board()
                rest = words[2:]
            else:
                board = chess.Board(" ".join(words[2:8]))
                rest = words[8:]
            if rest and rest[0] == "moves":
                for uci in rest[1:]:
                    board.push_uci(uci)
        elif command == "go":
            moves_played += 1
            misbehave = mode != "ok" and moves_played >= at
            if misbehave and mode == "crash":
                print("fake engine: crashing on purpose", file=sys.stderr, flush=True)
                sys.exit(3)
            if misbehave and mode == "hang":
                time.sleep(3600)
            if misbehave and mode == "slow":
                args = dict(zip(words[1::2], words[2::2], strict=False))
                clock = args.get("movetime") or args.get("wtime" if board.turn == chess.WHITE else "btime") or "0"
                time.sleep(int(clock) / 1000 + 0.3)
            move, score = choose(board)
            print(f"info depth 1 score {score} nodes 1 pv {move.uci()}", flush=True)
            if misbehave and mode == "illegal":
                print(f"bestmove {illegal_move(board)}", flush=True)
            elif misbehave and mode == "none":
                print("bestmove (none)", flush=True)
            else:
                print(f"bestmove {move.uci()}", flush=True)
        elif command == "quit":
            return


if __name__ == "__main__":
    main()
