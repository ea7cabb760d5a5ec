"""El Grande's invariants (``invariants.py``): each one caught where a table played by the rules
is broken in one place, none on the tables as played; a broken one stops the game's turn loop
and the block; checked runs of every table and mix break none and play the unchecked rows."""

import numpy as np
import pytest

from simulator.core.config import make_config
from simulator.core.game import get_game
from simulator.core.rng import seed_stream
from simulator.core.trace import broken_in, no_log, tally_log
from simulator.games.elgrande import board, kernel
from simulator.games.elgrande import invariants as inv
from simulator.games.elgrande.board import (
    AFRICA, BASE, BLACK, CASTILLO, FRANCIA, FROM_KING, FROM_REGIONS, FROM_TOKENS, GOLD,
    GRAND_INQUISITOR_COLONIES, HELD_COPYCAT, N_POWER, N_SPAIN, SHIP, VETO, WARE, holds_space,
)
from simulator.games.elgrande.turn import (
    new_game, play_on, play_power_cards, set_turn_order, turn_up_cards,
)
from strategies import elgrande as players
from tests.game_fixtures import assert_checked_run_gives_the_unchecked_rows

GAME = get_game("elgrande")
N_RULES = len(GAME.rules_that_come_up)
CODE_NAMES = {v: k for k, v in vars(inv).items()  # the module's own constants, not board's
              if k.isupper() and isinstance(v, int) and not hasattr(board, k)
              and k not in ("KINGS_REGION_SLOTS", "PIECES")}
N_PLAYERS = 4
TABLES = [(mode_name, n) for mode_name, mode in GAME.modes.items() for n in mode.player_counts]
SMALL_SEARCH = players.DEFAULT_WEIGHTS[players.LOOKAHEAD].copy()
SMALL_SEARCH[players.W_ROLLOUTS] = 1
SMALL_SEARCH[players.W_ROLLOUT_TURNS] = 1  # to the end of the current round


def played(ruleset, mode, rounds=3, mid_round=False):
    """A 4-player table played by the rules with random and three heuristic players (between
    them they place, move, take the King, ship out and hold the Grand Inquisitor): ``rounds``
    whole rounds (3: the first general scoring done), then with ``mid_round`` the next round's
    cards turned up, its power cards played and its turn order set; (table, rules)."""
    r = ruleset.as_record()[0]
    ids = np.array([players.RANDOM, players.KING_SHADOW, players.COLONIAL_MERCHANT,
                    players.INQUISITOR, players.GREEDY])
    plans = (ids, players.DEFAULT_WEIGHTS[ids].copy())
    rng = seed_stream(21, 0)
    table = new_game(r, N_PLAYERS, plans, rng, no_log(), mode).view(np.recarray)
    s = table[0]
    play_on(s, r, plans, rng, no_log(), rounds)
    if mid_round:
        s.round_no += 1
        turn_up_cards(s, no_log())
        play_power_cards(s, r, plans, rng, no_log(), 0)
        set_turn_order(s, no_log())
    return table, r


def checked(s, r, kings_region, round_over):
    log = tally_log(N_RULES, check=True)
    inv.check(s, r, log, kings_region, round_over)
    return broken_in(log)


# --- one way to break each invariant: (mode, mid-round, break(s, r, kings_region) -> the two
# numbers it names); ``kings_region`` holds nothing noted unless the case notes it -------------

BREAKS = {}


def breaks(code, mode=GRAND_INQUISITOR_COLONIES, mid_round=False):
    def register(fn):
        BREAKS[code] = (mode, mid_round, fn)
        return fn
    return register


def first_where(candidates, condition):
    """The first of ``candidates`` for which ``condition`` holds (the case needs one)."""
    found = [x for x in candidates if condition(x)]
    assert found, "the table played has nothing the case needs"
    return found[0]


def each_player(r):
    return r.caballeros_per_player + r.expansion_caballeros


@breaks(inv.CABALLEROS)
def a_caballero_from_nowhere(s, r, kings_region):
    s.provinces[1] += 1
    return 1, each_player(r) + 1


