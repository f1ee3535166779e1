//! Alpha-beta search: iterative deepening with aspiration windows around a principal
//! variation search, a quiescence search at the horizon, and the usual pruning.
//!
//! The search never prints. It talks to the front end through [`SearchHost`]: it asks for
//! the time, polls for `stop`/`ponderhit`/`quit` every [`CHECK_EVERY_NODES`] nodes, and
//! hands over a [`Report`] after each iteration (and each aspiration failure).
//!
//! Each step says why it is there. Where a self-play match at a time control (2+0.05, or the
//! Kaggle clock 10+0.1) measured it against the build without it, a short tag quotes that
//! match's Elo, rounded: "(+N Elo)" for the step alone, "(bundle, +N Elo)" for the five pieces
//! measured only together (steps 0, 12a, 15a, 16a and the continuation histories of step 11),
//! "(KaggleFish's forms as one bundle, +N Elo)" for the eight steps that came in together
//! (617e847): one match for all eight, not eight gains; "(with X, +N Elo)" for two measured as
//! a pair; outside this file a tag names its step first,
//! "(step 12, +N Elo)". Fixed-node screens are never quoted: their gains came back at the clock
//! a third as large or less. "WAC n → m" is Win-At-Chess solved at a fixed 400,000 nodes a
//! position before and after (a deterministic tactical check, not an Elo figure). "Standard"
//! marks a step every strong engine has whose own worth here is not measured. The step table of
//! docs/search.md gives each step's match and its ledger row (docs/results.csv);
//! tests/python/test_elo_tags.py keeps the three in agreement.

use crate::board::Position;
use crate::eval_weights::PIECE_VALUE;
use crate::history::{Continuation, ContinuationHistory, Histories, history_bonus};
use crate::movegen::{is_legal, legal_move_list};
use crate::movepick::MovePicker;
#[cfg(feature = "nnue")]
use crate::nnue::Accumulator;
use crate::params::*;
use crate::rules::Rules;
#[cfg(feature = "stats")]
use crate::stats::Stats;
use crate::time::{Limits, TimeManager};
use crate::tt::{Bound, MATE_BOUND, Table};
use crate::types::{Move, MoveFlag, PieceType};

pub use crate::score::{DRAW, INFINITY, MATE, MAX_PLY};

/// `stats!(STATEMENT)`: a statement of the tree statistics (engine/src/stats.rs), compiled
/// only with the `stats` feature; without it, nothing (its expressions are not evaluated).
macro_rules! stats {
    ($($statement:tt)*) => {
        #[cfg(feature = "stats")]
        {
            $($statement)*;
        }
    };
}

/// Most positions of game history the search keeps for repetition detection.
pub const MAX_HISTORY: usize = 1024;

/// What the front end answers when polled during a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Poll {
    /// Keep searching.
    Continue,
    /// `stop`: finish now and report the best move.
    Stop,
    /// `ponderhit`: the predicted move was played; switch to normal time management.
    PonderHit,
    /// `quit`: stop now; the engine exits after answering.
    Quit,
}

/// One line of search progress.
#[derive(Clone, Copy, Debug)]
pub struct Report<'a> {
    /// Iteration depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// Score from the side to move's view.
    pub score: i32,
    /// `Bound::Exact`, or `Lower`/`Upper` after an aspiration failure.
    pub bound: Bound,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Permille of the hash table in use.
    pub hashfull: u32,
    /// Principal variation.
    pub pv: &'a [Move],
    /// Which line this is, from 1 (`MultiPV`, the `analysis` feature).
    #[cfg(feature = "analysis")]
    pub multipv: usize,
}

/// What the search needs from its surroundings.
pub trait SearchHost {
    /// Milliseconds on a monotonic clock.
    fn now_ms(&mut self) -> u64;
    /// Checks for input without blocking.
    fn poll(&mut self) -> Poll;
    /// Blocks until input arrives (used when a ponder or infinite search ends early).
    fn wait(&mut self) -> Poll;
    /// Receives progress.
    fn report(&mut self, report: &Report);
}

/// The outcome of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// Move to play ([`Move::NONE`] if there is no legal move).
    pub best: Move,
    /// Expected reply, for pondering ([`Move::NONE`] if unknown).
    pub ponder: Move,
    /// Score of the last completed iteration.
    pub score: i32,
    /// Last completed depth.
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// True if `quit` arrived during the search.
    pub quit: bool,
}

/// Most lines a `MultiPV` search shows (more than any position has legal moves).
#[cfg(feature = "analysis")]
pub const MAX_MULTIPV: usize = 256;

/// One line of a multi-PV search: its score and principal variation at its last completed
/// depth.
#[cfg(feature = "analysis")]
#[derive(Clone, Copy)]
struct Line {
    depth: i32,
    score: i32,
    len: usize,
    pv: [Move; MAX_PLY + 1],
}

/// What an analysis user may ask of a search beyond its [`Limits`] (the `analysis` feature,
/// not in the competition build): several lines, some root moves only, a mate. The front end
/// sets `mate` and the root moves before each `go`; `multipv` is an option and stays.
#[cfg(feature = "analysis")]
pub struct Analysis {
    /// `MultiPV`: the best lines searched and shown, each its own root move (0 reads as 1).
    pub multipv: usize,
    /// `go mate N`: stop once a mate in at most N moves is proven (0: no such limit).
    pub mate: i32,
    /// `go searchmoves`: only these root moves are searched (all when there are none).
    pub root_moves: arrayvec::ArrayVec<Move, MAX_MULTIPV>,
    /// The lines so far, best first after each depth.
    lines: [Line; MAX_MULTIPV],
    /// The line being searched: the first moves of the lines before it are left out.
    line: usize,
    /// The node count of the last report, so that a search stopped after it reports again.
    reported_nodes: u64,
}

#[cfg(feature = "analysis")]
impl Analysis {
    /// Forgets what the last `go` asked (its mate and root moves); `multipv` stays.
    pub fn new_go(&mut self) {
        self.mate = 0;
        self.root_moves.clear();
    }

    /// Whether `score` proves the mate `go mate N` asks for: a mate in N moves (2N − 1
    /// plies) or sooner.
    fn mate_proven(&self, score: i32) -> bool {
        self.mate > 0 && score >= MATE - (2 * self.mate - 1)
    }

    /// Whether the root move `m` is searched in the current line.
    fn allows(&self, m: Move) -> bool {
        (self.root_moves.is_empty() || self.root_moves.contains(&m))
            && !self.lines[..self.line].iter().any(|l| l.pv[0] == m)
    }
}

#[derive(Clone, Copy, Default)]
struct PlyState {
    static_eval: i32,
    /// Move played from this ply (NONE for a null move or none yet).
    mv: Move,
    /// Piece index (0..12) that made that move.
    piece: usize,
    /// The move a singular-extension search at this ply leaves out (NONE otherwise).
    excluded: Move,
    /// Double extensions on the line to this ply.
    double_extensions: i32,
    /// On the principal variation now or when the TT entry was stored, as the node ended.
    tt_pv: bool,
    /// The history of the last quiet late-move reduction weighed here (0 at first).
    stat_score: i32,
}

