/tmp/p5/target-stats/release/deps/minnow-983954adb08cbd89.d: src/lib.rs

/tmp/p5/target-stats/release/deps/libminnow-983954adb08cbd89.rlib: src/lib.rs

/tmp/p5/target-stats/release/deps/libminnow-983954adb08cbd89.rmeta: src/lib.rs

src/lib.rs:
