//! The UCI front end: parses commands, keeps the game, prints answers.
//!
//! It is written against the [`Output`] trait so that the same code serves the shipped
//! binary (raw `write` syscalls) and the tests (a byte vector). Bad input never panics and
//! never stops the engine: it is answered with `info string error: …` and ignored.

use crate::bench::{BENCH_DEPTH, BENCH_POSITIONS};
use crate::book;
use crate::fen::Fen;
use arrayvec::ArrayVec;
use minnow_engine::board::Position;
use minnow_engine::defs::STARTPOS;
use minnow_engine::history::ContinuationHistory;
use minnow_engine::movegen::parse_uci_move;
use minnow_engine::perft;
use minnow_engine::rules::Rules;
use minnow_engine::score::MATE;
use minnow_engine::search::{MAX_HISTORY, Poll, Report, SearchHost, SearchResult, Searcher};
use minnow_engine::time::Limits;
use minnow_engine::tt::{Bound, Bucket, Table};
use minnow_engine::types::Move;

/// The engine's name and version as a literal, for `concat!` ([`ENGINE_NAME`] and the
/// `uci` answer).
macro_rules! engine_name {
    () => {
        concat!("minnow ", env!("CARGO_PKG_VERSION"))
    };
}

/// Engine name and version (`minnow 0.1.0`). `id name` adds [`BUILD`] and the evaluation's
/// name ([`minnow_engine::EVAL_NAME`]), so that PGNs and GUIs can tell builds and nets apart:
/// `id name minnow 0.1.0 8bb0d65 gen11`.
pub const ENGINE_NAME: &str = engine_name!();
/// The build: `git describe --always --dirty` at build time (`frontend/build.rs`).
pub const BUILD: &str = env!("MINNOW_BUILD");
/// Deepest `go perft` accepted (perft 12 of the start position is already 6e16 nodes).
pub const MAX_PERFT_DEPTH: u32 = 15;

/// Most moves accepted after `position … moves` (the harness ends games at 999 plies).
pub const MAX_GAME_MOVES: usize = MAX_HISTORY;
/// Default `Move Overhead` in milliseconds.
pub const DEFAULT_MOVE_OVERHEAD: u64 = 20;
/// Default `Hash` in MiB.
pub const DEFAULT_HASH_MIB: usize = 1;
/// Largest `go mate N` taken as asked (a larger N is this one: no search is that deep).
pub const MAX_MATE_MOVES: i32 = 64;

/// Where the front end writes. Output is line-oriented; [`Output::flush`] is called after
/// every command so that a GUI sees answers at once.
///
/// The front end takes it (and [`Env`]) as a trait object, not a generic: a generic would
/// be compiled in the crate that names the concrete type, the binary's, at its speed
/// setting instead of this crate's size setting.
pub trait Output {
    /// Appends bytes.
    fn write(&mut self, bytes: &[u8]);

    /// Pushes buffered bytes out.
    fn flush(&mut self) {}
}

impl dyn Output + '_ {
    /// Appends text; chainable. Out of line: it has dozens of call sites (−30 B).
    #[inline(never)]
    pub fn put(&mut self, text: &str) -> &mut Self {
        self.write(text.as_bytes());
        self
    }

    /// Appends a decimal number; chainable.
    pub fn num(&mut self, n: u64) -> &mut Self {
        self.write(minnow_engine::defs::decimal(n, &mut [0; 20]));
        self
    }

    /// Appends a signed decimal number; chainable.
    pub fn signed(&mut self, n: i32) -> &mut Self {
        if n < 0 {
            self.put("-");
        }
        self.num(u64::from(n.unsigned_abs()))
    }
}

/// Where input comes from: the clock and non-blocking (or blocking) line reads.
pub trait Env {
    /// Milliseconds on a monotonic clock.
    fn now_ms(&mut self) -> u64;
    /// The next complete input line, without its line ending. With `block` false, `None`
    /// means nothing is waiting; with `block` true it waits. End of input reads as `quit`.
    fn read_line(&mut self, block: bool) -> Option<&str>;
    /// A problem found while reading input (a line that was not UTF-8 or too long),
    /// reported once: the front end prints it as an error line.
    fn take_error(&mut self) -> Option<&'static str> {
        None
    }
}

/// Whether the engine should keep reading commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep going.
    Continue,
    /// `quit` was received.
    Quit,
}

/// The start position, read from [`STARTPOS`] by the FEN reader the binary holds anyway
/// (smaller than linking `Position::startpos` too). STARTPOS always parses (tested).
fn start_position() -> Position {
    Position::from_fen(STARTPOS).unwrap_or_else(|_| Position::empty())
}

/// Printable prefix of a token (at most 40 bytes, cut at a character boundary), so that
/// an error line quoting input stays short.
fn excerpt(text: &str) -> &str {
    let mut end = text.len().min(40);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.get(..end).unwrap_or("")
}

/// The UCI engine state.
pub struct Uci {
    position: Position,
    /// The game's first position and its moves since, which led to `position`.
    start: Position,
    moves: ArrayVec<Move, MAX_GAME_MOVES>,
    /// Repetition keys (under the searcher's rules) of the positions before `position`,
    /// oldest first.
    history: ArrayVec<u64, MAX_HISTORY>,
    searcher: Searcher,
    ponder: bool,
    /// `OwnBook`: answer from the opening book in a game's first moves ([`book`]).
    own_book: bool,
    move_overhead: u64,
}

impl Uci {
    /// A front end set to the start position, with a transposition table over `tt_storage`
    /// (of which [`DEFAULT_HASH_MIB`] MiB are used until `setoption name Hash`) and the
    /// continuation history in `continuation`.
    #[inline(never)]
    pub fn new(tt_storage: &'static mut [Bucket], continuation: &'static mut ContinuationHistory) -> Uci {
        Uci {
            position: start_position(),
            start: start_position(),
            moves: ArrayVec::new(),
            history: ArrayVec::new(),
            searcher: Searcher::new(Table::new(tt_storage, DEFAULT_HASH_MIB), continuation),
            ponder: false,
            own_book: false,
            move_overhead: DEFAULT_MOVE_OVERHEAD,
        }
    }

    /// The current position (after `position …`).
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Handles one input line (without its newline).
    pub fn handle_line(&mut self, line: &str, out: &mut dyn Output, env: &mut dyn Env) -> Flow {
        self.handle_line_with_book(line, out, env, book::BOOK)
    }

    /// [`Uci::handle_line`] with `book` (an `MBK1` file) as the opening book instead of the
    /// embedded [`book::BOOK`]: for the tests, which hold the full book where the shipped
    /// build embeds none. The book is an argument, not a field, so that in the shipped build,
    /// where every call passes the embedded constant, the optimizer folds an empty book's
    /// probes away (as a field it costs 550 B of code).
    pub fn handle_line_with_book(
        &mut self,
        line: &str,
        out: &mut dyn Output,
        env: &mut dyn Env,
        book: &[u8],
    ) -> Flow {
        let mut tokens = line.split_ascii_whitespace();
        let flow = match tokens.next() {
            None => Flow::Continue,
            Some("uci") => {
                // Constant text in as few pieces as possible: each piece is a call.
                out.put(concat!("id name ", engine_name!(), " ", env!("MINNOW_BUILD"), " "))
                    .put(minnow_engine::EVAL_NAME)
                    .put("\nid author the minnow developers\noption name Hash type spin default ")
                    .num(DEFAULT_HASH_MIB as u64)
                    .put(" min 1 max ")
                    .num(self.searcher.tt.max_mib() as u64)
                    .put(concat!(
                        "\noption name Threads type spin default 1 min 1 max 1",
                        "\noption name Ponder type check default false",
                    ));
                // OwnBook only with a book compiled in to answer from (the shipped build
                // embeds none since gen13).
                if book::BOOK.len() > book::HEADER {
                    out.put("\noption name OwnBook type check default false");
                }
                #[cfg(feature = "analysis")]
                out.put("\noption name MultiPV type spin default 1 min 1 max ")
                    .num(minnow_engine::search::MAX_MULTIPV as u64);
                out.put("\noption name Move Overhead type spin default ")
                .num(DEFAULT_MOVE_OVERHEAD)
                .put(" min 0 max 5000\noption name Kaggle Rules type check default false\noption name Clear Hash type button\n");
                #[cfg(feature = "tune")]
                for t in minnow_engine::params::tune::ALL {
                    out.put("option name ").put(t.name).put(" type spin default ").signed(t.default);
                    out.put(" min ").signed(t.min).put(" max ").signed(t.max).put("\n");
                }
                out.put("uciok\n");
                Flow::Continue
            }
            Some("isready") => {
                out.put("readyok\n");
                Flow::Continue
            }
            Some("ucinewgame") => {
                self.position = start_position();
                self.start = self.position;
                self.moves.clear();
                self.history.clear();
                self.searcher.clear();
                Flow::Continue
            }
            Some("position") => {
                self.cmd_position(tokens, out);
                Flow::Continue
            }
            Some("go") => self.cmd_go(tokens, out, env, book),
            Some("setoption") => {
                self.cmd_setoption(tokens, out);
                Flow::Continue
            }
            Some("bench") => {
                self.bench_command(tokens.next(), out, env);
                Flow::Continue
            }
            Some("d") => {
                out.put("Fen: ").put(&self.position.fen()).put("\n");
                Flow::Continue
            }
            Some("eval") => {
                // The static evaluation, as the search sees it, from both views.
                let score = minnow_engine::static_eval(&self.position);
                let white = if self.position.side_to_move() == minnow_engine::types::Color::White {
                    score
                } else {
                    -score
                };
                out.put("Eval: ")
                    .signed(score)
                    .put(" cp for the side to move, ")
                    .signed(white)
                    .put(" cp for white\n");
                Flow::Continue
            }
            Some("stop" | "ponderhit") => Flow::Continue, // nothing running: nothing to do
            Some("quit") => Flow::Quit,
            Some(other) => {
                error(out).put("unknown command '").put(excerpt(other)).put("'\n");
                Flow::Continue
            }
        };
        out.flush();
        flow
    }

