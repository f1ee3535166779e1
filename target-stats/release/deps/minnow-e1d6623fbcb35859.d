/tmp/p5/target-stats/release/deps/minnow-e1d6623fbcb35859.d: src/main.rs src/sys.rs

/tmp/p5/target-stats/release/deps/minnow-e1d6623fbcb35859: src/main.rs src/sys.rs

src/main.rs:
src/sys.rs:
