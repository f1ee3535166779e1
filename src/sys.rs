//! The shipped binary's whole operating-system layer: Linux x86-64 system calls and the
//! few C symbols the compiler expects, so that the engine links without libc or the Rust
//! standard library (a `std` binary costs ~120 KiB after xz, twice the competition budget).

use core::arch::asm;

const SYS_READ: usize = 0;
const SYS_WRITE: usize = 1;
const SYS_POLL: usize = 7;
const SYS_CLOCK_GETTIME: usize = 228;
const SYS_EXIT_GROUP: usize = 231;
const CLOCK_MONOTONIC: usize = 1;
const POLLIN: i16 = 1;
/// `-EINTR`: a system call interrupted by a signal.
pub const EINTR: isize = -4;

/// Reads from a file descriptor; returns bytes read (0 at end of file) or a negative errno.
pub fn read(fd: usize, buf: &mut [u8]) -> isize {
    let ret: isize;
    // SAFETY: read(2) writes at most `buf.len()` bytes into `buf`, which we borrow
    // mutably for the call; rcx and r11 are clobbered by `syscall`.
    unsafe {
        asm!("syscall", inlateout("rax") SYS_READ => ret, in("rdi") fd,
             in("rsi") buf.as_mut_ptr(), in("rdx") buf.len(),
             lateout("rcx") _, lateout("r11") _, options(nostack));
    }
    ret
}

/// Writes all of `buf`, retrying on short writes and EINTR. Gives up silently on other
/// errors (a closed pipe means nobody is listening any more). Not inlined: one copy of
/// the loop for the output buffer and the panic message.
#[inline(never)]
pub fn write_all(fd: usize, mut buf: &[u8]) {
    while !buf.is_empty() {
        let ret: isize;
        // SAFETY: write(2) only reads `buf.len()` bytes from `buf`.
        unsafe {
            asm!("syscall", inlateout("rax") SYS_WRITE => ret, in("rdi") fd,
                 in("rsi") buf.as_ptr(), in("rdx") buf.len(),
                 lateout("rcx") _, lateout("r11") _, options(nostack, readonly));
        }
        if ret == EINTR {
            continue;
        }
        if ret <= 0 {
            return;
        }
        buf = &buf[ret as usize..];
    }
}

/// True if `fd` has input (or end of file) waiting, after waiting at most `timeout_ms`
/// (0: do not wait; negative: wait forever).
pub fn poll_readable(fd: i32, timeout_ms: i32) -> bool {
    #[repr(C)]
    struct PollFd {
        fd: i32,
        events: i16,
        revents: i16,
    }
    let mut pfd = PollFd { fd, events: POLLIN, revents: 0 };
    let ret: isize;
    // SAFETY: poll(2) reads and writes the one `PollFd` we pass, which lives on our stack
    // for the whole call.
    unsafe {
        asm!("syscall", inlateout("rax") SYS_POLL => ret, in("rdi") &raw mut pfd,
             in("rsi") 1usize, in("rdx") timeout_ms as isize,
             lateout("rcx") _, lateout("r11") _, options(nostack));
    }
    // Any event (data, hang-up, error) means a read will not block.
    ret > 0 && pfd.revents != 0
}

/// Milliseconds on the monotonic clock.
pub fn monotonic_ms() -> u64 {
    let mut ts = [0i64; 2]; // struct timespec { tv_sec, tv_nsec }
    // SAFETY: clock_gettime(2) writes one timespec (two i64) into `ts`.
    unsafe {
        asm!("syscall", inlateout("rax") SYS_CLOCK_GETTIME => _, in("rdi") CLOCK_MONOTONIC,
             in("rsi") ts.as_mut_ptr(), lateout("rcx") _, lateout("r11") _, options(nostack));
    }
    ts[0] as u64 * 1000 + ts[1] as u64 / 1_000_000
}

/// Ends the process.
pub fn exit(code: i32) -> ! {
    // SAFETY: exit_group(2) does not return and touches no memory of ours.
    unsafe {
        asm!("syscall", in("rax") SYS_EXIT_GROUP, in("rdi") code as isize,
             options(noreturn, nostack));
    }
}

// The compiler lowers copies and fills to these C functions; without libc we provide them.
// `rep movsb`/`rep stosb` are short and fast on every CPU with ERMSB (Intel since Ivy
// Bridge, AMD since Zen 3), and cannot be turned back into calls to themselves.

