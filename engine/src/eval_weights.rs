//! The hand-crafted evaluation's weights (`engine/src/eval.rs`, built with
//! `--no-default-features`; not in the shipped engine, which evaluates with the network), as
//! `S(middlegame, endgame)` pairs in centipawns, blended by game phase. Names say what each
//! one rewards; signs are from the side that has the feature. `devtools/src/bin/tune.rs` fits
//! them and writes them back here (`--write engine/src/eval_weights.rs`).

use crate::score::S;

/// Material by piece type (pawn, knight, bishop, rook, queen, king).
pub const PIECE_VALUE: [S; 6] = [S(83, 71), S(359, 257), S(364, 265), S(416, 473), S(932, 882), S(0, 0)];

/// Game-phase weight of each piece type; 24 = all pieces on the board (middlegame).
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// Phase of the starting position.
pub const MAX_PHASE: i32 = 24;

/// Piece-square bonus on top of the material, by piece type and square, white's view (black
/// uses the vertically mirrored square): rank 1 first, four entries a rank for files a-d,
/// which also serve h-e.
pub const PST: [[S; 32]; 6] = [
    [
        S(0, 0),
        S(0, 0),
        S(0, 0),
        S(0, 0),
        S(-14, 1),
        S(1, 0),
        S(-4, 10),
        S(-11, 10),
        S(-11, -4),
        S(3, -7),
        S(3, -1),
        S(-7, 2),
        S(-11, 2),
        S(3, 0),
        S(16, -5),
        S(11, -8),
        S(4, 9),
        S(5, 0),
        S(0, -2),
        S(17, -7),
        S(20, 17),
        S(20, 19),
        S(26, 12),
        S(17, 9),
        S(7, 30),
        S(10, 15),
        S(8, 30),
        S(21, 26),
        S(0, 0),
        S(0, 0),
        S(0, 0),
        S(0, 0),
    ],
    [
        S(-2, -7),
        S(-16, -12),
        S(-7, -10),
        S(-12, -1),
        S(-11, -4),
        S(-3, 0),
        S(-1, -6),
        S(7, -5),
        S(-14, -4),
        S(2, -6),
        S(-2, -1),
        S(13, 7),
        S(-3, 4),
        S(-6, 10),
        S(16, 12),
        S(5, 20),
        S(16, 10),
        S(12, 10),
        S(28, 13),
        S(14, 22),
        S(-2, 5),
        S(7, 2),
        S(20, 19),
        S(31, 14),
        S(4, -1),
        S(-5, -5),
        S(21, -1),
        S(-3, 15),
        S(-23, -31),
        S(-1, -4),
        S(-3, -2),
        S(-2, -4),
    ],
    [
        S(-6, -4),
        S(-4, -6),
        S(-15, -1),
        S(-4, -4),
        S(15, -10),
        S(10, -11),
        S(10, -5),
        S(0, -6),
        S(-3, -5),
        S(11, -1),
        S(1, 3),
        S(0, 9),
        S(13, -9),
        S(-10, 4),
        S(1, 10),
        S(10, 14),
        S(-9, -6),
        S(1, 9),
        S(17, 7),
        S(0, 22),
        S(9, -3),
        S(6, 10),
        S(6, 9),
        S(9, 7),
        S(-11, -1),
        S(-24, 5),
        S(2, 4),
        S(0, 4),
        S(0, 7),
        S(2, 7),
        S(-12, -3),
        S(-6, 1),
    ],
    [
        S(-6, -11),
        S(1, -9),
        S(4, -7),
        S(19, -14),
        S(-19, -5),
        S(-12, -2),
        S(-2, -5),
        S(-6, -4),
        S(-10, -1),
        S(-5, 3),
        S(-10, 7),
        S(-2, 1),
        S(-7, 6),
        S(-16, 18),
        S(-10, 17),
        S(-8, 16),
        S(-4, 16),
        S(-10, 25),
        S(-4, 25),
        S(-8, 26),
        S(1, 20),
        S(2, 24),
        S(8, 25),
        S(5, 31),
        S(-4, 30),
        S(3, 28),
        S(7, 31),
        S(0, 33),
        S(3, 25),
        S(2, 20),
        S(3, 24),
        S(-7, 20),
    ],
    [
        S(-11, 0),
        S(-4, -5),
        S(-2, -6),
        S(-2, -2),
        S(-6, 2),
        S(-4, -6),
        S(5, -17),
        S(8, -13),
        S(-9, -1),
        S(0, 4),
        S(-3, 8),
        S(-7, 11),
        S(-6, 10),
        S(11, 5),
        S(4, 14),
        S(-12, 21),
        S(8, 0),
        S(7, 6),
        S(1, 16),
        S(0, 20),
        S(9, 11),
        S(9, 11),
        S(-7, 14),
        S(3, 23),
        S(-1, 0),
        S(-9, 7),
        S(5, 14),
        S(10, 22),
        S(-5, 5),
        S(3, 11),
        S(1, 3),
        S(4, 18),
    ],
    [
        S(16, -42),
        S(25, -30),
        S(-4, -17),
        S(16, -26),
        S(9, -24),
        S(6, -12),
        S(-30, 2),
        S(-39, 4),
        S(-15, -11),
        S(-6, -4),
        S(-10, 2),
        S(-12, 1),
        S(-3, -5),
        S(6, 11),
        S(5, 17),
        S(3, 6),
        S(4, 16),
        S(9, 25),
        S(4, 25),
        S(5, 9),
        S(2, 1),
        S(2, 5),
        S(3, 14),
        S(3, 17),
        S(1, 3),
        S(0, 8),
        S(2, 11),
        S(1, -4),
        S(0, 0),
        S(-1, -1),
        S(0, 1),
        S(1, 1),
    ],
];

