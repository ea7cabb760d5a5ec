"""Final standings: rank by score with a game's tie-break, shared ranks for true ties."""

from simulator.core.jit import compiled


@compiled
def rank_players(score, tiebreak, n, rank):
    """Fill ``rank[:n]``: 1 + the number of players strictly ahead (score, then tie-break).

    Players equal on both share a rank, so the winners are the players with rank 1.
    """
    for p in range(n):
        ahead = 0
        for q in range(n):
            if score[q] > score[p] or (score[q] == score[p] and tiebreak[q] > tiebreak[p]):
                ahead += 1
        rank[p] = 1 + ahead
