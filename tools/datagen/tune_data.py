#!/usr/bin/env python3
"""Make labelled positions for tuning the evaluation (`cargo run --release -p minnow-dev --bin tune`).

Stockfish plays itself from random positions of a start-position file at a fixed node count
per move; every position of those games is written with Stockfish's search score and the
game's result. Only quiet positions are kept, because a static evaluation cannot see a
capture that is about to happen: the side to move is not in check, and Stockfish's chosen
move is not a capture or a promotion. Decided and mate scores are dropped.

With --label FILE it instead scores the positions of an EPD file directly (a random
sample of --sample of them), which gives independent positions rather than games; their
result is unknown and written as `-`.

Output lines: `<fen>;<score in centipawns, white's view>;<result 1.0/0.5/0.0 or ->`.

    python tools/datagen/tune_data.py --games 1500 --workers 2 --out games.txt
    python tools/datagen/tune_data.py --label ../shared/data/positions/endgames.epd --sample 80000 --out end.txt
    python tools/datagen/tune_data.py --label ../shared/data/positions/popularpos_lichess_v3.epd --walk 40 --out mid.txt
    python tools/datagen/tune_data.py --label ../shared/data/positions/endgames.epd --remove --out removed.txt
"""

import argparse
import multiprocessing
import random
import sys

import chess
import chess.engine

STOCKFISH = "/usr/games/stockfish"


def start_stockfish():
    """One single-threaded Stockfish with a small hash, as every worker uses it."""
    engine = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
    engine.configure({"Threads": 1, "Hash": 16})
    return engine


def play_game(engine, start_fen, nodes, rng):
    """Plays one game; returns (rows without result, result for white)."""
    board = chess.Board(start_fen)
    rows = []
    decided = 0
    result = None
    for ply in range(400):
        if board.is_game_over(claim_draw=True):
            outcome = board.outcome(claim_draw=True)
            result = 0.5 if outcome.winner is None else (1.0 if outcome.winner else 0.0)
            break
        info = engine.analyse(board, chess.engine.Limit(nodes=nodes))
        score = info["score"].white()
        move = info["pv"][0] if info.get("pv") else None
        if move is None:
            break
        cp = score.score()
        if cp is not None and abs(cp) < 2000 and not board.is_check():
            if not board.is_capture(move) and move.promotion is None:
                rows.append(f"{board.fen()};{cp}")
        # Adjudicate clearly decided games, so that they do not fill the set.
        if cp is None or abs(cp) > 1000:
            decided += 1
            if decided >= 6:
                white_ahead = score.score(mate_score=100000) > 0
                result = 1.0 if white_ahead else 0.0
                break
        else:
            decided = 0
        # A few random moves early on widen the set beyond Stockfish's own choices.
        if ply < 24 and rng.random() < 0.06:
            move = rng.choice(list(board.legal_moves))
        board.push(move)
    if result is None:
        result = 0.5
    return rows, result


def worker(args):
    index, seed, games, starts, nodes, out = args
    rng = random.Random(seed)
    engine = start_stockfish()
    written = 0
    with open(out, "w") as f:
        for g in range(games):
            rows, result = play_game(engine, rng.choice(starts), nodes, rng)
            for row in rows:
                f.write(f"{row};{result}\n")
            written += len(rows)
            if index == 0 and g % 20 == 0:
                print(f"worker 0: game {g}/{games}, {written} positions", file=sys.stderr, flush=True)
    engine.quit()
    return written


def label_worker(args):
    index, fens, nodes, out, walk, remove, seed = args
    rng = random.Random(seed)
    engine = start_stockfish()
    written = 0
    with open(out, "w") as f:
        for n, fen in enumerate(fens):
            board = chess.Board(fen)
            # --walk: move on from the start position by a quick Stockfish game with a few
            # random moves, so that the positions reach the middlegame.
            for _ in range(rng.randint(walk // 4, walk) if walk else 0):
                if board.is_game_over():
                    break
                if rng.random() < 0.08:
                    move = rng.choice(list(board.legal_moves))
                else:
                    move = engine.play(board, chess.engine.Limit(nodes=400)).move
                board.push(move)
            # --remove: take one random piece or pawn (not a king) off the board, so that the
            # set has clean material imbalances; game positions with a piece more are mostly
            # in the middle of an exchange, which would teach the tuner pieces are worth little.
            if remove:
                squares = [sq for sq, p in board.piece_map().items() if p.piece_type != chess.KING]
                if squares:
                    board.remove_piece_at(rng.choice(squares))
                    board.clear_stack()
                    board.castling_rights = board.clean_castling_rights()
                    board.ep_square = None
                if not board.is_valid():
                    continue
            if board.is_check() or board.is_game_over():
                continue
            info = engine.analyse(board, chess.engine.Limit(nodes=nodes))
            cp = info["score"].white().score()
            move = info["pv"][0] if info.get("pv") else None
            if cp is None or abs(cp) >= 2000 or move is None:
                continue
            if board.is_capture(move) or move.promotion is not None:
                continue
            f.write(f"{board.fen()};{cp};-\n")
            written += 1
            if index == 0 and n % 2000 == 0:
                print(f"worker 0: {n}/{len(fens)}, {written} kept", file=sys.stderr, flush=True)
    engine.quit()
    return written


def read_fens(path):
    fens = []
    with open(path) as f:
        for line in f:
            fields = line.split()
            if len(fields) >= 4:
                fens.append(" ".join(fields[:4]) + " 0 1")
    return fens


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--starts", default="../shared/data/positions/popularpos_lichess_v3.epd")
    ap.add_argument("--games", type=int, default=1500)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--nodes", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="tune.txt")
    ap.add_argument("--label", help="EPD file whose positions are scored directly")
    ap.add_argument("--sample", type=int, default=50000, help="positions sampled from --label")
    ap.add_argument("--walk", type=int, default=0, help="play up to this many quick plies from each --label position first")
    ap.add_argument("--remove", action="store_true", help="take one random non-king piece off each --label position")
    ap.add_argument("--skip", type=int, default=0, help="skip this many of the shuffled --label positions first")
    args = ap.parse_args()
    if args.label:
        fens = read_fens(args.label)
        random.Random(args.seed).shuffle(fens)
        fens = fens[args.skip : args.skip + args.sample]
        jobs = [
            (i, fens[i :: args.workers], args.nodes, f"{args.out}.{i}", args.walk, args.remove, args.seed * 1000 + i)
            for i in range(args.workers)
        ]
        task = label_worker
    else:
        starts = read_fens(args.starts)
        per = args.games // args.workers
        jobs = [(i, args.seed * 1000 + i, per, starts, args.nodes, f"{args.out}.{i}") for i in range(args.workers)]
        task = worker
    with multiprocessing.Pool(args.workers) as pool:
        counts = pool.map(task, jobs)
    with open(args.out, "w") as out:
        for i in range(args.workers):
            with open(f"{args.out}.{i}") as part:
                out.write(part.read())
    print(f"{sum(counts)} positions in {args.out}")


if __name__ == "__main__":
    main()
