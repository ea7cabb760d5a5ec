"""The Gnomeland rulebook and FAQ 1.0, rule by rule, on hand-built tables.

Each test sets up a situation the rulebook speaks about (paraphrased in its docstring), lets the
engine play that step, and checks the outcome the rulebook states. Where the rulebook is silent
the test checks the assumption written in rules.toml, and says so.
"""

import numpy as np
import pytest

from simulator.core.ranking import rank_players
from simulator.core.rng import seed_stream
from simulator.core.trace import entries, new_log, no_log
from simulator.games.gnomeland import story as L
from simulator.games.gnomeland.board import (
    ABUNDANCE, ADVANCED, BASE, BRAWL, COIN, COURT, CURSE, FAVOUR, FORTUNE, GNOME_RECALL,
    GUARD_POST, INN, KIOSK, MAGIC_CHALLENGE, MANA, OBELISK, PALACE, PIER, SANCTUARY, SHOP,
    SOLDIER, SUMMONING, TRADER, TWO_COINS, WAREHOUSE, WEAPON, WIZARD, building_points, circular,
    final_score, slot_of,
)
from simulator.games.gnomeland.turn import (
    apply_option, cast_spell, complete_mission, contest, end_of_round, end_of_turn,
    list_options, neutral_available, pack, pack_wide, place_card, spend_die, start_turn,
)
from strategies.gnomeland import COPIER
from tests.gnomeland.conftest import give_dice, make_plans


def logged(log, code):
    return [tuple(int(x) for x in row[1:]) for row in entries(log) if row[0] == code]


def options(s, r, p=0):
    opts = np.zeros((256, 4), dtype=np.int64)
    n = list_options(s, r, p, opts)
    return [tuple(int(x) for x in opts[i, :3]) for i in range(n)]


def rng():
    return seed_stream(99, 1)


# --- dice ------------------------------------------------------------------------------------------

def test_a_die_of_2_activates_the_building_on_1_2(table, r, plans):
    """The Turn: 'a die with a value of 2 will be used to activate the Normal Building card in
    position 1-2'. The Kiosk there gives 1 Coin."""
    s = table(2)
    assert [slot_of(v) for v in range(1, 7)] == [0, 0, 1, 1, 2, 2]
    give_dice(s, [2])
    s.res[0, :] = 0
    spend_die(s, r, plans, rng(), no_log(), 0, 0, 0)
    assert list(s.res[0]) == [1, 0, 0] and s.dice_spent[0] == 1


def test_dice_are_circular():
    """Important Rule: above 6 is 1, below 1 is 6."""
    assert circular(7) == 1 and circular(0) == 6 and circular(4) == 4


def test_court_and_town_hall_turn_dice_circularly(table, r, plans):
    """Court: +1 to one unspent die; Town Hall (its Advanced side, assumption): +1 or -1; a 6
    raised becomes a 1, a 1 lowered a 6."""
    s = table(2)
    s.special[0, 0] = COURT
    give_dice(s, [6, 1])
    opts = options(s, r)
    assert (L.OPT_DIE_CHANGE, 0, 0) in opts and (L.OPT_DIE_CHANGE, 0, 1) not in opts
    apply_option(s, r, plans, rng(), no_log(), 0, L.OPT_DIE_CHANGE, 0, 0)
    assert s.dice[0] == 1 and s.special_used[0, 0] == 1
    assert not any(o[0] == L.OPT_DIE_CHANGE for o in options(s, r))  # once per turn
    s.special_used[0, 0] = 0
    s.special_side[0, 0] = ADVANCED
    apply_option(s, r, plans, rng(), no_log(), 0, L.OPT_DIE_CHANGE, 0, 2 * 1 + 1)
    assert s.dice[1] == 6


def test_faq_q1_several_dice_on_one_building(table, r, plans):
    """FAQ Q1: no limit to the dice matched with one building: three 4s trigger it three times."""
    s = table(2)
    give_dice(s, [4, 4, 4])
    s.res[0, :] = 0
    for d in range(3):
        spend_die(s, r, plans, rng(), no_log(), 0, d, 0)
    assert s.res[0, COIN] == 3 * r.kiosk_coin


def test_faq_q2_neutral_dice_go_back_to_the_pool(table, rules_with, plans):
    """FAQ Q2: neutral dice never belong to a player; after use they return to the common pool.
    With one neutral die, a second extra die can be rolled once the first is spent."""
    r = rules_with(neutral_dice=1)[0]
    s = table(2, r)
    give_dice(s, [1, 1, 1, 3], neutral=(3,))
    assert not neutral_available(s, r)
    spend_die(s, r, plans, rng(), no_log(), 0, 3, 0)
    assert neutral_available(s, r)


# --- building and upgrading --------------------------------------------------------------------

