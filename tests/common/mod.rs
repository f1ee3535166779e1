//! Helpers shared by the integration tests: an in-memory UCI environment.
#![allow(dead_code)]

use minnow::movepick::ContinuationHistory;
use minnow::tt::{BUCKETS_PER_MIB, Bucket};
use minnow::uci::{Env, Flow, Output, Uci};
use std::collections::VecDeque;
use std::time::Instant;

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
