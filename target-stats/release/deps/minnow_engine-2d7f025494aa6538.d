/tmp/p5/target-stats/release/deps/minnow_engine-2d7f025494aa6538.d: engine/src/lib.rs engine/src/eval.rs engine/src/movepick.rs engine/src/nnue.rs engine/src/params.rs engine/src/score.rs engine/src/search.rs engine/src/stats.rs engine/src/time.rs engine/src/tt.rs /tmp/p5/nets/gen14.nnue

/tmp/p5/target-stats/release/deps/libminnow_engine-2d7f025494aa6538.rlib: engine/src/lib.rs engine/src/eval.rs engine/src/movepick.rs engine/src/nnue.rs engine/src/params.rs engine/src/score.rs engine/src/search.rs engine/src/stats.rs engine/src/time.rs engine/src/tt.rs /tmp/p5/nets/gen14.nnue

/tmp/p5/target-stats/release/deps/libminnow_engine-2d7f025494aa6538.rmeta: engine/src/lib.rs engine/src/eval.rs engine/src/movepick.rs engine/src/nnue.rs engine/src/params.rs engine/src/score.rs engine/src/search.rs engine/src/stats.rs engine/src/time.rs engine/src/tt.rs /tmp/p5/nets/gen14.nnue

engine/src/lib.rs:
engine/src/eval.rs:
engine/src/movepick.rs:
engine/src/nnue.rs:
engine/src/params.rs:
engine/src/score.rs:
engine/src/search.rs:
engine/src/stats.rs:
engine/src/time.rs:
engine/src/tt.rs:
/tmp/p5/nets/gen14.nnue:

# env-dep:MINNOW_NET_FILE=/tmp/p5/nets/gen14.nnue
# env-dep:MINNOW_NET_NAME=gen14
