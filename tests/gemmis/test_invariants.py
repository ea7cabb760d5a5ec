"""GEMMiS's invariants, checked in the compiled engine: each one caught when a real state is
broken in one place, none in the states as played; and checked runs of every mode, with the
default mix, ``random`` and the search player, giving the rows of unchecked runs."""

import numpy as np
import pytest

from simulator import api
from simulator.core import batch
from simulator.core.config import make_config
from simulator.core.errors import InvariantBroken
from simulator.core.game import get_game
from simulator.core.rng import seed_stream
from simulator.core.trace import broken_in, no_log, tally_log
from simulator.games.gemmis import board, invariants as inv
from simulator.games.gemmis.spec import MODES
from simulator.games.gemmis.turn import finish_game, new_game, play_turn
from strategies.gemmis import QUICK_SCORER
from tests.gemmis.conftest import LETTERS, SMALL_SEARCH, make_plans
from tests.game_fixtures import assert_checked_run_gives_the_unchecked_rows

N_RULES = len(get_game("gemmis").rules_that_come_up)


def broken_by(s, r, finished=False):
    """(invariant, a, b) of the first invariant ``s`` breaks, or None."""
    log = tally_log(N_RULES, check=True)
    inv.check(s, r, log, finished)
    found = broken_in(log)
    return found[1:] if found else None


def played(ruleset, mode, until, finished=False):
    """The first state of seeded quick_scorer games (seeds 0, 1, ...) where ``until(s)`` holds
    after a turn (``finished``: at a game's end, after the final scoring)."""
    r = ruleset.as_record()[0]
    plans = make_plans(QUICK_SCORER)
    for seed in range(50):
        rng = seed_stream(seed, 0)
        table = new_game(r, board.MODE_NAMES.index(mode), plans, rng, no_log()).view(np.recarray)
        s = table[0]
        while not s.over and s.turn < r.max_turns:
            play_turn(s, r, plans, rng, no_log())
            if not finished and until(s):
                return table
        if finished:
            finish_game(s, r, no_log())
            if until(s):
                return table
    raise AssertionError("no seeded game reaches the state asked for")


@pytest.fixture(scope="module")
def states(ruleset):
    """Real states: family mode mid-game (the first small gem just taken, the second still on
    the track, the market open); an advanced game's end; an Alguazil game with an alert raised."""
    return {
        "family": played(ruleset, "family", lambda s: s.small_gems.sum() == 1 and
                         s.small_gems_used.sum() == 0 and s.small_gem_on_cell[1] and
                         s.sack_n > 0 and s.used_n > 0),
        "advanced_end": played(ruleset, "advanced", lambda s: s.penalty.sum() > 0 and
                               s.closer >= 0, finished=True),
        "alguazil": played(ruleset, "family_alguazil", lambda s: s.alert.max() > 0),
    }


def move_to_sack(s, chip):
    s.sack[s.sack_n] = chip
    s.sack_n += 1


def one_colour_run(s, r):
    """Outer cells 0-2 of the zone of the player who just played all red (red gems from the sack
    or the used pile exchanged for them)."""
    p = s.player
    colour = LETTERS["R"]
    for cell in (0, 1, 2):
        if s.chip_colour[s.zone[p, cell]] != colour:
            for pile, n in ((s.sack, s.sack_n), (s.used, s.used_n)):
                k = next((i for i in range(n) if s.chip_colour[pile[i]] == colour), None)
                if k is not None:
                    pile[k], s.zone[p, cell] = s.zone[p, cell], pile[k]
                    break
            assert s.chip_colour[s.zone[p, cell]] == colour


def cascades_past_the_limit(s, r):
    """One more combination triggered in the turn than the cascade_limit allows."""
    s.cascade = r.cascade_limit + 1


def small_gem_put_back(s, r):
    """The small gem taken put back on its cell, its taker's count one fewer."""
    taker = int(np.argmax(s.small_gems))
    s.small_gems[taker] -= 1
    s.small_gem_on_cell[0] = 1


def small_gem_taken_early(s, r):
    """The small gem of cell 50, still on the track, given to a player."""
    s.small_gem_on_cell[1] = 0
    s.small_gems[0] += 1


def street_gem_into_sack(s, r):
    move_to_sack(s, s.street[3])
    s.street[3] = board.EMPTY


def outer_gem_into_sack(s, r):
    move_to_sack(s, s.zone[1, 2])
    s.zone[1, 2] = board.EMPTY


