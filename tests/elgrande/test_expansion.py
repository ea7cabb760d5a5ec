"""The expansion "Grossinquisitor und Kolonien", rule by rule and example by example, on
hand-built tables (mode grand_inquisitor_colonies).

Each test paraphrases the rulebook passage it checks; where the text is silent the test checks
the assumption written in rules.toml and says so.
"""

import numpy as np
import pytest

from simulator.core.rng import seed_stream
from simulator.core.trace import entries, new_log
from simulator.games.elgrande import effects as E
from simulator.games.elgrande import expansion as X
from simulator.games.elgrande import story as L
from simulator.games.elgrande import turn
from simulator.games.elgrande.board import (
    AFRICA, AMERICA, ARAGON, BLACK, CARD_STACK, CASTILLA_LA_NUEVA, CASTILLA_LA_VIEJA, CASTILLO,
    CATALUNA, COLONY_STACK, COPYCAT, FRANCIA, FREE_CHOICE, FROM_CAPTAIN, FROM_FRANCIA,
    FROM_REGIONS, FROM_TOKENS, FROM_VICEROY, GALICIA, GENERAL, GOLD, GRANADA,
    GRAND_INQUISITOR_COLONIES, HELD_COPYCAT, HELD_EXECUTE, HOLY_INQUISITION, KING, LIMIT_TABLE,
    MOVE_OPPONENTS_3, MOVE_OWN_4, N_SPAIN, PAIS_VASCO, SCORE_4_POINT_REGIONS, SCORE_BLACK_REGIONS,
    SCORE_OUTSIDE_SPAIN, SEVILLA, SHIP, SPECIAL, TRANSPORT, VALENCIA, WARE, caballeros_of, counted,
    placement_target, table_filler,
)
from strategies import elgrande as players

GIC = GRAND_INQUISITOR_COLONIES


def rng():
    return seed_stream(99, 1)


def free_destinations(s, a):
    allowed = np.zeros(15, dtype=np.int64)
    X.free_destinations(s, a, allowed)
    return allowed


def logged(log, code):
    return [tuple(int(x) for x in row[1:]) for row in entries(log) if row[0] == code]


@pytest.fixture
def xtable(table):
    """``xtable(n_players, king=...)``: a cleared table of the expansion."""
    return lambda n_players=4, king=ARAGON: table(n_players, king=king, mode=GIC)


# --- Additional components and setup -------------------------------------------------------------

@pytest.mark.parametrize("n_players", (2, 3, 4, 5))
def test_setup_of_the_expansion(r, plans, log, n_players):
    """Setup: two black Caballeros' regions and the limit table's region revealed after the
    King's (distinct region cards; rules.toml: 2 black Caballeros in each); the table's 6- or
    10-space side by player count; 6 more Caballeros each, 2 of them placed by each player's
    secret choice (not the King's region); 2 Wares in África, 1 Gold in América; Holy
    Inquisition alone in stack 6, stack 7 of 11 cards."""
    t = turn.new_game(r, n_players, plans, seed_stream(3, n_players), log, GIC).view(np.recarray)
    s = t[0]
    black = [g for g in range(N_SPAIN) if s.cab[BLACK, g] > 0]
    assert len(black) == 2 and all(s.cab[BLACK, g] == 2 for g in black)
    homes = list(s.home[:n_players])
    cards = [s.king] + black + [s.table_region] + homes
    assert len(set(cards)) == len(cards)  # region cards drawn without replacement
    assert s.table_size == (6 if n_players <= 3 else 10)
    for p in range(n_players):
        assert caballeros_of(s, p) == r.caballeros_per_player + 6
        assert s.cab[p, s.king] == 0
        elsewhere = s.cab[p, :N_SPAIN].sum() - s.cab[p, s.home[p]]
        assert s.cab[p, :N_SPAIN].sum() == 2 + 2 and elsewhere in (0, 2)
    assert s.lying[WARE] == 2 and s.lying[GOLD] == 1
    assert s.supply[WARE] == 9 and s.supply[GOLD] == 5
    assert s.deck_n[COLONY_STACK] == 11 and s.inquisitor == -1


# --- The new regions ---------------------------------------------------------------------------

def test_king_may_enter_francia_but_no_other_region_outside_spain(xtable, r, random_plans,
                                                                    log):
    """The King may not leave the mainland; except for Francia he may not enter the new
    regions (the random player, many times, goes everywhere it is allowed)."""
    seen = set()
    for i in range(200):
        s = xtable(4, king=ARAGON)
        turn.stack_4_and_king(s, r, random_plans, seed_stream(7, i), log, 0, KING)
        seen.add(int(s.king))
    assert FRANCIA in seen and seen <= set(range(N_SPAIN)) | {FRANCIA}
    assert ARAGON not in seen

def test_placement_targets_of_the_new_regions(xtable):
    """Francia takes placements when the King is in Aragón or Cataluña; the Ship when he is in
    a coastal region; América and África never (only moves reach them)."""
    s = xtable(3, king=ARAGON)
    assert placement_target(s, FRANCIA) and not placement_target(s, SHIP)
    s.king = CATALUNA
    assert placement_target(s, FRANCIA) and placement_target(s, SHIP)
    s.king = CASTILLA_LA_NUEVA
    assert not placement_target(s, FRANCIA) and not placement_target(s, SHIP)
    for king in (CATALUNA, VALENCIA, GRANADA, SEVILLA, GALICIA, PAIS_VASCO, FRANCIA):
        s.king = king
        assert placement_target(s, SHIP)
        assert not placement_target(s, AMERICA) and not placement_target(s, AFRICA)
    s.king = FRANCIA  # Francia borders Aragón and Cataluña
    assert placement_target(s, ARAGON) and placement_target(s, CATALUNA)
    assert not placement_target(s, VALENCIA)