def test_shop_upgraded_to_bank_for_5_coins_usable_the_same_turn(table, r, plans):
    """Upgrade Normal Buildings: pay the 5 Coins at the top right of the Shop, flip it into the
    Bank in the same position; its new characteristics are usable at once (spend a die on the
    Base side, upgrade, spend another die on the Advanced side)."""
    s = table(2)
    s.normal[0, 0] = SHOP
    s.deck_at[0, 0, SHOP - 2] = 1
    s.res[0, :] = [3, 0, 0]
    give_dice(s, [1, 2])
    spend_die(s, r, plans, rng(), no_log(), 0, 0, 0)     # the Shop: 2 Coins
    assert s.res[0, COIN] == 5 and r.shop_upgrade_coin == 5
    assert (L.OPT_UPGRADE_NORMAL, 0, SHOP) in options(s, r)
    apply_option(s, r, plans, rng(), no_log(), 0, L.OPT_UPGRADE_NORMAL, 0, SHOP)
    assert s.res[0, COIN] == 0 and s.normal[0, 0] == SHOP and s.normal_side[0, 0] == ADVANCED
    spend_die(s, r, plans, rng(), no_log(), 0, 1, 0)     # the Bank, same turn
    assert s.res[0, COIN] == r.bank_coin
    assert building_points(s, r, 0) == r.vp_advanced_normal  # Advanced Normal: +1 at the end


def test_a_built_card_covers_the_building_and_discards_its_markers(table, r, plans, log):
    """N.B. a placed card replaces the building there, markers on it discarded: the gnomes on a
    covered Gnome House leave the game (rules.toml notes: gnome_house)."""
    s = table(2)
    place_card(s, r, log, 0, 0, INN, 2)
    assert s.normal[0, 2] == INN and s.normal_side[0, 2] == BASE
    place_card(s, r, log, 0, 1, COURT, 2)  # special slot 2 holds the Gnome House
    assert s.gnomes_home[0] == 0 and s.gnomes_out[0] == r.gnomes_per_player
    assert logged(log, L.GNOMES_DISCARDED) == [(0, r.gnomes_per_player, 0, 0, 0, 0)]
    assert not any(o[0] == L.OPT_TAVERN for o in options(s, r))  # no gnome left to play


@pytest.mark.parametrize("reading", ["resources_taken", "resources_discarded"])
def test_a_covered_warehouse_and_the_resources_kept_on_it(table, rules_with, plans, reading):
    """N.B. a placed card's building loses its markers, 'Resource or Gnome'. P0 kept a Mana and a
    Weapons in its two Warehouses and copied 3 Coins; it builds a Pier (3 Coins) over a
    Warehouse. rules.toml covered_warehouse = resources_taken (default): the kept resources came
    into hand at the start of the turn, nothing is lost. resources_discarded: they are still on
    the Warehouses; the one Warehouse left holds one, the other is discarded (greedy keeps the
    Mana: its Warehouse choice). Had P0 spent a kept resource first, nothing would be lost."""
    r = rules_with(covered_warehouse=reading)[0]
    s = table(2, r)
    s.res[0, :] = [0, 1, 1]
    s.copied[0, :] = [3, 0, 0]
    s.own_dice[0, :3] = [1, 1, 1]
    start_turn(s, r, rng(), no_log(), 0)
    supply = s.supply.copy()
    log = new_log(500)
    assert (r.pier_cost_coin, r.pier_cost_mana, r.pier_cost_weapon) == (3, 0, 0)
    apply_option(s, r, plans, rng(), log, 0, L.OPT_BUILD_SPECIAL, PIER, 0)
    assert s.special[0, 0] == PIER and s.special[0, 1] == WAREHOUSE
    if reading == "resources_taken":
        assert list(s.res[0]) == [0, 1, 1] and logged(log, L.WAREHOUSE_DISCARDED) == []
        return
    assert list(s.res[0]) == [0, 1, 0] and list(s.stored[0]) == [0, 1, 0]
    assert logged(log, L.WAREHOUSE_DISCARDED) == [(0, 0, pack_wide(0, 0, 1), 0, 0, 0)]
    assert s.supply[WEAPON] == supply[WEAPON] + 1 and s.lost[0] == 1
    # a kept Coin spent on the Pier first: one kept resource left, the other Warehouse holds it
    s = table(2, r)
    s.res[0, :] = [1, 0, 1]
    s.copied[0, :] = [2, 0, 0]
    start_turn(s, r, rng(), no_log(), 0)
    log = new_log(500)
    apply_option(s, r, plans, rng(), log, 0, L.OPT_BUILD_SPECIAL, PIER, 0)
    assert list(s.res[0]) == [0, 0, 1] and logged(log, L.WAREHOUSE_DISCARDED) == []


def test_inn_gives_weapons_or_mana_and_the_hotel_also_a_mercenary(table, r, plans):
    """The Cards: the Inn gives 1 Weapons or 1 Mana ('/' means 'or'); the Hotel also offers a
    Mercenary of the player's choice."""
    s = table(2)
    s.normal[0, 0] = INN
    give_dice(s, [1])
    die_opts = [o for o in options(s, r) if o[0] == L.OPT_DIE]
    assert die_opts == [(L.OPT_DIE, 0, 0), (L.OPT_DIE, 0, 1)]
    s.normal_side[0, 0] = ADVANCED
    die_opts = [o for o in options(s, r) if o[0] == L.OPT_DIE]
    assert len(die_opts) == 5  # Weapons, Mana, or one of the three Mercenaries



# --- the Special Buildings' cards ----------------------------------------------------------------

def special_on(s, p, t, side, slot=0):
    s.special[p, slot] = t
    s.special_side[p, slot] = side
    s.special_used[p, slot] = 0


