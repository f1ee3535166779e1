//! The shipped binary over UCI, through real pipes.

mod common;

use common::Engine;
use minnow::Position;
use minnow::movegen::{legal_move_list, parse_uci_move};
use std::process::Command;
use std::time::{Duration, Instant};

/// Runs the engine on `input` (input closed afterwards) and returns (stdout, exit code).
fn run_bytes(input: &[u8]) -> (String, i32) {
    let (out, code) = Engine::run(input);
    (out, code.unwrap_or(-1))
}

fn run(input: &str) -> String {
    let (out, code) = run_bytes(input.as_bytes());
    assert_eq!(code, 0, "engine exit code; output:\n{out}");
    out
}

fn errors(out: &str) -> Vec<&str> {
    out.lines().filter(|l| l.starts_with("info string error: ")).collect()
}

#[test]
fn handshake() {
    let out = run("uci\nisready\nquit\n");
    let lines: Vec<&str> = out.lines().collect();
    // `id name` tells builds and nets apart: name and version, the build, the evaluation.
    let id = format!("id name {} {} {}", minnow::uci::ENGINE_NAME, minnow::uci::BUILD, minnow::EVAL_NAME);
    assert_eq!(lines[0], id, "{out}");
    assert!(
        minnow::uci::ENGINE_NAME.starts_with("minnow ") && minnow::uci::ENGINE_NAME.len() > "minnow ".len()
    );
    assert!(!minnow::uci::BUILD.is_empty() && !minnow::uci::BUILD.contains(' '));
    let net =
        std::path::Path::new(minnow::nnue::NET_FILE).file_stem().unwrap().to_string_lossy().into_owned();
    let eval = if cfg!(feature = "nnue") { net.as_str() } else { "hce" };
    assert_eq!(minnow::EVAL_NAME, eval);
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    // Every option on a line of its own, defaults as the front end's constants say.
    let hash = format!("option name Hash type spin default {} min 1 max ", minnow::uci::DEFAULT_HASH_MIB);
    assert!(lines.iter().any(|l| l.starts_with(&hash)), "{out}");
    let overhead = format!(
        "option name Move Overhead type spin default {} min 0 max 5000",
        minnow::uci::DEFAULT_MOVE_OVERHEAD
    );
    for option in [
        "option name Threads type spin default 1 min 1 max 1",
        "option name Ponder type check default false",
        &overhead,
        "option name Kaggle Rules type check default false",
        "option name Clear Hash type button",
    ] {
        assert!(lines.contains(&option), "{option} missing:\n{out}");
    }
    // OwnBook only with a book compiled in (the shipped book is a header alone since gen13).
    let own_book = lines.contains(&"option name OwnBook type check default false");
    assert_eq!(own_book, minnow::book::BOOK.len() > minnow::book::HEADER, "{out}");
    // MultiPV only in the users' build (the `analysis` feature).
    let multipv = lines.contains(&"option name MultiPV type spin default 1 min 1 max 256");
    assert_eq!(multipv, cfg!(feature = "analysis"), "{out}");
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("option name ")).count(),
        6 + own_book as usize + multipv as usize,
        "{out}"
    );
    let uciok = lines.iter().position(|&l| l == "uciok").expect("uciok");
    assert_eq!(lines[uciok + 1], "readyok");
    assert!(errors(&out).is_empty());
}

#[test]
fn perft_output_has_stockfish_form() {
    let out = run("position startpos\ngo perft 3\n");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 20 + 3, "{out}");
    let mut sum = 0;
    for line in &lines[..20] {
        let (mv, n) = line.split_once(": ").expect("'move: count'");
        assert!(mv.len() == 4);
        sum += n.parse::<u64>().unwrap();
    }
    assert_eq!(sum, 8902);
    assert_eq!(lines[20], "");
    assert_eq!(lines[21], "Nodes searched: 8902");
}

