//! The evaluation reports every weight it uses through `eval::Terms`: the tuner
//! (`devtools/src/bin/tune.rs`) relies on that to fit exactly the evaluation the engine runs.

use minnow::eval::{self, Counts, LAYOUT, S, WEIGHTS, evaluate, index};
use minnow::fen::Fen;
use minnow::{Color, Position};

/// The evaluation rebuilt from the recorded counts and the weight table alone.
fn from_counts(pos: &Position) -> i32 {
    let (mut white, mut black) = (Counts::default(), Counts::default());
    eval::evaluate_terms(pos, &mut white, &mut black);
    let mut score = S(0, 0);
    for (i, weight) in WEIGHTS.iter().enumerate() {
        score += *weight * (white.0[i] - black.0[i]);
    }
    let blended = eval::blend(pos, score);
    if pos.side_to_move() == Color::White { blended } else { -blended }
}

#[test]
fn evaluation_is_the_sum_of_its_reported_terms() {
    let mut n = 0;
    for file in [include_str!("data/popular_sample.epd"), include_str!("data/endgames_sample.epd")] {
        for line in file.lines() {
            let fen: Vec<&str> = line.split_whitespace().take(4).collect();
            let Ok(pos) = Position::from_fen(&fen.join(" ")) else { continue };
            assert_eq!(evaluate(&pos), from_counts(&pos), "{}", fen.join(" "));
            n += 1;
        }
    }
    assert!(n > 1000, "{n}");
}

#[test]
fn weight_layout_covers_the_table_once() {
    let mut next = 0;
    for (name, start, len) in LAYOUT {
        assert_eq!(start, next, "{name} starts at {start}, expected {next}");
        next += len;
    }
    assert_eq!(next, index::COUNT);
    // The king has no material value; pawns never stand on the first or last rank.
    assert_eq!(WEIGHTS[index::PIECE_VALUE + 5], S(0, 0));
    for file in 0..4 {
        assert_eq!(WEIGHTS[index::PST + file], S(0, 0));
        assert_eq!(WEIGHTS[index::PST + 28 + file], S(0, 0));
    }
}
