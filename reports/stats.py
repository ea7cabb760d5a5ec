"""The statistics behind the balance report: small, exact, tested functions.

* Win rates are proportions: Wilson score intervals, and the matching score test against a
  fair share. Ties count through ``win_share`` (a k-way tie gives each winner 1/k), so the number
  of "successes" may be fractional; the formulas hold unchanged for it.
* Means get Student-t intervals (large samples: the t interval holds for skewed but bounded
  scores by the central limit theorem) or a percentile bootstrap with a fixed seed (small
  samples, where the shape of the distribution matters).
* Many tests at once (one per role, strategy or seat) are corrected by Holm's step-down method
  (family-wise error) or Benjamini-Hochberg (false discovery rate).
* Fewer than ``MIN_SAMPLE`` observations: the report says "too few games" instead of a number.

Everything works on scalars and on numpy arrays; no scipy at run time (the tests check every
function against scipy).
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

from simulator.core.errors import UsageError

MIN_SAMPLE = 30
"""Fewer observations than this in a group: no number is shown, only "too few games"."""

BOOTSTRAP_BELOW = 1000
"""Means of groups smaller than this use the bootstrap; larger groups use the t interval."""

BOOTSTRAP_RESAMPLES = 4000
BOOTSTRAP_SEED = 20240611


def check_confidence(confidence: float) -> float:
    """The confidence level as a float strictly between 0 and 1, or a one-line UsageError."""
    try:
        value = float(confidence)
    except (TypeError, ValueError):
        raise UsageError(f"--confidence {confidence!r}: must be a number between 0 and 1, "
                         "e.g. 0.95") from None
    if not 0.0 < value < 1.0 or math.isnan(value):
        raise UsageError(f"--confidence {confidence}: must be strictly between 0 and 1, e.g. 0.95")
    return value


def enough(n, minimum: int = MIN_SAMPLE):
    """True where a group is large enough to show a number (works on arrays too)."""
    return np.asarray(n) >= minimum


def z_value(confidence: float) -> float:
    """The two-sided standard normal quantile: 1.96 for 0.95."""
    return NormalDist().inv_cdf(0.5 + check_confidence(confidence) / 2)


def wilson_interval(successes, n, confidence: float = 0.95):
    """Wilson score interval for a proportion ``successes / n``; NaN where ``n`` is 0.

    ``successes`` may be fractional (shared wins). Returns ``(low, high)`` (arrays if the inputs
    are arrays).
    """
    z = z_value(confidence)
    s = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = s / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
        low = np.clip(centre - half, 0.0, 1.0)
        high = np.clip(centre + half, 0.0, 1.0)
    low = np.where(n > 0, low, np.nan)
    high = np.where(n > 0, high, np.nan)
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def proportion_pvalue(successes, n, p0):
    """Two-sided score test of "the true proportion is ``p0``" (the test the Wilson interval inverts).

    ``z = (p - p0) / sqrt(p0 (1 - p0) / n)``; the p-value is ``P(|Z| >= |z|)``. The Wilson interval
    at confidence ``c`` excludes ``p0`` exactly when this p-value is below ``1 - c``.
    """
    s = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    p0 = np.asarray(p0, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        z = (s / n - p0) / np.sqrt(p0 * (1 - p0) / n)
    erfc = np.vectorize(math.erfc, otypes=[float])
    p = np.where(n > 0, erfc(np.abs(np.nan_to_num(z, nan=0.0)) / math.sqrt(2)), np.nan)
    return float(p) if p.ndim == 0 else p


# --- Student t, without scipy -------------------------------------------------------------

def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction for the regularized incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def _log_gamma_ratio(a: float, b: float) -> float:
    """log(Gamma(a + b) / Gamma(a)), accurate also for a huge ``a`` (no cancellation)."""
    if a < 1e4:
        return math.lgamma(a + b) - math.lgamma(a)
    # Stirling: (a+b-1/2) log(a+b) - (a-1/2) log(a) - b + 1/(12(a+b)) - 1/(12a) - ...
    return (b * math.log(a) + (a + b - 0.5) * math.log1p(b / a) - b
            + (1 / (12 * (a + b)) - 1 / (12 * a))
            - (1 / (360 * (a + b) ** 3) - 1 / (360 * a ** 3)))


def _betainc(a: float, b: float, x: float, y: float | None = None) -> float:
    """Regularized incomplete beta function I_x(a, b); ``y`` = 1 - x if known more precisely."""
    y = 1.0 - x if y is None else y
    if x <= 0.0:
        return 0.0
    if y <= 0.0:
        return 1.0
    big, small = (a, b) if a >= b else (b, a)
    log_front = (_log_gamma_ratio(big, small) - math.lgamma(small)
                 + a * math.log(x) + b * math.log(y))
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _betacf(a, b, x) / a
    return 1.0 - math.exp(log_front) * _betacf(b, a, y) / b


def t_cdf(t: float, df: float) -> float:
    """Cumulative distribution function of Student's t with ``df`` degrees of freedom."""
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, got {df}")
    x = df / (df + t * t)
    y = t * t / (df + t * t)
    tail = 0.5 * _betainc(df / 2.0, 0.5, x, y)
    return 1.0 - tail if t > 0 else tail


