//! The committed opening book (`book/book.bin`) against the harness's openings, the `OwnBook`
//! option over UCI with it, and the book the build embeds (the one `book/SHIPPED` names).

mod common;

use common::{bestmove, run, run_with_book};
use minnow::PieceType;
use minnow::Position;
use minnow::book::{BOOK, BOOK_FILE, BOOK_PLIES, HEADER, MAGIC, probe};
use minnow::fen::Fen;
use minnow::movegen::{legal_move_list, parse_uci_move};

/// The full book the `book` tool made (`book/README.md`), shipped until gen13.
static FULL_BOOK: &[u8] = include_bytes!("../book/book.bin");

fn openings() -> Vec<(String, Position)> {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/kaggle_openings.epd"))
        .expect("tests/data/kaggle_openings.epd")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let fen = l.split_whitespace().take(6).collect::<Vec<_>>().join(" ");
            let pos = Position::from_fen(&fen).expect("a valid opening");
            (fen, pos)
        })
        .collect()
}

/// Nearly every opening has a book move (the book was packed with all 2000; a few may
/// collide), and positions one ply later that the book does not hold rarely hit by chance.
/// A change of the Zobrist keys, or a book packed for other openings, fails here.
#[test]
fn the_book_covers_the_openings() {
    let openings = openings();
    assert_eq!(openings.len(), 2000);
    let hits = openings.iter().filter(|(_, p)| probe(FULL_BOOK, p).is_some()).count();
    assert!(hits >= 1980, "only {hits} of 2000 openings in the book");
    // Positions one ply after an opening: the shipped book holds the openings' own moves
    // only (`book strip`, book/README.md), so these miss but for chance matches of the
    // keys' fingerprint bits (about 1 in 256 probes).
    let (mut children, mut child_hits) = (0, 0);
    for (_, pos) in openings.iter().take(400) {
        for &m in legal_move_list(pos).iter() {
            let mut child = *pos;
            child.make(m);
            children += 1;
            child_hits += usize::from(probe(FULL_BOOK, &child).is_some());
        }
    }
    assert!(children > 5000, "{children} positions one ply after 400 openings");
    assert!(child_hits <= children / 100, "{child_hits} hits among {children} positions");
}

/// With `OwnBook` on, a book position is answered at once with the book's move (and the
/// book's answer to it as the ponder move, when it has one); off (the default), after
/// `BOOK_PLIES` moves, or for a ponder search, the engine searches.
#[test]
fn own_book_answers_in_book_positions_only() {
    let (fen, pos) =
        openings().into_iter().find(|(_, p)| probe(FULL_BOOK, p).is_some()).expect("a book opening");
    let book_move = probe(FULL_BOOK, &pos).unwrap().uci();
    let position = format!("position fen {fen}");
    let go = "go wtime 10000 btime 10000 winc 100 binc 100";

    let out = run_with_book(
        FULL_BOOK,
        &["setoption name OwnBook value true", "setoption name Ponder value true", &position, go],
    );
    assert!(out.contains("info string book"), "{out}");
    assert!(!out.contains("info depth"), "a book move needs no search: {out}");
    assert_eq!(bestmove(&out), book_move.as_str());
    let mut next = pos;
    next.make(probe(FULL_BOOK, &pos).unwrap());
    if let Some(answer) = probe(FULL_BOOK, &next) {
        assert!(out.contains(&format!(" ponder {}", answer.uci())), "{out}");
    }

    let out = run_with_book(FULL_BOOK, &[&position, go]);
    assert!(
        !out.contains("info string book") && out.contains("info depth"),
        "OwnBook is off by default: {out}"
    );

    // The same book position again after knights went out and back: the game is past the
    // book's plies, so the engine searches.
    let knight_trip = |p: &Position| -> Option<(String, String)> {
        legal_move_list(p).iter().find_map(|&m| {
            let text = m.uci().to_string();
            let is_knight = p.piece_on(m.from()).is_some_and(|pc| pc.kind() == PieceType::Knight);
            (is_knight && !m.is_noisy()).then(|| (text.clone(), format!("{}{}", &text[2..4], &text[0..2])))
        })
    };
    let (out1, back1) = knight_trip(&pos).expect("a knight move");
    let mut mid = pos;
    mid.make(parse_uci_move(&mid, &out1).unwrap());
    let (out2, back2) = knight_trip(&mid).expect("a knight move for the other side");
    let late = format!("position fen {fen} moves {out1} {out2} {back1} {back2}");
    let mut again = pos;
    for m in [&out1, &out2, &back1, &back2] {
        again.make(parse_uci_move(&again, m).expect("the knights' trip is legal"));
    }
    assert!(4 >= BOOK_PLIES && again.key() == pos.key(), "back to the book position");
    let out = run_with_book(FULL_BOOK, &["setoption name OwnBook value true", &late, "go depth 3"]);
    assert!(!out.contains("info string book") && out.contains("info depth"), "{out}");

    let bad = run(&["setoption name OwnBook value maybe"]);
    assert!(bad.contains("info string error"), "{bad}");
}

/// The build embeds the book `book/SHIPPED` names, and a book without entries (the shipped
/// one since gen13) costs nothing: with `OwnBook` on, every opening is searched and answered
/// with a legal move, as with the option off.
#[test]
fn the_embedded_book_is_the_shipped_one() {
    let root = env!("CARGO_MANIFEST_DIR");
    let shipped = std::fs::read_to_string(format!("{root}/book/SHIPPED")).expect("book/SHIPPED");
    let file = std::fs::read(BOOK_FILE).expect("the embedded book's file");
    assert_eq!(BOOK, &file[..], "the binary holds {BOOK_FILE}");
    if option_env!("MINNOW_BOOK").is_none_or(str::is_empty) {
        let expected = std::path::Path::new(root).join(shipped.trim());
        assert_eq!(
            std::fs::read(&expected).expect("the shipped book"),
            file,
            "{BOOK_FILE} is not {expected:?}"
        );
    }
    assert!(BOOK.len() >= HEADER && BOOK[..4] == MAGIC, "an MBK1 file");
    let entries = u16::from_le_bytes([BOOK[4], BOOK[5]]);
    if entries == 0 {
        for (fen, pos) in openings().into_iter().step_by(400) {
            assert_eq!(probe(BOOK, &pos), None);
            let out =
                run(&["setoption name OwnBook value true", &format!("position fen {fen}"), "go depth 4"]);
            assert!(!out.contains("info string book") && out.contains("info depth 4"), "{out}");
            let best = bestmove(&out);
            assert!(legal_move_list(&pos).iter().any(|m| m.uci().to_string() == best), "{best} in {fen}");
        }
    }
}