def test_the_disc_never_names_a_region_outside_spain(xtable, r, plans, log):
    """General scoring: Caballeros may not be moved from the Castillo to the new regions."""
    s = xtable(3, king=SEVILLA)
    picks = np.zeros(5, dtype=np.int64)
    for p in range(3):
        s.cab[p, CASTILLO] = 3
        s.cab[p, FRANCIA] = 1
    s.francia[:] = [0, 1, 2]
    turn.secret_picks(s, r, plans, rng(), log, L.P_DISC, 0, 0, picks)
    assert all(0 <= picks[p] < N_SPAIN for p in range(3))


# --- Francia -------------------------------------------------------------------------------------

def test_francia_ambassador_and_envoy_score_six(xtable, r, log):
    """Francia: one player on the ambassador's and the envoy's spaces scores 6 at a general
    scoring: 3 for the majority, 2 for the ambassador, 1 for the envoy; the second most 1."""
    s = xtable(3, king=ARAGON)
    s.court[:3] = 5
    E.place(s, 0, FRANCIA, log)
    E.place(s, 0, FRANCIA, log)
    E.place(s, 1, FRANCIA, log)
    assert list(s.francia) == [0, 0, 1]
    assert not placement_target(s, FRANCIA)  # no more than 3 Caballeros in Francia
    E.score_place(s, r, FRANCIA, GENERAL, False, log)
    assert s.score[0] == 6 and s.score[1] == 1 and s.score[2] == 0
    assert s.vp[0, FROM_REGIONS] == 3 and s.vp[0, FROM_FRANCIA] == 3


def test_francia_spaces_do_not_move_up(xtable, r, log):
    """Caballeros in the second and third spaces do not move up when a better one is free; the
    next Caballero brought to Francia takes the free space."""
    s = xtable(3, king=ARAGON)
    s.court[:3] = 5
    for p in (0, 1, 2):
        E.place(s, p, FRANCIA, log)
    E.move(s, 0, FRANCIA, CASTILLA_LA_VIEJA, 0, log)
    assert list(s.francia) == [-1, 1, 2]
    E.place(s, 2, FRANCIA, log)
    assert list(s.francia) == [2, 1, 2]


def test_a_freed_space_goes_to_a_caballero_arriving(xtable, log):
    """A freed Captain's space goes to 'one Caballero that you are placing or moving to the
    Ship', the Viceroy's to 'one Caballero that you are moving to America': not to one already
    there; Francia's second and third do not move up (rules.toml, expansion_spaces: no move
    within Francia either)."""
    s = xtable(3, king=VALENCIA)
    s.court[:3] = 5
    E.place(s, 0, SHIP, log)  # the Captain
    E.place(s, 1, SHIP, log)
    E.move(s, 0, SHIP, GRANADA, 0, log)  # the Captain leaves
    assert s.captain == -1 and s.cab[1, SHIP] == 1 and counted(s, 1, SHIP) == 1
    E.place(s, 2, SHIP, log)
    assert s.captain == 2
    s.cab[0, SHIP] = 1
    E.move(s, 0, SHIP, AMERICA, 0, log)  # the Viceroy
    E.move(s, 1, SHIP, AMERICA, 1, log)
    E.move(s, 0, AMERICA, SHIP, 0, log)
    assert s.viceroy == -1 and counted(s, 1, AMERICA) == 1
    s.king = ARAGON
    for p in (0, 1, 2):
        E.place(s, p, FRANCIA, log)
    E.move(s, 0, FRANCIA, CASTILLA_LA_VIEJA, 0, log)
    assert list(s.francia) == [-1, 1, 2]


# --- The Ship ----------------------------------------------------------------------------------

def test_gonzalos_ship_example_over_two_rounds(xtable, r, plans, log):
    """Round 1, the King in Valencia: Gonzalo places 1 Caballero next to the King and 2 on the
    Ship (placements). Round 2: at the start of his turn he moves one to América and the other
    to África, free moves that are no placement; then he places by the normal rules."""
    s = xtable(3, king=VALENCIA)
    s.court[0] = 3
    E.place(s, 0, ARAGON, log)
    E.place(s, 0, SHIP, log)
    E.place(s, 0, SHIP, log)
    assert s.captain == 0 and s.placed[0] == 3
    X.free_moves(s, r, plans, rng(), log, 0)
    assert s.cab[0, SHIP] == 2  # placed this round: no free move yet
    X.end_of_round(s)
    s.round_no = 2
    s.court[0] = 4
    assert X.free_movers(s, 0, SHIP) == 2
    allowed = free_destinations(s, SHIP)
    assert allowed[AMERICA] and allowed[AFRICA] and allowed[GRANADA] and allowed[CATALUNA]
    assert not allowed[VALENCIA] and not allowed[ARAGON]  # the King's region; inland
    E.move(s, 0, SHIP, AMERICA, 0, log)  # Gonzalo's choices
    E.move(s, 0, SHIP, AFRICA, 0, log)
    assert s.cab[0, SHIP] == 0 and s.cab[0, AMERICA] == 1 and s.cab[0, AFRICA] == 1
    assert s.captain == -1 and s.viceroy == 0  # the Captain may leave the Ship
    assert s.placed[0] == 3 and s.court[0] == 4  # free: no placement, no move action
    assert placement_target(s, ARAGON)  # then the normal placement


