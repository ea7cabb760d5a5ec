"""The Grimoire rulebook, rule by rule, on hand-built tables.

Each test sets up a situation the rulebook speaks about (the quoted section is in the
docstring), lets the engine play that step, and checks the outcome the rulebook states. Where
the rulebook is silent the test checks the assumption written in rules.toml, and says so.
"""

import numpy as np
import pytest

from simulator.core.rng import seed_stream
from simulator.core.trace import entries, no_log
from simulator.games.grimoire import story as L
from simulator.games.grimoire.story import tell
from simulator.games.grimoire.board import (
    ACCELERATION, BLESSED_SHOES, BY_CARDS_OUT, BY_COMPANIONS, BY_TREASURES, CHARM, COPPER, CREATION,
    CURE, DOMINATION, FIREBALL, FORTUNE, GOLD, JEWEL, JUNK, KING, KNIGHT, LUCK,
    POLYMORPH, PRINCE, QUEEN, RELIC, RESISTANCE, ROGUE, SAGE, SILENCE, SILVER, SPY, SQUIRE,
    SUMMON_ELEMENTAL, THIEF, THUNDERSTORM, TIME_STOP, TRINKET, WISH, companion_count, public_vp,
    score, vp_companions, vp_junk,
)
from simulator.games.grimoire.turn import (
    apply_time_spells, cast_spell, determine_order, new_game, play_round,
    quest_phase, setup_phase,
)
from strategies.grimoire import GREEDY, choose_target
from tests.grimoire.conftest import give, make_plans, set_deck, set_discard, set_items, set_zone


def logged(log, code):
    """The fields (a, b, ...) of every log row of kind ``code``."""
    return [tuple(int(x) for x in row[1:]) for row in entries(log) if row[0] == code]


def order_of(s):
    return [int(p) for p in s.order[:s.n_players]]


def reveal(s, r, spells, prev_order=None):
    """Spells revealed by seat; ``prev_order`` lists last round's players from token 1 on."""
    n = len(spells)
    s.spell[:n] = spells
    if prev_order is not None:
        for k, p in enumerate(prev_order):
            s.prev_position[p] = k
    determine_order(s, no_log())
    apply_time_spells(s, r, no_log())
    return order_of(s)


def rng():
    return seed_stream(12345, 0)


# --- Book Phase: turn order ------------------------------------------------------------------------

def test_group_a_goes_first_by_level_lowest_first(blank, r):
    """Determine Player Order: 'Group A players receive Turn Order Tokens first, ordered by Spell
    Level (lowest level = #1).'"""
    s = blank(4)
    assert reveal(s, r, [7, 2, 9, 4]) == [1, 3, 0, 2]
    assert not s.duplicated[:4].any()


def test_duplicates_go_after_every_unique_spell_whatever_its_level(blank, r):
    """Special Rules: players who choose the same spell 'always go after players who chose unique
    spells, regardless of spell level.' Two Lucks (level 1) go after a Wish (15)."""
    s = blank(3)
    order = reveal(s, r, [LUCK, WISH, LUCK])
    assert order[0] == 1
    assert set(order[1:]) == {0, 2}
    assert list(s.duplicated[:3]) == [1, 0, 1]


def test_group_b_by_level_then_later_player_of_last_round_first(blank, r):
    """Group B: 'ordered by Spell Level and previous round's turn order (player who went later last
    round gets the lower number).'"""
    s = blank(5)
    # last round: P0 first, then P1, P2, P3, P4
    order = reveal(s, r, [CURE, FIREBALL, CURE, FIREBALL, WISH], prev_order=[0, 1, 2, 3, 4])
    # P4 unique; Fireball (3) pair before the Cure (4) pair; within each, the later player first
    assert order == [4, 3, 1, 2, 0]
    # the same spells after a round in the opposite order
    s2 = blank(5)
    order = reveal(s2, r, [CURE, FIREBALL, CURE, FIREBALL, WISH], prev_order=[4, 3, 2, 1, 0])
    assert order == [4, 1, 3, 0, 2]


def test_first_round_ties_follow_seat_order_reversed(blank, r):
    """Assumption (rules.toml first_round_order = seats): before the first round the seat order
    stands for the previous order, so a later seat goes first among duplicates."""
    s = blank(4)
    assert reveal(s, r, [CURE, CURE, CURE, CURE]) == [3, 2, 1, 0]


def test_first_round_order_random_is_a_permutation(ruleset, rules_with):
    rules = rules_with(first_round_order="random")
    seen = set()
    for game in range(40):
        t = new_game(rules[0], 4, make_plans(GREEDY), seed_stream(3, game), no_log()).view(np.recarray)
        prev = tuple(int(x) for x in t[0].prev_position[:4])
        assert sorted(prev) == [0, 1, 2, 3]
        seen.add(prev)
    assert len(seen) > 5


def test_acceleration_takes_token_one(blank, r):
    """Acceleration is a Time Spell acting in the Book Phase; assumption: its caster takes
    turn-order token 1."""
    s = blank(4)
    assert reveal(s, r, [LUCK, SILENCE, ACCELERATION, CURE]) == [2, 0, 1, 3]


