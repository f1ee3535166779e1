//! Tree statistics (the `stats` feature, never shipped): what one search did, counted the
//! same way as in an instrumented opponent, so that two engines' trees can be compared at
//! equal nodes (`tools/reports/tree_stats.py`). The search counts into
//! [`Searcher::stats`](crate::search::Searcher::stats); the front end prints the counters after
//! each `go`, before `bestmove`, as one line:
//!
//! `info string stats nodes=N qnodes=N … pvs_researches=N lmr_d1_m2=COUNT/PLIES …`
//!
//! Every counter covers the whole of one search (all iterations) and is reset when the next
//! one starts. Without the feature none of this is compiled: each counting site in the
//! search is a `stats!(…)` statement, which expands to a block behind
//! `#[cfg(feature = "stats")]`.

/// The low end of each node-depth bucket of the reduction table (1-2, 3-4, 5-6, 7-8, 9-11,
/// 12 and more): the `D` of `lmr_dD_mM`.
pub const DEPTH_BUCKETS: [i32; 6] = [1, 3, 5, 7, 9, 12];
/// The low end of each move-number bucket of the reduction table (2-3, 4-7, 8-15, 16 and
/// more; the first move is never reduced): the `M` of `lmr_dD_mM`.
pub const MOVE_BUCKETS: [usize; 4] = [2, 4, 8, 16];

/// The counters of one search. All-zero is the fresh state (`Searcher::new` zeroes it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Nodes of the search: the count `info … nodes` reports, a move made (the family's count;
    /// set when the search ends).
    pub nodes: u64,
    /// Entries into the quiescence search, from the main search at depth 0 included.
    pub qnodes: u64,
    /// Transposition-table probes of the main search (one a node that gets that far).
    pub tt_probes: u64,
    /// Of those, probes that found an entry for the position.
    pub tt_hits: u64,
    /// Main-search nodes that returned the TT entry's score (a TT cutoff).
    pub tt_cuts: u64,
    /// Main-search nodes where a move of the move loop scored at least beta.
    pub cut_nodes: u64,
    /// Of those, nodes whose cutoff came from the first move searched there.
    pub first_move_cuts: u64,
    /// Null-move searches made.
    pub nmp_tries: u64,
    /// Null-move searches that failed high and so ended the node.
    pub nmp_cuts: u64,
    /// Captures ProbCut searched (step 9a), each a try: up to 2 a node, 4 at an expected cut
    /// node.
    pub probcut_tries: u64,
    /// Nodes ProbCut cut off (a capture's reduced search held its raised beta).
    pub probcut_cuts: u64,
    /// Moves searched with a check extension: always 0, minnow has none (step 1), as
    /// KaggleFish has none; kept so that the two trees' tables keep one definition.
    pub ext_check: u64,
    /// Moves searched with a singular or double extension (the TT move).
    pub ext_singular: u64,
    /// Moves searched with any other extension: always 0, minnow has no other.
    pub ext_other: u64,
    /// Moves searched with a late-move reduction of at least one ply.
    pub lmr_count: u64,
    /// The sum of those reductions in plies, as applied (after every adjustment and clamp).
    pub lmr_plies: u64,
    /// Root iterations searched with an aspiration window (not the full window).
    pub asp_iters: u64,
    /// Root re-searches after an aspiration fail low or fail high.
    pub asp_fails: u64,
    /// Zero-window searches of a non-first move at a PV node (one a move).
    pub pvs_tries: u64,
    /// Of those, moves that scored inside the window and were searched again with it.
    pub pvs_researches: u64,
    /// `lmr_count` and `lmr_plies` by node-depth bucket ([`DEPTH_BUCKETS`]) and move-number
    /// bucket ([`MOVE_BUCKETS`]): `[count, plies]`.
    pub lmr_buckets: [[[u64; 2]; MOVE_BUCKETS.len()]; DEPTH_BUCKETS.len()],
}

impl Stats {
    /// A main-search TT probe; `hit` if it found an entry.
    pub fn probe(&mut self, hit: bool) {
        self.tt_probes += 1;
        self.tt_hits += u64::from(hit);
    }

    /// A beta cutoff in the move loop; `first` if by the first move searched.
    pub fn cutoff(&mut self, first: bool) {
        self.cut_nodes += 1;
        self.first_move_cuts += u64::from(first);
    }

    /// A reduction of `plies` (nothing if 0) of the `number`-th move (counting from 1) at a
    /// node of `depth`.
    pub fn reduction(&mut self, depth: i32, number: usize, plies: i32) {
        if plies <= 0 {
            return;
        }
        let d = DEPTH_BUCKETS.iter().rposition(|&low| depth >= low).unwrap_or(0);
        let m = MOVE_BUCKETS.iter().rposition(|&low| number >= low).unwrap_or(0);
        let plies = plies as u64;
        self.lmr_count += 1;
        self.lmr_plies += plies;
        self.lmr_buckets[d][m][0] += 1;
        self.lmr_buckets[d][m][1] += plies;
    }

