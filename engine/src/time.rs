//! Search limits and time management.
//!
//! [`Limits`] is everything `go` can say. [`TimeManager`] turns it into two deadlines: a
//! soft one (do not start another iteration after it; scaled after every iteration by how
//! stable the best move is and whether the score is dropping) and a hard one (abort the
//! search, checked every [`crate::params::CHECK_EVERY_NODES`] nodes). Clock values are
//! clamped, never a panic: a negative clock counts as 0, and a clock of 0 gives deadlines
//! of 1 ms, so the move comes at once (the front end also sets a clock of 0 when `go` gives
//! only the opponent's, as Stockfish reads it). No clock at all and no move time is no
//! time limit: the search runs until `stop`, or to its depth or node limit.

use crate::params::*;

/// What `go` asked for. All fields are optional; several may be combined.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<i32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Exact time for this move in milliseconds.
    pub movetime: Option<u64>,
    /// Our remaining clock in milliseconds (negative values clamped to 0; 0 when `go` gave
    /// only the opponent's).
    pub time: Option<u64>,
    /// Our increment per move in milliseconds.
    pub increment: u64,
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Search in the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
}

/// Soft and hard deadlines in milliseconds from the start of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeManager {
    /// Base soft limit before scaling.
    soft_base: u64,
    /// Current soft limit: no new iteration after it.
    pub soft: u64,
    /// Hard limit: abort.
    pub hard: u64,
    /// False when nothing limits time (depth, nodes, infinite, ponder).
    pub timed: bool,
}

impl TimeManager {
    /// Deadlines for `limits`, keeping `overhead` ms in reserve for communication.
    pub fn new(limits: &Limits, overhead: u64) -> TimeManager {
        let unlimited = TimeManager { soft_base: u64::MAX, soft: u64::MAX, hard: u64::MAX, timed: false };
        if limits.infinite || limits.ponder {
            return unlimited;
        }
        if let Some(t) = limits.movetime {
            let t = t.saturating_sub(overhead).max(1);
            return TimeManager { soft_base: t, soft: t, hard: t, timed: true };
        }
        let Some(time) = limits.time else {
            return unlimited;
        };
        // What we may spend at most: the clock minus the reserve, never below 1 ms.
        let available = time.saturating_sub(overhead).max(1);
        let moves_left = limits.moves_to_go.unwrap_or(tp!(TIME_MOVES_LEFT)).clamp(1, tp!(TIME_MOVES_LEFT));
        let soft =
            (available / moves_left + limits.increment * tp!(TIME_INCREMENT_PERCENT) / 100).min(available);
        // At most a fixed share of the bank plus this move's increment: with little time left
        // the increment (or the harness's free 0.1 s) is still worth spending.
        let hard_cap = if moves_left == 1 {
            available
        } else {
            (available * tp!(TIME_MAX_PERCENT) / 100 + limits.increment).min(available)
        };
        let hard = (soft * tp!(TIME_HARD_FACTOR)).min(hard_cap).max(1);
        let soft = soft.clamp(1, hard);
        TimeManager { soft_base: soft, soft, hard, timed: true }
    }

    /// Rescales the soft limit after an iteration. `stability` counts iterations in a row
    /// with the same best move; `score_drop` is how far the score fell since the last
    /// iteration (positive = worse); `best_move_share` is the share (0..=100) of the last
    /// iteration's nodes spent below the best move.
    pub fn update(&mut self, stability: u32, score_drop: i32, best_move_share: u64) {
        if !self.timed {
            return;
        }
        // Stable best move: down to 75%; a fresh change: up to 125%.
        let stability_pct: u64 = match stability {
            0 => 125,
            1 => 110,
            2 => 100,
            3 => 90,
            _ => 75,
        };
        // A falling score asks for more time (up to +30%).
        let drop_pct = 100 + (score_drop.clamp(0, 120) as u64) / 4;
        // When the best move took most of the effort, the choice is clear (75%..125%).
        let share_pct = 125 - best_move_share.min(100) / 2;
        let scaled = self.soft_base * stability_pct / 100 * drop_pct / 100 * share_pct / 100;
        self.soft = scaled.clamp(1, self.hard);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_is_exact_minus_overhead() {
        let tm = TimeManager::new(&Limits { movetime: Some(200), ..Limits::default() }, 10);
        assert_eq!((tm.soft, tm.hard), (190, 190));
    }

    #[test]
    fn clock_limits_stay_inside_the_clock() {
        for time in [0u64, 1, 5, 50, 500, 10_000, 100_000] {
            for inc in [0u64, 100, 1000] {
                let limits = Limits { time: Some(time), increment: inc, ..Limits::default() };
                let tm = TimeManager::new(&limits, 30);
                assert!(tm.timed);
                assert!(tm.soft >= 1 && tm.soft <= tm.hard, "{time} {inc}: {tm:?}");
                assert!(tm.hard <= time.saturating_sub(30).max(1), "{time} {inc}: {tm:?}");
            }
        }
        let tm = TimeManager::new(&Limits { time: Some(10_000), increment: 100, ..Limits::default() }, 0);
        assert_eq!(tm.soft, 10_000 / 40 + 75);
        assert_eq!(tm.hard, tm.soft * 3);
        // Nearly out of bank: the increment is still spent (here 100 ms of 150).
        let tm = TimeManager::new(&Limits { time: Some(150), increment: 100, ..Limits::default() }, 0);
        assert_eq!((tm.soft, tm.hard), (78, 130));
    }

    #[test]
    fn unlimited_searches() {
        for limits in [
            Limits { infinite: true, ..Limits::default() },
            Limits { ponder: true, time: Some(1000), ..Limits::default() },
            Limits { depth: Some(5), ..Limits::default() },
        ] {
            assert!(!TimeManager::new(&limits, 0).timed);
        }
    }

    #[test]
    fn scaling_follows_stability_and_score() {
        let mut tm = TimeManager::new(&Limits { time: Some(60_000), ..Limits::default() }, 0);
        tm.update(5, 0, 100);
        let stable = tm.soft;
        tm.update(0, 100, 20);
        let unstable = tm.soft;
        assert!(stable < unstable && unstable <= tm.hard);
    }
}
