"""Card piles in a game's state: an array whose first ``n`` entries are the cards, the top card
last, with its count kept beside it in the state (a record field, so these functions return the
new counts for the caller to store).
"""


from simulator.core.jit import compiled
from simulator.core.rng import shuffle


@compiled
def take_top(pile, n):
    """The top card of a pile of ``n`` cards and the count left: (card, n - 1), or (-1, 0) when
    the pile is empty."""
    if n == 0:
        return -1, 0
    return pile[n - 1], n - 1


@compiled
def draw(rng, pile, n, discards, n_discards):
    """The top card of a draw pile that, once empty, is refilled from its discards, shuffled:
    (card or -1 when both are empty, the pile's count, the discards' count, how many cards were
    shuffled into the pile for this draw (0: none))."""
    shuffled = 0
    if n == 0 and n_discards > 0:
        pile[:n_discards] = discards[:n_discards]
        n, shuffled, n_discards = n_discards, n_discards, 0
        shuffle(rng, pile, n)
    card, n = take_top(pile, n)
    return card, n, n_discards, shuffled
