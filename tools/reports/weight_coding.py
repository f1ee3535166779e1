#!/usr/bin/env python3
"""What coding the first layer's weights beyond LZMA would save: a range coder with a fitted
static model, chunked residuals, and (lossy) a k-level codebook.

    python3 tools/reports/weight_coding.py [nets/gen14.nnue more.nnue ...] [--write-codebook-nets DIR]
    python3 tools/reports/weight_coding.py --write-coded nets/gen14.nnue OUT.bin
    python3 tools/reports/weight_coding.py --compare-evals BASE_EXE OTHER_EXE [CHECK.txt]

For each `MNN3` net (format: nets/README.md; reader: net_size.py's `first_layer`) prints, for
the first layer alone and for the whole file, the size with the packager's LZMA settings
(`net_size.lzma_size`: what a blob adds to the compressed engine, give or take the matches
LZMA finds across blobs) and the bits each first-layer weight costs, for:

- **baseline**: the file as stored today, the first layer as wrapping i8 differences.
- **range coder** (lossless): each weight predicted from its neighbours in its piece's plane
  (none: the raw weight; the previous feature's: the stored difference; the square to the
  left; the square below; the mean of the two), the residual (a wrapping i8) coded with a
  two-sided geometric distribution `p(r) ~ theta^|r|` whose `theta` is chosen per neuron,
  or per neuron and piece plane, from a grid of 40 (`theta_k = 1 - 2^(-k/4)`); the best
  model also moves each weight's `k` by an offset chosen by how far its two neighbours
  missed their own predictions (`ACTIVITY_EDGES`: a context, the offsets fitted too). The
  frequencies are integers (`frequencies`) that a decoder with no floating point rebuilds
  from `k`; the stream is range-coded for real (LZMA's 32-bit range coder, without its
  always-zero first byte) and decoded back (asserted), and the model's parameters (one
  byte per context and offset) are stored in front of the stream and counted: the size
  printed is exact, and `then LZMA` is that blob through LZMA as the packager would see it
  embedded (which should not help: the stream is close to random, only the parameters
  shrink). The pawns' squares on the first and last ranks are never features: their
  weights are zero (checked) and not coded.
- **chunked residuals** (lossless): each neuron's 768 weights in chunks of 4 to 64 features,
  each chunk a base (its minimum) and a bit width, the offsets bit-packed at that width;
  and the neighbour-mean residuals Rice-coded with a per-chunk parameter; the streams
  (byte-aligned, one after another) through LZMA; the best chunk size is marked.
- **codebook** (lossy): each layer's weights (the first layer; then also the output layer)
  mapped to k = 16, 32, 64 levels placed by Lloyd's k-means on the weights, the centroids
  rounded to integers; the size of the indices (neuron by neuron, plain and differenced
  modulo k) through LZMA plus the k-byte codebook, and of the re-quantized net stored in
  today's format (the codebook's values substituted back as int8, which the engine reads
  unchanged and needs no decoder for). `--write-codebook-nets DIR` writes those nets
  (`DIR/<net>-k16.nnue`, `-k16o.nnue` with the output layer too, ...) to build the engine
  with (`MINNOW_NET=...`) and compare its evaluation with `--compare-evals`: the engines'
  `eval` on the 200 positions of a check file (nets/gen14.check.txt by default), the mean
  and largest difference in centipawns.

`--write-coded NET OUT` writes the best lossless form's blob (`encode_blob`), which the
engine's decoder (engine/src/nnue.rs, `FirstLayerDecoder`, built in with `MINNOW_CODED`)
reads: parameters, then the range-coded stream.

On gen14 (2026-12-07): today's first layer 29,894 B through LZMA (4.32 bits a weight). The
range coder with the neighbour mean, `k` per neuron and plane and the activity offsets:
27,532 B exact (3.98 bits; 870 B of it parameters), 27,445 B through LZMA. Embedded in the
competition build in place of the layer (`MINNOW_CODED=nets/gen14.coded`, same bench node
count, the same `eval` on all 200 check positions) the archive falls from 62,358 to
60,670 B (-1,688 B), the decoder's code costing 587 B compressed. Chunked residuals: the
bit-packed offsets are worse than today at every chunk size (best +1,304 B, chunks of 8),
the Rice-coded residuals at best -1,437 B (chunks of 32) before their decoder. The
codebooks change the evaluation far too much to ship without retraining: 75.7 / 36.5 /
15.8 cp on average (503 / 220 / 100 cp at most) for k = 16 / 32 / 64 on the first layer.
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # net_size.py: the reader
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # package.py, via net_size

from net_size import HEADER, INPUTS, encode, first_layer, lzma_size  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PLANES = 12
# theta_k = 1 - 2^(-k/4) for k in 0..KS: 2^(-j/4) in 1/65536 for j = 0..3, shifted by k / 4.
KS = 40
FRACTION = (65536, 55109, 46341, 38968)
# The activity of a weight: |left neighbour's residual| + |lower neighbour's|; its bucket is
# the number of these edges it reaches (6 buckets), each with a fitted offset on `k`.
ACTIVITY_EDGES = (1, 3, 6, 12, 24)
PREDICTORS = ("raw", "diff", "left", "below", "mean")


def dead(feature: int) -> bool:
    """The pawns' squares on the first and last ranks: never a feature, so never trained."""
    piece, square = divmod(feature, 64)
    return piece % 6 == 0 and (square < 8 or square >= 56)


