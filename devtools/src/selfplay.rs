//! One self-play game for the training data (see `datagen` for the whole method).

use crate::format::Record;
use crate::rng::Rng;
use minnow::history::ContinuationHistory;
use minnow::movegen::legal_move_list;
use minnow::rules::Rules;
use minnow::search::{MATE, MAX_PLY, Poll, Report, SearchHost, Searcher};
use minnow::time::Limits;
use minnow::tt::{BUCKETS_PER_MIB, Bucket, Table};
use minnow::{Color, Position};
use std::time::Instant;

/// A search host for tools: searches report nothing and are never interrupted: only the node limit stops them.
pub struct QuietHost(pub Instant);

impl SearchHost for QuietHost {
    fn now_ms(&mut self) -> u64 {
        self.0.elapsed().as_millis() as u64
    }
    fn poll(&mut self) -> Poll {
        Poll::Continue
    }
    fn wait(&mut self) -> Poll {
        Poll::Continue
    }
    fn report(&mut self, _: &Report) {}
}

/// A searcher for the tools, over `hash_mib` MiB of transposition table (leaked: a tool's
/// searchers live as long as its threads). Boxed: it is too large for a small stack.
pub fn tool_searcher(hash_mib: usize) -> Box<Searcher> {
    let storage: &'static mut [Bucket] =
        Box::leak(vec![Bucket::EMPTY; hash_mib * BUCKETS_PER_MIB].into_boxed_slice());
    let continuation = Box::leak(Box::new(ContinuationHistory::EMPTY));
    Box::new(Searcher::new(Table::new(storage, hash_mib), continuation))
}

const RANDOM_PLIES_START: usize = 8;
const RANDOM_PLIES_OPENING: usize = 2;
const MAX_START_SCORE: i32 = 600;
const WIN_SCORE: i32 = 1000;
const WIN_PLIES: u32 = 4;
const DRAW_SCORE: i32 = 10;
const DRAW_PLIES: u32 = 10;
const DRAW_AFTER_PLY: usize = 80;
const MAX_GAME_PLIES: usize = 400;
/// Scores at or beyond this are mate scores.
const MATE_SCORES: i32 = MATE - MAX_PLY as i32;

/// Plays one game with `nodes` a move: its kept positions with their results filled in (empty if thrown away).
pub fn play_game(searcher: &mut Searcher, rng: &mut Rng, openings: &[Position], nodes: u64) -> Vec<Record> {
    searcher.clear();
    let (mut pos, random) = if rng.below(2) == 0 || openings.is_empty() {
        (Position::startpos(), RANDOM_PLIES_START + rng.below(2))
    } else {
        (openings[rng.below(openings.len())], RANDOM_PLIES_OPENING + rng.below(3))
    };
    for _ in 0..random {
        let moves = legal_move_list(&pos);
        if moves.is_empty() {
            return Vec::new();
        }
        pos.make(moves[rng.below(moves.len())]);
    }
    let rules = Rules::Kaggle;
    searcher.rules = rules;
    let mut history: Vec<u64> = Vec::new(); // repetition keys of the positions before `pos`
    let mut game_start = true;
    // (record, side to move) of kept positions; results are filled in at the end.
    let mut kept: Vec<Record> = Vec::new();
    let mut win_run = 0u32;
    let mut win_side = Color::White;
    let mut draw_run = 0u32;
    let mut host = QuietHost(Instant::now());
    let limits = Limits { nodes: Some(nodes), ..Limits::default() };
    // The winner, None for a draw.
    let mut ply = 0;
    let winner: Option<Color> = 'game: loop {
        if ply >= MAX_GAME_PLIES {
            break 'game None;
        }
        ply += 1;
        let moves = legal_move_list(&pos);
        if moves.is_empty() {
            break 'game if pos.in_check() { Some(!pos.side_to_move()) } else { None };
        }
        let result = searcher.search(&pos, &history, limits, 0, &mut host);
        let score = result.score;
        if ply == 1 && score.abs() > MAX_START_SCORE {
            return Vec::new();
        }
        let best = result.best;
        if !pos.in_check() && !best.is_noisy() && score.abs() < MATE_SCORES {
            kept.push(Record::new(&pos, score.clamp(-32_000, 32_000) as i16, 1, (random + ply - 1) as u16));
        }
        // Adjudication on the score of the side to move.
        let white_score = if pos.side_to_move() == Color::White { score } else { -score };
        if white_score.abs() >= WIN_SCORE {
            let side = if white_score > 0 { Color::White } else { Color::Black };
            win_run = if side == win_side { win_run + 1 } else { 1 };
            win_side = side;
            if win_run >= WIN_PLIES {
                break 'game Some(side);
            }
        } else {
            win_run = 0;
        }
        draw_run = if score.abs() <= DRAW_SCORE { draw_run + 1 } else { 0 };
        if ply > DRAW_AFTER_PLY && draw_run >= DRAW_PLIES {
            break 'game None;
        }
        history.push(rules.repetition_key(&pos, game_start));
        game_start = false;
        pos.make(best);
        // The harness's checks after a move: clock, material, repetition (then mate).
        if rules.is_draw(&pos, pos.in_check()) {
            break 'game None;
        }
        let key = rules.repetition_key(&pos, false);
        if key != 0 && history.iter().filter(|&&k| k == key).count() >= 2 {
            break 'game None;
        }
    };
    for r in &mut kept {
        r.result = match winner {
            None => 1,
            Some(side) if side == r.stm => 2,
            Some(_) => 0,
        };
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same game index gives the same game, whatever was played before; kept positions
    /// are quiet, not in check, not mate-scored, and carry one result for each side.
    #[test]
    fn games_are_deterministic_and_filtered() {
        let mut a = tool_searcher(1);
        let mut b = tool_searcher(1);
        let mut total = 0;
        for game in 0..6 {
            let first = play_game(&mut a, &mut Rng::new(9, game), &[], 1500);
            let again = play_game(&mut b, &mut Rng::new(9, game), &[], 1500);
            assert_eq!(first, again, "game {game} differs between two runs");
            for r in &first {
                assert!(i32::from(r.score).abs() < MATE_SCORES);
                assert!(r.result <= 2);
            }
            // Results are from the side to move's view: opposite sides disagree unless drawn.
            if let (Some(w), Some(bl)) =
                (first.iter().find(|r| r.stm == Color::White), first.iter().find(|r| r.stm == Color::Black))
            {
                assert_eq!(w.result + bl.result, 2);
            }
            total += first.len();
        }
        assert!(total > 50, "only {total} positions kept from 6 games");
    }
}
