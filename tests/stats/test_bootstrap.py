"""System-level tau, chat-level rho and their bootstrap intervals on hand-built data whose
answer is known."""

import numpy as np
import pytest
from scipy import stats

from chatmatch.stats.bootstrap import agreement, paired_difference
from chatmatch.stats.correlation import rho_rows, tau_b_rows

SYSTEMS = ["a", "a", "b", "b", "c", "c"]
#: each system's chats lie wholly above the next system's: every resample keeps a > b > c
VALUES = [3.0, 3.2, 2.0, 2.1, 1.0, 1.1]
RATINGS = [5.0, 5.0, 3.0, 4.0, 1.0, 2.0]


def test_separated_systems_agree_in_every_resample():
    tau, rho, systems, chats = agreement(SYSTEMS, VALUES, RATINGS, samples=200, seed=3)
    assert (systems, chats) == (3, 6)
    assert (tau.value, tau.low, tau.high) == (1.0, 1.0, 1.0)
    # by hand: value ranks 1..6 (c, c, b, b, a, a); rating ranks 1, 2, 3, 4, 5.5, 5.5:
    # sum of products of deviations 17, sums of squares 17.5 and 17 -> 17 / sqrt(17.5 * 17)
    assert rho.value == pytest.approx(17 / (17.5 * 17) ** 0.5, abs=1e-4)
    assert rho.value == pytest.approx(stats.spearmanr(VALUES, RATINGS).statistic, abs=1e-4)
    assert rho.low <= rho.value <= rho.high <= 1.0


def test_one_chat_per_system_has_no_spread():
    # means (1, 2, 3) against (2, 3, 1): one concordant pair, two discordant -> -1/3
    tau, _, _, _ = agreement(["x", "y", "z"], [1, 2, 3], [2, 3, 1], samples=50)
    assert tau.value == pytest.approx(-1 / 3, abs=1e-4)
    assert tau.low == tau.high == tau.value


def test_overlapping_systems_give_an_interval_across_zero():
    # a's chats 0 and 10 straddle b's 4 and 5.5: on all chats a (5) > b (4.75), tau +1,
    # but a resample drawing a's 0 twice reverses it
    tau, _, _, _ = agreement(["a", "a", "b", "b"], [0, 10, 4, 5.5], [1, 1, 0, 0],
                             samples=400, seed=0)
    assert tau.value == 1.0 and tau.low == -1.0 and tau.high == 1.0
    assert "[-1.00, +1.00]" in tau.fmt()


def test_missing_values_leave_the_chat_out():
    tau, _, systems, chats = agreement(SYSTEMS + ["d"], VALUES + [float("nan")],
                                       RATINGS + [4.0], samples=10)
    assert (systems, chats, tau.value) == (3, 6, 1.0)
    none, _, _, n = agreement(["a"], [float("nan")], [1.0])
    assert none.value is None and n == 0 and none.fmt() == "n/a"


def test_seeded():
    one = agreement(["a", "a", "b", "b"], [0, 10, 4, 5.5], [1, 2, 0, 1], samples=100, seed=7)
    two = agreement(["a", "a", "b", "b"], [0, 10, 4, 5.5], [1, 2, 0, 1], samples=100, seed=7)
    assert one == two


def test_paired_difference_calls_a_clear_gain_better():
    reversed_ = [-v for v in VALUES]  # ranks the systems exactly backwards: tau -1
    dtau, drho = paired_difference(SYSTEMS, reversed_, VALUES, RATINGS, samples=200)
    assert (dtau.value, dtau.low, dtau.high) == (2.0, 2.0, 2.0)
    assert drho.low > 0
    same, _ = paired_difference(SYSTEMS, VALUES, VALUES, RATINGS, samples=50)
    assert (same.value, same.low, same.high) == (0.0, 0.0, 0.0)


def test_vectorised_statistics_match_scipy():
    rng = np.random.default_rng(0)
    x = rng.integers(0, 4, size=(20, 7)).astype(float)  # with ties
    y = rng.integers(0, 4, size=(20, 7)).astype(float)
    taus, rhos = tau_b_rows(x, y), rho_rows(x, y)
    for i in range(20):
        t = stats.kendalltau(x[i], y[i], variant="b").statistic
        r = stats.spearmanr(x[i], y[i]).statistic
        assert (np.isnan(t) and np.isnan(taus[i])) or taus[i] == pytest.approx(t)
        assert (np.isnan(r) and np.isnan(rhos[i])) or rhos[i] == pytest.approx(r)
    assert np.isnan(tau_b_rows(np.ones((1, 3)), np.arange(3.0)[None, :]))[0]
