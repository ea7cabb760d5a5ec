"""Gnomeland's cards as rule data: rules.toml's tables are the arrays the rules read, in the
board's card order, and a number changed on a card (``--set shop_cost_coin=4``) is the number the
game plays by."""

import numpy as np
import pytest

from simulator.core.backends import play_part
from simulator.core.config import make_config
from simulator.core.rng import seed_stream
from simulator.core.trace import no_log
from simulator.games.gnomeland import story as L
from simulator.games.gnomeland.board import (
    ACTION_NAMES, BASE, COIN, FIRST_NORMAL_CARD, FIRST_SPECIAL_CARD, HEX, KIOSK, MISSION_NAMES,
    N_NORMAL_TYPES, N_SPECIAL_TYPES, NORMAL_NAMES, OBELISK, SHOP, SPECIAL_NAMES, SPELL_NAMES,
)
from simulator.games.gnomeland.turn import list_options, spend_die
from tests.gnomeland.conftest import give_dice


def key(name):
    """A card's name as its numbers' parameters begin: ``Dragons' Lair`` -> ``dragons_lair``."""
    return name.lower().replace("'", "").replace(" ", "_")


def cells(ruleset, table):
    """The parameter each number of ``table`` is (None: a number the card does not have)."""
    found = next(t for t in ruleset.card_tables if t.name == table)
    return np.array(found.cells, dtype=object).reshape(found.shape)


def card_of(cell):
    return cell.rsplit("_", 2 if "_cost_" in cell or "_upgrade_" in cell or "_alt_" in cell
                       or "_bonus_" in cell else 1)[0]


def test_the_tables_list_the_cards_in_the_boards_order(ruleset):
    """A table's rows are the cards by the index the rules know them by (board.py's names)."""
    for t in range(N_NORMAL_TYPES):
        for side in range(2):
            named = [c for c in cells(ruleset, "n_yield")[t, side].ravel() if c]
            named += [c for c in [cells(ruleset, "n_merc")[t, side]] if c]
            printed = t < FIRST_NORMAL_CARD  # the Kiosk and Guard Post: one side on the board
            assert {card_of(c) for c in named} == {key(NORMAL_NAMES[t][0 if printed else side])}
        prices = [c for c in cells(ruleset, "n_cost")[t].ravel() if c]
        assert {card_of(c) for c in prices} == (set() if t < FIRST_NORMAL_CARD
                                                else {key(NORMAL_NAMES[t][0])})
    for t in range(N_SPECIAL_TYPES):
        prices = [c for c in cells(ruleset, "s_cost")[t].ravel() if c]
        assert {card_of(c) for c in prices} == (set() if t < FIRST_SPECIAL_CARD
                                                else {key(SPECIAL_NAMES[t][0])})
    for side in range(2):
        assert {card_of(c) for c in cells(ruleset, "s_income")[side]} == {key(SPECIAL_NAMES[OBELISK][side])}
    for table in ("m_cost", "m_reward"):
        for card, sides in enumerate(MISSION_NAMES):
            for side, name in enumerate(sides):
                assert {card_of(c) for c in cells(ruleset, table)[card, side]} == {key(name)}
    assert list(cells(ruleset, "spell_copies")) == [f"spell_{key(n)}" for n in SPELL_NAMES]
    assert len(cells(ruleset, "action_copies")) == len(ACTION_NAMES)


def test_the_printed_numbers_are_in_the_tables(r):
    """The numbers the rulebook prints, where the rules read them."""
    assert r.n_cost[SHOP, 1, COIN] == 5                      # Upgrade: the Shop's 5 Coins
    assert list(r.n_yield[KIOSK, BASE, 0]) == [1, 0, 0]      # a Kiosk: 1 Coin
    dragons_lair = next(i for i, sides in enumerate(MISSION_NAMES) if sides[1] == "Dragons' Lair")
    assert list(r.m_cost[dragons_lair, 1, :3]) == [0, 2, 2]  # 2 Weapons and 2 Mana
    assert list(r.m_reward[dragons_lair, 1]) == [3, 0, 1, 0]  # 3 VP and 1 Mana


def test_a_dearer_card_is_no_longer_built_with_what_bought_it(table, rules_with):
    """Three Coins buy a Shop as printed (3 Coins); at shop_cost_coin=4 they do not."""
    def can_build_shop(r):
        s = table(2, r)
        s.res[0, :] = [3, 0, 0]
        opts = np.zeros((256, 4), dtype=np.int64)
        n = list_options(s, r, 0, opts)
        return any(opts[i, 0] == L.OPT_BUILD_NORMAL and opts[i, 1] == SHOP for i in range(n))

    dear = rules_with(shop_cost_coin=4)[0]
    assert dear.n_cost[SHOP, 0, COIN] == 4
    assert can_build_shop(rules_with()[0]) and not can_build_shop(dear)


def test_a_row_repeated_in_a_table_changes_in_every_place(table, rules_with, plans):
    """The Kiosk is one printed building: kiosk_coin is its yield on either side."""
    r = rules_with(kiosk_coin=2)[0]
    assert list(r.n_yield[KIOSK, :, 0, COIN]) == [2, 2]
    s = table(2, r)
    give_dice(s, [2])
    s.res[0, :] = 0
    spend_die(s, r, plans, seed_stream(99, 1), no_log(), 0, 0, 0)
    assert list(s.res[0]) == [2, 0, 0]


def test_the_decks_are_dealt_from_the_copies_tables(table, rules_with):
    r = rules_with(spell_hex=0, spell_curse=4)[0]
    s = table(2, r)
    spells = list(s.spell_deck[:s.spell_deck_n]) + [s.spell]
    assert len(spells) == sum(r.spell_copies) == 10 and HEX not in spells


def test_a_changed_card_number_changes_the_games():
    """Three points more for the Embassy: the games where it is completed score more."""
    def play(**settings):
        config = make_config("gnomeland", 3, seed=2, settings=settings)
        seats, _, came_up = play_part(config, 0, 100, 100)
        came_up = dict(zip(config.game.rules_that_come_up, map(int, came_up)))
        return config.game.seat_columns(seats, config)["score"], came_up["embassy_vp"]

    (score, completed), (richer, _) = play(), play(embassy_vp=4)
    assert completed > 0
    assert richer.sum() > score.sum()


@pytest.mark.parametrize("setting,message", [
    ("shop_cost_coin=10", "--set shop_cost_coin=10: out of range; shop_cost_coin must be an integer from 0 to 9"),
    ("dragons_lair_vp=many", "--set dragons_lair_vp=many: not an integer"),
    ("shop_cost_gold=1", "unknown parameter 'shop_cost_gold' of gnomeland (did you mean shop_cost_coin"),
    ("kiosk_alt_coin=1", "unknown parameter 'kiosk_alt_coin'"),  # the Kiosk has no '/'
])
def test_a_bad_card_number_is_one_line_exit_2_nothing_written(playtest, tmp_path, setting, message):
    code, _, err = playtest("run", "gnomeland", "--set", setting, "--games", 10, "--out", tmp_path / "out")
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "out").exists()
