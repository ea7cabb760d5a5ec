"""Grimoire's invariants (``invariants.py``): each one caught on a real table broken in one place,
the unbroken table passing, and checked runs of every player count, strategy mix and a few rule
readings breaking none, with the same rows as unchecked runs."""

import numpy as np
import pytest

from simulator.core.config import make_config
from simulator.core.game import get_game
from simulator.core.rng import seed_stream
from simulator.core.trace import broken_in, no_log, tally_log
from simulator.games.grimoire import invariants as inv
from simulator.games.grimoire.board import (
    ACCELERATION, BY_TREASURES, COPPER, FIREBALL, GOLD, MAX_ITEM_CARDS, MAX_PLAYERS, N_ITEM_KINDS,
    N_QUEST_KINDS, RELIC, SAGE, TIME_STOP, companion_count, item_card_counts, item_count,
    quest_card_count, quest_card_counts, score,
)
from simulator.games.grimoire.turn import book_phase, new_game, play_round, quest_turn, setup_phase
from strategies.grimoire import GREEDY
from tests.grimoire.conftest import SMALL_SEARCH, make_plans
from tests.game_fixtures import assert_checked_run_gives_the_unchecked_rows

N_PLAYERS = 4


def quest_phase_table(r):
    """A real four-player table in the Quest Phase of round 3, after the first quest turn, in the
    first seeded game where nobody cast a Time Spell this round (so the groups' order stands)
    and some player holds a companion."""
    plans = make_plans(GREEDY)
    for seed in range(100):
        rng = seed_stream(seed, 0)
        table = new_game(r, N_PLAYERS, plans, rng, no_log()).view(np.recarray)
        s = table[0]
        for _ in range(2):
            play_round(s, r, plans, rng, no_log())
        setup_phase(s, r, rng, no_log())
        book_phase(s, r, plans, rng, no_log())
        quest_turn(s, r, plans, rng, no_log(), 0)
        spells = list(s.spell[:N_PLAYERS])
        if ACCELERATION not in spells and TIME_STOP not in spells and not s.over and \
                any(companion_count(s, p) > 0 for p in range(N_PLAYERS)):
            return table
    raise AssertionError("no seed gives the table the tests break")


def totals(s, r):
    scores = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for p in range(s.n_players):
        scores[p] = score(s, r, p)
    return scores


def checked(s, rules, scores):
    log = tally_log(len(get_game("grimoire").rules_that_come_up), check=True)
    inv.check(s, rules[0], log, scores)
    return broken_in(log)


# --- each invariant broken in one place: break(s, rules, scores) -> the (a, b) it names -----------

BREAKS = {}


def breaks(code):
    def register(fn):
        BREAKS[code] = fn
        return fn
    return register


@breaks(inv.PILES_IN_RANGE)
def quest_deck_below_zero(s, rules, scores):
    s.quest_deck_n = -1
    return -1, s.quest_discard_n


@breaks(inv.ITEM_DECK_IN_RANGE)
def item_deck_past_its_room(s, rules, scores):
    s.item_deck_n = MAX_ITEM_CARDS + 1
    return MAX_ITEM_CARDS + 1, 0


@breaks(inv.ZONE_IN_RANGE)
def zone_dealt_a_card_too_many(s, rules, scores):
    s.zone_n = N_PLAYERS + rules[0].zone_extra_cards + 1
    return s.zone_n, rules[0].zone_extra_cards


@breaks(inv.QUEST_KINDS_VALID)
def no_quest_card_in_the_deck(s, rules, scores):
    s.quest_deck[0] = N_QUEST_KINDS
    return N_QUEST_KINDS, 0


@breaks(inv.ITEM_KINDS_VALID)
def no_item_in_the_item_deck(s, rules, scores):
    s.item_deck[0] = N_ITEM_KINDS
    return N_ITEM_KINDS, 0


