//! `bench`: a fixed-depth search of fixed positions with fresh tables, the node count of
//! which is the checksum of the search's behaviour (OpenBench's convention: any change
//! that alters it is a functional change and must be tested by a match).

/// Default depth of `bench`.
pub const BENCH_DEPTH: i32 = 10;

/// Openings, middlegames and endgames (from the project's shared position sets and the
/// standard perft positions).
pub const BENCH_POSITIONS: [&str; 16] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 0 5",
    "r1bqkbnr/pp2pppp/2np4/8/3NP3/2N5/PPP2PPP/R1BQKB1R b KQkq - 1 5",
    "rnbqk2r/pp2ppbp/3p1np1/8/3NP3/2N1BP2/PPP3PP/R2QKB1R b KQkq - 0 7",
    "r1bqkb1r/1ppp1ppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 2 5",
    "rnbqk2r/1p3ppp/2p1pn2/p5B1/PbPPN3/5N2/1P3PPP/R2QKB1R w KQkq - 0 9",
    "r1bqnrk1/pp1nppbp/3p2p1/2pPP3/5P2/2N2N2/PPP1B1PP/R1BQK2R w KQ - 1 9",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "1r1r4/2Q2p2/1p2pPk1/p7/3p4/P2P2P1/1P6/6K1 b - - 0 41",
    "2r3k1/5Bp1/1p3p1p/p5n1/P3R3/B3PP2/3P2P1/3K4 b - - 0 31",
    "8/5ppk/1p4b1/7n/p2NPb2/P2P4/1P3PB1/4BK2 b - - 0 38",
    "5bk1/8/8/3Pp3/3pPpr1/p2R1N2/P5P1/6K1 b - - 0 54",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/8/4k3/8/3K4/4P3/8 w - - 0 1",
];
