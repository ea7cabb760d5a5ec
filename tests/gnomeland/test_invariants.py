"""Gnomeland's invariants (``invariants.py``): each one caught where a table played by the rules
is broken in one place, none on the table as played; a broken one stops the game's turn loop
and the block; checked runs of every table and mix break none and play the unchecked rows."""

import numpy as np
import pytest

from simulator.core.config import make_config
from simulator.core.game import get_game
from simulator.core.rng import seed_stream
from simulator.core.trace import broken_in, no_log, tally_log
from simulator.games.gnomeland import invariants as inv
from simulator.games.gnomeland import board, kernel
from simulator.games.gnomeland.board import (
    ADVANCED, COIN, FIRST_SPECIAL_CARD, FORTUNE, GNOME_HOUSE, HEX, IN_DECK, KIOSK, MANA,
    N_MISSIONS, ON_BOARD, SOLDIER, TRADER, WEAPON, WIZARD, final_score, keep_limit,
    mercenaries_per_deck,
)
from simulator.games.gnomeland.turn import begin_round, end_of_round, new_game, play_turn
from strategies import gnomeland as players
from tests.game_fixtures import assert_checked_run_gives_the_unchecked_rows

GAME = get_game("gnomeland")
N_RULES = len(GAME.rules_that_come_up)
CODE_NAMES = {v: k for k, v in vars(inv).items()  # the module's own constants, not board's
              if k.isupper() and isinstance(v, int) and not hasattr(board, k)}
N_PLAYERS = 4
TABLES = [(mode.name, n) for mode in GAME.modes.values() for n in mode.player_counts]
SMALL_SEARCH = players.DEFAULT_WEIGHTS[players.LOOKAHEAD].copy()
SMALL_SEARCH[players.W_ROLLOUTS] = 1
SMALL_SEARCH[players.W_ROLLOUT_TURNS] = 1  # to the end of the current round


def played(ruleset, settings, rounds=2, turns=2):
    """A 4-player table played by the rules with random and three heuristic players (between
    them they build, complete missions, copy, fight and keep gnomes): ``rounds`` whole rounds, then ``turns`` turns of the next (if any); (table, rules)."""
    r = ruleset.with_overrides(settings).as_record()[0]
    ids = np.array([players.RANDOM, players.GREEDY, players.ENGINE_BUILDER, players.BRAWLER])
    plans = (ids, players.DEFAULT_WEIGHTS[ids].copy())
    rng = seed_stream(21, 0)
    table = new_game(r, N_PLAYERS, plans, rng, no_log()).view(np.recarray)
    s = table[0]
    for _ in range(rounds):
        begin_round(s, r, rng, no_log())
        for i in range(N_PLAYERS):
            play_turn(s, r, plans, rng, no_log(), (s.first_player + i) % N_PLAYERS)
        end_of_round(s, r, plans, rng, no_log())
    if turns:
        begin_round(s, r, rng, no_log())
    for i in range(turns):
        play_turn(s, r, plans, rng, no_log(), (s.first_player + i) % N_PLAYERS)
    return table, r


def checked(s, r):
    log = tally_log(N_RULES, check=True)
    inv.check(s, r, log)
    return broken_in(log)


# --- one way to break each invariant: (rule settings, break(s, r) -> the numbers it names) ----

BREAKS = {}


def breaks(code, **settings):
    def register(fn):
        BREAKS[code] = (settings, fn)
        return fn
    return register


def player_where(s, condition):
    """The first player of the table for whom ``condition(p)`` holds (the case needs one)."""
    found = [p for p in range(s.n_players) if condition(p)]
    assert found, "the table played has no player the case needs"
    return found[0]


@breaks(inv.CUBES)
def a_copied_cube_from_nowhere(s, r):
    s.copied[1, MANA] += 1
    return MANA, r.supply_mana + 1


@breaks(inv.UNLIMITED_SUPPLY, supply_limited="no")
def a_cube_taken_from_the_unlimited_supply(s, r):
    s.supply[COIN] -= 1
    return COIN, r.supply_coin - 1


@breaks(inv.SUPPLY_NEGATIVE)
def the_supply_overdrawn_into_a_copy(s, r):
    s.copied[0, WEAPON] += s.supply[WEAPON] + 1
    s.supply[WEAPON] = -1
    return WEAPON, -1


@breaks(inv.RESOURCES_NEGATIVE)
def a_hand_below_none(s, r):
    s.supply[COIN] += s.res[2, COIN] + 1
    s.res[2, COIN] = -1
    return 2, -1


@breaks(inv.OVER_WAREHOUSES)
def more_kept_than_the_warehouses_hold(s, r):
    limit = keep_limit(s, r, 1)
    extra = limit + 1 - s.res[1].sum()
    assert s.supply[COIN] >= extra
    s.res[1, COIN] += extra
    s.supply[COIN] -= extra
    return 1, limit + 1


@breaks(inv.MERCENARIES)
def a_soldier_card_too_many(s, r):
    s.merc_deck[SOLDIER] += 1
    return SOLDIER, mercenaries_per_deck(r, s.n_players) + 1


