"""Gremios's invariants (``invariants.py``): each one caught when a real table breaks it in one
place, none on the tables seeded games reach, and checked runs giving the unchecked rows."""

import numpy as np
import pytest

from simulator.core.config import make_config
from simulator.core.game import get_game
from simulator.core.rng import seed_stream
from simulator.core.trace import broken_in, no_log, tally_log
from simulator.games.gremios import invariants as inv
from simulator.games.gremios.board import (
    FIRST_BLOCKADE_CARD, GOOD_HARVEST, MUTINY, N_BLOCKADES, N_GUILDS, N_ROLES, NO_ROLE,
    STANDARD, ULTIMATE_DUEL, event_card_counts, set_top_investor, treasure_count, victory_points,
)
from simulator.games.gremios.turn import new_game, play_turn
from tests.gremios.conftest import SMALL_SEARCH
from tests.game_fixtures import assert_checked_run_gives_the_unchecked_rows

CONFIGS = [(2, "standard"), (3, "standard"), (4, "standard"), (2, "ultimate_duel")]
N_RULES = len(get_game("gremios").rules_that_come_up)


def seeded_tables(n_players, mode, seed):
    """(rules, mode id, table after each turn) of seeded games of the default mix, played turn by
    turn with the engine's own functions."""
    config = make_config("gremios", n_players, mode, seed=seed)
    rules = config.rules.as_record()
    setup = config.setup
    seat_entry = np.arange(4) % len(setup.mix_ids)  # seat p plays the mix's entry p
    plans = (setup.mix_ids[seat_entry], setup.mix_weights[seat_entry])
    for game in range(50):
        rng = seed_stream(seed, game)
        table = new_game(rules[0], n_players, setup.mode, setup.fixed_roles, plans, rng,
                         no_log()).view(np.recarray)
        s = table[0]
        while not s.over and s.turn < rules[0].max_turns:
            play_turn(s, rules[0], plans, rng, no_log())
            yield rules, setup.mode, table.copy().view(np.recarray)


def first_table(n_players, mode, wanted):
    for rules, mode_id, table in seeded_tables(n_players, mode, seed=77):
        if wanted(table[0], rules[0]):
            return rules, mode_id, table
    raise AssertionError("no seeded table has what the breaking cases need")


def rich(s, r):
    """A table mid-game with something of everything to break."""
    n = s.n_players
    counts = [treasure_count(s, p) for p in range(n)]
    return (not s.over and s.turn >= 12 and 0 in s.guild_open[:N_GUILDS]
            and (s.top_investor >= 0).any() and s.emblem >= 0 and counts.count(max(counts)) == 1
            and s.treasure_deck_n > 0 and takeable(s, MUTINY) > 0
            and any(s.treasures_given_up[p, k] > 0 for p in range(n) for k in range(2)))


def takeable(s, card):
    """How many ``card``s are in the event deck or the discard pile above the cards set aside."""
    return int((s.event_deck[:s.event_deck_n] == card).sum() +
               (s.event_discard[s.events_aside_n:s.event_discard_n] == card).sum())


@pytest.fixture(scope="module")
def mid_game():
    return first_table(4, "standard", rich)


@pytest.fixture(scope="module")
def finished_game():
    # inn cards left for a second player to reach the target with
    return first_table(4, "standard", lambda s, r: s.over and s.turn >= 12 and s.inn_deck_n >= 5)


@pytest.fixture(scope="module")
def duel_game():
    return first_table(2, "ultimate_duel", lambda s, r: s.turn >= 12)


def check(table, rules, mode):
    log = tally_log(N_RULES, check=True)
    inv.check(table[0], rules[0], mode, log)
    return broken_in(log)


def take_event_card(s, card):
    """Take one ``card`` out of the event deck (or the discard pile above the cards set aside)
    to put it in play by hand."""
    for i in range(s.event_deck_n):
        if s.event_deck[i] == card:
            s.event_deck[i] = s.event_deck[s.event_deck_n - 1]
            s.event_deck_n -= 1
            return
    for i in range(s.events_aside_n, s.event_discard_n):
        if s.event_discard[i] == card:
            s.event_discard[i] = s.event_discard[s.event_discard_n - 1]
            s.event_discard_n -= 1
            return
    raise AssertionError(f"no event card {card} to take")


def topped_guild(s):
    return int(np.flatnonzero(s.top_investor >= 0)[0])


# --- the breaking cases: each breaks a mid-game table in one place and returns (a, b) ----------

def event_cards(s, r):
    card = int(s.event_deck[s.event_deck_n - 1])
    s.event_deck_n -= 1
    return card, (1 if card < N_GUILDS else event_card_counts(r)[card - GOOD_HARVEST]) - 1


