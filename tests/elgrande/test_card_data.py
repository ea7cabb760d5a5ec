"""El Grande's cards and scoreboards as rule data: rules.toml's tables, copied into the state at
the start of a game, in the board's order, and a number changed on a card is the one played."""

import numpy as np

from simulator.games.elgrande.board import (
    ARAGON, CARD_KEYS, CARD_STACK, CASTILLO, GOLD, HOLY_INQUISITION, REGION_KEYS, STATE, TRANSPORT,
    load_tables, stack_sizes,
)


def loaded(r):
    s = np.zeros(1, dtype=STATE).view(np.recarray)
    load_tables(s[0], r)
    return s[0]


def test_the_tables_list_regions_and_cards_in_the_boards_order(ruleset):
    cells = {t.name: t.cells for t in ruleset.card_tables}
    assert [c[:-len("_points_1")] for c in cells["points"][::3]] == list(REGION_KEYS) + ["castillo"]
    assert list(cells["card_count"]) == [f"{key}_cards" for key in CARD_KEYS]


def test_a_changed_number_is_the_one_the_game_reads(rules_with):
    s = loaded(rules_with(aragon_points_1=9, castillo_points_3=0, transport_gold=2,
                          move_any_4_cards=3)[0])
    assert s.points[ARAGON, 0] == 9 and s.points[CASTILLO, 2] == 0
    assert s.card_tokens[TRANSPORT, GOLD] == 2
    assert s.card_count[CARD_KEYS.index("move_any_4")] == 3


def test_a_base_card_places_its_stacks_number(r):
    s = loaded(r)
    assert list(s.card_caballeros[:HOLY_INQUISITION]) == list(CARD_STACK[:HOLY_INQUISITION])
    assert s.card_caballeros[HOLY_INQUISITION] == r.holy_inquisition_caballeros


def test_the_stacks_hold_the_tables_counts(rules_with):
    base = stack_sizes(rules_with()[0])
    more = stack_sizes(rules_with(move_any_4_cards=3)[0])
    assert more[0] == base[0] + 2 and more[1:] == base[1:]
