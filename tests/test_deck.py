"""Card piles (simulator/core/deck.py): the top card, and a pile refilled from its discards."""

import numpy as np

from simulator.core.deck import draw, take_top
from simulator.core.rng import seed_stream, shuffle


def test_the_top_card_is_the_last_and_an_empty_pile_gives_none():
    pile = np.array([4, 7, 9, 0], dtype=np.int64)
    assert take_top(pile, 3) == (9, 2)
    assert take_top(pile, 0) == (-1, 0)


def test_draw_takes_from_the_pile_while_it_holds_cards():
    pile = np.array([1, 2, 3, 0, 0], dtype=np.int64)
    discards = np.array([8, 9, 0, 0, 0], dtype=np.int64)
    assert draw(seed_stream(1, 0), pile, 3, discards, 2) == (3, 2, 2, 0)


def test_an_empty_pile_is_refilled_from_the_discards_shuffled():
    discards = np.arange(10, 20, dtype=np.int64)
    pile = np.zeros(10, dtype=np.int64)
    card, n, n_discards, shuffled = draw(seed_stream(3, 1), pile, 0, discards, 10)
    expected = discards.copy()
    shuffle(seed_stream(3, 1), expected, 10)   # the same shuffle, then the top card
    assert (card, n, n_discards, shuffled) == (expected[9], 9, 0, 10)
    assert list(pile[:10]) == list(expected) and sorted(pile[:10]) == list(discards)


def test_draw_gives_none_when_the_pile_and_the_discards_are_empty():
    pile = np.zeros(4, dtype=np.int64)
    assert draw(seed_stream(1, 0), pile, 0, pile.copy(), 0) == (-1, 0, 0, 0)
