#!/usr/bin/env python3
"""What a network costs in the archive, and what a coarser first layer would cost.

    python3 tools/reports/net_size.py nets/gen8.nnue [more.nnue ...]

For each `MNN3` net (format: devtools/src/nnue.rs) prints its width, QA, the compressed size
of the whole file and of its first layer alone with the packager's LZMA settings (what the
net adds to the engine's compressed size, give or take the matches LZMA finds across
blobs), the bits each first-layer weight costs, and the first layer's compressed size if its
weights were rounded to a step 1.5, 2, 3 or 4 times coarser (QA 64 -> 43, 32, 21, 16):
an estimate of what quantization-aware training at that QA would save, used to decide which
widths fit the 65,536-byte archive. (Rounding a trained net after the fact changes its
evaluation; only the size is estimated here.)

It also prints what a lossless coder made for these weights would reach (`adaptive_bits`):
each weight predicted from its neighbours on the board (the mean of the square to its left
and the one below, in the same piece's plane), the residual binarised (zero, sign, unary
magnitude) and each bit coded with an adaptive probability whose context is the piece and
the size of the neighbours' residuals: the ideal cost of an adaptive binary arithmetic
coder such as LZMA's own, not counting a decoder in the engine. For gen9 it is 3.96 bits
a weight against LZMA's 4.20 on the differenced bytes (about 1.5 KB of 26.7 KB): the
weights are close to noise at this grid, so bytes for a wider net have to come from a
coarser grid or fewer weights, not from a cleverer lossless coder.
"""

from __future__ import annotations

import argparse
import lzma
import math
import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # package.py: the packager's filters

from package import FILTERS  # noqa: E402

INPUTS = 768
HEADER = 12


def lzma_size(data: bytes) -> int:
    """Compressed size with the packager's LZMA2 settings, without the x86 filter in front
    (`package.compress_engine`): the filter rewrites the odd byte pair of a net, which moves
    its size by about 20 bytes, noise for comparing nets with each other."""
    return len(lzma.compress(data, format=lzma.FORMAT_RAW, filters=FILTERS[1:]))


def first_layer(net: bytes) -> tuple[int, int, list[list[int]]]:
    """(width, QA, weights neuron by neuron) of an `MNN3` net."""
    if net[:4] != b"MNN3" or len(net) < HEADER:
        raise ValueError("not an MNN3 net")
    hidden = struct.unpack_from("<H", net, 4)[0]
    qa = net[6]
    stored = net[HEADER : HEADER + INPUTS * hidden]
    if len(stored) != INPUTS * hidden:
        raise ValueError("the file is shorter than its header says")
    rows = []
    for neuron in range(hidden):
        value, row = 0, []
        for byte in stored[neuron * INPUTS : (neuron + 1) * INPUTS]:
            value = (value + byte + 128) % 256 - 128  # undo the wrapping i8 differences
            row.append(value)
        rows.append(row)
    return hidden, qa, rows


def encode(rows: list[list[int]]) -> bytes:
    """The rows stored as the file stores them: wrapping i8 differences, neuron-major."""
    out = bytearray()
    for row in rows:
        prev = 0
        for w in row:
            out.append((w - prev) % 256)
            prev = w
    return bytes(out)


def _bit_cost(probs: list, i: int, bit: bool) -> float:
    """Bits to code `bit` with the adaptive probability `probs[i]` (of a 0, in 1/4096), then
    the probability moved 1/32 of the way towards what was seen (LZMA's update, shift 5)."""
    p = probs[i]
    cost = -math.log2((p if not bit else 4096 - p) / 4096)
    probs[i] = p - (p >> 5) if bit else p + ((4096 - p) >> 5)
    return cost


def adaptive_bits(rows: list[list[int]]) -> float:
    """Bits an adaptive binary arithmetic coder with a neighbour predictor would need for
    the first layer (see the module documentation)."""
    unary = 12
    models = [[2048] * (2 + unary) for _ in range(5 * 6)]
    total = 0.0
    for row in rows:
        residual = [0] * INPUTS
        for f, w in enumerate(row):
            sq = f % 64
            # The squares to the left and below, in the same piece's plane, where they exist.
            neighbours = [g for g, on_board in ((f - 1, sq % 8), (f - 8, sq >= 8)) if on_board]
            guess = sum(row[g] for g in neighbours) // len(neighbours) if neighbours else 0
            r = residual[f] = w - guess
            near = sum(abs(residual[g]) for g in neighbours)
            level = 0 if near == 0 else 1 if near <= 2 else 2 if near <= 5 else 3 if near <= 10 else 4
            probs = models[level * 6 + (f // 64) % 6]
            total += _bit_cost(probs, 0, r != 0)
            if r == 0:
                continue
            total += _bit_cost(probs, 1, r < 0)
            magnitude = abs(r) - 1
            for i in range(unary):
                total += _bit_cost(probs, 2 + i, magnitude > i)
                if magnitude <= i:
                    break
            else:  # the rest as an Exp-Golomb code, its bits at even odds
                rest, k = magnitude - unary, 0
                while rest >= 1 << k:
                    rest -= 1 << k
                    k += 1
                total += 2 * k + 1
    return total


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("nets", nargs="+")
    args = ap.parse_args()
    for path in args.nets:
        net = Path(path).read_bytes()
        try:
            hidden, qa, rows = first_layer(net)
        except ValueError as e:
            print(f"{path}: error: {e}")
            return 1
        layer = lzma_size(encode(rows))
        weights = INPUTS * hidden
        print(f"{path}: H={hidden} QA={qa}: file {len(net):,} B, {lzma_size(net):,} B compressed; "
              f"first layer {layer:,} B compressed ({8 * layer / weights:.2f} bits a weight)")
        ideal = adaptive_bits(rows)
        print(f"  adaptive coder with a neighbour predictor: {ideal / 8:,.0f} B ({ideal / weights:.2f} bits a weight)")
        for step in (1.5, 2, 3, 4):
            coarse = [[round(w / step) for w in row] for row in rows]
            size = lzma_size(encode(coarse))
            print(f"  step x{step:g} (QA {qa / step:.0f}): first layer {size:,} B "
                  f"({8 * size / weights:.2f} bits a weight, {size - layer:+,} B)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
