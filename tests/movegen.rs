//! Move generation beyond perft: the noisy/quiet split, move flags, UCI move text.

use minnow::Position;
use minnow::fen::Fen;
use minnow::movegen::{
    MoveError, MoveList, is_legal, legal_move_list, noisy_moves, parse_uci_move, quiet_moves,
};
use minnow::tablegen::SplitMix;

const SUITE: &str = include_str!("data/perftsuite.epd");

fn suite_positions() -> Vec<Position> {
    SUITE.lines().map(|l| Position::from_fen(l.split(';').next().unwrap()).unwrap()).collect()
}

/// Positions from random games out of every suite position.
fn sample_positions() -> Vec<Position> {
    let mut rng = SplitMix(7);
    let mut out = Vec::new();
    for start in suite_positions() {
        for _ in 0..4 {
            let mut pos = start;
            for _ in 0..60 {
                out.push(pos);
                let moves = legal_move_list(&pos);
                if moves.is_empty() {
                    break;
                }
                pos.make(moves[(rng.next_u64() % moves.len() as u64) as usize]);
            }
        }
    }
    out
}

fn sorted(list: &MoveList) -> Vec<u16> {
    let mut v: Vec<u16> = list.iter().map(|m| m.raw()).collect();
    v.sort_unstable();
    v
}

#[test]
fn noisy_and_quiet_partition_the_legal_moves() {
    let positions = sample_positions();
    assert!(positions.len() > 20_000);
    for pos in &positions {
        let all = legal_move_list(pos);
        let mut noisy = MoveList::new();
        let mut quiet = MoveList::new();
        noisy_moves(pos, &mut noisy);
        quiet_moves(pos, &mut quiet);
        assert!(noisy.iter().all(|m| m.is_noisy()), "{}", pos.fen());
        assert!(quiet.iter().all(|m| !m.is_noisy()), "{}", pos.fen());
        let mut both: MoveList = noisy.clone();
        both.extend(quiet.iter().copied());
        assert_eq!(sorted(&both), sorted(&all), "{}", pos.fen());
        let unique = sorted(&all);
        assert!(unique.windows(2).all(|w| w[0] != w[1]), "duplicate move in {}", pos.fen());
    }
}

/// The picker's one-move test agrees with the whole list: every legal move passes, and
/// every move legal in some other position (a TT collision's move, another node's killer)
/// passes exactly when it is in this position's list.
#[test]
fn one_move_legality_agrees_with_the_list() {
    let positions = sample_positions();
    let mut foreign: Vec<minnow::Move> = Vec::new();
    for pos in positions.iter().step_by(7) {
        foreign.extend(legal_move_list(pos).iter().copied());
    }
    foreign.sort_unstable_by_key(|m| m.raw());
    foreign.dedup();
    let (mut passed, mut refused) = (0, 0);
    for pos in &positions {
        let legal = legal_move_list(pos);
        for &m in legal.iter().chain(&foreign) {
            let expected = legal.contains(&m);
            assert_eq!(is_legal(pos, m), expected, "{} in {}", m.uci(), pos.fen());
            if expected { passed += 1 } else { refused += 1 }
        }
    }
    assert!(passed > 10_000 && refused > 100_000, "{passed} passed, {refused} refused");
}

#[test]
fn move_flags_agree_with_the_board() {
    for pos in sample_positions() {
        for m in legal_move_list(&pos) {
            let target = pos.piece_on(m.to());
            let mover = pos.piece_on(m.from()).expect("a move starts on a piece");
            assert_eq!(mover.color(), pos.side_to_move());
            let ep = m.flag() == minnow::types::MoveFlag::EnPassant;
            assert_eq!(m.is_capture(), target.is_some() || ep, "{m} in {}", pos.fen());
            assert_eq!(
                m.is_promotion(),
                mover.kind() == minnow::PieceType::Pawn && (m.to().rank() == 0 || m.to().rank() == 7)
            );
            // Parsing the printed move gives the move back.
            assert_eq!(parse_uci_move(&pos, &m.uci()), Ok(m));
        }
    }
}

#[test]
fn uci_move_text() {
    let start = Position::startpos();
    assert_eq!(parse_uci_move(&start, "e2e4").unwrap().uci().as_str(), "e2e4");
    assert_eq!(parse_uci_move(&start, "e2e5"), Err(MoveError::Illegal));
    assert_eq!(parse_uci_move(&start, "e7e5"), Err(MoveError::Illegal));
    for bad in ["", "e2", "e2e", "e2e4q5", "i2i4", "e0e1", "E2E4", "e2-e4", "e2e4x", "0000", "e2e4 "] {
        assert_eq!(parse_uci_move(&start, bad), Err(MoveError::Syntax), "{bad:?}");
    }
    // Promotions always carry their letter; without it the move is refused.
    let promo = Position::from_fen("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    assert_eq!(parse_uci_move(&promo, "e7e8"), Err(MoveError::MissingPromotion));
    for letter in ["q", "r", "b", "n"] {
        let text = format!("e7e8{letter}");
        assert_eq!(parse_uci_move(&promo, &text).unwrap().uci().as_str(), text);
    }
    assert_eq!(parse_uci_move(&promo, "e7e8k"), Err(MoveError::Syntax));
    // A promotion letter on a non-promotion is not a legal move.
    assert_eq!(parse_uci_move(&start, "e2e4q"), Err(MoveError::Illegal));
    // Castling is the king's two-square move.
    let castle = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    for text in ["e1g1", "e1c1"] {
        let m = parse_uci_move(&castle, text).unwrap();
        assert_eq!(m.uci().as_str(), text);
    }
    let after = castle.after(parse_uci_move(&castle, "e1g1").unwrap());
    assert_eq!(after.fen().as_str(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    let after = after.after(parse_uci_move(&after, "e8c8").unwrap());
    assert_eq!(after.fen().as_str(), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
}

#[test]
fn en_passant_and_its_fen() {
    let pos = Position::startpos();
    let pos = pos.after(parse_uci_move(&pos, "e2e4").unwrap());
    // Written after every double push, as the harness does.
    assert_eq!(pos.fen().as_str(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    let pos = pos.after(parse_uci_move(&pos, "a7a6").unwrap());
    let pos = pos.after(parse_uci_move(&pos, "e4e5").unwrap());
    let pos = pos.after(parse_uci_move(&pos, "d7d5").unwrap());
    let ep = parse_uci_move(&pos, "e5d6").unwrap();
    assert_eq!(ep.flag(), minnow::types::MoveFlag::EnPassant);
    let after = pos.after(ep);
    assert_eq!(after.fen().as_str(), "rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3");
    // En passant that would expose the king along the rank is not generated.
    let pinned = Position::from_fen("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1").unwrap();
    assert_eq!(parse_uci_move(&pinned, "e5d6"), Err(MoveError::Illegal));
}

#[test]
fn keys_of_transpositions_match_and_differ_otherwise() {
    let play = |moves: &[&str]| {
        let mut pos = Position::startpos();
        for m in moves {
            pos.make(parse_uci_move(&pos, m).unwrap());
        }
        pos
    };
    let a = play(&["g1f3", "g8f6", "b1c3", "b8c6"]);
    let b = play(&["b1c3", "b8c6", "g1f3", "g8f6"]);
    assert_eq!(a.key(), b.key());
    let back = play(&["g1f3", "g8f6", "f3g1", "f6g8"]);
    assert_eq!(back.key(), Position::startpos().key());
    // Castling rights are part of the key.
    let lost = play(&["e2e3", "e7e6", "e1e2", "e8e7", "e2e1", "e7e8"]);
    let kept = play(&["e2e3", "e7e6", "g1e2", "g8e7", "e2g1", "e7g8"]);
    assert_eq!(lost.fen().split(' ').next(), kept.fen().split(' ').next());
    assert_ne!(lost.key(), kept.key());
    assert_eq!(a.key(), a.compute_key());
}

#[test]
fn no_moves_in_mate_and_stalemate() {
    let mate = Position::from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1").unwrap();
    assert!(mate.in_check() && legal_move_list(&mate).is_empty());
    let stalemate = Position::from_fen("7k/5Q2/8/8/8/8/8/6K1 b - - 0 1").unwrap();
    assert!(!stalemate.in_check() && legal_move_list(&stalemate).is_empty());
}

#[test]
fn the_218_move_position_fits_a_move_list() {
    let pos = Position::from_fen("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1").unwrap();
    assert_eq!(legal_move_list(&pos).len(), 218);
}
