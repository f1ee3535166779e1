//! The UCI front end: parses commands, keeps the game, prints answers.
//!
//! It is written against the [`Output`] trait so that the same code serves the shipped
//! binary (raw `write` syscalls) and the tests (a byte vector). Bad input never panics and
//! never stops the engine: it is answered with `info string error: …` and ignored.

use crate::board::Position;
use crate::movegen::parse_uci_move;
use crate::perft;

/// Engine name and version, as sent in `id name`.
pub const ENGINE_NAME: &str = concat!("minnow ", env!("CARGO_PKG_VERSION"));
/// Deepest `go perft` accepted (perft 12 of the start position is already 6e16 nodes).
pub const MAX_PERFT_DEPTH: u32 = 15;
/// Most moves accepted after `position … moves` (the harness ends games at 999 plies).
pub const MAX_GAME_MOVES: usize = 1024;

/// Where the front end writes. Output is line-oriented; [`Output::flush`] is called after
/// every command so that a GUI sees answers at once.
pub trait Output {
    /// Appends bytes.
    fn write(&mut self, bytes: &[u8]);

    /// Pushes buffered bytes out.
    fn flush(&mut self) {}

    /// Appends text; chainable.
    fn put(&mut self, text: &str) -> &mut Self
    where
        Self: Sized,
    {
        self.write(text.as_bytes());
        self
    }

    /// Appends a decimal number; chainable.
    fn num(&mut self, n: u64) -> &mut Self
    where
        Self: Sized,
    {
        let mut s = arrayvec::ArrayString::<20>::new();
        crate::fen::push_number(&mut s, n);
        self.put(&s)
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

/// Printable prefix of a token (at most 40 bytes, cut at a character boundary), so that
/// an error line quoting input stays short.
fn excerpt(text: &str) -> &str {
    let mut end = text.len().min(40);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// The UCI engine state.
pub struct Uci {
    position: Position,
}

impl Default for Uci {
    fn default() -> Self {
        Self::new()
    }
}

impl Uci {
    /// A front end set to the start position.
    pub fn new() -> Uci {
        Uci { position: Position::startpos() }
    }

    /// The current position (after `position …`).
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Handles one input line (without its newline).
    pub fn handle_line(&mut self, line: &str, out: &mut impl Output) -> Flow {
        let mut tokens = line.split_ascii_whitespace();
        let flow = match tokens.next() {
            None => Flow::Continue,
            Some("uci") => {
                out.put("id name ").put(ENGINE_NAME).put("\n");
                out.put("id author the minnow developers\n");
                out.put("option name Threads type spin default 1 min 1 max 1\n");
                out.put("uciok\n");
                Flow::Continue
            }
            Some("isready") => {
                out.put("readyok\n");
                Flow::Continue
            }
            Some("ucinewgame") => {
                self.position = Position::startpos();
                Flow::Continue
            }
            Some("position") => {
                self.cmd_position(tokens, out);
                Flow::Continue
            }
            Some("go") => {
                self.cmd_go(tokens, out);
                Flow::Continue
            }
            Some("setoption") => {
                cmd_setoption(tokens, out);
                Flow::Continue
            }
            Some("d") => {
                out.put("Fen: ").put(&self.position.fen()).put("\n");
                Flow::Continue
            }
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
    fn cmd_position<'a>(&mut self, mut tokens: impl Iterator<Item = &'a str>, out: &mut impl Output) {
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
                Position::startpos()
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
                error(out)
                    .put("position: expected 'startpos' or 'fen', got '")
                    .put(excerpt(other))
                    .put("'\n");
                return;
            }
            None => {
                error(out).put("position: expected 'startpos' or 'fen'\n");
                return;
            }
        };
        for (i, text) in tokens.enumerate() {
            if i >= MAX_GAME_MOVES {
                error(out).put("position: more than ").num(MAX_GAME_MOVES as u64).put(" moves\n");
                return;
            }
            match parse_uci_move(&pos, text) {
                Ok(m) => pos.make(m),
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
    }

    /// `go perft <depth>`; searching arrives with the search module.
    #[inline(never)]
    fn cmd_go<'a>(&mut self, mut tokens: impl Iterator<Item = &'a str>, out: &mut impl Output) {
        match tokens.next() {
            Some("perft") => {
                let depth = match tokens.next().map(str::parse::<u32>) {
                    Some(Ok(d)) if d <= MAX_PERFT_DEPTH => d,
                    _ => {
                        error(out)
                            .put("go perft: expected a depth from 0 to ")
                            .num(MAX_PERFT_DEPTH as u64)
                            .put("\n");
                        return;
                    }
                };
                let total = perft::divide(&self.position, depth, |m, n| {
                    out.put(&m.uci()).put(": ").num(n).put("\n");
                });
                out.put("\nNodes searched: ").num(total).put("\n\n");
            }
            _ => {
                error(out).put("go: only 'go perft <depth>' is supported so far\n");
            }
        }
    }
}

#[inline(never)]
fn cmd_setoption<'a>(mut tokens: impl Iterator<Item = &'a str>, out: &mut impl Output) {
    if tokens.next() != Some("name") {
        error(out).put("setoption: expected 'setoption name <id> [value <x>]'\n");
        return;
    }
    let name = tokens.next().unwrap_or("");
    if name.eq_ignore_ascii_case("Threads") {
        match (tokens.next(), tokens.next()) {
            (Some("value"), Some("1")) => {}
            _ => {
                error(out).put("setoption: Threads must be 1\n");
            }
        }
    } else {
        error(out).put("setoption: unknown option '").put(excerpt(name)).put("'\n");
    }
}

/// Starts an error line.
fn error<O: Output>(out: &mut O) -> &mut O {
    out.put("info string error: ")
}
