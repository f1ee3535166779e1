//! The opening book for the harness's openings (method: `minnow_dev::book`).
//!
//! ```text
//! book grow --out TREE [--openings EPD] [--width 3] [--plies 2] [--select-nodes 10000]
//!           [--leaf-nodes 200000] [--threads T] [--hash MIB] [--limit N]
//! book pack --tree TREE --out BOOK [--openings EPD] [--answers 1] [--fingerprint 8]
//! ```
//!
//! `grow` grows every opening's tree (all cores by default) and appends one line per opening
//! to TREE as it finishes: `index<TAB>nodes<TAB>move:value:answer ...`, candidates best first
//! (values in centipawns from the opening's side to move). The first line records the
//! settings. It resumes: run the same command again and the openings already in TREE are
//! skipped; a line cut off by an interruption is dropped. Each opening's tree is the same
//! whatever thread grows it, so the file's content (sorted) depends only on the settings.
//!
//! `pack` writes the `MBK1` book (format: `minnow::book`) from TREE: for every opening its
//! book move and, for its `answers` best candidates, our answer when the opponent plays that
//! candidate first; then prints the coverage, the size and each part's count.

use minnow::Position;
use minnow::book::probe;
use minnow::rules::Rules;
use minnow::types::Move;
use minnow_dev::book::{OpeningResult, TreeConfig, encode, grow_opening, move_index};
use minnow_dev::openings::read_openings;
use minnow_dev::selfplay::tool_searcher;
use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

struct Grow {
    out: PathBuf,
    openings: PathBuf,
    tree: TreeConfig,
    threads: usize,
    hash_mib: usize,
    limit: Option<usize>,
}

/// The settings line of a tree file.
fn settings_line(g: &Grow) -> String {
    format!(
        "# minnow book tree: width={} plies={} select_nodes={} leaf_nodes={} hash={} rules=kaggle",
        g.tree.width, g.tree.plies, g.tree.select_nodes, g.tree.leaf_nodes, g.hash_mib
    )
}

/// One candidate of a tree line: (move, backed-up value, answer), moves in UCI.
type CandidateText = (String, i32, String);

/// Parses one opening's line: (index, nodes, candidates).
fn parse_line(line: &str) -> Option<(usize, u64, Vec<CandidateText>)> {
    let mut fields = line.split('\t');
    let index = fields.next()?.parse().ok()?;
    let nodes = fields.next()?.parse().ok()?;
    let mut cands = Vec::new();
    for c in fields.next()?.split(' ').filter(|c| !c.is_empty()) {
        let mut parts = c.split(':');
        cands.push((parts.next()?.to_string(), parts.next()?.parse().ok()?, parts.next()?.to_string()));
    }
    Some((index, nodes, cands))
}

/// The complete lines of a tree file by opening index, after checking its settings line.
fn read_tree(path: &Path, settings: Option<&str>) -> Result<BTreeMap<usize, String>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && settings.is_some() => {
            return Ok(BTreeMap::new());
        }
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().unwrap_or("").trim_end();
    if let Some(s) = settings {
        if !first.is_empty() && first != s {
            return Err(format!("{} was grown with other settings:\n  {first}\nnot\n  {s}", path.display()));
        }
    } else if !first.starts_with("# minnow book tree") {
        return Err(format!("{}: not a book tree (no settings line)", path.display()));
    }
    let mut done = BTreeMap::new();
    for line in lines.filter(|l| l.ends_with('\n')) {
        match parse_line(line.trim_end()) {
            Some((index, _, _)) => {
                done.insert(index, line.trim_end().to_string());
            }
            None => return Err(format!("{}: malformed line: {}", path.display(), line.trim_end())),
        }
    }
    Ok(done)
}

fn format_line(index: usize, r: &OpeningResult) -> String {
    let cands: Vec<String> =
        r.candidates.iter().map(|c| format!("{}:{}:{}", c.mv.uci(), c.value, c.answer.uci())).collect();
    format!("{index}\t{}\t{}", r.nodes, cands.join(" "))
}