/// Mobility by the number of squares reached that are not held by own pieces or attacked
/// by enemy pawns: knight (0-8), bishop (0-13), rook (0-14), queen (0-27).
pub const KNIGHT_MOBILITY: [S; 9] =
    [S(-12, -20), S(-7, -24), S(-5, -12), S(-4, -4), S(1, 3), S(4, 10), S(6, 12), S(9, 9), S(11, 4)];
/// Bishop mobility.
pub const BISHOP_MOBILITY: [S; 14] = [
    S(-15, -24),
    S(-9, -16),
    S(-2, -11),
    S(2, -4),
    S(2, 5),
    S(5, 12),
    S(5, 15),
    S(7, 15),
    S(5, 18),
    S(6, 14),
    S(7, 12),
    S(4, 16),
    S(1, 12),
    S(3, 11),
];
/// Rook mobility.
pub const ROOK_MOBILITY: [S; 15] = [
    S(-12, -16),
    S(-6, -23),
    S(-4, -19),
    S(0, -11),
    S(-2, -4),
    S(2, 3),
    S(6, 8),
    S(4, 12),
    S(3, 18),
    S(11, 19),
    S(8, 25),
    S(6, 27),
    S(12, 27),
    S(7, 28),
    S(5, 23),
];
/// Queen mobility.
pub const QUEEN_MOBILITY: [S; 28] = [
    S(-8, 4),
    S(-8, 5),
    S(-6, 4),
    S(-2, 2),
    S(-2, 2),
    S(-1, -1),
    S(1, -8),
    S(5, -12),
    S(7, -6),
    S(7, 5),
    S(11, 0),
    S(7, 4),
    S(9, 0),
    S(14, 4),
    S(10, 1),
    S(12, 12),
    S(8, 17),
    S(11, 12),
    S(10, 13),
    S(12, 6),
    S(11, 15),
    S(9, 8),
    S(7, 8),
    S(6, 6),
    S(7, 7),
    S(5, 3),
    S(5, 3),
    S(5, 3),
];

