//! The shipped engine: a `no_std`, `no_main`, libc-free static executable that reads UCI
//! commands from standard input and answers on standard output.
#![no_std]
#![no_main]

mod sys;

use minnow::uci::{Flow, Output, Uci};

// Entry point: the kernel starts us with the stack pointer at argc. Pass it on and align
// the stack to 16 bytes as the C ABI requires.
core::arch::global_asm!(
    ".globl _start",
    "_start:",
    "xor ebp, ebp",
    "mov rdi, rsp",
    "and rsp, -16",
    "call minnow_start",
    "ud2",
);

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

/// Reads standard input line by line and hands each line to the front end. End of input
/// means quit, as in every UCI engine.
fn run(uci: &mut Uci, out: &mut Stdout) {
    let mut buf = [0u8; LINE_CAPACITY];
    let mut len = 0; // bytes of the current (incomplete) line in `buf`
    let mut overflow = false; // the current line is too long and is being skipped
    loop {
        let n = sys::read(0, &mut buf[len..]);
        if n == -4 {
            continue; // EINTR
        }
        if n <= 0 {
            return;
        }
        let end = len + n as usize;
        let mut start = 0;
        while let Some(nl) = buf[start..end].iter().position(|&b| b == b'\n') {
            let line = &buf[start..start + nl];
            start += nl + 1;
            if overflow {
                overflow = false;
                continue;
            }
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            let flow = match core::str::from_utf8(line) {
                Ok(text) => uci.handle_line(text, out),
                Err(_) => {
                    out.put("info string error: input line is not valid UTF-8\n").flush();
                    Flow::Continue
                }
            };
            if flow == Flow::Quit {
                return;
            }
        }
        buf.copy_within(start..end, 0);
        len = end - start;
        if len == buf.len() {
            if !overflow {
                out.put("info string error: input line longer than 16384 bytes, ignored\n").flush();
            }
            overflow = true;
            len = 0;
        }
    }
}

#[unsafe(no_mangle)]
extern "C" fn minnow_start(_stack: *const usize) -> ! {
    let mut out = Stdout { buf: [0; 4096], len: 0 };
    let mut uci = Uci::new();
    run(&mut uci, &mut out);
    out.flush();
    sys::exit(0)
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    sys::write_all(1, b"info string error: internal error, engine stops\n");
    sys::exit(101)
}
