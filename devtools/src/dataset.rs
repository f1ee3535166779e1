//! The trainer's view of its data files: which record of which file is trained on, which
//! is held out and which is dropped, decided in passes over the files read a chunk at a
//! time, so that a training set far larger than memory can be streamed (`train --buffer`).
//!
//! What survives, in the order the files are given (the same rules whether the set is then
//! loaded whole or streamed):
//! 1. each record is checked (a bad one is an error naming the file and the record);
//! 2. de-duplication keeps the first record of each position (placement and side to move,
//!    a 64-bit digest) across all files;
//! 3. `max_per_file` keeps the first that many survivors of each file;
//! 4. the last `valid` share of a file's survivors (whole games at its end) is held out;
//! 5. the ply and score filters leave out training records only;
//! 6. flattening thins the training records of common piece counts (seeded).
//!
//! Memory: one bit a record for the training selection and, while indexing, 8 bytes a
//! position for de-duplication (a digest set; 800 M positions need about 8 GB then, freed
//! before training), plus the held-out records. Training records are read back from the
//! files: all at once ([`Dataset::read_all`]) or a block at a time ([`Dataset::blocks`],
//! [`Dataset::read_block`]).

use crate::format::{RECORD_BYTES, Record};
use crate::rng::Rng;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// The most records a block holds (32 MiB of file): the unit a streamed epoch shuffles and
/// reads.
pub const BLOCK_RECORDS: usize = 1 << 20;

/// Records read from disk at a time while indexing.
const CHUNK_RECORDS: usize = 1 << 16;

/// The rules of what is trained on and held out (the trainer's options of the same names).
#[derive(Clone, Debug)]
pub struct Selection {
    /// Keep only the first record of each position.
    pub dedup: bool,
    /// Every score is multiplied by this as it is read (rounded, clamped to ±32,000).
    pub score_mult: f32,
    /// At most this many survivors of de-duplication from each file.
    pub max_per_file: Option<usize>,
    /// The share of each file's survivors held out at its end.
    pub valid: f64,
    /// Training records from earlier plies of their game are left out.
    pub min_ply: u16,
    /// Training records with a larger |score| (after `score_mult`) are left out.
    pub max_score: i16,
    /// At most about this many training records of each piece count are kept.
    pub flatten: Option<usize>,
    /// The flattening's seed.
    pub seed: u64,
}

/// One data file: how many whole records it has and which of them are trained on.
struct FileIndex {
    path: PathBuf,
    records: usize,
    /// Bit `i`: record `i` is a training record.
    train: Vec<u64>,
}

impl FileIndex {
    fn is_training(&self, i: usize) -> bool {
        self.train[i / 64] >> (i % 64) & 1 != 0
    }
    fn clear(&mut self, i: usize) {
        self.train[i / 64] &= !(1 << (i % 64));
    }
    fn training_in(&self, start: usize, end: usize) -> usize {
        (start..end).filter(|&i| self.is_training(i)).count()
    }
}

/// A run of records of one file, read together by a streamed epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    /// The file's number, in the order given.
    pub file: usize,
    /// Its first record.
    pub start: usize,
    /// One past its last record.
    pub end: usize,
    /// How many of its records are training records.
    pub training: usize,
}

/// The indexed data: the held-out records in memory, the training records as a selection
/// of the files' records.
pub struct Dataset {
    files: Vec<FileIndex>,
    score_mult: f32,
    /// The held-out records, scores multiplied, files in order.
    pub valid: Vec<Record>,
    /// Records read.
    pub read: usize,
    /// Records dropped as repeats of an earlier position.
    pub duplicates: usize,
    /// Training records left out by the ply and score filters.
    pub filtered: usize,
    /// Training records before and after flattening (equal without it).
    pub flattened: (usize, usize),
}