def test_captain_scores_three_and_does_not_count(xtable, r, log):
    """The Caballero on the Captain's space scores 3 whenever the Ship is scored and does not
    count toward the majority; the Ship's scoreboard is blank."""
    s = xtable(3, king=VALENCIA)
    s.court[:3] = 5
    E.place(s, 0, SHIP, log)  # the Captain
    E.place(s, 1, SHIP, log)
    assert s.captain == 0 and counted(s, 0, SHIP) == 0 and counted(s, 1, SHIP) == 1
    E.score_place(s, r, SHIP, GENERAL, False, log)
    assert s.score[0] == 3 and s.vp[0, FROM_CAPTAIN] == 3 and s.score[1] == 0


def test_mobile_scoreboard_and_grande_on_the_ship(xtable, r, log):
    """A mobile scoreboard on the Ship scores by it; the home bonus is scored with the Grande
    on the Ship."""
    s = xtable(3, king=VALENCIA)
    s.court[:3] = 5
    E.place(s, 2, SHIP, log)  # the Captain
    E.place(s, 0, SHIP, log)
    E.place(s, 0, SHIP, log)
    E.place(s, 1, SHIP, log)
    s.mobile[0] = SHIP
    s.grande[0] = SHIP
    E.score_place(s, r, SHIP, GENERAL, False, log)
    assert s.score[0] == r.mobile_1_points_1 + r.grande_bonus
    assert s.score[1] == r.mobile_1_points_2 and s.score[2] == r.captain_points


def test_viceroy_scores_five_and_does_not_count(xtable, r, log):
    """The Viceroy: the first Caballero moved to America without a token takes the free space,
    does not count toward the majority, and scores 5 whenever América is scored."""
    s = xtable(3, king=VALENCIA)
    s.cab[0, SHIP] = 2
    s.cab[1, SHIP] = 1
    E.move(s, 0, SHIP, AMERICA, 0, log)
    E.move(s, 0, SHIP, AMERICA, 0, log)
    E.move(s, 1, SHIP, AMERICA, 1, log)
    assert s.viceroy == 0 and counted(s, 0, AMERICA) == 1 and counted(s, 1, AMERICA) == 1
    E.score_place(s, r, AMERICA, GENERAL, False, log)
    tied = r.america_points_2  # tied for first: both take the second place
    assert s.score[0] == tied + 5 and s.vp[0, FROM_VICEROY] == 5 and s.score[1] == tied


# --- Gold and Wares ----------------------------------------------------------------------------

def test_bringing_a_ware_home_in_four_steps(xtable, r, plans, log):
    """1. a Caballero placed on the Ship (King on the coast; a placement); 2. next round moved
    to África, where it takes the Ware (free); 3. moved to the Ship (free); 4. moved to a
    coastal region of Spain: 4 points, the Ware back to the supply, the Caballero stays."""
    s = xtable(3, king=VALENCIA)
    s.acting = 0  # Gonzalo's turns: tokens are taken only in one's own turn
    s.court[0] = 1
    s.lying[WARE] = 1
    s.supply[WARE] -= 1
    E.place(s, 0, SHIP, log)  # step 1
    assert s.placed[0] == 1
    X.end_of_round(s)
    assert X.free_movers(s, 0, SHIP) == 1 and free_destinations(s, SHIP)[AFRICA]
    E.move(s, 0, SHIP, AFRICA, 0, log)  # step 2
    E.take_tokens(s, 0, log)
    assert s.cab[0, AFRICA] == 1 and s.carry[0, AFRICA, WARE] == 1 and s.lying[WARE] == 0
    X.end_of_round(s)
    assert X.free_movers(s, 0, AFRICA) == 1 and free_destinations(s, AFRICA)[SHIP]
    E.move(s, 0, AFRICA, SHIP, 0, log)  # step 3: the carrier goes with its token
    assert s.carry[0, SHIP, WARE] == 1 and s.captain == -1  # a carrier is never the Captain
    X.end_of_round(s)
    assert X.free_movers(s, 0, SHIP) == 1 and free_destinations(s, SHIP)[GRANADA]
    supply = s.supply[WARE]
    E.move(s, 0, SHIP, GRANADA, 0, log)  # step 4
    assert s.score[0] == 4 and s.vp[0, FROM_TOKENS] == 4 and s.tokens_home[0] == 1
    assert s.supply[WARE] == supply + 1 and s.cab[0, GRANADA] == 1 and s.carry[0].sum() == 0
    assert s.placed[0] == 1


@pytest.mark.parametrize("where", ["court", "castillo", "provinces"])
def test_a_token_is_lost_to_the_court_or_the_castillo(xtable, log, where):
    """A Caballero holding a token returned to the court (or moved into the Castillo) loses it
    to the supply for no points (rules.toml: so does one sent to the provinces)."""
    s = xtable(3, king=VALENCIA)
    s.cab[0, AMERICA] = 1
    s.carry[0, AMERICA, GOLD] = 1
    s.supply[GOLD] -= 1
    if where == "provinces":
        E.send_home(s, 0, AMERICA, log)
    else:
        E.move(s, 0, AMERICA, L.COURT if where == "court" else CASTILLO, 1, log)
    assert s.score[0] == 0 and s.carry[0].sum() == 0 and s.supply[GOLD] == 6
    assert len(logged(log, L.TOKEN_LOST)) == 1


