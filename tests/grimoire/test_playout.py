"""Seeded invariant playouts: every player count and strategy, checked after every round; the
dataset a run writes, and how a game unfolds (its leaders) against a replay."""

import numpy as np
import polars as pl
import pytest

from simulator import api
from simulator.core import batch
from simulator.core.config import make_config
from simulator.core.rng import seed_stream
from simulator.core.search import SEARCHING
from simulator.core.trace import no_log
from simulator.games.grimoire import board
from simulator.games.grimoire.turn import new_game, play_round
from strategies import grimoire as players
from tests.contract import assert_rows_keep_the_contract
from tests.game_fixtures import unfolding_of
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
    if setup.seats_searching_plans:
        plans = plans + (SEARCHING,)
    for game in range(GAMES_PER_CASE if not setup.seats_searching_plans else 3):
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
    assert_rows_keep_the_contract("grimoire", seats, games, n_players, 600)  # a search player
    assert seats["role"].null_count() == seats.height and seats.schema["role"] == pl.String
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


def standings_from_replay(events, r, n_players):
    """Each seat's total VP after every quest turn, rebuilt from a replay's events alone (the
    replay names face-down cards too): the cards taken, drawn and moved, the items kept and the
    VP tokens gained and moved, scored by the final scoring. Also the decisions the events show
    for sure: every secret spell chosen with the marker above 1, every card taken from a zone of
    two cards or more."""
    table = board.new_table()
    s = table[0]
    s.n_players = n_players
    quest = {name: k for k, name in enumerate(board.QUEST_NAMES)}
    items = {name: k for k, name in enumerate(board.ITEM_NAMES)}
    standings, turn_open, level, zone, decisions = [], False, 0, 0, 0
    for e in events:
        kind = e["kind"]
        if kind in ("quest_turn", "zone_discard", "round", "game_end") and turn_open:
            standings.append([int(board.score(s, r, p)) for p in range(n_players)])
            turn_open = False
        if kind == "quest_turn":
            turn_open = True
        elif kind == "round":
            level, zone = e["level"], 0
        elif kind == "zone_card":
            zone += 1
        elif kind == "spell_chosen":
            decisions += level > 1
        elif kind == "take":
            decisions += zone >= 2
            zone -= 1
            s.quest[e["player"], quest[e["card"]]] += 1
        elif kind == "draw":
            s.quest[e["player"], quest[e["card"]]] += 1
        elif kind == "companion_moved":
            s.quest[e["from"], quest[e["card"]]] -= 1
            s.quest[e["to"], quest[e["card"]]] += 1
        elif kind == "item":
            s.items[e["player"], items[e["item"]]] += 1
        elif kind == "shoes":  # the Blessed Shoes just drawn are used, not kept
            s.items[e["player"], board.BLESSED_SHOES] -= 1
        elif kind in ("thief", "vp_gain"):
            s.tokens[e["player"]] += e["vp"]
        elif kind == "tokens_moved":
            s.tokens[e["from"]] -= e["vp"]
            s.tokens[e["to"]] += e["vp"]
        elif kind == "game_end":
            assert standings[-1] == e["scores"]  # the rebuilt totals are the final scores
    return standings, decisions


@pytest.mark.parametrize("n_players, index", [(2, 3), (4, 5), (5, 1)])
def test_the_unfolding_is_the_replays_lead_turn_by_turn(n_players, index):
    config = make_config("grimoire", n_players, seed=21)
    r = config.rules.as_record()[0]
    _, games = batch.play_in_memory(config, index + 1, with_games=True)
    game = games.row(index, named=True)
    events = api.replay("grimoire", seed=21, game_index=index, players=n_players)
    standings, decisions = standings_from_replay(events, r, n_players)
    assert len(standings) == game["turns"]  # one standing per quest turn
    changes, third, two_thirds = unfolding_of(standings)
    assert (game["lead_changes"], game["leader_at_third"], game["leader_at_two_thirds"]) == \
        (changes, third, two_thirds)
    assert game["decisions"] >= decisions > 0
