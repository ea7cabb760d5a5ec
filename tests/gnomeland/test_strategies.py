"""The scripted players: legal, blind to the decks' order, and the heuristics beat random."""

import numpy as np
import polars as pl
import pytest

from simulator import api
from simulator.core.config import make_config
from simulator.core.rng import seed_stream, shuffle
from simulator.core.trace import no_log
from simulator.games.gnomeland import board
from simulator.games.gnomeland.search import redeal_hidden
from simulator.games.gnomeland.story import OPT_END
from simulator.games.gnomeland.turn import (
    MAX_OPTIONS, apply_option, begin_round, end_of_round, end_of_turn, list_options, new_game,
    start_turn,
)
from strategies import gnomeland as players

HEURISTICS = [n for n in players.NAMES if n not in ("random", "lookahead")]


def test_weights_are_named_for_every_strategy():
    assert players.DEFAULT_WEIGHTS.shape == (len(players.NAMES), len(players.WEIGHT_NAMES))
    assert len(players.DESCRIPTIONS) == len(players.NAMES)
    assert players.WEIGHT_NAMES[-4:] == ("rollouts", "rollout_turns", "rollout_policy",
                                         "search_confidence")


@pytest.mark.parametrize("strategy", HEURISTICS)
def test_heuristics_beat_random(tmp_path, strategy):
    """Against a random player, seats rotated, at two players: a clear majority of wins."""
    path = api.run("gnomeland", players=2, games=200, seed=11, strategies=[strategy, "random"],
                   out=tmp_path / "r", progress=False)
    shares = api.load(path).seats.group_by("strategy").agg(pl.col("win_share").mean())
    share = dict(zip(shares["strategy"], shares["win_share"]))
    assert share[strategy] > 0.6, share


@pytest.mark.slow
def test_heuristics_beat_random_at_four_players(tmp_path):
    path = api.run("gnomeland", players=4, games=4000, seed=12,
                   strategies=["balanced", "random", "random", "random"], out=tmp_path / "r",
                   progress=False)
    shares = api.load(path).seats.group_by("strategy").agg(pl.col("win_share").sum() / 4000)
    share = dict(zip(shares["strategy"], shares["win_share"]))
    assert share["balanced"] > 0.5, share


# --- blind to hidden order -----------------------------------------------------------------------

COPY_BUNDLES = ((1, 0, 0), (0, 1, 0), (0, 0, 1), (2, 0, 1))


def decisions(s, r, plans, key):
    """Every kind of decision on this table: the active player's next action and the worth it
    gives every option, Favour of the Gods' re-rolls, what it keeps in its Warehouses; each other
    player's copy of a few bundles; every player's Mercenaries (held and hired) in a Brawl and a
    Magic Challenge with nobody counted yet and with the others counted."""
    p, n = s.current, s.n_players
    opts = np.zeros((MAX_OPTIONS, 4), dtype=np.int64)
    values = np.zeros(MAX_OPTIONS, dtype=np.float64)
    count = list_options(s, r, p, opts)
    picks = [players.choose_option(s, r, p, plans, seed_stream(9, key), opts, count, values),
             tuple(values[:count]),
             players.choose_rerolls(s, r, p, plans, seed_stream(10, key)),
             players.choose_keep(s, r, p, plans, seed_stream(11, key), board.keep_limit(s, r, p))]
    for q in range(n):
        if q != p:
            picks += [players.choose_copy(s, r, q, p, plans, seed_stream(12, key), got)
                      for got in COPY_BUNDLES]
    totals = np.array([4, 2, 5, 3], dtype=np.int64)
    for q in range(n):
        for k in (board.WEAPON, board.MANA):
            for counted in (np.zeros(4, dtype=np.int64), (np.arange(4) != q).astype(np.int64)):
                picks.append(players.contest_mercs(s, r, q, plans, seed_stream(13, key), k, 2,
                                                   counted, totals, 3, 2, 2))
    return tuple(picks)


