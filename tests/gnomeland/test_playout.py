"""Seeded invariant playouts: every player count and strategy, checked after every turn and
round; and the dataset a run writes."""

import numpy as np
import polars as pl
import pytest

from simulator import api
from simulator.core.config import make_config
from simulator.core.rng import seed_stream
from simulator.core.trace import no_log
from simulator.games.gnomeland import board, kernel
from simulator.games.gnomeland.turn import end_of_round, new_game, play_turn
from strategies import gnomeland as players
from tests.contract import assert_rows_keep_the_contract
from tests.game_fixtures import unfolding_of

PLAYER_COUNTS = (2, 3, 4)
GAMES_PER_CASE = 4
HEURISTIC_MIX = [n for n in players.NAMES if n != "lookahead"]  # the search player: test_search.py
# the readings rules.toml leaves open that change play (each named choice away from its default,
# and the FAQ's 8 spells), alone and together
VARIANTS = [{}, {"supply_limited": "no"}, {"mission_once_per": "side"},
            {"contest_mercenaries": "spend_held"}, {"covered_warehouse": "resources_discarded"},
            {"spell_curse": 1},
            {"supply_limited": "no", "mission_once_per": "side",
             "contest_mercenaries": "spend_held", "covered_warehouse": "resources_discarded"}]


def check_invariants(s, r):
    n = s.n_players
    assert (s.res[:n] >= 0).all() and (s.copied[:n] >= 0).all() and (s.mercs[:n] >= 0).all()
    assert (s.supply >= 0).all()
    for k in range(3):  # every cube is in the supply, a hand/Warehouse or a copy pile
        if r.supply_limited == board.NO:  # cubes without end: the supply never moves
            assert s.supply[k] == board.supply_start(r, k)
            continue
        total = s.supply[k] + s.res[:n, k].sum() + s.copied[:n, k].sum()
        assert total == board.supply_start(r, k), (k, total)
        assert s.res[:n, k].max() <= board.supply_start(r, k)
    per_deck = board.mercenaries_per_deck(r, n)
    assert ((s.merc_deck + s.mercs[:n].sum(axis=0)) == per_deck).all()
    assert ((s.gnomes_home + s.gnomes_tavern + s.gnomes_out)[:n] == r.gnomes_per_player).all()
    assert (s.gnomes_tavern[:n] <= s.round_no).all()
    assert (s.score[:n] == s.vp_missions[:n] + s.vp_contests[:n]).all()
    if s.current < 0:  # between turns: what is left is what the Warehouses keep
        for p in range(n):
            assert s.res[p].sum() <= board.keep_limit(s, r, p)


@pytest.mark.parametrize("n_players", PLAYER_COUNTS)
@pytest.mark.parametrize("strategy", [n for n in players.NAMES if n != "lookahead"])
def test_invariants_hold_every_turn(n_players, strategy):
    config = make_config("gnomeland", n_players, "standard", [strategy], seed=123)
    plans = (np.repeat(config.setup.mix_ids, board.MAX_PLAYERS),
             np.repeat(config.setup.mix_weights, board.MAX_PLAYERS, 0))
    play_checked(config.rules.as_record()[0], n_players, plans, 123)


@pytest.mark.parametrize("n_players", PLAYER_COUNTS)
@pytest.mark.parametrize("settings", VARIANTS,
                         ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()) or "default")
def test_invariants_hold_under_every_reading(settings, n_players):
    """The same checks under each reading of rules.toml, with the heuristics and random seated
    together (the default mix plus random)."""
    config = make_config("gnomeland", n_players, "standard", HEURISTIC_MIX, seed=7,
                         settings=settings)
    r = config.rules.as_record()[0]
    for k, v in settings.items():  # the setting reached the rule record
        param = config.rules.params[k]
        assert getattr(r, k) == (param.choices.index(v) if param.choices else v)
    ids = np.zeros(board.MAX_PLAYERS, dtype=np.int64)
    weights = np.zeros((board.MAX_PLAYERS, players.N_WEIGHTS))
    for game in range(GAMES_PER_CASE):
        for seat in range(n_players):  # a different mix of strategies at each game
            sid = (game * n_players + seat) % len(HEURISTIC_MIX)
            ids[seat] = players.NAMES.index(HEURISTIC_MIX[sid])
            weights[seat] = players.DEFAULT_WEIGHTS[ids[seat]]
        play_checked(r, n_players, (ids, weights), 7, games=[game])


def play_checked(r, n_players, plans, seed, games=range(GAMES_PER_CASE)):
    for game in games:
        rng = seed_stream(seed, game)
        table = new_game(r, n_players, plans, rng, no_log()).view(np.recarray)
        s = table[0]
        check_invariants(s, r)
        rounds = 0
        while not s.over:
            s.round_no += 1
            rounds += 1
            for p in range(n_players):
                for i in range(r.dice_per_player):
                    s.own_dice[p, i] = 1 + (game + p + i + rounds) % 6
            for i in range(n_players):
                play_turn(s, r, plans, rng, no_log(), (s.first_player + i) % n_players)
                check_invariants(s, r)
                assert s.dice_spent[:s.n_dice].all(), "every die is spent"
            end_of_round(s, r, plans, rng, no_log())
            check_invariants(s, r)
            if s.round_no >= r.rounds:
                s.over = 1
        assert rounds == 5 and not s.truncated
        assert s.turns == 5 * n_players


