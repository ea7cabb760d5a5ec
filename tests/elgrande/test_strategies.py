"""The heuristic players beat random clearly, and each personality plays as it says."""

import numpy as np
import polars as pl
import pytest

from simulator import api
from simulator.games.elgrande import effects as E
from simulator.core.trace import no_log
from simulator.games.elgrande.board import (
    AFRICA, AMERICA, ARAGON, BASE, BLACK, CASTILLO, GOLD, GRAND_INQUISITOR_COLONIES, GRANADA,
    MAX_PLAYERS, N_COLOURS, N_PLACES, N_REGIONS, N_SPAIN, SEVILLA, SHIP, STATE, WARE, in_play,
)
from strategies import elgrande as players
from strategies.elgrande import DEFAULT_WEIGHTS, SPOILER


@pytest.fixture(scope="module")
def against_random(tmp_path_factory):
    path = tmp_path_factory.mktemp("elgrande") / "vs_random"
    return api.load(api.run("elgrande", players=2, games=120, seed=3,
                            strategies=["greedy", "random"], out=path, progress=False)).seats


def test_greedy_beats_random_clearly(against_random):
    share = against_random.group_by("strategy").agg(pl.col("win_share").mean())
    greedy = share.filter(pl.col("strategy") == "greedy")["win_share"].item()
    assert greedy >= 0.9, greedy


def test_greedy_beats_random_clearly_in_the_expansion(tmp_path):
    seats = api.load(api.run("elgrande", players=2, games=60, seed=3,
                             mode="grand_inquisitor_colonies", strategies=["greedy", "random"],
                             out=tmp_path / "vs_random", progress=False)).seats
    share = seats.group_by("strategy").agg(pl.col("win_share").mean())
    greedy = share.filter(pl.col("strategy") == "greedy")["win_share"].item()
    assert greedy >= 0.9, greedy


def test_personalities_show_their_style(small_runs):
    seats = api.load(small_runs[5]).seats
    by = seats.group_by("strategy").agg(
        pl.col("cards_stack_5").mean(), pl.col("cards_stack_1").mean(),
        pl.col("vp_castillo").mean(), pl.col("power_13_round").gt(0).mean().alias("played_13"),
    )
    # the card-trial heuristics' styles (the quick players choose their cards as the expert does)
    row = {n: by.filter(pl.col("strategy") == n) for n in by["strategy"]
           if not n.startswith("quick_")}
    others = [n for n in row if n != "king_shadow"]
    assert all(row["king_shadow"]["cards_stack_5"].item() > row[n]["cards_stack_5"].item()
               for n in others)
    assert all(row["intriguer"]["cards_stack_1"].item() > row[n]["cards_stack_1"].item()
               for n in row if n != "intriguer")
    assert all(row["castillo_schemer"]["vp_castillo"].item() > row[n]["vp_castillo"].item()
               for n in row if n != "castillo_schemer")


# The game's tables, loaded once from the rules (``board.load_tables``), and the table size:
# no copy a player makes ever changes them.
FIXED_FIELDS = ("n_players", "points", "mobile_points", "power_caballeros", "card_count",
                "card_number", "expansion", "n_regions", "table_size", "card_caballeros",
                "card_tokens", "token_points")


# Fields holding a colour or a player: only those values can stand there (a colour beyond the
# black one would score for a player who does not exist).
VALUE_LIMIT = {"francia": N_COLOURS, "captain": N_COLOURS, "viceroy": N_COLOURS,
               "inquisitor": MAX_PLAYERS}


@pytest.mark.parametrize("mode", [BASE, GRAND_INQUISITOR_COLONIES], ids=["base", "expansion"])
@pytest.mark.parametrize("n_players", [3, 5])
def test_a_copy_is_valued_again_wherever_its_standings_may_differ(table, r, n_players, mode):
    """The players value a changed copy of the table by valuing again only the places whose
    standings may differ (``same_standings``) and keeping the rest from the original. Every
    field of the state is changed in turn, element by element: wherever a place's standings
    change, ``same_standings`` must see it, and the copy's value must equal its full value."""
    rng = np.random.default_rng(n_players)
    s = table(n_players, king=ARAGON, mode=mode)
    s.cab[:n_players, :N_PLACES] = rng.integers(0, 4, (n_players, N_PLACES))
    s.grande[:n_players] = rng.choice(N_REGIONS, n_players, replace=False)
    s.mobile[:] = (GRANADA, SEVILLA)
    s.score[:n_players] = rng.integers(0, 60, n_players)
    plans = (np.full(MAX_PLAYERS, SPOILER), np.tile(DEFAULT_WEIGHTS[SPOILER], (MAX_PLAYERS, 1)))
    w, judge = players.judge_places(s, r, 0, plans)
    coef = judge[0]["coef"]  # judge_places is compiled: a plain record array
    before = [E.standing_points(s, r, g, False) for g in range(N_PLACES)]
    copy = np.zeros(1, dtype=STATE)  # a copy's table, as the players make them
    x_table = copy.view(np.recarray)  # the same memory, its fields read as attributes
    changes = 0
    for field in STATE.names:
        if field in FIXED_FIELDS:
            continue
        for i in range(int(np.prod(STATE[field].shape or (1,)))):
            x_table[0] = s
            x = x_table[0]
            here = getattr(x, field)
            was = int(here.flat[i]) if STATE[field].shape else int(here)
            for v in {was - 1, was + 1, *range(-1, VALUE_LIMIT.get(field, N_PLACES))} - {was}:
                x_table[0] = s
                if STATE[field].shape:
                    getattr(x, field).flat[i] = v
                else:
                    setattr(x, field, v)
                for g in range(N_PLACES):
                    if not in_play(s, g):  # value_of_copy never asks (the base game's Francia)
                        continue
                    if not np.array_equal(E.standing_points(x, r, g, False), before[g]):
                        changes += 1
                        assert not players.same_standings(x, s, g), (field, i, v, g)
                assert players.value_of_copy(copy, s, r, 0, w, judge) == \
                    players.value(x, r, 0, w, coef), (field, i, v)
    assert changes > 100  # the changes did reach the standings


