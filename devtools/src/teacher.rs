//! A teacher engine (Stockfish, or any UCI engine) relabelling training records.
//!
//! `datagen label` hands each record's position to the teacher and keeps the teacher's
//! score in place of the one the record had. Modes:
//!
//! - [`Mode::Eval`]: the `eval` command, Stockfish's static evaluation ("Final
//!   evaluation", the net plus its hybrid corrections), in centipawns of the teacher's
//!   scale (Stockfish's `eval` prints pawns); positions it cannot score (in check) are
//!   dropped.
//! - [`Mode::Depth`] and [`Mode::Nodes`]: `go depth N` / `go nodes N`, the last exact
//!   score of the search; mate scores are dropped, and so is every position whose best
//!   move is a capture or a promotion (the net cannot see what the search saw).
//!
//! Commands are pipelined: one thread writes every position's commands while this one
//! reads the answers in order, so the teacher never waits for a round trip. Stockfish
//! takes the next `position` while it searches and starts the next `go` only once the
//! search before it has finished (`tests` check that the pipelined answers equal one
//! position at a time). No `isready` closes a batch: Stockfish answers it at once, before
//! the searches still queued; each position's answer (its `Final evaluation` line or its
//! `bestmove`) is what ends it. The teacher runs only in the tools, never in the engine or its
//! tests unless it is installed.

use crate::format::Record;
use minnow::Position;
use minnow::fen::Fen;
use minnow::movegen::parse_uci_move;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdout, Command, Stdio};

/// What the teacher is asked for each position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Static evaluation (`eval`).
    Eval,
    /// A search to this depth (`go depth N`).
    Depth(u32),
    /// A search of this many nodes (`go nodes N`).
    Nodes(u64),
}

impl Mode {
    /// Parses `eval`, `depth:N` or `nodes:N`.
    pub fn parse(text: &str) -> Result<Mode, String> {
        let bad = || format!("--mode {text}: expected eval, depth:N or nodes:N");
        match text.split_once(':') {
            None if text == "eval" => Ok(Mode::Eval),
            Some(("depth", n)) => n.parse().ok().filter(|&d| d > 0).map(Mode::Depth).ok_or_else(bad),
            Some(("nodes", n)) => n.parse().ok().filter(|&d| d > 0).map(Mode::Nodes).ok_or_else(bad),
            _ => Err(bad()),
        }
    }

    fn command(self) -> String {
        match self {
            Mode::Eval => "eval".into(),
            Mode::Depth(d) => format!("go depth {d}"),
            Mode::Nodes(n) => format!("go nodes {n}"),
        }
    }
}

/// Scores are clamped to this (centipawns) before they are stored.
pub const MAX_LABEL: i32 = 10_000;

/// One teacher's answer for one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A score in centipawns from the side to move's view.
    Score(i32),
    /// Nothing usable (in check, a mate score, a noisy best move).
    Dropped,
}

/// A running teacher process.
pub struct Teacher {
    child: Child,
    out: BufReader<ChildStdout>,
}