def set_aside(s, r):
    s.events_aside_n = s.event_discard_n + 1
    return s.events_aside_n, s.event_discard_n


def treasure_cards(s, r):
    kind = int(s.treasure_deck[s.treasure_deck_n - 1])
    printed = (r.wealth_low_cards, r.wealth_high_cards, r.common_treasure_cards,
               r.rare_treasure_cards)[kind]
    s.treasure_deck_n -= 1
    return kind, printed - 1


def land_cards(s, r):
    s.land_deck_n += 1
    return r.land_cards + 1, r.land_cards


def inn_cards(s, r):
    s.inn_deck_n += 1
    return r.inn_cards + 1, r.inn_cards


def deck_size(s, r):
    s.inn_deck_n = -1
    return 4, -1


def role_cards(s, r):
    s.role_not_chosen[1] = s.roles[0, 0]
    return s.roles[0, 0], 2


def roles_held(s, r):
    s.roles[2, 0] = N_ROLES
    return 2, N_ROLES


def coins_negative(s, r):
    s.coins[1] = -1
    return 1, -1


def coins_from_nowhere(s, r):
    s.coins[1] += 1000
    return 1, s.coins[1]


def holdings_negative(s, r):
    g = int(np.flatnonzero(s.investments[1, :N_GUILDS] == 0)[0])
    s.investments[1, g] = -1
    return 1, -1


def guild_not_on_board(s, r):
    g = int(np.flatnonzero(s.guild_open == 0)[0])
    s.investments[3, g] = 1
    return g, 1


def guild_full(s, r):
    g = topped_guild(s)
    top = s.top_investor[g]
    s.investments[top, g] += r.guild_slots
    return g, int(s.investments[:4, g].sum())


def top_investor_not_most(s, r):
    g = topped_guild(s)
    top = s.top_investor[g]
    rival = (top + 1) % 4
    s.investments[:, g] = 0
    s.investments[top, g] = 1
    s.investments[rival, g] = 2
    return g, top


def top_investor_missing(s, r):
    g = topped_guild(s)
    set_top_investor(s, r, g, -1)  # the marker's points go with it
    return g, int(s.investments[:4, g].sum())


def score_sources(s, r):
    s.top_investor_points[2] += 1
    return 2, victory_points(s, r, 2)


def emblem_holder(s, r):
    fewest = min(range(4), key=lambda p: treasure_count(s, p))
    s.emblem = fewest
    return fewest, treasure_count(s, fewest)


def emblem_discarded(s, r):
    holder = int(s.emblem)
    s.emblem = -1
    return holder, treasure_count(s, holder)


def treasures_held(s, r):
    s.treasures_taken[0] += 1
    return 0, treasure_count(s, 0)


def treasures_shown(s, r):
    p, kind = next((p, k) for p in range(4) for k in range(2) if s.treasures_given_up[p, k] > 0)
    s.treasures_shown[p, kind] = s.treasures_given_up[p, kind] + 1
    return p, s.treasures_shown[p, kind]


def inns_standing(s, r):
    s.inns_built[3] += 1
    return 3, s.inns[3]


def inns_destroyed(s, r):
    s.inns_built[3] -= 1
    s.inns_repaired[3] += 1
    return 3, s.destroyed_inns[3]


def expedition_full(s, r):
    s.expedition[:r.expedition_slots] = 0
    s.expedition_n = r.expedition_slots
    return r.expedition_slots, r.expedition_slots


def expedition_stake(s, r):
    s.expedition[0] = 7
    s.expedition_n = 1
    return 0, 7


def blockades(s, r):
    kind = next(k for k in range(N_BLOCKADES) if takeable(s, FIRST_BLOCKADE_CARD + k) +
                s.blockades[k] >= r.blockades_for_bankruptcy)
    while s.blockades[kind] < r.blockades_for_bankruptcy:
        take_event_card(s, FIRST_BLOCKADE_CARD + kind)
        s.blockades[kind] += 1
    return kind, r.blockades_for_bankruptcy


def pending(s, r):
    take_event_card(s, MUTINY)
    s.pending = MUTINY
    return MUTINY, s.turn


def allowances(s, r):
    s.craftsman_trade_left = -1
    return 5, -1


def over_below_target(s, r):
    s.over = 1
    return max(victory_points(s, r, p) for p in range(4)), r.victory_points_to_win


def turn_player(s, r):
    s.player = 4
    return 4, 4


def turn_limit(s, r):
    s.turn = r.max_turns + 1
    return r.max_turns + 1, r.max_turns


# --- and those that need the end of a game ---

def game_goes_on(s, r):
    s.over = 0
    winner = max(range(4), key=lambda p: victory_points(s, r, p))
    return winner, victory_points(s, r, winner)


