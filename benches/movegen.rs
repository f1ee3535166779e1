//! Criterion benchmarks of move generation: perft (nodes per second), legal / noisy / quiet
//! generation over the perft-suite positions, and copy-make.
//!
//! ```text
//! cargo bench --bench movegen
//! ```

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use minnow::Position;
use minnow::fen::Fen;
use minnow::movegen::{MoveList, legal_move_list, legal_moves, noisy_moves, quiet_moves};
use minnow::perft::perft;
use std::hint::black_box;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn suite() -> Vec<Position> {
    include_str!("../tests/data/perftsuite.epd")
        .lines()
        .map(|l| Position::from_fen(l.split(';').next().unwrap()).unwrap())
        .collect()
}

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    for (name, fen, depth, nodes) in
        [("startpos", minnow::defs::STARTPOS, 4, 197_281u64), ("kiwipete", KIWIPETE, 3, 97_862)]
    {
        let pos = Position::from_fen(fen).unwrap();
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::new(name, depth), &pos, |b, pos| {
            b.iter(|| assert_eq!(perft(black_box(pos), depth), nodes))
        });
    }
    group.finish();
}

fn bench_generation(c: &mut Criterion) {
    let positions = suite();
    let mut group = c.benchmark_group("generate");
    group.throughput(Throughput::Elements(positions.len() as u64));
    type Generator = fn(&Position, &mut MoveList);
    let generators: [(&str, Generator); 3] =
        [("legal", legal_moves), ("noisy", noisy_moves), ("quiet", quiet_moves)];
    for (name, generate) in generators {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut total = 0;
                for pos in &positions {
                    let mut list = MoveList::new();
                    generate(black_box(pos), &mut list);
                    total += list.len();
                }
                total
            })
        });
    }
    group.finish();
}

fn bench_make(c: &mut Criterion) {
    let positions = suite();
    let moves: Vec<(Position, MoveList)> = positions.iter().map(|p| (*p, legal_move_list(p))).collect();
    let count: usize = moves.iter().map(|(_, l)| l.len()).sum();
    let mut group = c.benchmark_group("make");
    group.throughput(Throughput::Elements(count as u64));
    group.bench_function("copy-make every legal move", |b| {
        b.iter(|| {
            let mut keys = 0u64;
            for (pos, list) in &moves {
                for &m in list {
                    keys ^= black_box(pos).after(m).key();
                }
            }
            keys
        })
    });
    // The copy alone: the most that make/unmake (no copy, but an undo step) could save.
    group.bench_function("copy only", |b| {
        b.iter(|| {
            let mut keys = 0u64;
            for (pos, list) in &moves {
                for _ in list {
                    let copy = *black_box(pos);
                    keys ^= black_box(&copy).key();
                }
            }
            keys
        })
    });
    group.finish();
}

criterion_group!(benches, bench_perft, bench_generation, bench_make);
criterion_main!(benches);