@pytest.mark.parametrize("mode", [BASE, GRAND_INQUISITOR_COLONIES])
def test_the_standings_kept_between_a_cards_moves_are_the_worked_out_ones(table, r, mode):
    """A player keeps each place's standings from one placement or move of a card to the next
    (``new_memo``), and the rules forget the places a placement or move changed (``forget``).
    After every one of 60 random moves and placements (with the expansion: black Caballeros,
    movements off the limit table, spaces and tokens taken), every number the memo gives is the
    one worked out afresh."""
    expansion = mode != BASE
    rng = np.random.default_rng(7)
    s = table(4, king=ARAGON, mode=mode)
    n = s.n_players
    places = [g for g in range(N_PLACES) if in_play(s, g)]
    s.cab[:n, places] = rng.integers(0, 3, (n, len(places)))
    s.grande[:n] = rng.choice(N_SPAIN, n, replace=False)
    if expansion:
        s.cab[BLACK, SEVILLA] = s.cab[BLACK, GRANADA] = 1
        s.inquisitor = 0
        s.table_region, s.table_size = GRANADA, 6
        s.lying[WARE], s.lying[GOLD] = 2, 1
        s.acting = 0  # player 0's turn: its tokens are taken
        room = s.table_size  # the table's spaces taken first, as the rules fill them
        for c in range(N_COLOURS):
            s.on_table[c] = min(s.cab[c, GRANADA], room)
            room -= s.on_table[c]
    s.court[:n] = 10
    w = DEFAULT_WEIGHTS[SPOILER]
    pts = np.empty(MAX_PLAYERS, dtype=np.int64)
    memo = players.new_memo()
    colours = list(range(n)) + ([BLACK] if expansion else [])
    table_moves = 0
    for step in range(60):
        coef = players.coefficients(s, 0, w)
        for q in colours:
            for g in places:
                for change in (-1, 0, 1):
                    if change == -1 and s.cab[q, g] == 0:
                        continue
                    fresh = players.place_term(s, r, g, coef, pts) if change == 0 else \
                        players.term_with(s, r, q, g, change, coef, pts)
                    assert players.remembered(memo[0], s, r, q, g, change, coef, pts) == fresh, \
                        (step, q, g, change)
        t = s.table_region
        off = [c for c in colours if expansion and s.on_table[c] > 0]
        if step % 4 == 3:  # a placement from the court
            g = int(rng.choice([g for g in places if g not in (AFRICA, AMERICA)]))
            E.place(s, 0, g, no_log())
            players.forget(memo, g, g)
        elif step % 4 == 1 and off:  # one taken off the limit table, staying in its region
            E.move_on_table(s, int(rng.choice(off)), False, 0, no_log())
            players.forget(memo, t, t)
            table_moves += 1
        else:  # a move, the colonies' tokens taken after it
            q = int(rng.choice(colours))
            a = int(rng.choice([g for g in places if s.cab[q, g] > 0]))
            b = int(rng.choice([g for g in places if g != a and g != CASTILLO]
                               + ([SHIP, AFRICA, AMERICA] if expansion else [])))
            E.move(s, q, a, b, 0, no_log())
            if expansion:
                E.take_tokens(s, 0, no_log())
            players.forget(memo, a, b)
    if expansion:  # the moves reached the colonies (tokens taken) and the limit table
        assert s.lying.sum() < 3 and table_moves > 0


def test_expansion_personalities_show_their_style(expansion_run):
    """The colonial merchant brings home the most Gold and Wares; the inquisitor takes the Holy
    Inquisition (stack 6) most often."""
    seats = api.load(expansion_run).seats
    by = seats.group_by("strategy").agg(pl.col("vp_gold_and_wares").mean(),
                                        pl.col("cards_stack_6").mean())
    row = {n: by.filter(pl.col("strategy") == n) for n in by["strategy"]}
    assert all(row["colonial_merchant"]["vp_gold_and_wares"].item()
               > row[n]["vp_gold_and_wares"].item() for n in row if n != "colonial_merchant")
    assert all(row["inquisitor"]["cards_stack_6"].item() > row[n]["cards_stack_6"].item()
               for n in row if n != "inquisitor")