@breaks(inv.MERCENARIES_NEGATIVE)
def a_trader_held_below_none(s, r):
    s.merc_deck[TRADER] += s.mercs[3, TRADER] + 1
    s.mercs[3, TRADER] = -1
    return 3, -1


@breaks(inv.MERCENARY_DECK_NEGATIVE)
def the_wizard_deck_overdrawn(s, r):
    s.mercs[0, WIZARD] += s.merc_deck[WIZARD] + 1
    s.merc_deck[WIZARD] = -1
    return WIZARD, -1


@breaks(inv.GNOMES)
def a_sixth_gnome(s, r):
    s.gnomes_home[0] += 1
    return 0, r.gnomes_per_player + 1


@breaks(inv.GNOMES_NEGATIVE)
def the_gnome_house_below_none(s, r):
    lost = s.gnomes_home[0] + 1  # as if lost with a covered Gnome House, one more than it held
    s.gnomes_out[0] += lost
    s.gnomes_lost[0] += lost
    s.gnomes_home[0] = -1
    return 0, -1


@breaks(inv.GNOMES_SPENT)
def a_copy_without_its_gnome(s, r):
    s.copies[1] += 1
    return 1, s.gnomes_out[1] + s.gnomes_tavern[1]


@breaks(inv.TAVERN_GNOMES)
def a_gnome_on_a_tavern_card_from_nowhere(s, r):
    slot = 0 if s.tavern[0] >= 0 else 1
    s.tavern_gnomes[slot, 2] += 1
    return 2, s.gnomes_tavern[2] + 1


@breaks(inv.ONE_GNOME_A_TURN)
def two_gnomes_on_the_tavern_in_one_round(s, r):
    p = player_where(s, lambda p: s.gnomes_home[p] >= 2 and s.gnomes_tavern[p] == 0)
    s.gnomes_home[p] -= 2
    s.gnomes_tavern[p] += 2
    s.tavern_gnomes[0, p] += 2
    s.tavern_used[p, s.tavern[0]] += 2
    return p, 2


@breaks(inv.GNOMES_WITHOUT_HOUSE)
def gnomes_left_on_a_covered_gnome_house(s, r):
    p = player_where(s, lambda p: s.special[p, 2] == GNOME_HOUSE and s.gnomes_home[p] > 0 and
                     (s.deck_at[p, 1] == IN_DECK).any())
    card = int(np.flatnonzero(s.deck_at[p, 1] == IN_DECK)[0])
    s.special[p, 2] = FIRST_SPECIAL_CARD + card
    s.deck_at[p, 1, card] = ON_BOARD
    s.card_level[p, 1, card] = 1
    return p, s.gnomes_home[p]


@breaks(inv.ACTION_CARDS)
def a_fortune_card_used_twice(s, r):
    s.action_used[s.action_used_n] = FORTUNE
    s.action_used_n += 1
    return FORTUNE, r.action_fortune + 1


@breaks(inv.SPELL_CARDS)
def a_second_hex(s, r):
    s.spell = HEX
    s.spell_deck[s.spell_deck_n] = HEX
    s.spell_deck_n += 1
    return HEX, 2 + int((s.spell_deck[:s.spell_deck_n - 1] == HEX).sum())


@breaks(inv.MISSION_CARDS)
def a_mission_on_the_board_and_in_the_deck(s, r):
    s.mission_deck[s.mission_deck_n] = s.missions[0]
    s.mission_deck_n += 1
    return s.missions[0], 2


@breaks(inv.UNKNOWN_CARD)
def a_mission_card_the_deck_never_had(s, r):
    s.mission_deck[0] = N_MISSIONS
    return 10, N_MISSIONS


@breaks(inv.MISSION_BOTH_SIDES)
def both_sides_of_a_mission(s, r):
    card = int(np.flatnonzero(s.done[1].sum(axis=1) == 0)[0])
    s.done[1, card] = 1
    s.missions_done[1] += 2
    return 1, card


@breaks(inv.MISSIONS_COUNTED)
def a_mission_side_completed_twice(s, r):
    s.missions_done[1] += 1
    return 1, s.missions_done[1]


@breaks(inv.ONE_SPELL_A_ROUND)
def a_spell_a_round_too_many(s, r):
    cast = int(s.cast[0].sum())
    s.cast[0, HEX] += s.round_no + 1 - cast
    return 0, s.round_no + 1


@breaks(inv.CARD_PLACE)
def a_card_built_but_on_no_slot(s, r):
    p = player_where(s, lambda p: (s.deck_at[p, 0] == IN_DECK).any())
    card = int(np.flatnonzero(s.deck_at[p, 0] == IN_DECK)[0])
    s.deck_at[p, 0, card] = ON_BOARD
    s.card_level[p, 0, card] = 1
    return p, 2 + card


@breaks(inv.CARD_LEVEL)
def a_card_in_the_deck_counted_as_built(s, r):
    p = player_where(s, lambda p: (s.deck_at[p, 1] == IN_DECK).any())
    card = int(np.flatnonzero(s.deck_at[p, 1] == IN_DECK)[0])
    s.card_level[p, 1, card] = 1
    return p, 12 + card