def test_palace_pays_a_coin_for_a_neutral_die_once_per_turn(table, r, plans, log):
    """Palace: once per turn, pay 1 Coin to roll 1 additional (neutral) die."""
    s = table(2)
    special_on(s, 0, PALACE, BASE)
    give_dice(s, [3, 3, 3])
    s.res[0, :] = [0, 0, 0]
    assert not any(o[0] == L.OPT_PALACE for o in options(s, r))   # no Coin
    s.res[0, :] = [2, 0, 0]
    assert (L.OPT_PALACE, 0, 0) in options(s, r)
    apply_option(s, r, plans, rng(), log, 0, L.OPT_PALACE, 0, 0)
    assert r.palace_pay_coin == 1 and list(s.res[0]) == [1, 0, 0]
    assert s.n_dice == 4 and s.dice_neutral[3] == 1 and s.special_used[0, 0] == 1
    assert not any(o[0] == L.OPT_PALACE for o in options(s, r))   # once per turn


@pytest.mark.parametrize("t", [PALACE, SANCTUARY], ids=["castle", "temple"])
def test_castle_and_temple_roll_one_more_die_each_turn(table, r, plans, log, t):
    """Castle and Temple (the Advanced sides of Palace and Sanctuary): the player rolls 1
    additional neutral die during their turn, free: at the start of the turn (rules.toml notes:
    extra_dice)."""
    s = table(2)
    special_on(s, 0, t, ADVANCED)
    s.own_dice[0, :3] = [2, 2, 2]
    start_turn(s, r, rng(), log, 0)
    assert s.n_dice == r.dice_per_player + 1 and s.dice_neutral[3] == 1 and s.special_used[0, 0] == 1
    assert list(s.dice[:3]) == [2, 2, 2] and 1 <= s.dice[3] <= 6
    assert list(s.res[0]) == [0, 0, 0]  # nothing paid
    assert not any(o[0] in (L.OPT_PALACE, L.OPT_REROLL) for o in options(s, r))


def test_castle_rolls_its_die_as_soon_as_it_is_flipped(table, r, plans, log):
    """A Special card's new characteristics 'immediately become available': a Palace flipped to
    the Castle during the turn rolls the Castle's die at once."""
    s = table(2)
    special_on(s, 0, PALACE, BASE)
    give_dice(s, [1])
    s.res[0, :] = [r.palace_upgrade_coin, r.palace_upgrade_mana, r.palace_upgrade_weapon]
    assert (L.OPT_UPGRADE_SPECIAL, 0, PALACE) in options(s, r)
    apply_option(s, r, plans, rng(), log, 0, L.OPT_UPGRADE_SPECIAL, 0, PALACE)
    assert s.special_side[0, 0] == ADVANCED and s.n_dice == 2 and s.dice_neutral[1] == 1
    assert list(s.res[0]) == [0, 0, 0]


def test_sanctuary_rerolls_one_unspent_die_once_per_turn(table, r, plans, log):
    """Sanctuary: once per turn, re-roll one die not yet spent."""
    s = table(2)
    special_on(s, 0, SANCTUARY, BASE, slot=1)
    give_dice(s, [1, 5])
    s.dice_spent[1] = 1
    rerolls = [o for o in options(s, r) if o[0] == L.OPT_REROLL]
    assert rerolls == [(L.OPT_REROLL, 1, 0)]   # the spent die is not offered
    apply_option(s, r, plans, rng(), log, 0, L.OPT_REROLL, 1, 0)
    (row,) = logged(log, L.REROLL)
    assert row[:3] == (0, 0, 1) and row[4] == L.BY_BUILDING and s.dice[0] == row[3]
    assert s.special_used[0, 1] == 1 and not s.dice_spent[0]
    assert not any(o[0] == L.OPT_REROLL for o in options(s, r))


def test_pier_two_coins_for_a_weapons_the_port_also_for_a_mana(table, r, plans, log):
    """Pier: once per turn, 1 Weapons for 2 Coins. Port: once per turn, 2 Coins for 1 Weapons or
    1 Mana."""
    s = table(2)
    special_on(s, 0, PIER, BASE)
    s.res[0, :] = [1, 0, 0]
    assert not any(o[0] == L.OPT_CONVERT for o in options(s, r))   # 1 Coin is not enough
    s.res[0, :] = [3, 0, 0]
    assert [o for o in options(s, r) if o[0] == L.OPT_CONVERT] == [(L.OPT_CONVERT, 0, WEAPON)]
    apply_option(s, r, plans, rng(), log, 0, L.OPT_CONVERT, 0, WEAPON)
    assert r.pier_pay_coin == 2 and list(s.res[0]) == [1, 0, 1]
    assert not any(o[0] == L.OPT_CONVERT for o in options(s, r))   # once per turn
    s = table(2)
    special_on(s, 0, PIER, ADVANCED)
    s.res[0, :] = [2, 0, 0]
    assert sorted(o for o in options(s, r) if o[0] == L.OPT_CONVERT) == \
        [(L.OPT_CONVERT, 0, MANA), (L.OPT_CONVERT, 0, WEAPON)]
    apply_option(s, r, plans, rng(), log, 0, L.OPT_CONVERT, 0, MANA)
    assert r.port_pay_coin == 2 and list(s.res[0]) == [0, 1, 0] and s.special_used[0, 0] == 1


@pytest.mark.parametrize("side,income", [(BASE, [1, 0, 0]), (ADVANCED, [1, 1, 0])],
                         ids=["obelisk", "monument"])
