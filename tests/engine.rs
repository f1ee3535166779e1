//! Engine tests that need positions from FEN, which the front end parses: they live here,
//! outside the engine crate (`minnow-engine` cannot depend on its own front end), and use
//! the same public API as every other user of the library.

use minnow::fen::Fen;

mod common;

mod board {
    use super::*;
    use minnow::Position;
    use minnow::movegen::legal_move_list;

    /// `gives_check` agrees with playing the move, on every legal move of the perft suite
    /// and of positions one move further.
    #[test]
    fn gives_check_matches_playing_the_move() {
        let mut checks = 0;
        for line in include_str!("data/perftsuite.epd").lines() {
            let root = Position::from_fen(line.split(';').next().unwrap()).unwrap();
            for first in legal_move_list(&root) {
                let pos = root.after(first);
                let info = pos.check_info();
                for m in legal_move_list(&pos) {
                    let expected = pos.after(m).in_check();
                    assert_eq!(pos.gives_check(&info, m), expected, "{m} in {}", pos.fen());
                    checks += expected as u32;
                }
            }
        }
        assert!(checks > 1000, "{checks}");
    }
}

mod movepick {
    use super::*;
    use minnow::history::{Continuation, ContinuationHistory, Histories};
    use minnow::movegen::legal_move_list;
    use minnow::movepick::MovePicker;
    use minnow::params::{HISTORY_MAX, HISTORY_MAX_BONUS};
    use minnow::perft::perft;
    use minnow::tablegen::SplitMix;
    use minnow::{Color, Move, PieceType, Position};

    /// Perft that enumerates moves through the picker, with TT moves and killers drawn
    /// from legal and illegal moves alike. Also checks each move is yielded once.
    fn picker_perft(pos: &Position, depth: u32, rng: &mut SplitMix, h: &Histories) -> u64 {
        if depth == 0 {
            return 1;
        }
        let legal = legal_move_list(pos);
        let random_move = |rng: &mut SplitMix| {
            if !legal.is_empty() && rng.next_u64().is_multiple_of(2) {
                legal[(rng.next_u64() % legal.len() as u64) as usize]
            } else {
                Move::from_raw(rng.next_u64() as u16)
            }
        };
        let (tt, k1, k2, c) = (random_move(rng), random_move(rng), random_move(rng), random_move(rng));
        let mut picker = MovePicker::new(
            tt,
            [k1, k2],
            c,
            Continuation([Continuation::NONE; minnow::history::CONTINUATION_PLIES]),
        );
        let mut seen = Vec::new();
        let mut nodes = 0;
        while let Some(m) = picker.next(pos, h) {
            assert!(!seen.contains(&m), "{m} yielded twice in {}", pos.fen());
            assert!(legal.contains(&m), "{m} is not legal in {}", pos.fen());
            seen.push(m);
            nodes += picker_perft(&pos.after(m), depth - 1, rng, h);
        }
        assert_eq!(seen.len(), legal.len(), "{}", pos.fen());
        nodes
    }

    #[test]
    fn perft_through_the_picker_equals_perft() {
        let mut rng = SplitMix(3);
        let mut h = Histories::new(Box::leak(Box::new(ContinuationHistory::EMPTY)));
        // Some history so that quiet ordering is exercised.
        for i in 0..2000u64 {
            let m = Move::from_raw(rng.next_u64() as u16);
            h.update_butterfly(if i % 2 == 0 { Color::White } else { Color::Black }, m, 300);
        }
        for line in include_str!("data/perftsuite.epd").lines().step_by(3) {
            let pos = Position::from_fen(line.split(';').next().unwrap()).unwrap();
            assert_eq!(picker_perft(&pos, 3, &mut rng, &h), perft(&pos, 3), "{}", pos.fen());
        }
    }