/// C `memcpy`.
///
/// # Safety
/// As in C: `dst` and `src` valid for `n` bytes and not overlapping.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn memcpy(dst: *mut u8, src: *const u8, n: usize) -> *mut u8 {
    // The search copies a position (160 bytes) and an accumulator (256) at every node:
    // at such sizes 16-byte moves beat `rep movsb`, whose start-up took 8% of `bench`.
    if (16..=512).contains(&n) {
        // SAFETY: the caller guarantees both ranges are valid for `n` ≥ 16 bytes and do
        // not overlap, so every 16-byte block read (`src + i`, i ≤ n − 16) and written
        // lies inside them; the last block may cover part of the one before, writing the
        // same bytes again.
        unsafe {
            asm!(
                "2:",
                "movups xmm0, [{s} + {i}]",
                "movups [{d} + {i}], xmm0",
                "add {i}, 16",
                "cmp {i}, {last}",
                "jb 2b",
                "movups xmm0, [{s} + {last}]",
                "movups [{d} + {last}], xmm0",
                s = in(reg) src, d = in(reg) dst, i = inout(reg) 0usize => _,
                last = in(reg) n - 16, out("xmm0") _, options(nostack),
            );
        }
        return dst;
    }
    // SAFETY: the caller's contract.
    unsafe { copy_forward(dst, src, n) }
}

/// Copies `n` bytes forwards, one at a time as far as the program can tell: right for
/// any overlap where `dst` is not inside `src + 1 .. src + n`.
///
/// # Safety
/// `dst` and `src` valid for `n` bytes.
unsafe fn copy_forward(dst: *mut u8, src: *const u8, n: usize) -> *mut u8 {
    // SAFETY: the caller guarantees both ranges are valid for `n` bytes.
    unsafe {
        asm!("rep movsb", inout("rcx") n => _, inout("rdi") dst => _, inout("rsi") src => _,
             options(nostack, preserves_flags));
    }
    dst
}

/// C `memmove`.
///
/// # Safety
/// As in C: `dst` and `src` valid for `n` bytes; they may overlap.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn memmove(dst: *mut u8, src: *const u8, n: usize) -> *mut u8 {
    if (dst as usize).wrapping_sub(src as usize) >= n {
        // No harmful overlap: a forward copy never reads a byte it already wrote.
        // SAFETY: forwarded contract.
        return unsafe { copy_forward(dst, src, n) };
    }
    // SAFETY: `dst` lies inside `src..src+n`: copy backwards (direction flag set, then
    // cleared again as the ABI requires).
    unsafe {
        asm!("std", "rep movsb", "cld",
             inout("rcx") n => _, inout("rdi") dst.add(n).wrapping_sub(1) => _,
             inout("rsi") src.add(n).wrapping_sub(1) => _, options(nostack));
    }
    dst
}

/// C `memset`.
///
/// # Safety
/// As in C: `dst` valid for `n` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn memset(dst: *mut u8, value: i32, n: usize) -> *mut u8 {
    // SAFETY: the caller guarantees `dst` is valid for `n` bytes.
    unsafe {
        asm!("rep stosb", inout("rcx") n => _, inout("rdi") dst => _, in("al") value as u8,
             options(nostack, preserves_flags));
    }
    dst
}

/// C `memcmp`.
///
/// # Safety
/// As in C: both pointers valid for `n` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn memcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    let mut i = 0;
    while i < n {
        // SAFETY: `i < n` and both ranges are valid for `n` bytes.
        let (x, y) = unsafe { (*a.add(i), *b.add(i)) };
        if x != y {
            return x as i32 - y as i32;
        }
        i += 1;
    }
    0
}

/// C `bcmp` (equality only).
///
/// # Safety
/// As in C: both pointers valid for `n` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { memcmp(a, b, n) }
}

/// C `strlen`.
///
/// # Safety
/// As in C: `s` points to a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strlen(s: *const u8) -> usize {
    let remaining: usize;
    // SAFETY: the caller guarantees a NUL byte ends the string; `repne scasb` stops there.
    unsafe {
        asm!("repne scasb", inout("rcx") usize::MAX => remaining, inout("rdi") s => _,
             in("al") 0u8, options(nostack, readonly));
    }
    usize::MAX - remaining - 1
}

/// Referenced by unoptimised builds of `core` even with `panic = "abort"`; never called.
#[unsafe(no_mangle)]
pub extern "C" fn rust_eh_personality() {}