def test_tokens_are_taken_only_during_ones_own_turn(xtable, r, plans, log):
    """'During your turn, you may take Gold and Wares': a Caballero moved into África outside
    its player's turn (Free Choice at a general scoring, or another player's turn) takes no
    Ware (issue 30: seed 8101, 5 players, game 63, Free Choice took one); at the start of its
    player's next turn it takes it, before the free moves, so it carries it to the Ship."""
    s = xtable(3, king=ARAGON)
    s.lying[WARE] = 1
    s.supply[WARE] -= 1
    s.cab[0, GALICIA] = 1
    E.move(s, 0, GALICIA, AFRICA, 0, log)  # by Free Choice: between turns
    for acting in (-1, 1):
        s.acting = acting
        E.take_tokens(s, 0, log)
        assert s.lying[WARE] == 1 and s.carry[0, AFRICA, WARE] == 0
    X.end_of_round(s)
    s.round_no = 2
    s.acting = 0
    ids, weights = plans[0], plans[1].copy()
    weights[:, players.W_CARGO] = 100.0  # a carrier heads home: to the Ship
    X.free_moves(s, r, (ids, weights), rng(), log, 0)
    assert logged(log, L.TOKEN_TAKEN) == [(0, WARE, AFRICA, 1, 0, 0)]
    assert s.lying[WARE] == 0 and s.carry[0, SHIP, WARE] + s.carry[0, AFRICA, WARE] == 1


def test_copycat_takes_no_token_after_anothers_turn(xtable, r, random_plans):
    """Copycat acts 'directly after an opponent has completed his turn': the copied Transport
    lays its Ware, and the copier's Caballero in África does not take it then (not its turn)."""
    used = 0
    for i in range(20):
        s = xtable(3, king=ARAGON)
        s.cab[1, AFRICA] = 1
        s.held[1, HELD_COPYCAT] = 1
        s.last_special = TRANSPORT
        log = new_log(300)
        turn.copycat(s, r, random_plans, seed_stream(9, i), log, 0)
        used += len(logged(log, L.HELD_CARD_USED))
        assert logged(log, L.TOKEN_TAKEN) == [] and s.carry[:, :, WARE].sum() == 0
    assert used > 0


def test_tokens_taken_one_per_caballero_from_a_limited_supply(xtable, log):
    """Taking tokens: one per Caballero in the region, never by the Viceroy; stack-7 cards lay
    only what the supply still holds."""
    s = xtable(3, king=VALENCIA)
    s.supply[GOLD] = 1
    X.lay_tokens(s, 0, COPYCAT, log)  # Copycat shows one Gold (rules.toml)
    assert s.lying[GOLD] == 1 and s.supply[GOLD] == 0
    X.lay_tokens(s, 0, COPYCAT, log)
    assert s.lying[GOLD] == 1 and logged(log, L.NO_EFFECT)[-1][2] == L.SUPPLY_EMPTY
    s.cab[0, AMERICA] = 2
    s.viceroy = 0
    s.lying[GOLD] = 3
    s.acting = 0  # in player 0's turn
    E.take_tokens(s, 0, log)
    assert s.carry[0, AMERICA, GOLD] == 1 and s.lying[GOLD] == 2


# --- The Grand Inquisitor -------------------------------------------------------------------

@pytest.fixture
def placing_plans(plans):
    """Greedy players who place every Caballero they may (keeping one in the court costs)."""
    ids, weights = plans[0], plans[1].copy()
    weights[:, players.W_COURT] = -50.0
    return ids, weights


def test_grand_inquisitor_example_four_placed(xtable, r, placing_plans, log):
    """Gonzalo takes Holy Inquisition: he takes the Grand Inquisitor card, may move 2 black
    Caballeros, and places the card's 3 Caballeros plus the Grand Inquisitor's extra one: 4."""
    s = xtable(4, king=SEVILLA)
    s.cab[BLACK, GALICIA] = 2
    s.court[0] = 6
    turn.play_card(s, r, placing_plans, rng(), log, 0, HOLY_INQUISITION, turn.ACTION_FIRST)
    assert s.inquisitor == 0 and s.inquisitor_changes == 1
    assert len(logged(log, L.PLACED)) == 4 and s.court[0] == 2
    assert logged(log, L.EXTRA_CABALLERO) == [(0, 0, 0, 0, 0, 0)]
    black_moves = [m for m in logged(log, L.MOVED) if m[0] == BLACK]
    assert len(black_moves) <= 2 and s.cab[BLACK].sum() == 2


def test_grand_inquisitor_example_fifth_from_the_provinces(xtable, r, placing_plans, log):
    """Gonzalo holds the Grand Inquisitor from the previous round and takes the King's card (5
    Caballeros) with 4 in the court: he takes 1 more from the provinces and places 5."""
    s = xtable(4, king=SEVILLA)
    s.inquisitor = 0
    s.court[0] = 4
    provinces = s.provinces[0]
    turn.play_card(s, r, placing_plans, rng(), log, 0, KING, turn.PLACEMENT_FIRST)
    assert len(logged(log, L.PLACED)) == 5 and s.court[0] == 0
    assert s.provinces[0] == provinces - 1
    assert logged(log, L.EXTRA_CABALLERO) == [(0, 1, 0, 0, 0, 0)]


def extra_choices(s, r):
    allowed = np.zeros(15, dtype=np.int64)
    X.extra_targets(s, r, allowed)
    return {g for g in range(15) if allowed[g]}