@breaks(inv.CABALLEROS_NEGATIVE)
def the_court_below_none(s, r, kings_region):
    s.provinces[2] += s.court[2] + 1
    s.court[2] = -1
    return 2, -1


@breaks(inv.NO_SUCH_COLOUR)
def a_fifth_colour_at_four(s, r, kings_region):
    s.cab[4, CASTILLO] = 1
    return 4, 1


@breaks(inv.BLACK_CABALLEROS)
def a_fifth_black_caballero(s, r, kings_region):
    s.cab[BLACK, CASTILLO] += 1
    return 2 * r.black_caballeros_per_region + 1, 2 * r.black_caballeros_per_region


@breaks(inv.OUTSIDE_SPAIN, mode=BASE)
def a_ship_in_the_base_game(s, r, kings_region):
    s.provinces[0] -= 1
    s.cab[0, SHIP] += 1
    return 0, SHIP


@breaks(inv.KINGS_REGION_CABALLEROS)
def a_caballero_into_the_kings_region(s, r, kings_region):
    inv.note_kings_region(s, kings_region)
    s.provinces[1] -= 1
    s.cab[1, s.king] += 1
    return 1, 1


@breaks(inv.KINGS_REGION_PIECES)
def a_grande_into_the_kings_region(s, r, kings_region):
    inv.note_kings_region(s, kings_region)
    p = first_where(range(N_PLAYERS), lambda q: s.grande[q] != s.king)
    s.grande[p] = s.king
    return p, s.king


@breaks(inv.KING_PLACE)
def the_king_on_the_ship(s, r, kings_region):
    s.king = SHIP
    return SHIP, 0


@breaks(inv.GRANDE_PLACE)
def a_grande_in_the_castillo(s, r, kings_region):
    s.grande[3] = CASTILLO
    return 3, CASTILLO


@breaks(inv.SCOREBOARD_PLACE)
def a_scoreboard_in_the_castillo(s, r, kings_region):
    s.mobile[1] = CASTILLO
    return 1, CASTILLO


@breaks(inv.SCOREBOARDS_TOGETHER)
def both_scoreboards_in_one_region(s, r, kings_region):
    s.mobile[0] = s.mobile[1] = AFRICA
    return AFRICA, 0


@breaks(inv.CASTILLO_AFTER_SCORING)
def a_caballero_left_in_the_castillo(s, r, kings_region):
    s.provinces[0] -= 1
    s.cab[0, CASTILLO] += 1
    return 0, 1


@breaks(inv.TOKENS)
def a_ware_from_nowhere(s, r, kings_region):
    s.supply[WARE] += 1
    return WARE, r.wares + 1


@breaks(inv.TOKENS_NEGATIVE)
def gold_lying_below_none(s, r, kings_region):
    s.supply[GOLD] += s.lying[GOLD] + 1
    s.lying[GOLD] = -1
    return GOLD, -1


@breaks(inv.CARRIED)
def more_wares_than_caballeros_in_africa(s, r, kings_region):
    carried = s.carry[0, AFRICA, WARE] + s.carry[0, AFRICA, GOLD]
    extra = s.cab[0, AFRICA] - carried + 1
    assert s.supply[WARE] >= extra
    s.supply[WARE] -= extra
    s.carry[0, AFRICA, WARE] += extra
    return 0, s.cab[0, AFRICA] + 1


@breaks(inv.CARRIED_IN_SPAIN)
def a_ware_carried_in_spain(s, r, kings_region):
    g = first_where(range(N_SPAIN), lambda h: s.cab[1, h] > 0)
    s.supply[WARE] -= 1
    s.carry[1, g, WARE] += 1
    return 1, g


@breaks(inv.ARRIVED)
def more_come_to_the_ship_than_stand_there(s, r, kings_region):
    s.arrived[2, SHIP] = s.cab[2, SHIP] + 1
    return 2, s.cab[2, SHIP] + 1


@breaks(inv.TABLE_PLACE)
def the_table_in_francia(s, r, kings_region):
    s.table_region = FRANCIA
    return FRANCIA, 0