def closing_score_passed(s, r):
    """The rules' closing score lowered to the leader's marker (the state as played)."""
    r.closing_score = s.points.max()


def turn_limit_lowered(s, r):
    """The rules' max_turns lowered below the turns played."""
    r.max_turns = s.turn - 1


def set_(field, index, value):
    """A breaker setting ``s.field[index]`` (``index`` None: the field) to ``value(s, r)``."""
    def breaker(s, r):
        if index is None:
            setattr(s, field, value(s, r))
        else:
            getattr(s, field)[index] = value(s, r)
    return breaker


# invariant: (state, finished, how it is broken, the (a, b) expected: a function of the state
# before the break and the rules, None where any values will do)
BREAKS = {
    inv.CHIPS_IN_GAME: ("family", False, set_("n_chips", None, lambda s, r: s.n_chips - 1),
                        lambda s, r: (s.n_chips - 1, s.n_chips)),
    inv.SACK_COUNT: ("family", False, set_("sack_n", None, lambda s, r: s.n_chips + 1),
                     lambda s, r: (s.n_chips + 1, s.n_chips)),
    inv.USED_COUNT: ("family", False, set_("used_n", None, lambda s, r: -1),
                     lambda s, r: (-1, s.n_chips)),
    inv.ASIDE_LEFT: ("family", False, set_("aside_n", None, lambda s, r: 2), lambda s, r: (2, 0)),
    inv.NOT_A_CHIP: ("family", False, set_("street", 0, lambda s, r: s.n_chips),
                     lambda s, r: (s.n_chips, s.n_chips)),
    inv.CHIP_TWICE: ("family", False, set_("street", 0, lambda s, r: s.zone[0, 0]),
                     lambda s, r: (s.zone[0, 0], 0)),
    inv.CHIPS_LOST: ("family", False, set_("sack_n", None, lambda s, r: s.sack_n - 1),
                     lambda s, r: (s.n_chips - 1, s.n_chips)),
    inv.STREET_GAP: ("family", False, street_gem_into_sack,
                     lambda s, r: (3, s.sack_n + s.used_n + 1)),
    inv.ZONE_NOT_SETTLED: ("family", False, outer_gem_into_sack, lambda s, r: (1, 2)),
    inv.CASCADE_LIMIT: ("family", False, cascades_past_the_limit,
                        lambda s, r: (s.player, r.cascade_limit + 1)),
    inv.COMBINATION_STANDS: ("family", False, one_colour_run, None),
    inv.SMALL_COMBINATION: ("family", False, set_("combinations", (1, 2), lambda s, r: 1),
                            lambda s, r: (1, 2)),
    inv.TABLE_POINTS: ("family", False,
                       set_("combinations", (0, 3), lambda s, r: s.combinations[0, 3] + 1),
                       lambda s, r: (0, s.points_sizes[0])),
    inv.NEGATIVE_VALUES: ("family", False, set_("points_values", 1, lambda s, r: -1),
                          lambda s, r: (1, -1)),
    inv.MARKER: ("family", False, set_("points", 0, lambda s, r: s.points[0] + 1),
                 lambda s, r: (0, s.points[0] + 1)),
    inv.PENALTY: ("advanced_end", True, set_("penalty", 1, lambda s, r: s.penalty[1] + 1),
                  lambda s, r: (1, s.penalty[1] + 1)),
    inv.SMALL_GEM_POINTS: ("family", False, set_("points_small_gems", 0, lambda s, r: 3),
                           lambda s, r: (0, 3)),
    inv.SMALL_GEMS_LOST: ("family", False, set_("small_gems", 1, lambda s, r: s.small_gems[1] + 1),
                          lambda s, r: (4, 3)),
    inv.SMALL_GEMS_OVERSPENT: ("family", False,
                               set_("small_gems_used", 0, lambda s, r: s.small_gems[0] + 1),
                               lambda s, r: (0, s.small_gems[0] + 1)),
    inv.SMALL_GEMS_PER_TURN: ("family", False,
                              set_("small_gems_this_turn", None,
                                   lambda s, r: r.small_gems_per_turn + 1),
                              lambda s, r: (s.player, r.small_gems_per_turn + 1)),
    inv.SMALL_GEM_LEFT_BEHIND: ("family", False, small_gem_put_back,
                                lambda s, r: (r.small_gem_cell_1, s.points.max())),
    inv.SMALL_GEM_TAKEN_EARLY: ("family", False, small_gem_taken_early,
                                lambda s, r: (r.small_gem_cell_2, s.points.max())),
    inv.ALERT: ("alguazil", False, set_("alert", 0, lambda s, r: board.alert_available(r) + 1),
                lambda s, r: (0, board.alert_available(r) + 1)),
    inv.ALGUAZIL_WITHOUT: ("family", False, set_("alguazil_uses", (1, board.CLEAN_STREET),
                                                 lambda s, r: 1), lambda s, r: (1, 1)),
    inv.OPEN_PAST_CLOSING: ("family", False, closing_score_passed,
                            lambda s, r: (np.argmax(s.points), s.points.max())),
    inv.CLOSED_SHORT: ("family", False, set_("market_open", None, lambda s, r: 0),
                       lambda s, r: (-1, 0)),
    inv.TURNS: ("family", False, set_("turn", None, lambda s, r: s.turn + 1),
                lambda s, r: (s.turn, s.turn + 1)),
    inv.TURN_LIMIT: ("family", False, turn_limit_lowered, lambda s, r: (s.turn, s.turn - 1)),
}


