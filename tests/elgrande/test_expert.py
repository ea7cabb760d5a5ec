"""The learnt expert: it sees only what a player sees (never the stacks' order), plays the
weights it ships with, and takes the option its weights value most."""

import numpy as np
import pytest

from simulator.core.rng import seed_stream
from simulator.core.trace import new_log, no_log
from simulator.games.elgrande import board, codes
from simulator.games.elgrande.effects import copy_of
from simulator.games.elgrande.search import redeal_hidden
from simulator.games.elgrande.turn import (
    card_choice, choose_card, new_game, play_on, turn_up_cards,
)
from strategies import elgrande as players
from tests.experts import assert_plays_the_weights_it_ships_with
from tests.elgrande.conftest import make_plans


def positions(r, count=8):
    """Tables at the start of a round's power cards, after some rounds of greedy play, the
    round's cards face up (two to five players, the base game and the expansion)."""
    plans = make_plans(players.GREEDY)
    out = []
    for i in range(count):
        n = 2 + i % 4
        mode = i % 2
        table = new_game(r, n, plans, seed_stream(40 + i, 0), new_log(100), mode).view(np.recarray)
        s = table[0]
        play_on(s, r, plans, seed_stream(60 + i, 0), no_log(), 1 + i % 5)
        s.round_no += 1
        turn_up_cards(s, no_log())
        out.append(table)
    return out


def decisions(s, p):
    """The decisions the expert values at ``s``: (code, options, n)."""
    power = np.zeros((board.N_POWER, 1), dtype=np.int64)
    k = 0
    for v in range(1, board.N_POWER + 1):
        if s.power_used[p, v] == 0:
            power[k, 0] = v
            k += 1
    cards = np.zeros((board.N_STACKS, 2), dtype=np.int64)
    n = 0
    for stack in range(board.N_STACKS):
        if s.face[stack] >= 0:
            cards[n, 0] = stack
            n += 1
    return [(codes.DECIDE_POWER, power, k), (codes.DECIDE_CARD, cards, n)]


def expert_plans():
    ids = np.full(board.MAX_PLAYERS, players.EXPERT)
    return ids, players.DEFAULT_WEIGHTS[ids].copy()


def trials_of(s, r, p, rng):
    """The expert's trials of the face-up cards (``turn.card_choice``)."""
    trials = np.zeros((board.N_STACKS, 2))
    card_choice(s, r, p, expert_plans(), rng, -1, trials)
    return trials


def features(code, s, r, p, options, n, rng):
    trials = trials_of(s, r, p, rng) if code == codes.DECIDE_CARD else players.NO_TRIALS
    return players.option_features(code, s, r, p, options, n, trials)


def test_the_features_do_not_change_when_the_stacks_are_redealt(r):
    """Neither the open board's features nor the cards' trials (on the same random stream)."""
    moved = 0
    for i, table in enumerate(positions(r)):
        s = table[0]
        for p in range(s.n_players):
            seen = [features(code, s, r, p, options, n, seed_stream(200 + i, p))
                    for code, options, n in decisions(s, p)]
            x = copy_of(s).view(np.recarray)
            redeal_hidden(x[0], seed_stream(300 + i, p))
            moved += x[0].deck.tobytes() != s.deck.tobytes()
            again = [features(code, x[0], r, p, options, n, seed_stream(200 + i, p))
                     for code, options, n in decisions(x[0], p)]
            for a, b in zip(seen, again):
                assert np.array_equal(a, b)
    assert moved >= 10  # the re-deals really changed the hidden order


def test_a_rival_yet_to_play_beats_a_power_card_by_the_share_of_its_cards_above_it(r):
    """``power_beaten_later``: for each rival yet to lay its card, the share of the cards it has
    left (and may lay: no value laid this round) above the card, averaged over the rivals."""
    checked = 0
    for table in positions(r):
        s = table[0]
        (power, options, k), _ = decisions(s, 0)
        f = players.option_features(power, s, r, 0, options, k, players.NO_TRIALS)
        rivals = s.n_players - 1
        for o in range(k):
            v = options[o, 0]
            share = 0.0
            for q in range(1, s.n_players):
                left = [u for u in range(1, board.N_POWER + 1) if s.power_used[q, u] == 0]
                share += sum(u > v for u in left) / len(left) / rivals
            assert f[o, players.F_POWER_BEATEN_LATER] == pytest.approx(share)
            checked += 0 < share < 1
        # a rival who has laid its card counts in power_beaten instead
        x = copy_of(s).view(np.recarray)
        x[0].power_played[1] = 13
        f = players.option_features(power, x[0], r, 0, options, k, players.NO_TRIALS)
        assert f[:, players.F_POWER_BEATEN].max() == pytest.approx(1 / rivals)
        if rivals == 1:
            assert not f[:, players.F_POWER_BEATEN_LATER].any()
    assert checked > 0


def test_the_expert_takes_the_option_its_weights_value_most(r):
    w = players.DEFAULT_WEIGHTS[players.EXPERT]
    values = w[players.W_FIRST_VALUE:players.W_FIRST_VALUE + players.N_FEATURES]
    plans = expert_plans()
    differs = 0
    for i, table in enumerate(positions(r)):
        s = table[0]
        for p in range(s.n_players):
            (power, options, k), (card, cards, n) = decisions(s, p)
            f = players.option_features(power, s, r, p, options, k, players.NO_TRIALS)
            pick = players.expert_choice(power, s, r, p, plans, options, k)
            assert pick == int(np.argmax(f @ values))
            differs += pick != 0
            trials = trials_of(s, r, p, seed_stream(90 + i, p))
            f = players.option_features(card, s, r, p, cards, n, trials)
            assert f.shape == (n, players.N_FEATURES)
            pick = players.valued_card(s, r, p, plans, trials)[2]
            assert pick == int(np.argmax(f @ values))
            differs += pick != 0
    assert differs > 0