/// Two bishops.
pub const BISHOP_PAIR: S = S(26, 26);
/// Rook on a file without pawns.
pub const ROOK_OPEN_FILE: S = S(25, 3);
/// Rook on a file without own pawns.
pub const ROOK_SEMI_OPEN_FILE: S = S(12, 2);

/// Passed pawn by relative rank.
pub const PASSED_PAWN: [S; 8] =
    [S(0, 0), S(4, -5), S(-12, -7), S(1, 6), S(14, 28), S(26, 53), S(24, 74), S(0, 0)];
/// Passed pawn whose stop square is occupied, by relative rank (added to the above).
pub const PASSED_BLOCKED: [S; 8] =
    [S(0, 0), S(2, -9), S(-1, -3), S(1, -13), S(4, -19), S(-9, -28), S(-17, -19), S(0, 0)];
/// Passed pawn: per square of distance from its stop square to our king, times its rank.
pub const PASSED_OWN_KING: S = S(2, -3);
/// Passed pawn: per square of distance from its stop square to the enemy king, times its rank.
pub const PASSED_ENEMY_KING: S = S(-3, 5);
/// Pawn defended by a pawn, by relative rank.
pub const PAWN_SUPPORTED: [S; 8] =
    [S(0, 0), S(0, 0), S(4, 17), S(0, 12), S(17, 12), S(49, 22), S(5, 10), S(0, 0)];
/// Pawn with a friendly pawn beside it on the same rank, by relative rank.
pub const PAWN_PHALANX: [S; 8] = [S(0, 0), S(0, 4), S(0, 6), S(5, 9), S(23, 18), S(8, 20), S(1, 3), S(0, 0)];
/// Pawn with no friendly pawn on an adjacent file.
pub const ISOLATED_PAWN: S = S(-8, -5);
/// Second (and further) pawn on a file.
pub const DOUBLED_PAWN: S = S(-27, -9);
/// Pawn that cannot be defended by pawns and whose stop square an enemy pawn controls.
pub const BACKWARD_PAWN: S = S(-7, 0);

/// Our pawn attacks an enemy piece (not a pawn or the king).
pub const PAWN_THREAT: S = S(39, 50);
/// Our knight or bishop attacks an enemy rook or queen.
pub const MINOR_THREAT: S = S(37, 9);
/// Our rook attacks an enemy queen.
pub const ROOK_THREAT: S = S(39, 3);

/// King-zone attack units per attacking piece type (knight, bishop, rook, queen), per
/// square of the zone it hits.
pub const KING_ATTACK_UNITS: [i32; 4] = [2, 2, 3, 5];
/// Bonus for the attacker by attack units (capped at the last entry), when two or more
/// pieces attack the enemy king's zone.
pub const KING_ATTACK: [S; 40] = [
    S(0, 0),
    S(0, 0),
    S(0, 0),
    S(0, 0),
    S(-4, -4),
    S(0, 8),
    S(4, -14),
    S(0, 5),
    S(9, -7),
    S(-1, -5),
    S(7, 0),
    S(9, -1),
    S(3, -12),
    S(5, 3),
    S(11, -9),
    S(10, 3),
    S(16, 2),
    S(23, -10),
    S(6, -3),
    S(11, -2),
    S(5, -8),
    S(3, -7),
    S(5, -6),
    S(10, -2),
    S(4, -7),
    S(9, 3),
    S(-1, 1),
    S(6, 2),
    S(9, 2),
    S(7, 3),
    S(5, 1),
    S(8, 2),
    S(2, 1),
    S(1, 0),
    S(7, 1),
    S(0, 0),
    S(-2, 0),
    S(1, 0),
    S(0, 0),
    S(4, 2),
];
/// Own pawn directly in front of the king on its first two ranks, and one rank further.
pub const KING_SHIELD: [S; 2] = [S(11, -3), S(6, -3)];
/// File next to (or at) such a king without own pawns.
pub const KING_OPEN_FILE: S = S(-18, 2);

/// Bonus for the side to move.
pub const TEMPO: S = S(16, 6);