    /// `skip_quiets`, which late-move pruning calls: from the call on the picker yields no
    /// quiet move but the killers (still yielded, as KaggleFish's picker does), and still
    /// every noisy move once; whether the call comes before the quiets are scored or among
    /// them, on the perft suite and positions a move further.
    #[test]
    fn skip_quiets_leaves_only_the_killers() {
        let h = Histories::new(Box::leak(Box::new(ContinuationHistory::EMPTY)));
        let mut dropped = 0;
        for line in include_str!("data/perftsuite.epd").lines() {
            let root = Position::from_fen(line.split(';').next().unwrap()).unwrap();
            let children = legal_move_list(&root).into_iter().step_by(7).map(|m| root.after(m));
            for pos in std::iter::once(root).chain(children) {
                let legal = legal_move_list(&pos);
                let quiets: Vec<Move> = legal.iter().copied().filter(|m| !m.is_noisy()).collect();
                let noisy = legal.len() - quiets.len();
                let mut killers = [Move::NONE; 2];
                for (k, &m) in killers.iter_mut().zip(quiets.iter()) {
                    *k = m;
                }
                for killers in [[Move::NONE; 2], killers] {
                    for call_at in 0..=legal.len() {
                        let none = Continuation([Continuation::NONE; minnow::history::CONTINUATION_PLIES]);
                        let mut picker = MovePicker::new(Move::NONE, killers, Move::NONE, none);
                        let mut before = Vec::new();
                        while before.len() < call_at {
                            let Some(m) = picker.next(&pos, &h) else { break };
                            before.push(m);
                        }
                        picker.skip_quiets();
                        let mut after = Vec::new();
                        while let Some(m) = picker.next(&pos, &h) {
                            after.push(m);
                        }
                        let fen = pos.fen();
                        let all: Vec<Move> = before.iter().chain(&after).copied().collect();
                        for (i, m) in all.iter().enumerate() {
                            assert!(legal.contains(m) && !all[..i].contains(m), "{m} in {fen}");
                        }
                        assert_eq!(
                            all.iter().filter(|m| m.is_noisy()).count(),
                            noisy,
                            "{fen}, call at {call_at}"
                        );
                        let quiet_after: Vec<Move> =
                            after.iter().copied().filter(|m| !m.is_noisy()).collect();
                        for m in &quiet_after {
                            assert!(killers.contains(m), "{m} in {fen}, call at {call_at}");
                        }
                        let quiet_before = before.iter().filter(|m| !m.is_noisy()).count();
                        dropped += quiets.len() - quiet_before - quiet_after.len();
                    }
                }
            }
        }
        assert!(dropped > 10_000, "{dropped} quiets dropped");
    }

    #[test]
    fn quiescence_picker_adds_exactly_the_safe_quiet_checks() {
        let h = Histories::new(Box::leak(Box::new(ContinuationHistory::EMPTY)));
        let mut total = 0;
        for line in include_str!("data/perftsuite.epd").lines() {
            let pos = Position::from_fen(line.split(';').next().unwrap()).unwrap();
            if pos.in_check() {
                continue;
            }
            let mut picker = MovePicker::new_quiescence(Move::NONE, false, true);
            let mut yielded = Vec::new();
            while let Some(m) = picker.next(&pos, &h) {
                yielded.push(m);
            }
            let expected: Vec<Move> = legal_move_list(&pos)
                .into_iter()
                .filter(|&m| {
                    let safe = pos.see_ge(m, 0);
                    let queen_or_capture = m.promotion().is_none_or(|p| p == PieceType::Queen);
                    (m.is_noisy() && safe && queen_or_capture)
                        || (!m.is_noisy() && safe && pos.gives_check(&pos.check_info(), m))
                })
                .collect();
            assert_eq!(yielded.len(), expected.len(), "{}", pos.fen());
            assert!(expected.iter().all(|m| yielded.contains(m)), "{}", pos.fen());
            total += yielded.iter().filter(|m| !m.is_noisy()).count();
        }
        assert!(total > 20, "{total}");
    }