def test_grand_inquisitor_extra_goes_to_a_region_neighboring_the_king(xtable, r, rules_with,
                                                                      placing_plans, log):
    """'place 1 additional Caballero from your Court into a region neighboring the King's
    region': with the King in Valencia (on the coast) Aragón, Castilla la Nueva, Cataluña,
    Granada; not the Castillo, not the Ship (rules.toml, inquisitor_extra_ship: 'yes' adds it);
    Francia while it has a free space. A holder who prizes the Castillo puts its card's
    Caballeros there but the extra one next to the King."""
    s = xtable(4, king=VALENCIA)
    assert extra_choices(s, r) == {ARAGON, CASTILLA_LA_NUEVA, CATALUNA, GRANADA}
    assert extra_choices(s, rules_with(inquisitor_extra_ship="yes")[0]) == {
        ARAGON, CASTILLA_LA_NUEVA, CATALUNA, GRANADA, SHIP}
    s.king = ARAGON
    assert FRANCIA in extra_choices(s, r)
    s.francia[:] = [1, 2, 3]
    assert FRANCIA not in extra_choices(s, r)
    s.francia[:] = -1
    s.king = VALENCIA
    ids, weights = placing_plans
    weights[:, players.W_CASTILLO] = 500.0
    s.inquisitor = 0
    s.court[0] = 6
    turn.place_caballeros(s, r, (ids, weights), rng(), log, 0, SCORE_4_POINT_REGIONS)  # 3
    placed = logged(log, L.PLACED)
    assert logged(log, L.EXTRA_CABALLERO) == [(0, 0, 0, 0, 0, 0)] and len(placed) == 4
    assert placed[0][1] in (ARAGON, CASTILLA_LA_NUEVA, CATALUNA, GRANADA)
    assert [row[1] for row in placed[1:]] == [CASTILLO] * 3
    turn.place_caballeros(s, r, (ids, weights), rng(), log, 0, MOVE_OWN_4)  # once a round
    assert len(logged(log, L.EXTRA_CABALLERO)) == 1 and len(logged(log, L.PLACED)) == 5


@pytest.mark.parametrize("places", ["neighbours", "as_any_card"])
def test_holy_inquisition_places_into_regions_neighboring_the_king(xtable, rules_with,
                                                                   placing_plans, places):
    """Holy Inquisition: 'Place up to 3 Caballeros from your Court into regions neighboring the
    King's region': with the King in Valencia (on the coast) a player who prizes the Castillo
    still puts them in Aragón, Castilla la Nueva, Cataluña or Granada, never the Castillo or
    the Ship; rules.toml's holy_inquisition_places = 'as_any_card' lets them in as any card's
    placement (issue 30: seed 8101, 2 players, game 0 placed them in the Castillo). The next
    card's placement may use the Castillo again."""
    rr = rules_with(holy_inquisition_places=places)[0]
    ids, weights = placing_plans
    weights[:, players.W_CASTILLO] = 500.0
    s = xtable(4, king=VALENCIA)
    s.court[0] = 6
    log = new_log(200)
    turn.place_caballeros(s, rr, (ids, weights), rng(), log, 0, HOLY_INQUISITION)
    placed = [row[1] for row in logged(log, L.PLACED)]
    if places == "neighbours":
        assert len(placed) == 3 and set(placed) <= {ARAGON, CASTILLA_LA_NUEVA, CATALUNA, GRANADA}
    else:
        assert placed == [CASTILLO] * 3
    assert s.neighbours_only == 0 and placement_target(s, CASTILLO) and placement_target(s, SHIP)


def test_grand_inquisitor_extra_is_the_holders_choice(xtable, r, random_plans):
    """The extra Caballero is the holder's choice: to the court, placed, or neither (a random
    holder, many times, takes each); nobody else has one."""
    seen = set()
    for i in range(60):
        s = xtable(4, king=VALENCIA)
        s.inquisitor = 0
        s.court[0] = 2
        court, provinces = int(s.court[0]), int(s.provinces[0])
        X.inquisitor_extra(s, r, random_plans, seed_stream(8, i), new_log(100), 0, 3)
        if s.provinces[0] == provinces - 1:
            seen.add("court")
            assert s.court[0] == court + 1
        elif s.court[0] == court - 1:
            seen.add("placed")
            assert s.cab[0, :13].sum() == 1 and s.cab[0, CASTILLO] == 0
        else:
            seen.add("neither")
            assert s.extra_round[0] == 0
    assert seen == {"court", "placed", "neither"}
    s = xtable(4, king=VALENCIA)
    s.inquisitor = 1
    s.court[0] = 6
    X.inquisitor_extra(s, r, random_plans, rng(), new_log(100), 0, 3)
    assert s.court[0] == 6 and s.extra_round[0] == 0


def test_black_caballeros_count_for_the_holder_only(xtable, r, log):
    """During scoring the black Caballeros count as the holder's; with nobody holding the Grand
    Inquisitor they count for nobody. No player may remove them."""
    s = xtable(3, king=SEVILLA)
    s.cab[BLACK, GALICIA] = 2
    s.cab[1, GALICIA] = 1
    E.score_place(s, r, GALICIA, GENERAL, False, log)
    assert s.score[1] == r.galicia_points_1 and s.score[0] == 0
    s.score[:] = 0
    s.inquisitor = 0
    E.score_place(s, r, GALICIA, GENERAL, False, log)
    assert s.score[0] == r.galicia_points_1 and s.score[1] == r.galicia_points_2


