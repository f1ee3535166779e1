//! Property-based fuzzing with a fixed seed: random and mutated FENs, move strings and UCI
//! command lines must never panic or hang, and whatever is accepted must be a consistent,
//! playable position.

use minnow::Position;
use minnow::fen::Fen;
use minnow::movegen::{legal_move_list, parse_uci_move};
use minnow::perft::perft;
use minnow::tablegen::SplitMix;
use minnow::uci::{Flow, Uci};

mod common;
use common::{Engine, Script, Sink, continuation, tt_storage};

const SUITE: &str = include_str!("data/perftsuite.epd");
const FEN_ALPHABET: &[u8] = b"pnbrqkPNBRQK12345678/ wb-KQkqabcdefgh09x.";

fn seeds() -> Vec<String> {
    SUITE.lines().map(|l| l.split(';').next().unwrap().trim().to_string()).collect()
}

fn pick<'a, T>(rng: &mut SplitMix, items: &'a [T]) -> &'a T {
    &items[(rng.next_u64() % items.len() as u64) as usize]
}

/// One random edit of `text`: replace, insert or delete a byte, swap or drop a field,
/// or truncate.
fn mutate(rng: &mut SplitMix, text: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    let i = if bytes.is_empty() { 0 } else { (rng.next_u64() % bytes.len() as u64) as usize };
    match rng.next_u64() % 6 {
        0 if !bytes.is_empty() => bytes[i] = *pick(rng, FEN_ALPHABET),
        1 => bytes.insert(i, *pick(rng, FEN_ALPHABET)),
        2 if !bytes.is_empty() => {
            bytes.remove(i);
        }
        3 => {
            let mut fields: Vec<&str> = text.split(' ').collect();
            let a = (rng.next_u64() % fields.len() as u64) as usize;
            let b = (rng.next_u64() % fields.len() as u64) as usize;
            fields.swap(a, b);
            return fields.join(" ");
        }
        4 => {
            let mut fields: Vec<&str> = text.split(' ').collect();
            let a = (rng.next_u64() % fields.len() as u64) as usize;
            fields.remove(a);
            return fields.join(" ");
        }
        _ => bytes.truncate(i),
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// An accepted position must be consistent, print a FEN that reads back to itself, and
/// support move generation and play.
fn exercise(pos: &Position) {
    pos.check_consistency().unwrap_or_else(|e| panic!("{}: {e}", pos.fen()));
    let again = Position::from_fen(&pos.fen()).expect("printed FEN parses");
    assert_eq!(&again, pos);
    perft(pos, 2);
    for m in legal_move_list(pos) {
        pos.after(m).check_consistency().unwrap();
    }
}

#[test]
fn mutated_fens_never_panic_and_accepted_ones_are_playable() {
    let mut rng = SplitMix(2024);
    let seeds = seeds();
    let (mut accepted, mut rejected) = (0, 0);
    for _ in 0..60_000 {
        let mut fen = pick(&mut rng, &seeds).clone();
        // Mostly one edit, sometimes more, so that both outcomes stay frequent.
        for _ in 0..1 + rng.next_u64().is_multiple_of(4) as u64 * (1 + rng.next_u64() % 3) {
            fen = mutate(&mut rng, &fen);
        }
        match Position::from_fen(&fen) {
            Ok(pos) => {
                exercise(&pos);
                accepted += 1;
            }
            Err(e) => {
                assert!(!e.reason.is_empty());
                rejected += 1;
            }
        }
    }
    // Both outcomes must be well represented, or the fuzzer is not testing much.
    assert!(accepted > 5_000 && rejected > 20_000, "accepted {accepted}, rejected {rejected}");
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = SplitMix(77);
    for _ in 0..50_000 {
        let len = (rng.next_u64() % 90) as usize;
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                if rng.next_u64().is_multiple_of(4) {
                    rng.next_u64() as u8
                } else {
                    *pick(&mut rng, FEN_ALPHABET)
                }
            })
            .collect();
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(pos) = Position::from_fen(&text) {
            exercise(&pos);
        }
        let _ = parse_uci_move(&Position::startpos(), &text);
    }
}