def t_quantile(q: float, df: float) -> float:
    """The ``q`` quantile of Student's t (inverse of ``t_cdf``), by bisection to 1e-12."""
    if not 0.0 < q < 1.0:
        raise ValueError(f"quantile must be in (0, 1), got {q}")
    if q == 0.5:
        return 0.0
    if q < 0.5:
        return -t_quantile(1.0 - q, df)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < q:
        lo, hi = hi, hi * 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if t_cdf(mid, df) < q:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * max(1.0, hi):
            break
    return 0.5 * (lo + hi)


def t_interval(mean, sd, n, confidence: float = 0.95):
    """Student-t interval for a mean from its summary: ``mean ± t(c, n-1) * sd / sqrt(n)``.

    NaN where ``n < 2``. Returns ``(low, high)`` (arrays if the inputs are arrays).
    """
    c = check_confidence(confidence)
    mean = np.asarray(mean, dtype=float)
    sd = np.asarray(sd, dtype=float)
    n = np.asarray(n, dtype=float)
    shape = np.broadcast(mean, sd, n).shape
    mean, sd, n = (np.broadcast_to(a, shape).ravel() for a in (mean, sd, n))
    low = np.full(mean.shape, np.nan)
    high = np.full(mean.shape, np.nan)
    for i in range(mean.size):
        if n[i] >= 2 and np.isfinite(sd[i]):
            half = t_quantile(0.5 + c / 2, n[i] - 1) * sd[i] / math.sqrt(n[i])
            low[i], high[i] = mean[i] - half, mean[i] + half
    if shape == ():
        return float(low[0]), float(high[0])
    return low.reshape(shape), high.reshape(shape)


def bootstrap_mean_interval(values, confidence: float = 0.95, resamples: int = BOOTSTRAP_RESAMPLES,
                            seed: int = BOOTSTRAP_SEED, counts=None):
    """Percentile bootstrap interval for the mean of ``values`` (a fixed seed: reproducible).

    ``counts`` (optional) says how many times each value occurs. NaN for fewer than 2 values.
    """
    c = check_confidence(confidence)
    x = np.asarray(values, dtype=float)
    if counts is not None:
        x = np.repeat(x, np.asarray(counts, dtype=np.int64))
    if x.size < 2:
        return float("nan"), float("nan")
    rng = np.random.default_rng(seed)
    means = np.empty(resamples)
    block = max(1, 2_000_000 // x.size)
    for start in range(0, resamples, block):
        stop = min(resamples, start + block)
        idx = rng.integers(0, x.size, size=(stop - start, x.size))
        means[start:stop] = x[idx].mean(axis=1)
    low, high = np.quantile(means, [(1 - c) / 2, (1 + c) / 2])
    return float(low), float(high)


def weighted_quantiles(values, counts, qs):
    """Quantiles of data given as distinct ``values`` with ``counts``, exactly as
    ``numpy.quantile(np.repeat(values, counts), qs)`` (linear interpolation) computes them,
    without expanding the data.
    """
    v = np.asarray(values, dtype=float)
    c = np.asarray(counts, dtype=np.int64)
    keep = c > 0
    v, c = v[keep], c[keep]
    if v.size == 0:
        return np.full(len(qs), np.nan)
    order = np.argsort(v, kind="stable")
    v, c = v[order], c[order]
    cum = np.cumsum(c)
    n = int(cum[-1])
    out = []
    for q in qs:
        pos = (n - 1) * float(q)
        lo = int(math.floor(pos))
        hi = min(lo + 1, n - 1)
        x_lo = v[np.searchsorted(cum, lo, side="right")]
        x_hi = v[np.searchsorted(cum, hi, side="right")]
        out.append(x_lo + (pos - lo) * (x_hi - x_lo))
    return np.array(out)


# --- multiple comparisons -----------------------------------------------------------------

def holm(pvalues):
    """Holm step-down adjusted p-values (controls the family-wise error rate); NaN stays NaN."""
    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    q = p[ok]
    m = q.size
    if m == 0:
        return out
    order = np.argsort(q, kind="stable")
    adjusted = np.maximum.accumulate((m - np.arange(m)) * q[order])
    res = np.empty(m)
    res[order] = np.minimum(adjusted, 1.0)
    out[ok] = res
    return out


def benjamini_hochberg(pvalues):
    """Benjamini-Hochberg adjusted p-values (controls the false discovery rate); NaN stays NaN."""
    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    q = p[ok]
    m = q.size
    if m == 0:
        return out
    order = np.argsort(q, kind="stable")
    scaled = q[order] * m / np.arange(1, m + 1)
    adjusted = np.minimum.accumulate(scaled[::-1])[::-1]
    res = np.empty(m)
    res[order] = np.minimum(adjusted, 1.0)
    out[ok] = res
    return out
