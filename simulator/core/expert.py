"""Learnt experts: players that value every option of a decision by a weighted sum of its features.

A game that has one lists, in its strategies module, the features it describes an option by
(``FEATURE_NAMES``: what a heuristic would value it by, computed from what the player sees) and
computes them for the options of each decision its search player searches
(``option_features``; a feature may play the option out to the next decision, once:
``core/search.py``'s ``played_out``). Its weight vector holds one weight per feature
(``expert_weight_names``), between the heuristics' weights and the search's. The expert takes
the option of greatest weighted sum (``valued_choice``); ``playtest distill`` fits those
weights to the search player's own decisions (``simulator/distill.py``).
"""

import json
from pathlib import Path

import numpy as np

from simulator.core.jit import compiled

EXPERT_WEIGHT_PREFIX = "value_"
SHIPPED = Path(__file__).resolve().parents[2] / "strategies" / "experts"  # one file per game


def expert_weight_names(feature_names: tuple[str, ...]) -> tuple[str, ...]:
    """The expert's weights in a game's weight vector: one per option feature."""
    return tuple(EXPERT_WEIGHT_PREFIX + name for name in feature_names)


def shipped_expert(game: str, feature_names: tuple[str, ...],
                   file: str | None = None) -> np.ndarray:
    """The weights of the expert a game ships (``strategies/experts/GAME.json``, written by
    ``playtest distill``; or ``FILE.json``), one per feature; zeros while a game has none yet."""
    path = SHIPPED / f"{file or game}.json"
    if not path.exists():
        return np.zeros(len(feature_names))
    weights = json.loads(path.read_text())["weights"]
    names = expert_weight_names(feature_names)
    missing = [n for n in names if n not in weights]
    if missing:
        raise RuntimeError(f"{path}: no weight for {', '.join(missing)}; distill the expert again")
    return np.array([float(weights[n]) for n in names])


def weight_table(table: np.ndarray, n_heuristic: int, fallback: int,
                 expert: np.ndarray) -> np.ndarray:
    """A game's default weight rows: ``table`` (the heuristics' ``n_heuristic`` weights, then
    the search's) with the expert's columns between them, all 0, and the expert's row last:
    the ``fallback`` heuristic's weights (for what the expert does not value) and ``expert``."""
    rows = table.shape[0]
    zeros = np.zeros((rows, expert.size))
    widened = np.hstack([table[:, :n_heuristic], zeros, table[:, n_heuristic:]])
    own = np.concatenate([table[fallback, :n_heuristic], expert,
                          np.zeros(table.shape[1] - n_heuristic)])
    return np.vstack([widened, own])


@compiled
def valued_choice(features, n, w, first):
    """The index of the option (``features[:n]``, one row each) whose features weighted by
    ``w[first:first + features.shape[1]]`` sum highest; the first of equals."""
    best = 0
    best_value = -np.inf
    for i in range(n):
        value = 0.0
        for k in range(features.shape[1]):
            value += w[first + k] * features[i, k]
        if value > best_value:
            best, best_value = i, value
    return best


# A recording search player's tape (``playtest distill``): a float64 table whose row 0 counts the
# rows written, the decisions recorded and the rows that did not fit; then one row per option
# tried at a searched decision, these columns first and the option's features after.
TAPE_COLUMNS = ("decision", "code", "seat", "option", "chosen", "policy_choice", "win_share",
                "margin")
(T_DECISION, T_CODE, T_SEAT, T_OPTION, T_CHOSEN, T_POLICY_CHOICE, T_WIN_SHARE,
 T_MARGIN) = range(len(TAPE_COLUMNS))


def new_tape(rows: int, n_features: int) -> np.ndarray:
    return np.zeros((rows + 1, len(TAPE_COLUMNS) + n_features), dtype=np.float64)


def tape_rows(tape: np.ndarray) -> np.ndarray:
    """The rows written to ``tape``, or a one-line error if some did not fit."""
    if tape[0, 2] > 0:
        raise RuntimeError(f"a recording tape of {tape.shape[0] - 1} rows was too short by "
                           f"{int(tape[0, 2])} rows")
    return tape[1:1 + int(tape[0, 0])]


def joined_tapes(tapes: list[np.ndarray], n_features: int) -> np.ndarray:
    """The rows of several tapes in turn (blocks of games in order), decisions numbered on."""
    parts = []
    decisions = 0
    for tape in tapes:
        rows = tape_rows(tape).copy()
        rows[:, T_DECISION] += decisions
        decisions += int(tape[0, 1])
        parts.append(rows)
    if not parts:
        return np.zeros((0, len(TAPE_COLUMNS) + n_features))
    return np.concatenate(parts)


@compiled
def write_decision(tape, decision, p, options_tried, k, tally, choice, anchor, features):
    """Add a searched decision to ``tape``: each of the ``k`` options tried (``options_tried``,
    indices into ``features``) with its rollouts' mean win share and margin (``tally``), which
    one the search took (``choice``) and which its rollout policy would have (``anchor``)."""
    used = int(tape[0, 0])
    if used + k > tape.shape[0] - 1:
        tape[0, 2] += k
        return
    number = tape[0, 1]
    rollouts = tally.shape[1]
    width = len(TAPE_COLUMNS)
    for c in range(k):
        row = tape[1 + used + c]
        row[T_DECISION] = number
        row[T_CODE] = decision
        row[T_SEAT] = p
        row[T_OPTION] = options_tried[c]
        row[T_CHOSEN] = 1.0 if c == choice else 0.0
        row[T_POLICY_CHOICE] = 1.0 if c == anchor else 0.0
        share = 0.0
        margin = 0.0
        for j in range(rollouts):
            share += tally[c, j, 0]
            margin += tally[c, j, 1]
        row[T_WIN_SHARE] = share / rollouts
        row[T_MARGIN] = margin / rollouts
        row[width:] = features[options_tried[c], :]
    tape[0, 0] = used + k
    tape[0, 1] = number + 1