/// The search with its persistent tables.
pub struct Searcher {
    /// The transposition table.
    pub tt: Table,
    /// Move-ordering history.
    pub histories: Histories,
    /// The draw rules searched under (FIDE unless the front end says otherwise).
    pub rules: Rules,
    /// The tree statistics of the last search (the `stats` feature).
    #[cfg(feature = "stats")]
    pub stats: Stats,
    /// Lines, root moves and mates asked for (the `analysis` feature).
    #[cfg(feature = "analysis")]
    pub analysis: Analysis,
    /// When `go` came: `info` times count from it, also after `ponderhit` (the `analysis`
    /// feature; the competition build counts from the hit, which no one reads there).
    #[cfg(feature = "analysis")]
    go_ms: u64,
    nodes: u64,
    seldepth: usize,
    /// The root's best move held through the last iteration, past depth 10 (step 13).
    stable_root: bool,
    /// Running average of TT hits, in 1/65,536 (step 13).
    tt_hit_avg: u32,
    stopped: bool,
    quit: bool,
    pondering: bool,
    limits: Limits,
    overhead: u64,
    time: TimeManager,
    start_ms: u64,
    pv: [[Move; MAX_PLY + 1]; MAX_PLY + 1],
    pv_len: [usize; MAX_PLY + 1],
    /// The principal variation of the last completed iteration, shown on a fail-low (when
    /// the root has no move above alpha and so no line of its own yet).
    root_pv: [Move; MAX_PLY + 1],
    root_pv_len: usize,
    stack: [PlyState; MAX_PLY + 2],
    keys: [u64; MAX_HISTORY + MAX_PLY + 2],
    /// Index in `keys` of the root position.
    root_index: usize,
    root_nodes: [u64; 4096],
    /// Late-move reductions by depth and move number (`lmr_plies` with `LMR_BASE` and
    /// `LMR_DIVISOR`), filled by `new`: a loop is smaller in the archive than the 4 KiB
    /// table as static data.
    lmr: [[u8; 64]; 64],
    /// The network's accumulators of the position at each ply of the current line.
    #[cfg(feature = "nnue")]
    acc: [Accumulator; MAX_PLY + 2],
}

/// ln(x) in hundredths for x >= 1 (log2 by leading zeros and a linear fraction).
const fn ln_hundredths(x: u32) -> i32 {
    let k = 31 - x.leading_zeros();
    let base = 1u32 << k;
    let log2_x100 = k as i32 * 100 + ((x - base) * 100 / base) as i32;
    log2_x100 * 69 / 100
}

/// Late-move reduction at `depth` for the `moves`-th move: `(base + ln(depth) * ln(moves) /
/// divisor) / 100` plies (clamped to 0..=63) times 2, plus 1 when `ln(depth) * ln(moves) /
/// divisor` passes LMR_IMPROVING_FROM hundredths (a node not improving is then reduced a
/// ply more, KaggleFish's form).
const fn lmr_plies(depth: u32, moves: u32, base: i32, divisor: i32) -> u8 {
    let raw = ln_hundredths(depth) * ln_hundredths(moves) / divisor;
    let plies = (base + raw) / 100;
    let plies = if plies < 0 {
        0
    } else if plies > 63 {
        63
    } else {
        plies as u8
    };
    plies * 2 + (raw > LMR_IMPROVING_FROM) as u8
}

/// The late-move reduction of the `moves`-th move at `depth`, from `table` (computed from
/// the current `LMR_BASE` and `LMR_DIVISOR` in `tune` builds).
#[inline(always)]
fn lmr(table: &[[u8; 64]; 64], depth: i32, moves: usize, improving: bool) -> i32 {
    let (d, m) = (depth.clamp(1, 63) as usize, moves.clamp(1, 63));
    #[cfg(feature = "tune")]
    let t = {
        let _ = table;
        lmr_plies(d as u32, m as u32, tp!(LMR_BASE), tp!(LMR_DIVISOR))
    };
    #[cfg(not(feature = "tune"))]
    let t = table[d][m];
    (t >> 1) as i32 + (t & 1 & !improving as u8) as i32
}

impl Searcher {
    /// A searcher over a transposition table and continuation-history storage.
    #[inline(never)]
    pub fn new(tt: Table, continuation: &'static mut ContinuationHistory) -> Searcher {
        // Zeroed memory and then the fields for which zero is not the value wanted (or not
        // a valid one): one memset instead of code that stores every table's zeros.
        let mut fresh = core::mem::MaybeUninit::<Searcher>::zeroed();
        let p = fresh.as_mut_ptr();
        // SAFETY: `p` points to a zeroed, properly aligned Searcher. The fields written here
        // are all those whose type is or holds a reference (the TT, the continuation
        // histories' storage), an enum or an `Option` (a zeroed reference is invalid; enum
        // and `Option` layouts are not guaranteed). Every other field is an integer, a bool,
        // or an array or struct of them (`Move` is a `u16`, `PlyState`, `Accumulator` and
        // `Stats` hold integers, and so do the other tables of `Histories`; the `analysis`
        // feature's `Analysis` holds integers, moves and an `ArrayVec` of moves, whose length
        // is an integer and whose items are `MaybeUninit`), for which all-zero bytes are valid
        // and are the values a fresh searcher starts from (`Move::NONE` is 0, as
        // `Histories::new` has it; a `MultiPV` of 0 reads as 1). So the value is fully initialised when
        // `assume_init` runs. (Writing a whole `Histories::new` here built its 38 KB on the
        // stack with unrolled stores: 1.1 KB of code.)
        unsafe {
            (&raw mut (*p).tt).write(tt);
            *continuation = ContinuationHistory::EMPTY;
            (&raw mut (*p).histories.continuation).write(continuation);
            (&raw mut (*p).rules).write(Rules::Fide);
            (&raw mut (*p).limits).write(Limits::default());
            (&raw mut (*p).time).write(TimeManager::new(&Limits::default(), 0));
            // Index loops: smaller code than iterators over the rows.
            #[allow(clippy::needless_range_loop)]
            for d in 1..64 {
                for m in 1..64 {
                    (*p).lmr[d][m] = lmr_plies(d as u32, m as u32, tp!(LMR_BASE), tp!(LMR_DIVISOR));
                }
            }
            fresh.assume_init()
        }
    }

    /// Forgets everything learnt (`ucinewgame`).
    #[inline(never)]
    pub fn clear(&mut self) {
        self.tt.clear();
        self.histories.clear();
        self.tt_hit_avg = 0;
    }

