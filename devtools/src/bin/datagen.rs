//! Self-play data for the NNUE trainer, from minnow's own search.
//!
//! ```text
//! datagen play --out FILE [--positions N | --games N] [--nodes 5000] [--threads T]
//!              [--seed S] [--openings EPD] [--hash MIB]
//! datagen label --in FILE --out FILE [--teacher PROGRAM] [--mode eval|depth:N|nodes:N]
//!               [--threads T] [--hash MIB]
//! datagen dump FILE [--limit N]
//! datagen import --out FILE [--min-ply N] [--max-score S] [--keep-check] [--keep-noisy] SF.bin ...
//! ```
//!
//! `play` plays games with a fixed node limit per move and writes every quiet position with
//! its search score and the game's result (format: `minnow_dev::format`). Each game starts
//! from the start position with 8 or 9 random legal plies, or (half of the games) from one
//! of the harness's 2000 openings with 2 to 4 random plies, and is thrown away if the first
//! search finds one side over 6 pawns ahead. The games end by the Kaggle harness's rules
//! (which the search also plays by), by mate or stalemate, or by adjudication: a win once
//! the score stays at 10 pawns or more for one side over 4 plies in a row, a draw after ply
//! 80 once it stays within 0.1 pawn for 10 plies, or at ply 400. Kept: positions not in
//! check whose best move is quiet and whose score is not a mate score.
//!
//! `import` reads Stockfish's training records (`.bin`, `minnow_dev::sfbin`: its own
//! `generate_training_data` and the public sets in that format) and writes minnow's, keeping
//! by default what `play` keeps (not in check, the best move quiet) and, as asked, only
//! positions from ply `--min-ply` on and with a score within `--max-score` (Stockfish's
//! units). It prints how many each filter dropped.
//!
//! Game `i` of seed `s` is the same game whichever thread plays it, and the file is written
//! in game order, so a run is deterministic for its seed and settings whatever the thread
//! count. It is also resumable: `FILE.progress` records how many games and bytes are
//! complete; run the same command again and it truncates `FILE` to that and goes on.

use minnow::fen::Fen;
use minnow_dev::format::{RECORD_BYTES, Record};
use minnow_dev::openings::read_openings;
use minnow_dev::rng::Rng;
use minnow_dev::selfplay::{play_game, tool_searcher};
use minnow_dev::sfbin::{SF_RECORD_BYTES, SfRecord};
use minnow_dev::teacher::{Answer, Mode, Teacher};
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Settings of a `play` run.
#[derive(Clone, Debug)]
struct Config {
    out: PathBuf,
    positions: Option<u64>,
    games: Option<u64>,
    nodes: u64,
    threads: usize,
    seed: u64,
    openings: PathBuf,
    hash_mib: usize,
}

fn progress_path(out: &Path) -> PathBuf {
    let mut p = out.as_os_str().to_owned();
    p.push(".progress");
    PathBuf::from(p)
}

/// (next game, bytes, positions) of a run to resume, from `FILE.progress`.
fn read_progress(out: &Path) -> Result<(u64, u64, u64), String> {
    let path = progress_path(out);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(_) if !out.exists() => return Ok((0, 0, 0)),
        Err(_) => {
            return Err(format!(
                "{} exists without {}: not a datagen run to resume (remove it or choose another --out)",
                out.display(),
                path.display()
            ));
        }
    };
    let field = |name: &str| -> Result<u64, String> {
        text.split_whitespace()
            .find_map(|w| w.strip_prefix(name).and_then(|v| v.strip_prefix('=')))
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("{}: no valid {name}=", path.display()))
    };
    Ok((field("next_game")?, field("bytes")?, field("positions")?))
}

