"""The end of the game, read literally: "The game ends when a player obtains 10 victory points.
At that moment, that player rises as the most influential person in Elenport" (Victory Points).

By default (``end_rule = at_once``) the game stops right after the step that brings a player to
the target and that player wins; ``end_rule = finish_action`` resolves the whole action first, as
rules version 1 did. Every table here is built by hand.
"""

import numpy as np
import polars as pl
import pytest

from simulator import api
from simulator.core.ranking import rank_players
from simulator.games.gremios import story as L
from simulator.games.gremios.board import (
    AT_ONCE, COMMON_TREASURE, EXPEDITION, FARM, MAX_PLAYERS, PORT, RARE_TREASURE, WEALTH_HIGH,
    WEALTH_LOW, guild_of_roll, treasure_count, victory_points,
)
from simulator.games.gremios.story import INVEST_EXPEDITION
from simulator.games.gremios.turn import check_end, play_turn, take_action

from .test_scenarios import discard_pile, logged, set_event_deck, set_treasure_deck

GOLD, SILVER, BRONZE, FOURTH = 0, 1, 2, 3


def winners(s, r):
    """The players ranked first, as the batch kernel ranks a finished game (by score)."""
    score = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for p in range(s.n_players):
        score[p] = victory_points(s, r, p)
    rank = np.zeros(MAX_PLAYERS, dtype=np.int64)
    rank_players(score, np.zeros(MAX_PLAYERS, dtype=np.int64), s.n_players, rank)
    return [p for p in range(s.n_players) if rank[p] == 1]


def _expedition_event_table(blank, r, place_coins):
    """Gold's turn; an Expedition event is on top of the deck with three stakes on the ship:
    silver (9 points), bronze (9 points), gold. The roll of 8 will succeed and pays gold's two
    coins in the guild of 8. The treasures come in stake order: common, rare, common."""
    s = blank()
    s.turn = 0  # gold's turn
    place_coins(s, [(SILVER, FARM)])
    place_coins(s, [(BRONZE, PORT)])
    s.inns[SILVER] = 4
    s.inns[BRONZE] = 4
    place_coins(s, [(GOLD, guild_of_roll(r, 8))] * 2)
    s.expedition[:3] = [SILVER, BRONZE, GOLD]
    s.expedition_n = 3
    set_treasure_deck(s, [COMMON_TREASURE, RARE_TREASURE, COMMON_TREASURE])
    set_event_deck(s, [EXPEDITION])
    return s


def test_default_end_rule_is_at_once(r):
    assert r.end_rule == AT_ONCE


def test_at_once_the_expeditions_first_treasure_ends_the_game(blank, r, plans, rolling, log,
                                                              place_coins):
    """At once: silver's treasure (the first) brings them to 10. The game ends there: bronze and
    gold, later on the ship, take nothing, and the roll that sailed the ship pays no guild
    income (nor is the turn's collection played)."""
    s = _expedition_event_table(blank, r, place_coins)
    assert victory_points(s, r, SILVER) == 9 and victory_points(s, r, BRONZE) == 9
    play_turn(s, r, plans, rolling(8), log)
    assert s.over == 1
    assert [treasure_count(s, p) for p in range(4)] == [0, 1, 0, 0]
    assert s.treasure_deck_n == 2
    assert victory_points(s, r, SILVER) == 10 and victory_points(s, r, BRONZE) == 9
    assert s.coins[GOLD] == 0  # neither the guild of 8 nor the collection paid
    assert winners(s, r) == [SILVER]
    assert logged(log, L.TARGET_REACHED) == [(SILVER, 10, 10, AT_ONCE, 0, 0)]
    assert EXPEDITION in discard_pile(s) and s.pending == -1 and s.expedition_n == 0


def test_finish_action_hands_out_every_treasure_and_pays_the_roll(blank, rules_with, plans, rolling,
                                                                  log, place_coins):
    """With end_rule = finish_action (rules version 1) the whole expedition is resolved and the
    roll still pays the guild of 8: bronze's rare treasure lifts them to 11, past silver's 10, and
    bronze wins."""
    r = rules_with(end_rule="finish_action")
    s = _expedition_event_table(blank, r, place_coins)
    play_turn(s, r, plans, rolling(8), log)
    assert s.over == 1
    assert [treasure_count(s, p) for p in range(4)] == [1, 1, 1, 0]
    assert victory_points(s, r, SILVER) == 10 and victory_points(s, r, BRONZE) == 11
    assert s.coins[GOLD] == 2  # the guild of 8 paid; the collection phase was not played
    assert winners(s, r) == [BRONZE]


