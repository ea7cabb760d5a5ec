"""The scripted players: legal choices only, and no peeking at hidden cards."""

import numpy as np
import pytest

from simulator.core.config import make_config
from simulator.core.rng import seed_stream
from simulator.core.trace import no_log
from simulator.games.grimoire import board
from simulator.games.grimoire.turn import book_phase, new_game, quest_phase, setup_phase
from strategies import grimoire as players
from tests.grimoire.conftest import give, set_deck, set_discard

# the search player has its own hidden-information tests (test_search.py)
HEURISTICS = [n for n in players.NAMES if n != "lookahead"]


def states(n_players, strategy, games=6):
    """Tables met in real play at the start of each Book Phase (after the zone is dealt)."""
    config = make_config("grimoire", n_players, "standard", [strategy], seed=1)
    r = config.rules.as_record()[0]
    plans = (np.repeat(config.setup.mix_ids, board.MAX_PLAYERS),
             np.repeat(config.setup.mix_weights, board.MAX_PLAYERS, 0))
    for game in range(games):
        rng = seed_stream(77, game)
        table = new_game(r, n_players, plans, rng, no_log()).view(np.recarray)
        s = table[0]
        while not s.over:
            setup_phase(s, r, rng, no_log())
            if s.over:
                break
            yield table, r, plans
            book_phase(s, r, plans, rng, no_log())
            quest_phase(s, r, plans, rng, no_log())
            if s.over:
                break
            s.prev_position[:] = s.position
            s.prev_spell[:] = s.spell
            if s.last_round:
                s.over = 1


def scramble_hidden(s, viewer, rng):
    """Change what ``viewer`` cannot see: rivals' treasure and item kinds (not their numbers),
    face-down zone cards the viewer has not looked at, and the order and kinds of both decks.
    The Discard Area lies face up and stays as it is."""
    for q in range(s.n_players):
        if q == viewer:
            continue
        t = int(board.treasure_count(s, q))
        split = np.sort(rng.integers(0, t + 1, size=2))
        s.quest[q, board.COPPER], s.quest[q, board.SILVER], s.quest[q, board.GOLD] = \
            split[0], split[1] - split[0], t - split[1]
        k = int(board.item_count(s, q))
        s.items[q, :] = 0
        for _ in range(k):
            s.items[q, rng.integers(0, board.N_ITEM_KINDS)] += 1
    for i in range(s.zone_n):
        if s.zone[i] >= 0 and not board.can_see(s, viewer, i):
            s.zone[i] = rng.integers(0, board.N_QUEST_KINDS)
    s.quest_deck[:s.quest_deck_n] = rng.integers(0, board.N_QUEST_KINDS, size=s.quest_deck_n)
    s.item_deck[:s.item_deck_n] = rng.integers(0, board.N_ITEM_KINDS, size=s.item_deck_n)


def spell_worth(s, r, p, plans, seed):
    """What every spell is worth to ``p`` (all zero for ``random``, which values nothing)."""
    worth = np.zeros(board.N_SPELLS + 1)
    if plans[0][p] != players.RANDOM:
        players.spell_values(s, r, p, plans[1][p], plans[0][p] == players.GREEDY,
                             seed_stream(seed, 0), np.full((2, 5), -1.0), worth)
    return worth


