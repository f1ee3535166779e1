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

/// `bytes` as text if they are ASCII, as UCI and FEN are: a one-line test instead of a
/// UTF-8 validator. A byte loop with an early exit rather than `<[u8]>::is_ascii`, whose
/// vectorised word-at-a-time test is far larger code (−197 B) and buys nothing on lines of
/// a few hundred bytes; the loop is small enough to inline.
#[inline]
pub fn ascii(bytes: &[u8]) -> Option<&str> {
    // SAFETY: ASCII is valid UTF-8.
    bytes.iter().all(u8::is_ascii).then(|| unsafe { core::str::from_utf8_unchecked(bytes) })
}

/// Appends an ASCII byte (any other byte as `?`). Every buffer here is sized for its
/// longest content (a FEN is at most 92 bytes), so nothing is ever dropped; `try_push_str`
/// of the one-byte string avoids `push`'s panic formatting and `try_push(char)`'s UTF-8
/// encoder in the shipped binary. Out of line: the FEN writer alone calls it a dozen times,
/// and only text output (never the search) calls it at all.
#[inline(never)]
pub fn push_ascii<const N: usize>(s: &mut ArrayString<N>, b: u8) {
    debug_assert!(!s.is_full() && b.is_ascii());
    let _ = s.try_push_str(ascii(core::slice::from_ref(&b)).unwrap_or("?"));
}

/// The decimal digits of `n`, written at the end of `buf` (no `core::fmt`, which the
/// shipped binary avoids).
pub fn decimal(n: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut i = buf.len();
    let mut n = n;
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    &buf[i..]
}

/// Appends the decimal digits of `n`.
pub fn push_number<const N: usize>(s: &mut ArrayString<N>, n: u64) {
    for &d in decimal(n, &mut [0; 20]) {
        push_ascii(s, d);
    }
}