    #[test]
    fn quiescence_picker_yields_noisy_moves_or_all_evasions() {
        let mut h = Histories::new(Box::leak(Box::new(ContinuationHistory::EMPTY)));
        h.update_butterfly(Color::White, Move::NONE, 1);
        for line in include_str!("data/perftsuite.epd").lines() {
            let pos = Position::from_fen(line.split(';').next().unwrap()).unwrap();
            let mut picker = MovePicker::new_quiescence(Move::NONE, pos.in_check(), false);
            let mut n = 0;
            while let Some(m) = picker.next(&pos, &h) {
                assert!(pos.in_check() || (m.is_noisy() && pos.see_ge(m, 0)));
                n += 1;
            }
            if pos.in_check() {
                assert_eq!(n, legal_move_list(&pos).len());
            }
        }
    }

    #[test]
    fn history_gravity_saturates() {
        let mut h = Histories::new(Box::leak(Box::new(ContinuationHistory::EMPTY)));
        let m = Move::from_raw(0x0123);
        for _ in 0..1000 {
            h.update_butterfly(Color::White, m, HISTORY_MAX_BONUS);
        }
        let v = h.butterfly(Color::White, m);
        assert!(v > HISTORY_MAX / 2 && v <= HISTORY_MAX, "{v}");
    }
}

mod rules {
    use super::*;
    use minnow::Position;
    use minnow::rules::{Rules, kaggle_insufficient};

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn kaggle_material_rule_differs_from_fide() {
        // (FEN, harness draw, FIDE dead)
        let cases = [
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true, true),
            ("4k3/8/8/8/8/8/8/3NK3 w - - 0 1", true, true),
            ("4k3/3n4/8/8/8/8/8/3NK3 w - - 0 1", true, false),
            ("4k3/3b4/8/8/8/8/8/3NK3 w - - 0 1", true, false),
            ("4k3/3b4/8/8/8/8/8/2B1K3 w - - 0 1", true, false),
            ("4k3/8/8/8/8/8/8/2NNK3 w - - 0 1", true, false),
            ("4k3/8/8/8/8/8/8/2BBK3 w - - 0 1", false, false),
            ("4k3/8/8/8/8/8/B7/1B2K3 w - - 0 1", false, true),
            ("4k3/8/8/8/8/8/8/2BNK3 w - - 0 1", false, false),
            ("4k3/8/8/8/8/8/8/1NNNK3 w - - 0 1", false, false),
            ("4k3/8/8/8/8/8/P7/4K3 w - - 0 1", false, false),
            ("4k3/8/8/8/8/8/8/3RK3 w - - 0 1", false, false),
        ];
        for (fen, harness, fide) in cases {
            let p = pos(fen);
            assert_eq!(kaggle_insufficient(&p), harness, "{fen}");
            assert_eq!(Rules::Kaggle.is_draw(&p, false), harness, "{fen}");
            assert_eq!(p.is_insufficient_material(), fide, "{fen}");
            assert_eq!(Rules::Fide.is_draw(&p, false), fide, "{fen}");
        }
    }

    #[test]
    fn fifty_moves_exactly_at_100_even_if_mated_under_kaggle_rules() {
        // Black is mated (back-rank) with the clock at 100.
        let mated = pos("R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 80");
        assert!(mated.in_check());
        assert!(Rules::Kaggle.is_draw(&mated, true));
        assert!(!Rules::Fide.is_draw(&mated, true));
        let quiet = pos("6k1/5ppp/8/8/8/8/8/R5K1 b - - 100 80");
        assert!(Rules::Kaggle.is_draw(&quiet, false));
        assert!(Rules::Fide.is_draw(&quiet, false));
        // Past 100 the harness never ends the game by the clock; FIDE does.
        let past = pos("6k1/5ppp/8/8/8/8/8/R5K1 b - - 101 80");
        assert!(!Rules::Kaggle.is_draw(&past, false));
        assert!(Rules::Fide.is_draw(&past, false));
    }

    #[test]
    fn kaggle_repetition_key_marks_every_double_push() {
        // After 1.e4 (no black pawn can take en passant) FIDE ignores the ep square.
        let start = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let e4 = start.after(minnow::movegen::parse_uci_move(&start, "e2e4").unwrap());
        let same_placement = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(
            Rules::Fide.repetition_key(&e4, false),
            Rules::Fide.repetition_key(&same_placement, false)
        );
        assert_ne!(
            Rules::Kaggle.repetition_key(&e4, false),
            Rules::Kaggle.repetition_key(&same_placement, false)
        );
        // The opening (white to move) is never counted under Kaggle rules.
        assert_eq!(Rules::Kaggle.repetition_key(&start, true), 0);
        assert_eq!(Rules::Kaggle.repetition_key(&start, false), start.key());
        assert_ne!(Rules::Kaggle.repetition_key(&same_placement, true), 0);
        assert_eq!(Rules::Fide.repetition_key(&start, true), start.key());
    }
}

mod see {
    use super::*;
    use minnow::Position;
    use minnow::movegen::parse_uci_move;

    fn see(fen: &str, mv: &str, threshold: i32) -> bool {
        let pos = Position::from_fen(fen).unwrap();
        pos.see_ge(parse_uci_move(&pos, mv).unwrap(), threshold)
    }

    #[test]
    fn simple_exchanges() {
        // Pawn takes an undefended knight: +300.
        let fen = "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1";
        assert!(see(fen, "e4d5", 300));
        assert!(!see(fen, "e4d5", 301));
        // Rook takes a pawn defended by a pawn: 100 - 500.
        let fen = "4k3/8/2p5/3p4/8/8/3R4/4K3 w - - 0 1";
        assert!(see(fen, "d2d5", -400));
        assert!(!see(fen, "d2d5", -399));
        // Queen takes a knight defended by a pawn, with rook x-ray behind: 300 - 900 + 100.
        let fen = "4k3/8/4p3/3n4/8/8/3Q4/3RK3 w - - 0 1";
        assert!(see(fen, "d2d5", -500));
        assert!(!see(fen, "d2d5", -499));
        // A quiet move to a safe square is worth exactly 0.
        let fen = "4k3/2p5/8/8/8/8/8/1N2K3 w - - 0 1";
        assert!(!see(fen, "b1a3", 1));
        assert!(see(fen, "b1a3", 0));
        // Knight to d5 attacked by the c6 pawn.
        let fen = "4k3/8/2p5/8/8/4N3/8/4K3 w - - 0 1";
        assert!(!see(fen, "e3d5", 0));
        assert!(see(fen, "e3d5", -300));
    }

    #[test]
    fn x_rays_and_king_recaptures() {
        // Rxd5 with rook behind vs one defender: RxP, RxR, RxR = +100.
        let fen = "3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1";
        assert!(see(fen, "d2d5", 100));
        assert!(!see(fen, "d2d5", 101));
        // The king recaptures an undefended rook: 100 - 500.
        let fen = "8/8/4k3/3p4/8/8/8/3RK3 w - - 0 1";
        assert!(see(fen, "d1d5", -400));
        assert!(!see(fen, "d1d5", -399));
        // ... but not one defended by a second rook: +100.
        let fen = "8/8/4k3/3p4/8/8/3R4/3RK3 w - - 0 1";
        assert!(see(fen, "d2d5", 100));
        assert!(!see(fen, "d2d5", 101));
    }
}

mod nnue {
    use super::*;
    use minnow::movegen::legal_move_list;
    use minnow::nnue::{Accumulator, evaluate};
    use minnow::tablegen::SplitMix;
    use minnow::{Color, Position};