#[test]
fn random_move_strings_never_panic() {
    let mut rng = SplitMix(5);
    let positions: Vec<Position> = seeds().iter().map(|f| Position::from_fen(f).unwrap()).collect();
    let chars = b"abcdefgh12345678qrbnkpxQ0 -";
    let mut legal = 0;
    for _ in 0..200_000 {
        // Mostly well-formed squares (so some moves are legal), with random damage.
        let mut text = String::new();
        for _ in 0..2 {
            text.push(*pick(&mut rng, b"abcdefgh") as char);
            text.push(*pick(&mut rng, b"12345678") as char);
        }
        if rng.next_u64().is_multiple_of(4) {
            text.push(*pick(&mut rng, b"qrbnk") as char);
        }
        if rng.next_u64().is_multiple_of(3) {
            text = mutate(&mut rng, &text);
        }
        if rng.next_u64().is_multiple_of(10) {
            let len = (rng.next_u64() % 7) as usize;
            text = (0..len).map(|_| *pick(&mut rng, chars) as char).collect();
        }
        let pos = pick(&mut rng, &positions);
        if let Ok(m) = parse_uci_move(pos, &text) {
            assert_eq!(m.uci().as_str(), text);
            legal += 1;
        }
    }
    assert!(legal > 100, "only {legal} legal moves generated");
}

const WORDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "perft",
    "0",
    "1",
    "2",
    "-1",
    "99",
    "x",
    "setoption",
    "name",
    "value",
    "Threads",
    "d",
    "e2e4",
    "e7e5",
    "g1f3",
    "e1g1",
    "a7a8q",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "w",
    "b",
    "KQkq",
    "-",
    "e3",
    "8/8/8/8/8/8/8/8",
    "4k3/8/8/8/8/8/8/4K3",
    "\u{e9}",
    "\u{1F600}",
    "",
    "stop",
    "ponderhit",
    "infinite",
    "ponder",
    "wtime",
    "btime",
    "movetime",
];

/// A random command line. A `go` without a limit searches until `stop`, so every line
/// that starts a search gets a node limit (its other tokens stay random).
fn random_line(rng: &mut SplitMix) -> String {
    let n = rng.next_u64() % 12;
    let mut line = String::new();
    for _ in 0..n {
        let word: &&str = pick(rng, WORDS);
        line.push_str(word);
        line.push(if rng.next_u64().is_multiple_of(8) { '\t' } else { ' ' });
    }
    // Right after `go`, so that a preceding random parameter name cannot swallow it.
    if let Some(rest) = line.trim_start().strip_prefix("go")
        && (rest.is_empty() || rest.starts_with(char::is_whitespace))
    {
        line = format!("go nodes 500 {rest}");
    }
    line
}

#[test]
fn random_uci_lines_never_panic_in_process() {
    let mut rng = SplitMix(11);
    let mut uci = Uci::new(tt_storage(1), continuation());
    let mut out = Sink(Vec::new());
    let mut env = Script::new(&[]);
    for _ in 0..10_000 {
        let line = random_line(&mut rng);
        if uci.handle_line(&line, &mut out, &mut env) == Flow::Quit {
            uci = Uci::new(tt_storage(1), continuation());
        }
        uci.position().check_consistency().unwrap();
        out.0.clear();
    }
}

#[test]
fn random_uci_lines_never_kill_the_binary() {
    let mut rng = SplitMix(12);
    let mut input = Vec::new();
    for _ in 0..10_000 {
        let line = random_line(&mut rng);
        if line.starts_with("quit") {
            continue;
        }
        input.extend_from_slice(line.as_bytes());
        input.push(b'\n');
        if rng.next_u64().is_multiple_of(50) {
            // Raw binary junk too.
            input.extend((0..20).map(|_| rng.next_u64() as u8).filter(|&b| b != b'\n'));
            input.push(b'\n');
        }
    }
    // A ponder or infinite search waits for `stop` even after its node limit.
    input.extend_from_slice(b"stop\nisready\n");
    let (out, code) = Engine::run(&input);
    assert_eq!(code, Some(0));
    assert!(out.ends_with("readyok\n"));
}
