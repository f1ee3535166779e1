//! The search's numbers in one place: its tunables (`tunables!`, settable at run time in a
//! `tune` build), its fixed margins, and the correction history's sizes. The hand-crafted
//! evaluation's weights live beside it, in `engine/src/eval_weights.rs`.

/// Declares the search's tunable numbers. Each is a constant; with the `tune` feature each
/// is also a [`Tunable`] in `tune` that UCI `setoption` changes at run time (for SPSA,
/// `tools/spsa.py`), with the range given here. The search reads them through [`tp!`], so
/// the shipped build, without the feature, compiles the constants in.
macro_rules! tunables {
    ($($(#[doc = $doc:literal])* $name:ident: $ty:ty = $value:literal, $min:literal..=$max:literal;)*) => {
        $($(#[doc = $doc])* pub const $name: $ty = $value;)*

        /// The tunables as run-time values (the `tune` feature), listed and set by name.
        #[cfg(feature = "tune")]
        pub mod tune {
            use super::Tunable;
            $(
                #[allow(missing_docs)]
                pub static $name: Tunable = Tunable::new(stringify!($name), super::$name as i32, $min, $max);
            )*
            /// Every tunable.
            pub static ALL: &[&Tunable] = &[$(&$name),*];
            /// Each tunable's current value as its constant's type (what [`tp!`] reads).
            pub mod typed {
                $(
                    #[allow(missing_docs, non_snake_case)]
                    #[inline(always)]
                    pub fn $name() -> $ty {
                        super::$name.get() as $ty
                    }
                )*
            }
        }
    };
}

/// Correction history: entries per side to move (a power of two), indexed by a hash of
/// the pawns of both colours.
pub const CORRECTION_SIZE: usize = 8192;
/// Correction-history tables: pawns; minor pieces and kings; major pieces and kings;
/// white's pieces; black's pieces; the move before (by piece and destination, side 0).
pub const CORRECTION_TABLES: usize = 6;
/// Each table's weight: an entry's ±1,024 times this / 1,024 is KaggleFish's units (208 a
/// pawn), so the whole correction reaches 415 of them, about 200 cp.
pub const CORRECTION_WEIGHT: [i32; CORRECTION_TABLES] = [94, 70, 42, 78, 78, 53];

/// A tunable's value: its constant, or with the `tune` feature what `setoption` set.
macro_rules! tp {
    ($name:ident) => {{
        #[cfg(not(feature = "tune"))]
        let value = $crate::params::$name;
        #[cfg(feature = "tune")]
        let value = $crate::params::tune::typed::$name();
        value
    }};
}
pub(crate) use tp;

/// A search number settable at run time (the `tune` feature): name, default and range.
#[cfg(feature = "tune")]
pub struct Tunable {
    /// The constant's name, also the UCI option's.
    pub name: &'static str,
    /// The constant's value.
    pub default: i32,
    /// Smallest value `set` accepts.
    pub min: i32,
    /// Largest value `set` accepts.
    pub max: i32,
    value: core::sync::atomic::AtomicI32,
}

#[cfg(feature = "tune")]
impl Tunable {
    /// A tunable at its default.
    pub const fn new(name: &'static str, default: i32, min: i32, max: i32) -> Tunable {
        Tunable { name, default, min, max, value: core::sync::atomic::AtomicI32::new(default) }
    }

    /// The current value.
    #[inline(always)]
    pub fn get(&self) -> i32 {
        self.value.load(core::sync::atomic::Ordering::Relaxed)
    }

    /// Sets the value; false (and unchanged) outside `min..=max`.
    pub fn set(&self, value: i32) -> bool {
        let ok = (self.min..=self.max).contains(&value);
        if ok {
            self.value.store(value, core::sync::atomic::Ordering::Relaxed);
        }
        ok
    }
}

/// KaggleFish's late-move reduction is a ply larger at a node that is not improving once
/// ln(depth) × ln(moves) / LMR_DIVISOR passes this (hundredths of a ply).
pub const LMR_IMPROVING_FROM: i32 = 83;

// The search's fixed margins: KaggleFish's values, carried over with its forms (617e847) and
// never tuned here, so constants and not tunables. Each names the step of search.rs it serves.

/// Step 6: no cutoff from the transposition table once the fifty-move clock reaches this (the
/// rule may end the line before the stored result).
pub const TT_CUT_MAX_HALFMOVES: u16 = 90;
/// Step 9: no null move after a reply whose history, the parent's last quiet reduction
/// statistic, reaches this.
pub const NMP_MAX_PARENT_STAT: i32 = 26_226;
/// Step 10a: in check, from this depth, a TT capture whose lower bound (at most 3 plies
/// shallower) beats beta by this margin cuts at once.
pub const CHECK_TT_CUT_DEPTH: i32 = 4;
/// Step 10a's margin (centipawns).
pub const CHECK_TT_CUT_MARGIN: i32 = 215;
/// Step 12: the quiets' SEE margin shrinks with the reduced depth as (this − l) / the divisor
/// below, l the reduced depth up to [`SEE_QUIET_DEPTH_CAP`].
pub const SEE_QUIET_SHAPE: i32 = 29;
/// Step 12: the divisor of that shape.
pub const SEE_QUIET_DIVISOR: i32 = 26;
/// Step 12: the reduced depth the shape counts at most.
pub const SEE_QUIET_DEPTH_CAP: i32 = 18;
/// Step 13: a running TT hit rate above this (in 1/65,536) reduces every late move a ply less.
pub const LMR_TT_HIT_RATE: u32 = 65_536 * 377 / 1_024;
/// Step 13: a reduced move that beat the best by this (plus the new depth) is re-searched a
/// ply deeper ...
pub const LMR_DEEPER_MARGIN: i32 = 18;
/// ... and one that beat it by less than this a ply shallower.
pub const LMR_SHALLOWER_MARGIN: i32 = 4;
/// Step 15: a quiet best move that beat beta by this earns the next depth's history bonus.
pub const HISTORY_BONUS_MARGIN: i32 = 61;

tunables! {
    /// Aspiration windows start at this depth ...
    ASPIRATION_MIN_DEPTH: i32 = 4, 3..=9;
    /// ... with this half-width around the previous score, growing by a quarter and 2 cp
    /// on each failure ...
    ASPIRATION_DELTA: i32 = 9, 5..=60;
    /// ... until it exceeds this, when the window opens fully.
    ASPIRATION_MAX_DELTA: i32 = 800, 200..=2000;
    /// The window centred on a running average of the iterations' scores, (2 s + average)
    /// / 3, as KaggleFish centres it, instead of the last score (0: off). Not yet proven:
    /// against KaggleFish, paired by opening, +3.75 ± 2.24 (se) points at 20,000 nodes,
    /// +1.25 ± 3.66 at 80,000, +2.50 ± 3.20 at 320,000 (docs/search.md); on only after a
    /// match at the clock.
    ASPIRATION_AVERAGE: i32 = 0, 0..=1;

    /// Razoring: quiescence decides below alpha - RAZOR_BASE - RAZOR_PER_DEPTH2 * depth².
    RAZOR_BASE: i32 = 94, 0..=400;
    /// Razoring margin per depth squared.
    RAZOR_PER_DEPTH2: i32 = 69, 10..=200;

    /// Reverse futility pruning below this depth ...
    RFP_DEPTH: i32 = 9, 4..=14;
    /// ... with this margin per ply, a ply less when the eval is improving (step 8,
    /// KaggleFish's forms as one bundle, +110 Elo).
    RFP_MARGIN: i32 = 84, 30..=150;

    /// Null move when the static eval is at least beta - NMP_MARGIN_PER_DEPTH * depth -
    /// NMP_MARGIN_IMPROVING (when improving) + NMP_MARGIN_PV (once on the PV) + NMP_MARGIN.
    NMP_MARGIN: i32 = 88, 0..=300;
    /// Null-move margin per ply of depth.
    NMP_MARGIN_PER_DEPTH: i32 = 7, 0..=30;
    /// Null-move margin given up when improving.
    NMP_MARGIN_IMPROVING: i32 = 16, 0..=100;
    /// Null-move margin added at a node once on the PV.
    NMP_MARGIN_PV: i32 = 70, 0..=200;
    /// Null-move reduction in 256ths of a ply: NMP_BASE_REDUCTION + NMP_DEPTH_REDUCTION * depth ...
    NMP_BASE_REDUCTION: i32 = 1200, 500..=2000;
    /// ... (per ply of depth) ...
    NMP_DEPTH_REDUCTION: i32 = 77, 20..=150;
    /// ... plus a ply per NMP_EVAL_DIVISOR cp of eval above beta, at most NMP_EVAL_MAX.
    NMP_EVAL_DIVISOR: i32 = 72, 30..=300;
    /// Most plies the eval's margin adds to the null-move reduction.
    NMP_EVAL_MAX: i32 = 3, 0..=6;

    /// ProbCut from this depth ...
    PROBCUT_DEPTH: i32 = 3, 2..=8;
    /// ... at beta + PROBCUT_MARGIN, less PROBCUT_IMPROVING when improving.
    PROBCUT_MARGIN: i32 = 61, 20..=200;
    /// ProbCut margin given up when improving.
    PROBCUT_IMPROVING: i32 = 25, 0..=100;

    /// Internal iterative reduction without a TT move: 2 plies at PV nodes from this depth ...
    IIR_PV_DEPTH: i32 = 6, 2..=12;
    /// ... and a ply at cut nodes from this depth.
    IIR_CUT_DEPTH: i32 = 9, 2..=14;

    /// Continuation-history pruning of quiets below this LMR depth ...
    CONT_PRUNE_DEPTH: i32 = 5, 0..=8;
    /// ... when their continuation histories sum below BASE - PER_DEPTH * depth.
    CONT_PRUNE_BASE: i32 = 3905, 0..=10000;
    /// Continuation-history pruning per ply.
    CONT_PRUNE_PER_DEPTH: i32 = 3066, 0..=10000;
    /// Futility pruning spares a quiet whose continuation histories sum to this.
    FUTILITY_HISTORY_LIMIT: i32 = 27488, 0..=60000;
    /// Futility pruning of quiets: deepest LMR depth, base margin, margin per depth.
    FUTILITY_DEPTH: i32 = 6, 3..=12;
    /// Futility base margin.
    FUTILITY_BASE: i32 = 41, 0..=250;
    /// Futility margin per ply.
    FUTILITY_PER_DEPTH: i32 = 36, 20..=200;
    /// SEE pruning thresholds: quiets (this × (29 − min(d, 18)) × d² / 26 at LMR depth d)
    /// and noisy moves and checks (per ply of depth).
    SEE_QUIET_MARGIN: i32 = -10, -100..=0;
    /// SEE pruning of captures per ply.
    SEE_NOISY_MARGIN: i32 = -90, -200..=-10;

    /// Late-move reductions from this depth ...
    LMR_DEPTH: i32 = 2, 2..=5;
    /// Extra late-move reduction of a quiet at an expected cut node.
    LMR_CUT_NODE: i32 = 2, 0..=3;
    /// ... with reduction = BASE + ln(depth) * ln(move number) / DIVISOR (both in hundredths).
    LMR_BASE: i32 = 71, 0..=200;
    /// LMR divisor in hundredths.
    LMR_DIVISOR: i32 = 226, 100..=400;
    /// History score worth one ply of reduction.
    LMR_HISTORY_DIVISOR: i32 = 15893, 2000..=40000;
    /// The history a quiet needs before its reduction shrinks (KaggleFish's 4741).
    LMR_HISTORY_OFFSET: i32 = 4741, 0..=10000;

    /// Singular extensions from this depth ...
    SE_DEPTH: i32 = 5, 4..=12;
    /// ... when the other moves stay below the TT score minus this × (4 + 1 at a node once
    /// on the PV) × depth / 32 ...
    SE_MARGIN: i32 = 8, 2..=32;
    /// ... by two plies when they stay below that by this much more ...
    SE_DOUBLE_MARGIN: i32 = 8, 0..=80;
    /// ... at most this many times on one line.
    SE_MAX_DOUBLE: i32 = 6, 0..=12;

    /// Quiescence delta pruning margin.
    DELTA_MARGIN: i32 = 110, 50..=400;
    /// Quiescence out of check: captures after this many moves that do not check skipped.
    QS_MOVE_LIMIT: i32 = 2, 1..=64;
    /// Quiescence: when the stand pat plus the delta margin is below alpha, a capture must
    /// win this much by SEE (0: off).
    QS_SEE_FUTILITY: i32 = 31, 0..=200;
    /// Lead: a quiet TT move searched in quiescence (0: off).
    QS_TT_QUIET: i32 = 0, 0..=1;
    /// Lead: once a score is held, a move losing more than this by SEE skipped (0: off).
    QS_SEE_FLOOR: i32 = 0, 0..=300;
    /// Lead: once a score is held, a quiet move with negative continuation history one and two plies back skipped.
    QS_CONT_PRUNE: i32 = 0, 0..=1;
    /// Lead: from this quiescence ply on only recaptures (0: off).
    QS_RECAPTURE_PLY: i32 = 0, 0..=10;
    /// Lead: quiescence writes its move into the ply stack (0: off).
    QS_STACK: i32 = 0, 0..=1;
    /// Negative extension of a TT move that is not singular but whose bound reaches beta.
    SE_NEGATIVE: i32 = 3, 0..=3;

    // Steps from the Stockfish family (f652d8c), screened in docs/search.md; the ones
    // that did not prove themselves were deleted (git keeps them).

    /// Quiet order: a minor, rook or queen leaving a square a lesser piece attacks gains
    /// this once, twice or three times; stepping onto one loses as much.
    THREAT_ORDER: i32 = 5000, 0..=16000;

    /// Largest history value (gravity keeps entries inside ±this).
    HISTORY_MAX: i32 = 16384, 4096..=32000;
    /// History bonus: min(SCALE d² + LINEAR d − OFFSET, MAX_BONUS), KaggleFish's form.
    HISTORY_BONUS_SCALE: i32 = 6, 1..=256;
    /// Cap of one history update.
    HISTORY_MAX_BONUS: i32 = 9000, 800..=12000;
    /// History bonus: this much more per ply of depth ...
    HISTORY_BONUS_LINEAR: i32 = 345, 0..=1000;
    /// ... less this.
    HISTORY_BONUS_OFFSET: i32 = 184, 0..=1000;
    /// Continuation history: the entry after the move one ply back counts this many times.
    CONTINUATION_1_WEIGHT: i32 = 2, 1..=4;


    /// Time management: moves the remaining time is spread over when no moves-to-go is given.
    /// (25 spent the whole 10 s bank of a 10+0.1 game in its first 20 moves.)
    TIME_MOVES_LEFT: u64 = 40, 15..=80;
    /// Share of the increment added to the per-move target, in percent.
    TIME_INCREMENT_PERCENT: u64 = 75, 30..=100;
    /// Hard limit as a multiple of the soft target ...
    TIME_HARD_FACTOR: u64 = 3, 2..=6;
    /// ... but never more than this percentage of the remaining time.
    TIME_MAX_PERCENT: u64 = 20, 8..=40;
    /// At `ponderhit`, the share of the time already spent pondering that counts as spent on
    /// this move, in percent (0: the move gets its whole budget after the hit; 100: the
    /// ponder search's time counts in full, as Stockfish counts it). 100 never proved a
    /// gain in the harness, so 0 (docs/time.md).
    TIME_PONDER_CREDIT_PERCENT: u64 = 0, 0..=100;
}

/// Nodes between clock and input checks.
pub const CHECK_EVERY_NODES: u64 = 1024;

#[cfg(all(test, feature = "tune"))]
mod tests {
    use super::*;

    #[test]
    fn tunables_start_at_their_constants_and_keep_to_their_ranges() {
        assert!(tune::ALL.iter().all(|t| t.get() == t.default && t.min <= t.default && t.default <= t.max));
        assert_eq!(tune::RFP_MARGIN.default, RFP_MARGIN);
        assert!(tune::FUTILITY_BASE.set(120));
        assert_eq!(tp!(FUTILITY_BASE), 120);
        assert!(!tune::FUTILITY_BASE.set(tune::FUTILITY_BASE.max + 1));
        assert_eq!(tp!(FUTILITY_BASE), 120);
        let moves_left: u64 = tp!(TIME_MOVES_LEFT); // typed as the constant
        assert_eq!(moves_left, TIME_MOVES_LEFT);
        assert!(tune::FUTILITY_BASE.set(FUTILITY_BASE));
    }
}