def test_obelisk_and_monument_give_their_resources_without_a_die(table, r, plans, log, side, income):
    """Obelisk and Monument: once per turn, the resources on the card, regardless of the dice
    (rules.toml: Obelisk 1 Coin, Monument 1 Coin + 1 Mana, assumptions)."""
    s = table(2)
    special_on(s, 0, OBELISK, side, slot=2)
    give_dice(s, [4])
    s.res[0, :] = 0
    assert (L.OPT_INCOME, 2, 0) in options(s, r)
    apply_option(s, r, plans, rng(), log, 0, L.OPT_INCOME, 2, 0)
    expected = [r.obelisk_coin, r.obelisk_mana, r.obelisk_weapon] if side == BASE else \
        [r.monument_coin, r.monument_mana, r.monument_weapon]
    assert list(s.res[0]) == expected == income
    assert not s.dice_spent[0] and s.special_used[0, 2] == 1
    assert not any(o[0] == L.OPT_INCOME for o in options(s, r))

# --- missions ----------------------------------------------------------------------------------------

def mission_on(s, card, space):
    s.missions[space] = card
    s.hexes[space] = 0


def test_embassy_one_coin_and_any_mercenary_for_one_point(table, r, log):
    """Complete Missions, example: the Embassy costs 1 Coin and 1 Mercenary of any type, and
    gives 1 victory point."""
    s = table(2)
    mission_on(s, 0, 0)  # card 0: Embassy (Base side)
    s.res[0, :] = [1, 0, 0]
    assert not any(o[0] == L.OPT_MISSION for o in options(s, r))  # no Mercenary yet
    s.mercs[0, WIZARD] = 1
    assert (L.OPT_MISSION, 0, 0) in options(s, r)
    complete_mission(s, r, log, 0, 0)
    assert s.score[0] == 1 and s.res[0, COIN] == 0 and s.mercs[0].sum() == 0
    assert s.merc_deck[WIZARD] == 5 + 1 and s.done[0, 0, 0] == 1
    assert not any(o[0] == L.OPT_MISSION for o in options(s, r))  # once per player


def test_dragons_lair_gives_three_points_and_a_mana_at_once(table, r, log):
    """Complete Missions, example: the Dragons' Lair costs 2 Weapons and 2 Mana and gives 3 VP
    and 1 Mana, immediately available (card 1's Advanced side, an assumption)."""
    s = table(2)
    mission_on(s, 1, 2)
    s.res[0, :] = [0, 2, 2]
    complete_mission(s, r, log, 0, 2)
    assert s.score[0] == 3 and list(s.res[0]) == [0, 1, 0]


def test_hex_takes_two_points_for_the_round(table, r, plans, log):
    """Hex: the mission gives 2 fewer VP (minimum 0) for the rest of the round."""
    s = table(2)
    mission_on(s, 1, 2)  # Dragons' Lair: 3 VP
    s.spell = 3  # Hex
    s.res[0, :] = [0, 1, 0]
    cast_spell(s, r, plans, rng(), log, 0, 2)
    assert s.magic[0] == 1 and s.hexes[2] == 1
    s.res[1, :] = [0, 2, 2]
    complete_mission(s, r, log, 1, 2)
    assert s.score[1] == 1


def test_missions_flip_at_the_end_of_the_round(table, r, plans, log):
    """End of the Round: the Base missions turn to their Advanced side in the Advanced spaces
    (the old ones discarded), two new Base missions are drawn (rules.toml notes: mission_flip)."""
    s = table(2)
    s.missions[:] = [3, 4, 5, 6]
    s.mission_deck[:2] = [8, 9]
    s.mission_deck_n = 2
    end_of_round(s, r, plans, rng(), log)
    assert list(s.missions) == [9, 8, 3, 4]
    assert s.mission_deck_n == 0


# --- spells and the Tavern ------------------------------------------------------------------------

def test_abundance_rolls_a_neutral_die(table, r, plans, log):
    """Cast a Spell, example: pay 1 Mana, place the Magic marker, roll one of the neutral dice."""
    s = table(2)
    s.spell = ABUNDANCE
    s.res[0, :] = [0, 1, 0]
    give_dice(s, [3, 3, 3])
    assert (L.OPT_SPELL, 0, ABUNDANCE) in options(s, r)
    cast_spell(s, r, plans, rng(), log, 0, 0)
    assert s.n_dice == 4 and s.dice_neutral[3] == 1 and 1 <= s.dice[3] <= 6
    assert s.res[0, MANA] == 0 and s.magic[0] == 1
    assert not any(o[0] == L.OPT_SPELL for o in options(s, r))  # once per round


def test_faq_q6_no_gnome_recall_with_every_gnome(table, r, plans, log):
    """Gnome Recall; FAQ Q6: it cannot be used while the player still has all their gnomes."""
    s = table(2)
    s.spell = GNOME_RECALL
    s.res[0, :] = [0, 1, 0]
    assert not any(o[0] == L.OPT_SPELL for o in options(s, r))
    s.gnomes_home[0] -= 1
    s.gnomes_out[0] += 1
    assert (L.OPT_SPELL, 0, GNOME_RECALL) in options(s, r)
    cast_spell(s, r, plans, rng(), log, 0, 0)
    assert s.gnomes_home[0] == r.gnomes_per_player and s.gnomes_out[0] == 0