#[test]
fn numbers_take_a_sign_and_are_refused_beyond_64_bits() {
    // A leading '+' is a number, as Rust's own parser had it.
    assert!(run("position startpos\ngo perft +2\n").contains("Nodes searched: 400"));
    // Not numbers: trailing junk, a lone sign, beyond i64 (the clock would not fit).
    for go in ["go perft 2x", "go perft -", "go perft 9223372036854775808", "go wtime 99999999999999999999"] {
        let out = run(&format!("position startpos\n{go}\nisready\n"));
        assert_eq!(errors(&out).len(), 1, "{go}: {out}");
    }
    // Hash takes 1 MiB; what is not a number (or beyond 64 bits) is refused.
    assert!(errors(&run("setoption name Hash value 1\nisready\n")).is_empty());
    for value in ["18446744073709551617", "1.5", "x", ""] {
        let out = run(&format!("setoption name Hash value {value}\nisready\n"));
        assert_eq!(errors(&out).len(), 1, "Hash {value}: {out}");
    }
}

/// The time from sending `go` (after `position` and a `readyok`) to the `bestmove`, and
/// that move.
fn time_to_bestmove(position: &str, go: &str) -> (Duration, String) {
    let mut e = Engine::start();
    e.send(format!("position {position}\nisready\n").as_bytes());
    e.until("readyok");
    let start = Instant::now();
    e.send(format!("{go}\n").as_bytes());
    let lines = e.until("bestmove");
    let elapsed = start.elapsed();
    (elapsed, lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string())
}

/// `go` with only the opponent's clock plays at once, as Stockfish does: the clock of the
/// side to move counts as run out (without the fix it searched until `stop`, past the
/// 60 s `until` waits). A clock of its own, in either order, is still used.
#[test]
fn go_with_only_the_opponents_clock_plays_at_once() {
    let after_e4 = Position::startpos().after(parse_uci_move(&Position::startpos(), "e2e4").unwrap());
    for (position, pos, go) in [
        ("startpos", Position::startpos(), "go btime 1000"),
        ("startpos", Position::startpos(), "go btime 1000 binc 100 winc 100"),
        ("startpos moves e2e4", after_e4, "go wtime 1000 winc 100"),
    ] {
        let (elapsed, mv) = time_to_bestmove(position, go);
        assert!(elapsed < Duration::from_secs(1), "{position}, {go}: bestmove after {elapsed:?}");
        let played = parse_uci_move(&pos, &mv).unwrap_or_else(|e| panic!("{position}, {go}: {mv}: {e}"));
        assert!(legal_move_list(&pos).contains(&played));
    }
    // White's own 2 s: a soft limit of about 50 ms (at least half of it after scaling),
    // which the search does not stop before.
    for go in ["go btime 1000 wtime 2000", "go wtime 2000 btime 1000"] {
        let (elapsed, _) = time_to_bestmove("startpos", go);
        assert!(elapsed >= Duration::from_millis(20), "{go}: bestmove after {elapsed:?}");
    }
}

/// `bench` with a depth that is not a number from 1 to 64 says so and runs nothing, over
/// UCI and from the shell (`minnow bench abc`), instead of running the default depth;
/// `bench 1` runs.
#[test]
fn bench_refuses_a_depth_that_is_not_one_from_1_to_64() {
    let error = "info string error: bench: depth 1 to 64";
    for depth in ["abc", "0", "65", "-3", "1.5", "99999999999999999999"] {
        let out = run(&format!("bench {depth}\nisready\n"));
        assert_eq!(out, format!("{error}\nreadyok\n"), "bench {depth}");
        let shell = Command::new(env!("CARGO_BIN_EXE_minnow")).args(["bench", depth]).output().unwrap();
        assert!(shell.status.success(), "minnow bench {depth}: {shell:?}");
        assert_eq!(String::from_utf8_lossy(&shell.stdout), format!("{error}\n"), "minnow bench {depth}");
    }
    // Not ASCII: refused too, from the shell (over UCI the reader refuses the line).
    let shell = Command::new(env!("CARGO_BIN_EXE_minnow")).args(["bench", "dépth"]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&shell.stdout), format!("{error}\n"));
    let out = run("bench 1\n");
    assert!(errors(&out).is_empty(), "{out}");
    let nodes: u64 = out.lines().last().unwrap().split_whitespace().next().unwrap().parse().unwrap();
    assert!(out.ends_with(" nps\n") && nodes > 16, "{out}");
}

