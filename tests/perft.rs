//! Perft against the published suites in `tests/data/` (copied from the project's shared
//! data, `perft/perftsuite.epd` and `perft/cpw_perft_positions.epd`).
//!
//! `cargo test` checks every position at every listed depth up to {QUICK_LIMIT} nodes, one test per
//! position. The whole suite at full depth (21.8 billion nodes, about two minutes):
//!
//! ```text
//! cargo test --release --test perft -- --ignored
//! ```

use minnow::Position;
use minnow::fen::Fen;
use minnow::perft::perft;

const SUITE: &str = include_str!("data/perftsuite.epd");
const CPW: &str = include_str!("data/cpw_perft_positions.epd");

/// Depths whose node count is at most this run in the normal test suite.
const QUICK_LIMIT: u64 = 20_000_000;

/// `(fen, [(depth, nodes)])` of line `number` (1-based) of an EPD file in the
/// `<fen> ;D1 n ;D2 n …` form.
fn entry(file: &str, number: usize) -> (&str, Vec<(u32, u64)>) {
    let line = file.lines().nth(number - 1).expect("line exists");
    let mut parts = line.split(';');
    let fen = parts.next().unwrap().trim();
    let depths = parts
        .map(|p| {
            let (d, n) = p.trim().split_once(' ').expect("';Dn count'");
            (d.trim_start_matches('D').parse().unwrap(), n.trim().parse().unwrap())
        })
        .collect();
    (fen, depths)
}

fn check(file: &str, number: usize, limit: u64) {
    let (fen, depths) = entry(file, number);
    let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("line {number}: {fen}: {e}"));
    for (depth, expected) in depths.into_iter().filter(|&(_, n)| n <= limit) {
        assert_eq!(perft(&pos, depth), expected, "line {number}: {fen} at depth {depth}");
    }
}

macro_rules! perft_tests {
    ($file:ident: $($name:ident $line:literal),* $(,)?) => {
        $(#[test]
        fn $name() {
            check($file, $line, QUICK_LIMIT);
        })*
    };
}

perft_tests!(SUITE:
    s001 1, s002 2, s003 3, s004 4, s005 5, s006 6, s007 7, s008 8, s009 9, s010 10, s011 11,
    s012 12, s013 13, s014 14, s015 15, s016 16, s017 17, s018 18, s019 19, s020 20, s021 21,
    s022 22, s023 23, s024 24, s025 25, s026 26, s027 27, s028 28, s029 29, s030 30, s031 31,
    s032 32, s033 33, s034 34, s035 35, s036 36, s037 37, s038 38, s039 39, s040 40, s041 41,
    s042 42, s043 43, s044 44, s045 45, s046 46, s047 47, s048 48, s049 49, s050 50, s051 51,
    s052 52, s053 53, s054 54, s055 55, s056 56, s057 57, s058 58, s059 59, s060 60, s061 61,
    s062 62, s063 63, s064 64, s065 65, s066 66, s067 67, s068 68, s069 69, s070 70, s071 71,
    s072 72, s073 73, s074 74, s075 75, s076 76, s077 77, s078 78, s079 79, s080 80, s081 81,
    s082 82, s083 83, s084 84, s085 85, s086 86, s087 87, s088 88, s089 89, s090 90, s091 91,
    s092 92, s093 93, s094 94, s095 95, s096 96, s097 97, s098 98, s099 99, s100 100, s101 101,
    s102 102, s103 103, s104 104, s105 105, s106 106, s107 107, s108 108, s109 109, s110 110,
    s111 111, s112 112, s113 113, s114 114, s115 115, s116 116, s117 117, s118 118, s119 119,
    s120 120, s121 121, s122 122, s123 123, s124 124, s125 125, s126 126,
);

perft_tests!(CPW:
    cpw1 1, cpw2 2, cpw3 3, cpw4 4, cpw5 5, cpw6 6, cpw7 7,
);

/// Both files at every listed depth.
#[test]
#[ignore = "21.8 billion nodes: run with --release -- --ignored"]
fn full_depth() {
    for file in [SUITE, CPW] {
        for number in 1..=file.lines().count() {
            check(file, number, u64::MAX);
        }
    }
}

#[test]
fn every_line_has_a_test() {
    assert_eq!(SUITE.lines().count(), 126);
    assert_eq!(CPW.lines().count(), 7);
}