def _emblem_table(blank, start_turn):
    """Silver (9 points: four inns and the Farm) holds two wealth cards; gold holds two common
    treasures and the emblem (2-2: the holder keeps it). Stakes: silver, gold, bronze; gold places
    the fourth, so the ship sails at once. Silver draws a wealth card: three cards pass gold's two,
    and the emblem's point lifts silver to 10."""
    s = blank()
    s.guild_open[FARM] = 1
    s.top_investor[FARM] = SILVER
    s.investments[SILVER, FARM] = 1
    s.top_investor_points[SILVER] = 1
    s.inns[SILVER] = 4
    s.treasures[SILVER, WEALTH_LOW] = 2
    s.treasures[GOLD, COMMON_TREASURE] = 2
    s.emblem = GOLD
    s.expedition[:3] = [SILVER, GOLD, BRONZE]
    s.expedition_n = 3
    set_treasure_deck(s, [COMMON_TREASURE, COMMON_TREASURE, COMMON_TREASURE, WEALTH_HIGH])
    start_turn(s, GOLD, 2)
    return s


def test_at_once_the_emblem_moves_with_the_deciding_treasure(blank, r, rolling, log, start_turn):
    """The emblem changing hands belongs to the step of the treasure that caused it: silver's
    wealth card carries no point, the emblem it brings does, and the game ends with silver the
    winner; gold's two later treasures (which would have taken the emblem back) are not drawn."""
    s = _emblem_table(blank, start_turn)
    assert victory_points(s, r, SILVER) == 9
    take_action(s, r, rolling(7), log, GOLD, INVEST_EXPEDITION, 0)
    check_end(s, r, log)  # as the investment phase does after every action
    assert s.over == 1
    assert s.emblem == SILVER and victory_points(s, r, SILVER) == 10
    assert treasure_count(s, SILVER) == 3 and treasure_count(s, GOLD) == 2
    assert s.treasure_deck_n == 3 and s.expedition_n == 0
    assert winners(s, r) == [SILVER]


def test_finish_action_the_emblem_can_leave_before_the_action_ends(blank, rules_with, rolling, log,
                                                                    start_turn):
    """With finish_action the same expedition goes on: gold's two treasures make four cards, the
    emblem goes back to gold, silver ends the action on 9 and the game goes on."""
    r = rules_with(end_rule="finish_action")
    s = _emblem_table(blank, start_turn)
    take_action(s, r, rolling(7), log, GOLD, INVEST_EXPEDITION, 0)
    check_end(s, r, log)
    assert s.over == 0
    assert s.emblem == GOLD and treasure_count(s, GOLD) == 4
    assert victory_points(s, r, SILVER) == 9
    # The holder after each treasure: silver held it for most of the expedition.
    assert [holder for _, holder, *_ in logged(log, L.EMBLEM)] == [SILVER, SILVER, SILVER, GOLD]


@pytest.mark.parametrize("end_rule", ["at_once", "finish_action"])
def test_the_players_who_reached_the_target_win(tmp_path, end_rule):
    """At once, each step lifts one player only and the game stops at the first to reach the
    target, so every finished game has exactly one player at or above it, who alone wins. With
    finish_action several can be there at the end: the highest score wins, equal scores share."""
    path = api.run("gremios", players=4, games=1500, seed=21, out=tmp_path / "run", progress=False,
                   settings={"end_rule": end_rule})
    data = api.load(path)
    finished = data.seats.join(data.games.select("game_id", "truncated"), on="game_id") \
        .filter(~pl.col("truncated"))
    per_game = finished.group_by("game_id").agg(
        (pl.col("score") >= 10).sum().alias("at_target"), pl.col("winner").sum().alias("winners"),
        pl.col("score").max().alias("best"),
        pl.col("score").filter(pl.col("winner")).min().alias("lowest_winner"))
    assert (per_game["at_target"] >= 1).all()
    assert (per_game["lowest_winner"] == per_game["best"]).all()
    if end_rule == "at_once":
        assert (per_game["at_target"] == 1).all() and (per_game["winners"] == 1).all()
    else:
        assert (per_game["at_target"] > 1).any()
