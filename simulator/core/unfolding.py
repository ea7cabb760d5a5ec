"""How a game unfolds: who leads as it goes, how often the lead changes, how many decisions.

Every game plays its game a turn at a time in its batch loop and notes, after each turn, each
seat's standing by the game's own measure of leading (its rule data's ``notes.leading`` says
what that is). A seat leads when its standing is above every other seat's; on a tie for the
top nobody leads. At the end the kernel writes ``UNFOLDING_COLUMNS`` into the game's row; the
dataset adds whether the leaders at one and two thirds won and the final margin
(``simulator/core/dataset.py``).

A decision is a choice a player makes among two or more options; the rules count one with
``decided`` wherever they ask a player to choose.
"""

import numpy as np

from simulator.core.jit import compiled

UNFOLDING_COLUMNS = ("lead_changes", "leader_at_third", "leader_at_two_thirds", "decisions")
NOBODY = -1


@compiled
def new_leaders(max_turns):
    """The leader after each turn: element 0 counts the turns noted, element ``t`` holds the
    leader after turn ``t`` (room for ``max_turns`` turns; a longer game keeps the first ones)."""
    leaders = np.full(max_turns + 1, NOBODY, dtype=np.int64)
    leaders[0] = 0
    return leaders


@compiled
def note_leader(leaders, standing, n_players):
    """Note who leads after the turn just played, from each seat's ``standing``."""
    best = standing[0]
    who = 0
    for p in range(1, n_players):
        if standing[p] > best:
            best = standing[p]
            who = p
        elif standing[p] == best:
            who = NOBODY
    n = leaders[0] + 1
    if n < leaders.shape[0]:
        leaders[n] = who
        leaders[0] = n


@compiled
def decided(s, n_options):
    """Count a decision when the player had a real choice (two options or more)."""
    if n_options > 1:
        s.decisions += 1


@compiled
def write_unfolding(leaders, decisions, out):
    """``out`` (UNFOLDING_COLUMNS): the lead changes (from one seat to another, a tie between
    them not counted as a leader), the leaders after the turns at one third and two thirds of
    the game (``NOBODY`` for a tie, or a game too short to have that turn) and the decisions."""
    n = leaders[0]
    changes = 0
    last = NOBODY
    for t in range(1, n + 1):
        who = leaders[t]
        if who != NOBODY:
            if last != NOBODY and who != last:
                changes += 1
            last = who
    out[0] = changes
    out[1] = leaders[n // 3] if n // 3 >= 1 else NOBODY
    out[2] = leaders[2 * n // 3] if 2 * n // 3 >= 1 else NOBODY
    out[3] = decisions