def test_one_gnome_per_turn_on_the_tavern(table, r, plans, log):
    """Activate an Action card: one gnome per turn; the two-coins action gives 2 Coins; gnomes on
    the Tavern leave the game at the end of the round."""
    s = table(2)
    s.tavern[:] = [4, 4]  # Two Coins, twice
    s.res[0, :] = 0
    apply_option(s, r, plans, rng(), log, 0, L.OPT_TAVERN, 0, 4)
    assert s.res[0, COIN] == r.two_coins_gain == 2
    assert not any(o[0] == L.OPT_TAVERN for o in options(s, r))
    end_of_round(s, r, plans, rng(), log)
    assert s.gnomes_out[0] == 1 and s.gnomes_home[0] == r.gnomes_per_player - 1


def test_summoning_takes_a_mercenary_of_the_players_choice(table, r, plans, log):
    """Summoning: 1 Mana for one Mercenary card of the player's choice from those available (an
    empty deck offers none); the card comes from its deck, no resource with it."""
    s = table(2)
    s.spell = SUMMONING
    s.res[0, :] = [0, 1, 0]
    s.merc_deck[TRADER] = 0
    spells = sorted(o for o in options(s, r) if o[0] == L.OPT_SPELL)
    assert spells == [(L.OPT_SPELL, WIZARD, SUMMONING), (L.OPT_SPELL, SOLDIER, SUMMONING)]
    cast_spell(s, r, plans, rng(), log, 0, SOLDIER)
    assert list(s.mercs[0]) == [0, 0, 1] and s.merc_deck[SOLDIER] == 5 - 1
    assert list(s.res[0]) == [0, 0, 0] and s.magic[0] == 1 and s.cast[0, SUMMONING] == 1
    assert logged(log, L.MERCENARY) == [(0, SOLDIER, 1, 0, 0, 0)]


def test_curse_takes_a_coin_or_steals_from_a_rivals_warehouses(table, r, plans, log):
    """Curse: 1 Coin, or steal 1 Coin or 1 Weapons from the Warehouses of another player (what
    they kept from their turn; not the resources they copied, which lie beside the board)."""
    s = table(3)
    s.spell = CURSE
    s.res[0, :] = [0, 1, 0]
    s.res[1, :] = [1, 1, 0]      # P1 kept a Coin and a Mana
    s.res[2, :] = [0, 0, 0]
    s.copied[2, :] = [2, 0, 2]   # P2 has only copied resources: nothing to steal
    curses = sorted(o[1] for o in options(s, r) if o[0] == L.OPT_SPELL)
    assert curses == [0, 1 + 2 * 1]  # the supply's Coin, or P1's Coin (P1 has no Weapons)
    supply = s.supply.copy()
    cast_spell(s, r, plans, rng(), log, 0, 1 + 2 * 1)
    assert list(s.res[0]) == [1, 0, 0] and list(s.res[1]) == [0, 1, 0]
    assert s.supply[COIN] == supply[COIN] and s.supply[MANA] == supply[MANA] + 1  # the Mana paid
    assert logged(log, L.CURSE) == [(0, 1, COIN, 1, 0, 0)]  # P1, their Coins, one stolen
    s2 = table(2)
    s2.spell = CURSE
    s2.res[0, :] = [0, 1, 0]
    s2.res[1, :] = [0, 0, 1]
    cast_spell(s2, r, plans, rng(), log, 0, 2 + 2 * 1)  # P1's Weapons
    assert list(s2.res[0]) == [0, 0, 1] and list(s2.res[1]) == [0, 0, 0]
    s3 = table(2)
    s3.spell = CURSE
    s3.res[0, :] = [0, 1, 0]
    cast_spell(s3, r, plans, rng(), log, 0, 0)          # 1 Coin from the supply
    assert list(s3.res[0]) == [r.curse_coins, 0, 0] == [1, 0, 0]


def test_little_folks_fortune_rolls_a_neutral_die(table, r, plans, log):
    """Little Folk's Fortune: a gnome on the card, one more die (a neutral one); not offered
    when no neutral die is left in the pool."""
    s = table(2)
    s.tavern[:] = [FORTUNE, -1]
    give_dice(s, [2, 4, 6])
    assert (L.OPT_TAVERN, 0, FORTUNE) in options(s, r)
    apply_option(s, r, plans, rng(), log, 0, L.OPT_TAVERN, 0, FORTUNE)
    assert s.n_dice == 4 and s.dice_neutral[3] == 1 and not s.dice_spent[3] and 1 <= s.dice[3] <= 6
    assert list(s.dice[:3]) == [2, 4, 6]
    assert s.tavern_gnomes[0, 0] == 1 and s.gnomes_home[0] == r.gnomes_per_player - 1
    assert logged(log, L.EXTRA_DIE) == [(0, int(s.dice[3]), L.BY_ACTION, 3, 0, 0)]
    s2 = table(2)
    s2.tavern[:] = [FORTUNE, -1]
    give_dice(s2, [1, 1, 1, 1, 1, 1, 1], neutral=(3, 4, 5, 6))  # the four neutral dice out
    assert not any(o[0] == L.OPT_TAVERN for o in options(s2, r))