def test_duplicated_acceleration_casters_all_go_first(blank, r):
    s = blank(4)
    # both Acceleration casters are group B (after Luck and Cure), then move to the front,
    # keeping their group-B order (the later seat first in the first round)
    assert reveal(s, r, [ACCELERATION, LUCK, ACCELERATION, CURE]) == [2, 0, 1, 3]


def test_time_stop_reverses_the_tokens(blank, r):
    """Time Stop: 'reverses Turn Order Tokens during the Book Phase'."""
    s = blank(4)
    assert reveal(s, r, [LUCK, TIME_STOP, CURE, FIREBALL]) == [1, 2, 3, 0]


def test_two_time_stops_reverse_once(blank, r):
    """Assumption: the tokens are reversed once however many cast Time Stop."""
    s = blank(3)
    # P0 and P2 share Time Stop (group B: P2 then P0 in the first round), P1 unique: 1, 2, 0
    assert reveal(s, r, [TIME_STOP, LUCK, TIME_STOP]) == [0, 2, 1]


@pytest.mark.parametrize("order_rule,expected", [("acceleration_first", [3, 2, 1, 0]),
                                                 ("time_stop_first", [0, 3, 2, 1])])
def test_acceleration_and_time_stop_together(blank, rules_with, order_rule, expected):
    """Assumption (time_spell_order): by default the Time Spells act in level order."""
    r = rules_with(time_spell_order=order_rule)[0]
    s = blank(4)
    # by level: Luck P1, Cure P2, Acceleration P0, Time Stop P3 -> [1, 2, 0, 3]; then
    # Acceleration -> [0, 1, 2, 3] and Time Stop reverses it, or the other way round
    assert reveal(s, r, [ACCELERATION, LUCK, CURE, TIME_STOP]) == expected


def test_positions_match_the_order(blank, r):
    s = blank(5)
    reveal(s, r, [CURE, CURE, WISH, ACCELERATION, TIME_STOP])
    for k, p in enumerate(order_of(s)):
        assert s.position[p] == k


def test_book_phase_choices_are_within_the_spell_level(ruleset):
    """'The chosen Spell's level cannot exceed the current Spell Level shown on the chart.'"""
    from simulator.games.grimoire.turn import book_phase
    r = ruleset.as_record()[0]
    for strategy in range(6):
        plans = make_plans(strategy)
        for game in range(20):
            g = seed_stream(9, game)
            t = new_game(r, 5, plans, g, no_log()).view(np.recarray)
            s = t[0]
            setup_phase(s, r, g, no_log())
            book_phase(s, r, plans, g, no_log())
            assert ((s.spell[:5] >= 1) & (s.spell[:5] <= s.level)).all()


# --- Setup Phase ------------------------------------------------------------------------------------

def test_spell_level_starts_at_6_and_climbs_to_15(blank, r):
    """Setup 4: the marker starts under 6; Setup Phase: advance it each round except the first,
    not past 15."""
    s = blank(3)
    s.round_no = 0
    set_deck(s, [SQUIRE] * 74)
    levels = []
    for _ in range(13):
        setup_phase(s, r, rng(), no_log())
        levels.append(int(s.level))
        set_discard(s, [])
    assert levels == [6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 15, 15, 15]


@pytest.mark.parametrize("n_players,face_down", [(2, 1), (3, 1), (4, 1), (5, 2)])
def test_zone_holds_players_plus_one_with_face_down_cards(blank, r, n_players, face_down):
    """'Draw cards from the Quest Deck equal to the number of players plus 1. Place one card face
    down (two in a 5-player game) and the rest face up.'"""
    s = blank(n_players)
    s.round_no = 0
    set_deck(s, list(range(12)) * 3)
    setup_phase(s, r, rng(), no_log())
    assert s.zone_n == n_players + 1
    assert (s.zone[:n_players + 1] >= 0).all()
    assert s.zone_face_down[:n_players + 1].sum() == face_down
    assert s.quest_deck_n == 36 - (n_players + 1)


def test_empty_deck_is_refilled_from_the_discards(blank, r, log):
    """'If the Quest Deck is empty, shuffle the Discard Area to form a new deck.'"""
    s = blank(3)
    s.round_no = 0
    set_deck(s, [GOLD, GOLD])
    set_discard(s, [SQUIRE, KNIGHT, SAGE, COPPER, SILVER])
    setup_phase(s, r, rng(), log)
    assert list(s.zone[:2]) == [GOLD, GOLD]   # the deck first, then the reshuffled discards
    assert all(int(c) in (SQUIRE, KNIGHT, SAGE, COPPER, SILVER) for c in s.zone[2:4])
    assert s.quest_deck_n + s.quest_discard_n == 3 and s.quest_discard_n == 0
    assert s.deck_reshuffles == 1 and s.over == 0
    assert logged(log, L.RESHUFFLE) == [(5, 0, 0, 0, 0, 0)]


def test_game_ends_at_once_when_deck_and_discards_are_empty(blank, r, log):
    """'If both Quest Deck and Discard Area are empty, the game ends immediately.'"""
    s = blank(3)
    s.round_no = 0
    set_deck(s, [GOLD, SQUIRE])
    setup_phase(s, r, rng(), log)
    assert s.over == 1 and s.end_trigger == BY_CARDS_OUT
    assert logged(log, L.CARDS_OUT)


# --- Quest Phase ------------------------------------------------------------------------------------

def test_quest_phase_in_turn_order_effect_then_card_rest_discarded(blank, r, plans, log):
    """Quest Phase: 'in turn order ... Use the Book Effect ... Take a Quest Card ... remaining Quest
    Cards in the Quest Card Zone go to the Discard Area.'"""
    s = blank(2)
    set_zone(s, [SAGE, SQUIRE, COPPER])
    s.spell[:2] = [FORTUNE, FIREBALL]
    s.order[:2] = [1, 0]
    quest_phase(s, r, plans, rng(), log)
    kinds = [row[0] for row in entries(log)]
    # P1 first: Fireball's tokens, then the best card (the Sage); then P0: Fortune, then a card
    assert logged(log, L.QUEST_TURN) == [(1, 0, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0)]
    assert kinds.index(L.VP_GAIN) < kinds.index(L.TAKE)
    assert s.quest[1, SAGE] == 1 and s.tokens[1] == r.fireball_vp and s.tokens[0] == r.fortune_vp
    assert s.quest_discard_n == 1 and (s.zone[:3] < 0).all()


def test_companions_face_up_treasures_face_down(blank, r, plans):
    """'Companions are placed face up in the player's Territory; Treasures are placed face down.'
    A rival's view of the table counts a face-down treasure at the deck's average, not its value."""
    from simulator.games.grimoire.board import mean_treasure_vp, visible_score
    s = blank(2)
    give(s, 0, GOLD)
    give(s, 0, KNIGHT)
    assert visible_score(s, r, 0, 0) == score(s, r, 0) == r.gold_vp + r.knight_vp
    assert visible_score(s, r, 1, 0) == pytest.approx(r.knight_vp + mean_treasure_vp(r))
    s.items[0, JUNK] = 1   # the junk bonus depends on rivals' hidden items: not in one's own view
    assert score(s, r, 0) == r.gold_vp + r.knight_vp + r.junk_bonus_vp
    assert visible_score(s, r, 0, 0) == r.gold_vp + r.knight_vp


def test_face_down_card_is_looked_at_when_taken(blank, r, plans, log):
    s = blank(2)
    set_zone(s, [SQUIRE, COPPER], face_down=[0])
    s.spell[:2] = [FIREBALL, FIREBALL]
    s.order[:2] = [0, 1]
    quest_phase(s, r, plans, rng(), log)
    taken = logged(log, L.TAKE)
    assert len(taken) == 2 and sorted(t[2] for t in taken) == [COPPER, SQUIRE]


# --- Targeting spells ------------------------------------------------------------------------------

def test_charm_targets_the_rival_with_most_companions(blank, r, plans, log):
    """Charm: 'Target the player with the most Companions'. Assumption: the target hands one
    companion of their choice (their least valuable) to the caster."""
    s = blank(4)
    give(s, 1, SQUIRE, 2)
    give(s, 2, SQUIRE, 1)
    give(s, 2, SAGE, 2)      # P2 has the most companions (3)
    s.spell[:4] = [CHARM, LUCK, LUCK, LUCK]
    cast_spell(s, r, plans, rng(), log, 0)
    assert logged(log, L.TARGET) == [(0, CHARM, 2, 0, 0, 0)]
    assert s.quest[0, SQUIRE] == 1 and s.quest[2, SQUIRE] == 0 and s.quest[2, SAGE] == 2


def test_charm_ignores_defensive_spell_users(blank, r, plans, log):
    """'Players who used Defensive Spells this round are ignored when determining the target.'
    Resistance and Time Stop are Defensive Spells."""
    s = blank(4)
    give(s, 1, SQUIRE, 5)
    give(s, 2, SQUIRE, 4)
    give(s, 3, SQUIRE, 3)
    s.spell[:4] = [CHARM, RESISTANCE, TIME_STOP, LUCK]
    cast_spell(s, r, plans, rng(), log, 0)
    assert logged(log, L.TARGET) == [(0, CHARM, 3, 0, 0, 0)]
    assert companion_count(s, 3) == 2 and companion_count(s, 1) == 5 and companion_count(s, 2) == 4


def test_thunderstorm_defends_only_when_the_rules_say_so(blank, rules_with, plans):
    """Assumption: the rulebook names only Resistance and Time Stop as Defensive Spells."""
    for flag, target in (("no", 1), ("yes", 2)):
        r = rules_with(thunderstorm_defensive=flag)[0]
        s = blank(3)
        give(s, 1, SQUIRE, 3)
        give(s, 2, SQUIRE, 2)
        s.spell[:3] = [CHARM, THUNDERSTORM, LUCK]
        log = np.zeros((100, 7), dtype=np.int64)
        cast_spell(s, r, plans, rng(), log, 0)
        assert logged(log, L.TARGET)[0][2] == target