@pytest.mark.parametrize("strategy", HEURISTICS)
def test_decisions_ignore_hidden_cards(strategy):
    """A player's choices, and the worth they give every spell (Cure and Wish by the face-up
    discards, Polymorph by the visible totals, the threats they defend against), are the same
    whatever the face-down cards they cannot see are."""
    scrambler = np.random.default_rng(0)
    checked = 0
    true_totals_changed = 0
    for table, r, plans in states(4, strategy):
        s = table[0]
        for p in range(s.n_players):
            seed = 1000 + checked
            spell = players.choose_spell(s, r, p, plans, seed_stream(seed, 0),
                                         np.full((2, 5), -1.0))
            worth = spell_worth(s, r, p, plans, seed)
            card = players.choose_card(s, r, p, plans, seed_stream(seed, 1))
            rivals = np.array([q for q in range(s.n_players) if q != p] + [0])

            def others(state):
                return (players.luck_discard(state, r, p, plans, seed_stream(seed, 2)),
                        players.choose_target(state, r, p, plans, seed_stream(seed, 3),
                                              board.CHARM, rivals, s.n_players - 1),
                        players.choose_target(state, r, p, plans, seed_stream(seed, 4),
                                              board.POLYMORPH, rivals, s.n_players - 1))
            seen = others(s)
            for _ in range(3):
                copy = table.copy()
                scramble_hidden(copy[0], p, scrambler)
                assert players.choose_spell(copy[0], r, p, plans, seed_stream(seed, 0),
                                            np.full((2, 5), -1.0)) == spell
                assert (spell_worth(copy[0], r, p, plans, seed) == worth).all()
                assert players.choose_card(copy[0], r, p, plans, seed_stream(seed, 1)) == card
                assert others(copy[0]) == seen
                if s.level >= board.POLYMORPH and any(
                        board.score(copy[0], r, q) != board.score(s, r, q)
                        for q in range(s.n_players) if q != p):
                    true_totals_changed += 1
            checked += 1
    assert checked > 50
    assert true_totals_changed > 20  # the scramble did change rivals' true totals where Polymorph is open


@pytest.mark.parametrize("n_players", (2, 5))
@pytest.mark.parametrize("strategy", HEURISTICS)
def test_choices_are_legal(n_players, strategy):
    for table, r, plans in states(n_players, strategy, games=4):
        s = table[0]
        for p in range(n_players):
            spell = players.choose_spell(s, r, p, plans, seed_stream(3, p), np.full((2, 5), -1.0))
            assert 1 <= spell <= s.level
            slot = players.choose_card(s, r, p, plans, seed_stream(4, p))
            assert 0 <= slot < s.zone_n and s.zone[slot] >= 0


def test_spell_timer_avoids_predicted_duplicates(tmp_path):
    """The spell_timer's weight on duplicates makes it share its spell less often than the
    greedy players it sits with."""
    import polars as pl
    from simulator import api
    path = api.run("grimoire", players=4, games=2000, seed=8, out=tmp_path / "r",
                   strategies=["spell_timer", "greedy"], progress=False)
    seats = api.load(path).seats
    casts = pl.sum_horizontal([pl.col(f"cast_level_{level}") for level in range(1, 16)])
    rates = {row["strategy"]: row["dup"] / row["casts"] for row in seats.group_by("strategy").agg(
        pl.col("spells_duplicated").sum().alias("dup"), casts.sum().alias("casts")).iter_rows(named=True)}
    assert rates["spell_timer"] < rates["greedy"], rates


# --- what the players make of Cure, Wish and the targeting spells ----------------------------------

def greedy_worth(s, r, p=0):
    plans = (np.full(board.MAX_PLAYERS, players.GREEDY), players.DEFAULT_WEIGHTS[[players.GREEDY] * 5])
    return spell_worth(s, r, p, plans, 0)


def test_cure_and_wish_are_valued_by_what_the_discards_hold(blank, r, rules_with):
    """The Discard Area lies face up: a greedy player values Cure at the average of the cards in
    it, nothing when it is empty (cure_when_discards_empty = nothing), a deck card when the rules
    let Cure go on with the deck; Wish takes what the discards hold, then deck cards."""
    s = blank(3)
    s.level = 15
    set_deck(s, [board.SQUIRE] * 20)
    deck_card = players.unknown_card_value(s, r, 0, players.DEFAULT_WEIGHTS[players.GREEDY], True,
                                           (0.0, 0.0), 0.0)
    assert greedy_worth(s, r)[board.CURE] == 0.0
    assert greedy_worth(s, r)[board.WISH] == pytest.approx(r.wish_cards * deck_card)
    assert greedy_worth(s, rules_with(cure_when_discards_empty="quest_deck")[0])[board.CURE] == \
        pytest.approx(deck_card)
    set_discard(s, [board.SAGE, board.SAGE, board.COPPER])
    assert greedy_worth(s, r)[board.CURE] == pytest.approx((2 * r.sage_vp + r.copper_vp) / 3)
    set_discard(s, [board.SAGE])
    assert greedy_worth(s, r)[board.WISH] == pytest.approx(r.sage_vp + 2 * deck_card)


