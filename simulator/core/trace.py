"""A compact event log a kernel fills while it plays one game, for ``playtest replay``.

The log is an int64 array of shape (capacity, 7): row 0 holds the number of entries written,
each later row is (code, a, b, c, d, e, f) with game-specific meaning. Batch runs pass a tally
instead, one row counting how often each rule of the game's ``RULES_THAT_COME_UP`` came up
(``came_up``) and ending with the slots of a checked run (``checking``), and a search's
rollouts an empty array: recording then costs one length check and the same code plays all
three.
"""

import numpy as np

from simulator.core.jit import compiled

LOG_WIDTH = 7


def new_log(capacity: int) -> np.ndarray:
    return np.zeros((capacity + 1, LOG_WIDTH), dtype=np.int64)


def empty_log() -> np.ndarray:
    """A log that records and counts nothing."""
    return np.zeros((0, LOG_WIDTH), dtype=np.int64)


# A tally ends with a checked run's slots: asked (1), the broken invariant + 1, its two details,
# the index of the game that broke it.
CHECK_SLOTS = 5


def tally_log(n_rules: int, check: bool = False) -> np.ndarray:
    """The log of a batch run: one row, a count per rule that can come up, then the slots of a
    checked run (``check``: the game's invariants are checked after every turn)."""
    log = np.zeros((1, n_rules + CHECK_SLOTS), dtype=np.int64)
    log[0, n_rules] = check
    return log


def broken_in(log: np.ndarray):
    """(game index, invariant, detail a, detail b) of the first game of a checked block that
    broke an invariant, or None."""
    asked, invariant, a, b, game_index = (int(x) for x in log[0, -CHECK_SLOTS:])
    return (game_index, invariant - 1, a, b) if asked and invariant else None


@compiled
def no_log():
    """An empty log inside compiled code, for a search's rollouts (a global array would be
    read-only inside kernels)."""
    return np.zeros((0, LOG_WIDTH), dtype=np.int64)


@compiled(inline="always")
def telling(log):
    """Whether the log tells a game's story (a replay), not a batch's tally or nothing."""
    return log.shape[0] > 1


@compiled(inline="always")
def came_up(log, rule):
    """Count that rule ``rule`` (its index in the game's ``RULES_THAT_COME_UP``) came up where
    its value can make a difference; only a batch's tally counts."""
    if log.shape[0] == 1:
        log[0, rule] += 1


@compiled(inline="always")
def checking(log):
    """Whether the game's invariants are to be checked after every turn (a checked batch)."""
    return log.shape[0] == 1 and log[0, log.shape[1] - CHECK_SLOTS] != 0


@compiled(inline="always")
def broken(log, invariant, a, b):
    """Note that invariant ``invariant`` (its index in the game's ``invariants.INVARIANTS``) does
    not hold, with the two numbers its description names; the first one noted is kept."""
    k = log.shape[1] - CHECK_SLOTS
    if log[0, k + 1] == 0:
        log[0, k + 1] = invariant + 1
        log[0, k + 2] = a
        log[0, k + 3] = b


@compiled(inline="always")
def found_broken(log):
    """Whether a checked game has broken an invariant: its turn loop stops there."""
    return log.shape[0] == 1 and log[0, log.shape[1] - CHECK_SLOTS + 1] != 0


@compiled(inline="always")
def stop_at_broken(log, game_index):
    """After each game of a block: whether it broke an invariant (its index noted), so that the
    block stops at it."""
    if found_broken(log):
        log[0, log.shape[1] - 1] = game_index
        return True
    return False


@compiled(inline="always")  # a few lines at every call: no compiled function of its own
def record(log, code, a=0, b=0, c=0, d=0, e=0, f=0):
    if log.shape[0] <= 1:
        return
    n = log[0, 0] + 1
    if n >= log.shape[0]:
        return  # full: the decoder reports the story as cut short
    log[n, 0] = code
    log[n, 1] = a
    log[n, 2] = b
    log[n, 3] = c
    log[n, 4] = d
    log[n, 5] = e
    log[n, 6] = f
    log[0, 0] = n


def entries(log: np.ndarray) -> np.ndarray:
    return log[1:log[0, 0] + 1]


def is_full(log: np.ndarray) -> bool:
    return log[0, 0] + 1 >= log.shape[0]