@breaks(inv.TABLE_COLOUR)
def the_table_holding_fewer_than_none(s, r, kings_region):
    s.on_table[0] = -1
    return 0, -1


@breaks(inv.TABLE_FULL)
def the_table_over_its_spaces(s, r, kings_region):
    load = int(s.on_table.sum())
    s.table_size = load - 1
    return load, load - 1


@breaks(inv.TABLE_FILLED)
def a_free_space_with_a_caballero_beside(s, r, kings_region):
    t = s.table_region
    s.table_size = int(s.on_table.sum()) + 1
    s.provinces[0] -= 1
    s.cab[0, t] += 1
    beside = sum(int(s.cab[c, t]) - holds_space(s, c, t) - int(s.on_table[c])
                 for c in range(BLACK + 1))
    return 1, beside


@breaks(inv.FRANCIA_HOLDERS)
def a_caballero_in_francia_on_no_space(s, r, kings_region):
    spaces = int((s.francia == 3).sum())
    s.provinces[3] -= 1
    s.cab[3, FRANCIA] += 1
    return 3, spaces


@breaks(inv.SPACE_HOLDER)
def a_captain_with_nobody_on_the_ship(s, r, kings_region):
    c = first_where(range(N_PLAYERS), lambda q: s.cab[q, SHIP] == 0)
    s.captain = c
    return 0, c


@breaks(inv.INQUISITOR)
def the_grand_inquisitor_with_a_fifth_player(s, r, kings_region):
    s.inquisitor = N_PLAYERS
    return N_PLAYERS, N_PLAYERS


@breaks(inv.POWER_IN_PLAY)
def a_power_card_in_play_after_the_round(s, r, kings_region):
    s.power_played[0] = 3
    return 0, 3


@breaks(inv.POWER_USED)
def every_power_card_used_by_round_three(s, r, kings_region):
    for v in range(1, N_POWER + 1):
        if not s.power_used[1, v]:
            s.power_used[1, v] = 1
            s.power_round[1, v] = 1
    return 1, N_POWER


@breaks(inv.POWER_NEVER_PLAYED)
def a_power_card_used_never_played(s, r, kings_region):
    v = first_where(range(1, N_POWER + 1), lambda w: s.power_round[2, w] == 0)
    s.power_used[2, v] = 1
    return 2, v


@breaks(inv.POWER_CLASH, mid_round=True)
def a_value_played_twice_by_one_who_had_another(s, r, kings_region):
    # p plays, after q, the value q played (p never played it); p's own card taken back
    p, q = first_where(
        ((p, q) for p in range(N_PLAYERS) for q in range(N_PLAYERS)),
        lambda pq: s.played_at[pq[1]] < s.played_at[pq[0]]
        and s.power_round[pq[0], s.power_played[pq[1]]] == 0)
    v = s.power_played[q]
    s.power_used[p, s.power_played[p]] = 0
    s.power_played[p] = v
    s.power_used[p, v] = 1
    s.power_round[p, v] = s.round_no
    return p, v


@breaks(inv.STACK_SIZE)
def a_card_gone_from_stack_1(s, r, kings_region):
    s.deck_n[0] -= 1
    return 0, s.deck_n[0]


@breaks(inv.FACE_UP, mid_round=True)
def a_veto_face_up_on_stack_1(s, r, kings_region):
    s.face[0] = VETO
    return 0, VETO


@breaks(inv.VETOES)
def a_veto_held_below_none(s, r, kings_region):
    s.vetoes[0] = -1
    return 0, -1


@breaks(inv.HELD)
def a_copycat_kept_below_none(s, r, kings_region):
    s.held[0, HELD_COPYCAT] = -1
    return HELD_COPYCAT, -1


@breaks(inv.SCORE_SOURCES)
def a_point_from_no_source(s, r, kings_region):
    s.score[1] += 1
    return 1, s.score[1]


@breaks(inv.POINTS_NEGATIVE)
def the_kings_bonus_below_none(s, r, kings_region):
    s.vp[2, FROM_REGIONS] += s.vp[2, FROM_KING] + 1
    s.vp[2, FROM_KING] = -1
    return 2, -1