def test_every_invariant_has_a_description_and_a_breaking_case():
    assert len(inv.INVARIANTS) == len(set(inv.INVARIANTS)) == len(BREAKS)
    assert sorted(BREAKS) == list(range(len(inv.INVARIANTS)))
    for text in inv.INVARIANTS:
        assert "{a}" in text or "{b}" in text
        text.format(a=1, b=2)


@pytest.mark.parametrize("state", ["family", "advanced_end", "alguazil"])
def test_the_states_as_played_break_none(states, r, state):
    assert broken_by(states[state][0], r, finished=state.endswith("end")) is None


@pytest.mark.parametrize("code", sorted(BREAKS), ids=lambda c: f"{c}")
def test_each_invariant_is_caught_when_broken_in_one_place(states, ruleset, code):
    state, finished, breaker, expected = BREAKS[code]
    table = states[state].copy()
    s = table[0]
    rules = ruleset.as_record().copy()  # a breaker may change the rules instead of the state
    r = rules[0]
    want = expected(s, r) if expected else None
    breaker(s, r)
    found = broken_by(s, r, finished)
    assert found is not None and found[0] == code, \
        f"{inv.INVARIANTS[code]!r}: found {found and inv.INVARIANTS[found[0]]!r}"
    if want is not None:
        assert found[1:] == tuple(int(x) for x in want)
    else:  # the run made: at least three gems of the player who just played
        assert found[1] == s.player and found[2] >= 3


# --- checked runs ---------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("strategies", [None, ["random"]], ids=["default_mix", "random"])
def test_a_checked_run_breaks_nothing_and_gives_the_unchecked_rows(mode, strategies):
    config = make_config("gemmis", 2, mode, strategies, seed=33)
    assert_checked_run_gives_the_unchecked_rows(config, 300)


@pytest.mark.parametrize("mode", list(MODES))
def test_checked_search_games_break_nothing_and_give_the_unchecked_rows(mode):
    config = make_config("gemmis", 2, mode, ["lookahead", "quick_scorer"], seed=33,
                         weights={"lookahead": SMALL_SEARCH})
    assert_checked_run_gives_the_unchecked_rows(config, 4)


def test_the_cascade_limit_ends_the_endless_cascade_of_a_tiny_make_up():
    """35 chips (two more than the zones and the street hold) and the zone refilled from the
    sack: the three gems of a combination go to the used pile, back into the emptied sack and
    into the same three cells, a combination again. The cascade_limit ends such a turn; the
    game goes on to its end, every invariant held, and the replay says where the limit fired."""
    tiny = {"plain_gems_per_colour": 6, "value_1_gems_per_colour": 1, "value_2_gems_per_colour": 0,
            "value_3_gems_per_colour": 0, "jokers": 0, "zone_refill": "sack", "cascade_limit": 40}
    config = make_config("gemmis", 2, "family", ["random"], seed=5, settings=tiny)
    batch.play_in_memory(config, 20, check=True)
    events = [e for e in api.replay("gemmis", seed=5, mode="family", strategies=["random"],
                                    settings=tiny) if e["kind"] == "cascade_limit"]
    assert events and all(e["combinations"] == 40 for e in events)
