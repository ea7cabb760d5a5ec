"""The El Grande rules, rule by rule, on hand-built tables.

Each test sets up a situation the base facts (or the expansion's rulebook) speak about,
paraphrased in its docstring, lets the engine play that step, and checks the outcome the text
states. Where no text speaks, the test checks the assumption written in rules.toml and says so.
"""

import numpy as np

from simulator.core.rng import seed_stream
from simulator.core.trace import entries
from simulator.games.elgrande import effects as E
from simulator.games.elgrande import story as L
from simulator.games.elgrande.board import (
    ARAGON, BORDERS, CARD_STACK, CASTILLA_LA_NUEVA, CASTILLA_LA_VIEJA, CASTILLO, CATALUNA,
    FRANCIA, GALICIA, GENERAL, GRANADA, KING, N_PLACES, N_SPAIN, OPPONENTS_ONE_EACH, PAIS_VASCO, SCORE_5_POINT_REGIONS,
    SCORE_FEWEST_CABALLEROS, SCORE_FIRST_PLACES, SEVILLA, SPECIAL, VALENCIA, caballeros_of,
    placement_target, stack_sizes,
)
from simulator.games.elgrande import turn
from strategies import elgrande as players


def rng():
    return seed_stream(99, 1)


def logged(log, code):
    return [tuple(int(x) for x in row[1:]) for row in entries(log) if row[0] == code]


# --- scoring and ties ---------------------------------------------------------------------------

def test_tie_example_three_tied_for_first_slide_to_second(table, r, log):
    """Ties: 5/3/1 with counts 4, 4, 4, 3: the three tied get 3 each, the fourth gets 1."""
    s = table(4)
    s.cab[:4, CASTILLO] = [4, 4, 4, 3]
    E.score_place(s, r, CASTILLO, GENERAL, False, log)
    assert list(s.score[:4]) == [3, 3, 3, 1]
    assert list(s.vp[:4, 1]) == [3, 3, 3, 1]  # the Castillo source


def test_tie_example_tie_for_third_scores_nothing(table, r, log):
    """Ties: 6/4/2 with counts 4, 3, 2, 2: 6, 4, and the two tied at 2 get nothing."""
    s = table(4, king=SEVILLA)
    assert list(s.points[CASTILLA_LA_VIEJA]) == [6, 4, 2]
    s.cab[:4, CASTILLA_LA_VIEJA] = [4, 3, 2, 2]
    E.score_place(s, r, CASTILLA_LA_VIEJA, GENERAL, False, log)
    assert list(s.score[:4]) == [6, 4, 0, 0]


def test_a_player_without_caballeros_takes_no_place(table, r, log):
    s = table(3, king=SEVILLA)
    s.cab[:3, GRANADA] = [0, 2, 1]
    E.score_place(s, r, GRANADA, GENERAL, False, log)
    assert list(s.score[:3]) == [0, 6, 3]


def test_king_bonus_to_the_sole_majority_and_not_on_a_tie(table, r, log):
    """The King's region: whoever alone has the most Caballeros in it scores +2 when it is
    scored; tied for most, nobody does."""
    s = table(3, king=ARAGON)
    s.cab[:3, ARAGON] = [3, 1, 0]
    E.score_place(s, r, ARAGON, GENERAL, False, log)
    assert list(s.score[:3]) == [5 + 2, 4, 0] and s.vp[0, 3] == 2
    s.score[:] = 0
    s.cab[:3, ARAGON] = [2, 2, 1]
    E.score_place(s, r, ARAGON, GENERAL, False, log)
    assert list(s.score[:3]) == [4, 4, 1]  # both slide to second; no bonus


def test_grande_bonus_only_for_its_owner_alone_at_the_top(table, r, log):
    """The Grande: +2 when its region is scored and its player alone has the most there."""
    s = table(3, king=SEVILLA)
    s.grande[:3] = [VALENCIA, VALENCIA, GALICIA]
    s.cab[:3, VALENCIA] = [1, 3, 0]
    E.score_place(s, r, VALENCIA, GENERAL, False, log)
    assert list(s.score[:3]) == [3, 5 + 2, 0] and s.vp[1, 4] == 2
    assert logged(log, L.BONUS)[-1][:4] == (VALENCIA, 1, 1, 2)


def test_a_mobile_scoreboard_replaces_the_values(table, r, log):
    """A mobile scoreboard (8/4/0) placed in a region replaces that region's values."""
    s = table(2, king=SEVILLA)
    s.mobile[0] = GALICIA
    s.cab[:2, GALICIA] = [2, 1]
    E.score_place(s, r, GALICIA, SPECIAL, False, log)
    assert list(s.score[:2]) == [8, 4] and list(s.vp[:2, 2]) == [8, 4]