def test_the_expert_plays_the_weights_it_ships_with():
    # the quick players hold the first expert's weights (strategies/experts/elgrande-quick.json)
    assert_plays_the_weights_it_ships_with("elgrande", players, readers=tuple(players.QUICK_OF),
                                           readers_file="elgrande-quick")
    row = players.DEFAULT_WEIGHTS[players.EXPERT]
    # the fallback's style, and search_power 1 (for the search distilled from it)
    fallback = players.DEFAULT_WEIGHTS[players.EXPERT_FALLBACK]
    assert np.array_equal(row[:players.W_SEARCH_POWER], fallback[:players.W_SEARCH_POWER])
    assert row[players.W_SEARCH_POWER] == 1


def test_the_expert_tries_every_card_as_spoiler_does_and_takes_its_best_order(r):
    plans = expert_plans()
    spoiler = make_plans(players.SPOILER)
    orders = set()
    for i, table in enumerate(positions(r)):
        s = table[0]
        for p in range(s.n_players):
            trials = trials_of(s, r, p, seed_stream(90 + i, p))
            # spoiler, on the same stream, takes the card and order its trials value most
            best = card_choice(s, r, p, spoiler, seed_stream(90 + i, p), -1,
                               np.empty((board.N_STACKS, 2)))
            assert trials[best[0], 0] == trials[:, 0].max()
            assert trials[best[0], 1] == best[1]
            stack, n, o, order = players.valued_card(s, r, p, plans, trials)
            assert order == trials[stack, 1]
            assert choose_card(s, r, p, plans, seed_stream(90 + i, p)) == \
                (stack, order, 3 * n, 3 * o + order)
            orders.add(order)
    assert len(orders) > 1  # not always the action first


def quick_plans(quick):
    ids = np.full(board.MAX_PLAYERS, quick)
    return ids, players.DEFAULT_WEIGHTS[ids].copy()


def test_a_quick_player_takes_the_card_its_weights_value_most_and_plays_nothing_out(r):
    """Its card is the argmax of the expert's weights over the cards' features (its liking for
    the stack added to the placement's points); its order is ``quick_order``'s; it draws no
    random number, so it tried nothing out."""
    for quick, heuristic in players.QUICK_OF.items():
        plans = quick_plans(quick)
        w = plans[1][0]
        for i, table in enumerate(positions(r)):
            s = table[0]
            for p in range(s.n_players):
                (_, cards, n) = decisions(s, p)[1]
                f = players.option_features(codes.DECIDE_CARD, s, r, p, cards, n,
                                            np.zeros((board.N_STACKS, 2)))
                liking = [w[players.W_STACK_1 + board.CARD_STACK[s.face[cards[o, 0]]] - 1]
                          for o in range(n)]
                values = [w[players.W_FIRST_VALUE:players.W_ROLLOUTS] @ f[o] +
                          w[players.W_FIRST_VALUE + players.F_PLACE_POINTS] * liking[o]
                          for o in range(n)]
                o = int(np.argmax(values))
                f[o, players.F_PLACE_POINTS] += liking[o]
                order = players.quick_order(s.face[cards[o, 0]], f[o])
                rng = seed_stream(90 + i, p)
                before = rng.copy()
                assert choose_card(s, r, p, plans, rng) == (cards[o, 0], order, 3 * n, 3 * o + order)
                assert (rng == before).all()
        assert (players.DEFAULT_WEIGHTS[quick, :players.W_SEARCH_POWER] ==
                players.DEFAULT_WEIGHTS[heuristic, :players.W_SEARCH_POWER]).all()


def test_a_quick_player_carries_each_card_out_in_its_fixed_order():
    """Spoiler's most common order for the card; the King's, the placement first (see
    ``PLACEMENT_FIRST_CARDS``)."""
    f = np.zeros(players.N_FEATURES)
    for key in ("king", "move_any_3", "score_castillo"):
        assert players.quick_order(board.CARD_KEYS.index(key), f) == codes.PLACEMENT_FIRST
    for key in ("veto", "opponents_disperse", "secret_return_2"):
        assert players.quick_order(board.CARD_KEYS.index(key), f) == codes.ACTION_FIRST


def test_a_quick_player_declines_a_scoring_it_trails_in():
    castillo = board.CARD_KEYS.index("score_castillo")
    f = np.zeros(players.N_FEATURES)
    f[players.F_CASTILLO_LEAD] = -3.0
    assert players.quick_order(castillo, f) == codes.NO_ACTION
    f[players.F_CASTILLO_LEAD] = 3.0
    assert players.quick_order(castillo, f) == codes.PLACEMENT_FIRST
    # spoiler never tries this one without its action: neither does a quick player
    anywhere = board.CARD_KEYS.index("score_any_region")
    f[players.F_SCORING_LEAD] = -3.0
    assert players.quick_order(anywhere, f) == codes.PLACEMENT_FIRST
