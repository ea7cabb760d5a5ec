"""Which strategy plays which seat: rotation, so seat and strategy are never confounded."""

import numpy as np
from numba import njit


@njit(cache=True)
def seat_plans(game_index, n_players, max_players, mix_ids, mix_weights):
    """Seat ``s`` of game ``i`` plays ``mix[(s + i) % len(mix)]``.

    Returns the seats' strategy ids and weight rows (``plans``, what every decision reads) and
    each seat's position in the mix (for the dataset's ``strategy`` column).
    """
    k = mix_ids.shape[0]
    ids = np.zeros(max_players, dtype=np.int64)
    mix_slot = np.zeros(max_players, dtype=np.int64)
    weights = np.zeros((max_players, mix_weights.shape[1]), dtype=np.float64)
    for seat in range(n_players):
        j = (seat + game_index) % k
        mix_slot[seat] = j
        ids[seat] = mix_ids[j]
        weights[seat, :] = mix_weights[j, :]
    return (ids, weights), mix_slot
