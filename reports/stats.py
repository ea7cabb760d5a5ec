"""The statistics behind the balance report, from scipy and statsmodels.

* Win rates are proportions: Wilson score intervals (statsmodels) and the matching score test
  against a fair share (scipy's normal distribution). Ties count through ``win_share`` (a k-way
  tie gives each winner 1/k), so the number of "successes" may be fractional; the formulas hold
  unchanged for it.
* Means get Student-t intervals (scipy's t quantiles; large samples: the t interval holds for
  skewed but bounded scores by the central limit theorem) or scipy's percentile bootstrap with a
  fixed seed (small samples, where the shape of the distribution matters).
* Many tests at once (one per role, strategy or seat) are corrected by Holm's step-down method
  (family-wise error) or Benjamini-Hochberg (false discovery rate), from statsmodels.
* Fewer than ``MIN_SAMPLE`` observations: the report says "too few games" instead of a number.

Everything works on scalars and on numpy arrays. The one hand-written function is
``weighted_quantiles``: numpy's own weighted quantiles do not interpolate linearly, and the
report needs exactly the quantiles of the expanded data without expanding it.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

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
    return float(sps.norm.ppf(0.5 + check_confidence(confidence) / 2))


def wilson_interval(successes, n, confidence: float = 0.95):
    """Wilson score interval for a proportion ``successes / n``; NaN where ``n`` is 0.

    ``successes`` may be fractional (shared wins). Returns ``(low, high)`` (arrays if the inputs
    are arrays).
    """
    alpha = 1.0 - check_confidence(confidence)
    s = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        low, high = proportion_confint(s, n, alpha=alpha, method="wilson")
    low = np.clip(np.asarray(low, dtype=float), 0.0, 1.0)
    high = np.clip(np.asarray(high, dtype=float), 0.0, 1.0)
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
    p = np.where(n > 0, 2.0 * sps.norm.sf(np.abs(np.nan_to_num(z, nan=0.0))), np.nan)
    return float(p) if p.ndim == 0 else p


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
    with np.errstate(invalid="ignore", divide="ignore"):
        half = sps.t.ppf(0.5 + c / 2, n - 1) * sd / np.sqrt(n)
    defined = (n >= 2) & np.isfinite(sd)
    low = np.where(defined, mean - half, np.nan)
    high = np.where(defined, mean + half, np.nan)
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
    result = sps.bootstrap((x,), np.mean, confidence_level=c, n_resamples=resamples,
                           method="percentile", rng=np.random.default_rng(seed),
                           batch=max(1, 2_000_000 // x.size))
    return float(result.confidence_interval.low), float(result.confidence_interval.high)


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

def _adjusted(pvalues, method: str):
    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if ok.any():
        out[ok] = multipletests(p[ok], method=method)[1]
    return out


def holm(pvalues):
    """Holm step-down adjusted p-values (controls the family-wise error rate); NaN stays NaN."""
    return _adjusted(pvalues, "holm")


def benjamini_hochberg(pvalues):
    """Benjamini-Hochberg adjusted p-values (controls the false discovery rate); NaN stays NaN."""
    return _adjusted(pvalues, "fdr_bh")