impl Teacher {
    /// Starts `program`, checks it speaks UCI and sets `options` (`name`, `value` pairs,
    /// e.g. `("Threads", "1")`).
    pub fn start(program: &str, options: &[(String, String)]) -> Result<Teacher, String> {
        let mut child = Command::new(program)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("teacher {program}: {e}"))?;
        let out = BufReader::new(child.stdout.take().ok_or("teacher: no stdout")?);
        let mut t = Teacher { child, out };
        let mut init = String::from("uci\n");
        for (name, value) in options {
            init += &format!("setoption name {name} value {value}\n");
        }
        init += "isready\n";
        t.send(&init)?;
        t.read_until("readyok")?;
        Ok(t)
    }

    fn send(&mut self, text: &str) -> Result<(), String> {
        let stdin = self.child.stdin.as_mut().ok_or("teacher: stdin closed")?;
        stdin.write_all(text.as_bytes()).and_then(|_| stdin.flush()).map_err(|e| format!("teacher: {e}"))
    }

    fn read_line(&mut self, line: &mut String) -> Result<(), String> {
        line.clear();
        match self.out.read_line(line) {
            Ok(0) => Err("teacher: ended unexpectedly".into()),
            Ok(_) => Ok(()),
            Err(e) => Err(format!("teacher: {e}")),
        }
    }

    fn read_until(&mut self, word: &str) -> Result<(), String> {
        let mut line = String::new();
        loop {
            self.read_line(&mut line)?;
            if line.trim() == word {
                return Ok(());
            }
        }
    }

    /// The teacher's answers for `records`, in order (pipelined, see the module).
    pub fn label(&mut self, records: &[Record], mode: Mode) -> Result<Vec<Answer>, String> {
        let positions: Vec<Position> = records.iter().map(Record::position).collect();
        let mut script = String::with_capacity(records.len() * 100);
        for pos in &positions {
            script += &format!("position fen {}\n{}\n", pos.fen(), mode.command());
        }
        let mut stdin = self.child.stdin.take().ok_or("teacher: stdin closed")?;
        let (answers, stdin) = std::thread::scope(|s| {
            let writer = s.spawn(move || {
                let ok = stdin.write_all(script.as_bytes()).and_then(|_| stdin.flush());
                (ok, stdin)
            });
            let answers = self.read_answers(&positions, mode);
            let (ok, stdin) = writer.join().expect("the writer thread does not panic");
            (ok.map_err(|e| format!("teacher: {e}")).and(answers), stdin)
        });
        self.child.stdin = Some(stdin);
        answers
    }

    fn read_answers(&mut self, positions: &[Position], mode: Mode) -> Result<Vec<Answer>, String> {
        let mut answers = Vec::with_capacity(positions.len());
        let mut line = String::new();
        let mut last: Option<Answer> = None;
        while answers.len() < positions.len() {
            self.read_line(&mut line)?;
            let pos = &positions[answers.len()];
            match mode {
                Mode::Eval => {
                    if let Some(rest) = line.strip_prefix("Final evaluation") {
                        answers.push(parse_eval(rest, pos));
                    }
                }
                Mode::Depth(_) | Mode::Nodes(_) => {
                    if line.starts_with("info") {
                        if let Some(a) = parse_info(&line) {
                            last = Some(a);
                        }
                    } else if let Some(best) = line.strip_prefix("bestmove") {
                        let noisy = best
                            .split_whitespace()
                            .next()
                            .and_then(|m| parse_uci_move(pos, m).ok())
                            .is_none_or(|m| m.is_noisy());
                        answers.push(if noisy { Answer::Dropped } else { last.unwrap_or(Answer::Dropped) });
                        last = None;
                    }
                }
            }
        }
        Ok(answers)
    }
}

impl Drop for Teacher {
    fn drop(&mut self) {
        let _ = self.send("quit\n");
        let _ = self.child.wait();
    }
}

/// `… +0.25 (white side) …` after "Final evaluation": centipawns from the side to move's
/// view; `none (in check)` and anything unreadable are dropped.
pub fn parse_eval(rest: &str, pos: &Position) -> Answer {
    let Some(pawns) = rest.split_whitespace().next().and_then(|w| w.parse::<f64>().ok()) else {
        return Answer::Dropped;
    };
    if !pawns.is_finite() || !rest.contains("white side") {
        return Answer::Dropped;
    }
    let white = (pawns * 100.0).round().clamp(-f64::from(MAX_LABEL), f64::from(MAX_LABEL)) as i32;
    Answer::Score(if pos.side_to_move() == minnow::Color::White { white } else { -white })
}

