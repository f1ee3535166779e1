/tmp/p5/target-stats/release/deps/minnow_frontend-2f485885c42f4b5f.d: frontend/src/lib.rs frontend/src/bench.rs frontend/src/book.rs frontend/src/fen.rs frontend/src/uci.rs /tmp/p5/book/empty.bin

/tmp/p5/target-stats/release/deps/libminnow_frontend-2f485885c42f4b5f.rlib: frontend/src/lib.rs frontend/src/bench.rs frontend/src/book.rs frontend/src/fen.rs frontend/src/uci.rs /tmp/p5/book/empty.bin

/tmp/p5/target-stats/release/deps/libminnow_frontend-2f485885c42f4b5f.rmeta: frontend/src/lib.rs frontend/src/bench.rs frontend/src/book.rs frontend/src/fen.rs frontend/src/uci.rs /tmp/p5/book/empty.bin

frontend/src/lib.rs:
frontend/src/bench.rs:
frontend/src/book.rs:
frontend/src/fen.rs:
frontend/src/uci.rs:
/tmp/p5/book/empty.bin:

# env-dep:CARGO_PKG_VERSION=0.1.0
# env-dep:MINNOW_BOOK_FILE=/tmp/p5/book/empty.bin
# env-dep:MINNOW_BUILD=0bfa86f-dirty