def test_score_black_regions_takes_the_inquisitor(xtable, r, plans, log):
    """Stack 7, special scoring: the card's player may take the Grand Inquisitor card (taken:
    rules.toml); every region with a black Caballero is scored, the black ones counting as its."""
    s = xtable(3, king=SEVILLA)
    s.cab[BLACK, GALICIA] = 2
    s.cab[BLACK, ARAGON] = 1
    s.cab[1, ARAGON] = 2
    turn.special_action(s, r, plans, rng(), log, 0, SCORE_BLACK_REGIONS)
    assert s.inquisitor == 0
    assert s.score[0] == r.galicia_points_1 + r.aragon_points_2 and s.score[1] == r.aragon_points_1


def black_table(xtable, holder):
    """Two black Caballeros in Galicia, nothing else on the board (the King in Aragón)."""
    s = xtable(3, king=ARAGON)
    s.cab[BLACK, GALICIA] = 2
    s.inquisitor = holder
    return s


def test_the_holder_chooses_black_moves_as_his_own(xtable, r, plans):
    """'The player who has the Grand Inquisitor card may move black Caballeros ... as if they
    were his own': the intrigue move of its own Caballeros (no own one on the board) is a black
    one out of Galicia; nobody else (nor anybody while nobody holds him) may; an opponents'
    move never takes them (they are the holder's own)."""
    s = black_table(xtable, 0)
    def move(own_left, opp_left):
        return players.choose_move(s, r, 0, plans, rng(), own_left, opp_left, -1,
                                   False, players.new_memo())

    q, a, b = move(1, 0)
    assert (q, a) == (BLACK, GALICIA) and b not in (GALICIA, ARAGON)
    assert move(0, 3) == (-1, -1, -1)
    for holder in (-1, 1):
        s = black_table(xtable, holder)
        assert move(4, 4) == (-1, -1, -1)


@pytest.mark.parametrize("card", [MOVE_OWN_4, TRANSPORT, FREE_CHOICE])
def test_holders_own_moves_move_black_caballeros(xtable, r, plans, log, card):
    """Stack 1's moves of 'your' Caballeros, Transport's and Free Choice's move black ones for
    the holder, each counting as one of its own moves; the holder takes the tokens they reach.
    Another player's move of its own leaves them."""
    s = black_table(xtable, 0)
    s.cab[BLACK, GALICIA] = 0
    s.cab[BLACK, SEVILLA] = 4  # more than Transport's 3 and Free Choice's 2 may move
    s.cab[1, SEVILLA] = 1
    turn.intrigue(s, r, plans, rng(), log, 0, card)
    moves = logged(log, L.MOVED)
    assert moves and all(m[0] == BLACK and m[3] == 0 for m in moves)
    assert len(moves) <= s.card_number[card] and s.cab[BLACK].sum() == 4
    assert s.cab[BLACK, SEVILLA] == 4 - len(moves)
    s = black_table(xtable, 0)
    turn.intrigue(s, r, plans, rng(), log, 1, card)
    assert s.cab[BLACK, GALICIA] == 2 and s.cab[BLACK].sum() == 2


def test_opponents_moves_never_take_black_caballeros(xtable, r, plans, log):
    """Assumption (rules.toml, expansion_inquisitor): black Caballeros are moved only by the
    holder, as its own; an opponents' move (3 of opponents') takes none, whoever holds him."""
    for holder, by in ((0, 0), (0, 1), (-1, 1)):
        s = black_table(xtable, holder)
        turn.intrigue(s, r, plans, rng(), log, by, MOVE_OPPONENTS_3)
        assert s.cab[BLACK, GALICIA] == 2


@pytest.mark.parametrize("holder", [0, 1, -1])
def test_holder_frees_black_caballeros_from_the_ship(xtable, r, plans, log, holder):
    """The Ship's free moves: black Caballeros on the Ship since an earlier round go on at the
    beginning of their holder's turn, as the holder's own would (here to an empty coastal
    region or América); nobody else moves them, and not those that came this round."""
    s = xtable(3, king=ARAGON)
    s.inquisitor = holder
    s.cab[BLACK, SHIP] = 2
    s.arrived[BLACK, SHIP] = 1  # one came this round
    X.free_moves(s, r, plans, rng(), log, 0)
    free = logged(log, L.FREE_MOVE)
    if holder == 0:
        # a free move's row is a move's: colour, from, to, by, left, there
        assert [(row[0], row[1], row[3]) for row in free] == [(BLACK, SHIP, 0)]
        assert s.cab[BLACK, SHIP] == 1 and s.cab[BLACK, free[0][2]] == 1
    else:
        assert free == [] and s.cab[BLACK, SHIP] == 2


def test_holder_brings_a_black_carrier_home_by_free_moves(xtable, r, plans, log):
    """A black Caballero in América since an earlier round holding Gold goes to the Ship for
    its holder (free), and the next round to the coast: the Gold scores for the holder."""
    s = xtable(3, king=ARAGON)
    s.inquisitor = 0
    s.cab[BLACK, AMERICA] = 1
    s.carry[BLACK, AMERICA, GOLD] = 1
    s.cab[1, AMERICA], s.cab[2, AMERICA] = 3, 2  # the black one is third there: worth nothing
    X.free_moves(s, r, plans, rng(), log, 0)
    assert s.cab[BLACK, SHIP] == 1 and s.carry[BLACK, SHIP, GOLD] == 1
    X.end_of_round(s)
    X.free_moves(s, r, plans, rng(), log, 0)
    assert s.cab[BLACK, SHIP] == 0 and s.score[0] >= r.gold_points
    assert s.vp[0, FROM_TOKENS] == r.gold_points