def test_favour_of_the_gods_rerolls_the_chosen_unspent_dice_neutral_too(table, r, plans, log):
    """Favour of the Gods: re-roll one or more dice not yet spent, including any neutral dice.
    The greedy player re-rolls the dice worth less than a die on average: with a Shop (2 Coins)
    on 5-6, the dice on the Kiosks (1-4); a spent die is never re-rolled."""
    s = table(2)
    s.normal[0, 2] = SHOP
    s.tavern[:] = [-1, FAVOUR]
    give_dice(s, [1, 3, 6, 2], neutral=(3,))
    s.dice_spent[1] = 1
    apply_option(s, r, plans, rng(), log, 0, L.OPT_TAVERN, 1, FAVOUR)
    rows = logged(log, L.REROLL)
    assert [(p, i, old, why) for p, i, old, new, why, _ in rows] == \
        [(0, 0, 1, L.BY_ACTION), (0, 3, 2, L.BY_ACTION)]
    assert [int(s.dice[i]) for i in (0, 3)] == [new for _, _, _, new, _, _ in rows]
    assert s.dice[1] == 3 and s.dice[2] == 6 and s.n_dice == 4
    s2 = table(2)
    s2.tavern[:] = [-1, FAVOUR]
    give_dice(s2, [1])
    s2.dice_spent[0] = 1  # no die left to re-roll: not offered
    assert not any(o[0] == L.OPT_TAVERN for o in options(s2, r))


# --- mercenaries ---------------------------------------------------------------------------------

def test_faq_q4_mercenary_prices(table, r):
    """FAQ Q4: a Trader costs 2 Coins, a Soldier 2 Coins or 2 Weapons, a Wizard 2 Coins or 2 Mana;
    decks of 5, 7, 9 cards by player count (Setup)."""
    s = table(2)
    s.res[0, :] = [2, 2, 2]
    hires = sorted(o[1:] for o in options(s, r) if o[0] == L.OPT_HIRE)
    assert hires == sorted([(TRADER, COIN), (WIZARD, COIN), (WIZARD, MANA), (SOLDIER, COIN),
                            (SOLDIER, WEAPON)])
    assert list(s.merc_deck) == [5, 5, 5]
    assert list(table(3).merc_deck) == [7, 7, 7] and list(table(4).merc_deck) == [9, 9, 9]


def test_mercenaries_pay_what_the_hand_lacks_and_go_back(table, r, plans, log):
    """Hire Mercenaries: discarded at any moment for their resource; spent ones return to their
    deck; an empty deck cannot be hired from."""
    s = table(2)
    s.res[0, :] = [1, 0, 0]
    s.mercs[0, TRADER] = 1
    s.merc_deck[TRADER] = 4
    apply_option(s, r, plans, rng(), log, 0, L.OPT_HIRE, SOLDIER, COIN)  # 2 Coins: 1 + a Trader
    assert s.mercs[0, TRADER] == 0 and s.merc_deck[TRADER] == 5 and s.mercs[0, SOLDIER] == 1
    s.merc_deck[WIZARD] = 0
    s.res[0, :] = [2, 2, 2]
    assert not any(o[0] == L.OPT_HIRE and o[1] == WIZARD for o in options(s, r))


# --- copying ----------------------------------------------------------------------------------------

def test_copy_with_a_gnome_kept_outside_the_warehouse_limit(table, r, log):
    """Using Gnomes Outside Your Own Turn: another player spends a gnome (removed from the game)
    for the same resources, kept until their next turn even with full Warehouses."""
    plans = make_plans(COPIER)  # the copier's own strategy decides
    s = table(2)
    s.res[1, :] = [2, 0, 0]  # P1's two Warehouses are full
    give_dice(s, [5])
    spend_die(s, r, plans, rng(), log, 0, 0, 0)  # P0's Guard Post: 1 Weapons
    assert logged(log, L.COPY) == [(1, 0, 100, r.gnomes_per_player - 1, 0, 0)]
    assert list(s.copied[1]) == [0, 0, 1] and list(s.res[1]) == [2, 0, 0]
    assert s.gnomes_out[1] == 1
    # at the end of P1's own turn only the Warehouses' two are kept
    s.res[1, :] += s.copied[1]
    s.copied[1, :] = 0
    end_of_turn(s, r, plans, rng(), no_log(), 1)
    assert s.res[1].sum() == 2


def test_a_hotel_mercenary_cannot_be_copied(table, r, plans, log):
    """Copying gives resources only: never dice, Mercenaries or points."""
    s = table(2)
    s.normal[0, 0] = INN
    s.normal_side[0, 0] = ADVANCED
    give_dice(s, [1])
    spend_die(s, r, plans, rng(), log, 0, 0, 2 + SOLDIER)
    assert s.mercs[0, SOLDIER] == 1 and logged(log, L.COPY) == [] and logged(log, L.COPY_DECLINED) == []


# --- Brawl and Magic Challenge ------------------------------------------------------------------

def contest_table(table, n, stored, gnomes, kind):
    s = table(n)
    for p in range(n):
        s.normal[p, :] = GUARD_POST if kind == BRAWL else INN  # every die: 1 of the resource
        s.res[p, :] = 0
        s.res[p, WEAPON if kind == BRAWL else MANA] = stored[p]
    s.tavern[:] = [kind, -1]
    for p in range(n):
        s.tavern_gnomes[0, p] = gnomes[p]
    return s