@breaks(inv.QUEST_CARDS_KEPT)
def a_copper_coin_too_many_discarded(s, rules, scores):
    s.quest_discard[s.quest_discard_n] = COPPER
    s.quest_discard_n += 1
    return COPPER, quest_card_counts(rules[0])[COPPER] + 1


@breaks(inv.ITEM_CARDS_KEPT)
def the_top_item_lost(s, rules, scores):
    s.item_deck_n -= 1
    kind = s.item_deck[s.item_deck_n]
    return kind, item_card_counts(rules[0])[kind] - 1


@breaks(inv.VP_KEPT)
def a_vp_too_many_in_the_token_area(s, rules, scores):
    s.vp_supply += 1
    return s.vp_supply, s.tokens[:N_PLAYERS].sum()


@breaks(inv.SUPPLY_NOT_NEGATIVE)
def token_area_below_zero(s, rules, scores):
    s.vp_supply = -3
    return -3, 0


@breaks(inv.TOKENS_NOT_NEGATIVE)
def tokens_below_zero(s, rules, scores):
    s.tokens[2] = -1
    return 2, -1


@breaks(inv.QUEST_CARDS_NOT_NEGATIVE)
def sages_below_zero(s, rules, scores):
    s.quest[3, SAGE] = -1
    return 3, SAGE


@breaks(inv.ITEMS_NOT_NEGATIVE)
def relics_below_zero(s, rules, scores):
    s.items[0, RELIC] = -1
    return 0, RELIC


@breaks(inv.MARKER_PLACED)
def marker_a_step_too_far(s, rules, scores):
    s.level += 1
    return s.level, 3


@breaks(inv.SPELL_WITHIN_MARKER)
def spell_above_the_marker(s, rules, scores):
    s.spell[1] = s.level + 1
    return 1, s.level + 1


@breaks(inv.SPELL_EACH_BOOK_PHASE)
def a_fireball_too_many_chosen(s, rules, scores):
    s.cast[2, FIREBALL] += 1
    return 2, 4


@breaks(inv.ONE_TOKEN_EACH)
def two_tokens_to_one_player(s, rules, scores):
    s.order[1] = s.order[0]
    return 2, s.order[0]


@breaks(inv.TOKENS_BY_GROUPS)
def first_two_tokens_swapped(s, rules, scores):
    first, second = s.order[0], s.order[1]
    s.order[0], s.order[1] = second, first
    s.position[first], s.position[second] = 1, 0
    return 2, first


@breaks(inv.ROUND_LIMIT)
def round_past_the_limit(s, rules, scores):
    s.round_no = rules[0].max_rounds + 1
    return s.round_no, rules[0].max_rounds


@breaks(inv.END_TRIGGERED)
def one_companion_ends_the_game_unnoticed(s, rules, scores):
    rules[0].end_companions = 1
    p = next(p for p in range(N_PLAYERS) if companion_count(s, p) > 0)
    return p, companion_count(s, p)


@breaks(inv.TRIGGER_REACHED)
def treasures_trigger_without_a_player(s, rules, scores):
    s.end_trigger = BY_TREASURES
    return -1, BY_TREASURES


@breaks(inv.ENDED_BY_TRIGGER)
def over_with_no_trigger(s, rules, scores):
    s.over = 1
    return 3, 0


@breaks(inv.KNOWN_TREASURES_HELD)
def a_gold_crown_shown_too_many(s, rules, scores):
    s.treasures_shown[1, GOLD] = s.quest[1, GOLD] + 1
    return 1, GOLD


@breaks(inv.QUEST_CARDS_ACCOUNTED)
def a_card_taken_too_many(s, rules, scores):
    s.cards_taken[2] += 1
    return 2, quest_card_count(s, 2)


@breaks(inv.ITEMS_ACCOUNTED)
def an_item_drawn_too_many(s, rules, scores):
    s.items_drawn[3] += 1
    return 3, item_count(s, 3)


@breaks(inv.COMPANIONS_MOVED)
def a_companion_won_from_nobody(s, rules, scores):
    s.companions_won[0] += 1
    return s.companions_won[:N_PLAYERS].sum(), s.companions_lost[:N_PLAYERS].sum()