fn play(cfg: &Config) -> Result<(), String> {
    let openings = read_openings(&cfg.openings)?;
    let (first_game, bytes, mut positions) = read_progress(&cfg.out)?;
    let mut file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(&cfg.out)
        .map_err(|e| format!("{}: {e}", cfg.out.display()))?;
    let len = file.metadata().map_err(|e| e.to_string())?.len();
    if len < bytes {
        return Err(format!(
            "{} is shorter ({len} B) than its progress file says ({bytes} B)",
            cfg.out.display()
        ));
    }
    file.set_len(bytes).map_err(|e| e.to_string())?;
    file.seek(SeekFrom::End(0)).map_err(|e| e.to_string())?;
    if first_game > 0 {
        println!("datagen: resuming at game {first_game} with {positions} positions ({bytes} bytes)");
    }
    let done = |games: u64, positions: u64| {
        cfg.positions.is_some_and(|n| positions >= n) || cfg.games.is_some_and(|n| games >= n)
    };
    if done(first_game, positions) {
        println!("datagen: already complete");
        return Ok(());
    }

    let next = AtomicU64::new(first_game);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(u64, Vec<Record>)>();
    let started = Instant::now();
    let start_positions = positions;
    std::thread::scope(|s| -> Result<(), String> {
        for _ in 0..cfg.threads {
            let tx = tx.clone();
            let (next, stop, openings) = (&next, &stop, &openings);
            std::thread::Builder::new()
                .stack_size(16 << 20)
                .spawn_scoped(s, move || {
                    let mut searcher = tool_searcher(cfg.hash_mib);
                    while !stop.load(Ordering::Relaxed) {
                        let game = next.fetch_add(1, Ordering::Relaxed);
                        let mut rng = Rng::new(cfg.seed, game);
                        let records = play_game(&mut searcher, &mut rng, openings, cfg.nodes);
                        if tx.send((game, records)).is_err() {
                            break;
                        }
                    }
                })
                .map_err(|e| e.to_string())?;
        }
        drop(tx);
        // Write games in order; record progress after each write.
        let mut pending: BTreeMap<u64, Vec<Record>> = BTreeMap::new();
        let mut next_write = first_game;
        let mut written = bytes;
        let mut last_report = Instant::now();
        let mut buf = Vec::new();
        while let Ok((game, records)) = rx.recv() {
            pending.insert(game, records);
            let mut wrote = false;
            while let Some(records) = pending.remove(&next_write) {
                if done(next_write, positions) {
                    break;
                }
                buf.clear();
                for r in &records {
                    buf.extend_from_slice(&r.to_bytes());
                }
                file.write_all(&buf).map_err(|e| format!("{}: {e}", cfg.out.display()))?;
                written += buf.len() as u64;
                positions += records.len() as u64;
                next_write += 1;
                wrote = true;
            }
            if wrote {
                file.flush().map_err(|e| e.to_string())?;
                // Written beside and renamed over the old one, so that a machine going away
                // mid-write leaves the old progress or the new, never an empty file.
                let progress = progress_path(&cfg.out);
                let mut tmp = progress.clone().into_os_string();
                tmp.push(".tmp");
                std::fs::write(
                    &tmp,
                    format!("next_game={next_write} bytes={written} positions={positions}\n"),
                )
                .and_then(|()| std::fs::rename(&tmp, &progress))
                .map_err(|e| format!("{}: {e}", progress.display()))?;
            }
            let finished = done(next_write, positions);
            if finished || last_report.elapsed() >= Duration::from_secs(10) {
                last_report = Instant::now();
                let secs = started.elapsed().as_secs_f64().max(1e-3);
                let rate = (positions - start_positions) as f64 / secs;
                let eta = match (cfg.positions, cfg.games) {
                    (Some(n), _) if rate > 0.0 => {
                        format!("{:.0} s", n.saturating_sub(positions) as f64 / rate)
                    }
                    (_, Some(n)) => {
                        let per_game = (next_write - first_game) as f64 / secs;
                        if per_game > 0.0 {
                            format!("{:.0} s", n.saturating_sub(next_write) as f64 / per_game)
                        } else {
                            "?".into()
                        }
                    }
                    _ => "?".into(),
                };
                println!(
                    "datagen: {positions} positions, {next_write} games, {rate:.0} positions/s, {secs:.0} s, ETA {eta}"
                );
            }
            if finished {
                stop.store(true, Ordering::Relaxed);
                break;
            }
        }
        drop(rx);
        Ok(())
    })?;
    println!("datagen: done: {} with {positions} positions", cfg.out.display());
    Ok(())
}

/// Settings of a `label` run.
#[derive(Clone, Debug)]
struct LabelConfig {
    input: PathBuf,
    out: PathBuf,
    teacher: String,
    mode: Mode,
    threads: usize,
    hash_mib: usize,
}

/// Positions a teacher is given at a time (bounds the memory of one batch of answers).
const LABEL_BATCH: usize = 4096;

fn label(cfg: &LabelConfig) -> Result<(), String> {
    let bytes = std::fs::read(&cfg.input).map_err(|e| format!("{}: {e}", cfg.input.display()))?;
    if bytes.len() % RECORD_BYTES != 0 {
        return Err(format!("{}: not a whole number of {RECORD_BYTES}-byte records", cfg.input.display()));
    }
    let records = bytes
        .chunks_exact(RECORD_BYTES)
        .enumerate()
        .map(|(i, b)| Record::from_bytes(b).map_err(|e| format!("{}: record {i}: {e}", cfg.input.display())))
        .collect::<Result<Vec<_>, _>>()?;
    let started = Instant::now();
    let options = [("Threads".to_string(), "1".to_string()), ("Hash".to_string(), cfg.hash_mib.to_string())];
    let part = records.len().div_ceil(cfg.threads).max(1);
    let labelled: Vec<Result<Vec<Record>, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = records
            .chunks(part)
            .map(|slice| {
                let options = &options;
                s.spawn(move || -> Result<Vec<Record>, String> {
                    let mut teacher = Teacher::start(&cfg.teacher, options)?;
                    let mut kept = Vec::with_capacity(slice.len());
                    for batch in slice.chunks(LABEL_BATCH) {
                        for (r, a) in batch.iter().zip(teacher.label(batch, cfg.mode)?) {
                            if let Answer::Score(score) = a {
                                kept.push(Record { score: score as i16, ..*r });
                            }
                        }
                    }
                    Ok(kept)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err("a labelling thread panicked".into())))
            .collect()
    });
    let mut out = Vec::with_capacity(bytes.len());
    let mut kept = 0usize;
    for part in labelled {
        for r in part? {
            out.extend_from_slice(&r.to_bytes());
            kept += 1;
        }
    }
    let mut tmp = cfg.out.as_os_str().to_owned();
    tmp.push(".tmp");
    std::fs::write(&tmp, &out).map_err(|e| format!("{}: {e}", Path::new(&tmp).display()))?;
    std::fs::rename(&tmp, &cfg.out).map_err(|e| format!("{}: {e}", cfg.out.display()))?;
    let secs = started.elapsed().as_secs_f64().max(1e-3);
    println!(
        "datagen: labelled {}: {kept} of {} positions kept ({} dropped), {:.0} positions/s, {secs:.1} s",
        cfg.out.display(),
        records.len(),
        records.len() - kept,
        records.len() as f64 / secs
    );
    Ok(())
}

/// Prints records as `FEN | score | result` (score and result from the side to move's view).
fn dump(path: &Path, limit: Option<u64>) -> Result<(), String> {
    let mut file = BufReader::new(File::open(path).map_err(|e| format!("{}: {e}", path.display()))?);
    let mut buf = [0u8; RECORD_BYTES];
    let mut n = 0u64;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    while limit.is_none_or(|l| n < l) {
        match file.read_exact(&mut buf) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
            Err(e) => return Err(format!("{}: {e}", path.display())),
        }
        let r = Record::from_bytes(&buf).map_err(|e| format!("{}: record {n}: {e}", path.display()))?;
        let pos = r.position();
        let result = ["loss", "draw", "win"][r.result as usize];
        if writeln!(out, "{} | {} | {} | ply {}", pos.fen(), r.score, result, r.ply).is_err() {
            break; // a closed pipe (`| head`) is not an error
        }
        n += 1;
    }
    Ok(())
}

/// What `import` keeps of Stockfish's records.
#[derive(Clone, Debug)]
struct ImportConfig {
    inputs: Vec<PathBuf>,
    out: PathBuf,
    min_ply: u16,
    max_score: i16,
    keep_check: bool,
    keep_noisy: bool,
}