/// Spin values out of range are clamped, as GUIs expect, with an `info string` saying so,
/// and the engine goes on with the clamped value.
#[test]
fn out_of_range_spin_values_are_clamped() {
    let uci = run("uci\n");
    let hash = uci.lines().find(|l| l.starts_with("option name Hash ")).expect("Hash option");
    let max: usize = hash.rsplit(' ').next().unwrap().parse().unwrap();
    for (option, value, clamped) in [
        ("Hash", "64", max),
        ("Hash", "0", 1),
        ("Hash", "-1", 1),
        ("Move Overhead", "9000", 5000),
        ("Move Overhead", "-5", 0),
        ("Threads", "4", 1),
    ] {
        let out =
            run(&format!("setoption name {option} value {value}\nposition startpos\ngo depth 3\nisready\n"));
        let message = format!("info string {option} clamped to {clamped}");
        assert!(out.lines().any(|l| l == message), "{option} {value}: {out}");
        assert!(errors(&out).is_empty(), "{option} {value}: {out}");
        assert!(
            out.lines().any(|l| l.starts_with("bestmove ") && l.len() > "bestmove 0000".len() - 1),
            "{out}"
        );
    }
    // In range: no message.
    let out =
        run(&format!("setoption name Hash value {max}\nsetoption name Move Overhead value 100\nisready\n"));
    assert!(!out.contains("clamped"), "{out}");
}

/// `Clear Hash` empties the transposition table (and the histories, as `ucinewgame` does):
/// a search after it costs exactly the nodes it costs a fresh engine, where the same search
/// after an earlier one, with the table kept, costs a different number.
#[test]
fn clear_hash_empties_the_table() {
    // Nodes of the last `info depth 8` line of the searches in `commands`, sent one search
    // at a time to one engine (each waits for its `bestmove`).
    let nodes = |commands: &[&str]| -> u64 {
        let mut engine = Engine::start();
        let mut lines = Vec::new();
        for command in commands {
            engine.send(command.as_bytes());
            lines = engine.until("bestmove");
        }
        let last = lines.iter().rfind(|l| l.starts_with("info depth 8 ")).expect("depth 8 reached");
        common::info_field(last, "nodes").expect("nodes")
    };
    let search = "position startpos moves e2e4 e7e5\ngo depth 8\n";
    let warm = "position startpos moves e2e4\ngo depth 9\n";
    let fresh = nodes(&[search]);
    let kept = nodes(&[warm, search]);
    let cleared = nodes(&[warm, &format!("setoption name Clear Hash\n{search}")]);
    assert_ne!(kept, fresh, "the earlier search left nothing in the table");
    assert_eq!(cleared, fresh, "Clear Hash left something behind");
}

/// `eval` prints the static evaluation from both points of view.
#[test]
fn eval_prints_the_static_evaluation() {
    let score = |out: &str| -> (i32, i32) {
        let line =
            out.lines().find(|l| l.starts_with("Eval: ")).unwrap_or_else(|| panic!("no Eval line: {out}"));
        let words: Vec<&str> = line.split(' ').collect();
        (words[1].parse().unwrap(), words[8].parse().unwrap())
    };
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    let pos = <minnow::Position as minnow::fen::Fen>::from_fen(fen).unwrap();
    let (stm, white) = score(&run(&format!("position fen {fen}\neval\n")));
    assert_eq!(stm, minnow::static_eval(&pos));
    assert_eq!(white, -stm, "black to move: white's view is the negation");
    // A queen up is worth a lot to the side that has it, whoever is to move.
    let (stm, white) = score(&run("position fen 4k3/8/8/8/8/8/8/Q3K3 b - - 0 1\neval\n"));
    assert!(white > 300 && stm == -white, "{stm} {white}");
}

#[test]
fn position_with_fen_and_moves() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let out = run(&format!("position fen {kiwipete} moves e1g1 a6e2\ngo perft 2\nd\n"));
    assert!(out.contains("Fen: r3k2r/p1ppqpb1/1n2pnp1/3PN3/1p2P3/2N2Q1p/PPPBbPPP/R4RK1 w kq - 0 2"), "{out}");
    // Moves after startpos; CRLF line endings and extra spaces are fine.
    let out = run("position   startpos  moves e2e4 e7e5 g1f3\r\nd\r\n");
    assert!(out.contains("Fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"), "{out}");
    // Promotion with letter.
    let out = run("position fen 8/4P1k1/8/8/8/8/8/4K3 w - - 0 1 moves e7e8n\nd\n");
    assert!(out.contains("Fen: 4N3/6k1/8/8/8/8/8/4K3 b - - 0 1"), "{out}");
}

