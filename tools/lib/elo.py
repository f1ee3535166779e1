"""Match statistics: Elo from scores, 95% intervals from game or game-pair results, and the
generalized SPRT's log-likelihood ratio (the models cutechess and fishtest use). Pure
functions, shared by match.py, arena.py, series.py and spsa.py.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054  # two-sided 95% quantile of the normal distribution
NELO_SCALE = 800.0 / math.log(10.0)  # normalized Elo per standard deviation of a game's score


def score_to_elo(score: float) -> float:
    """Logistic Elo difference for an expected score in [0, 1] (infinite at the ends)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def elo_to_score(elo: float) -> float:
    """Expected score for a logistic Elo difference."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


@dataclass(frozen=True)
class EloEstimate:
    """Elo difference with its 95% confidence interval."""

    model: str  # "pentanomial" or "trinomial"
    samples: int  # pairs or games
    score: float
    elo: float
    low: float
    high: float
    # Normalized Elo (fishtest's nElo): the mean's distance from 0.5 in standard deviations
    # of one game's score, times 800 / ln 10. The games an SPRT needs go as 1 / nElo², so two
    # nElo of one change measured on two opening books say which book tells builds apart with
    # fewer games. NaN when no spread could be measured.
    normalized: float = math.nan

    @property
    def error(self) -> float:
        """Half the width of the confidence interval (infinite if either end is)."""
        return (self.high - self.low) / 2.0

    @property
    def normalized_error(self) -> float:
        """Half the width of normalized Elo's 95% interval (±1.96 on the t-value)."""
        games = self.samples * (2 if self.model == "pentanomial" else 1)
        return Z95 * NELO_SCALE / math.sqrt(games) if games else math.inf


def estimate_elo(values: Sequence[float], counts: Sequence[float], model: str) -> EloEstimate:
    """Elo and 95% interval from a distribution of per-sample scores in [0, 1].

    The mean score has standard error sqrt(var / n), var the variance of the
    per-sample scores (divided by n, as cutechess and fishtest do); the
    normal-approximation interval of the mean is mapped to Elo.
    """
    n = sum(counts)
    if n == 0:
        return EloEstimate(model, 0, 0.5, 0.0, -math.inf, math.inf)
    mean = sum(v * c for v, c in zip(values, counts, strict=True)) / n
    if n < 2:  # no spread can be measured from one sample
        return EloEstimate(model, int(n), mean, score_to_elo(mean), -math.inf, math.inf)
    variance = sum(c * (v - mean) ** 2 for v, c in zip(values, counts, strict=True)) / n
    margin = Z95 * math.sqrt(variance / n)
    # A pair's score is the mean of two games: one game's variance is twice the pair's.
    game_sd = math.sqrt(variance * (2.0 if model == "pentanomial" else 1.0))
    normalized = (mean - 0.5) / game_sd * NELO_SCALE if game_sd > 0 else math.nan
    return EloEstimate(
        model, int(n), mean, score_to_elo(mean), score_to_elo(mean - margin), score_to_elo(mean + margin), normalized
    )


TRINOMIAL_VALUES = (0.0, 0.5, 1.0)  # loss, draw, win
PENTANOMIAL_VALUES = (0.0, 0.25, 0.5, 0.75, 1.0)  # pair points 0, 0.5, 1, 1.5, 2 (divided by 2)


def trinomial_elo(wins: int, draws: int, losses: int) -> EloEstimate:
    """Elo from game results, each game a sample."""
    return estimate_elo(TRINOMIAL_VALUES, (losses, draws, wins), "trinomial")


def pentanomial_elo(pairs: Sequence[int]) -> EloEstimate:
    """Elo from game-pair results; pairs[i] counts pairs where engine 1 scored i/2 points."""
    return estimate_elo(PENTANOMIAL_VALUES, pairs, "pentanomial")


def _mle_distribution(values: Sequence[float], probs: Sequence[float], mean: float) -> list[float]:
    """The distribution on `values` closest to `probs` (maximum likelihood) whose expectation is `mean`.

    It is q_i = p_i / (1 + lam * (v_i - mean)), lam the root of
    sum p_i (v_i - mean) / (1 + lam (v_i - mean)) = 0, which is decreasing in
    lam on the interval where every denominator is positive; found by bisection.
    Needs every p_i > 0 and min(values) < mean < max(values).
    """
    offsets = [v - mean for v in values]
    low = -1.0 / max(offsets)
    high = -1.0 / min(offsets)

    def slope(lam: float) -> float:
        return sum(p * d / (1.0 + lam * d) for p, d in zip(probs, offsets, strict=True))

    for _ in range(200):
        mid = (low + high) / 2.0
        if slope(mid) > 0.0:
            low = mid
        else:
            high = mid
    lam = (low + high) / 2.0
    return [p / (1.0 + lam * d) for p, d in zip(probs, offsets, strict=True)]


def gsprt_llr(counts: Sequence[float], values: Sequence[float], elo0: float, elo1: float) -> float:
    """Generalized SPRT log-likelihood ratio of H1 (logistic elo1) against H0 (elo0).

    counts[i] is how many samples (games or game pairs) scored values[i].
    Empty cells get 1e-3 so that the maximum likelihood distributions exist.
    """
    total = sum(counts)
    if total == 0:
        return 0.0
    regularized = [max(c, 1e-3) for c in counts]
    probs = [c / sum(regularized) for c in regularized]
    q0 = _mle_distribution(values, probs, elo_to_score(elo0))
    q1 = _mle_distribution(values, probs, elo_to_score(elo1))
    return total * sum(p * math.log(b / a) for p, a, b in zip(probs, q0, q1, strict=True))


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Lower and upper LLR bounds: accept H0 below the first, H1 above the second."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def fmt_elo(value: float) -> str:
    """An Elo figure as printed in results: signed, one decimal, `+inf`/`-inf` at the ends,
    `nan` where none could be measured."""
    if math.isnan(value):
        return "nan"
    if not math.isfinite(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value + 0.0:+.1f}" if round(value, 1) != 0 else "+0.0"


def fmt_err(value: float) -> str:
    """An error bar as printed in results: one decimal, `inf` when unbounded."""
    return f"{value:.1f}" if math.isfinite(value) else "inf"
