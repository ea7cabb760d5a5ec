"""Seeded invariant playouts over every player count and strategy, checked after every turn and
scoring; and the dataset a run writes."""

import numpy as np
import polars as pl
import pytest

from simulator import api
from simulator.core.config import make_config
from simulator.core.rng import seed_stream
from simulator.core.trace import entries, new_log, no_log
from simulator.games.elgrande import board, turn
from simulator.games.elgrande import codes as L
from strategies import elgrande as players
from tests.contract import assert_rows_keep_the_contract
from tests.game_fixtures import unfolding_of

PLAYER_COUNTS = (2, 3, 4, 5)
MODES = ("base", "grand_inquisitor_colonies")
GAMES_PER_CASE = 2


def check_invariants(s, r):
    n = s.n_players
    extra = r.expansion_caballeros if s.expansion else 0
    for p in range(n):
        assert board.caballeros_of(s, p) == r.caballeros_per_player + extra
    assert (s.cab[:n] >= 0).all() and (s.court[:n] >= 0).all() and (s.provinces[:n] >= 0).all()
    assert (s.score[:n] == s.vp[:n].sum(axis=1)).all()
    assert (s.power_used[:n].sum(axis=1) <= s.round_no).all()
    assert s.king != board.CASTILLO and (s.grande[:n] != board.CASTILLO).all()
    if s.expansion:
        check_expansion(s, r)
    else:
        assert s.cab[:, board.N_SPAIN:board.CASTILLO].sum() == 0 and s.cab[board.BLACK].sum() == 0


def check_expansion(s, r):
    """The black Caballeros never leave the board; the King stays on the mainland or in
    Francia; Francia's three spaces, the Captain, the Viceroy and the limit table hold
    Caballeros that stand there; every token is in the supply, lying or carried."""
    assert s.cab[board.BLACK].sum() == 2 * r.black_caballeros_per_region
    assert s.king < board.N_SPAIN or s.king == board.FRANCIA
    for c in range(board.N_COLOURS):
        assert (s.francia == c).sum() == s.cab[c, board.FRANCIA]
        seats = np.zeros(board.N_PLACES, dtype=np.int64)
        seats[board.SHIP] = 1 if s.captain == c else 0
        seats[board.AMERICA] = 1 if s.viceroy == c else 0
        assert (s.carry[c].sum(axis=1) + seats <= s.cab[c]).all()
        assert (s.arrived[c] <= s.cab[c]).all()
    assert s.on_table.sum() <= s.table_size
    if s.table_region >= 0:
        assert (s.on_table <= s.cab[:, s.table_region]).all()
        assert s.table_region != board.FRANCIA
    for token, total in ((board.WARE, r.wares), (board.GOLD, r.gold)):
        assert s.supply[token] + s.lying[token] + s.carry[:, :, token].sum() == total


def play_checked(s, r, plans, rng):
    """``turn.play_round`` step by step, with the invariants after each step; nothing in the
    King's region changes during a turn that leaves the King where he was, nor in a scoring."""
    s.round_no += 1
    turn.turn_up_cards(s, no_log())
    before = s.power_used[:s.n_players].copy()
    turn.play_power_cards(s, r, plans, rng, no_log(), 0)
    for p in range(s.n_players):
        v = s.power_played[p]
        assert before[p, v] == 0  # each power card once (until taken back)
        assert s.power_used[p, v] == 1
    turn.set_turn_order(s, no_log())
    assert sorted(s.order[:s.n_players]) == list(range(s.n_players))
    for i in range(s.n_players):
        king, inside, mobile = s.king, s.cab[:, s.king].copy(), s.mobile.copy()
        turn.play_turn(s, r, plans, rng, no_log(), s.order[i])
        if s.expansion:
            turn.copycat(s, r, plans, rng, no_log(), s.order[i])
        if s.king == king:  # closed: no Caballero (black ones too) nor scoreboard enters or leaves
            assert (s.cab[:, king] == inside).all()
            for m in range(2):
                assert (s.mobile[m] == mobile[m]) or king not in (s.mobile[m], mobile[m])
        check_invariants(s, r)
    turn.end_of_round(s, r, no_log())
    if board.general_scoring_after(r, s.round_no):
        king, inside = s.king, s.cab[:, s.king].copy()
        log = new_log(2000)
        turn.general_scoring(s, r, plans, rng, log)
        assert (s.cab[:, king] == inside).all() and (s.cab[:s.n_players, board.CASTILLO] == 0).all()
        # the black ones go with their holder's disc; else, or when it names the King's region
        # (rules.toml, expansion_inquisitor), they stay
        stayed = any(row[0] == L.BLACK_STAY for row in entries(log))
        if s.inquisitor >= 0 and not stayed:
            assert s.cab[board.BLACK, board.CASTILLO] == 0
    check_invariants(s, r)