# --- the King's region and placement ---------------------------------------------------------

def test_placement_goes_to_regions_bordering_the_king_or_the_castillo(table):
    s = table(3, king=GALICIA)
    targets = [g for g in range(N_PLACES) if placement_target(s, g)]
    assert targets == [CASTILLA_LA_VIEJA, PAIS_VASCO, CASTILLO]


def test_borders_are_symmetric_and_fifteen():
    assert (BORDERS == BORDERS.T).all() and BORDERS[:N_SPAIN, :N_SPAIN].sum() == 30
    # the expansion: Francia next to Aragón and Cataluña (placement from them)
    assert set(np.flatnonzero(BORDERS[FRANCIA])) == {ARAGON, CATALUNA}
    # the rule text's own examples: Galicia and Castilla la Nueva
    assert set(np.flatnonzero(BORDERS[GALICIA])) == {CASTILLA_LA_VIEJA, PAIS_VASCO}
    assert set(np.flatnonzero(BORDERS[CASTILLA_LA_NUEVA])) == {
        ARAGON, CASTILLA_LA_VIEJA, GRANADA, SEVILLA, VALENCIA}


def test_no_intrigue_move_touches_the_kings_region(table, r, plans):
    """The King's region is closed: the intrigue moves never go to or from it."""
    s = table(3, king=ARAGON)
    s.cab[:3, ARAGON] = [3, 3, 3]
    s.cab[:3, CATALUNA] = [0, 1, 0]
    for own_left, opp_left in ((4, 4), (0, 4), (4, 0)):
        q, a, b = players.choose_move(s, r, 0, plans, rng(), own_left, opp_left, -1,
                                      False, players.new_memo())
        assert a != ARAGON and b != ARAGON
    # out of Aragón only
    q, a, b = players.choose_move(s, r, 0, plans, rng(), 4, 4, ARAGON, False,
                                  players.new_memo())
    assert q == -1


def test_the_kings_card_places_five_and_moves_the_king(table, r, plans, log):
    """Stack 5, the King's card: move the King to any region; its player places up to 5."""
    s = table(3, king=GALICIA)
    s.court[0] = 6
    turn.play_card(s, r, plans, rng(), log, 0, KING, turn.ACTION_FIRST)
    assert s.king != GALICIA and logged(log, L.KING_MOVED)[0][:2] == (GALICIA, s.king)
    assert s.court[0] == 1 and s.placed[0] == 5
    assert s.cab[0, s.king] == 0  # placed around the new King's region, never in it


# --- power cards and turn order -----------------------------------------------------------------

def test_power_cards_refuse_a_value_already_played_and_order_the_turn(table, r, plans, log):
    """A value already played this round is refused; the highest card acts first; the player
    of the lowest card starts the next round's card play."""
    s = table(3)
    s.starter = 1
    turn.play_power_cards(s, r, plans, rng(), log, 0)
    values = [int(v) for v in s.power_played[:3]]
    assert len(set(values)) == 3
    turn.set_turn_order(s, log)
    order = [int(p) for p in s.order[:3]]
    assert [values[p] for p in order] == sorted(values, reverse=True)
    assert s.starter == order[-1]
    assert (s.power_used[:3].sum(axis=1) == 1).all()


def test_a_clash_plays_a_used_value_and_acts_after(table, r, plans, log):
    """Assumption (power_card_clash): with only already-played values left, a player plays one
    and acts after its first player."""
    s = table(2)
    s.starter = 0
    s.power_used[0, :] = 1
    s.power_used[0, 7] = 0
    s.power_used[1, :] = 1
    s.power_used[1, 7] = 0
    turn.play_power_cards(s, r, plans, rng(), log, 0)
    assert list(s.power_played[:2]) == [7, 7] and logged(log, L.POWER_CLASH)[0][:2] == (1, 7)
    turn.set_turn_order(s, log)
    assert list(s.order[:2]) == [0, 1]


def test_power_card_brings_its_caballeros_to_the_court(table, r, plans, log):
    s = table(2)
    assert [int(x) for x in s.power_caballeros[1:]] == [6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0, 0]
    s.power_played[0] = 1
    s.provinces[0] = 4
    s.court[0] = 0
    s.face[:] = -1
    s.face[4] = KING
    turn.play_turn(s, r, plans, rng(), log, 0)
    assert logged(log, L.TO_COURT)[0][:2] == (0, 4)  # only 4 left in the provinces


# --- the action cards -----------------------------------------------------------------------------

def test_the_stacks_hold_eleven_cards_and_the_kings_card(ruleset):
    r = ruleset.as_record()[0]
    assert stack_sizes(r) == [11, 11, 11, 11, 1, 1, 11]  # with the expansion's stacks 6 and 7
    assert int(CARD_STACK[KING]) == 5