@breaks(inv.TOKENS_MOVED)
def tokens_lost_to_nobody(s, rules, scores):
    s.tokens_lost[1] += 2
    return s.tokens_won[:N_PLAYERS].sum(), s.tokens_lost[:N_PLAYERS].sum()


@breaks(inv.SCORE_IS_SOURCES)
def a_total_a_vp_too_high(s, rules, scores):
    scores[2] += 1
    return 2, scores[2]


def test_every_invariant_has_a_breaking_case():
    assert sorted(BREAKS) == list(range(len(inv.INVARIANTS)))
    assert get_game("grimoire").invariants == inv.INVARIANTS
    for description in inv.INVARIANTS:
        assert "{a}" in description or "{b}" in description
        description.format(a=1, b=2)


def test_the_real_table_breaks_none(ruleset):
    rules = ruleset.as_record()
    s = quest_phase_table(rules[0])[0]
    assert checked(s, rules, totals(s, rules[0])) is None


@pytest.mark.parametrize("code", range(len(inv.INVARIANTS)), ids=lambda c: BREAKS[c].__name__)
def test_each_invariant_is_caught(ruleset, code):
    rules = ruleset.as_record()
    table = quest_phase_table(rules[0])
    s = table[0]
    scores = totals(s, rules[0])
    a, b = BREAKS[code](s, rules, scores)
    assert checked(s, rules, scores) == (0, code, a, b), inv.INVARIANTS[code].format(a=a, b=b)


# --- checked runs ------------------------------------------------------------------------------

@pytest.mark.parametrize("n_players", (2, 3, 4, 5))
@pytest.mark.parametrize("strategies", (None, ["random"]), ids=("default_mix", "random"))
def test_checked_runs_break_nothing(n_players, strategies):
    for mode in get_game("grimoire").modes:
        config = make_config("grimoire", n_players, mode, strategies, seed=3)
        assert_checked_run_gives_the_unchecked_rows(config, 300)


# Readings that reach the rare ends: the cards running out, the round limit, the end at once
# in a Wish, an empty token area, every chooser and target reading switched.
RULE_READINGS = (
    {"copper_cards": 2, "silver_cards": 2, "gold_cards": 2, "squire_cards": 2, "knight_cards": 2,
     "sage_cards": 1, "end_companions": 40, "end_treasures": 40},
    {"max_rounds": 3},
    {"vp_supply": 5, "thief_cards": 10, "polymorph_rounding": "up",
     "polymorph_target": "true_total", "charm_chooser": "caster", "domination_chooser": "target", "charm_caster_counts": "no",
     "domination_caster_counts": "no", "polymorph_caster_counts": "yes",
     "thunderstorm_defensive": "yes", "elemental_measure": "vp_tokens",
     "cure_when_discards_empty": "quest_deck", "time_spell_order": "time_stop_first",
     "first_round_order": "random", "forbidden_silence": "yes", "forbidden_time_stop": "yes"},
    {"spell_level_start": 1, "spell_level_step": 5, "zone_extra_cards": 3, "face_down_cards": 3,
     "face_down_cards_five_players": 3, "blessed_shoes_cards": 15, "creation_items": 3,
     "wish_cards": 10, "elemental_cards": 5},
)


@pytest.mark.parametrize("settings", RULE_READINGS)
@pytest.mark.parametrize("n_players", (2, 5))
def test_checked_runs_under_other_readings_break_nothing(settings, n_players):
    config = make_config("grimoire", n_players, strategies=["random", "greedy"], settings=settings,
                         seed=8)
    assert_checked_run_gives_the_unchecked_rows(config, 200)


@pytest.mark.parametrize("n_players", (2, 5))
def test_checked_search_games_break_nothing(n_players):
    config = make_config("grimoire", n_players, strategies=["lookahead", "greedy"], seed=6,
                         weights={"lookahead": SMALL_SEARCH})
    assert_checked_run_gives_the_unchecked_rows(config, 4)