def theta_q16(k: int) -> int:
    """theta_k = 1 - 2^(-k/4), in 1/65536 (k = 0: theta 0, everything on zero)."""
    return 65536 - (FRACTION[k & 3] >> (k >> 2))


def frequencies(k: int) -> list[int]:
    """The integer frequencies of the 256 residuals (wrapping i8) under theta_k, in zigzag
    order (0, -1, 1, -2, 2, ..., 127, -128): `f(|r|) = max(1, A theta^|r|)`, with
    `A = 2^16 (1 - theta) / (1 + theta)` so that the total is about 2^16, kept in 1/65536
    while it decays. The engine's decoder computes the same integers."""
    t = theta_q16(k)
    g = (((65536 - t) << 16) // (65536 + t)) << 16
    out = []
    for z in range(256):
        m = (z + 1) >> 1
        if z and z & 1:  # -m follows +(m-1): one more step of decay
            g = (g * t) >> 16
        out.append(max(g >> 16, 1))
    return out


def zigzag(r: int) -> int:
    """The zigzag index of a wrapping-i8 residual r in -128..127."""
    return 2 * r if r >= 0 else -2 * r - 1


def unzigzag(z: int) -> int:
    return (z + 1) // 2 * (1 if z % 2 == 0 else -1) if z else 0


class Tables:
    """Cumulative frequencies and costs (bits) of every symbol under every k."""

    def __init__(self) -> None:
        self.freq = [frequencies(k) for k in range(KS)]
        self.cum = []
        for f in self.freq:
            c = [0]
            for x in f:
                c.append(c[-1] + x)
            self.cum.append(c)
        self.cost = [[-math.log2(x / c[-1]) for x in f] for f, c in zip(self.freq, self.cum)]


TABLES = Tables()


class RangeEncoder:
    """LZMA's 32-bit range coder (carry through a cached byte) with multi-symbol frequencies.
    The first byte it would write is always zero and is left out."""

    def __init__(self) -> None:
        self.low, self.range, self.cache, self.pending, self.out = 0, 0xFFFFFFFF, 0, 1, bytearray()

    def _shift_low(self) -> None:
        if self.low < 0xFF000000 or self.low >= 1 << 32:
            carry, temp = self.low >> 32, self.cache
            while True:
                self.out.append((temp + carry) & 0xFF)
                temp = 0xFF
                self.pending -= 1
                if not self.pending:
                    break
            self.cache = (self.low >> 24) & 0xFF
        self.pending += 1
        self.low = (self.low & 0x00FFFFFF) << 8

    def encode(self, cum: int, freq: int, total: int) -> None:
        r = self.range // total
        self.low += r * cum
        self.range = r * freq
        while self.range < 1 << 24:
            self.range <<= 8
            self._shift_low()

    def finish(self) -> bytes:
        for _ in range(5):
            self._shift_low()
        assert self.out[0] == 0
        return bytes(self.out[1:])


class RangeDecoder:
    """The decoder of `RangeEncoder`, as the engine's would be; bytes past the end read 0."""

    def __init__(self, data: bytes) -> None:
        self.data, self.at, self.range, self.code = data, 4, 0xFFFFFFFF, int.from_bytes(data[:4], "big")

    def decode(self, cum: list[int]) -> int:
        r = self.range // cum[-1]
        v = self.code // r
        z = 0
        while cum[z + 1] <= v:
            z += 1
        self.code -= r * cum[z]
        self.range = r * (cum[z + 1] - cum[z])
        while self.range < 1 << 24:
            self.range <<= 8
            byte = self.data[self.at] if self.at < len(self.data) else 0
            self.code = (self.code << 8 | byte) & 0xFFFFFFFF
            self.at += 1
        return z


def wrap(x: int) -> int:
    """x as a wrapping i8."""
    return (x + 128) % 256 - 128


def prediction(row: list[int], f: int, kind: str) -> int:
    """The guess for feature f's weight from the ones before it (in the neuron's order)."""
    sq = f % 64
    left = row[f - 1] if sq % 8 else None
    below = row[f - 8] if sq >= 8 else None
    if kind == "raw":
        return 0
    if kind == "diff":
        return row[f - 1] if f else 0
    if kind == "left":
        return left if left is not None else below if below is not None else 0
    if kind == "below":
        return below if below is not None else left if left is not None else 0
    if left is not None and below is not None:
        return (left + below) >> 1
    return left if left is not None else below if below is not None else 0


def residuals(rows: list[list[int]], kind: str) -> list[list[int]]:
    """Each weight's residual from its prediction, as a wrapping i8 (dead squares: 0)."""
    for row in rows:
        for f in range(INPUTS):
            if dead(f) and row[f] != 0:
                raise ValueError("a pawn weight on the first or last rank is not zero")
    return [[0 if dead(f) else wrap(row[f] - prediction(row, f, kind)) for f in range(INPUTS)] for row in rows]


def activity_bucket(res: list[int], f: int) -> int:
    """The bucket of |left residual| + |lower residual| in the same plane (`ACTIVITY_EDGES`)."""
    sq = f % 64
    a = (abs(res[f - 1]) if sq % 8 else 0) + (abs(res[f - 8]) if sq >= 8 else 0)
    return sum(a >= e for e in ACTIVITY_EDGES)


def fit(rows_res: list[list[int]], per_plane: bool, activity: bool) -> tuple[list[int], list[int]]:
    """(k per context, offset per activity bucket) minimising the coded size: each context's
    k the best for its residuals given the offsets, the offsets the best given the k, three times."""
    nb = len(ACTIVITY_EDGES) + 1
    contexts = PLANES if per_plane else 1
    hist: list[list[Counter]] = [[Counter() for _ in range(nb)] for _ in range(len(rows_res) * contexts)]
    for n, res in enumerate(rows_res):
        for f in range(INPUTS):
            if not dead(f):
                b = activity_bucket(res, f) if activity else 0
                hist[n * contexts + (f // 64 if per_plane else 0)][b][zigzag(res[f])] += 1
    cost = TABLES.cost

    def ctx_cost(h: list[Counter], k0: int, off: list[int]) -> float:
        return sum(c * cost[min(max(k0 + off[b], 0), KS - 1)][z] for b in range(nb) for z, c in h[b].items())

    off = [0] * nb
    base = [0] * len(hist)
    for _ in range(3 if activity else 0):
        base = [min(range(KS), key=lambda k0, h=h: ctx_cost(h, k0, off)) for h in hist]
        for b in range(nb):
            def bucket_cost(o: int, b: int = b) -> float:
                return sum(c * cost[min(max(k0 + o, 0), KS - 1)][z] for h, k0 in zip(hist, base) for z, c in h[b].items())
            off[b] = min(range(-16, 17), key=bucket_cost)
    base = [min(range(KS), key=lambda k0, h=h: ctx_cost(h, k0, off)) for h in hist]
    return base, off if activity else []


def code_first_layer(rows: list[list[int]], kind: str, per_plane: bool, activity: bool) -> tuple[bytes, bytes]:
    """(parameters, range-coded stream) of the first layer under one model; decodes the
    stream back and checks the weights."""
    res = residuals(rows, kind)
    base, off = fit(res, per_plane, activity)
    contexts = PLANES if per_plane else 1
    enc = RangeEncoder()
    for n, r in enumerate(res):
        for f in range(INPUTS):
            if dead(f):
                continue
            k = base[n * contexts + (f // 64 if per_plane else 0)] + (off[activity_bucket(r, f)] if activity else 0)
            cum = TABLES.cum[min(max(k, 0), KS - 1)]
            z = zigzag(r[f])
            enc.encode(cum[z], cum[z + 1] - cum[z], cum[-1])
    stream = enc.finish()
    params = bytes(base) + bytes(o % 256 for o in off)
    # Decode back, as the engine would: residual, then the weight from the decoded ones.
    dec = RangeDecoder(stream)
    for n, row in enumerate(rows):
        got, rr = [0] * INPUTS, [0] * INPUTS
        for f in range(INPUTS):
            if dead(f):
                continue
            k = base[n * contexts + (f // 64 if per_plane else 0)] + (off[activity_bucket(rr, f)] if activity else 0)
            rr[f] = unzigzag(dec.decode(TABLES.cum[min(max(k, 0), KS - 1)]))
            got[f] = wrap(prediction(got, f, kind) + rr[f])
        assert got == row, f"round trip failed at neuron {n}"
    return params, stream


def encode_blob(rows: list[list[int]]) -> bytes:
    """The best lossless form as the engine's decoder reads it: the neighbour-mean residuals,
    `k` per neuron and plane (neuron-major, one byte each), the six activity offsets (i8),
    then the range-coded stream."""
    params, stream = code_first_layer(rows, "mean", per_plane=True, activity=True)
    return params + stream


def rest_of_file(net: bytes, hidden: int) -> bytes:
    """Everything after the first layer: biases, output weights and biases."""
    return net[HEADER + INPUTS * hidden :]


# --- chunked residuals ----------------------------------------------------------------------


class BitWriter:
    def __init__(self) -> None:
        self.out, self.acc, self.n = bytearray(), 0, 0

    def put(self, value: int, bits: int) -> None:
        self.acc |= value << self.n
        self.n += bits
        while self.n >= 8:
            self.out.append(self.acc & 0xFF)
            self.acc >>= 8
            self.n -= 8

    def bytes(self) -> bytes:
        return bytes(self.out) + (bytes([self.acc]) if self.n else b"")


def chunked_packed(rows: list[list[int]], size: int) -> bytes:
    """Each chunk of `size` features: base (its minimum, a byte), width (a byte), then every
    chunk's offsets from its base bit-packed at its width; the three streams one after another."""
    bases, widths, bits = bytearray(), bytearray(), BitWriter()
    for row in rows:
        for a in range(0, INPUTS, size):
            chunk = row[a : a + size]
            lo = min(chunk)
            width = (max(chunk) - lo).bit_length()
            bases.append(lo % 256)
            widths.append(width)
            for w in chunk:
                bits.put(w - lo, width)
    return bytes(bases) + bytes(widths) + bits.bytes()


def chunked_rice(rows: list[list[int]], size: int) -> bytes:
    """The neighbour-mean residuals (zigzag) Rice-coded, each chunk with its best parameter
    (a byte per chunk, in front of the bit stream)."""
    params, bits = bytearray(), BitWriter()
    for res in residuals(rows, "mean"):
        for a in range(0, INPUTS, size):
            zs = [zigzag(r) for r in res[a : a + size]]
            k = min(range(8), key=lambda k: sum((z >> k) + 1 + k for z in zs))
            params.append(k)
            for z in zs:
                q = z >> k
                bits.put((1 << q) - 1, q)  # q ones, then a zero
                bits.put(0, 1)
                bits.put(z & ((1 << k) - 1), k)
    return bytes(params) + bits.bytes()


# --- codebook (lossy) -----------------------------------------------------------------------


def kmeans(values: list[int], k: int, rounds: int = 100) -> list[int]:
    """Lloyd's algorithm in one dimension on the values' histogram, started at the quantiles;
    the centroids rounded to integers at the end (distinct, sorted)."""
    hist = sorted(Counter(values).items())
    if len(hist) <= k:
        return [v for v, _ in hist]
    ordered = sorted(values)
    n = len(ordered)
    centres = sorted({float(ordered[(2 * i + 1) * n // (2 * k)]) for i in range(k)})
    while len(centres) < k:  # quantiles that coincide: split the widest gap instead
        gap = max(range(len(centres) - 1), key=lambda i: centres[i + 1] - centres[i])
        centres = sorted(centres + [(centres[gap] + centres[gap + 1]) / 2])
    for _ in range(rounds):
        sums = [0.0] * len(centres)
        counts = [0] * len(centres)
        for v, c in hist:
            i = min(range(len(centres)), key=lambda j: abs(v - centres[j]))
            sums[i] += v * c
            counts[i] += c
        new = sorted(sums[i] / counts[i] if counts[i] else centres[i] for i in range(len(centres)))
        if new == centres:
            break
        centres = new
    return sorted({round(c) for c in centres})


def nearest(book: list[int], v: int) -> int:
    """The index of the codebook's value nearest v (the lower one on a tie)."""
    return min(range(len(book)), key=lambda j: (abs(v - book[j]), j))


def requantized(net: bytes, hidden: int, rows: list[list[int]], k: int, output_too: bool) -> tuple[bytes, dict]:
    """(the net with its first layer, and optionally its output weights, mapped to k levels,
    in today's format; sizes of the forms of it)."""
    flat = [w for row in rows for w in row]
    book = kmeans(flat, k)
    index = {v: nearest(book, v) for v in set(flat)}
    idx_rows = [[index[w] for w in row] for row in rows]
    new_rows = [[book[i] for i in row] for row in idx_rows]
    plain = bytes(i for row in idx_rows for i in row)
    diffed = bytearray()
    for row in idx_rows:
        prev = 0
        for i in row:
            diffed.append((i - prev) % len(book))
            prev = i
    out = bytearray(net)
    out[HEADER : HEADER + INPUTS * hidden] = encode(new_rows)
    sizes = {"levels": len(book), "indices": lzma_size(plain) + len(book), "indices_diff": lzma_size(bytes(diffed)) + len(book)}
    if output_too:
        b = net[8]
        at = len(net) - 4 * b - 2 * hidden * b
        outw = [wrap(x) for x in net[at : at + 2 * hidden * b]]
        obook = kmeans(outw, k)
        out[at : at + 2 * hidden * b] = bytes(obook[nearest(obook, w)] % 256 for w in outw)
    sizes["as_int8"] = lzma_size(encode(new_rows))
    sizes["whole_int8"] = lzma_size(bytes(out))
    return bytes(out), sizes


def engine_evals(exe: str, fens: list[str]) -> list[int]:
    """The engine's `eval` (cp, side to move's view) of each position."""
    commands = "".join(f"position fen {fen}\neval\n" for fen in fens) + "quit\n"
    done = subprocess.run([exe], input=commands, capture_output=True, text=True, timeout=120, check=True)
    evals = [int(line.split()[1]) for line in done.stdout.splitlines() if line.startswith("Eval: ")]
    if len(evals) != len(fens):
        raise RuntimeError(f"{exe}: {len(evals)} evaluations for {len(fens)} positions")
    return evals


def compare_evals(base_exe: str, other_exe: str, check: str) -> None:
    lines = [ln for ln in Path(check).read_text().splitlines() if ln and not ln.startswith("#")]
    fens = [ln.split("|")[0].strip() for ln in lines]
    floats = [float(ln.split("|")[1]) for ln in lines]
    base, other = engine_evals(base_exe, fens), engine_evals(other_exe, fens)
    diff = [abs(a - b) for a, b in zip(base, other)]
    to_float = [abs(a - f) for a, f in zip(other, floats)]
    print(f"{other_exe} vs {base_exe} on {len(fens)} positions of {check}: |eval change| mean "
          f"{sum(diff) / len(diff):.2f} cp, max {max(diff)} cp, {sum(d > 2 for d in diff)} over 2 cp; "
          f"vs the float net mean {sum(to_float) / len(to_float):.2f} cp, max {max(to_float):.1f} cp")


# --- the report -----------------------------------------------------------------------------


def report(path: str, codebook_dir: str | None) -> None:
    net = Path(path).read_bytes()
    hidden, _qa, rows = first_layer(net)
    weights = INPUTS * hidden
    rest = rest_of_file(net, hidden)
    header = net[:HEADER]
    base_layer = lzma_size(encode(rows))
    base_whole = lzma_size(net)

    def line(form: str, layer: int, whole: int, extra: str = "") -> None:
        print(f"  {form:<44s} first layer {layer:7,d} B ({8 * layer / weights:.2f} bits a weight, "
              f"{layer - base_layer:+7,d}); whole net {whole:7,d} B ({whole - base_whole:+7,d}){extra}")

    print(f"{path}: {hidden} stored neurons, {weights:,} first-layer weights ({len(net):,} B file)")
    line("baseline: stored differences + LZMA", base_layer, base_whole)
    print(" range coder (lossless), exact size of parameters + stream; then LZMA:")
    for per_plane, activity in ((False, False), (True, False), (True, True)):
        kinds = PREDICTORS if not activity else ("mean",)
        for kind in kinds:
            params, stream = code_first_layer(rows, kind, per_plane, activity)
            blob = params + stream
            model = ("per neuron" if not per_plane else "per neuron-plane") + (" + activity" if activity else "")
            line(f"{kind}, {model}", len(blob), lzma_size(header + blob + rest),
                 f"; {len(params)} B params; blob through LZMA {lzma_size(blob):,} B")
    print(" chunked residuals (lossless) through LZMA:")
    for name, fn in (("bit-packed offsets from the chunk's minimum", chunked_packed), ("Rice-coded neighbour-mean residuals", chunked_rice)):
        sizes = {size: fn(rows, size) for size in (4, 8, 16, 32, 64)}
        best = min(sizes, key=lambda s: lzma_size(sizes[s]))
        for size, data in sizes.items():
            line(f"{name[:30]}, chunks of {size}", lzma_size(data), lzma_size(header + data + rest),
                 " (best)" if size == best else "")
    print(" codebook (lossy): indices + codebook through LZMA; the re-quantized net in today's format:")
    for k in (16, 32, 64):
        for output_too in (False, True):
            new_net, sizes = requantized(net, hidden, rows, k, output_too)
            tag = f"k{k}" + ("o" if output_too else "")
            if not output_too:
                line(f"k={k} ({sizes['levels']} levels) indices", sizes["indices"], sizes["indices"] - base_layer + base_whole)
                line(f"k={k} differenced indices", sizes["indices_diff"], sizes["indices_diff"] - base_layer + base_whole)
            line(f"{tag}: as int8, today's format" + (" (+output layer)" if output_too else ""), sizes["as_int8"], sizes["whole_int8"])
            if codebook_dir:
                out = Path(codebook_dir) / f"{Path(path).stem}-{tag}.nnue"
                out.write_bytes(new_net)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("nets", nargs="*", default=[str(ROOT / "nets/gen14.nnue")])
    ap.add_argument("--write-codebook-nets", metavar="DIR", help="write the codebook nets there")
    ap.add_argument("--write-coded", nargs=2, metavar=("NET", "OUT"), help="write the engine's coded first layer")
    ap.add_argument("--compare-evals", nargs="+", metavar="EXE", help="BASE_EXE OTHER_EXE [CHECK.txt]")
    args = ap.parse_args()
    if args.compare_evals:
        exes = args.compare_evals
        compare_evals(exes[0], exes[1], exes[2] if len(exes) > 2 else str(ROOT / "nets/gen14.check.txt"))
        return 0
    if args.write_coded:
        _, _, rows = first_layer(Path(args.write_coded[0]).read_bytes())
        blob = encode_blob(rows)
        Path(args.write_coded[1]).write_bytes(blob)
        print(f"{args.write_coded[1]}: {len(blob):,} B ({lzma_size(blob):,} B through LZMA)")
        return 0
    for path in args.nets:
        report(path, args.write_codebook_nets)
    return 0


if __name__ == "__main__":
    sys.exit(main())