@pytest.mark.parametrize("level", [CHARM, DOMINATION])
def test_a_caster_with_the_most_companions_alone_charms_nobody(blank, r, plans, log, level):
    """Charm, Domination: 'Target the player with the most Companions (caster chooses if tied)'
    does not leave the caster out (charm_caster_counts, domination_caster_counts = yes): a caster
    who alone has the most would target themselves, so the spell does nothing, and the replay
    says so."""
    s = blank(3)
    give(s, 0, SQUIRE, 6)
    give(s, 2, KNIGHT, 1)
    s.spell[:3] = [level, LUCK, LUCK]
    cast_spell(s, r, plans, rng(), log, 0)
    assert logged(log, L.CASTER_IS_TARGET) == [(0, level, 0, 0, 0, 0)]
    assert not logged(log, L.TARGET) and not logged(log, L.NO_TARGET)
    assert companion_count(s, 0) == 6 and companion_count(s, 2) == 1
    event = [e for e in tell(log) if e["kind"] == "caster_is_target"][0]
    assert event["player"] == 0 and "does nothing" in event["text"]


@pytest.mark.parametrize("level,option", [(CHARM, "charm_caster_counts"),
                                          (DOMINATION, "domination_caster_counts")])
def test_a_caster_left_out_hits_the_rival_with_the_most(blank, rules_with, plans, log, level, option):
    """The other reading (option = no): the target is the rival with the most companions, even
    if the caster has more."""
    r = rules_with(**{option: "no"})[0]
    s = blank(3)
    give(s, 0, SQUIRE, 6)
    give(s, 2, KNIGHT, 1)
    s.spell[:3] = [level, LUCK, LUCK]
    cast_spell(s, r, plans, rng(), log, 0)
    assert logged(log, L.TARGET) == [(0, level, 2, 0, 0, 0)]
    assert companion_count(s, 0) == 7 and companion_count(s, 2) == 0


@pytest.mark.parametrize("level", [CHARM, DOMINATION])
def test_a_caster_tied_for_the_most_chooses_a_tied_rival(blank, r, plans, log, level):
    """'caster chooses if tied': tied with the caster, a rival is the target (the greedy caster
    picks the tied rival who leads the table), never the caster."""
    s = blank(4)
    give(s, 0, SQUIRE, 3)
    give(s, 1, SQUIRE, 3)
    give(s, 2, SQUIRE, 3)
    give(s, 3, SQUIRE, 2)
    s.tokens[2] = 5
    s.spell[:4] = [level, LUCK, LUCK, LUCK]
    cast_spell(s, r, plans, rng(), log, 0)
    assert logged(log, L.TARGET) == [(0, level, 2, 0, 0, 0)]
    assert companion_count(s, 0) > 3


def test_polymorph_never_targets_its_caster(blank, r, plans, log):
    """Polymorph 'affects other players' VP Tokens only' (polymorph_caster_counts = no): a caster
    with the highest total still hits the rival with the highest."""
    s = blank(3)
    s.tokens[:3] = [20, 4, 6]
    s.spell[:3] = [POLYMORPH, LUCK, LUCK]
    cast_spell(s, r, plans, rng(), log, 0)
    assert logged(log, L.TARGET) == [(0, POLYMORPH, 2, 0, 0, 0)]
    assert list(s.tokens[:3]) == [23, 4, 3]


def test_polymorph_comparing_its_caster_too_does_nothing_for_the_leader(blank, rules_with, plans, log):
    """The other reading (polymorph_caster_counts = yes): a caster who alone has the highest
    total would be its own target: nothing moves, and the replay says so."""
    r = rules_with(polymorph_caster_counts="yes")[0]
    s = blank(3)
    s.tokens[:3] = [20, 4, 6]
    s.spell[:3] = [POLYMORPH, LUCK, LUCK]
    cast_spell(s, r, plans, rng(), log, 0)
    assert logged(log, L.CASTER_IS_TARGET) == [(0, POLYMORPH, 0, 0, 0, 0)]
    assert list(s.tokens[:3]) == [20, 4, 6]
    event = [e for e in tell(log) if e["kind"] == "caster_is_target"][0]
    assert "highest total VP" in event["text"] and "does nothing" in event["text"]
    s.tokens[:3] = [6, 4, 6]   # tied with a rival: the rival is the target
    log2 = np.zeros((100, 7), dtype=np.int64)
    cast_spell(s, r, plans, rng(), log2, 0)
    assert logged(log2, L.TARGET) == [(0, POLYMORPH, 2, 0, 0, 0)]


def test_charm_without_any_companion_to_take_does_nothing(blank, r, plans, log):
    s = blank(3)
    give(s, 1, GOLD, 3)
    give(s, 2, SQUIRE, 1)
    s.spell[:3] = [CHARM, LUCK, RESISTANCE]  # P2 defends; P1 has treasures but no companion
    cast_spell(s, r, plans, rng(), log, 0)
    assert logged(log, L.NO_TARGET) == [(0, CHARM, 0, 0, 0, 0)]
    assert companion_count(s, 0) == 0


def test_caster_chooses_among_tied_targets(blank, r, plans, random_plans):
    """'caster chooses if tied': the greedy caster picks the tied rival who leads the table; a
    random caster picks either."""
    s = blank(3)
    give(s, 1, SQUIRE, 2)
    give(s, 2, SQUIRE, 2)
    s.tokens[2] = 9
    s.spell[:3] = [CHARM, LUCK, LUCK]
    log = np.zeros((100, 7), dtype=np.int64)
    cast_spell(s, r, plans, rng(), log, 0)
    assert logged(log, L.TARGET)[0][2] == 2
    candidates = np.array([1, 2, 0, 0, 0])
    picks = {choose_target(s, r, 0, random_plans, seed_stream(5, i), CHARM, candidates, 2)
             for i in range(40)}
    assert picks == {0, 1}


