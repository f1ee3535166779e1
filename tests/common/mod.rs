//! Helpers shared by the integration tests: an in-memory UCI environment, and the shipped
//! binary driven over real pipes.
#![allow(dead_code)]

use minnow::Position;
use minnow::fen::Fen;
use minnow::history::ContinuationHistory;
use minnow::tt::{BUCKETS_PER_MIB, Bucket};
use minnow::uci::{Env, Flow, Output, Uci};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Fresh transposition-table storage of `mib` MiB (leaked: tests are short-lived).
pub fn tt_storage(mib: usize) -> &'static mut [Bucket] {
    Box::leak(vec![Bucket::EMPTY; mib * BUCKETS_PER_MIB].into_boxed_slice())
}

/// Fresh continuation-history storage (leaked, as above).
pub fn continuation() -> &'static mut ContinuationHistory {
    Box::leak(Box::new(ContinuationHistory::EMPTY))
}

/// Collects output.
#[derive(Default)]
pub struct Sink(pub Vec<u8>);

impl Output for Sink {
    fn write(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }
}

impl Sink {
    /// The output so far as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0).into_owned()
    }
}

/// Input lines queued in advance (delivered during searches too); end of queue = no
/// input waiting, or `quit` when a blocking read is asked for.
pub struct Script {
    lines: VecDeque<String>,
    current: String,
    start: Instant,
}

impl Script {
    /// A script with these pending input lines.
    pub fn new(lines: &[&str]) -> Script {
        Script {
            lines: lines.iter().map(|s| s.to_string()).collect(),
            current: String::new(),
            start: Instant::now(),
        }
    }
}

impl Env for Script {
    fn now_ms(&mut self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    fn read_line(&mut self, block: bool) -> Option<&str> {
        match self.lines.pop_front() {
            Some(line) => {
                self.current = line;
                Some(&self.current)
            }
            None if block => Some("quit"),
            None => None,
        }
    }
}

/// Runs UCI lines in-process (1 MiB hash, no input while searching) and returns the output.
pub fn run(lines: &[&str]) -> String {
    run_with_book(minnow::book::BOOK, lines)
}

/// [`run`] with `book` as the opening book instead of the embedded one.
pub fn run_with_book(book: &'static [u8], lines: &[&str]) -> String {
    let mut uci = Uci::new(tt_storage(1), continuation());
    let mut out = Sink::default();
    let mut env = Script::new(&[]);
    for line in lines {
        if uci.handle_line_with_book(line, &mut out, &mut env, book) == Flow::Quit {
            break;
        }
    }
    out.text()
}

/// The move of the last `bestmove` line of `output`.
pub fn bestmove(output: &str) -> &str {
    let line = output.lines().rev().find(|l| l.starts_with("bestmove ")).expect("a bestmove line");
    line.split_whitespace().nth(1).unwrap()
}

/// How long [`Engine::until`] waits for the line it wants: far beyond any test's search,
/// so reaching it means the engine hangs or never says it.
pub const UNTIL_TIMEOUT: Duration = Duration::from_secs(60);

/// The shipped binary (`CARGO_BIN_EXE_minnow`) over real pipes: the one way the tests drive
/// it, either line by line during a search (`start`, `send`, `until`) or with all of its
/// input at once (`run`). A thread reads its output line by line into a channel, so a
/// wait for a line that never comes ends with a failure after [`UNTIL_TIMEOUT`] instead
/// of blocking. Killed when dropped.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Output lines as written (each with its `\n`, except a last one without it).
    lines: Receiver<Vec<u8>>,
}