/// Stockfish's `.bin` records to minnow's, filtered; prints what each filter dropped.
fn import(cfg: &ImportConfig) -> Result<(), String> {
    let start = Instant::now();
    let file = File::create(&cfg.out).map_err(|e| format!("{}: {e}", cfg.out.display()))?;
    let mut out = BufWriter::new(file);
    let (mut read, mut kept, mut early, mut big, mut check, mut noisy) = (0u64, 0u64, 0u64, 0u64, 0u64, 0u64);
    for path in &cfg.inputs {
        let mut input = BufReader::new(File::open(path).map_err(|e| format!("{}: {e}", path.display()))?);
        let mut buf = [0u8; SF_RECORD_BYTES];
        let mut n = 0u64;
        loop {
            match input.read_exact(&mut buf) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
                Err(e) => return Err(format!("{}: {e}", path.display())),
            }
            let rec =
                SfRecord::from_bytes(&buf).map_err(|e| format!("{}: record {n}: {e}", path.display()))?;
            n += 1;
            read += 1;
            if rec.ply < cfg.min_ply {
                early += 1;
            } else if rec.score.unsigned_abs() > cfg.max_score.unsigned_abs() {
                big += 1;
            } else if !cfg.keep_check && rec.pos.in_check() {
                check += 1;
            } else if !cfg.keep_noisy && rec.best_is_noisy {
                noisy += 1;
            } else {
                out.write_all(&rec.record().to_bytes()).map_err(|e| format!("{}: {e}", cfg.out.display()))?;
                kept += 1;
            }
        }
        let size = std::fs::metadata(path).map_or(0, |m| m.len());
        if size % SF_RECORD_BYTES as u64 != 0 {
            eprintln!("datagen: {}: ignored a partial record at the end", path.display());
        }
    }
    out.flush().map_err(|e| format!("{}: {e}", cfg.out.display()))?;
    println!(
        "datagen import: {read} read, {kept} kept in {}; dropped: {early} before ply {}, {big} beyond score {}, \
         {check} in check, {noisy} with a capture or promotion best ({:.1} s)",
        cfg.out.display(),
        cfg.min_ply,
        cfg.max_score,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn usage() -> String {
    "usage: datagen play --out FILE [--positions N | --games N] [--nodes 5000] [--threads T] \
     [--seed S] [--openings EPD] [--hash MIB]\n       datagen label --in FILE --out FILE \
     [--teacher PROGRAM] [--mode eval|depth:N|nodes:N] [--threads T] [--hash MIB]\n       \
     datagen dump FILE [--limit N]\n       datagen import --out FILE [--min-ply N] \
     [--max-score S] [--keep-check] [--keep-noisy] SF.bin ..."
        .into()
}

fn parse_args(args: &[String]) -> Result<(), String> {
    let value = |i: usize| args.get(i + 1).ok_or_else(|| format!("{} needs a value\n{}", args[i], usage()));
    let number = |i: usize| -> Result<u64, String> {
        value(i)?.parse::<u64>().map_err(|_| format!("{}: not a number: {}", args[i], args[i + 1]))
    };
    match args.first().map(String::as_str) {
        Some("play") => {
            let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
            let mut cfg = Config {
                out: PathBuf::new(),
                positions: None,
                games: None,
                nodes: 5000,
                threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
                seed: 1,
                openings: root.join("tests/data/kaggle_openings.epd"),
                hash_mib: 8,
            };
            let mut i = 1;
            while i < args.len() {
                match args[i].as_str() {
                    "--out" => cfg.out = PathBuf::from(value(i)?),
                    "--positions" => cfg.positions = Some(number(i)?),
                    "--games" => cfg.games = Some(number(i)?),
                    "--nodes" => cfg.nodes = number(i)?.max(1),
                    "--threads" => cfg.threads = number(i)?.clamp(1, 256) as usize,
                    "--seed" => cfg.seed = number(i)?,
                    "--openings" => cfg.openings = PathBuf::from(value(i)?),
                    "--hash" => cfg.hash_mib = number(i)?.clamp(1, 1024) as usize,
                    other => return Err(format!("unknown option {other}\n{}", usage())),
                }
                i += 2;
            }
            if cfg.out.as_os_str().is_empty() {
                return Err(format!("--out is required\n{}", usage()));
            }
            if cfg.positions.is_none() && cfg.games.is_none() {
                return Err(format!("give --positions or --games\n{}", usage()));
            }
            println!(
                "datagen: {} with {} threads, {} nodes a move, seed {}, openings {}",
                cfg.out.display(),
                cfg.threads,
                cfg.nodes,
                cfg.seed,
                cfg.openings.display()
            );
            play(&cfg)
        }
        Some("label") => {
            let mut cfg = LabelConfig {
                input: PathBuf::new(),
                out: PathBuf::new(),
                teacher: "/usr/games/stockfish".into(),
                mode: Mode::Eval,
                threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
                hash_mib: 16,
            };
            let mut i = 1;
            while i < args.len() {
                match args[i].as_str() {
                    "--in" => cfg.input = PathBuf::from(value(i)?),
                    "--out" => cfg.out = PathBuf::from(value(i)?),
                    "--teacher" => cfg.teacher = value(i)?.clone(),
                    "--mode" => cfg.mode = Mode::parse(value(i)?)?,
                    "--threads" => cfg.threads = number(i)?.clamp(1, 256) as usize,
                    "--hash" => cfg.hash_mib = number(i)?.clamp(1, 1024) as usize,
                    other => return Err(format!("unknown option {other}\n{}", usage())),
                }
                i += 2;
            }
            if cfg.input.as_os_str().is_empty() || cfg.out.as_os_str().is_empty() {
                return Err(format!("--in and --out are required\n{}", usage()));
            }
            label(&cfg)
        }
        Some("dump") => {
            let path = args.get(1).ok_or_else(usage)?;
            let limit = match args.get(2).map(String::as_str) {
                Some("--limit") => Some(number(2)?),
                Some(other) => return Err(format!("unknown option {other}\n{}", usage())),
                None => None,
            };
            dump(Path::new(path), limit)
        }
        Some("import") => {
            let mut cfg = ImportConfig {
                inputs: Vec::new(),
                out: PathBuf::new(),
                min_ply: 0,
                max_score: i16::MAX,
                keep_check: false,
                keep_noisy: false,
            };
            let mut i = 1;
            while i < args.len() {
                // How many arguments each takes: an option and its value, a flag or an input.
                let taken = match args[i].as_str() {
                    "--out" => {
                        cfg.out = PathBuf::from(value(i)?);
                        2
                    }
                    "--min-ply" => {
                        cfg.min_ply = number(i)?.min(u64::from(u16::MAX)) as u16;
                        2
                    }
                    "--max-score" => {
                        cfg.max_score = number(i)?.min(i16::MAX as u64) as i16;
                        2
                    }
                    "--keep-check" => {
                        cfg.keep_check = true;
                        1
                    }
                    "--keep-noisy" => {
                        cfg.keep_noisy = true;
                        1
                    }
                    other if other.starts_with("--") => {
                        return Err(format!("unknown option {other}\n{}", usage()));
                    }
                    input => {
                        cfg.inputs.push(PathBuf::from(input));
                        1
                    }
                };
                i += taken;
            }
            if cfg.out.as_os_str().is_empty() || cfg.inputs.is_empty() {
                return Err(format!("--out and at least one input are required\n{}", usage()));
            }
            if cfg.inputs.contains(&cfg.out) {
                return Err(format!("{}: the output is also an input", cfg.out.display()));
            }
            import(&cfg)
        }
        _ => Err(usage()),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match parse_args(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("datagen: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use minnow::movegen::parse_uci_move;

    /// `import` keeps exactly the sample's positions that are not in check and whose best
    /// move is quiet, in order, each with its score, result and ply, judged here from the
    /// text form of the same records (`tests/data/sf_sample.txt`, Stockfish's own reading)
    /// with the engine's FEN and move parsers: 281 of 400 (python-chess counts 52 in check
    /// and 67 noisy too).
    #[test]
    fn import_keeps_the_quiet_positions_of_stockfish_s_records() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let out = std::env::temp_dir().join(format!("minnow-import-{}.bin", std::process::id()));
        let cfg = ImportConfig {
            inputs: vec![root.join("tests/data/sf_sample.bin")],
            out: out.clone(),
            min_ply: 0,
            max_score: i16::MAX,
            keep_check: false,
            keep_noisy: false,
        };
        import(&cfg).unwrap();
        let bytes = std::fs::read(&out).unwrap();
        std::fs::remove_file(&out).ok();
        let text = std::fs::read_to_string(root.join("tests/data/sf_sample.txt")).unwrap();
        let mut expected = Vec::new();
        for line in text.lines() {
            let f: Vec<&str> = line.split(';').collect();
            let pos = minnow::Position::from_fen(f[0]).unwrap();
            let best = parse_uci_move(&pos, f[1]).unwrap();
            if !pos.in_check() && !best.is_noisy() {
                let result: i8 = f[4].parse().unwrap();
                expected.push(Record::new(
                    &pos,
                    f[2].parse().unwrap(),
                    (result + 1) as u8,
                    f[3].parse().unwrap(),
                ));
            }
        }
        assert_eq!(expected.len(), 281);
        let got: Vec<Record> =
            bytes.chunks_exact(RECORD_BYTES).map(|c| Record::from_bytes(c).unwrap()).collect();
        assert_eq!(got, expected);
        // The filters that are off by default drop what they say.
        let cfg = ImportConfig { min_ply: 8, max_score: 2000, keep_check: true, keep_noisy: true, ..cfg };
        import(&cfg).unwrap();
        let kept = std::fs::read(&out).unwrap().len() / RECORD_BYTES;
        std::fs::remove_file(&out).ok();
        let wanted = text
            .lines()
            .filter(|l| {
                let f: Vec<&str> = l.split(';').collect();
                f[3].parse::<u16>().unwrap() >= 8 && f[2].parse::<i32>().unwrap().abs() <= 2000
            })
            .count();
        assert_eq!(kept, wanted);
    }
}