def test_domination_takes_two_companions_of_the_casters_choice(blank, r, plans, log):
    """Assumption: Domination takes two companions, chosen by the caster (the best for them)."""
    s = blank(3)
    give(s, 1, SQUIRE, 2)
    give(s, 1, SAGE, 1)
    give(s, 1, KING, 1)
    give(s, 0, QUEEN, 1)
    s.spell[:3] = [DOMINATION, LUCK, LUCK]
    cast_spell(s, r, plans, rng(), log, 0)
    # the King beside the caster's Queen is worth king_vp + king_royal_bonus + queen_king_bonus
    assert s.quest[0, KING] == 1 and s.quest[0, SAGE] == 1
    assert companion_count(s, 1) == 2 and s.companions_won[0] == 2 and s.companions_lost[1] == 2


def test_polymorph_takes_half_the_tokens_of_the_richest_undefended_rival(blank, r, plans, log):
    """Polymorph: 'Affects other players' VP Tokens only ... Targets the player with the highest
    total VP ... Defensive Spell users are ignored.' Assumption: half, rounded down."""
    s = blank(4)
    s.tokens[:4] = [2, 12, 7, 3]
    give(s, 2, SAGE, 5)   # cards are not touched
    s.spell[:4] = [POLYMORPH, RESISTANCE, LUCK, LUCK]
    cast_spell(s, r, plans, rng(), log, 0)
    assert logged(log, L.TARGET) == [(0, POLYMORPH, 2, 0, 0, 0)]
    assert list(s.tokens[:4]) == [5, 12, 4, 3]
    assert s.quest[2, SAGE] == 5


def polymorph_table(s):
    """Three rivals, each with the highest total by one reading of 'highest total VP':
    P1 the most VP tokens (6); P2 the highest total the table can see (tokens 2, a Knight 2 and
    a Rogue worth 4 beside 4 face-down treasures: 8); P3 the highest true total (tokens 4 and four
    face-down Gold Crowns: 16)."""
    s.tokens[:4] = [0, 6, 2, 4]
    give(s, 2, ROGUE)
    give(s, 2, KNIGHT)
    give(s, 2, COPPER, 4)
    give(s, 3, GOLD, 4)
    s.spell[:4] = [POLYMORPH, LUCK, LUCK, LUCK]


@pytest.mark.parametrize("target_rule,target", [("visible_total", 2), ("vp_tokens", 1),
                                                ("true_total", 3)])
def test_polymorph_target_by_each_reading_of_highest_total(blank, rules_with, plans, log,
                                                            target_rule, target):
    """Assumption (polymorph_target): by default the highest total a player at the table can see,
    the face-up companions valued as scored (the Rogue by its owner's number of treasures) plus
    VP tokens; or the VP tokens only; or the true total, face-down cards included."""
    r = rules_with(polymorph_target=target_rule)[0]
    s = blank(4)
    polymorph_table(s)
    assert public_vp(s, r, 1) == 6 and public_vp(s, r, 2) == 8 and public_vp(s, r, 3) == 4
    before = s.tokens[target]
    cast_spell(s, r, plans, rng(), log, 0)
    assert logged(log, L.TARGET) == [(0, POLYMORPH, target, 0, 0, 0)]
    assert s.tokens[0] == before // 2 and s.tokens[target] == before - before // 2


def test_polymorph_of_a_target_without_tokens_takes_nothing(blank, r, plans, log):
    """The visible total may point at a player holding no VP tokens: Polymorph 'affects VP
    Tokens only', so nothing moves (the replay says so)."""
    s = blank(3)
    give(s, 1, SAGE, 3)
    s.tokens[2] = 4
    s.spell[:3] = [POLYMORPH, LUCK, LUCK]
    cast_spell(s, r, plans, rng(), log, 0)
    assert logged(log, L.TARGET) == [(0, POLYMORPH, 1, 0, 0, 0)]
    assert logged(log, L.TOKENS_MOVED) == [(1, 0, 0, 0, 0, 0)] and s.tokens[0] == 0
    assert "takes no VP tokens" in [e for e in tell(log) if e["kind"] == "tokens_moved"][0]["text"]


# --- Silence and Forbidden Spells --------------------------------------------------------------------

def test_silence_negates_forbidden_spells_cast_after_it(blank, r, plans, log):
    """Silence: 'Between now and end of round, other players' Forbidden Spell effects are
    negated.' Fortune and Charm are forbidden (assumption), Fireball is not."""
    s = blank(4)
    give(s, 0, SQUIRE, 3)
    s.spell[:4] = [SILENCE, FORTUNE, FIREBALL, CHARM]
    set_zone(s, [SQUIRE] * 5)
    s.order[:4] = [1, 0, 2, 3]   # P1's Fortune comes before the Silence
    quest_phase(s, r, plans, rng(), log)
    assert s.tokens[1] == r.fortune_vp          # before the Silence: applied
    assert s.tokens[2] == r.fireball_vp         # not forbidden
    assert logged(log, L.NEGATED) == [(3, CHARM, 0, 0, 0, 0)]
    assert s.quest[0, SQUIRE] >= 3 and s.times_negated[3] == 1 and s.times_negated[1] == 0