    /// Searches `pos`, whose game so far had the positions with repetition keys `history`
    /// (oldest first, as [`Rules::repetition_key`] gives them, the root's own not included).
    pub fn search(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: Limits,
        overhead: u64,
        host: &mut dyn SearchHost,
    ) -> SearchResult {
        self.start_ms = host.now_ms();
        #[cfg(feature = "analysis")]
        {
            self.go_ms = self.start_ms;
            self.analysis.line = 0;
            self.analysis.reported_nodes = 0;
        }
        self.limits = limits;
        self.overhead = overhead;
        self.pondering = limits.ponder;
        self.time = TimeManager::new(&limits, overhead);
        self.nodes = 0;
        self.seldepth = 0;
        self.stable_root = false;
        self.root_pv_len = 0;
        self.stopped = false;
        self.quit = false;
        self.tt.new_search();
        self.histories.clear_killers();
        // A fresh ply stack, as a fresh searcher has: the last quiet's reduction statistic
        // at the root and the ply below is read before this search sets it.
        self.stack = [PlyState::default(); MAX_PLY + 2];
        stats!(self.stats = Stats::default());
        let history = &history[history.len().saturating_sub(MAX_HISTORY)..];
        self.keys[..history.len()].copy_from_slice(history);
        self.root_index = history.len();
        self.keys[self.root_index] = self.rules.repetition_key(pos, history.is_empty());

        #[cfg(feature = "nnue")]
        {
            self.acc[0] = Accumulator::new(pos);
        }
        let root_moves = legal_move_list(pos);
        #[cfg(feature = "analysis")]
        let root_moves: crate::movegen::MoveList =
            root_moves.into_iter().filter(|&m| self.analysis.allows(m)).collect();
        // The lines searched: one, or as many as `MultiPV` asks and the root has moves.
        #[cfg(feature = "analysis")]
        let lines = self.analysis.multipv.clamp(1, root_moves.len().max(1));
        #[cfg(feature = "analysis")]
        for l in &mut self.analysis.lines[..lines] {
            (l.depth, l.score) = (0, 0);
        }
        #[cfg(not(feature = "analysis"))]
        let lines = 1;
        let mut result = SearchResult {
            best: root_moves.first().copied().unwrap_or(Move::NONE),
            ponder: Move::NONE,
            score: 0,
            depth: 0,
            nodes: 0,
            quit: false,
        };
        if root_moves.is_empty() {
            // Mated or stalemated: the score, as analysis users expect one.
            #[cfg(feature = "analysis")]
            {
                let score = if pos.in_check() { -MATE } else { DRAW };
                self.pv_len[0] = 0;
                self.root_pv_len = 0;
                self.report(host, 0, score, Bound::Exact);
            }
            self.finish(host);
            result.quit = self.quit;
            return result;
        }
        if root_moves.len() == 1 && self.time.timed {
            // Nothing to choose: one quick iteration for a score and a ponder move.
            self.time.soft = 0;
        }

        let max_depth = limits.depth.unwrap_or(MAX_PLY as i32 - 1).clamp(1, MAX_PLY as i32 - 1);
        let mut score = 0;
        let mut stability = 0;
        'deepening: for depth in 1..=max_depth {
            self.root_nodes.fill(0);
            let previous_best = result.best;
            let previous_score = score;
            for line in 0..lines {
                #[cfg(feature = "analysis")]
                {
                    // Each line's own last result: its fail-low line, its window's centre.
                    let last = self.analysis.lines[line];
                    self.analysis.line = line;
                    self.root_pv = last.pv;
                    self.root_pv_len = if last.depth > 0 { last.len } else { 0 };
                    if line > 0 {
                        score = last.score;
                    }
                }
                // Aspiration windows: search a narrow window around the last score, which cuts
                // more; on failure widen the failing side, delta growing by a quarter and 2 cp,
                // and search the iteration again (a ply shallower after each fail high).
                let mut delta = tp!(ASPIRATION_DELTA);
                let (mut alpha, mut beta) = if depth >= tp!(ASPIRATION_MIN_DEPTH) {
                    ((score - delta).max(-INFINITY), (score + delta).min(INFINITY))
                } else {
                    (-INFINITY, INFINITY)
                };
                stats!(self.stats.asp_iters += u64::from(alpha > -INFINITY || beta < INFINITY));
                let mut failed_high = 0;
                let iteration_score = loop {
                    let s = self.negamax(pos, (depth - failed_high).max(1), alpha, beta, 0, false, host);
                    debug_assert!(s > -INFINITY && s < INFINITY, "root score {s} out of range");
                    if self.stopped {
                        break None;
                    }
                    stats!(self.stats.asp_fails += u64::from(s <= alpha || s >= beta));
                    if s <= alpha {
                        // Fail low: lower alpha, and pull beta towards it.
                        beta = (alpha + beta) / 2;
                        alpha = (s - delta).max(-INFINITY);
                        failed_high = 0;
                        self.report(host, depth, s, Bound::Upper);
                    } else if s >= beta {
                        // A root move that failed high is played if the limit comes before
                        // its re-search ends, as the family plays it (the re-search starts
                        // with an empty PV, where step 0 would not see it).
                        if line == 0 {
                            self.play_root_pv(&mut result);
                        }
                        beta = (s + delta).min(INFINITY);
                        failed_high += 1;
                        self.report(host, depth, s, Bound::Lower);
                    } else {
                        break Some(s);
                    }
                    delta += delta / 4 + 2;
                    if delta > tp!(ASPIRATION_MAX_DELTA) {
                        alpha = -INFINITY;
                        beta = INFINITY;
                    }
                };
                let Some(s) = iteration_score else {
                    // Step 0. An iteration cut short by the clock: a root move that beat the
                    // previous best in it (searched to the end, so above alpha) is played
                    // (bundle, +58 Elo).
                    if line == 0 {
                        self.play_root_pv(&mut result);
                    }
                    break 'deepening;
                };
                #[cfg(feature = "analysis")]
                {
                    let l = &mut self.analysis.lines[line];
                    (l.depth, l.score, l.len, l.pv) = (depth, s, self.pv_len[0], self.pv[0]);
                }
                if line > 0 {
                    continue;
                }
                score = s;
                self.root_pv = self.pv[0];
                self.root_pv_len = self.pv_len[0];
                result.best = self.pv[0][0];
                result.ponder = if self.pv_len[0] > 1 { self.pv[0][1] } else { Move::NONE };
                result.score = s;
                result.depth = depth;
                #[cfg(not(feature = "analysis"))]
                self.report(host, depth, s, Bound::Exact);
            }
            #[cfg(feature = "analysis")]
            {
                // The lines best first (a later line can come out above an earlier one), each
                // shown; the first is the move played.
                self.sort_lines(lines, &mut result);
                score = result.score;
                self.report_lines(host, lines);
            }
            let s = score;

            stability = if result.best == previous_best { stability + 1 } else { 0 };
            self.stable_root = depth > 10 && stability >= 1;
            if self.time.timed {
                let best_nodes = self.root_nodes[(result.best.raw() & 4095) as usize];
                let share = if self.nodes == 0 { 0 } else { best_nodes * 100 / self.nodes.max(1) };
                if depth > 4 {
                    self.time.update(stability, previous_score - s, share);
                }
                if !self.pondering && self.elapsed(host) >= self.time.soft {
                    break;
                }
            }
            if s.abs() >= MATE_BOUND && depth > 8 && self.time.timed && !self.pondering {
                // A mate found and confirmed: no need to look further.
                break;
            }
            // `go mate N`: the mate is proven.
            #[cfg(feature = "analysis")]
            if self.analysis.mate_proven(s) {
                break;
            }
        }
        #[cfg(feature = "analysis")]
        {
            // The last lines again with the search's own total, when it went on after them
            // (a node limit or `stop`); `go mate` without a mate and no other limit waits
            // for `stop`, as `infinite` does.
            if self.nodes != self.analysis.reported_nodes && result.depth > 0 {
                if lines > 1 {
                    self.sort_lines(lines, &mut result);
                }
                self.report_lines(host, lines);
            }
            if self.analysis.mate > 0
                && !self.analysis.mate_proven(result.score)
                && limits.depth.is_none()
                && limits.nodes.is_none()
                && !self.time.timed
            {
                self.limits.infinite = true;
            }
        }
        // A move played without a second one (step 0's, cut short in its re-search, or a
        // line that ended at the child): the table's move after it, if legal there, is the
        // one to ponder on, so that a ponderhit can still come.
        if result.ponder == Move::NONE && result.best != Move::NONE {
            let child = pos.after(result.best);
            if let Some(h) = self.tt.probe(child.key(), 1)
                && is_legal(&child, h.mv)
            {
                result.ponder = h.mv;
            }
        }
        self.finish(host);
        stats!(self.stats.nodes = self.nodes);
        result.nodes = self.nodes;
        result.quit = self.quit;
        result
    }

    /// A ponder or infinite search must not answer before `stop` or `ponderhit`. Not
    /// inlined: `search` calls it from two places.
    #[inline(never)]
    fn finish(&mut self, host: &mut dyn SearchHost) {
        while (self.pondering || self.limits.infinite) && !self.stopped {
            match host.wait() {
                Poll::Continue => {}
                Poll::PonderHit => self.pondering = false,
                Poll::Stop => self.stopped = true,
                Poll::Quit => {
                    self.stopped = true;
                    self.quit = true;
                }
            }
        }
    }

    fn elapsed(&mut self, host: &mut dyn SearchHost) -> u64 {
        host.now_ms().saturating_sub(self.start_ms)
    }

    /// The `time` of an `info` line: since `go` in the `analysis` build, also after
    /// `ponderhit`; since the hit in the competition build.
    fn info_ms(&mut self, host: &mut dyn SearchHost) -> u64 {
        #[cfg(feature = "analysis")]
        return host.now_ms().saturating_sub(self.go_ms);
        #[cfg(not(feature = "analysis"))]
        self.elapsed(host)
    }

    fn report(&mut self, host: &mut dyn SearchHost, depth: i32, score: i32, bound: Bound) {
        let time_ms = self.info_ms(host);
        let hashfull = self.tt.hashfull();
        host.report(&Report {
            depth,
            seldepth: self.seldepth,
            score,
            bound,
            nodes: self.nodes,
            time_ms,
            hashfull,
            pv: if self.pv_len[0] > 0 {
                &self.pv[0][..self.pv_len[0]]
            } else {
                &self.root_pv[..self.root_pv_len]
            },
            #[cfg(feature = "analysis")]
            multipv: self.analysis.line + 1,
        });
        #[cfg(feature = "analysis")]
        {
            self.analysis.reported_nodes = self.nodes;
        }
    }

    /// Puts the first `lines` lines best first (stably: of equal scores the earlier stays
    /// first) and makes the first the search's result.
    #[cfg(feature = "analysis")]
    fn sort_lines(&mut self, lines: usize, result: &mut SearchResult) {
        let lines = &mut self.analysis.lines[..lines];
        for i in 1..lines.len() {
            let mut j = i;
            while j > 0 && lines[j].score > lines[j - 1].score {
                lines.swap(j, j - 1);
                j -= 1;
            }
        }
        let best = lines[0];
        (result.best, result.score) = (best.pv[0], best.score);
        result.ponder = if best.len > 1 { best.pv[1] } else { Move::NONE };
    }

    /// Reports each of the first `lines` lines that has a result, as `multipv` 1, 2, …
    #[cfg(feature = "analysis")]
    fn report_lines(&mut self, host: &mut dyn SearchHost, lines: usize) {
        let time_ms = self.info_ms(host);
        let hashfull = self.tt.hashfull();
        for (i, l) in self.analysis.lines[..lines].iter().enumerate().filter(|(_, l)| l.depth > 0) {
            host.report(&Report {
                depth: l.depth,
                seldepth: self.seldepth,
                score: l.score,
                bound: Bound::Exact,
                nodes: self.nodes,
                time_ms,
                hashfull,
                pv: &l.pv[..l.len],
                multipv: i + 1,
            });
        }
        self.analysis.reported_nodes = self.nodes;
    }

    /// Makes the root's current PV, if it has one, the move to play and the one to ponder
    /// on (step 0).
    fn play_root_pv(&self, result: &mut SearchResult) {
        if self.pv_len[0] > 0 {
            result.best = self.pv[0][0];
            result.ponder = if self.pv_len[0] > 1 { self.pv[0][1] } else { Move::NONE };
        }
    }

    /// Polls input and the clock (every [`CHECK_EVERY_NODES`] nodes); sets `stopped` when
    /// the search must end. Out of line: one copy instead of one in each search function
    /// (−148 B).
    #[inline(never)]
    fn check_limits(&mut self, host: &mut dyn SearchHost) {
        if self.stopped {
            return;
        }
        match host.poll() {
            Poll::Continue => {}
            Poll::Stop => self.stopped = true,
            Poll::Quit => {
                self.stopped = true;
                self.quit = true;
            }
            Poll::PonderHit => {
                // Our clock starts now: the time so far was the opponent's. A share of it
                // may count as spent on this move (`TIME_PONDER_CREDIT_PERCENT`): the
                // deadlines then come sooner, never later.
                let now = host.now_ms();
                let pondered = now.saturating_sub(self.start_ms);
                self.pondering = false;
                self.limits.ponder = false;
                self.start_ms = now - pondered * tp!(TIME_PONDER_CREDIT_PERCENT) / 100;
                self.time = TimeManager::new(&self.limits, self.overhead);
            }
        }
        if !self.pondering && self.time.timed && self.elapsed(host) >= self.time.hard {
            self.stopped = true;
        }
    }

    /// Static evaluation of `pos`, the position at `ply` of the current line: the network
    /// with the `nnue` feature, else the hand-crafted evaluation (one of them is compiled).
    #[inline]
    fn evaluate(&self, pos: &Position, ply: usize) -> i32 {
        #[cfg(feature = "nnue")]
        return self.acc[ply].evaluate(pos);
        #[cfg(not(feature = "nnue"))]
        {
            let _ = ply;
            crate::eval::evaluate(pos)
        }
    }

    /// The network's accumulators at `ply + 1` after `m` at `ply` (`None`: a null move).
    #[inline(always)]
    fn update_eval(&mut self, ply: usize, pos: &Position, m: Option<Move>) {
        #[cfg(feature = "nnue")]
        {
            let (done, next) = self.acc.split_at_mut(ply + 1);
            match m {
                Some(m) => done[ply].after(pos, m, &mut next[0]),
                None => next[0] = done[ply],
            }
        }
        #[cfg(not(feature = "nnue"))]
        let _ = (ply, pos, m);
    }

    /// The move `back` plies before `ply` as moved piece × 64 + destination, the one index
    /// of every table kept by an earlier move (counter-move, continuation and correction
    /// histories); none for a null move or before the root.
    #[inline(always)]
    fn move_before(&self, ply: usize, back: usize) -> Option<usize> {
        let p = self.stack[ply.checked_sub(back)?];
        (p.mv != Move::NONE).then(|| p.piece * 64 + p.mv.to().index())
    }

    /// The move just before `ply` ([`Self::move_before`]): the counter-move's and the
    /// correction history's slot.
    #[inline(always)]
    fn counter_slot(&self, ply: usize) -> Option<usize> {
        self.move_before(ply, 1)
    }

    /// Checks the limits on entering a node at `ply`; false if the search must stop. Nodes
    /// are counted where a move is made ([`Self::child`]), not here: one node per
    /// move made, null moves not, as Stockfish and its family count them, so that `go
    /// nodes N` is the same work for minnow and for them (counting every entry, as minnow
    /// did before, gave 1.13 entries a move made on `bench`). A count reached twice (a
    /// re-search, a null move's child) may poll twice, but a stopped search never polls
    /// again (the nodes entered while it unwinds would each advance a test's virtual
    /// clock); the count 0 never polls, as before, so a search of a few hundred nodes
    /// reads no input.
    #[inline(always)]
    fn enter_node(&mut self, ply: usize, host: &mut dyn SearchHost) -> bool {
        if self.limits.nodes.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
        } else if (self.nodes + 1).is_multiple_of(CHECK_EVERY_NODES) {
            self.check_limits(host);
        }
        self.seldepth = self.seldepth.max(ply);
        !self.stopped
    }

    /// True if the position at `ply` repeats an earlier one: once inside the search (the
    /// side to move could repeat again) or twice counting the game before the root.
    fn is_repetition(&self, pos: &Position, ply: usize) -> bool {
        let current = self.root_index + ply;
        let key = self.keys[current];
        let limit = current.saturating_sub(pos.halfmove_clock() as usize);
        let mut seen = 0;
        let mut i = current;
        while i >= limit + 2 {
            i -= 2;
            if self.keys[i] == key {
                if i > self.root_index {
                    return true;
                }
                seen += 1;
                if seen >= 2 {
                    return true;
                }
            }
        }
        false
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let child_len = self.pv_len[ply + 1];
        head[ply][0] = m;
        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }

    /// The child of `pos` after `m` at `ply` (`None`: the null move) and its accumulators;
    /// the one place a node is counted: a move made, the null move not. Quiescence needs
    /// no more; the main search adds the rest in [`Self::make_move`].
    #[inline(always)]
    fn child(&mut self, pos: &Position, ply: usize, m: Option<Move>) -> Position {
        let child = match m {
            Some(m) => {
                self.nodes += 1;
                pos.after(m)
            }
            None => {
                let mut child = *pos;
                child.make_null();
                child
            }
        };
        self.update_eval(ply, pos, m);
        child
    }

    /// Plays `m` at `ply` of the current line (`None`: the null move): the child position
    /// and its accumulators ([`Self::child`]), the move in the ply stack (for the
    /// histories), the double extensions on the line (one more if `double`) and the child's
    /// repetition key.
    #[inline(always)]
    fn make_move(&mut self, pos: &Position, ply: usize, m: Option<Move>, double: bool) -> Position {
        let child = self.child(pos, ply, m);
        self.stack[ply].mv = m.unwrap_or(Move::NONE);
        self.stack[ply].piece = m.and_then(|m| pos.piece_on(m.from())).map_or(0, |p| p.index());
        self.stack[ply + 1].double_extensions = self.stack[ply].double_extensions + double as i32;
        self.keys[self.root_index + ply + 1] = self.rules.repetition_key(&child, false);
        child
    }

    #[allow(clippy::too_many_lines, clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &Position,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        cut_node: bool,
        host: &mut dyn SearchHost,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        let excluded = self.stack[ply].excluded;
        self.pv_len[ply] = 0;
        let in_check = pos.in_check();

        // Step 1. No check extension, as in KaggleFish: a node in check at the horizon goes
        // to quiescence, which searches every evasion.

        // Step 2. Quiescence search at the horizon.
        if depth <= 0 {
            return self.quiescence(pos, alpha, beta, ply, 0, host);
        }

        // Step 3. Limits: time, input and node count.
        if !self.enter_node(ply, host) {
            return 0;
        }

        if !root {
            // Step 4. Draws by the rules in force (FIDE or the harness's): repetition, fifty
            // moves, material. Checked before mate, as the harness does.
            if self.is_repetition(pos, ply) || self.rules.is_draw(pos, in_check) {
                return DRAW;
            }
            if ply >= MAX_PLY - 1 {
                return if in_check { DRAW } else { self.evaluate(pos, ply) };
            }
            // Step 5. Mate distance pruning (standard): no line can beat a mate already
            // found closer to the root.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        // The moves one, two and four plies back, for the continuation histories: a quiet's
        // history in reply to them orders it and sizes its reduction.
        let prev = Continuation(core::array::from_fn(|i| {
            self.move_before(ply, [1, 2, 4][i]).unwrap_or(Continuation::NONE)
        }));

        // Step 6. Transposition table: cut off at non-PV nodes with a deep enough bound,
        // and take its move to search first.
        let key = pos.key();
        let hit = self.tt.probe(key, ply);
        stats!(self.stats.probe(hit.is_some()));
        let tt_move = hit.map_or(Move::NONE, |h| h.mv);
        // On the principal variation now or when the entry was stored (step 13).
        let mut tt_pv = pv_node || hit.is_some_and(|h| h.pv);
        self.stack[ply].tt_pv = tt_pv;
        self.stack[ply + 1].tt_pv = false;
        if ply + 2 <= MAX_PLY {
            self.histories.killers[ply + 2] = [Move::NONE; 2];
            self.stack[ply + 2].stat_score = 0;
        }
        let likely_fail_low =
            pv_node && hit.is_some_and(|h| h.mv != Move::NONE && h.bound == Bound::Upper && h.depth >= depth);
        self.tt_hit_avg = self.tt_hit_avg - self.tt_hit_avg / 4096 + if hit.is_some() { 16 } else { 0 };
        if let Some(h) = hit
            && !pv_node
            && excluded == Move::NONE
            && h.depth > depth - (h.score <= beta) as i32
            && h.cuts_off(alpha, beta)
            && pos.halfmove_clock() < TT_CUT_MAX_HALFMOVES
        {
            stats!(self.stats.tt_cuts += 1);
            // A quiet TT move learns from the cutoff as if searched: a bonus when it holds
            // beta, a malus when the node fails low.
            if tt_move != Move::NONE && !tt_move.is_noisy() {
                let bonus = if h.score >= beta {
                    self.histories.add_killer(ply, tt_move);
                    history_bonus(depth)
                } else {
                    -history_bonus(depth)
                };
                self.histories.update_quiet(pos, prev, tt_move, bonus);
            }
            return h.score;
        }

        // Step 7. Static evaluation, corrected by the correction history (step 16a) and
        // sharpened by the TT score when its bound allows. The TT keeps the raw evaluation.
        // In check there is no static evaluation (-INFINITY); the TT keeps 0 for it, as a key
        // collision can hand the entry to a quiet position, whose stand pat must stay inside
        // every window (-INFINITY there made a search fail high at INFINITY for ever).
        let raw_eval = if in_check {
            0
        } else if let Some(h) = hit {
            h.eval
        } else {
            // The evaluation is kept at once, for a transposition and the TT's hit rate.
            let e = self.evaluate(pos, ply);
            self.tt.store(key, Move::NONE, 0, e, -6, Bound::None, tt_pv, ply);
            e
        };
        let corr_slots = Histories::correction_slots(pos, self.counter_slot(ply));
        let static_eval = if in_check { -INFINITY } else { self.histories.corrected(&corr_slots, raw_eval) };
        let mut eval = static_eval;
        if let Some(h) = hit
            && !in_check
            && h.bound as u8 & if h.score > eval { Bound::Lower as u8 } else { Bound::Upper as u8 } != 0
        {
            eval = h.score;
        }
        self.stack[ply].static_eval = static_eval;
        // Improving: better than two plies ago, or four when two plies ago was in check
        // (unknown near the root: assume so).
        let earlier = |back: usize| ply.checked_sub(back).map_or(-INFINITY, |p| self.stack[p].static_eval);
        let improving = !in_check
            && (ply < 2 || static_eval > earlier(2) || (earlier(2) == -INFINITY && static_eval > earlier(4)));
        let former_pv = tt_pv && !pv_node;

        // Steps 7a and 8 also in a singular-extension search.
        if !pv_node && !in_check {
            // Step 7a. Razoring: far below alpha, quiescence decides; not when alpha is a
            // mate score, which quiescence cannot prove (KaggleFish's forms as one bundle, +110 Elo).
            if eval < alpha - tp!(RAZOR_BASE) - tp!(RAZOR_PER_DEPTH2) * depth * depth && alpha < MATE_BOUND {
                return self.quiescence(pos, alpha - 1, alpha, ply, 0, host);
            }
            // Step 8. Reverse futility pruning: far above beta at low depth, a quiet move
            // will not drop it below; not when beta is a mated score (the eval cannot say
            // that no mate is coming: it hid mates in 2 behind a mate in 3) (KaggleFish's forms as one bundle, +110 Elo).
            if depth < tp!(RFP_DEPTH)
                && eval - tp!(RFP_MARGIN) * (depth - improving as i32) >= beta
                && eval < MATE_BOUND
                && beta > -MATE_BOUND
            {
                return beta + (eval - beta) / 2;
            }
        }
        if !pv_node && !in_check && excluded == Move::NONE {
            // Step 9. Null-move pruning (KaggleFish's conditions and reduction), not after
            // a reply the histories rate very well (KaggleFish's forms as one bundle, +110 Elo).
            if eval >= beta
                && eval >= static_eval
                && static_eval
                    >= beta - tp!(NMP_MARGIN_PER_DEPTH) * depth - tp!(NMP_MARGIN_IMPROVING) * improving as i32
                        + tp!(NMP_MARGIN_PV) * tt_pv as i32
                        + tp!(NMP_MARGIN)
                && self.counter_slot(ply).is_some()
                && self.stack[ply - 1].stat_score < NMP_MAX_PARENT_STAT
                && pos.has_non_pawn_material(pos.side_to_move())
                && beta > -MATE_BOUND
            {
                let r = (tp!(NMP_BASE_REDUCTION) + tp!(NMP_DEPTH_REDUCTION) * depth) / 256
                    + ((eval - beta) / tp!(NMP_EVAL_DIVISOR)).min(tp!(NMP_EVAL_MAX));
                let child = self.make_move(pos, ply, None, false);
                stats!(self.stats.nmp_tries += 1);
                let score = -self.negamax(&child, depth - r, -beta, -beta + 1, ply + 1, !cut_node, host);
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    stats!(self.stats.nmp_cuts += 1);
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }

            // Step 9a. ProbCut: a capture whose reduced search beats beta by a margin.
            // (KaggleFish's forms as one bundle, +110 Elo)
            let pc_beta = beta + tp!(PROBCUT_MARGIN) - tp!(PROBCUT_IMPROVING) * improving as i32;
            if depth >= tp!(PROBCUT_DEPTH)
                && beta.abs() < MATE_BOUND
                && !hit.is_some_and(|h| h.depth >= depth - 3 && h.score < pc_beta)
            {
                let mut picker = MovePicker::new_quiescence(tt_move, false, false);
                let mut tries = 2 + 2 * cut_node as i32;
                while tries > 0
                    && let Some(m) = picker.next(pos, &self.histories)
                {
                    if !pos.see_ge(m, pc_beta - static_eval) {
                        continue;
                    }
                    tries -= 1;
                    stats!(self.stats.probcut_tries += 1);
                    let child = self.make_move(pos, ply, Some(m), false);
                    let mut s = -self.quiescence(&child, -pc_beta, -pc_beta + 1, ply + 1, 0, host);
                    if s >= pc_beta && depth > 4 {
                        s = -self.negamax(
                            &child,
                            depth - 4,
                            -pc_beta,
                            -pc_beta + 1,
                            ply + 1,
                            !cut_node,
                            host,
                        );
                    }
                    if self.stopped {
                        return 0;
                    }
                    if s >= pc_beta {
                        stats!(self.stats.probcut_cuts += 1);
                        let deeper = hit.is_some_and(|h| h.depth >= depth - 3);
                        if !deeper {
                            self.tt.store(key, m, s, raw_eval, depth - 3, Bound::Lower, false, ply);
                        }
                        return s;
                    }
                }
            }
        }

        // Step 10. Internal iterative reduction: without a TT move this node was never
        // searched well; search it shallower first (KaggleFish's forms as one bundle, +110 Elo).
        if tt_move == Move::NONE && excluded == Move::NONE {
            if pv_node && depth >= tp!(IIR_PV_DEPTH) {
                depth -= 2;
            } else if cut_node && depth >= tp!(IIR_CUT_DEPTH) {
                depth -= 1;
            }
        }

        // Step 10a. In check, a TT capture whose bound is far above beta cuts at once.
        // (KaggleFish's forms as one bundle, +110 Elo)
        if in_check
            && !pv_node
            && depth >= CHECK_TT_CUT_DEPTH
            && tt_move.is_noisy()
            && beta.abs() < MATE_BOUND
            && let Some(h) = hit
            && h.bound as u8 & Bound::Lower as u8 != 0
            && h.depth >= depth - 3
            && h.score >= beta + CHECK_TT_CUT_MARGIN
            && h.score < MATE_BOUND
        {
            return beta + CHECK_TT_CUT_MARGIN;
        }

        // Step 11. The move loop, ordered by the histories, the continuation histories
        // among them (bundle, +58 Elo).
        let us = pos.side_to_move();
        let counter = self.counter_slot(ply).map_or(Move::NONE, |slot| self.histories.counter[slot]);
        let mut picker = MovePicker::new(tt_move, self.histories.killers[ply], counter, prev);
        let mut singular_quiet = false;
        let mut best_score = -INFINITY;
        let mut best_move = Move::NONE;
        let mut moves_searched = 0usize;
        // Legal moves picked, pruned ones included: late-move pruning and reductions count
        // them (KaggleFish's move count).
        let mut move_count = 0usize;
        let mut quiets_tried = [Move::NONE; 64];
        let mut quiet_count = 0;
        let mut noisy_tried = [Move::NONE; 32];
        let mut noisy_count = 0;
        let lmp_limit = (2 + depth * depth) as usize / if improving { 1 } else { 2 };
        let mut check_info = None;

        while let Some(m) = picker.next(pos, &self.histories) {
            if m == excluded {
                continue;
            }
            #[cfg(feature = "analysis")]
            if root && !self.analysis.allows(m) {
                continue;
            }
            let quiet = !m.is_noisy();

            // Step 12. Pruning of late moves, once a move has been searched, no mate against
            // us is pending and the side to move has a piece (KaggleFish's forms). A quiet
            // check escapes the quiets' margins and is judged as a capture; whether a move
            // checks is asked only where the answer decides a pruning (asked of every move,
            // it took a tenth of the search's time) (KaggleFish's forms as one bundle, +110 Elo).
            move_count += 1;
            if !root && best_score > -MATE_BOUND && pos.has_non_pawn_material(pos.side_to_move()) {
                // Late-move pruning: past the move count, every later quiet is skipped.
                if move_count >= lmp_limit {
                    picker.skip_quiets();
                }
                // The depth the move would be searched to after its late-move reduction:
                // the margins below judge a move by it.
                let lmr_depth = (depth - 1 - lmr(&self.lmr, depth, move_count, improving)).max(0);
                let see_margin = tp!(SEE_NOISY_MARGIN) * depth;
                if quiet {
                    let cont = self.histories.continuation_sum(pos, prev, m);
                    // Continuation-history pruning: a quiet the earlier moves' histories
                    // call bad.
                    let bad = lmr_depth < tp!(CONT_PRUNE_DEPTH)
                        && cont < tp!(CONT_PRUNE_BASE) - tp!(CONT_PRUNE_PER_DEPTH) * depth;
                    // Futility pruning: a quiet will not lift a hopeless eval, unless its
                    // histories are very good; the node's score becomes the futility value.
                    let futility = static_eval + tp!(FUTILITY_BASE) + tp!(FUTILITY_PER_DEPTH) * lmr_depth;
                    let futile = !in_check
                        && lmr_depth <= tp!(FUTILITY_DEPTH)
                        && futility <= alpha
                        && cont < tp!(FUTILITY_HISTORY_LIMIT);
                    let l = lmr_depth.min(SEE_QUIET_DEPTH_CAP);
                    let see_quiet = tp!(SEE_QUIET_MARGIN) * (SEE_QUIET_SHAPE - l) * lmr_depth * lmr_depth
                        / SEE_QUIET_DIVISOR;
                    if bad || futile || !pos.see_ge(m, see_quiet) {
                        // A check is judged as a capture is, by SEE alone.
                        let check = pos.gives_check(check_info.get_or_insert_with(|| pos.check_info()), m);
                        if !check {
                            if !bad && futile {
                                best_score = best_score.max(futility);
                            }
                            continue;
                        }
                        if !pos.see_ge(m, see_margin) {
                            continue;
                        }
                    }
                } else {
                    // A capture with a bad history at the shallowest depth, unless it checks;
                    // any noisy move losing too much.
                    if lmr_depth < 1
                        && self.histories.capture_score(pos, m) < 0
                        && !pos.gives_check(check_info.get_or_insert_with(|| pos.check_info()), m)
                    {
                        continue;
                    }
                    if !pos.see_ge(m, see_margin) {
                        continue;
                    }
                }
            }

            // Step 12a. Singular extension: if the TT move, searched deep enough before,
            // beats every other move by a margin (a reduced search without it fails low),
            // it is extended by a ply, two when far better (at most tp!(SE_MAX_DOUBLE) double
            // extensions on a line); if even without it the node fails high, return at
            // once (multi-cut); if its own bound already reaches beta, it is reduced
            // (bundle, +58 Elo).
            let mut extension = 0;
            if let Some(h) = hit
                && !root
                && m == tt_move
                && excluded == Move::NONE
                && depth >= tp!(SE_DEPTH)
                && h.depth >= depth - 3
                && h.bound != Bound::Upper
                && h.score.abs() < MATE_BOUND
            {
                let singular_beta = h.score - tp!(SE_MARGIN) * (4 + former_pv as i32) * depth / 32;
                self.stack[ply].excluded = m;
                let s =
                    self.negamax(pos, (depth - 1) / 2, singular_beta - 1, singular_beta, ply, cut_node, host);
                self.stack[ply].excluded = Move::NONE;
                if self.stopped {
                    return 0;
                }
                if s < singular_beta {
                    extension = 1;
                    if !pv_node
                        && s < singular_beta - tp!(SE_DOUBLE_MARGIN)
                        && self.stack[ply].double_extensions < tp!(SE_MAX_DOUBLE)
                    {
                        extension = 2;
                    }
                } else if s >= beta {
                    return s;
                } else if h.score >= beta {
                    extension = -tp!(SE_NEGATIVE);
                } else if cut_node {
                    extension = -2;
                }
                singular_quiet = extension > 0 && quiet;
            }

            let child = self.make_move(pos, ply, Some(m), extension == 2);
            let nodes_before = self.nodes;
            let new_depth = depth - 1 + extension;
            stats!(self.stats.ext_singular += u64::from(extension > 0));

            // Step 13. Principal variation search with late-move reductions: the first move
            // gets the full window; later ones a null window, reduced when they come late,
            // quiet and not checking, re-searched if they surprise. (No reduction of
            // checks, and "improving" assumed at the first two plies: WAC 263 → 266.)
            // (KaggleFish's forms as one bundle, +110 Elo)
            let score = if moves_searched == 0 {
                -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, !pv_node && !cut_node, host)
            } else {
                let mut reduction = 0;
                // A move that enters the reduced search expects to cut, as in KaggleFish.
                let mut child_cut = !cut_node;
                // Reduced: quiets, and captures at non-PV nodes (the family's condition), but
                // no check (reduced, they hid mate.039's mate in 4 past 100,000 nodes); a move
                // at an expected cut node, or after a TT move that captures, more; one whose
                // node the TT knows as deep, less.
                if depth >= tp!(LMR_DEPTH)
                    && moves_searched > 2 * root as usize
                    && (quiet || cut_node || (!pv_node && !tt_pv))
                    && !child.in_check()
                {
                    let mut r = lmr(&self.lmr, depth, move_count, improving);
                    r -= 2 * (tt_pv && !likely_fail_low) as i32;
                    r += tt_move.is_noisy() as i32;
                    r -= hit.is_some_and(|h| h.depth >= depth) as i32;
                    r -= (self.tt_hit_avg > LMR_TT_HIT_RATE) as i32;
                    r += (!pv_node && self.stable_root) as i32;
                    r -= singular_quiet as i32;
                    if quiet {
                        r += tp!(LMR_CUT_NODE) * cut_node as i32;
                        if !in_check {
                            // KaggleFish's history term: each table once, less an offset.
                            let stat = self.histories.butterfly(pos.side_to_move(), m)
                                + self.histories.continuation_sum(pos, prev, m)
                                - tp!(LMR_HISTORY_OFFSET);
                            self.stack[ply].stat_score = stat;
                            r -= stat / tp!(LMR_HISTORY_DIVISOR);
                        }
                    }
                    // A favoured early move may be searched deeper than new_depth.
                    let extra = if r >= -1 {
                        0
                    } else if move_count <= 5 {
                        2
                    } else {
                        ((pv_node && depth > 6) || (cut_node && move_count <= 7)) as i32
                    };
                    reduction = r.clamp(-extra, (new_depth - 1).max(0));
                    child_cut = true;
                }
                stats!(self.stats.reduction(depth, moves_searched + 1, reduction));
                stats!(self.stats.pvs_tries += u64::from(pv_node));
                let mut s = -self.negamax(
                    &child,
                    new_depth - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    child_cut,
                    host,
                );
                if s > alpha && reduction > 0 {
                    // Deeper when the reduced search beat the best by far, shallower when
                    // barely.
                    let full = new_depth + (s > best_score + LMR_DEEPER_MARGIN + new_depth) as i32
                        - (s < best_score + LMR_SHALLOWER_MARGIN) as i32;
                    if full > new_depth - reduction {
                        s = -self.negamax(&child, full, -alpha - 1, -alpha, ply + 1, !cut_node, host);
                    }
                    if quiet {
                        let bonus = history_bonus(full);
                        self.histories.update_continuation(
                            pos,
                            prev,
                            m,
                            if s > alpha { bonus } else { -bonus },
                        );
                    }
                }
                if s > alpha && s < beta {
                    stats!(self.stats.pvs_researches += u64::from(pv_node));
                    s = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, false, host);
                }
                s
            };
            moves_searched += 1;
            if self.stopped {
                return 0;
            }
            if root {
                self.root_nodes[(m.raw() & 4095) as usize] += self.nodes - nodes_before;
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = m;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        stats!(self.stats.cutoff(moves_searched == 1));
                        break;
                    }
                    alpha = score;
                    if depth > 2 && score.abs() < MATE_BOUND {
                        depth -= 2;
                    }
                }
            }
            if quiet && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = m;
                quiet_count += 1;
            }
            if !quiet && noisy_count < noisy_tried.len() {
                noisy_tried[noisy_count] = m;
                noisy_count += 1;
            }
        }

        // Step 14. No legal move: mate or stalemate.
        if moves_searched == 0 {
            // Without the excluded move, no move: as good as failing low (the excluded
            // move is then singular by force).
            if excluded != Move::NONE {
                return alpha;
            }
            return if in_check { -MATE + ply as i32 } else { DRAW };
        }

        // Step 15. Learn from the best move, if one raised alpha: killers, counter-move and
        // history for a quiet, whose quiets tried before get a malus; the captures tried
        // get one in any case (KaggleFish's forms, at the node's end).
        if best_move != Move::NONE {
            let bonus = history_bonus(depth + 1);
            // Step 15a. Capture history (bundle, +58 Elo).
            if best_move.is_noisy() {
                self.histories.update_capture(pos, best_move, bonus);
            } else {
                let bonus =
                    if best_score > beta + HISTORY_BONUS_MARGIN { bonus } else { history_bonus(depth) };
                let m = best_move;
                self.histories.add_killer(ply, m);
                self.histories.update_quiet(pos, prev, m, bonus);
                if pos.piece_on(m.from()).is_some_and(|p| p.kind() != PieceType::Pawn) {
                    self.histories.update_butterfly(us, Move::new(m.to(), m.from(), MoveFlag::Quiet), -bonus);
                }
                for &q in quiets_tried[..quiet_count].iter().filter(|&&q| q != m) {
                    self.histories.update_quiet(pos, prev, q, -bonus);
                }
                if let Some(slot) = self.counter_slot(ply) {
                    self.histories.counter[slot] = m;
                }
            }
            for &n in noisy_tried[..noisy_count].iter().filter(|&&n| n != best_move) {
                self.histories.update_capture(pos, n, -bonus);
            }
        }

        // The PV mark spreads: a node that fails low below a PV node becomes one; one that
        // does not stays one only if its best reply is.
        if depth > 3 {
            if best_score <= alpha {
                tt_pv |= ply > 0 && self.stack[ply - 1].tt_pv;
            } else {
                tt_pv &= self.stack[ply + 1].tt_pv;
            }
        }
        self.stack[ply].tt_pv = tt_pv;

        // Step 16. Store the result.
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_move != Move::NONE && pv_node {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // Step 16a. Correction history: remember how far the search's result was from the
        // corrected evaluation, for positions like this one (six tables, history.rs), when
        // the result is exact or a bound on the right side of the eval, and the best move is
        // quiet, since a capture's gain is the move's, not the structure's (bundle, +58 Elo).
        // A singular-extension search (a move left out) records neither.
        if excluded == Move::NONE {
            if !in_check
                && !best_move.is_noisy()
                && best_score.abs() < MATE_BOUND
                && (bound != Bound::Lower || best_score >= eval)
                && (bound != Bound::Upper || best_score < eval)
            {
                self.histories.update_correction(&corr_slots, depth, best_score - eval);
            }
            self.tt.store(key, best_move, best_score, raw_eval, depth, bound, tt_pv, ply);
        }
        best_score
    }

    /// Quiescence search: only captures and promotions (all evasions in check), until the
    /// position is quiet, so that the static evaluation is not taken in mid-exchange. At its
    /// first ply (`qdepth` 0) quiet checks are tried too, which finds the quiet mates that
    /// null-move and futility pruning would otherwise hide.
    fn quiescence(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: i32,
        host: &mut dyn SearchHost,
    ) -> i32 {
        stats!(self.stats.qnodes += 1);
        if !self.enter_node(ply, host) {
            return 0;
        }
        let in_check = pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { DRAW } else { self.evaluate(pos, ply) };
        }
        // Under the harness's rules a capture can end the game by material, and a mate that
        // makes the clock 100 is a draw: both decided here, before stand pat or mate.
        if self.rules == Rules::Kaggle && self.rules.is_draw(pos, in_check) {
            return DRAW;
        }

        let key = pos.key();
        let hit = self.tt.probe(key, ply);
        if let Some(h) = hit
            && beta - alpha == 1
            && h.cuts_off(alpha, beta)
        {
            return h.score;
        }

        // Stand pat: the side to move may decline every capture. (Quiet checks at the
        // first quiescence ply found WAC.001's mate at depth 12 instead of past 14.)
        // In check: the TT keeps 0 as the evaluation, as in `negamax`.
        let raw_eval = if in_check { 0 } else { hit.map_or_else(|| self.evaluate(pos, ply), |h| h.eval) };
        let static_eval = if in_check {
            -INFINITY
        } else {
            self.histories.corrected(&Histories::correction_slots(pos, self.counter_slot(ply)), raw_eval)
        };
        let mut best_score = static_eval;
        if !in_check {
            if let Some(h) = hit
                && ((h.bound == Bound::Lower && h.score > best_score)
                    || (h.bound == Bound::Upper && h.score < best_score))
            {
                best_score = h.score;
            }
            if best_score >= beta {
                return best_score;
            }
            alpha = alpha.max(best_score);
        }
        let futility_base = best_score + tp!(DELTA_MARGIN);
        let mut check_info = None;

        let mut picker = MovePicker::new_quiescence(hit.map_or(Move::NONE, |h| h.mv), in_check, qdepth == 0);
        let mut best_move = Move::NONE;
        let mut moves = 0;
        while let Some(m) = picker.next(pos, &self.histories) {
            moves += 1;
            // Pruning, of moves that do not check (KaggleFish's forms): past the first few
            // moves; a capture that even winning its piece leaves below alpha (delta); with
            // the stand pat below alpha, a move that does not win material. A check is asked
            // only of a move that would be pruned.
            if !in_check && m.promotion().is_none() && best_score > -MATE_BOUND {
                let delta = || {
                    let victim = pos.piece_on(m.to()).map_or(PieceType::Pawn, |p| p.kind());
                    futility_base + PIECE_VALUE[victim.index()].0.max(PIECE_VALUE[victim.index()].1)
                };
                let floor = if moves > tp!(QS_MOVE_LIMIT) as usize {
                    Some(best_score)
                } else if m.is_capture() && delta() <= alpha {
                    Some(delta())
                } else if tp!(QS_SEE_FUTILITY) > 0
                    && futility_base <= alpha
                    && !pos.see_ge(m, tp!(QS_SEE_FUTILITY))
                {
                    Some(futility_base)
                } else {
                    None
                };
                if let Some(floor) = floor
                    && !pos.gives_check(check_info.get_or_insert_with(|| pos.check_info()), m)
                {
                    best_score = best_score.max(floor);
                    continue;
                }
            }
            let child = self.child(pos, ply, Some(m));
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1, qdepth - 1, host);
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = m;
                    if score >= beta {
                        if score.abs() < MATE_BOUND {
                            best_score = (3 * score + beta) / 4;
                        }
                        break;
                    }
                    alpha = score;
                }
            }
        }
        if in_check && moves == 0 {
            return -MATE + ply as i32;
        }
        let bound = if best_score >= beta { Bound::Lower } else { Bound::Upper };
        self.tt.store(key, best_move, best_score, raw_eval, 0, bound, false, ply);
        best_score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tt::{BUCKETS_PER_MIB, Bucket};
    use std::boxed::Box;
    use std::vec;

    /// A virtual clock that advances `STEP` ms at every poll (so time is proportional to
    /// nodes), and a `ponderhit` at the `hit_at`-th poll.
    struct PonderHost {
        now: u64,
        polls: u64,
        hit_at: u64,
    }

    const STEP: u64 = 10;

    impl SearchHost for PonderHost {
        fn now_ms(&mut self) -> u64 {
            self.now
        }
        fn poll(&mut self) -> Poll {
            self.now += STEP;
            self.polls += 1;
            if self.polls == self.hit_at { Poll::PonderHit } else { Poll::Continue }
        }
        fn wait(&mut self) -> Poll {
            Poll::Stop
        }
        fn report(&mut self, _: &Report) {}
    }

    /// The virtual ms a search spends after `ponderhit` when the ponder search before it
    /// ran `pondered` ms (its move must be legal however early it stops).
    fn time_after_hit(limits: Limits, pondered: u64) -> u64 {
        let storage = Box::leak(vec![Bucket::EMPTY; BUCKETS_PER_MIB].into_boxed_slice());
        let continuation = Box::leak(Box::new(ContinuationHistory::EMPTY));
        let mut searcher = Searcher::new(Table::new(storage, 1), continuation);
        let mut host = PonderHost { now: 0, polls: 0, hit_at: pondered / STEP };
        let pos = Position::startpos();
        let result = searcher.search(&pos, &[], Limits { ponder: true, ..limits }, 0, &mut host);
        assert!(legal_move_list(&pos).contains(&result.best));
        host.now - pondered
    }

    /// After `ponderhit` the move's deadlines count from the hit, less the credited share
    /// of the ponder time (`TIME_PONDER_CREDIT_PERCENT`): with no credit the move still gets
    /// at least its soft target; with the ponder time credited beyond the hard limit it
    /// answers at once.
    #[test]
    fn ponder_time_is_credited_as_the_tunable_says() {
        let limits = Limits { time: Some(1000), increment: 100, ..Limits::default() };
        let tm = TimeManager::new(&limits, 0);
        let (soft, hard) = (tm.soft, tm.hard);
        assert!(soft >= 5 * STEP && hard >= 2 * soft, "{soft} {hard}");
        let pondered = 4 * hard;
        let check = |percent: u64| {
            let credit = pondered * percent / 100;
            let after = time_after_hit(limits, pondered);
            assert!(
                after <= hard.saturating_sub(credit) + STEP,
                "credit {percent}%: {after} ms after the hit"
            );
            if credit == 0 {
                assert!(after >= soft, "no credit: {after} ms after the hit, soft target {soft}");
            }
        };
        #[cfg(not(feature = "tune"))]
        check(TIME_PONDER_CREDIT_PERCENT);
        #[cfg(feature = "tune")]
        {
            for percent in [0, 10, 100] {
                assert!(crate::params::tune::TIME_PONDER_CREDIT_PERCENT.set(percent as i32));
                check(percent);
            }
            crate::params::tune::TIME_PONDER_CREDIT_PERCENT.set(TIME_PONDER_CREDIT_PERCENT as i32);
        }
    }

    /// A key collision can hand a quiet position the TT entry of a position in check; the
    /// search must stay inside its windows all the same. The entry a search stores for the
    /// position after 1. e4 f6 2. Qh5+ is moved here under the key of the one after the
    /// first move c3, a collision at its worst. Before the fix that entry's evaluation was
    /// `-INFINITY`, and the first iteration from the start then failed high at `INFINITY`
    /// again and again (an overflow in a debug build: the CI's ponder test met such a
    /// collision by chance).
    #[test]
    fn an_in_check_entry_met_by_a_collision_stays_in_the_window() {
        let storage = Box::leak(vec![Bucket::EMPTY; BUCKETS_PER_MIB].into_boxed_slice());
        let continuation = Box::leak(Box::new(ContinuationHistory::EMPTY));
        let mut searcher = Searcher::new(Table::new(storage, 1), continuation);
        let play = |pos: &Position, moves: &[&str]| {
            moves.iter().fold(*pos, |p, m| p.after(crate::movegen::parse_uci_move(&p, m).unwrap()))
        };
        let start = Position::startpos();
        let check = play(&start, &["e2e4", "f7f6", "d1h5"]);
        assert!(check.in_check());
        let mut host = PonderHost { now: 0, polls: 0, hit_at: 0 };
        searcher.search(&check, &[], Limits { depth: Some(2), ..Limits::default() }, 0, &mut host);
        let h = searcher.tt.probe(check.key(), 0).expect("the root's entry");
        searcher.tt.clear();
        searcher.tt.store(
            play(&start, &["c2c3"]).key(),
            Move::NONE,
            h.score,
            h.eval,
            0,
            Bound::Upper,
            false,
            1,
        );
        let limits = Limits { depth: Some(3), nodes: Some(20_000), ..Limits::default() };
        let result = searcher.search(&start, &[], limits, 0, &mut host);
        assert_eq!(result.depth, 3, "the search did not get past its first iterations");
        assert!(result.score.abs() < 500, "score {}", result.score);
    }
}