impl Engine {
    /// Starts the binary with piped input and output.
    pub fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_minnow"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("engine starts");
        let stdin = child.stdin.take();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (send, lines) = channel();
        std::thread::spawn(move || {
            loop {
                let mut line = Vec::new();
                match stdout.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if send.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Engine { child, stdin, lines }
    }

    /// Writes `bytes` to the engine's input at once.
    pub fn send(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("input still open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`.
    pub fn until(&mut self, prefix: &str) -> Vec<String> {
        self.until_line(&format!("a line starting with '{prefix}'"), |l| l.starts_with(prefix))
    }

    /// Lines up to and including the first for which `done` is true; fails if the engine
    /// closes its output or says nothing that fits within [`UNTIL_TIMEOUT`] (`what` names
    /// the line in the message).
    pub fn until_line(&mut self, what: &str, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + UNTIL_TIMEOUT;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(line) => String::from_utf8(line).expect("output is UTF-8"),
                Err(RecvTimeoutError::Timeout) => panic!("no {what} within {UNTIL_TIMEOUT:?}: {lines:?}"),
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("engine closed output before {what}: {lines:?}")
                }
            };
            let line = line.trim_end().to_string();
            let found = done(&line);
            lines.push(line);
            if found {
                return lines;
            }
        }
    }

    /// Waits for the engine to exit by itself; its exit status.
    pub fn wait(&mut self) -> std::process::ExitStatus {
        self.child.wait().unwrap()
    }

    /// Runs the binary on `input`, then closes its input (end of input means quit), and
    /// returns all it printed and its exit code. The input is written from another thread,
    /// so that a long one cannot deadlock against the engine's output.
    pub fn run(input: &[u8]) -> (String, Option<i32>) {
        let mut engine = Engine::start();
        let mut stdin = engine.stdin.take().unwrap();
        let input = input.to_vec();
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
        let out: Vec<u8> = engine.lines.iter().flatten().collect();
        writer.join().unwrap();
        let code = engine.wait().code();
        (String::from_utf8(out).expect("output is UTF-8"), code)
    }
}

/// The number after the word `field` in an `info` line (`time`, `nodes`, …), if it has one.
pub fn info_field(line: &str, field: &str) -> Option<u64> {
    let mut words = line.split_whitespace();
    words.find(|&w| w == field)?;
    words.next()?.parse().ok()
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ---- Position sets ----

/// A set of positions: its name, its text (one position a line) and how many
/// whitespace-separated fields of a line are the FEN (4 for EPD without move counters).
pub struct PositionSet {
    pub name: String,
    pub text: String,
    pub fields: usize,
}

impl PositionSet {
    /// The FEN of every line (the first `fields` fields; perft-suite lines end at `;`).
    pub fn fens(&self) -> impl Iterator<Item = String> + '_ {
        self.text.lines().filter(|l| !l.trim().is_empty()).map(|line| {
            let fen = line.split(';').next().unwrap();
            fen.split_whitespace().take(self.fields).collect::<Vec<_>>().join(" ")
        })
    }
}

/// The position sets in the repository (`tests/data/`, sources in its README.md): 2,000
/// opening positions, 1,974 endgames, the 2,000 Kaggle openings and the 126 perft-suite
/// positions.
pub fn repo_position_sets() -> Vec<PositionSet> {
    let set = |name: &str, text: &str, fields| PositionSet { name: name.into(), text: text.into(), fields };
    vec![
        set("tests/data/popular_sample.epd", include_str!("../data/popular_sample.epd"), 4),
        set("tests/data/endgames_sample.epd", include_str!("../data/endgames_sample.epd"), 6),
        set("tests/data/kaggle_openings.epd", include_str!("../data/kaggle_openings.epd"), 6),
        set("tests/data/perftsuite.epd", include_str!("../data/perftsuite.epd"), 6),
    ]
}

/// The whole shared position sets (`../shared/data/`, beside the repository): 200,000
/// opening positions, 157,846 endgames and the Kaggle openings. Those not there are left
/// out with a line on stderr that says so (`skipped: ../shared/data/... not found`), and a
/// test then checks only the repository's samples of them.
pub fn shared_position_sets() -> Vec<PositionSet> {
    // Written to stderr directly, not with `eprintln!`, which the test harness captures
    // (and shows only for a failed test): a skip shows in every run.
    let skipped = |what: &str| {
        let line = format!("skipped: {what} not found; checked the samples in tests/data only\n");
        let _ = std::io::stderr().write_all(line.as_bytes());
    };
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    if !dir.is_dir() {
        skipped("../shared/data");
        return Vec::new();
    }
    let mut sets = Vec::new();
    for (file, fields) in [
        ("positions/popularpos_lichess_v3.epd", 4),
        ("positions/endgames.epd", 6),
        ("openings/kaggle_openings.epd", 6),
    ] {
        match std::fs::read_to_string(dir.join(file)) {
            Ok(text) => sets.push(PositionSet { name: format!("../shared/data/{file}"), text, fields }),
            Err(_) => skipped(&format!("../shared/data/{file}")),
        }
    }
    sets
}

/// The same position with colours swapped and the board mirrored top to bottom.
pub fn mirror_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let swap = |s: &str| {
        s.chars()
            .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
            .collect::<String>()
    };
    let placement: Vec<String> = f[0].split('/').rev().map(swap).collect();
    let side = if f[1] == "w" { "b" } else { "w" };
    let castling = if f[2] == "-" {
        "-".to_string()
    } else {
        let s = swap(f[2]);
        let mut order: Vec<char> = s.chars().collect();
        order.sort_by_key(|c| "KQkq".find(*c));
        order.into_iter().collect()
    };
    let ep = if f[3] == "-" {
        "-".to_string()
    } else {
        let b = f[3].as_bytes();
        format!("{}{}", b[0] as char, (b'1' + b'8' - b[1]) as char)
    };
    let mut fields = vec![placement.join("/"), side.to_string(), castling, ep];
    fields.extend(f[4..].iter().map(|s| s.to_string()));
    fields.join(" ")
}

/// Checks `evaluate(position) == evaluate(mirror)` exactly on every position of `set`
/// (each must parse); returns the number of positions checked.
pub fn check_colour_symmetry(set: &PositionSet, evaluate: fn(&Position) -> i32) -> usize {
    let mut n = 0;
    for fen in set.fens() {
        let pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{}: {fen}: {e}", set.name));
        let mirrored = mirror_fen(&fen);
        let mirror =
            Position::from_fen(&mirrored).unwrap_or_else(|e| panic!("{}: {mirrored}: {e}", set.name));
        let (a, b) = (evaluate(&pos), evaluate(&mirror));
        assert_eq!(a, b, "{}: {fen} evaluates to {a}, its mirror {mirrored} to {b}", set.name);
        n += 1;
    }
    n
}

/// [`check_colour_symmetry`] over every position of the repository's sets (all 6,100 of
/// them, or it fails) and of the whole shared sets when they are beside the repository.
pub fn check_colour_symmetry_of_every_set(evaluate: fn(&Position) -> i32) {
    let n: usize = repo_position_sets().iter().map(|set| check_colour_symmetry(set, evaluate)).sum();
    assert_eq!(n, 6100, "positions checked in tests/data");
    for set in shared_position_sets() {
        let checked = check_colour_symmetry(&set, evaluate);
        eprintln!("{}: {checked} positions symmetric", set.name);
        assert!(checked >= 2000, "{}: {checked}", set.name);
    }
}