/// The score of an `info` line (side to move's view), if it is an exact centipawn score;
/// a mate score drops the position, a bound is not an answer.
pub fn parse_info(line: &str) -> Option<Answer> {
    let mut words = line.split_whitespace();
    while let Some(w) = words.next() {
        if w == "score" {
            let kind = words.next()?;
            let value: i32 = words.next()?.parse().ok()?;
            if matches!(words.next(), Some("lowerbound" | "upperbound")) {
                return None;
            }
            return Some(match kind {
                "cp" => Answer::Score(value.clamp(-MAX_LABEL, MAX_LABEL)),
                _ => Answer::Dropped,
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_parse() {
        assert_eq!(Mode::parse("eval"), Ok(Mode::Eval));
        assert_eq!(Mode::parse("depth:6"), Ok(Mode::Depth(6)));
        assert_eq!(Mode::parse("nodes:1000"), Ok(Mode::Nodes(1000)));
        for bad in ["", "evil", "depth:", "depth:0", "nodes:x", "nodes:-1", "eval:1"] {
            assert!(Mode::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn eval_lines_are_read_from_the_side_to_moves_view() {
        let white = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        let black = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1").unwrap();
        let line = "       +1.23 (white side) [with scaled NNUE, hybrid, ...]";
        assert_eq!(parse_eval(line, &white), Answer::Score(123));
        assert_eq!(parse_eval(line, &black), Answer::Score(-123));
        assert_eq!(parse_eval("       -0.07 (white side)", &white), Answer::Score(-7));
        assert_eq!(parse_eval(": none (in check)", &white), Answer::Dropped);
        assert_eq!(parse_eval("       nan (white side)", &white), Answer::Dropped);
    }

    #[test]
    fn info_lines_give_exact_scores_only() {
        let exact = "info depth 7 seldepth 9 multipv 1 score cp -35 nodes 1000 nps 1 pv e2e4";
        assert_eq!(parse_info(exact), Some(Answer::Score(-35)));
        assert_eq!(parse_info("info depth 7 score cp 40 upperbound nodes 9"), None);
        assert_eq!(parse_info("info depth 7 score cp 40 lowerbound nodes 9"), None);
        assert_eq!(parse_info("info depth 9 score mate 3 nodes 9 pv a1a2"), Some(Answer::Dropped));
        assert_eq!(parse_info("info string NNUE evaluation using nn.nnue enabled"), None);
        assert_eq!(parse_info("info depth 1 score cp 99999 nodes 1"), Some(Answer::Score(MAX_LABEL)));
    }

    /// With Stockfish installed (`/usr/games/stockfish`), the pipelined answers equal
    /// those of one position at a time; without it there is nothing to check.
    #[test]
    fn pipelined_answers_equal_one_at_a_time() {
        let program = "/usr/games/stockfish";
        if !std::path::Path::new(program).exists() {
            eprintln!("skipped: no {program}");
            return;
        }
        let fens = [
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w - - 0 1",
            "8/5k2/8/3K4/8/8/8/7R b - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
            "4k3/8/8/8/8/8/4q3/4K3 w - - 0 1",
        ];
        let records: Vec<Record> =
            fens.iter().map(|f| Record::new(&Position::from_fen(f).unwrap(), 0, 1, 0)).collect();
        let options = [("Threads".to_string(), "1".to_string()), ("Hash".to_string(), "1".to_string())];
        for mode in [Mode::Eval, Mode::Depth(3)] {
            let together = Teacher::start(program, &options).unwrap().label(&records, mode).unwrap();
            let mut alone = Vec::new();
            let mut t = Teacher::start(program, &options).unwrap();
            for r in &records {
                alone.extend(t.label(std::slice::from_ref(r), mode).unwrap());
            }
            assert_eq!(together, alone, "{mode:?}");
            assert_eq!(together.len(), records.len());
            // The white king in check (the last position) has no static evaluation.
            if mode == Mode::Eval {
                assert_eq!(together[3], Answer::Dropped);
            }
            // White is a rook up in the second position, black to move.
            assert!(matches!(together[1], Answer::Score(s) if s < -300), "{mode:?}: {:?}", together[1]);
        }
    }
}