@pytest.mark.parametrize("n,points", [(2, 3), (3, 2), (4, 1)])
def test_brawl_points_per_player_beaten(table, r, plans, log, n, points):
    """Brawl: every player counts Weapons (dice on buildings, Warehouses), +1 for a gnome on the
    card; 3 / 2 / 1 VP for each other player with fewer at 2 / 3 / 4 players; Weapons spent."""
    stored = [0, 2, 3, 4][:n]  # totals 4 (3 dice and the gnome), 5, 6, 7: no two tie
    s = contest_table(table, n, stored, [1] + [0] * (n - 1), BRAWL)
    contest(s, r, plans, rng(), log, 0)
    totals = {a: b for a, b, *_ in logged(log, L.CONTEST_ROLL)}
    assert all(totals[p] == 3 + stored[p] + (1 if p == 0 else 0) for p in range(n))
    for p in range(n):
        beaten = sum(totals[o] < totals[p] for o in range(n) if o != p)
        assert s.score[p] == beaten * points and s.vp_contests[p] == s.score[p]
    assert s.score[n - 1] == (n - 1) * points and s.score[0] == 0
    assert (s.res[:n, WEAPON] == 0).all() and s.brawls == 1


def test_faq_q3_q5_magic_challenge_mercenaries_and_nothing_kept(table, r, plans, log):
    """Magic Challenge: Mana counted the same way. FAQ Q3: Mercenaries may be discarded during it;
    FAQ Q5: nothing gained in it is kept."""
    s = contest_table(table, 2, [0, 0], [0, 0], MAGIC_CHALLENGE)
    s.tavern_gnomes[0, 1] = 1
    s.mercs[0, WIZARD] = 3
    s.first_player = 1  # P1 counts first (3 dice + its gnome = 4): P0 knows what to beat
    before = s.res[:2].copy()
    contest(s, r, plans, rng(), log, 0)
    rows = {a: (b, e) for a, b, c, d, e, f in logged(log, L.CONTEST_ROLL)}
    assert rows[1][0] == 4 and rows[0] == (5, 2)  # two Wizards spent to beat P1's 4
    assert s.mercs[0, WIZARD] == 1 and s.merc_deck[WIZARD] == 5 + 2
    assert s.score[0] == 3 and s.score[1] == 0
    assert (s.res[:2] == 0).all() and (before == 0).all()


@pytest.mark.parametrize("reading", ["hire_and_spend", "spend_held"])
def test_faq_q3_mercenaries_hired_during_a_brawl(table, rules_with, plans, log, reading):
    """FAQ Q3: Mercenaries 'can be bought and discarded anytime, even during a scuffle or a magic
    challenge'. P1 counts first: 3 Weapons. P0's dice all land on Kiosks (3 Coins, no Weapons)
    and its gnome gives 1: it hires three Soldiers at 2 Coins, paid with the count's 3 Coins, its
    Warehouses' 2 Coins and a Trader discarded, spends them at once and beats P1 with 4.
    rules.toml contest_mercenaries = spend_held (the reading before): no hire, P1 wins the Brawl.
    With no Soldier in the deck (and none held) nothing can be hired."""
    r = rules_with(contest_mercenaries=reading)[0]
    s = contest_table(table, 2, [0, 0], [1, 0], BRAWL)
    s.normal[0, :] = KIOSK
    s.res[0, :] = [2, 0, 0]
    s.mercs[0, TRADER] = 1
    s.merc_deck[TRADER] = 4
    s.first_player = 1
    supply = s.supply.copy()
    contest(s, r, plans, rng(), log, 0)
    rows = {a: (b, c, d, e, f) for a, b, c, d, e, f in logged(log, L.CONTEST_ROLL)}
    assert rows[1] == (3, 3, 0, 0, 0)
    if reading == "spend_held":
        assert rows[0] == (1, 0, 0, 0, 1) and s.score[1] == 3 and s.score[0] == 0
        assert list(s.res[0]) == [2, 0, 0] and s.mercs[0, TRADER] == 1 and s.hired[0] == 0
        return
    assert rows[0] == (4, 0, 0, 3, 1)        # total, dice, Warehouses, Mercenaries, gnome
    assert s.score[0] == 3 and s.score[1] == 0
    assert logged(log, L.HIRE) == [(0, SOLDIER, r.soldier_cost, COIN, 1, 0)] * 3
    # the replay tells what paid beyond the count's Coins: 2 from the Warehouses, 1 Trader
    assert logged(log, L.PAY) == [(0, pack_wide(2, 0, 0), 1, pack(1, 0, 0), 0, 0)]
    assert list(s.res[0]) == [0, 0, 0] and s.supply[COIN] == supply[COIN] + 2
    assert s.mercs[0].sum() == 0 and s.hired[0] == 3
    assert list(s.merc_deck) == [5, 5, 5]    # the Trader back, the Soldiers hired and spent
    # no Soldier to hire: the deck is empty and P0 holds none
    s = contest_table(table, 2, [0, 0], [1, 0], BRAWL)
    s.normal[0, :] = KIOSK
    s.merc_deck[SOLDIER] = 0
    s.mercs[1, SOLDIER] = 5
    s.first_player = 1
    log2 = new_log(500)
    contest(s, r, plans, rng(), log2, 0)
    assert logged(log2, L.HIRE) == [] and s.score[0] == 0


def test_contests_only_with_a_gnome_on_the_card(table, r, plans, log):
    s = contest_table(table, 3, [0, 0, 0], [0, 0, 0], BRAWL)
    end_of_round(s, r, plans, rng(), log)
    assert logged(log, L.CONTEST) == [] and s.brawls == 0


# --- end of the round and of the game -------------------------------------------------------------

def test_first_player_marker_to_the_leader_ties_to_who_arrived_first(table, r, plans, log):
    """End of the Round: the marker passes to the player furthest ahead; in a tie, to the player
    who first reached that space."""
    s = table(3)
    s.score[:3] = [4, 6, 6]
    s.reached[:3] = [1, 5, 3]
    end_of_round(s, r, plans, rng(), log)
    assert s.first_player == 2