    /// Incremental accumulators equal rebuilt ones at every ply of random games, through
    /// captures, promotions, castling and en passant (the perft suite's tricky starts).
    #[test]
    fn incremental_accumulators_equal_rebuilt_ones() {
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ];
        let mut rng = SplitMix(11);
        let mut plies = 0;
        for fen in starts {
            for _ in 0..20 {
                let mut pos = Position::from_fen(fen).unwrap();
                let mut acc = Accumulator::new(&pos);
                for _ in 0..150 {
                    let moves = legal_move_list(&pos);
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
                    let before = acc;
                    before.after(&pos, m, &mut acc);
                    pos.make(m);
                    assert_eq!(acc, Accumulator::new(&pos), "after {m} in {}", pos.fen());
                    assert_eq!(acc.evaluate(&pos), evaluate(&pos));
                    plies += 1;
                }
            }
        }
        assert!(plies > 5000, "only {plies} plies checked");
    }

    /// The range-coded first layer (`nets/gen14.coded`, tools/reports/weight_coding.py
    /// `--write-coded`; a build with `MINNOW_CODED` embeds it) decodes to gen14's first layer
    /// exactly, every weight of every neuron.
    #[test]
    fn the_coded_first_layer_decodes_to_gen14s() {
        use minnow::nnue::{FirstLayerDecoder, HEADER_BYTES, INPUTS};
        let root = env!("CARGO_MANIFEST_DIR");
        let net = std::fs::read(format!("{root}/nets/gen14.nnue")).unwrap();
        let coded = std::fs::read(format!("{root}/nets/gen14.coded")).unwrap();
        let stored = usize::from(u16::from_le_bytes([net[4], net[5]]));
        let mut decoder = FirstLayerDecoder::new(&coded, stored);
        let mut column = [0i8; INPUTS];
        for n in 0..stored {
            decoder.neuron(n, &mut column);
            let mut w = 0i8;
            for (f, &delta) in net[HEADER_BYTES + n * INPUTS..][..INPUTS].iter().enumerate() {
                w = w.wrapping_add(delta as i8);
                assert_eq!(column[f], w, "neuron {n}, feature {f}");
            }
        }
    }

    /// The engine's integer evaluation matches the trainer's forward pass in floats over
    /// the exported weights, on held-out positions (the check file beside the embedded net,
    /// e.g. nets/gen8.check.txt, written by the trainer with it): within 2 cp on every
    /// position. Only the final division rounds; a wrong feature, perspective or layout
    /// would be off by tens of cp.
    #[test]
    fn quantized_evaluation_matches_the_float_net() {
        let check = minnow::nnue::NET_FILE.strip_suffix(".nnue").expect("a net file ends in .nnue");
        let text = std::fs::read_to_string(format!("{check}.check.txt")).unwrap();
        let mut n = 0;
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let fields: Vec<&str> = line.split('|').map(str::trim).collect();
            let pos = Position::from_fen(fields[0]).unwrap();
            let float: f64 = fields[1].parse().unwrap();
            let ours = f64::from(evaluate(&pos));
            assert!((ours - float).abs() <= 2.0, "{}: engine {ours}, float net {float}", fields[0]);
            n += 1;
        }
        assert!(n >= 100, "only {n} positions in the check file");
    }

    /// The shipped net is colour symmetric: a position and its mirror image with colours
    /// swapped (`common::mirror_fen`) evaluate exactly alike, on every position of the
    /// repository's sets (about 6,100) and, when they are beside the repository, of the
    /// whole shared sets (about 360,000). Exact by construction (each perspective reads
    /// the board from its own side with the same weights, and the output weighs "us" and
    /// "them", not white and black), so no tolerance: a feature index, perspective or
    /// output-weight order wrong for one colour shows as a difference.
    #[test]
    fn evaluation_is_colour_symmetric() {
        let pos = Position::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
            .unwrap();
        let mirror =
            Position::from_fen("rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4")
                .unwrap();
        assert_eq!(evaluate(&pos), evaluate(&mirror));
        assert_eq!(pos.side_to_move(), Color::White);
        common::check_colour_symmetry_of_every_set(evaluate);
    }
}