    /// `position startpos|fen <fen> [moves <m1> …]`. On any error the position is left as
    /// it was, so a bad command cannot leave the engine half-way through a game.
    #[inline(never)]
    fn cmd_position<'a>(&mut self, mut tokens: impl Iterator<Item = &'a str>, out: &mut dyn Output) {
        let mut pos = match tokens.next() {
            Some("startpos") => {
                match tokens.next() {
                    None | Some("moves") => {}
                    Some(other) => {
                        error(out)
                            .put("position: unexpected '")
                            .put(excerpt(other))
                            .put("' after startpos\n");
                        return;
                    }
                }
                start_position()
            }
            Some("fen") => {
                // The FEN is every token up to "moves" (at most six fields).
                let mut fen = arrayvec::ArrayString::<128>::new();
                for token in tokens.by_ref() {
                    if token == "moves" {
                        break;
                    }
                    if fen.try_push_str(token).is_err() || fen.try_push(' ').is_err() {
                        error(out).put("position: FEN too long\n");
                        return;
                    }
                }
                match Position::from_fen(&fen) {
                    Ok(pos) => pos,
                    Err(e) => {
                        error(out)
                            .put("position: invalid FEN (")
                            .put(e.field.name())
                            .put("): ")
                            .put(e.reason)
                            .put("\n");
                        return;
                    }
                }
            }
            Some(other) => {
                error(out).put("position: expected startpos or fen, got '").put(excerpt(other)).put("'\n");
                return;
            }
            None => {
                error(out).put("position: expected startpos or fen\n");
                return;
            }
        };
        let start = pos;
        let mut moves = ArrayVec::new();
        for (i, text) in tokens.enumerate() {
            if i >= MAX_GAME_MOVES {
                error(out).put("position: more than ").num(MAX_GAME_MOVES as u64).put(" moves\n");
                return;
            }
            match parse_uci_move(&pos, text) {
                Ok(m) => {
                    moves.push(m);
                    pos.make(m);
                }
                Err(e) => {
                    error(out)
                        .put("position: move ")
                        .num(i as u64 + 1)
                        .put(" '")
                        .put(excerpt(text))
                        .put("': ")
                        .put(e.reason())
                        .put("\n");
                    return;
                }
            }
        }
        self.position = pos;
        self.start = start;
        self.moves = moves;
        self.rebuild_history();
    }

    /// Recomputes the repetition keys of the game's positions under the rules in force.
    fn rebuild_history(&mut self) {
        self.history.clear();
        let mut pos = self.start;
        for (i, &m) in self.moves.iter().enumerate() {
            self.history.push(self.searcher.rules.repetition_key(&pos, i == 0));
            pos.make(m);
        }
    }

    /// `go …`: perft, or a search with the given limits. Unknown or malformed parameters are
    /// reported and skipped; the search still runs and always ends with `bestmove`.
    #[inline(never)]
    fn cmd_go<'a>(
        &mut self,
        mut tokens: impl Iterator<Item = &'a str>,
        out: &mut dyn Output,
        env: &mut dyn Env,
        book: &[u8],
    ) -> Flow {
        let white = self.position.side_to_move() == minnow_engine::types::Color::White;
        let mut limits = Limits::default();
        // `searchmoves m1 m2 …` runs until a token that is another parameter.
        #[cfg(feature = "analysis")]
        let mut in_searchmoves = false;
        #[cfg(feature = "analysis")]
        self.searcher.analysis.new_go();
        while let Some(token) = tokens.next() {
            #[cfg(feature = "analysis")]
            {
                let parameter = GO_NUMBERS.contains(&token)
                    || matches!(token, "infinite" | "ponder" | "perft" | "mate" | "searchmoves");
                in_searchmoves &= !parameter;
                if in_searchmoves {
                    match parse_uci_move(&self.position, token) {
                        Ok(m) => {
                            let moves = &mut self.searcher.analysis.root_moves;
                            if !moves.contains(&m) {
                                moves.push(m); // at most one of each legal move: it fits
                            }
                        }
                        Err(e) => {
                            error(out)
                                .put("go searchmoves: '")
                                .put(excerpt(token))
                                .put("': ")
                                .put(e.reason())
                                .put("\n");
                        }
                    }
                    continue;
                }
                if token == "searchmoves" {
                    in_searchmoves = true;
                    continue;
                }
                if token == "mate" {
                    match tokens.next().and_then(integer) {
                        Some(n) if n > 0 => {
                            self.searcher.analysis.mate = n.min(i64::from(MAX_MATE_MOVES)) as i32
                        }
                        _ => {
                            error(out).put("go: ignored 'mate' (no number above 0)\n");
                        }
                    }
                    continue;
                }
            }
            if token == "perft" {
                let depth = match tokens.next().and_then(integer) {
                    Some(d) if (0..=i64::from(MAX_PERFT_DEPTH)).contains(&d) => d as u32,
                    _ => {
                        error(out).put("go perft: depth 0 to ").num(MAX_PERFT_DEPTH as u64).put("\n");
                        return Flow::Continue;
                    }
                };
                let total = perft::divide(&self.position, depth, |m, n| {
                    out.put(&m.uci()).put(": ").num(n).put("\n");
                });
                out.put("\nNodes searched: ").num(total).put("\n\n");
                return Flow::Continue;
            }
            // The parameters with a number, found once by their index in a table: matching
            // the name again to store the value doubled the string comparisons.
            if let Some(i) = GO_NUMBERS.iter().position(|&name| name == token) {
                // Negative values (a clock run out) count as 0.
                let Some(value) = tokens.next().and_then(integer) else {
                    error(out).put("go: ignored '").put(token).put("' (no number)\n");
                    continue;
                };
                let v = value.max(0) as u64;
                // wtime and winc (even indices below 4) are white's, btime and binc black's.
                let ours = i >= 4 || (i % 2 == 0) == white;
                match i {
                    // Only the opponent's clock (so far): ours counts as run out and the
                    // move comes at once, as Stockfish plays it; a clock of ours, before
                    // or after, still counts.
                    0 | 1 if !ours => {
                        limits.time.get_or_insert(0);
                    }
                    _ if !ours => {}
                    0 | 1 => limits.time = Some(v),
                    2 | 3 => limits.increment = v,
                    4 => limits.moves_to_go = Some(v.max(1)),
                    5 => limits.movetime = Some(v),
                    6 => limits.depth = Some(v.clamp(1, 127) as i32),
                    _ => limits.nodes = Some(v.max(1)),
                }
                continue;
            }
            match token {
                "infinite" => limits.infinite = true,
                "ponder" => limits.ponder = true,
                // Unknown, or not in this build (searchmoves, mate: the `analysis` feature).
                other => {
                    error(out).put("go: ignored '").put(excerpt(other)).put("'\n");
                }
            }
        }
        out.flush();
        // In book: answer at once (not for a ponder or infinite search, which must wait for
        // `ponderhit` or `stop`), expecting the book's answer to our move, if it has one.
        let free = !limits.ponder && !limits.infinite;
        // Not with `searchmoves`: the book's move may not be one of them.
        #[cfg(feature = "analysis")]
        let free = free && self.searcher.analysis.root_moves.is_empty();
        let in_book = if self.own_book && self.moves.len() < book::BOOK_PLIES && free {
            book::probe(book, &self.position)
        } else {
            None
        };
        let result = if let Some(best) = in_book {
            let mut next = self.position;
            next.make(best);
            out.put("info string book ").put(&best.uci()).put("\n");
            let ponder = book::probe(book, &next).unwrap_or(Move::NONE);
            SearchResult { best, ponder, score: 0, depth: 0, nodes: 0, quit: false }
        } else {
            let mut host = UciHost { out: &mut *out, env, quiet: false };
            self.searcher.search(&self.position, &self.history, limits, self.move_overhead, &mut host)
        };
        #[cfg(feature = "stats")]
        if in_book.is_none() {
            print_stats(out, &self.searcher.stats);
        }
        out.put("bestmove ");
        if result.best == Move::NONE {
            // No legal move: Stockfish's "(none)" for analysis users; the competition build
            // keeps the shorter null move (the harness never asks for a move then).
            out.put(if cfg!(feature = "analysis") { "(none)" } else { "0000" });
        } else {
            out.put(&result.best.uci());
            if self.ponder && result.ponder != Move::NONE {
                out.put(" ponder ").put(&result.ponder.uci());
            }
        }
        out.put("\n");
        if result.quit { Flow::Quit } else { Flow::Continue }
    }

    #[inline(never)]
    fn cmd_setoption<'a>(&mut self, mut tokens: impl Iterator<Item = &'a str>, out: &mut dyn Output) {
        if tokens.next() != Some("name") {
            error(out).put("setoption: expected 'name'\n");
            return;
        }
        // The name runs up to "value" and may contain spaces ("Move Overhead").
        let mut name = arrayvec::ArrayString::<64>::new();
        let mut value = None;
        for token in tokens.by_ref() {
            if token == "value" {
                value = tokens.next();
                break;
            }
            if (!name.is_empty() && name.try_push(' ').is_err()) || name.try_push_str(token).is_err() {
                break;
            }
        }
        let number = value.and_then(integer);
        let check = match value {
            Some("true") => Some(true),
            Some("false") => Some(false),
            _ => None,
        };
        // Each known option answers whether its value was valid.
        let valid = if name.eq_ignore_ascii_case("Hash") {
            let max = self.searcher.tt.max_mib() as i64;
            number.map(|mib| self.searcher.tt.resize(clamp_spin(out, "Hash", mib, 1, max) as usize)).is_some()
        } else if cfg!(feature = "analysis") && name.eq_ignore_ascii_case("MultiPV") {
            #[cfg(feature = "analysis")]
            if let Some(n) = number {
                let max = minnow_engine::search::MAX_MULTIPV as i64;
                self.searcher.analysis.multipv = clamp_spin(out, "MultiPV", n, 1, max) as usize;
            }
            number.is_some()
        } else if name.eq_ignore_ascii_case("Clear Hash") {
            self.searcher.clear();
            true
        } else if name.eq_ignore_ascii_case("Threads") {
            number.map(|n| clamp_spin(out, "Threads", n, 1, 1)).is_some()
        } else if name.eq_ignore_ascii_case("Ponder") {
            check.map(|on| self.ponder = on).is_some()
        } else if name.eq_ignore_ascii_case("OwnBook") {
            check.map(|on| self.own_book = on).is_some()
        } else if name.eq_ignore_ascii_case("Move Overhead") {
            number
                .map(|ms| self.move_overhead = clamp_spin(out, "Move Overhead", ms, 0, 5000) as u64)
                .is_some()
        } else if name.eq_ignore_ascii_case("Kaggle Rules") {
            check
                .map(|on| {
                    self.searcher.rules = if on { Rules::Kaggle } else { Rules::Fide };
                    self.rebuild_history();
                })
                .is_some()
        } else if let Some(valid) = set_tunable(out, &name, number) {
            valid
        } else {
            error(out).put("setoption: unknown option '").put(excerpt(&name)).put("'\n");
            return;
        };
        if !valid {
            // The `uci` answer gives each option's type and range.
            error(out).put("setoption: invalid value for ").put(&name).put("\n");
        }
    }

    /// `bench [depth]` (also `minnow bench [depth]` from the shell): [`Uci::bench`] to
    /// `depth` if it is a number from 1 to 64, to [`BENCH_DEPTH`] without one; any other
    /// depth is refused with an error line, and nothing runs.
    #[inline(never)]
    fn bench_command(&mut self, depth: Option<&str>, out: &mut dyn Output, env: &mut dyn Env) {
        match depth.map_or(Some(i64::from(BENCH_DEPTH)), integer) {
            Some(d @ 1..=64) => self.bench(d as i32, out, env),
            _ => {
                error(out).put("bench: depth 1 to 64\n");
            }
        }
    }

    /// Searches every bench position to `depth` with fresh tables; the last line is
    /// `<nodes> nodes <nps> nps`.
    pub fn bench(&mut self, depth: i32, out: &mut dyn Output, env: &mut dyn Env) {
        // One line, every root move, no mate limit: the same tree in every build.
        #[cfg(feature = "analysis")]
        let multipv = {
            self.searcher.analysis.new_go();
            core::mem::replace(&mut self.searcher.analysis.multipv, 1)
        };
        let start = env.now_ms();
        let mut nodes = 0;
        for fen in BENCH_POSITIONS {
            let Ok(pos) = Position::from_fen(fen) else { continue };
            self.searcher.clear();
            let limits = Limits { depth: Some(depth), ..Limits::default() };
            let mut host = UciHost { out: &mut *out, env: &mut *env, quiet: true };
            nodes += self.searcher.search(&pos, &[], limits, 0, &mut host).nodes;
        }
        self.searcher.clear();
        #[cfg(feature = "analysis")]
        {
            self.searcher.analysis.multipv = multipv;
        }
        let elapsed = env.now_ms().saturating_sub(start).max(1);
        out.num(nodes).put(" nodes ").num(nodes * 1000 / elapsed).put(" nps\n");
    }
}