def test_end_game_building_points_and_tie_break(table, r):
    """End of the Game: Advanced Normal +1, Base Special +1, Advanced Special +2; a tie goes to
    more building points, else the win is shared."""
    s = table(3)
    s.normal[0, 0], s.normal_side[0, 0] = SHOP, ADVANCED
    s.special[0, 0], s.special_side[0, 0] = COURT, BASE
    s.special[1, 1], s.special_side[1, 1] = COURT, ADVANCED
    s.normal[2, 1], s.normal_side[2, 1] = SHOP, BASE       # Base Normal: nothing
    assert [building_points(s, r, p) for p in range(3)] == [2, 2, 0]
    s.score[:3] = [5, 5, 7]
    scores = np.array([final_score(s, r, p) for p in range(3)] + [0])
    assert list(scores[:3]) == [7, 7, 7]
    tiebreak = np.array([building_points(s, r, p) for p in range(3)] + [0])
    rank = np.zeros(4, dtype=np.int64)
    rank_players(scores, tiebreak, 3, rank)
    assert list(rank[:3]) == [1, 1, 3]   # P0 and P1 share the win


def test_the_supply_is_limited(table, r, plans, log):
    """Components: 16 Coins (rules.toml: supply_limited = yes): a gain the supply cannot pay is
    lost."""
    s = table(2)
    s.supply[COIN] = 0
    give_dice(s, [1])
    spend_die(s, r, plans, rng(), log, 0, 0, 0)
    assert s.res[0, COIN] == 0 and s.supply_short[0] == 1


def test_a_mercenary_pays_only_what_the_supply_holds(table, r, plans, log):
    """Components: 16 Coins, and a gain the supply cannot pay is lost (supply_limited = yes).
    A Trader is discarded 'to get the corresponding resource' (FAQ Q3), from the supply as it
    stands before the payment: with 2 Coins in hand, a Trader and no Coin in the supply, a 3-Coin
    card cannot be paid (issue 30: the hand's Coins went back first and the Trader took one of
    them, a seventeenth Coin). With one Coin in the supply it can: the Trader takes it, and the 3
    Coins go back."""
    s = table(2)
    s.res[0, :] = [2, 0, 0]
    s.mercs[0, TRADER] = 1
    s.supply[COIN] = 0
    give_dice(s, [1])
    s.dice_spent[0] = 1

    def three_coin_builds():
        return [o for o in options(s, r) if o[0] == L.OPT_BUILD_NORMAL and
                list(r.n_cost[o[1], 0]) == [3, 0, 0]]
    assert three_coin_builds() == []
    s.supply[COIN] = 1
    builds = three_coin_builds()
    assert builds
    apply_option(s, r, plans, rng(), log, 0, *builds[0])
    assert s.res[0, COIN] == 0 and s.mercs[0, TRADER] == 0 and s.supply[COIN] == 3
    assert s.supply_short[0] == 0
    # the replay names the card discarded, and tells the supply after each change
    assert logged(log, L.PAY) == [(0, pack_wide(3, 0, 0), 1, pack(1, 0, 0), 0, 0)]
    assert [row[0] for row in logged(log, L.SUPPLY)] == [0, 3]


def test_an_exchange_the_supply_cannot_pay_is_not_offered(table, r, plans, log):
    """Pier: 2 Coins for 1 Weapons; Port: for 1 Weapons or 1 Mana; the Two Coins action; a copy
    (a gnome for the same resources). With a limited supply (supply_limited = yes) an empty
    supply pays nothing, so an exchange that would gain nothing for its cost is not offered
    (issue 30: the Pier was used for nothing with no Weapons left)."""
    s = table(2)
    s.special[0, 0] = PIER
    s.res[0, :] = [4, 0, 0]
    give_dice(s, [1])
    s.dice_spent[0] = 1
    s.supply[WEAPON] = 0
    assert not any(o[0] == L.OPT_CONVERT for o in options(s, r))
    s.special_side[0, 0] = ADVANCED   # the Port: Mana only, while the supply has no Weapons
    assert [o for o in options(s, r) if o[0] == L.OPT_CONVERT] == [(L.OPT_CONVERT, 0, MANA)]
    s.supply[WEAPON] = 1
    assert len([o for o in options(s, r) if o[0] == L.OPT_CONVERT]) == 2
    # the Two Coins action (a gnome for 2 Coins) with no Coin in the supply
    s.tavern[:] = [TWO_COINS, -1]
    s.res[0, :] = 0
    s.supply[COIN] = 0
    assert not any(o[0] == L.OPT_TAVERN for o in options(s, r))
    s.supply[COIN] = 1
    assert (L.OPT_TAVERN, 0, TWO_COINS) in options(s, r)
    # a copy of a die whose Coin the supply cannot pay a second time
    s.supply[COIN] = 1
    home = s.gnomes_home[1]
    give_dice(s, [1])
    copier = make_plans(COPIER)
    spend_die(s, r, copier, rng(), log, 0, 0, 0)
    assert s.res[0, COIN] == 1 and s.supply[COIN] == 0
    assert s.gnomes_home[1] == home and s.copies[1] == 0
    assert logged(log, L.COPY_DECLINED) == [(1, 0, 2, 0, 0, 0)]
