"""The scripted players: legal choices only, and no peeking at hidden cards."""

import numpy as np
import pytest

from simulator.core.config import make_config
from simulator.core.rng import seed_stream
from simulator.core.trace import no_log
from simulator.games.grimoire import board
from simulator.games.grimoire.turn import book_phase, new_game, quest_phase, setup_phase
from strategies import grimoire as players


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
    """Change what ``viewer`` cannot see: rivals' treasure and item kinds (not their numbers)
    and face-down zone cards the viewer has not looked at."""
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


@pytest.mark.parametrize("strategy", players.NAMES)
def test_decisions_ignore_hidden_cards(strategy):
    """A player's choices are the same whatever the face-down cards they cannot see are."""
    scrambler = np.random.default_rng(0)
    checked = 0
    for table, r, plans in states(4, strategy):
        s = table[0]
        for p in range(s.n_players):
            seed = 1000 + checked
            spell = players.choose_spell(s, r, p, plans, seed_stream(seed, 0),
                                         np.full((2, 5), -1.0))
            card = players.choose_card(s, r, p, plans, seed_stream(seed, 1))
            rivals = np.array([q for q in range(s.n_players) if q != p] + [0])

            def others(state):
                return (players.luck_discard(state, r, p, plans, seed_stream(seed, 2)),
                        players.choose_target(state, r, p, plans, seed_stream(seed, 3),
                                              board.CHARM, rivals, s.n_players - 1))
            seen = others(s)
            for _ in range(3):
                copy = table.copy()
                scramble_hidden(copy[0], p, scrambler)
                assert players.choose_spell(copy[0], r, p, plans, seed_stream(seed, 0),
                                            np.full((2, 5), -1.0)) == spell
                assert players.choose_card(copy[0], r, p, plans, seed_stream(seed, 1)) == card
                assert others(copy[0]) == seen
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("n_players", (2, 5))
@pytest.mark.parametrize("strategy", players.NAMES)
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