/// A 64-bit digest of a record's placement and side to move (bytes 0..24 and 27), for
/// de-duplication: at 10^9 positions two different ones share a digest with a chance of
/// about 3%, against the 25-byte keys' tens of gigabytes.
pub fn position_key(b: &[u8]) -> u64 {
    let word = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap());
    let mut h = u64::from(b[27]) ^ 0x9E37_79B9_7F4A_7C15;
    for w in [word(0), word(8), word(16)] {
        h = (h ^ w).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^= h >> 31;
    }
    h
}

/// The hasher of a set of digests that are already well mixed: the digest itself.
#[derive(Default)]
struct Identity(u64);

impl std::hash::Hasher for Identity {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("only u64 digests are hashed")
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Calls `f(i, bytes)` for each of the first `records` whole records of `path` in order
/// (the count the file had when it was indexed, so that a file still being written reads
/// as it was), reading a chunk at a time.
fn each_record(
    path: &Path,
    records: usize,
    mut f: impl FnMut(usize, &[u8]) -> Result<(), String>,
) -> Result<(), String> {
    let name = |e: std::io::Error| format!("{}: {e}", path.display());
    let mut file = File::open(path).map_err(name)?;
    let mut buf = vec![0u8; CHUNK_RECORDS * RECORD_BYTES];
    let (mut i, mut filled) = (0, 0);
    loop {
        let n = file.read(&mut buf[filled..]).map_err(name)?;
        filled += n;
        let whole = filled / RECORD_BYTES * RECORD_BYTES;
        if n == 0 || whole == buf.len() {
            for chunk in buf[..whole].chunks_exact(RECORD_BYTES) {
                if i == records {
                    return Ok(());
                }
                f(i, chunk)?;
                i += 1;
            }
            buf.copy_within(whole..filled, 0);
            filled -= whole;
            if n == 0 {
                return Ok(());
            }
        }
    }
}

impl Dataset {
    /// Indexes `paths` by the rules of `sel` (the module's list), reading each file a few
    /// times a chunk at a time. Errors name the file (and the record, for a bad one).
    pub fn index(paths: &[PathBuf], sel: &Selection) -> Result<Dataset, String> {
        let mut seen: std::collections::HashSet<u64, std::hash::BuildHasherDefault<Identity>> =
            Default::default();
        let mut data = Dataset {
            files: Vec::new(),
            score_mult: sel.score_mult,
            valid: Vec::new(),
            read: 0,
            duplicates: 0,
            filtered: 0,
            flattened: (0, 0),
        };
        let mut counts = [0usize; 65];
        for path in paths {
            let len = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?.len() as usize;
            if !len.is_multiple_of(RECORD_BYTES) {
                eprintln!("train: {}: ignoring a partial record at the end", path.display());
            }
            let records = len / RECORD_BYTES;
            let mut file = FileIndex { path: path.clone(), records, train: vec![0; records.div_ceil(64)] };
            // Steps 1 to 3: check, de-duplicate, cap; the survivors' bits set for now.
            let cap = sel.max_per_file.unwrap_or(usize::MAX);
            let mut survivors = 0;
            if sel.dedup {
                seen.reserve(records);
            }
            each_record(path, records, |i, chunk| {
                Record::from_bytes(chunk).map_err(|e| format!("{}: record {i}: {e}", path.display()))?;
                data.read += 1;
                if sel.dedup && !seen.insert(position_key(chunk)) {
                    data.duplicates += 1;
                } else if survivors < cap {
                    file.train[i / 64] |= 1 << (i % 64);
                    survivors += 1;
                }
                Ok(())
            })?;
            // Steps 4 and 5: the survivors from `split` on are held out; the filters judge
            // the ones before it.
            let split = survivors - (survivors as f64 * sel.valid) as usize;
            let mut rank = 0;
            each_record(path, records, |i, chunk| {
                if !file.is_training(i) {
                    return Ok(());
                }
                let r = data.scaled(chunk);
                if rank >= split {
                    file.clear(i);
                    data.valid.push(r);
                } else if r.ply < sel.min_ply || r.score.unsigned_abs() > sel.max_score.unsigned_abs() {
                    file.clear(i);
                    data.filtered += 1;
                } else {
                    counts[r.occupancy.count_ones() as usize] += 1;
                }
                rank += 1;
                Ok(())
            })?;
            data.files.push(file);
        }
        drop(seen);
        let before: usize = counts.iter().sum();
        data.flattened = (before, before);
        // Step 6: each training record of a piece count with n > cap of them kept with
        // chance cap / n, in file order (the random draw only for those counts).
        if let Some(cap) = sel.flatten {
            let mut rng = Rng::new(sel.seed, 0x464C_4154);
            let mut after = 0;
            for file in &mut data.files {
                let mut dropped = Vec::new();
                let file_ref = &*file;
                each_record(&file_ref.path, file_ref.records, |i, chunk| {
                    if file_ref.is_training(i) {
                        let n =
                            counts[u64::from_le_bytes(chunk[0..8].try_into().unwrap()).count_ones() as usize];
                        if n <= cap || rng.unit() < cap as f64 / n as f64 {
                            after += 1;
                        } else {
                            dropped.push(i);
                        }
                    }
                    Ok(())
                })?;
                dropped.into_iter().for_each(|i| file.clear(i));
            }
            data.flattened.1 = after;
        }
        Ok(data)
    }

