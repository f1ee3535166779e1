//! The shipped engine: a `no_std`, `no_main`, libc-free static executable that reads UCI
//! commands from standard input and answers on standard output. `minnow bench [depth]`
//! runs the benchmark and exits.
#![no_std]
#![no_main]

mod sys;

use minnow::defs::ascii;
use minnow::history::ContinuationHistory;
use minnow::tt::{BUCKETS_PER_MIB, Bucket};
use minnow::uci::{Env, Flow, Output, Uci};

// Entry point: the kernel starts us with the stack pointer at argc, followed by the argv
// pointers. Pass it on and align the stack to 16 bytes as the C ABI requires.
core::arch::global_asm!(
    ".globl _start",
    "_start:",
    "xor ebp, ebp",
    "mov rdi, rsp",
    "and rsp, -16",
    "call minnow_start",
    "ud2",
);

/// Largest `Hash` in MiB: beside the continuation histories (576 KiB), the network and the
/// code, this keeps the engine well inside the competition's 5 MiB. Pages of the table
/// beyond the `Hash` in use are never touched and cost no memory.
const MAX_HASH_MIB: usize = 3;

/// Transposition-table storage, handed to the front end once at start-up.
static mut TT_STORAGE: [Bucket; MAX_HASH_MIB * BUCKETS_PER_MIB] =
    [Bucket::EMPTY; MAX_HASH_MIB * BUCKETS_PER_MIB];

/// Continuation-history storage, handed to the front end once at start-up.
static mut CONTINUATION: ContinuationHistory = ContinuationHistory::EMPTY;

/// Standard output with a buffer, written out at each flush or when full.
struct Stdout {
    buf: [u8; 4096],
    len: usize,
}

impl Output for Stdout {
    #[inline(never)]
    fn write(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            if self.len == self.buf.len() {
                self.flush();
            }
            let n = bytes.len().min(self.buf.len() - self.len);
            self.buf[self.len..self.len + n].copy_from_slice(&bytes[..n]);
            self.len += n;
            bytes = &bytes[n..];
        }
    }

    fn flush(&mut self) {
        sys::write_all(1, &self.buf[..self.len]);
        self.len = 0;
    }
}

/// Longest input line accepted; longer lines are reported and skipped.
const LINE_CAPACITY: usize = 16 * 1024;

/// Standard input split into lines, readable with or without blocking.
struct Stdin {
    buf: [u8; LINE_CAPACITY],
    /// Start of unread data in `buf`.
    start: usize,
    /// End of data in `buf`.
    end: usize,
    /// The current line is too long and is being skipped.
    overflow: bool,
    /// Input has ended.
    eof: bool,
}

impl Stdin {
    /// Reads more input. Returns false if none is available (non-blocking) or at EOF.
    fn fill(&mut self, block: bool) -> bool {
        if self.eof || (!block && !sys::poll_readable(0, 0)) {
            return false;
        }
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        if self.end == self.buf.len() {
            // A line longer than the buffer: drop it up to its newline.
            self.overflow = true;
            self.end = 0;
        }
        loop {
            let n = sys::read(0, &mut self.buf[self.end..]);
            if n == sys::EINTR {
                continue;
            }
            if n <= 0 {
                self.eof = true;
                return false;
            }
            self.end += n as usize;
            return true;
        }
    }
}

/// The clock and standard input, as the front end sees them.
struct System {
    stdin: Stdin,
    out_of_band: &'static str,
}

impl Env for System {
    fn now_ms(&mut self) -> u64 {
        sys::monotonic_ms()
    }

    fn read_line(&mut self, block: bool) -> Option<&str> {
        let s = &mut self.stdin;
        loop {
            if let Some(nl) = s.buf[s.start..s.end].iter().position(|&b| b == b'\n') {
                let line_start = s.start;
                s.start += nl + 1;
                if s.overflow {
                    s.overflow = false;
                    self.out_of_band = "input line too long (16 KiB), ignored";
                    return Some("");
                }
                let line = &s.buf[line_start..line_start + nl];
                let line = line.strip_suffix(b"\r").unwrap_or(line);
                return match ascii(line) {
                    Some(text) => Some(text),
                    None => {
                        self.out_of_band = "input line not ASCII, ignored";
                        Some("")
                    }
                };
            }
            if !s.fill(block) {
                // End of input means quit; otherwise nothing is waiting.
                return if s.eof { Some("quit") } else { None };
            }
        }
    }

    fn take_error(&mut self) -> Option<&'static str> {
        let problem = core::mem::take(&mut self.out_of_band);
        (!problem.is_empty()).then_some(problem)
    }
}

/// Command-line argument `i` (0 = the program) from the initial stack.
///
/// # Safety
/// `stack` must be the stack pointer the kernel passed to `_start`.
unsafe fn arg(stack: *const usize, i: usize) -> Option<&'static [u8]> {
    // SAFETY: the kernel lays out argc, then argc pointers to NUL-terminated strings that
    // live as long as the process.
    unsafe {
        if i >= *stack {
            return None;
        }
        let ptr = *stack.add(1 + i) as *const u8;
        Some(core::slice::from_raw_parts(ptr, sys::strlen(ptr)))
    }
}

#[unsafe(no_mangle)]
extern "C" fn minnow_start(stack: *const usize) -> ! {
    let mut out = Stdout { buf: [0; 4096], len: 0 };
    let stdin = Stdin { buf: [0; LINE_CAPACITY], start: 0, end: 0, overflow: false, eof: false };
    let mut system = System { stdin, out_of_band: "" };
    // SAFETY: this is the only place that takes the storage, once, before anything else
    // runs; nothing else refers to TT_STORAGE.
    let storage_ptr = &raw mut TT_STORAGE;
    let storage = unsafe { &mut *storage_ptr };
    // SAFETY: as for TT_STORAGE: taken once, here; nothing else refers to CONTINUATION.
    let continuation_ptr = &raw mut CONTINUATION;
    let continuation = unsafe { &mut *continuation_ptr };
    let mut uci = Uci::new(storage, continuation);

    // `minnow bench [depth]`: run the benchmark and exit.
    // SAFETY: `stack` is what `_start` received from the kernel.
    if unsafe { arg(stack, 1) } == Some(b"bench") {
        let mut command = arrayvec::ArrayString::<16>::new();
        let _ = command.try_push_str("bench ");
        // SAFETY: as above.
        if let Some(depth) = unsafe { arg(stack, 2) } {
            // One that is not ASCII or longer than the 10 bytes left is not a depth: `?`,
            // which `bench` refuses with an error line, as it refuses `bench abc`.
            let _ = command.try_push_str(ascii(depth).filter(|d| d.len() <= 10).unwrap_or("?"));
        }
        uci.handle_line(&command, &mut out, &mut system);
        out.flush();
        sys::exit(0);
    }

    let mut line = [0u8; LINE_CAPACITY];
    loop {
        let len = match system.read_line(true) {
            Some(text) => {
                line[..text.len()].copy_from_slice(text.as_bytes());
                text.len()
            }
            None => continue,
        };
        if let Some(problem) = system.take_error() {
            let o: &mut dyn Output = &mut out;
            o.put("info string error: ").put(problem).put("\n").flush();
        }
        let text = line.get(..len).and_then(ascii).unwrap_or("");
        if uci.handle_line(text, &mut out, &mut system) == Flow::Quit {
            break;
        }
    }
    out.flush();
    sys::exit(0)
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    sys::write_all(1, b"info string error: internal error, engine stops\n");
    sys::exit(101)
}