def test_a_token_home_is_logged_after_its_move_and_a_free_move_once(xtable, log):
    """Issue 30: a Caballero carrying Gold from the Ship to the coast is logged moving, then
    bringing its Gold home (it was the other way round); a free move is one row, not a free
    move and a move."""
    s = xtable(3, king=ARAGON)
    s.cab[0, SHIP], s.carry[0, SHIP, GOLD] = 2, 2
    E.move(s, 0, SHIP, GALICIA, 0, log)
    E.free_move(s, 0, SHIP, VALENCIA, 0, log)
    codes = [int(row[0]) for row in entries(log)]
    assert codes == [L.MOVED, L.TOKEN_HOME, L.FREE_MOVE, L.TOKEN_HOME]
    assert logged(log, L.FREE_MOVE) == [(0, SHIP, VALENCIA, 0, 0, 1)]


# --- The limit table -------------------------------------------------------------------------

def test_limit_table_full_table(xtable, r, plans, log):
    """Caballeros brought into the table's region go onto its free spaces; once it is full
    they stand beside it and are not counted."""
    s = xtable(3, king=ARAGON)
    s.table_region, s.table_size = GALICIA, 6
    for p, k in ((0, 4), (1, 3)):
        for _ in range(k):
            E.arrive(s, p, GALICIA, -1, log)
    assert list(s.on_table[:2]) == [4, 2] and s.cab[1, GALICIA] == 3
    assert counted(s, 1, GALICIA) == 2
    E.score_place(s, r, GALICIA, GENERAL, False, log)
    assert s.score[0] == r.galicia_points_1 and s.score[1] == r.galicia_points_2


def test_limit_table_free_space_filled_by_the_grand_inquisitor(xtable, r, plans, log):
    """After each turn, free spaces are filled with Caballeros beside the table by the Grand
    Inquisitor's holder (e.g. after an intrigue card moved one off the table)."""
    s = xtable(3, king=ARAGON)
    s.table_region, s.table_size = GALICIA, 6
    for p, k in ((0, 4), (1, 2), (2, 2)):
        for _ in range(k):
            E.arrive(s, p, GALICIA, -1, log)
    assert list(s.on_table[:3]) == [4, 2, 0]
    E.move(s, 0, GALICIA, SEVILLA, 1, log)  # off the table: a space is free
    assert s.on_table.sum() == 5
    s.inquisitor = 2
    assert table_filler(s, 1) == 2
    X.fill_table(s, r, plans, rng(), log, table_filler(s, 1))
    assert list(s.on_table[:3]) == [3, 2, 1]  # the holder chose its own colour
    assert logged(log, L.TABLE_FILLED)[-1][:2] == (2, 2)


def test_limit_table_castillo_overflow(xtable, r, plans, log):
    """Caballeros from the Castillo that find no room go beside the table first; then the Grand
    Inquisitor adds Caballeros to the table until it is full."""
    s = xtable(3, king=ARAGON)
    s.table_region, s.table_size = GALICIA, 6
    for _ in range(5):
        E.arrive(s, 1, GALICIA, -1, log)
    s.cab[0, CASTILLO] = 3
    E.empty_castillo(s, 0, GALICIA, log)
    assert s.on_table[0] == 0 and s.cab[0, GALICIA] == 3
    s.inquisitor = 0
    X.fill_table(s, r, plans, rng(), log, table_filler(s, 2))
    assert list(s.on_table[:2]) == [1, 5] and s.on_table.sum() == 6


def test_limit_table_card_moves_the_table(xtable, r, plans, log):
    """Limit Table: the table is emptied into its region and set in another (never the King's
    or Francia); the Caballeros there go onto it. It never leaves the King's region."""
    s = xtable(3, king=ARAGON)
    s.table_region, s.table_size = GALICIA, 6
    s.cab[1, GALICIA], s.on_table[1] = 3, 3
    s.cab[0, SEVILLA] = 2
    s.cab[2, SEVILLA] = 5
    allowed = np.zeros(15, dtype=np.int64)
    X.table_destinations(s, allowed)
    assert not allowed[ARAGON] and not allowed[FRANCIA] and not allowed[GALICIA]
    assert allowed[SEVILLA] and allowed[SHIP] and allowed[AMERICA]
    E.put_table(s, SEVILLA, log)
    X.fill_table(s, r, plans, rng(), log, 0)  # the card's player chooses (nobody holds him)
    assert s.table_region == SEVILLA and s.on_table[1] == 0 and s.cab[1, GALICIA] == 3
    assert list(s.on_table[:3]) == [2, 0, 4]  # P0 put its own 2 on; the rest were P2's
    s.table_region = ARAGON
    X.move_table(s, r, plans, rng(), log, 0, LIMIT_TABLE)
    assert s.table_region == ARAGON and logged(log, L.NO_EFFECT)[-1][2] == L.TABLE_STAYS


def test_limit_table_card_player_decides_even_when_another_holds_the_inquisitor(
        xtable, r, plans, log):
    """'If there is not enough room for all the Caballeros in the new region, you decide': the
    card's player, not the Grand Inquisitor's holder, fills the moved table."""
    s = xtable(3, king=ARAGON)
    s.table_region, s.table_size = GALICIA, 6
    for g in range(13):  # wherever the table goes, 9 Caballeros for its 6 spaces, and P0, second
        if g not in (ARAGON, FRANCIA, GALICIA):  # now, first if it fills the table
            s.cab[0, g], s.cab[2, g] = 4, 5
    s.inquisitor = 2
    X.move_table(s, r, plans, rng(), log, 0, LIMIT_TABLE)
    assert s.table_region != GALICIA
    fills = logged(log, L.TABLE_FILLED)
    assert fills and {row[1] for row in fills} == {0}  # (colour, chooser, ...): P0 chose