def two_at_target(s, r):
    """A second player with enough inns, drawn from the inn deck as if built."""
    winner = max(range(4), key=lambda p: victory_points(s, r, p))
    other = (winner + 1) % 4
    while victory_points(s, r, other) < r.victory_points_to_win:
        s.inn_deck_n -= 1
        s.inns[other] += 1
        s.inns_built[other] += 1  # its plot went back to the land deck
    return 2, r.victory_points_to_win


# --- and the duel's ---

def duel_roles(s, r):
    s.roles[1, 1] = NO_ROLE
    return 1, NO_ROLE


MID_GAME_CASES = {
    inv.EVENT_CARDS: event_cards, inv.SET_ASIDE: set_aside, inv.TREASURE_CARDS: treasure_cards,
    inv.LAND_CARDS: land_cards, inv.INN_CARDS: inn_cards, inv.DECK_SIZE: deck_size,
    inv.ROLE_CARDS: role_cards, inv.ROLES_HELD: roles_held, inv.COINS_NEGATIVE: coins_negative,
    inv.COINS_FROM_NOWHERE: coins_from_nowhere, inv.HOLDINGS_NEGATIVE: holdings_negative,
    inv.GUILD_NOT_ON_BOARD: guild_not_on_board, inv.GUILD_FULL: guild_full,
    inv.TOP_INVESTOR_NOT_MOST: top_investor_not_most,
    inv.TOP_INVESTOR_MISSING: top_investor_missing, inv.SCORE_SOURCES: score_sources,
    inv.EMBLEM_HOLDER: emblem_holder, inv.EMBLEM_DISCARDED: emblem_discarded,
    inv.TREASURES_HELD: treasures_held, inv.TREASURES_SHOWN: treasures_shown,
    inv.INNS_STANDING: inns_standing, inv.INNS_DESTROYED: inns_destroyed,
    inv.EXPEDITION_FULL: expedition_full, inv.EXPEDITION_STAKE: expedition_stake,
    inv.BLOCKADES: blockades, inv.PENDING: pending, inv.ALLOWANCES: allowances,
    inv.OVER_BELOW_TARGET: over_below_target, inv.TURN_PLAYER: turn_player,
    inv.TURN_LIMIT: turn_limit,
}
FINISHED_GAME_CASES = {inv.GAME_GOES_ON: game_goes_on, inv.TWO_AT_TARGET: two_at_target}


ALL_CASES = {**MID_GAME_CASES, **FINISHED_GAME_CASES}


def test_the_tables_as_played_break_nothing(mid_game, finished_game, duel_game):
    for rules, mode, table in (mid_game, finished_game, duel_game):
        assert check(table, rules, mode) is None


def test_every_invariant_has_a_breaking_case():
    missing = [inv.INVARIANTS[code] for code in range(len(inv.INVARIANTS)) if code not in ALL_CASES]
    assert not missing, missing


@pytest.mark.parametrize("code", sorted(ALL_CASES), ids=lambda code: ALL_CASES[code].__name__)
def test_each_invariant_is_caught(code, mid_game, finished_game):
    rules, mode, table = mid_game if code in MID_GAME_CASES else finished_game
    table = table.copy()
    breaking = ALL_CASES[code]
    a, b = breaking(table[0], rules[0])
    assert check(table, rules, mode) == (0, code, a, b), inv.INVARIANTS[code]


def test_the_duel_holds_two_different_roles(duel_game):
    rules, mode, table = duel_game
    assert mode == ULTIMATE_DUEL
    # outside the duel, one role each: the duel's second role is then one too many
    assert check(table, rules, STANDARD) == (0, inv.ROLES_HELD, 0, table[0].roles[0, 1])
    table = table.copy()
    a, b = duel_roles(table[0], rules[0])
    assert check(table, rules, mode) == (0, inv.ROLES_HELD, a, b)


def test_the_descriptions_name_their_numbers():
    for description in inv.INVARIANTS:
        assert "{a}" in description or "{b}" in description, description
        description.format(a=1, b=2)


# --- checked runs ------------------------------------------------------------------------------

MIXES = [(None, 300, None), (["random"], 300, None),
         (["lookahead", "balanced"], 4, {"lookahead": SMALL_SEARCH})]


@pytest.mark.parametrize("mix,n_games,weights", MIXES, ids=["default", "random", "search"])
@pytest.mark.parametrize("n_players,mode", CONFIGS)
def test_checked_runs_break_nothing_and_change_no_row(n_players, mode, mix, n_games, weights):
    config = make_config("gremios", n_players, mode, mix, seed=808, weights=weights)
    assert_checked_run_gives_the_unchecked_rows(config, n_games)