/// The `go` parameters that take a number, in the order `Uci::cmd_go` reads their index.
const GO_NUMBERS: [&str; 8] = ["wtime", "btime", "winc", "binc", "movestogo", "movetime", "depth", "nodes"];

/// The search's view of the front end: clock, input during the search, progress output.
struct UciHost<'a> {
    out: &'a mut dyn Output,
    env: &'a mut dyn Env,
    /// Bench: no `info` lines and no input polling.
    quiet: bool,
}

impl UciHost<'_> {
    /// Answers a line that arrived during the search.
    fn dispatch(&mut self, block: bool) -> Option<Poll> {
        let line = self.env.read_line(block)?;
        let poll = match line.split_ascii_whitespace().next() {
            Some("stop") => Poll::Stop,
            Some("ponderhit") => Poll::PonderHit,
            Some("quit") => Poll::Quit,
            Some("isready") => {
                self.out.put("readyok\n");
                Poll::Continue
            }
            None => Poll::Continue,
            Some(other) => {
                error(self.out).put("busy, ignored '").put(excerpt(other)).put("'\n");
                Poll::Continue
            }
        };
        if let Some(problem) = self.env.take_error() {
            error(self.out).put(problem).put("\n");
        }
        self.out.flush();
        Some(poll)
    }
}

impl SearchHost for UciHost<'_> {
    fn now_ms(&mut self) -> u64 {
        self.env.now_ms()
    }

    fn poll(&mut self) -> Poll {
        if self.quiet {
            // Bench: a fixed amount of work, whatever arrives on the input.
            return Poll::Continue;
        }
        while let Some(poll) = self.dispatch(false) {
            if poll != Poll::Continue {
                return poll;
            }
        }
        Poll::Continue
    }

    fn wait(&mut self) -> Poll {
        self.dispatch(true).unwrap_or(Poll::Quit)
    }

    fn report(&mut self, r: &Report) {
        if self.quiet {
            return;
        }
        let out = &mut *self.out;
        out.put("info depth ").num(r.depth as u64).put(" seldepth ").num(r.seldepth as u64);
        #[cfg(feature = "analysis")]
        out.put(" multipv ").num(r.multipv as u64);
        if r.score.abs() >= minnow_engine::tt::MATE_BOUND {
            let plies = MATE - r.score.abs();
            let moves = (plies + 1) / 2;
            out.put(" score mate ").signed(if r.score < 0 { -moves } else { moves });
        } else {
            out.put(" score cp ").signed(r.score);
        }
        match r.bound {
            Bound::Lower => {
                out.put(" lowerbound");
            }
            Bound::Upper => {
                out.put(" upperbound");
            }
            _ => {}
        }
        let nps = r.nodes * 1000 / r.time_ms.max(1);
        out.put(" nodes ").num(r.nodes).put(" nps ").num(nps).put(" time ").num(r.time_ms);
        out.put(" hashfull ").num(r.hashfull as u64);
        // After a fail-low there is no PV yet; GUIs expect `pv` to be followed by moves.
        if !r.pv.is_empty() {
            out.put(" pv");
            for m in r.pv {
                out.put(" ").put(&m.uci());
            }
        }
        out.put("\n").flush();
    }
}

