//! FEN parsing: every class of rejection, the accepted edge cases, and round trips.

use minnow::defs::STARTPOS;
use minnow::fen::{Fen, FenField};
use minnow::{Color, Position, Square};

mod common;

fn rejected(fen: &str) -> (FenField, &'static str) {
    match Position::from_fen(fen) {
        Ok(pos) => panic!("accepted {fen:?} as {}", pos.fen()),
        Err(e) => (e.field, e.reason),
    }
}

fn rejects(fen: &str, field: FenField) {
    let (got, reason) = rejected(fen);
    assert_eq!(got, field, "{fen:?} rejected for the wrong field: {reason}");
    assert!(!reason.is_empty());
}

#[test]
fn rejects_malformed_placement() {
    use FenField::Placement;
    rejects("", Placement);
    rejects("   ", Placement);
    rejects("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", Placement); // 7 ranks
    rejects("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1", Placement); // 9
    rejects("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Placement); // digit 9
    rejects("rnbqkbnr/pppppppp/0/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Placement); // digit 0
    rejects("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Placement); // 9 files
    rejects("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Placement); // 7 files
    rejects("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", Placement); // X
    rejects("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP//RNBQKBNR w KQkq - 0 1", Placement); // empty
    rejects("rnbqkbnr/pppppppp/8/8/é/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Placement); // UTF-8
    // "44" sums to 8 and is accepted: only the sum of a rank matters.
    assert!(Position::from_fen("rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").is_ok());
}

#[test]
fn rejects_missing_or_extra_kings() {
    for fen in [
        "8/8/8/8/8/8/8/k7 w - - 0 1",
        "8/8/8/8/8/8/8/K7 w - - 0 1",
        "k7/8/8/8/8/8/8/K6K w - - 0 1",
        "k6k/8/8/8/8/8/8/K7 w - - 0 1",
    ] {
        let (field, r) = rejected(fen);
        assert_eq!((field, r), (FenField::Placement, "a side has no king or more than one"), "{fen}");
    }
}

#[test]
fn rejects_pawns_on_back_ranks() {
    rejects("k6P/8/8/8/8/8/8/K7 w - - 0 1", FenField::Placement);
    rejects("k7/8/8/8/8/8/8/K6p w - - 0 1", FenField::Placement);
    rejects("kp6/8/8/8/8/8/8/K7 b - - 0 1", FenField::Placement);
}

#[test]
fn rejects_impossible_material() {
    // Nine pawns.
    rejects("k7/8/8/8/8/P7/PPPPPPPP/K7 w - - 0 1", FenField::Placement);
    // Seventeen pieces.
    rejects("k7/8/8/8/NNNNNNNN/PPPPPPPP/8/K7 w - - 0 1", FenField::Placement);
    // Three queens with all eight pawns.
    rejects("8/7k/8/8/8/QQQ5/PPPPPPPP/K7 w - - 0 1", FenField::Placement);
    // ... but three queens with six pawns is fine (two promoted).
    assert!(Position::from_fen("8/7k/8/8/8/QQQ5/PPPPPP2/K7 w - - 0 1").is_ok());
}

#[test]
fn rejects_bad_side_to_move() {
    rejects("4k3/8/8/8/8/8/8/4K3 x - - 0 1", FenField::SideToMove);
    rejects("4k3/8/8/8/8/8/8/4K3 W - - 0 1", FenField::SideToMove);
    rejects("4k3/8/8/8/8/8/8/4K3", FenField::SideToMove);
}

#[test]
fn rejects_castling_rights_that_do_not_match_the_pieces() {
    use FenField::Castling;
    rejects("4k3/8/8/8/8/8/8/4K3 w K - 0 1", Castling); // no rook
    rejects("4k3/8/8/8/8/8/8/3K3R w K - 0 1", Castling); // king not on e1
    rejects("r3k2r/8/8/8/8/8/8/R3K2R w KQkqK - 0 1", Castling); // repeated
    rejects("r3k2r/8/8/8/8/8/8/R3K2R w X - 0 1", Castling);
    rejects("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", Castling); // Shredder-FEN (960)
    rejects("r3k2r/8/8/8/8/8/8/R3K2r w K - 0 1", Castling); // rook of the wrong colour
    rejects("r3k2r/8/8/8/8/8/8/R3K2R w", Castling); // missing
    let (_, r) = rejected("r3k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(r, "a right without its king and rook at home");
    assert!(Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w qKkQ - 0 1").is_ok());
}

#[test]
fn rejects_impossible_en_passant_squares() {
    use FenField::EnPassant;
    let base = "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq";
    assert!(Position::from_fen(&format!("{base} d6 0 3")).is_ok());
    rejects(&format!("{base} d3 0 3"), EnPassant); // wrong rank for white to move
    rejects(&format!("{base} e6 0 3"), EnPassant); // no black pawn on e5
    rejects(&format!("{base} z9 0 3"), EnPassant);
    rejects(&format!("{base} d 0 3"), EnPassant);
    rejects(&format!("{base} d66 0 3"), EnPassant);
    rejects(base, EnPassant);
    // The pawn cannot have come from d7 if d7 is occupied.
    rejects("rnb1kbnr/pppqpppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", EnPassant);
    // ... or passed over d6 if d6 is occupied.
    rejects("r1bqkbnr/ppp1pppp/3n4/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", EnPassant);
    // Black to move: the square must be on the third rank.
    assert!(Position::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1").is_ok());
    rejects("4k3/8/8/8/4P3/8/8/4K3 b - e6 0 1", EnPassant);
}

#[test]
fn accepts_en_passant_square_without_a_capturer_as_the_harness_writes_it() {
    // Chessnut writes the square after every double push, capture possible or not.
    let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
    assert_eq!(pos.en_passant(), Some(Square::parse(b"e3").unwrap()));
    assert_eq!(pos.capturable_en_passant(), None);
    // Not capturable, so not part of the key: same key as without the square.
    let plain = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
    assert_eq!(pos.key(), plain.key());
    // Capturable: part of the key.
    let a = Position::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1").unwrap();
    let b = Position::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1").unwrap();
    assert_ne!(a.key(), b.key());
}

#[test]
fn rejects_garbage_counters() {
    use FenField::{FullmoveNumber, HalfmoveClock, Trailing};
    let base = "4k3/8/8/8/8/8/8/4K3 w - -";
    rejects(&format!("{base} -1 1"), HalfmoveClock);
    rejects(&format!("{base} x 1"), HalfmoveClock);
    rejects(&format!("{base} 1.5 1"), HalfmoveClock);
    rejects(&format!("{base} 99999999999999999999 1"), HalfmoveClock);
    rejects(&format!("{base} 1001 1"), HalfmoveClock);
    rejects(&format!("{base} 0 -3"), FullmoveNumber);
    rejects(&format!("{base} 0 one"), FullmoveNumber);
    rejects(&format!("{base} 0 10000"), FullmoveNumber);
    rejects(&format!("{base} 0 1 extra"), Trailing);
    // Omitted counters default to 0 1; fullmove 0 is read as 1.
    let p = Position::from_fen(base).unwrap();
    assert_eq!((p.halfmove_clock(), p.fullmove_number()), (0, 1));
    let p = Position::from_fen(&format!("{base} 7 0")).unwrap();
    assert_eq!((p.halfmove_clock(), p.fullmove_number()), (7, 1));
}

#[test]
fn rejects_side_not_to_move_in_check() {
    // White to move, but the black king on e8 is attacked by the rook on e1.
    let (field, reason) = rejected("4k3/8/8/8/8/8/8/K3R3 w - - 0 1");
    assert_eq!((field, reason), (FenField::Position, "the side not to move is in check"));
    // Kings next to each other.
    rejects("8/8/8/8/8/8/8/Kk6 w - - 0 1", FenField::Position);
    // The same position with black to move is fine: black is in check.
    let p = Position::from_fen("4k3/8/8/8/8/8/8/K3R3 b - - 0 1").unwrap();
    assert!(p.in_check());
}

#[test]
fn rejects_more_than_two_checkers() {
    rejects("4k3/8/3N1N2/8/8/8/8/K3R3 b - - 0 1", FenField::Position);
}

/// Line 51 of the perft suite: two white bishops check the black king from both ends of
/// the long diagonal. No game can reach it, but it is well defined and the suite lists its
/// perft counts, so it is accepted (see the `fen` module documentation).
#[test]
fn accepts_the_unreachable_double_bishop_check_of_the_perft_suite() {
    let pos = Position::from_fen("B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1").unwrap();
    assert_eq!(pos.checkers().count(), 2);
    assert_eq!(minnow::perft::perft(&pos, 3), 1829);
}

#[test]
fn round_trips_the_start_position() {
    let p = Position::startpos();
    assert_eq!(p.fen().as_str(), STARTPOS);
    assert_eq!(p.side_to_move(), Color::White);
}

fn round_trip_file(text: &str, fields: usize, step: usize) -> usize {
    let fens = text.lines().map(|line| line.split_whitespace().take(fields).collect::<Vec<_>>().join(" "));
    round_trip(fens.step_by(step))
}

/// Parses each FEN, prints it, parses the print again: the same position, printed as the
/// FEN began. The number of FENs.
fn round_trip(fens: impl Iterator<Item = String>) -> usize {
    let mut n = 0;
    for fen in fens {
        let pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let printed = pos.fen();
        let again = Position::from_fen(&printed).unwrap();
        assert_eq!(again, pos, "{fen} -> {printed}");
        assert!(printed.starts_with(&fen), "{fen} printed as {printed}");
        n += 1;
    }
    n
}

#[test]
fn round_trips_every_test_file() {
    let n = round_trip_file(include_str!("data/perftsuite.epd"), 6, 1)
        + round_trip_file(include_str!("data/cpw_perft_positions.epd"), 6, 1);
    assert_eq!(n, 133);
}

/// The position sets: the repository's samples of them always (`tests/data`: 6,100
/// positions), and every seventh line of the whole shared sets too when they are beside
/// the repository (`common::shared_position_sets` says on stderr when they are not).
#[test]
fn round_trips_the_position_sets() {
    let n: usize = common::repo_position_sets().iter().map(|set| round_trip(set.fens())).sum();
    assert_eq!(n, 6100, "positions in tests/data");
    for set in common::shared_position_sets() {
        let n = round_trip(set.fens().step_by(7));
        eprintln!("{}: {n} positions round-trip (every seventh line)", set.name);
        assert!(n > 200, "{}: {n}", set.name);
    }
}