    /// The counters other than the buckets, by name, in the order the line prints them.
    pub fn counters(&self) -> [(&'static str, u64); 20] {
        [
            ("nodes", self.nodes),
            ("qnodes", self.qnodes),
            ("tt_probes", self.tt_probes),
            ("tt_hits", self.tt_hits),
            ("tt_cuts", self.tt_cuts),
            ("cut_nodes", self.cut_nodes),
            ("first_move_cuts", self.first_move_cuts),
            ("nmp_tries", self.nmp_tries),
            ("nmp_cuts", self.nmp_cuts),
            ("probcut_tries", self.probcut_tries),
            ("probcut_cuts", self.probcut_cuts),
            ("ext_check", self.ext_check),
            ("ext_singular", self.ext_singular),
            ("ext_other", self.ext_other),
            ("lmr_count", self.lmr_count),
            ("lmr_plies", self.lmr_plies),
            ("asp_iters", self.asp_iters),
            ("asp_fails", self.asp_fails),
            ("pvs_tries", self.pvs_tries),
            ("pvs_researches", self.pvs_researches),
        ]
    }
}

#[cfg(all(test, feature = "stats"))]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::history::ContinuationHistory;
    use crate::movegen::parse_uci_move;
    use crate::search::{Poll, Report, SearchHost, Searcher};
    use crate::time::Limits;
    use crate::tt::{BUCKETS_PER_MIB, Bucket, Table};
    use std::boxed::Box;
    use std::vec;

    /// No clock, no input.
    struct Quiet;

    impl SearchHost for Quiet {
        fn now_ms(&mut self) -> u64 {
            0
        }
        fn poll(&mut self) -> Poll {
            Poll::Continue
        }
        fn wait(&mut self) -> Poll {
            Poll::Stop
        }
        fn report(&mut self, _: &Report) {}
    }

    #[test]
    fn reductions_fall_in_their_buckets() {
        let mut s = Stats::default();
        s.reduction(2, 3, 1);
        s.reduction(12, 40, 4);
        s.reduction(11, 16, 2);
        s.reduction(5, 2, 0); // no reduction: not counted
        assert_eq!((s.lmr_count, s.lmr_plies), (3, 7));
        assert_eq!(s.lmr_buckets[0][0], [1, 1]);
        assert_eq!(s.lmr_buckets[5][3], [1, 4]);
        assert_eq!(s.lmr_buckets[4][3], [1, 2]);
    }

    /// A fixed search of an Italian game's middlegame counts every step it has, within the
    /// counters' invariants, and the next search starts from zero (the same search again
    /// counts the same).
    #[test]
    fn a_search_counts_within_the_invariants() {
        let storage = Box::leak(vec![Bucket::EMPTY; BUCKETS_PER_MIB].into_boxed_slice());
        let continuation = Box::leak(Box::new(ContinuationHistory::EMPTY));
        let mut searcher = Searcher::new(Table::new(storage, 1), continuation);
        let moves =
            ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5", "c2c3", "d7d6", "e1g1", "e8g8"];
        let pos = moves.iter().fold(Position::startpos(), |p, m| p.after(parse_uci_move(&p, m).unwrap()));
        let limits = Limits { nodes: Some(300_000), ..Limits::default() };
        let result = searcher.search(&pos, &[], limits, 0, &mut Quiet);
        let s = searcher.stats;
        assert_eq!(s.nodes, result.nodes);
        assert!(0 < s.qnodes && s.qnodes < s.nodes, "{s:?}");
        assert!(0 < s.tt_cuts && s.tt_cuts <= s.tt_hits && s.tt_hits <= s.tt_probes, "{s:?}");
        // Nodes are moves made (the family's count); the entries into the search and
        // quiescence are about 1.13 a move on bench (re-searches, null moves' children).
        assert!(s.nodes < s.tt_probes + s.qnodes && s.tt_probes + s.qnodes < s.nodes * 5 / 4, "{s:?}");
        assert!(0 < s.first_move_cuts && s.first_move_cuts <= s.cut_nodes, "{s:?}");
        assert!(0 < s.nmp_cuts && s.nmp_cuts <= s.nmp_tries, "{s:?}");
        assert!(0 < s.probcut_cuts && s.probcut_cuts <= s.probcut_tries, "{s:?}");
        assert_eq!((s.ext_check, s.ext_other), (0, 0));
        assert!(s.ext_singular > 0, "{s:?}");
        assert!(0 < s.lmr_count && s.lmr_count <= s.lmr_plies, "{s:?}");
        let cells = s.lmr_buckets.iter().flatten();
        assert_eq!(cells.fold([0, 0], |a, c| [a[0] + c[0], a[1] + c[1]]), [s.lmr_count, s.lmr_plies]);
        assert!(s.lmr_buckets.iter().flatten().all(|&[count, plies]| count <= plies));
        assert!(0 < s.pvs_researches && s.pvs_researches <= s.pvs_tries, "{s:?}");
        // Iterations from ASPIRATION_MIN_DEPTH on have a window, the last one perhaps cut
        // short; a fail is a re-search within one of them.
        let windowed = (result.depth + 1 - crate::params::ASPIRATION_MIN_DEPTH).max(0) as u64;
        assert!(0 < s.asp_iters && s.asp_iters <= windowed + 1, "{s:?} depth {}", result.depth);
        // Each fail grows the window's delta by a quarter and 2 cp, and past
        // ASPIRATION_MAX_DELTA the window is full, which cannot fail.
        let (mut delta, mut most_fails) = (crate::params::ASPIRATION_DELTA, 1u64);
        while delta <= crate::params::ASPIRATION_MAX_DELTA {
            delta += delta / 4 + 2;
            most_fails += 1;
        }
        assert!(s.asp_fails <= s.asp_iters * most_fails, "{s:?}");

        searcher.clear();
        searcher.search(&pos, &[], limits, 0, &mut Quiet);
        assert_eq!(searcher.stats, s);
    }
}