def test_silence_does_not_negate_its_casters_own_spell(blank, r, plans, log):
    s = blank(2)
    s.spell[:2] = [SILENCE, SILENCE]
    s.order[:2] = [0, 1]
    set_zone(s, [SQUIRE] * 3)
    quest_phase(s, r, plans, rng(), log)
    assert len(logged(log, L.SILENCE)) == 2 and not logged(log, L.NEGATED)


def test_a_silenced_forbidden_defensive_spell_no_longer_protects(blank, rules_with, plans, log):
    """With Resistance made forbidden (--set forbidden_resistance=yes), a Silence before the
    Charm lifts its protection."""
    r = rules_with(forbidden_resistance="yes", forbidden_charm="no")[0]
    s = blank(3)
    give(s, 1, SQUIRE, 4)
    give(s, 2, SQUIRE, 1)
    s.spell[:3] = [CHARM, RESISTANCE, SILENCE]
    s.order[:3] = [2, 0, 1]
    set_zone(s, [COPPER] * 4)
    quest_phase(s, r, plans, rng(), log)
    assert logged(log, L.TARGET) == [(0, CHARM, 1, 0, 0, 0)]


# --- Other spells ---------------------------------------------------------------------------------

def test_luck_discards_the_face_down_card_and_draws_a_blind_replacement(blank, r, plans, log):
    """Luck: 'May discard the face-down Quest Card from the Zone; if so, draw blindly from the
    Quest Deck to replace it.' The greedy caster looks (assumption) and drops a poor card."""
    s = blank(2)
    set_zone(s, [COPPER, SAGE, KNIGHT], face_down=[0])
    set_deck(s, [GOLD])
    s.spell[:2] = [LUCK, FIREBALL]
    cast_spell(s, r, plans, rng(), log, 0)
    assert logged(log, L.LUCK) == [(0, 0, COPPER, 0, 0, 0)]
    assert logged(log, L.LUCK_REPLACEMENT) == [(0, 0, GOLD, 0, 0, 0)]
    assert s.zone[0] == GOLD and s.zone_face_down[0] == 1 and s.quest_discard_n == 1
    assert not (s.zone_seen[0] >> 0) & 1  # the replacement is unseen


def test_luck_tells_its_discard_before_the_reshuffle_that_brings_it_back(blank, r, plans, log):
    """With the quest deck empty, the card Luck discards is the Discard Area the deck is refilled
    from: the replay tells the discard, then the reshuffle, then the replacement (the same card),
    so a reader counting the Discard Area finds the card there when it is shuffled."""
    s = blank(2)
    set_zone(s, [COPPER, SAGE, KNIGHT], face_down=[0])
    s.spell[:2] = [LUCK, FIREBALL]
    cast_spell(s, r, plans, rng(), log, 0)
    assert [int(row[0]) for row in entries(log)] == [L.LUCK, L.RESHUFFLE, L.LUCK_REPLACEMENT]
    assert logged(log, L.RESHUFFLE) == [(1, 0, 0, 0, 0, 0)]
    assert logged(log, L.LUCK_REPLACEMENT) == [(0, 0, COPPER, 0, 0, 0)]
    assert s.zone[0] == COPPER and s.quest_deck_n == 0 and s.quest_discard_n == 0


def test_luck_keeps_a_good_face_down_card(blank, r, plans, log):
    s = blank(2)
    set_zone(s, [GOLD, SQUIRE, SQUIRE], face_down=[0])
    set_deck(s, [COPPER])
    s.spell[:2] = [LUCK, FIREBALL]
    cast_spell(s, r, plans, rng(), log, 0)
    assert s.zone[0] == GOLD and s.quest_deck_n == 1


def test_cure_draws_one_card_from_the_discards(blank, r, plans, log):
    """Cure: 'Shuffle discards face down and randomly draw one.'"""
    s = blank(2)
    set_discard(s, [SAGE, SAGE, SAGE])
    set_deck(s, [COPPER] * 5)
    s.spell[:2] = [CURE, LUCK]
    cast_spell(s, r, plans, rng(), log, 0)
    assert s.quest[0, SAGE] == 1 and s.quest_discard_n == 2 and s.quest_deck_n == 5
    assert logged(log, L.DRAW) == [(0, SAGE, L.FROM_DISCARD, CURE, 0, 0)]


def test_cure_with_no_discards_draws_nothing(blank, r, plans, log):
    """Cure: 'Shuffle discards face down and randomly draw one': with no discards there is nothing
    to draw (cure_when_discards_empty = nothing); the quest deck is not touched and the replay
    records the Cure that found nothing."""
    s = blank(2)
    set_deck(s, [SAGE] * 3)
    s.spell[:2] = [CURE, LUCK]
    cast_spell(s, r, plans, rng(), log, 0)
    assert s.quest[0].sum() == 0 and s.quest_deck_n == 3 and s.cards_drawn[0] == 0
    assert logged(log, L.DISCARDS_EMPTY) == [(0, CURE, 0, 0, 0, 0)] and not logged(log, L.DRAW)
    event = [e for e in tell(log) if e["kind"] == "discards_empty"][0]
    assert event["player"] == 0 and "nothing is drawn" in event["text"]


