//! Reading start positions (the harness's openings) from EPD or FEN files.

use minnow::Position;
use minnow::fen::Fen;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

/// The positions of an EPD or FEN file, one a line, in file order: the whole FEN when the
/// line is one (six fields, move counters included), else its first four fields (EPD).
/// Lines with fewer than four fields are skipped silently; invalid positions are reported
/// on stderr and skipped.
pub fn read_openings(path: &Path) -> Result<Vec<Position>, String> {
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (n, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
        let fields: Vec<&str> = line.split_whitespace().take(6).collect();
        if fields.len() < 4 {
            continue;
        }
        let parsed =
            Position::from_fen(&fields.join(" ")).or_else(|_| Position::from_fen(&fields[..4].join(" ")));
        match parsed {
            Ok(pos) => out.push(pos),
            Err(e) => eprintln!("{}:{}: skipped: {e}", path.display(), n + 1),
        }
    }
    Ok(out)
}