    /// A record from its checked bytes, its score multiplied.
    fn scaled(&self, chunk: &[u8]) -> Record {
        let mut r = Record::from_bytes(chunk).expect("a record checked when indexed");
        if self.score_mult != 1.0 {
            r.score = (f32::from(r.score) * self.score_mult).round().clamp(-32_000.0, 32_000.0) as i16;
        }
        r
    }

    /// How many training records there are.
    pub fn training_len(&self) -> usize {
        self.flattened.1
    }

    /// Every training record (scores multiplied), files and records in order.
    pub fn read_all(&self) -> Result<Vec<[u8; RECORD_BYTES]>, String> {
        let mut out = Vec::with_capacity(self.training_len());
        for file in &self.files {
            each_record(&file.path, file.records, |i, chunk| {
                if file.is_training(i) {
                    out.push(self.scaled(chunk).to_bytes());
                }
                Ok(())
            })?;
        }
        Ok(out)
    }

    /// The files cut into blocks of `size` records (the last of a file shorter), in order,
    /// those without a training record left out.
    pub fn blocks(&self, size: usize) -> Vec<Block> {
        let mut blocks = Vec::new();
        for (n, file) in self.files.iter().enumerate() {
            for start in (0..file.records).step_by(size.max(1)) {
                let end = (start + size.max(1)).min(file.records);
                let training = file.training_in(start, end);
                if training > 0 {
                    blocks.push(Block { file: n, start, end, training });
                }
            }
        }
        blocks
    }

