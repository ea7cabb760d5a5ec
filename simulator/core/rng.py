"""Per-game random streams: xoshiro256** seeded by splitmix64.

Every game draws from its own stream, derived only from (run seed, game index). A game's dice
therefore never depend on the thread that plays it, the chunk it is in, or the backend.
The state is a local ``uint64[4]`` array; every constant is a ``np.uint64`` because numba turns
``uint64 + int`` into signed ``int64`` (see the numba notes), which would break the generator.
"""

import numpy as np

from simulator.core.jit import compiled

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S17 = np.uint64(17)
_S45 = np.uint64(45)
_S7 = np.uint64(7)
_S11 = np.uint64(11)
_S57 = np.uint64(57)
_S5 = np.uint64(5)
_S9 = np.uint64(9)
_S32 = np.uint64(32)
_S53 = np.uint64(53)
_S64 = np.uint64(64)


@compiled
def _splitmix64(x):
    """One splitmix64 step: returns (new counter, output)."""
    x = x + _GOLDEN
    z = x
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return x, z ^ (z >> _S31)


@compiled
def _rotl(x, k):
    return (x << k) | (x >> (_S64 - k))


@compiled
def seed_stream(run_seed, game_index):
    """The random state of game ``game_index`` of the run seeded ``run_seed``."""
    _, mixed_seed = _splitmix64(np.uint64(run_seed))
    x = mixed_seed ^ np.uint64(game_index)
    state = np.empty(4, dtype=np.uint64)
    for i in range(4):
        x, state[i] = _splitmix64(x)
    return state


@compiled
def next_u64(state):
    result = _rotl(state[1] * _S5, _S7) * _S9
    t = state[1] << _S17
    state[2] ^= state[0]
    state[3] ^= state[1]
    state[1] ^= state[2]
    state[0] ^= state[3]
    state[2] ^= t
    state[3] = _rotl(state[3], _S45)
    return result


@compiled
def below(state, n):
    """A uniform integer in [0, n), without modulo bias (Lemire's rejection on 32 bits)."""
    bound = np.uint64(n)
    threshold = (np.uint64(0x100000000) - bound) % bound
    while True:
        r = next_u64(state) >> _S32
        m = r * bound
        if (m & np.uint64(0xFFFFFFFF)) >= threshold:
            return np.int64(m >> _S32)


@compiled
def uniform(state):
    """A float in [0, 1) with 53 random bits."""
    return np.float64(next_u64(state) >> np.uint64(11)) / 9007199254740992.0


@compiled(inline="always")  # in every valuation of every player: no call overhead
def jitter(amount, state):
    """A random amount in [-amount/2, amount/2): the players' noise, so that equal players do
    not mirror each other (no draw when ``amount`` is 0)."""
    if amount == 0.0:
        return 0.0
    return amount * (uniform(state) - 0.5)


@compiled
def roll_die(state):
    return below(state, 6) + 1


@compiled
def roll_2d6(state):
    """Two dice, as every Gremios roll is; returns (first die, second die)."""
    return roll_die(state), roll_die(state)


@compiled
def shuffle(state, cards, n):
    """Fisher-Yates shuffle of the first ``n`` entries of ``cards`` in place."""
    for i in range(n - 1, 0, -1):
        j = below(state, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


@compiled
def flagged(state, flags, n, declines):
    """A uniform choice among the entries of ``flags[:n]`` that are set, by one draw: the index
    of the chosen one, or -1 for one of ``declines`` more equal chances to choose none."""
    k = 0
    for i in range(n):
        k += 1 if flags[i] else 0
    pick = below(state, k + declines)
    for i in range(n):
        if flags[i]:
            if pick == 0:
                return i
            pick -= 1
    return -1