/// A decimal integer with an optional sign, or `None` (not a number, or beyond `i64`). The
/// one number parser of the protocol: `str::parse` was inlined once per integer type and
/// call site.
#[inline(never)]
fn integer(text: &str) -> Option<i64> {
    let (negative, digits) = match text.as_bytes() {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        all => (false, all),
    };
    if digits.is_empty() {
        return None;
    }
    let mut n: i64 = 0;
    for &b in digits {
        if !b.is_ascii_digit() {
            return None;
        }
        n = n.checked_mul(10)?.checked_add(i64::from(b - b'0'))?;
    }
    Some(if negative { -n } else { n })
}

/// A spin option's `value` brought into `min..=max`, as GUIs expect of an engine: a value
/// out of range is clamped and the clamp reported in an `info string`.
#[inline(never)]
fn clamp_spin(out: &mut dyn Output, name: &str, value: i64, min: i64, max: i64) -> i64 {
    let clamped = value.clamp(min, max);
    if clamped != value {
        out.put("info string ").put(name).put(" clamped to ").signed(clamped as i32).put("\n");
    }
    clamped
}

/// `setoption` of a search tunable (the `tune` feature, for SPSA): whether its value was a
/// number (clamped into its range), or `None` if no tunable has this name.
#[cfg(feature = "tune")]
fn set_tunable(out: &mut dyn Output, name: &str, number: Option<i64>) -> Option<bool> {
    let t = minnow_engine::params::tune::ALL.iter().find(|t| name.eq_ignore_ascii_case(t.name))?;
    Some(number.map(|v| t.set(clamp_spin(out, t.name, v, t.min.into(), t.max.into()) as i32)).is_some())
}