@pytest.mark.parametrize("n_players", PLAYER_COUNTS)
@pytest.mark.parametrize("strategy", [n for n in players.NAMES if n != "lookahead"])  # test_search.py
@pytest.mark.parametrize("mode", MODES)
def test_invariants_hold_every_turn(mode, n_players, strategy):
    config = make_config("elgrande", n_players, mode, [strategy], seed=123)
    r = config.rules.as_record()[0]
    plans = (np.repeat(config.setup.mix_ids, board.MAX_PLAYERS),
             np.repeat(config.setup.mix_weights, board.MAX_PLAYERS, 0))
    for game in range(GAMES_PER_CASE):
        rng = seed_stream(123, game)
        table = turn.new_game(r, n_players, plans, rng, no_log(), config.setup.mode).view(np.recarray)
        s = table[0]
        check_invariants(s, r)
        while s.round_no < r.rounds:
            play_checked(s, r, plans, rng)
        assert s.turns == r.rounds * n_players and not s.truncated
        assert s.power_used[:n_players].sum() >= r.rounds * n_players - 2  # two take-back cards


@pytest.mark.parametrize("n_players", PLAYER_COUNTS)
def test_dataset_invariants(small_runs, n_players):
    data = api.load(small_runs[n_players])
    seats, games = data.seats, data.games
    assert_rows_keep_the_contract("elgrande", seats, games, n_players, 60)
    assert seats["role"].null_count() == seats.height
    general = seats["vp_scoring_1"] + seats["vp_scoring_2"] + seats["vp_scoring_3"]
    assert (general <= seats["score"]).all()
    bonuses = seats["vp_king_bonus"] + seats["vp_grande_bonus"]
    special = seats["score"] - general  # special scorings, with the bonuses they paid
    assert (special >= seats["vp_special_scorings"]).all()
    assert (special <= seats["vp_special_scorings"] + bonuses).all()
    cards = sum(seats[f"cards_stack_{k}"] for k in range(1, 6))
    assert (cards == 9).all()
    played = sum((seats[f"power_{v}_round"] > 0).cast(pl.Int32) for v in range(1, 14))
    assert (played <= 9).all() and (played >= 9 - 2).all()
    assert (games["rounds"] == 9).all() and not games["truncated"].any()
    assert (games["turns"] == 9 * n_players).all()


def test_expansion_dataset_invariants(expansion_run):
    """The expansion's run: the score is the sum of its sources, the expansion's included; one
    card a round from the seven stacks; the game counts of the Grand Inquisitor and tokens."""
    data = api.load(expansion_run)
    seats, games = data.seats, data.games
    sources = data.manifest["columns"]["point_sources"]
    assert {"vp_francia", "vp_captain", "vp_viceroy", "vp_gold_and_wares"} <= set(sources)
    assert set(sources) <= set(seats.columns)
    assert_rows_keep_the_contract("elgrande", seats, games, 4, 120)
    assert (sum(seats[f"cards_stack_{k}"] for k in range(1, 8)) == 9).all()
    assert (games["turns"] == 9 * 4).all() and not games["truncated"].any()
    assert (games["inquisitor_changes"] >= 0).all() and games["inquisitor_changes"].sum() > 0
    assert (seats.group_by("game_id").agg(pl.col("vp_gold_and_wares").sum())["vp_gold_and_wares"]
            >= 0).all()
    assert seats["vp_captain"].sum() > 0 and seats["vp_francia"].sum() > 0


def test_base_tables_have_no_expansion_columns(small_runs):
    data = api.load(small_runs[3])
    assert "vp_francia" not in data.seats.columns and "cards_stack_6" not in data.seats.columns
    assert "inquisitor_changes" not in data.games.columns


def standings_by_round(events):
    """Each seat's score after each round, rebuilt from a replay's scoring events (each tells the
    scorer's new score; a black Caballero's Gold or Ware scores for the Grand Inquisitor's
    holder), taken as each next round begins and at the game's end."""
    n = next(e["players"] for e in events if e["kind"] == "setup")
    score = [0] * n
    holder = None
    rounds = []
    for e in events:
        kind = e["kind"]
        if kind in ("place_scored", "space_scored", "bonus"):
            score[e["player"]] = e["score"]
        elif kind == "token_home":
            p = holder if e["colour"] == "black" else e["colour"]
            if p is not None:
                score[p] = e["score"]
        elif kind == "inquisitor_taken":
            holder = e["player"]
        elif (kind == "round" and e["round"] > 1) or kind == "game_end":
            rounds.append(list(score))
    assert rounds[-1] == events[-1]["scores"]
    return rounds


@pytest.mark.parametrize("mode", MODES)
def test_the_unfolding_is_the_replays_score_track_round_by_round(small_runs, expansion_run, mode):
    """The dataset's lead changes and leaders after rounds 3 and 6 are those the replay's scoring
    events give round by round; its decisions count at least every logged decision that had
    two options or more (the log tells only some of them)."""
    data = api.load(small_runs[4] if mode == "base" else expansion_run)
    strategies = data.manifest["strategies"]
    changed = 0
    for index in range(6):
        events = api.replay("elgrande", seed=11, game_index=index, players=4,
                            strategies=strategies, mode=mode)
        rounds = standings_by_round(events)
        assert len(rounds) == 9
        row = data.games.filter(pl.col("game_id") == index)
        told = (row["lead_changes"].item(), row["leader_at_third"].item(),
                row["leader_at_two_thirds"].item())
        assert told == unfolding_of(rounds), index
        changed += told[0]
        logged = sum(e["kind"] == "decision" and e["options"] > 1 for e in events)
        assert row["decisions"].item() >= logged > 0
    assert changed > 0
