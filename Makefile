# minnow: build, test and measure. `make` alone builds the engine and copies it to $(EXE),
# as OpenBench expects (`make EXE=<path>`).

EXE    ?= minnow
PYTHON := .venv/bin/python

.PHONY: all main test venv perft-full crosscheck perft-speed bench measure clean

all:
	cargo build --release
	cp target/release/minnow $(EXE)

# The main job: build the engine and print its size, speed and memory figures.
main: venv
	cargo build --release
	$(PYTHON) tools/measure.py
	$(PYTHON) tools/crosscheck.py --positions 200 --depth 3

# Everything that `.ci/run` checks, except formatting and lints.
test: venv
	cargo build --release
	cargo test
	$(PYTHON) -m pytest -q tests/python

venv:
	bash tools/venv.sh

# The whole perft suite at every listed depth (21.8 billion nodes, about a minute).
perft-full:
	cargo test --release --test perft -- --ignored

crosscheck: venv
	cargo build --release
	$(PYTHON) tools/crosscheck.py --positions 2000 --depth 3

# Needs Debian's stockfish: apt-get install stockfish
perft-speed:
	cargo build --release
	python3 tools/perft_speed.py --repeats 5

bench:
	cargo bench --bench movegen

measure: venv
	$(PYTHON) tools/measure.py --compare-embed

clean:
	cargo clean
	rm -f $(EXE)
