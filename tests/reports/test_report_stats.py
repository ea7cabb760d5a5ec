"""The report's statistics (statsmodels and scipy underneath), checked against scipy's own
functions for the same quantity and against values worked out by hand."""

import math

import numpy as np
import pytest
import scipy.stats as ss

from reports import stats
from simulator.core.errors import UsageError


@pytest.mark.parametrize("k, n", [(0, 10), (3, 10), (10, 10), (1, 1), (250, 1000), (7, 2000)])
@pytest.mark.parametrize("confidence", [0.8, 0.95, 0.99])
def test_wilson_matches_scipy(k, n, confidence):
    expected = ss.binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
    low, high = stats.wilson_interval(k, n, confidence)
    assert low == pytest.approx(expected.low, abs=1e-12)
    assert high == pytest.approx(expected.high, abs=1e-12)


def test_wilson_vectorised_and_empty_group():
    low, high = stats.wilson_interval(np.array([3, 0, 5]), np.array([10, 0, 5]))
    expected = ss.binomtest(3, 10).proportion_ci(method="wilson")
    assert low[0] == pytest.approx(expected.low) and high[0] == pytest.approx(expected.high)
    assert math.isnan(low[1]) and math.isnan(high[1])
    assert high[2] == pytest.approx(1.0) and low[2] < 1.0


def test_wilson_with_shared_wins_by_hand():
    # 2.5 wins in 10 (a tie shared): p = 0.25, z = 1.959964
    # denom = 1 + z^2/10 = 1.384146; centre = (0.25 + z^2/20) / denom = 0.319383
    # half = z * sqrt(0.25*0.75/10 + z^2/400) / denom = 0.238434
    low, high = stats.wilson_interval(2.5, 10, 0.95)
    assert low == pytest.approx(0.319383 - 0.238434, abs=2e-6)
    assert high == pytest.approx(0.319383 + 0.238434, abs=2e-6)
    below = ss.binomtest(2, 10).proportion_ci(method="wilson")
    above = ss.binomtest(3, 10).proportion_ci(method="wilson")
    assert below.low < low < above.low and below.high < high < above.high


@pytest.mark.parametrize("k, n, p0", [(30, 100, 0.25), (520, 2000, 0.25), (12, 40, 0.5), (0, 50, 0.1)])
def test_score_test_pvalue_matches_scipy(k, n, p0):
    z = (k / n - p0) / math.sqrt(p0 * (1 - p0) / n)
    assert stats.proportion_pvalue(k, n, p0) == pytest.approx(2 * ss.norm.sf(abs(z)), rel=1e-9)


def test_score_test_agrees_with_wilson_interval():
    # the Wilson interval excludes p0 exactly when the score test rejects at 1 - confidence
    for k in range(0, 201, 3):
        low, high = stats.wilson_interval(k, 200, 0.95)
        outside = not (low <= 0.25 <= high)
        assert outside == (stats.proportion_pvalue(k, 200, 0.25) < 0.05), k


@pytest.mark.parametrize("n", [2, 5, 31, 400, 100_000])
def test_t_interval_matches_scipy(n):
    mean, sd = 6.7, 2.9
    expected = ss.t.interval(0.95, n - 1, loc=mean, scale=sd / math.sqrt(n))
    assert stats.t_interval(mean, sd, n, 0.95) == pytest.approx(expected, rel=1e-9)


def test_t_interval_vectorised_and_undefined_for_one_value():
    low, high = stats.t_interval(np.array([1.0, 2.0]), np.array([1.0, 0.5]), np.array([1, 50]))
    assert math.isnan(low[0]) and math.isnan(high[0])
    assert (low[1], high[1]) == pytest.approx(ss.t.interval(0.95, 49, loc=2.0, scale=0.5 / math.sqrt(50)))


def test_bootstrap_is_reproducible_and_close_to_scipy():
    x = np.random.default_rng(3).exponential(scale=4.0, size=300)   # skewed, like scores
    a = stats.bootstrap_mean_interval(x, 0.95)
    assert a == stats.bootstrap_mean_interval(x, 0.95)               # fixed seed
    reference = ss.bootstrap((x,), np.mean, confidence_level=0.95, method="percentile",
                             n_resamples=20_000, rng=1).confidence_interval
    se = x.std(ddof=1) / math.sqrt(x.size)
    assert a[0] == pytest.approx(reference.low, abs=0.1 * se)
    assert a[1] == pytest.approx(reference.high, abs=0.1 * se)
    assert a[0] < x.mean() < a[1]
    # a skewed sample: the percentile interval is not symmetric about the mean (t's would be)
    assert (a[1] - x.mean()) > (x.mean() - a[0])


def test_bootstrap_from_counts_equals_bootstrap_of_the_values():
    values, counts = np.array([2.0, 5.0, 9.0]), np.array([10, 3, 7])
    assert (stats.bootstrap_mean_interval(values, counts=counts)
            == stats.bootstrap_mean_interval(np.repeat(values, counts)))
    assert all(math.isnan(v) for v in stats.bootstrap_mean_interval([4.0]))


def test_weighted_quantiles_equal_numpy_on_the_expanded_data():
    rng = np.random.default_rng(0)
    qs = [0.0, 0.05, 0.25, 0.5, 0.75, 0.95, 1.0]
    for _ in range(300):
        values = np.unique(rng.integers(-5, 30, size=rng.integers(1, 12))).astype(float)
        counts = rng.integers(0, 7, size=values.size)
        counts[rng.integers(values.size)] += 1
        shuffle = rng.permutation(values.size)
        got = stats.weighted_quantiles(values[shuffle], counts[shuffle], qs)
        assert got == pytest.approx(np.quantile(np.repeat(values, counts), qs))


def test_holm_by_hand():
    # sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04 -> running max
    adjusted = stats.holm([0.01, 0.04, 0.03, 0.005])
    assert adjusted == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert stats.holm([0.5, 0.6]) == pytest.approx([1.0, 1.0])          # capped at 1
    with_nan = stats.holm([0.01, float("nan"), 0.02])
    assert math.isnan(with_nan[1]) and with_nan[[0, 2]] == pytest.approx([0.02, 0.02])
    assert stats.holm([]).size == 0


def test_benjamini_hochberg_matches_scipy():
    p = np.random.default_rng(1).uniform(0, 0.2, size=25)
    assert stats.benjamini_hochberg(p) == pytest.approx(ss.false_discovery_control(p))


def test_too_few_games_rule():
    assert not stats.enough(stats.MIN_SAMPLE - 1)
    assert stats.enough(stats.MIN_SAMPLE)
    assert list(stats.enough(np.array([0, 29, 30, 10_000]))) == [False, False, True, True]


@pytest.mark.parametrize("bad", [0, 1, 1.5, -0.2, float("nan"), "high", None])
def test_bad_confidence_is_a_one_line_usage_error(bad):
    with pytest.raises(UsageError) as e:
        stats.check_confidence(bad)
    assert "--confidence" in str(e.value) and "\n" not in str(e.value)


def test_z_value():
    assert stats.z_value(0.95) == pytest.approx(ss.norm.ppf(0.975))
    assert stats.z_value(0.5) == pytest.approx(ss.norm.ppf(0.75))