#[test]
fn bad_input_gets_an_error_line_and_the_engine_keeps_going() {
    let cases = [
        "xyzzy",
        "position",
        "position nowhere",
        "position startpos garbage",
        "position fen",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position startpos moves e2e5",
        "position startpos moves e2e4 e2e4",
        "position fen 8/4P1k1/8/8/8/8/8/4K3 w - - 0 1 moves e7e8",
        "go perft",
        "go perft -1",
        "go perft 99",
        "go perft x",
        "setoption",
        "setoption name Nonsense value 3",
        "setoption name Threads value four",
    ];
    for case in cases {
        let out = run(&format!("position startpos moves d2d4\n{case}\nd\nisready\n"));
        let errs = errors(&out);
        assert_eq!(errs.len(), 1, "{case:?} gave {out}");
        // A failed command leaves the previous position in place.
        assert!(
            out.contains("Fen: rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1"),
            "{case:?} changed the position: {out}"
        );
        assert!(out.ends_with("readyok\n"), "{case:?}: {out}");
    }
    let out = run("position fen 8/8/8/8/8/8/8/8 w - - 0 1\n");
    assert!(out.contains("invalid FEN (placement): a side has no king or more than one"), "{out}");
    let out = run("position startpos moves e2e4 e7e5 e1e3\n");
    assert!(out.contains("move 3 'e1e3': illegal move"), "{out}");
}

#[test]
fn empty_lines_are_ignored() {
    let out = run("\n\n   \n\t\nisready\n");
    assert_eq!(out, "readyok\n");
}

#[test]
fn quit_stops_reading() {
    let out = run("isready\nquit\nisready\n");
    assert_eq!(out, "readyok\n");
}

#[test]
fn end_of_input_means_quit() {
    assert_eq!(run(""), "");
    // A last line without a newline is not a command yet; EOF just ends.
    assert_eq!(run("isready\nisre"), "readyok\n");
}

#[test]
fn non_ascii_and_overlong_lines() {
    let (out, code) = run_bytes(b"\xff\xfe garbage\nisready\n");
    assert_eq!(code, 0);
    assert_eq!(out, "info string error: input line not ASCII, ignored\nreadyok\n");
    let (out, _) = run_bytes("position fen \u{e9}\nisready\n".as_bytes()); // valid UTF-8, not ASCII
    assert_eq!(out, "info string error: input line not ASCII, ignored\nreadyok\n");
    let mut long = vec![b'a'; 100_000];
    long.extend_from_slice(b"\nisready\n");
    let (out, code) = run_bytes(&long);
    assert_eq!(code, 0);
    assert_eq!(out, "info string error: input line too long (16 KiB), ignored\nreadyok\n");
}

#[test]
fn a_whole_game_of_moves_fits() {
    // 200 knight shuffles: a long but legal move list (1000+ bytes per 200 moves).
    let mut cmd = String::from("position startpos moves");
    for i in 0..200 {
        cmd.push_str([" g1f3", " g8f6", " f3g1", " f6g8"][i % 4]);
    }
    let out = run(&format!("{cmd}\nd\n"));
    assert!(out.contains("Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 200 101"), "{out}");
}

#[test]
fn kaggle_rules_option() {
    let out = run(
        "uci\nsetoption name Kaggle Rules value maybe\nsetoption name Kaggle Rules value true\nisready\n",
    );
    assert!(out.lines().any(|l| l == "option name Kaggle Rules type check default false"));
    assert_eq!(errors(&out), ["info string error: setoption: invalid value for Kaggle Rules"]);
    assert!(out.contains("readyok"));
}

#[test]
fn kaggle_rules_decide_a_mate_that_makes_the_clock_100() {
    // Qa8 mates at once but makes the halfmove clock 100: FIDE takes it, the harness would
    // call it a draw, so under Kaggle rules the engine mates a move later instead.
    let go = "position fen 7k/8/6K1/8/8/8/1P6/Q7 w - - 99 80\ngo depth 6\n";
    let fide = run(go);
    assert!(fide.contains("score mate 1 ") && fide.contains("bestmove a1a8"), "{fide}");
    let kaggle = run(&format!("setoption name Kaggle Rules value true\n{go}"));
    assert!(kaggle.contains("score mate 2 ") && kaggle.contains("bestmove b2b"), "{kaggle}");
}
