# minnow: build, test and measure. `make` alone builds the engine and copies it to $(EXE),
# as OpenBench expects (`make EXE=<path>`).

EXE    ?= minnow
PYTHON := .venv/bin/python

.PHONY: all main test venv submission arena perft-full crosscheck perft-speed bench criterion measure wac mates clean

all:
	cargo build --release
	cp target/release/minnow $(EXE)

# The main job: build and package the submission, play it in the real Kaggle harness
# against the harness's random agent, and print the result with size, time and memory.
main: venv submission
	$(PYTHON) tools/arena.py --opponent random --games 4
	$(PYTHON) tools/measure.py
	target/kaggle/release/minnow bench

# The competition build: the network alone, without the `analysis` feature (MultiPV,
# searchmoves, go mate…) that `cargo build --release` gives users; the same search (`Bench`).
KAGGLE_BUILD := cargo build --release --no-default-features --features nnue --target-dir target/kaggle

# submission/submission.tar.gz from target/kaggle/release/minnow; fails above 65,536 bytes.
submission: venv
	$(KAGGLE_BUILD)
	$(PYTHON) tools/package.py

# A longer arena run: make arena OPPONENT='cmd="gnuchess --uci" option.Hash=4' GAMES=100
OPPONENT ?= random
GAMES    ?= 30
LATENCY  ?= 0
arena: submission
	$(PYTHON) tools/arena.py --opponent '$(OPPONENT)' --games $(GAMES) --latency $(LATENCY)

# Everything that `.ci/run` checks, except formatting and lints. The second `cargo test`
# runs the search on the hand-crafted evaluation (the shipped build uses the network).
test: venv
	cargo build --release
	$(KAGGLE_BUILD)
	cargo test --workspace
	cargo test --no-default-features --test search --test eval
	cargo test -p minnow-engine --features tune --lib
	cargo test -p minnow-engine --features stats --lib
	$(PYTHON) -m pytest -q tests/python

venv:
	bash tools/venv.sh

# The whole perft suite at every listed depth (21.8 billion nodes, about a minute).
perft-full:
	cargo test --release --test perft -- --ignored

crosscheck: venv
	cargo build --release
	$(PYTHON) tools/suites/crosscheck.py --positions 2000 --depth 3

# Needs Debian's stockfish: apt-get install stockfish
perft-speed:
	cargo build --release
	python3 tools/reports/perft_speed.py --repeats 5

# The bench signature, as OpenBench reads it: the last line's node count (the newest
# commit message's `Bench: N`, which tests/python/test_bench.py checks).
bench:
	cargo build --release
	target/release/minnow bench

# The criterion benchmarks (benches/movegen.rs).
criterion:
	cargo bench --bench movegen

# Win-At-Chess at 200 ms and 1 s a position, and the mate suite.
wac: venv
	cargo build --release
	$(PYTHON) tools/suites/epd_test.py --movetime 200 tests/data/wac.epd
	$(PYTHON) tools/suites/epd_test.py --movetime 1000 tests/data/wac.epd

mates: venv
	cargo build --release
	$(PYTHON) tools/suites/epd_test.py --movetime 500 --require-all tests/data/mates.epd

measure: venv
	$(PYTHON) tools/measure.py

clean:
	cargo clean
	rm -f $(EXE)