fn grow(g: &Grow) -> Result<(), String> {
    let openings = read_openings(&g.openings)?;
    let total = g.limit.unwrap_or(usize::MAX).min(openings.len());
    let settings = settings_line(g);
    let done = read_tree(&g.out, Some(&settings))?;
    // Rewrite the file with its complete lines only (drops a line cut off by a crash).
    let mut text = format!("{settings}\n");
    for line in done.values() {
        text.push_str(line);
        text.push('\n');
    }
    std::fs::write(&g.out, text).map_err(|e| format!("{}: {e}", g.out.display()))?;
    let todo: Vec<usize> = (0..total).filter(|i| !done.contains_key(i)).collect();
    println!(
        "book: {} openings ({} done already, {} to grow) with {} threads; {settings}",
        total,
        total - todo.len(),
        todo.len(),
        g.threads
    );
    let file = Mutex::new(
        OpenOptions::new().append(true).open(&g.out).map_err(|e| format!("{}: {e}", g.out.display()))?,
    );
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let nodes = Mutex::new(0u64);
    let started = Instant::now();
    std::thread::scope(|s| -> Result<(), String> {
        let mut handles = Vec::new();
        for _ in 0..g.threads {
            let (todo, openings, file, next, finished, nodes) =
                (&todo, &openings, &file, &next, &finished, &nodes);
            handles.push(
                std::thread::Builder::new()
                    .stack_size(16 << 20)
                    .spawn_scoped(s, move || -> Result<(), String> {
                        let mut searcher = tool_searcher(g.hash_mib);
                        loop {
                            let Some(&index) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
                                return Ok(());
                            };
                            let r = grow_opening(&mut searcher, Rules::Kaggle, &openings[index], g.tree);
                            let line = format_line(index, &r);
                            {
                                let mut f = file.lock().map_err(|_| "a thread panicked".to_string())?;
                                writeln!(f, "{line}").and_then(|()| f.flush()).map_err(|e| e.to_string())?;
                            }
                            let n = finished.fetch_add(1, Ordering::Relaxed) + 1;
                            let all = {
                                let mut t = nodes.lock().map_err(|_| "a thread panicked".to_string())?;
                                *t += r.nodes;
                                *t
                            };
                            if n % 10 == 0 || n == todo.len() {
                                let secs = started.elapsed().as_secs_f64().max(1e-3);
                                let eta = (todo.len() - n) as f64 * secs / n as f64;
                                println!(
                                    "book: {}/{} openings, {:.2} openings/s, {:.0} knps, {:.0} s, ETA {:.0} s",
                                    total - todo.len() + n,
                                    total,
                                    n as f64 / secs,
                                    all as f64 / secs / 1000.0,
                                    secs,
                                    eta
                                );
                            }
                        }
                    })
                    .map_err(|e| e.to_string())?,
            );
        }
        for h in handles {
            h.join().map_err(|_| "a thread panicked".to_string())??;
        }
        Ok(())
    })?;
    println!("book: done: {}", g.out.display());
    Ok(())
}

fn find_move(pos: &Position, text: &str) -> Option<Move> {
    minnow::movegen::parse_uci_move(pos, text).ok()
}

fn pack(tree: &Path, out: &Path, openings: &Path, answers: usize, fingerprint: u32) -> Result<(), String> {
    let openings = read_openings(openings)?;
    let lines = read_tree(tree, None)?;
    let mut roots = Vec::new();
    let mut replies = Vec::new();
    // Each opening with its book move, to read the packed book back.
    let mut book_moves: Vec<(Position, Move)> = Vec::new();
    for (&index, line) in &lines {
        let pos = openings
            .get(index)
            .ok_or_else(|| format!("{}: opening {index} is not in the openings", tree.display()))?;
        let (_, _, cands) = parse_line(line).ok_or("malformed line")?;
        let Some((best, _, _)) = cands.first() else { continue };
        let bad = |m: &str| format!("{}: opening {index}: {m} is not legal", tree.display());
        let best = find_move(pos, best).ok_or_else(|| bad(best))?;
        roots.push((pos.key(), move_index(pos, best).ok_or_else(|| bad("the book move"))?));
        book_moves.push((*pos, best));
        for (mv, _, answer) in cands.iter().take(answers) {
            let mut child = *pos;
            child.make(find_move(pos, mv).ok_or_else(|| bad(mv))?);
            if let Some(a) = find_move(&child, answer) {
                replies.push((child.key(), move_index(&child, a).ok_or_else(|| bad(answer))?));
            }
        }
    }
    let entries: Vec<(u64, usize)> = roots.iter().chain(&replies).copied().collect();
    // The openings' full-move number, if they share one (the harness's are all at move 5;
    // a position one ply after a white-to-move opening has the same number).
    let numbers: std::collections::BTreeSet<u16> = lines
        .keys()
        .flat_map(|&i| {
            let p = openings[i];
            let after = if p.side_to_move() == minnow::Color::White {
                p.fullmove_number()
            } else {
                p.fullmove_number() + 1
            };
            [p.fullmove_number(), after]
        })
        .collect();
    let fullmove = match numbers.iter().collect::<Vec<_>>()[..] {
        [&n] if n <= 255 => n as u8,
        _ => 0,
    };
    let (book, stats) = encode(&entries, fingerprint, fullmove);
    // Check the book as the engine reads it.
    let readable = book_moves.iter().filter(|(pos, best)| probe(&book, pos) == Some(*best)).count();
    let covered = book_moves.len();
    std::fs::write(out, &book).map_err(|e| format!("{}: {e}", out.display()))?;
    println!(
        "book: {}: {} bytes, {} entries ({} openings of {} with a move, {} answers to the opponent's \
         likeliest first moves, up to {answers} an opening; {} dropped as duplicates), {:.1} bits an entry; \
         {readable} of {covered} opening moves read back; full-move number {fullmove} (0: any)",
        out.display(),
        book.len(),
        stats.entries,
        covered,
        openings.len(),
        replies.len(),
        stats.duplicates,
        (book.len() * 8) as f64 / stats.entries.max(1) as f64,
    );
    println!(
        "BOOK bytes={} entries={} openings={covered} answers={} duplicates={}",
        book.len(),
        stats.entries,
        replies.len(),
        stats.duplicates
    );
    Ok(())
}

/// Keeps of a packed book only the openings' own moves (what `pack --answers 0` keeps),
/// read back from the book itself, so that a smaller book needs no tree: the answers to the
/// opponent's first moves take half of a book's bytes for a few Elo at most (book/README.md).
fn strip(book_path: &Path, out: &Path, openings: &Path, fingerprint: u32) -> Result<(), String> {
    let book = std::fs::read(book_path).map_err(|e| format!("{}: {e}", book_path.display()))?;
    if book.len() < 10 || &book[..4] != b"MBK1" {
        return Err(format!("{}: not an MBK1 book", book_path.display()));
    }
    let openings = read_openings(openings)?;
    let mut entries = Vec::new();
    let mut kept: Vec<(Position, Move)> = Vec::new();
    for pos in &openings {
        if let Some(mv) = probe(&book, pos) {
            entries.push((pos.key(), move_index(pos, mv).ok_or("a book move that is not legal")?));
            kept.push((*pos, mv));
        }
    }
    let (stripped, stats) = encode(&entries, fingerprint, book[9]);
    let readable = kept.iter().filter(|(pos, mv)| probe(&stripped, pos) == Some(*mv)).count();
    std::fs::write(out, &stripped).map_err(|e| format!("{}: {e}", out.display()))?;
    println!(
        "book: {}: {} bytes (from {}), {} entries ({} duplicates), {readable} of {} opening moves read back",
        out.display(),
        stripped.len(),
        book.len(),
        stats.entries,
        stats.duplicates,
        kept.len()
    );
    Ok(())
}