@pytest.mark.parametrize("n_players", PLAYER_COUNTS)
def test_dataset_invariants(tmp_path, n_players):
    path = api.run("gnomeland", players=n_players, games=300, seed=5,
                   strategies=HEURISTIC_MIX, out=tmp_path / "run", progress=False)
    data = api.load(path)
    seats, games = data.seats, data.games
    assert_rows_keep_the_contract("gnomeland", seats, games, n_players, 300)  # a mixed table
    assert seats["role"].null_count() == seats.height
    assert (seats["building_points"] == seats["vp_normal_buildings"] + seats["vp_special_buildings"]).all()
    assert (games["rounds"] == 5).all() and not games["truncated"].any()
    assert (games["turns"] == 5 * n_players).all()
    assert (seats["dice_spent"] >= 5 * 3).all()
    assert (seats["gnomes_spent"] - seats["gnomes_recalled"] + seats["gnomes_lost"]
            + seats["gnomes_left"] == 5).all()
    assert seats.group_by("seat", "strategy").len().height == n_players * len(HEURISTIC_MIX)
    assert (seats.group_by("game_id").agg(pl.col("first_player").sum())["first_player"] == 1).all()
    # the per-card columns: mission points by card sum to the mission points; a building card
    # counts 1 once built and 2 once upgraded, as the built and upgraded totals say
    assert (sum(seats[c] for c in kernel.MISSION_COLUMNS) == seats["vp_missions"]).all()
    levels = seats.select(kernel.CARD_COLUMNS).to_numpy()
    assert ((levels >= 0) & (levels <= 2)).all()
    normal, special = kernel.CARD_COLUMNS[:board.N_CARDS], kernel.CARD_COLUMNS[board.N_CARDS:]
    for cards, kind in ((normal, "normal"), (special, "special")):
        built = sum((seats[c] >= 1).cast(pl.Int64) for c in cards)
        upgraded = sum((seats[c] == 2).cast(pl.Int64) for c in cards)
        assert (built <= seats[f"built_{kind}"]).all()   # a card can be covered and built again
        assert ((built > 0) == (seats[f"built_{kind}"] > 0)).all()
        assert (upgraded <= seats[f"upgraded_{kind}"]).all()
        assert ((upgraded > 0) == (seats[f"upgraded_{kind}"] > 0)).all()
    gained = sum(seats[c] for c in kernel.GAINED_COLUMNS)
    assert (gained == seats["gained_coin"] + seats["gained_mana"] + seats["gained_weapons"]).all()


def test_the_unfolding_is_what_the_replay_tells():
    """Rebuilt from a replay's events, each seat's standing after every turn (the Score track's
    totals, plus the points of the building cards built and upgraded; a round's last turn noted
    after the end of the round) gives the dataset's lead changes and leaders at one and two
    thirds; the decisions are at least the choices the replay tells (action lists of two or more
    options, offers to copy to a player with a gnome)."""
    from simulator.core import batch
    n = 4
    config = make_config("gnomeland", n, seed=3)
    r = config.rules.as_record()[0]
    _, games = batch.play_in_memory(config, 4, with_games=True)
    games = games.sort("game_id")
    changed = 0
    for index in range(4):
        events = api.replay("gnomeland", seed=3, game_index=index, players=n)
        track = [0] * n
        side = {}  # (player, kind, slot) -> "base" / "advanced": the building cards standing
        standings, open_turn = [], False

        def note():
            standing = list(track)
            for (p, kind, _), level in side.items():
                if kind == "normal":
                    standing[p] += r.vp_advanced_normal if level == "advanced" else 0
                else:
                    standing[p] += r.vp_advanced_special if level == "advanced" else \
                        r.vp_base_special
            standings.append(standing)
            return standing

        for e in events:
            if e["kind"] in ("turn", "round", "game_end") and open_turn:
                standing = note()
                open_turn = False
            if e["kind"] == "turn":
                open_turn = True
            elif e["kind"] == "score":
                track[e["player"]] = e["total"]
            elif e["kind"] == "build":
                side[e["player"], e["building_kind"], e["slot"]] = "base"
            elif e["kind"] == "upgrade":
                side[e["player"], e["building_kind"], e["slot"]] = "advanced"
        assert standing == events[-1]["scores"]  # the last turn noted: the final scores
        assert len(standings) == 5 * n
        changes, third, two_thirds = unfolding_of(standings)
        row = games.row(index, named=True)
        assert (row["lead_changes"], row["leader_at_third"], row["leader_at_two_thirds"]) == \
            (changes, third, two_thirds)
        told = sum(1 for e in events if e["kind"] == "options" and e["options"] >= 2) + \
            sum(1 for e in events if e["kind"] == "copy" or
                (e["kind"] == "copy_declined" and not e["no_gnome"]))
        assert row["decisions"] >= told > 0
        changed += changes
    assert changed > 0  # the games checked have a lead that changes
