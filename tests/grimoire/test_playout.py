"""Seeded invariant playouts: every player count and strategy, checked after every round; and
the dataset a run writes."""

import numpy as np
import polars as pl
import pytest

from simulator import api
from simulator.core.config import make_config
from simulator.core.rng import seed_stream
from simulator.core.search import SEARCHING
from simulator.core.trace import no_log
from simulator.games.grimoire import board
from simulator.games.grimoire.turn import new_game, play_round
from strategies import grimoire as players
from tests.grimoire.conftest import SMALL_SEARCH

PLAYER_COUNTS = (2, 3, 4, 5)
GAMES_PER_CASE = 10


def totals(r):
    quest = sum(int(c) for c in board.quest_card_counts(r))
    items = sum(int(c) for c in board.item_card_counts(r))
    return quest, items


def check_invariants(s, r, n_quest, n_items):
    n = s.n_players
    assert (s.quest[:n] >= 0).all() and (s.items[:n] >= 0).all() and (s.tokens[:n] >= 0).all()
    # Every quest card is in the deck, the discards, the zone or a Territory.
    in_zone = int((s.zone[:s.zone_n] >= 0).sum())
    assert s.quest_deck_n + s.quest_discard_n + in_zone + s.quest[:n].sum() == n_quest
    # Every item is in the deck or a Territory, or was used (Blessed Shoes).
    assert s.item_deck_n + s.items[:n].sum() + s.shoes_used[:n].sum() == n_items
    assert s.vp_supply >= 0 and s.vp_supply + s.tokens[:n].sum() == r.vp_supply
    assert s.level == min(r.spell_level_start + max(0, s.round_no - 1) * r.spell_level_step,
                          r.spell_level_max)
    if s.spell[:n].any():
        # Book Phase happened: every spell within the marker, the order a permutation, group A
        # (unique spells) before group B, group A by level when no Time Spell moved it
        assert ((s.spell[:n] >= 1) & (s.spell[:n] <= s.level)).all(), (s.spell[:n], s.level)
        order = list(s.order[:n])
        assert sorted(order) == list(range(n))
        spells = [int(s.spell[p]) for p in order]
        dup = [spells.count(x) > 1 for x in spells]
        if board.ACCELERATION not in spells and board.TIME_STOP not in spells:
            assert dup == sorted(dup)
            unique = [x for x, d in zip(spells, dup) if not d]
            assert unique == sorted(unique)
            shared = [x for x, d in zip(spells, dup) if d]
            assert shared == sorted(shared)
    if s.end_trigger in (board.BY_COMPANIONS, board.BY_TREASURES):
        assert s.trigger_player >= 0 and s.last_round == 1
    assert (s.times_negated[:n] <= s.cast[:n].sum(axis=1)).all()
    assert (s.times_duplicated[:n] <= s.cast[:n].sum(axis=1)).all()
    # What is known of face-down treasures is there: those shown to all, with those one player
    # alone looked at.
    for v in range(n):
        assert (s.treasures_shown[:n] + s.treasures_seen[v, :n] <= s.quest[:n, :board.N_TREASURE_KINDS]).all()
        assert (s.treasures_seen[v, v] == 0).all()


@pytest.mark.parametrize("n_players", PLAYER_COUNTS)
@pytest.mark.parametrize("strategy", players.NAMES)
def test_invariants_hold_every_round(n_players, strategy, heuristics_compiled):
    weights = {"lookahead": SMALL_SEARCH} if strategy == "lookahead" else None
    config = make_config("grimoire", n_players, "standard", [strategy], seed=123, weights=weights)
    r = config.rules.as_record()[0]
    n_quest, n_items = totals(r)
    setup = config.setup
    plans = (np.repeat(setup.mix_ids, board.MAX_PLAYERS),
             np.repeat(setup.mix_weights, board.MAX_PLAYERS, 0))
    if setup.has_search:
        plans = plans + (SEARCHING,)
    for game in range(GAMES_PER_CASE if not setup.has_search else 3):
        rng = seed_stream(123, game)
        s = new_game(r, n_players, plans, rng, no_log()).view(np.recarray)[0]
        check_invariants(s, r, n_quest, n_items)
        while not s.over and s.round_no < r.max_rounds:
            play_round(s, r, plans, rng, no_log())
            check_invariants(s, r, n_quest, n_items)
        assert s.over, "a game of default Grimoire never needs the round limit"
        assert s.end_trigger != board.NOT_ENDED
        if s.end_trigger == board.BY_CARDS_OUT:
            assert s.quest_deck_n == 0
        else:
            p = s.trigger_player
            assert board.companion_count(s, p) >= r.end_companions - s.companions_lost[p] or \
                board.treasure_count(s, p) >= r.end_treasures


def test_round_limit_truncates(tmp_path):
    path = api.run("grimoire", players=3, games=200, seed=4, out=tmp_path / "r", progress=False,
                   settings={"max_rounds": 3})
    games = api.load(path).games
    assert games["truncated"].all() and (games["rounds"] == 3).all()
    assert (games["end_trigger"] == "max_rounds").all()


@pytest.mark.parametrize("n_players", PLAYER_COUNTS)
def test_dataset_invariants(tmp_path, n_players):
    path = api.run("grimoire", players=n_players, games=600, seed=5,
                   strategies=list(players.NAMES), weights={"lookahead": SMALL_SEARCH},
                   out=tmp_path / "run", progress=False)
    data = api.load(path)
    seats, games = data.seats, data.games
    assert seats.height == 600 * n_players and games.height == 600
    assert seats["role"].null_count() == seats.height and seats.schema["role"] == pl.String
    shares = seats.group_by("game_id").agg(pl.col("win_share").sum())["win_share"]
    assert np.allclose(shares.to_numpy(), 1.0)
    sources = sum(seats[c] for c in ("vp_companions", "vp_treasures", "vp_items", "vp_junk",
                                     "vp_tokens"))
    assert (seats["score"] == sources).all()
    assert (seats.filter(seats["rank"] == 1)["winner"]).all()
    best = seats.group_by("game_id").agg(pl.col("score").max().alias("best")).sort("game_id")
    assert (best["best"] == games.sort("game_id")["winning_score"]).all()
    casts = sum(seats[f"cast_level_{level}"] for level in range(1, 16))
    assert (seats["spells_duplicated"] <= casts).all() and (seats["spells_negated"] <= casts).all()
    # who first reached 10 companions or treasures: one player in a game ended that way (the
    # cards may still run out later in that last round: then the game ends as cards_out)
    triggers = seats.group_by("game_id").agg(pl.col("triggered_end").sum()).join(games, on="game_id")
    assert (triggers["triggered_end"] <= 1).all()
    assert (triggers.filter(pl.col("end_trigger") != "cards_out")["triggered_end"] == 1).all()
    assert set(games["end_trigger"].unique()) <= {"companions", "treasures", "cards_out"}
    assert (games["turns"] <= games["rounds"] * n_players).all()
    assert games["first_seat"].is_between(0, n_players - 1).all()
    assert games["first_seat"].n_unique() == n_players  # turn order comes from the choices
    # Every strategy sits in every seat (the seat design), and no game needs the round limit.
    assert seats.group_by("seat", "strategy").len().height == n_players * len(players.NAMES)
    assert not games["truncated"].any()