fn usage() -> String {
    "usage: book grow --out TREE [--openings EPD] [--width 3] [--plies 2] [--select-nodes 10000] \
     [--leaf-nodes 200000] [--threads T] [--hash MIB] [--limit N]\n       \
     book pack --tree TREE --out BOOK [--openings EPD] [--answers 1] [--fingerprint 8]\n       \
     book strip --book BOOK --out BOOK [--openings EPD] [--fingerprint 8]"
        .into()
}

/// The `--name value` pairs after a subcommand, each name one of `allowed`.
fn options<'a>(args: &'a [String], allowed: &[&str]) -> Result<BTreeMap<&'a str, &'a str>, String> {
    let mut found = BTreeMap::new();
    for pair in args.chunks(2) {
        let name = pair[0].as_str();
        if !allowed.contains(&name) {
            return Err(format!("unknown option {name}\n{}", usage()));
        }
        let value = pair.get(1).ok_or_else(|| format!("{name} needs a value\n{}", usage()))?;
        found.insert(name, value.as_str());
    }
    Ok(found)
}

fn parse_args(args: &[String]) -> Result<(), String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let default_openings = root.join("tests/data/kaggle_openings.epd");
    let rest = args.get(1..).unwrap_or_default();
    let (command, allowed, required): (&str, &[&str], &[&str]) = match args.first().map(String::as_str) {
        Some("grow") => (
            "grow",
            &[
                "--out",
                "--openings",
                "--width",
                "--plies",
                "--select-nodes",
                "--leaf-nodes",
                "--threads",
                "--hash",
                "--limit",
            ],
            &["--out"],
        ),
        Some("pack") => {
            ("pack", &["--tree", "--out", "--openings", "--answers", "--fingerprint"], &["--tree", "--out"])
        }
        Some("strip") => ("strip", &["--book", "--out", "--openings", "--fingerprint"], &["--book", "--out"]),
        _ => return Err(usage()),
    };
    let opts = options(rest, allowed)?;
    if let Some(missing) = required.iter().find(|r| !opts.contains_key(*r)) {
        return Err(format!("{missing} is required\n{}", usage()));
    }
    let path = |name: &str| opts.get(name).map(PathBuf::from);
    let number = |name: &str, default: u64| -> Result<u64, String> {
        opts.get(name)
            .map_or(Ok(default), |v| v.parse::<u64>().map_err(|_| format!("{name}: not a number: {v}")))
    };
    let openings = path("--openings").unwrap_or(default_openings);
    let fingerprint = number("--fingerprint", 8)?.clamp(0, 24) as u32;
    // The required paths, present once the check above passed.
    let given = |name: &str| path(name).unwrap_or_default();
    match command {
        "grow" => grow(&Grow {
            out: given("--out"),
            openings,
            tree: TreeConfig {
                width: number("--width", 3)?.clamp(1, 64) as usize,
                plies: number("--plies", 2)?.clamp(1, 4) as usize,
                select_nodes: number("--select-nodes", 10_000)?.max(1),
                leaf_nodes: number("--leaf-nodes", 200_000)?.max(1),
            },
            threads: number("--threads", std::thread::available_parallelism().map_or(1, |n| n.get()) as u64)?
                .clamp(1, 256) as usize,
            hash_mib: number("--hash", 16)?.clamp(1, 1024) as usize,
            limit: opts
                .contains_key("--limit")
                .then(|| number("--limit", 0))
                .transpose()?
                .map(|n| n as usize),
        }),
        "pack" => {
            pack(&given("--tree"), &given("--out"), &openings, number("--answers", 1)? as usize, fingerprint)
        }
        _ => strip(&given("--book"), &given("--out"), &openings, fingerprint),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match parse_args(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("book: {e}");
            ExitCode::FAILURE
        }
    }
}
