//! Helpers shared by the integration tests: an in-memory UCI environment, and the shipped
//! binary driven over real pipes.
#![allow(dead_code)]

use minnow::movepick::ContinuationHistory;
use minnow::tt::{BUCKETS_PER_MIB, Bucket};
use minnow::uci::{Env, Flow, Output, Uci};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
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
    let mut uci = Uci::new(tt_storage(1), continuation());
    let mut out = Sink::default();
    let mut env = Script::new(&[]);
    for line in lines {
        if uci.handle_line(line, &mut out, &mut env) == Flow::Quit {
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

/// The shipped binary (`CARGO_BIN_EXE_minnow`) over real pipes: the one way the tests drive
/// it, either line by line during a search (`start`, `send`, `until`) or with all of its
/// input at once (`run`). Killed when dropped.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
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
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Engine { child, stdin, stdout }
    }

    /// Writes `bytes` to the engine's input at once.
    pub fn send(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("input still open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix` (60 s at most).
    pub fn until(&mut self, prefix: &str) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut lines = Vec::new();
        loop {
            assert!(Instant::now() < deadline, "no '{prefix}' in {lines:?}");
            let mut line = String::new();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "engine closed output: {lines:?}");
            let done = line.starts_with(prefix);
            lines.push(line.trim_end().to_string());
            if done {
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
        let mut out = Vec::new();
        engine.stdout.read_to_end(&mut out).unwrap();
        writer.join().unwrap();
        let code = engine.wait().code();
        (String::from_utf8(out).expect("output is UTF-8"), code)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