def test_cure_with_no_discards_and_no_deck_does_not_end_the_game(blank, r, plans, log):
    s = blank(2)
    s.spell[:2] = [CURE, LUCK]
    cast_spell(s, r, plans, rng(), log, 0)
    assert s.over == 0 and logged(log, L.DISCARDS_EMPTY)


def test_cure_borrowing_wishs_rule_draws_from_the_deck(blank, rules_with, plans, log):
    """cure_when_discards_empty = quest_deck: Cure goes on with the quest deck as Wish does, and
    with both empty the game ends at once."""
    r = rules_with(cure_when_discards_empty="quest_deck")[0]
    s = blank(2)
    set_deck(s, [COPPER, SAGE])
    s.spell[:2] = [CURE, LUCK]
    cast_spell(s, r, plans, rng(), log, 0)
    assert s.quest[0, SAGE] == 1 and s.quest_deck_n == 1
    assert logged(log, L.DRAW) == [(0, SAGE, L.FROM_DECK, CURE, 0, 0)]
    s2 = blank(2)
    s2.spell[:2] = [CURE, LUCK]
    cast_spell(s2, r, plans, rng(), log, 0)
    assert s2.over == 1 and s2.end_trigger == BY_CARDS_OUT


def test_cure_with_more_cards_than_discards_stops_when_they_run_out(blank, rules_with, plans, log):
    r = rules_with(cure_cards=3)[0]
    s = blank(2)
    set_discard(s, [KNIGHT])
    set_deck(s, [SAGE] * 3)
    s.spell[:2] = [CURE, LUCK]
    cast_spell(s, r, plans, rng(), log, 0)
    assert s.quest[0, KNIGHT] == 1 and s.quest[0, SAGE] == 0 and s.quest_deck_n == 3
    assert logged(log, L.DISCARDS_EMPTY) == [(0, CURE, 1, 0, 0, 0)]


def test_wish_draws_three_and_the_game_ends_if_cards_run_out_mid_wish(blank, r, plans, log):
    """Wish: 'If Quest Deck and Discard Pile are depleted during this effect, keep any cards
    obtained and the game ends.' The rest of the round is not played."""
    s = blank(3)
    set_discard(s, [KNIGHT])
    set_deck(s, [SQUIRE])
    set_zone(s, [SAGE, SAGE, SAGE, SAGE])
    s.spell[:3] = [WISH, FORTUNE, FORTUNE]
    s.order[:3] = [0, 1, 2]
    quest_phase(s, r, plans, rng(), log)
    assert s.quest[0, KNIGHT] == 1 and s.quest[0, SQUIRE] == 1
    assert s.over == 1 and s.end_trigger == BY_CARDS_OUT
    assert s.quest[0, SAGE] == 0 and s.tokens[1] == 0  # nothing after the Wish
    assert logged(log, L.DRAW) == [(0, KNIGHT, L.FROM_DISCARD, WISH, 0, 0),
                                   (0, SQUIRE, L.FROM_DECK, WISH, 0, 0)]


def test_creation_draws_a_face_down_item(blank, r, plans, log):
    """Creation: 'Draw an Item Card; keep it secret and place face down in your Territory.'"""
    from simulator.games.grimoire.board import item_count, mean_item_vp, visible_score
    s = blank(2)
    set_items(s, [RELIC])
    s.spell[:2] = [CREATION, LUCK]
    cast_spell(s, r, plans, rng(), log, 0)
    assert s.items[0, RELIC] == 1 and item_count(s, 0) == 1
    assert score(s, r, 0) == r.relic_vp
    assert visible_score(s, r, 1, 0) == pytest.approx(mean_item_vp(r))  # hidden from rivals


def test_blessed_shoes_are_used_at_once_for_one_more_card(blank, r, plans, log):
    """Creation: 'Exception: Blessed Shoes may be used immediately upon drawing.' Assumption: one
    more quest card from the zone, and the shoes are discarded."""
    s = blank(2)
    set_items(s, [BLESSED_SHOES])
    set_zone(s, [SAGE, SQUIRE, COPPER])
    s.spell[:2] = [CREATION, LUCK]
    s.order[:2] = [0, 1]
    quest_phase(s, r, plans, rng(), log)
    assert s.shoes_used[0] == 1 and s.items[0].sum() == 0
    assert s.cards_taken[0] == 2 and s.cards_taken[1] == 1


def test_item_deck_running_out_gives_nothing(blank, r, plans, log):
    """'If the Item Deck runs out, no more Item Cards can be drawn.'"""
    s = blank(2)
    s.spell[:2] = [CREATION, LUCK]
    cast_spell(s, r, plans, rng(), log, 0)
    assert s.items[0].sum() == 0 and logged(log, L.ITEM_DECK_EMPTY) == [(0, 0, 0, 0, 0, 0)]


@pytest.mark.parametrize("mine,theirs,works", [(2, [3, 4], True), (3, [3, 4], True),
                                               (4, [3, 5], False)])
