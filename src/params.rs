//! Every tunable number of the engine, in one place: evaluation weights first, then search
//! parameters. Weights are `S(middlegame, endgame)` pairs in centipawns, blended by game
//! phase. Names say what each one rewards; signs are from the side that has the feature.

use crate::eval::S;

// ---------------------------------------------------------------------------------------
// Evaluation
// ---------------------------------------------------------------------------------------

/// Material by piece type (pawn, knight, bishop, rook, queen, king).
pub const PIECE_VALUE: [S; 6] = [S(90, 120), S(320, 300), S(335, 320), S(470, 530), S(950, 980), S(0, 0)];

/// Game-phase weight of each piece type; 24 = all pieces on the board (middlegame).
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// Phase of the starting position.
pub const MAX_PHASE: i32 = 24;

// Piece-square terms, built from a few shapes (see `eval::pst`) rather than 768 free numbers.
/// Pawn advancement by relative rank.
pub const PAWN_ADVANCE: [S; 8] =
    [S(0, 0), S(0, 0), S(2, 4), S(5, 10), S(10, 20), S(18, 35), S(28, 55), S(0, 0)];
/// Bonus for pawns on the four central files on the 3rd/4th rank (per file c, d, e, f).
pub const PAWN_CENTER: [i32; 4] = [4, 14, 14, 4];
/// Per step of centre distance (0 = centre, 6 = corner) for knight, bishop, rook, queen, king.
pub const CENTRALITY: [S; 6] = [S(0, 0), S(-8, -7), S(-4, -5), S(-1, -1), S(-2, -6), S(0, -12)];
/// King placement in the middlegame by relative rank (sheltered on the back rank).
pub const KING_RANK_MG: [i32; 8] = [10, -10, -30, -45, -55, -60, -60, -60];
/// King on the two files at either edge (castled) in the middlegame.
pub const KING_CORNER_MG: i32 = 15;
/// Rook or queen on the 7th relative rank.
pub const SEVENTH_RANK: [S; 2] = [S(15, 20), S(5, 10)];
/// Minor piece left on its back rank.
pub const UNDEVELOPED_MINOR: S = S(-12, 0);

/// Mobility per reachable square beyond the average, by piece (knight, bishop, rook, queen).
pub const MOBILITY: [S; 4] = [S(4, 4), S(5, 5), S(2, 4), S(1, 2)];
/// Squares a piece of each type typically reaches (the zero point of its mobility).
pub const MOBILITY_BASE: [i32; 4] = [4, 6, 7, 13];

/// Two bishops.
pub const BISHOP_PAIR: S = S(30, 50);
/// Rook on a file without pawns.
pub const ROOK_OPEN_FILE: S = S(25, 10);
/// Rook on a file without own pawns.
pub const ROOK_SEMI_OPEN_FILE: S = S(12, 8);

/// Passed pawn by relative rank.
pub const PASSED_PAWN: [S; 8] =
    [S(0, 0), S(5, 10), S(5, 15), S(12, 30), S(25, 55), S(45, 90), S(70, 140), S(0, 0)];
/// Passed pawn whose stop square is blocked, by relative rank (a fraction of the above).
pub const PASSED_BLOCKED: [S; 8] =
    [S(0, 0), S(0, 0), S(0, -5), S(-3, -10), S(-8, -20), S(-12, -35), S(-18, -50), S(0, 0)];
/// Endgame bonus per square that the enemy king is farther from a passer's stop square
/// than our king, scaled by the passer's rank.
pub const PASSED_KING_DISTANCE: i32 = 2;
/// Pawn with no friendly pawn on an adjacent file.
pub const ISOLATED_PAWN: S = S(-10, -14);
/// Second (and further) pawn on a file.
pub const DOUBLED_PAWN: S = S(-8, -20);
/// Pawn that cannot be defended by pawns and whose stop square an enemy pawn controls.
pub const BACKWARD_PAWN: S = S(-8, -8);