@breaks(inv.VILLAGE_BOARD)
def a_kiosk_turned_to_an_advanced_side(s, r):
    p = player_where(s, lambda p: s.normal[p, 0] == KIOSK)
    s.normal_side[p, 0] = ADVANCED
    return p, KIOSK


@breaks(inv.DIE_FACE)
def a_die_showing_seven(s, r):
    s.own_dice[1, 0] = 7
    return 1, 7


@breaks(inv.DICE_UNSPENT)
def a_turn_ended_with_a_die_unspent(s, r):
    s.dice_spent[0] = 0
    return 1, s.n_dice


@breaks(inv.FIRST_PLAYER)
def the_first_player_marker_off_the_table(s, r):
    s.first_player = s.n_players
    return s.n_players, s.n_players


@breaks(inv.ROUND)
def a_round_past_the_last(s, r):
    s.round_no = r.rounds + 1
    return r.rounds + 1, r.rounds


@breaks(inv.SCORE_SOURCES)
def a_point_from_nowhere(s, r):
    s.score[2] += 1
    return 2, final_score(s, r, 2)


@breaks(inv.MISSION_POINTS)
def a_mission_card_points_uncounted(s, r):
    s.vp_by_mission[3, 0] += 1
    return 3, s.vp_missions[3]


@breaks(inv.CONTEST_POINTS)
def a_rival_beaten_without_points(s, r):
    s.beaten[0] += 1
    return 0, s.vp_contests[0]


@breaks(inv.HEXES)
def a_hex_marker_below_none(s, r):
    s.hexes[3] = -1
    return 3, -1


def test_the_codes_are_the_descriptions_in_order():
    assert sorted(CODE_NAMES) == list(range(len(inv.INVARIANTS)))
    for description in inv.INVARIANTS:
        assert "{a}" in description or "{b}" in description
        description.format(a=1, b=2)


@pytest.mark.parametrize("code", range(len(inv.INVARIANTS)), ids=lambda c: CODE_NAMES[c])
def test_each_invariant_is_caught_where_a_played_table_breaks_it(code, ruleset):
    assert code in BREAKS, f"no case breaks {CODE_NAMES[code]}"
    settings, break_it = BREAKS[code]
    table, r = played(ruleset, settings)
    s = table[0]
    assert checked(s, r) is None, "the table as played breaks nothing"
    a, b = break_it(s, r)
    assert checked(s, r) == (0, code, a, b)


@pytest.mark.parametrize("settings", [{}, {"supply_limited": "no"}, {"warehouses": 1},
                                      {"mission_once_per": "side",
                                       "covered_warehouse": "resources_discarded"}],
                         ids=["default", "unlimited supply", "one warehouse", "other readings"])
@pytest.mark.parametrize("rounds, turns", [(0, 1), (1, 3), (5, 0)],
                         ids=["first turn", "mid-game", "game end"])
def test_tables_played_by_the_rules_break_nothing(ruleset, settings, rounds, turns):
    table, r = played(ruleset, settings, rounds, turns)
    assert checked(table[0], r) is None


def test_a_broken_invariant_stops_the_turn_loop_and_the_block():
    """A checked tally already holding a broken invariant: the first game ends after its first
    turn and the block after that game, its later rows never written."""
    config = make_config("gnomeland", 3, seed=4)
    setup = config.setup
    seats = np.zeros((5 * 3, len(kernel.SEAT)), dtype=np.int64)
    games = np.zeros((5, len(kernel.GAME)), dtype=np.int64)
    log = tally_log(N_RULES, check=True)
    log[0, N_RULES + 1] = inv.ROUND + 1
    kernel.play_games(config.rules.as_record(), np.uint64(4), 0, 5, setup.n_players,
                      setup.seatings, setup.mix_ids, setup.mix_weights, (), seats, games, log,
                      None)
    assert games[0, kernel.GAME.turns] == 1
    assert not games[1:].any() and not seats[3:].any()
    assert broken_in(log) == (0, inv.ROUND, 0, 0)


@pytest.mark.parametrize("mode, n_players", TABLES)
@pytest.mark.parametrize("strategies", [None, ["random"]], ids=["default mix", "random"])
def test_a_checked_run_breaks_nothing_and_plays_the_unchecked_rows(mode, n_players, strategies):
    config = make_config("gnomeland", n_players, mode, strategies, seed=17)
    assert_checked_run_gives_the_unchecked_rows(config, 300)


@pytest.mark.parametrize("mode, n_players", TABLES)
def test_a_checked_run_with_the_search_player(mode, n_players):
    config = make_config("gnomeland", n_players, mode, ["lookahead", *GAME.strategies.default_mix],
                         seed=8, weights={"lookahead": list(SMALL_SEARCH)})
    checked_rows = assert_checked_run_gives_the_unchecked_rows(config, 6)
    assert "lookahead" in checked_rows[0]["strategy"].to_list()