def test_the_search_players_redeal_ignores_the_order_of_the_decks():
    """The search player (lookahead) decides by its rollout policy (the heuristics above) and
    by rollouts that each start by re-dealing the decks (search.py redeal_hidden): the same
    re-deal whatever order the decks were in, so its rollouts, and its choice, cannot tell."""
    config = make_config("gnomeland", 3, "standard", ["balanced"], seed=3)
    r = config.rules.as_record()[0]
    plans = (np.repeat(config.setup.mix_ids, board.MAX_PLAYERS),
             np.repeat(config.setup.mix_weights, board.MAX_PLAYERS, 0))
    table = new_game(r, 3, plans, seed_stream(3, 0), no_log()).view(np.recarray)
    for key in range(5):
        dealt = []
        assert len({view.tobytes() for view in permuted(table, key)}) > 1  # orders that differ
        for view in permuted(table, key):
            redeal_hidden(view[0], seed_stream(77, key))
            dealt.append(view.tobytes())
        assert dealt[0] == dealt[1] == dealt[2]


def permuted(table, key):
    """Copies of the table whose hidden decks (Mission, Action, Spell: face down) are shuffled;
    everything face up unchanged. (The Mercenary decks lie face up, one kind each; a player's
    building cards are all theirs to choose from: neither has a hidden order.)"""
    views = []
    for i in range(3):
        view = table.copy().view(np.recarray)
        x = view[0]
        stream = seed_stream(50 + i, key)
        shuffle(stream, x.mission_deck, x.mission_deck_n)
        shuffle(stream, x.action_deck, x.action_deck_n)
        shuffle(stream, x.spell_deck, x.spell_deck_n)
        views.append(view)
    return views


@pytest.mark.parametrize("strategy", [n for n in players.NAMES if n != "lookahead"])
def test_decisions_ignore_the_order_of_the_decks(strategy):
    """Nothing is hidden in Gnomeland but the order of the face-down decks (rules.toml notes:
    hidden_information): every decision, at every step of every turn, is the same whatever
    that order. (The search player: the next test.)"""
    config = make_config("gnomeland", 3, "standard", [strategy], seed=3)
    r = config.rules.as_record()[0]
    plans = (np.repeat(config.setup.mix_ids, board.MAX_PLAYERS),
             np.repeat(config.setup.mix_weights, board.MAX_PLAYERS, 0))
    checked, reordered = 0, 0
    opts = np.zeros((MAX_OPTIONS, 4), dtype=np.int64)
    values = np.zeros(MAX_OPTIONS, dtype=np.float64)
    for game in range(2):
        rng = seed_stream(3, game)
        table = new_game(r, 3, plans, rng, no_log()).view(np.recarray)
        s = table[0]
        while not s.over:
            begin_round(s, r, rng, no_log())
            for i in range(3):
                s.turn_in_round = i
                p = (s.first_player + i) % 3
                start_turn(s, r, rng, no_log(), p)
                while s.steps < r.max_steps_per_turn:
                    s.steps += 1
                    key = 1000 * game + s.turns * 50 + s.steps
                    views = permuted(table, key)
                    picks = [decisions(v[0], r, plans, key) for v in views]
                    assert picks[0] == picks[1] == picks[2], (s.round_no, p, s.steps)
                    checked += 1
                    reordered += any((v[0].mission_deck != s.mission_deck).any() or
                                     (v[0].action_deck != s.action_deck).any() or
                                     (v[0].spell_deck != s.spell_deck).any() for v in views)
                    n = list_options(s, r, p, opts)
                    c = players.choose_option(s, r, p, plans, rng, opts, n, values)
                    if opts[c, 0] == OPT_END:
                        break
                    apply_option(s, r, plans, rng, no_log(), p, opts[c, 0], opts[c, 1], opts[c, 2])
                end_of_turn(s, r, plans, rng, no_log(), p)
            end_of_round(s, r, plans, rng, no_log())
            s.over = int(s.round_no >= r.rounds)
    assert checked > 60 and reordered > 40