    /// Appends the training records of `block` (scores multiplied) to `out`, in order.
    pub fn read_block(&self, block: Block, out: &mut Vec<[u8; RECORD_BYTES]>) -> Result<(), String> {
        let file = &self.files[block.file];
        let name = |e: std::io::Error| format!("{}: {e}", file.path.display());
        let mut f = File::open(&file.path).map_err(name)?;
        f.seek(SeekFrom::Start((block.start * RECORD_BYTES) as u64)).map_err(name)?;
        let mut bytes = vec![0u8; (block.end - block.start) * RECORD_BYTES];
        f.read_exact(&mut bytes).map_err(name)?;
        for (k, chunk) in bytes.chunks_exact(RECORD_BYTES).enumerate() {
            if file.is_training(block.start + k) {
                out.push(self.scaled(chunk).to_bytes());
            }
        }
        Ok(())
    }
}

/// `n` records of random walks from the start (a new walk every 60 plies; the score the
/// hand-crafted evaluation's, the result at random) written to `path`: data with repeats,
/// every ply and piece count, for the tests of the loader and the trainer.
pub fn write_random_walks(path: &Path, n: usize, seed: u64) -> Result<(), String> {
    let mut rng = Rng::new(seed, 7);
    let mut bytes = Vec::with_capacity(n * RECORD_BYTES);
    let mut pos = minnow::Position::startpos();
    for i in 0..n {
        let moves = minnow::movegen::legal_move_list(&pos);
        pos = if i % 60 == 0 || moves.is_empty() {
            minnow::Position::startpos()
        } else {
            pos.after(moves[rng.below(moves.len())])
        };
        // A score a net can learn: the hand-crafted evaluation, a little noise on it.
        let score = (minnow::eval::evaluate(&pos).clamp(-2000, 2000) + rng.below(41) as i32 - 20) as i16;
        bytes.extend(Record::new(&pos, score, rng.below(3) as u8, (i % 60) as u16).to_bytes());
    }
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::{Dataset, Selection, write_random_walks};
    use crate::format::{RECORD_BYTES, Record};
    use std::path::PathBuf;

    fn walk_file(name: &str, n: usize, seed: u64) -> PathBuf {
        let path = std::env::temp_dir().join(format!("minnow-dataset-{}-{name}.bin", std::process::id()));
        write_random_walks(&path, n, seed).unwrap();
        path
    }

    fn selection() -> Selection {
        Selection {
            dedup: true,
            score_mult: 0.9,
            max_per_file: None,
            valid: 0.05,
            min_ply: 2,
            max_score: 500,
            flatten: Some(300),
            seed: 5,
        }
    }

    /// Blocks of any size read back exactly the training records, in file order, that
    /// the whole set holds; held-out and dropped records are in none.
    #[test]
    fn blocks_of_any_size_read_back_every_training_record_once() {
        let files = [walk_file("a", 3000, 1), walk_file("b", 1700, 2)];
        let set = Dataset::index(&files, &selection()).unwrap();
        let all = set.read_all().unwrap();
        assert_eq!(all.len(), set.training_len());
        // Each rule removed something, so the selection is not the whole file.
        assert!(set.duplicates > 0 && set.filtered > 0 && set.flattened.1 < set.flattened.0);
        assert!(!set.valid.is_empty() && all.len() + set.valid.len() < set.read);
        for size in [1, 7, 64, 1000, 5000] {
            let mut read = Vec::new();
            let blocks = set.blocks(size);
            assert_eq!(blocks.iter().map(|b| b.training).sum::<usize>(), all.len(), "size {size}");
            for b in blocks {
                assert!(b.end - b.start <= size && b.training > 0);
                set.read_block(b, &mut read).unwrap();
            }
            assert_eq!(read, all, "size {size}");
        }
        // No training record is held out, and the scores are multiplied.
        let valid: Vec<[u8; RECORD_BYTES]> = set.valid.iter().map(Record::to_bytes).collect();
        assert!(all.iter().all(|r| !valid.contains(r)));
        let unfiltered = Selection { min_ply: 0, max_score: i16::MAX, flatten: None, ..selection() };
        let scaled = Dataset::index(&files, &unfiltered).unwrap().read_all().unwrap();
        let plain =
            Dataset::index(&files, &Selection { score_mult: 1.0, ..unfiltered }).unwrap().read_all().unwrap();
        assert_eq!(scaled.len(), plain.len());
        for (a, b) in scaled.iter().zip(&plain) {
            let (a, b) = (Record::from_bytes(a).unwrap(), Record::from_bytes(b).unwrap());
            assert_eq!(a.score, (f32::from(b.score) * 0.9).round() as i16);
        }
        files.iter().for_each(|f| std::fs::remove_file(f).unwrap());
    }

    /// A bad record is an error naming the file and the record; a missing file names itself.
    #[test]
    fn a_bad_record_or_a_missing_file_is_named() {
        let path = walk_file("bad", 100, 3);
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[40 * RECORD_BYTES + 26] = 9; // a result that is not 0, 1 or 2
        std::fs::write(&path, bytes).unwrap();
        let err = Dataset::index(std::slice::from_ref(&path), &selection()).err().unwrap();
        assert!(err.starts_with(&format!("{}: record 40: ", path.display())), "{err}");
        std::fs::remove_file(&path).unwrap();
        let err = Dataset::index(std::slice::from_ref(&path), &selection()).err().unwrap();
        assert!(err.contains("No such file"), "{err}");
    }
}