@breaks(inv.TOKEN_POINTS)
def a_region_point_counted_as_gold(s, r, kings_region):
    p = first_where(range(N_PLAYERS),
                    lambda q: s.vp[q, FROM_REGIONS] > 0 and s.tokens_home[q] == 0)
    s.vp[p, FROM_REGIONS] -= 1
    s.vp[p, FROM_TOKENS] += 1
    return p, s.vp[p, FROM_TOKENS]


@breaks(inv.ROUND)
def a_round_past_the_last(s, r, kings_region):
    s.round_no = r.rounds + 1
    return r.rounds + 1, r.rounds


def test_the_codes_are_the_descriptions_in_order():
    assert sorted(CODE_NAMES) == list(range(len(inv.INVARIANTS)))
    for description in inv.INVARIANTS:
        assert "{a}" in description or "{b}" in description
        description.format(a=1, b=2)


@pytest.mark.parametrize("code", range(len(inv.INVARIANTS)), ids=lambda c: CODE_NAMES[c])
def test_each_invariant_is_caught_where_a_played_table_breaks_it(code, ruleset):
    assert code in BREAKS, f"no case breaks {CODE_NAMES[code]}"
    mode, mid_round, break_it = BREAKS[code]
    table, r = played(ruleset, mode, mid_round=mid_round)
    s = table[0]
    assert checked(s, r, inv.new_kings_region(), not mid_round) is None, \
        "the table as played breaks nothing"
    kings_region = inv.new_kings_region()
    a, b = break_it(s, r, kings_region)
    assert checked(s, r, kings_region, not mid_round) == (0, code, a, b)


@pytest.mark.parametrize("mode", [BASE, GRAND_INQUISITOR_COLONIES], ids=["base", "expansion"])
@pytest.mark.parametrize("rounds, mid_round", [(0, True), (3, False), (4, True), (9, False)],
                         ids=["first round", "first scoring", "mid-game", "game end"])
def test_tables_played_by_the_rules_break_nothing(ruleset, mode, rounds, mid_round):
    table, r = played(ruleset, mode, rounds, mid_round)
    assert checked(table[0], r, inv.new_kings_region(), not mid_round) is None


def test_a_broken_invariant_stops_the_turn_loop_and_the_block():
    """A checked tally already holding a broken invariant: the first game ends after its first
    turn and the block after that game, its later rows never written."""
    config = make_config("elgrande", 3, seed=4)
    setup = config.setup
    seats = np.zeros((5 * 3, len(kernel.SEAT)), dtype=np.int64)
    games = np.zeros((5, len(kernel.GAME)), dtype=np.int64)
    log = tally_log(N_RULES, check=True)
    log[0, N_RULES + 1] = inv.ROUND + 1
    kernel.play_games(config.rules.as_record(), np.uint64(4), 0, 5, setup.n_players,
                      setup.seatings, setup.mix_ids, setup.mix_weights, (BASE,), seats, games,
                      log, None)
    assert games[0, kernel.GAME.turns] == 1
    assert not games[1:].any() and not seats[3:].any()
    assert broken_in(log) == (0, inv.ROUND, 0, 0)


@pytest.mark.parametrize("mode, n_players", TABLES)
@pytest.mark.parametrize("strategies", [None, ["random"]], ids=["default mix", "random"])
def test_a_checked_run_breaks_nothing_and_plays_the_unchecked_rows(mode, n_players, strategies):
    config = make_config("elgrande", n_players, mode, strategies, seed=17)
    assert_checked_run_gives_the_unchecked_rows(config, 200)


@pytest.mark.parametrize("mode, n_players", TABLES)
def test_a_checked_run_with_the_search_player(mode, n_players):
    config = make_config("elgrande", n_players, mode, ["lookahead", *GAME.strategies.default_mix],
                         seed=8, weights={"lookahead": list(SMALL_SEARCH)})
    checked_rows = assert_checked_run_gives_the_unchecked_rows(config, 3)
    assert "lookahead" in checked_rows[0]["strategy"].to_list()
