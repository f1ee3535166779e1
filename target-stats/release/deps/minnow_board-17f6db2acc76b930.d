/tmp/p5/target-stats/release/deps/minnow_board-17f6db2acc76b930.d: board/src/lib.rs board/src/attacks.rs board/src/board.rs board/src/defs.rs board/src/movegen.rs board/src/perft.rs board/src/rules.rs board/src/see.rs board/src/tablegen.rs board/src/types.rs /tmp/p5/target-stats/release/build/minnow-board-12527a539392c253/out/tables.rs

/tmp/p5/target-stats/release/deps/libminnow_board-17f6db2acc76b930.rlib: board/src/lib.rs board/src/attacks.rs board/src/board.rs board/src/defs.rs board/src/movegen.rs board/src/perft.rs board/src/rules.rs board/src/see.rs board/src/tablegen.rs board/src/types.rs /tmp/p5/target-stats/release/build/minnow-board-12527a539392c253/out/tables.rs

/tmp/p5/target-stats/release/deps/libminnow_board-17f6db2acc76b930.rmeta: board/src/lib.rs board/src/attacks.rs board/src/board.rs board/src/defs.rs board/src/movegen.rs board/src/perft.rs board/src/rules.rs board/src/see.rs board/src/tablegen.rs board/src/types.rs /tmp/p5/target-stats/release/build/minnow-board-12527a539392c253/out/tables.rs

board/src/lib.rs:
board/src/attacks.rs:
board/src/board.rs:
board/src/defs.rs:
board/src/movegen.rs:
board/src/perft.rs:
board/src/rules.rs:
board/src/see.rs:
board/src/tablegen.rs:
board/src/types.rs:
/tmp/p5/target-stats/release/build/minnow-board-12527a539392c253/out/tables.rs:

# env-dep:OUT_DIR=/tmp/p5/target-stats/release/build/minnow-board-12527a539392c253/out