def test_captain_on_a_ship_with_the_limit_table_counts_for_nothing(xtable, log):
    """The Captain 'does not count toward majority during scoring', also where the limit table
    stands: it holds its own space, not one of the table's."""
    s = xtable(3, king=VALENCIA)
    s.table_region, s.table_size = SHIP, 6
    E.arrive(s, 0, SHIP, -1, log)  # takes the free Captain's space
    E.arrive(s, 0, SHIP, -1, log)
    E.arrive(s, 1, SHIP, -1, log)
    assert s.captain == 0 and list(s.on_table[:2]) == [1, 1]
    assert counted(s, 0, SHIP) == 1 and counted(s, 1, SHIP) == 1
    E.move(s, 0, SHIP, GRANADA, 0, log)  # the plain one leaves first: the Captain stays
    assert s.captain == 0 and s.on_table[0] == 0 and counted(s, 0, SHIP) == 0


def test_black_caballeros_never_go_to_a_court(xtable, log):
    """'They can never be added to the Province or a player's Court': at a general scoring the
    black Caballeros in the Castillo follow their holder's disc, but when it names the King's
    region (whose Caballeros would go to the court) they stay in the Castillo (rules.toml)."""
    s = xtable(3, king=ARAGON)
    s.inquisitor = 1
    s.cab[BLACK, CASTILLO] = 2
    court = s.court.copy()
    X.black_from_castillo(s, ARAGON, log)
    assert s.cab[BLACK, CASTILLO] == 2 and list(s.court) == list(court)
    assert logged(log, L.BLACK_STAY)[-1][:2] == (1, 2)
    X.black_from_castillo(s, GALICIA, log)
    assert s.cab[BLACK, CASTILLO] == 0 and s.cab[BLACK, GALICIA] == 2


def test_the_ships_free_move_may_go_to_francia_while_it_has_a_free_space(xtable, log):
    """Francia: 'Caballeros may be moved to Francia ... or from the Ship'; no more than 3."""
    s = xtable(3, king=VALENCIA)
    assert free_destinations(s, SHIP)[FRANCIA]
    s.court[1] = 3
    for _ in range(3):
        E.arrive(s, 1, FRANCIA, -1, log)
    assert not free_destinations(s, SHIP)[FRANCIA]


# --- Stack 7 -------------------------------------------------------------------------------------

@pytest.mark.parametrize("order", ["declined", "vetoed", "carried out"])
def test_stack_7_lays_its_tokens_when_chosen(xtable, r, plans, log, order):
    """'Whenever a player chooses a card from stack 7, he immediately places the depicted Gold
    and/or Wares': Transport's Ware (rules.toml) lies in África once it is chosen, whether its
    special action is declined, vetoed or carried out, and only once."""
    s = xtable(3, king=ARAGON)
    ids, weights = plans[0], plans[1].copy()
    weights[:, players.W_VETO_AT] = -1e9  # a Veto held is always played
    if order == "vetoed":
        s.vetoes[1] = 1
    how = turn.NO_ACTION if order == "declined" else turn.ACTION_FIRST
    supply = int(s.supply[WARE])
    turn.play_card(s, r, (ids, weights), rng(), log, 0, TRANSPORT, how)
    assert s.lying[WARE] == 1 and s.supply[WARE] == supply - 1
    assert len(logged(log, L.TOKENS_LAID)) == 1
    assert len(logged(log, L.VETOED)) == (1 if order == "vetoed" else 0)
    assert len(logged(log, L.SPECIAL)) == (1 if order == "carried out" else 0)


def test_copied_and_executed_stack_7_actions_lay_their_tokens(xtable, r, random_plans):
    """Copycat executes the special action 'including the Gold and Ware symbols'; an executed
    stack-7 card's special action lays them likewise (part of the card's special action). A
    random holder, many times, lays Transport's Ware exactly when it uses its kept card."""
    used = {HELD_COPYCAT: 0, HELD_EXECUTE: 0}
    for i in range(20):
        for held in used:
            s = xtable(3, king=ARAGON)
            s.held[1, held] = 1
            log = new_log(300)
            if held == HELD_COPYCAT:  # player 0 carried out Transport; player 1 may copy it
                s.last_special = TRANSPORT
                turn.copycat(s, r, random_plans, seed_stream(9, i), log, 0)
            else:  # Transport face up alone; player 1 may execute it
                s.face[:] = -1
                s.face[CARD_STACK[TRANSPORT] - 1] = TRANSPORT
                turn.use_execute(s, r, random_plans, seed_stream(9, i), log, 1)
            n = len(logged(log, L.HELD_CARD_USED))
            used[held] += n
            assert len(logged(log, L.TOKENS_LAID)) == n and s.supply[WARE] == r.wares - n
    assert used[HELD_COPYCAT] > 0 and used[HELD_EXECUTE] > 0


def test_score_outside_spain(xtable, r, plans, log):
    """All four regions outside Spain are scored at once."""
    s = xtable(3, king=ARAGON)
    s.cab[0, AFRICA] = 1
    s.cab[1, AMERICA] = 1
    s.court[2] = 1
    E.place(s, 2, FRANCIA, log)
    turn.special_action(s, r, plans, rng(), log, 0, SCORE_OUTSIDE_SPAIN)
    scored = {row[1] for row in logged(log, L.SCORING) if row[0] == SPECIAL}
    assert scored == {FRANCIA, SHIP, AMERICA, AFRICA}
    assert s.score[0] == r.africa_points_1
    assert s.score[2] == r.francia_points_1 + r.ambassador_bonus