def test_special_scoring_of_the_five_point_regions(table, r, plans, log):
    """Stack 3: all 5-point regions (Aragón, País Vasco, Valencia) are scored now."""
    s = table(2, king=SEVILLA)
    s.cab[0, ARAGON] = 1
    s.cab[1, PAIS_VASCO] = 1
    s.cab[0, GALICIA] = 5  # a 4-point region: not scored
    turn.special_action(s, r, plans, rng(), log, 0, SCORE_5_POINT_REGIONS)
    assert list(s.score[:2]) == [5, 5]
    assert {e[1] for e in logged(log, L.SCORING)} == {ARAGON, PAIS_VASCO, VALENCIA}


def test_first_places_only_and_a_tie_for_first_scores_nothing(table, r, plans, log):
    s = table(2, king=SEVILLA)
    s.cab[:2, ARAGON] = [2, 1]
    s.cab[:2, GRANADA] = [1, 1]
    turn.special_action(s, r, plans, rng(), log, 0, SCORE_FIRST_PLACES)
    assert list(s.score[:2]) == [5, 0]


def test_fewest_caballeros_excludes_empty_regions(table, r, plans, log):
    s = table(2, king=SEVILLA)
    s.cab[:2, ARAGON] = [2, 1]
    s.cab[:2, GRANADA] = [1, 0]
    s.cab[:2, GALICIA] = [0, 1]
    turn.special_action(s, r, plans, rng(), log, 0, SCORE_FEWEST_CABALLEROS)
    assert {e[1] for e in logged(log, L.SCORING)} == {GRANADA, GALICIA}
    assert list(s.score[:2]) == [6, 4]


def test_veto_cancels_an_announced_special_action(table, r, plans, log):
    """Veto: its holder cancels one special action another player announces (the placement of
    that card still happens)."""
    s = table(2, king=SEVILLA)
    s.vetoes[1] = 1
    s.cab[:2, GRANADA] = [0, 1]
    # return 1 Caballero of each opponent: P1 would lose first place in Granada (6 points)
    turn.announce(s, r, plans, rng(), log, 0, OPPONENTS_ONE_EACH)
    assert logged(log, L.VETOED) == [(1, 0, OPPONENTS_ONE_EACH, 0, 0, 0)]
    assert s.cab[1, GRANADA] == 1 and s.vetoes[1] == 0 and s.vetoes_used == 1
    s.vetoes[1] = 0  # without a Veto the action is carried out
    turn.announce(s, r, plans, rng(), log, 0, OPPONENTS_ONE_EACH)
    assert s.cab[1, GRANADA] == 0 and s.provinces[1] > 0


def test_no_veto_is_asked_on_a_players_trial_copy(table, r, plans, log):
    """A player trying a card out on a copy of the table (``trial``) does not guess the others'
    vetoes: the same announcement that a Veto cancels on the table is carried out on the copy."""
    s = table(2, king=SEVILLA)
    s.vetoes[1] = 1
    s.cab[:2, GRANADA] = [0, 1]
    s.trial = 1
    turn.announce(s, r, plans, rng(), log, 0, OPPONENTS_ONE_EACH)
    assert logged(log, L.VETOED) == [] and s.vetoes[1] == 1
    assert s.cab[1, GRANADA] == 0


# --- the general scoring ------------------------------------------------------------------------

def test_general_scoring_castillo_first_then_moved_then_regions(table, r, plans, log):
    """General scoring: the Castillo is scored; its Caballeros move to the regions chosen on the
    discs (to the court if it names the King's region); then every region is scored."""
    s = table(2, king=SEVILLA)
    s.cab[:2, CASTILLO] = [3, 1]
    court = s.court[:2].copy()
    turn.general_scoring(s, r, plans, rng(), log)
    picks = {e[0]: e[1] for e in logged(log, L.SECRET_CHOICE)}
    scorings = [e[1] for e in logged(log, L.SCORING)]
    assert scorings == [CASTILLO] + list(range(N_SPAIN))
    assert s.cab[0, CASTILLO] == 0 and s.cab[1, CASTILLO] == 0
    for p, n in ((0, 3), (1, 1)):
        if picks[p] == SEVILLA:
            assert s.court[p] == court[p] + n
        else:
            assert s.cab[p, picks[p]] == n
    assert s.vp[0, 1] == 5 and s.vp[1, 1] == 3


def test_caballeros_are_conserved_through_a_round(table, r, plans, log):
    s = table(4)
    for p in range(4):
        assert caballeros_of(s, p) == r.caballeros_per_player
    turn.play_round(s, r, plans, rng(), log)
    for p in range(4):
        assert caballeros_of(s, p) == r.caballeros_per_player