/// King-zone attack units per attacking piece type (knight, bishop, rook, queen).
pub const KING_ATTACK_UNITS: [i32; 4] = [2, 2, 3, 5];
/// Middlegame bonus for the attacker per squared attack unit, when two or more pieces attack.
pub const KING_ATTACK_SCALE: i32 = 3;
/// Largest king-attack bonus.
pub const KING_ATTACK_MAX: i32 = 600;
/// Own pawn directly in front of the castled king (middlegame), and one rank further.
pub const KING_SHIELD: [i32; 2] = [12, 6];
/// File next to (or at) the king without own pawns (middlegame).
pub const KING_OPEN_FILE: i32 = -18;

/// Bonus for the side to move.
pub const TEMPO: S = S(15, 5);

// ---------------------------------------------------------------------------------------
// Search
// ---------------------------------------------------------------------------------------

/// Aspiration windows start at this depth ...
pub const ASPIRATION_MIN_DEPTH: i32 = 5;
/// ... with this half-width around the previous score, doubled on each failure ...
pub const ASPIRATION_DELTA: i32 = 20;
/// ... until it exceeds this, when the window opens fully.
pub const ASPIRATION_MAX_DELTA: i32 = 800;

/// Reverse futility pruning: deepest depth, and margin per depth.
pub const RFP_DEPTH: i32 = 8;
/// Reverse futility margin per ply (less when the eval is improving).
pub const RFP_MARGIN: i32 = 75;

/// Null-move pruning: shallowest depth.
pub const NMP_DEPTH: i32 = 3;
/// Null-move base reduction.
pub const NMP_BASE_REDUCTION: i32 = 3;
/// Extra null-move reduction per this many plies of depth.
pub const NMP_DEPTH_DIVISOR: i32 = 4;
/// Extra null-move reduction per this much eval above beta (at most 3).
pub const NMP_EVAL_DIVISOR: i32 = 200;

/// Internal iterative reduction without a TT move from this depth.
pub const IIR_DEPTH: i32 = 4;

/// Late-move pruning: deepest depth.
pub const LMP_DEPTH: i32 = 8;
/// Futility pruning of quiets: deepest depth, base margin, margin per depth.
pub const FUTILITY_DEPTH: i32 = 8;
/// Futility base margin.
pub const FUTILITY_BASE: i32 = 90;
/// Futility margin per ply.
pub const FUTILITY_PER_DEPTH: i32 = 100;
/// SEE pruning thresholds per ply: quiets (per depth²) and captures (per depth).
pub const SEE_QUIET_MARGIN: i32 = -25;
/// SEE pruning of captures per ply.
pub const SEE_NOISY_MARGIN: i32 = -90;
/// SEE pruning deepest depth.
pub const SEE_PRUNE_DEPTH: i32 = 8;

/// Late-move reductions from this depth ...
pub const LMR_DEPTH: i32 = 3;
/// ... with reduction = BASE + ln(depth) * ln(move number) / DIVISOR (both in hundredths).
pub const LMR_BASE: i32 = 75;
/// LMR divisor in hundredths.
pub const LMR_DIVISOR: i32 = 225;
/// History score worth one ply of reduction.
pub const LMR_HISTORY_DIVISOR: i32 = 8192;

/// Quiescence delta pruning margin.
pub const DELTA_MARGIN: i32 = 200;

/// Largest history value (gravity keeps entries inside ±this).
pub const HISTORY_MAX: i32 = 16384;
/// History bonus is min(depth² * SCALE, MAX_BONUS).
pub const HISTORY_BONUS_SCALE: i32 = 16;
/// Cap of one history update.
pub const HISTORY_MAX_BONUS: i32 = 1600;

/// Time management: moves the remaining time is spread over when no moves-to-go is given.
/// (25 spent the whole 10 s bank of a 10+0.1 game in its first 20 moves.)
pub const TIME_MOVES_LEFT: u64 = 40;
/// Share of the increment added to the per-move target, in percent.
pub const TIME_INCREMENT_PERCENT: u64 = 75;
/// Hard limit as a multiple of the soft target ...
pub const TIME_HARD_FACTOR: u64 = 3;
/// ... but never more than this percentage of the remaining time.
pub const TIME_MAX_PERCENT: u64 = 20;
/// Nodes between clock and input checks.
pub const CHECK_EVERY_NODES: u64 = 1024;