/// Without the `tune` feature no tunable is an option.
#[cfg(not(feature = "tune"))]
fn set_tunable(_: &mut dyn Output, _: &str, _: Option<i64>) -> Option<bool> {
    None
}

/// The tree statistics of a search as one line, `info string stats name=N …
/// lmr_dD_mM=COUNT/PLIES …` (the `stats` feature; see `minnow_engine::stats`).
#[cfg(feature = "stats")]
fn print_stats(out: &mut dyn Output, stats: &minnow_engine::stats::Stats) {
    use minnow_engine::stats::{DEPTH_BUCKETS, MOVE_BUCKETS};
    out.put("info string stats");
    for (name, n) in stats.counters() {
        out.put(" ").put(name).put("=").num(n);
    }
    for (row, d) in stats.lmr_buckets.iter().zip(DEPTH_BUCKETS) {
        for (&[count, plies], m) in row.iter().zip(MOVE_BUCKETS) {
            out.put(" lmr_d").num(d as u64).put("_m").num(m as u64);
            out.put("=").num(count).put("/").num(plies);
        }
    }
    out.put("\n");
}

/// Starts an error line.
fn error<'a>(out: &'a mut (dyn Output + '_)) -> &'a mut (dyn Output + 'a) {
    out.put("info string error: ")
}