@pytest.mark.parametrize("level,option", [(board.CHARM, "charm_caster_counts"),
                                          (board.DOMINATION, "domination_caster_counts")])
def test_no_worth_in_a_spell_that_would_target_its_caster(blank, rules_with, level, option):
    s = blank(3)
    s.level = 15
    give(s, 0, board.SQUIRE, 5)
    give(s, 1, board.SAGE, 2)
    assert greedy_worth(s, rules_with()[0])[level] == 0.0
    assert greedy_worth(s, rules_with(**{option: "no"})[0])[level] > 0.0
    give(s, 1, board.SAGE, 3)   # tied: the caster takes from the tied rival
    assert greedy_worth(s, rules_with()[0])[level] > 0.0


def test_polymorph_is_valued_by_the_visible_totals(blank, rules_with):
    """The players guess Polymorph's target from what the table shows, never the face-down cards:
    with the true total as the rule, their guess still counts face-down treasures at the average."""
    from tests.grimoire.test_scenarios import polymorph_table
    expected = {"visible_total": 2, "vp_tokens": 1, "true_total": 2}  # the rule would hit P3
    for rule, target in expected.items():
        r = rules_with(polymorph_target=rule)[0]
        s = blank(4)
        s.level = 15
        polymorph_table(s)
        assert players.likely_target(s, r, 0, 0, board.POLYMORPH) == target, rule
        assert greedy_worth(s, r)[board.POLYMORPH] == board.polymorph_amount(r, s.tokens[target])
    r = rules_with(polymorph_caster_counts="yes")[0]
    s = blank(4)
    s.level = 15
    polymorph_table(s)
    s.tokens[0] = 30
    assert greedy_worth(s, r)[board.POLYMORPH] == 0.0


def test_threat_is_the_loss_expected_from_rivals_likely_attacks(blank, r):
    """A player's threat is, for each rival, the chance they cast a targeting spell (their
    likeliest spell, or last round's again) times the chance it hits them (by rank) times what
    they would lose: here a rival who charmed last round and whose best spell now is Charm, and
    the Sage the target would hand over."""
    w = players.DEFAULT_WEIGHTS[players.BALANCED]
    W = players.WEIGHT_NAMES.index
    s = blank(2)
    s.level = board.CHARM
    give(s, 0, board.SAGE, 2)
    give(s, 1, board.COPPER, 3)   # not the lowest: no Summon Elemental for P1
    s.prev_spell[1] = board.CHARM
    memo = np.full((2, 5), -1.0)
    expected = (1 - w[W("pick_doubt")] * w[W("repeat_doubt")]) * w[W("hit_top")] * r.sage_vp
    assert players.threat(s, r, 0, w, memo) == pytest.approx(expected)
    assert memo[0, 1] == board.CHARM
    s.level = board.CHARM - 1     # no attack open yet
    assert players.threat(s, r, 0, w, np.full((2, 5), -1.0)) == 0.0


def test_the_target_gives_its_least_valuable_companion_the_caster_takes_the_best(blank, r):
    s = blank(2)
    give(s, 0, board.SQUIRE)
    give(s, 0, board.SAGE)
    assert players.loss_to_spell(s, r, 0, board.CHARM) == r.squire_vp            # charm_chooser = target
    assert players.loss_to_spell(s, r, 0, board.DOMINATION) == r.sage_vp + r.squire_vp


def test_a_rivals_silence_last_round_makes_forbidden_spells_worth_less(blank, r):
    plans = (np.full(board.MAX_PLAYERS, players.BALANCED), players.DEFAULT_WEIGHTS[[players.BALANCED] * 5])
    s = blank(3)
    s.level = 15
    set_deck(s, [board.SQUIRE] * 30)
    calm = spell_worth(s, r, 0, plans, 3)
    s.prev_spell[1] = board.SILENCE
    wary = spell_worth(s, r, 0, plans, 3)
    assert wary[board.FORTUNE] < calm[board.FORTUNE]
    assert wary[board.FIREBALL] == calm[board.FIREBALL]   # not a Forbidden Spell
