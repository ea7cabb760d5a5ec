"""Scripted players decide only on what a player at the table can see: rivals' treasures are
face down, so which kinds they hold must never change a decision."""

import numpy as np
import pytest

from simulator.core.config import make_config
from simulator.core.rng import seed_stream
from simulator.core.trace import no_log
from simulator.games.gremios import board
from simulator.games.gremios.turn import collection_phase, legal_actions, new_game, play_turn
from strategies import gremios as players

# the search player has its own hidden-information tests (test_search.py)
HEURISTICS = [n for n in players.NAMES if n not in ("random", "lookahead")]


def _with_rival_treasures(table, p, kind):
    """A copy where every rival holds the same number of treasure cards, all of ``kind``."""
    copy = table.copy().view(np.recarray)
    s = copy[0]
    for q in range(s.n_players):
        if q != p:
            held = int(s.treasures[q].sum())
            s.treasures[q, :] = 0
            s.treasures[q, kind] = held
    return copy


@pytest.mark.parametrize("strategy", HEURISTICS)
def test_decisions_ignore_rivals_hidden_treasures(strategy):
    config = make_config("gremios", 4, strategies=[strategy], seed=3)
    r = config.rules.as_record()[0]
    setup = config.setup
    plans = (np.repeat(setup.mix_ids, board.MAX_PLAYERS), np.repeat(setup.mix_weights, board.MAX_PLAYERS, 0))
    checked = 0
    for game in range(30):
        rng = seed_stream(3, game)
        table = new_game(r, 4, setup.mode, setup.fixed_roles, plans, rng, no_log()).view(np.recarray)
        s = table[0]
        while not s.over and s.turn < r.max_turns:
            play_turn(s, r, plans, rng, no_log())
            if s.over:
                break
            p = (s.player + 1) % 4
            rivals_hold = sum(int(s.treasures[q].sum()) for q in range(4) if q != p)
            if rivals_hold == 0:
                continue
            picks = []
            for kind in (board.COMMON_TREASURE, board.RARE_TREASURE, board.WEALTH_LOW):
                view = _with_rival_treasures(table, p, kind)
                v = view[0]
                v.player = p
                collection_phase(v, r, no_log())
                actions = np.zeros((64, 2), dtype=np.int64)
                n = legal_actions(v, r, p, actions)
                pick = players.choose_action(v, r, p, plans, rng.copy(), actions, n)
                event = players.choose_event(v, r, p, plans, rng.copy(), board.TAX_COLLECTION,
                                             board.FOREIGN_INVASION)
                sneaks = players.stowaway_sneaks(v, r, p, plans, rng.copy())
                picks.append((actions[:n].tolist(), pick, event, sneaks))
            assert picks[0] == picks[1] == picks[2]
            checked += 1
    assert checked > 50  # the check ran on many positions with hidden treasures in play


@pytest.mark.parametrize("strategy", HEURISTICS)
@pytest.mark.parametrize("deck, pirate, boards", [
    (4, "rival", True),    # a treasure is likely: worth far more than the coin the Pirate may get
    (4, None, True),
    (1, "rival", False),   # the one card left goes to the first stake: only the rival Pirate gains
    (1, "own", True),      # the Stowaway is also the Pirate (Ultimate Duel): the coin comes back
])
def test_stowaway_takes_the_free_stake_when_it_can_gain(blank, r, strategy, deck, pirate, boards):
    """Roles, Stowaway: they *may* add a free stake as the Expedition is revealed. Heuristic
    players weigh it: a treasure (and the emblem) if the deck reaches their place in line,
    against the coin a rival Pirate collects from a failed ship."""
    s = blank()
    s.roles[2, 0] = board.STOWAWAY
    if pirate == "rival":
        s.roles[1, 0] = board.PIRATE
    elif pirate == "own":
        s.roles[2, 1] = board.PIRATE
    s.expedition[0] = 0
    s.expedition_n = 1
    s.treasure_deck[:deck] = board.COMMON_TREASURE
    s.treasure_deck_n = deck
    ids = np.full(board.MAX_PLAYERS, players.NAMES.index(strategy), dtype=np.int64)
    plans = (ids, players.DEFAULT_WEIGHTS[ids].copy())
    assert players.stowaway_sneaks(s, r, 2, plans, seed_stream(1, 0)) == boards