def test_summon_elemental_works_even_when_tied_for_lowest(blank, r, plans, mine, theirs, works):
    """Summon Elemental: 'Can be used even if tied for the lowest total.' Assumption: the total is
    quest cards held; the effect draws two cards blind."""
    s = blank(3)
    give(s, 0, COPPER, mine)
    give(s, 1, COPPER, theirs[0])
    give(s, 2, SQUIRE, theirs[1])
    set_deck(s, [SAGE, SAGE, SAGE])
    s.spell[:3] = [SUMMON_ELEMENTAL, LUCK, LUCK]
    log = np.zeros((100, 7), dtype=np.int64)
    cast_spell(s, r, plans, rng(), log, 0)
    assert s.quest[0, SAGE] == (r.elemental_cards if works else 0)


def test_thief_takes_a_token_on_its_owners_turn(blank, r, plans, log):
    """Thief (other edition): on its owner's quest turn, 1 VP from the supply."""
    s = blank(2)
    give(s, 0, THIEF, 2)
    s.vp_supply = 1
    s.spell[:2] = [LUCK, LUCK]
    s.order[:2] = [0, 1]
    set_zone(s, [SQUIRE] * 3)
    quest_phase(s, r, plans, rng(), log)
    assert s.tokens[0] == 1 and s.vp_supply == 0  # the supply runs out


def test_spy_lets_its_owner_see_the_face_down_card(blank, r, plans, log):
    s = blank(2)
    give(s, 0, SPY)
    set_zone(s, [GOLD, SQUIRE, SQUIRE], face_down=[0])
    s.spell[:2] = [FIREBALL, FIREBALL]
    s.order[:2] = [0, 1]
    quest_phase(s, r, plans, rng(), log)
    assert s.quest[0, GOLD] == 1  # the greedy Spy owner saw the Gold Crown and took it


# --- End of the game and scoring -----------------------------------------------------------------

@pytest.mark.parametrize("kind,trigger", [(SQUIRE, BY_COMPANIONS), (COPPER, BY_TREASURES)])
def test_ten_of_a_kind_finishes_the_round_then_ends(blank, r, plans, kind, trigger):
    """'A player has 10 Companion Quest Cards OR 10 Treasure Quest Cards in their Territory at any
    time during a turn - finish the current round, then the game ends.'"""
    s = blank(3)
    s.round_no = 0
    give(s, 0, kind, 9)
    set_deck(s, [kind] * 30)
    log = np.zeros((500, 7), dtype=np.int64)
    play_round(s, r, plans, rng(), log)
    assert s.end_trigger == trigger and s.over == 1
    assert s.turns == 3  # every player had their turn after the trigger
    assert s.round_no == 1


def test_trigger_stays_even_if_the_companion_is_charmed_away(blank, r, plans, log):
    s = blank(2)
    give(s, 1, SQUIRE, 9)
    s.spell[:2] = [CHARM, FIREBALL]
    s.order[:2] = [1, 0]
    set_zone(s, [SQUIRE, SQUIRE, SQUIRE])
    quest_phase(s, r, plans, rng(), log)
    assert s.end_trigger == BY_COMPANIONS and s.trigger_player == 1
    assert companion_count(s, 1) == 9 and s.last_round == 1


def test_rogue_and_royals_are_valued_first(blank, r):
    """Final Scoring: 'Some Quest Cards (Rogue, Prince, Queen, King) ... modify VP at game end.'
    Values from rules.toml (assumptions)."""
    s = blank(2)
    give(s, 0, ROGUE)
    give(s, 0, COPPER, 2)
    give(s, 0, PRINCE)
    assert vp_companions(s, r, 0) == 2 * r.rogue_vp_per_treasure + r.prince_vp
    give(s, 0, QUEEN)
    give(s, 0, KING)
    assert vp_companions(s, r, 0) == (2 * r.rogue_vp_per_treasure + r.prince_royal_vp +
                                      r.queen_vp + r.queen_king_bonus +
                                      r.king_vp + 2 * r.king_royal_bonus)
    give(s, 0, GOLD, 8)
    assert vp_companions(s, r, 0) - (r.prince_royal_vp + r.queen_vp + r.queen_king_bonus +
                                     r.king_vp + 2 * r.king_royal_bonus) == r.rogue_max_vp


def test_most_junk_scores_the_bonus_ties_share_it(blank, rules_with):
    for ties, bonus in (("all", 5), ("none", 0)):
        r = rules_with(junk_bonus_ties=ties)[0]
        s = blank(3)
        s.items[0, JUNK] = 2
        s.items[1, JUNK] = 2
        s.items[2, JUNK] = 1
        assert vp_junk(s, r, 0) == bonus and vp_junk(s, r, 1) == bonus and vp_junk(s, r, 2) == 0
        s.items[1, JUNK] = 1
        assert vp_junk(s, r, 0) == r.junk_bonus_vp


def test_score_adds_cards_items_and_tokens(blank, r):
    s = blank(2)
    give(s, 0, GOLD)
    give(s, 0, SILVER)
    give(s, 0, KNIGHT)
    s.items[0, JEWEL] = 1
    s.items[0, TRINKET] = 1
    s.items[0, JUNK] = 1
    s.tokens[0] = 4
    assert score(s, r, 0) == (r.gold_vp + r.silver_vp + r.knight_vp + r.jewel_vp + r.trinket_vp +
                              r.junk_bonus_vp + 4)
