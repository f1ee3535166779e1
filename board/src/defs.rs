//! Definitions every module shares, at the bottom of the module graph: it imports
//! nothing from the crate, so no two modules need each other for these. The start-up
//! tables' once-only initialisation, the start position and the two text helpers that
//! replace `core::fmt` in the shipped binary. (The search's scores live in the engine
//! package, `minnow_engine::score`: the board knows nothing of them.)

use arrayvec::ArrayString;
use core::sync::atomic::{AtomicU8, Ordering};

/// A start-up table's state for [`init_once`]: a fresh table starts at this value.
pub const UNINIT: u8 = 0;
const BUSY: u8 = 1;
const READY: u8 = 2;

/// Runs `fill` once for the table whose state is `state` (a static starting at
/// [`UNINIT`]): the first caller fills, callers on other threads meanwhile wait until it is
/// done, later callers return at once. The start-up tables (attacks, the network's first
/// layer) are filled this way.
#[inline]
pub fn init_once(state: &AtomicU8, fill: impl FnOnce()) {
    if state.load(Ordering::Acquire) == READY {
        return;
    }
    if state.compare_exchange(UNINIT, BUSY, Ordering::Acquire, Ordering::Acquire).is_ok() {
        fill();
        state.store(READY, Ordering::Release);
    } else {
        while state.load(Ordering::Acquire) != READY {
            core::hint::spin_loop();
        }
    }
}

/// True once [`init_once`] has filled the table whose state is `state`.
#[inline(always)]
pub fn is_ready(state: &AtomicU8) -> bool {
    state.load(Ordering::Relaxed) == READY
}

/// The standard starting position.
pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Appends an ASCII character. Every buffer here is sized for its longest content (a FEN
/// is at most 92 bytes), so nothing is ever dropped; `try_push` avoids `push`'s panic
/// formatting code in the shipped binary.
#[inline]
pub fn push_char<const N: usize>(s: &mut ArrayString<N>, c: char) {
    debug_assert!(!s.is_full());
    let _ = s.try_push(c);
}

/// Appends the decimal digits of `n` (no `core::fmt`, which the shipped binary avoids).
pub fn push_number<const N: usize>(s: &mut ArrayString<N>, n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[i..] {
        push_char(s, d as char);
    }
}
