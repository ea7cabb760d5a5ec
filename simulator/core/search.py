"""Search players: a decision judged by playing each option out, from what the player knows.

The mechanism every game's search player (``lookahead``) shares:

- **Its budget is in its weight vector.** A game with a search player ends its weight names
  with ``SEARCH_WEIGHTS``: rollouts per option, how many turns (rounds) a rollout plays before
  it is judged on the standings (0: to the end of the game), the strategy id of the heuristic
  that plays every seat in the rollouts (with the searcher's own weights), and how sure the
  rollouts must be before the searcher leaves that heuristic's own choice.
- **Two kinds of plans.** A run whose mix holds no search player seats its strategies with
  *heuristic plans* ``(ids, weights)``, as before; a run with one uses *searching plans*
  ``(ids, weights, SEARCHING)``. They are different numba types, so the game loop is compiled
  once for each; the search code is reached only from the searching one, and every rollout
  plays with heuristic plans. That keeps the compiler's view free of recursion (a rollout can
  never start a search), and runs without a search player compile nothing new.
- **Common random numbers.** One draw from the game's own stream seeds a decision's rollouts:
  rollout ``j`` of every option starts from the same stream (``rollout_stream``), so options
  are compared on the same dice, deals and re-dealt hidden cards, and the game stays
  reproducible like every other.
- **Only what the player knows.** Before each rollout the game re-deals every hidden card: the
  cards the player cannot place, shuffled (``shuffle_unseen``), back into the places the player
  cannot see, so the real hidden arrangement never reaches the decision.
- **The choice** (``best_option``): the rollout policy's own choice, unless another option wins
  more on the same rollouts (win share, then score margin, own score minus the best rival's, as
  a tie-break) by more than ``search_confidence`` standard errors; then the best such option.
- **Written once** (``searched``): the decision's budget, seed and tally, and for each option and
  rollout: copy the table, re-deal what the searcher cannot see, take the option, play on, score.
  A game declares only its *verbs* (``declares``), the steps that are its own rules: which
  options it tries and which one its rollout policy would take, what is hidden and how it is
  re-dealt, how an option is taken, how far a rollout plays and what it scores. Each verb is
  chosen by the type of the game's state record, so no function is passed as an argument (numba
  caches no code that takes one).
- **A learnt expert's look ahead** (``played_out``): the same verbs take each option once and
  go on to the next decision, for a feature such as the points a whole turn scores. It plays
  only at a table of searching plans, so a game whose expert uses it seats that expert as it
  seats a search player, and the heuristic game loop stays free of it.
"""

import inspect

import numpy as np
from numba import types
from numba.extending import overload
from numba.np.numpy_support import as_dtype

from simulator.core.expert import expert_weight_names, write_decision
from simulator.core.jit import compiled
from simulator.core.rng import next_u64, seed_stream, shuffle

SEARCH_WEIGHTS = ("rollouts", "rollout_turns", "rollout_policy", "search_confidence")
SEARCHING = np.zeros(1, dtype=np.int8)  # the marker that makes plans "searching plans"
# (a recording tape, ``core/expert.py``, is the other marker: searching plans that record)


def weight_layout(heuristic_names: tuple[str, ...], feature_names: tuple[str, ...]):
    """A game's weight vector: its heuristics' weights, then the learnt expert's (one per option
    feature, ``core/expert.py``), then a search player's (``SEARCH_WEIGHTS``). Returns (the
    names, the index of the expert's first weight, the indices of ``SEARCH_WEIGHTS``)."""
    names = tuple(heuristic_names) + expert_weight_names(feature_names) + SEARCH_WEIGHTS
    first_value = len(heuristic_names)
    return names, first_value, tuple(range(first_value + len(feature_names), len(names)))


def searching_plans(plans_type) -> bool:
    """Whether a numba plans type is the searching kind (three members)."""
    return isinstance(plans_type, types.BaseTuple) and len(plans_type) == 3


def attach_marker(ids, weights, marker):
    """(ids, weights), or (ids, weights, marker) when ``marker`` is not None (numba overload)."""
    return (ids, weights) if marker is None else (ids, weights, marker)


def never_searched(decision, s, r, p, plans, rng, options, n):
    """A game's ``searched`` at a table with heuristic plans: never called (a search player is
    never seated with heuristic plans), but the heuristic game loop must still type-check."""
    if n >= 0:  # always
        raise RuntimeError("a search player was seated with heuristic plans")
    return 0


@overload(attach_marker, jit_options={"cache": True})
def _attach_marker(ids, weights, marker):
    if isinstance(marker, (types.NoneType, types.Omitted)):
        return lambda ids, weights, marker: (ids, weights)
    return lambda ids, weights, marker: (ids, weights, marker)


@compiled
def budget(w):
    """(rollouts per option, turns per rollout or 0 for the whole game, policy strategy id,
    standard errors by which an option must beat the policy's own choice)."""
    k = w.shape[0]
    return max(1, int(w[k - 4])), max(0, int(w[k - 3])), int(w[k - 2]), w[k - 1]


@compiled
def policy_plans(plans, p, max_players):
    """Heuristic plans for a rollout: every seat plays ``p``'s rollout policy with ``p``'s
    weights (the searcher models its rivals as players like itself)."""
    return every_seat(budget(plans[1][p])[2], plans[1][p], max_players)


@compiled
def every_seat(policy, w, max_players):
    """Heuristic plans in which every seat plays strategy ``policy`` with the weights ``w``."""
    ids = np.full(max_players, policy, dtype=np.int64)
    weights = np.empty((max_players, w.shape[0]), dtype=np.float64)
    for q in range(max_players):
        weights[q, :] = w
    return (ids, weights)


@compiled
def decision_seed(rng):
    """One draw from the game's stream: the seed of this decision's rollouts."""
    return next_u64(rng)


@compiled
def rollout_stream(seed, j):
    """The random stream of rollout ``j`` (the same for every option of the decision)."""
    return seed_stream(seed, np.uint64(j))


@compiled
def new_tally(n_options, rollouts):
    """Each rollout's result per option: the searcher's win share and score margin."""
    return np.zeros((n_options, rollouts, 2), dtype=np.float64)


@compiled
def outcome(scores, n_players, p):
    """(win share, score margin) of ``p`` for final (or current) ``scores``."""
    best = scores[p]
    rival = -1e18
    for q in range(n_players):
        best = max(best, scores[q])
        if q != p:
            rival = max(rival, scores[q])
    if scores[p] < best:
        return 0.0, float(scores[p] - rival)
    winners = 0
    for q in range(n_players):
        if scores[q] == best:
            winners += 1
    return 1.0 / winners, float(scores[p] - rival)


@compiled
def add_outcome(tally, option, j, share, margin):
    tally[option, j, 0] = share
    tally[option, j, 1] = margin


MARGIN_TIE_BREAK = 1e-4  # a point of margin is worth this much win share: a tie-break only


@compiled
def best_option(tally, n_options, anchor, confidence):
    """The option to take: ``anchor`` (the rollout policy's own choice) unless another option
    beats it on the same rollouts, its mean paired advantage (win share, then score margin as a
    tie-break) more than ``confidence`` standard errors above zero; of those, the best.

    Anchoring on the policy's choice keeps a small budget from trading a good move for the
    luckiest of many noisy estimates: the searcher plays at least as its policy would, and
    better wherever its rollouts are sure."""
    rollouts = tally.shape[1]
    best = anchor
    best_gain = 0.0
    for o in range(n_options):
        if o == anchor:
            continue
        total = 0.0
        squares = 0.0
        for j in range(rollouts):
            d = (tally[o, j, 0] - tally[anchor, j, 0]) + \
                MARGIN_TIE_BREAK * (tally[o, j, 1] - tally[anchor, j, 1])
            total += d
            squares += d * d
        mean = total / rollouts
        if mean <= best_gain:
            continue
        if rollouts > 1:
            var = max(0.0, (squares - rollouts * mean * mean) / (rollouts - 1))
            if mean <= confidence * np.sqrt(var / rollouts):
                continue
        best, best_gain = o, mean
    return best


@compiled
def shuffle_unseen(rng, pool, n):
    """Shuffle the ``n`` cards a player cannot place, ``pool[:n]``, into a random order for
    dealing back into the hidden places. Sorted first: the result depends only on which cards
    they are, never on where they really lie."""
    pool[:n] = np.sort(pool[:n])
    shuffle(rng, pool, n)


# The verbs a game declares for its state (``declares``); ``s`` is the decision's table, ``x`` a
# rollout's copy of it, ``policy`` the rollouts' heuristic plans (``policy_plans``).

def searches(decision, s, n):
    """Whether the search player searches a decision of ``n`` options (else it takes the first,
    drawing nothing)."""
    raise NotImplementedError("a game's verb")


def tried_options(decision, s, r, p, policy, own, options, n):
    """(the options tried, as indices into ``options``; how many; which of them the rollout
    policy takes, playing from the stream ``own``)."""
    raise NotImplementedError("a game's verb")


def redeal(x, r, p, rng):
    """Re-deal in ``x`` everything ``p`` cannot see."""
    raise NotImplementedError("a game's verb")


def take_option(decision, x, r, p, policy, rng, options, o):
    """``p`` takes option ``o`` (a row of ``options``), and the rules go on to the next decision."""
    raise NotImplementedError("a game's verb")


def play_on(s, x, r, policy, rng, turns):
    """Play ``x`` on to the rollout's end: ``turns`` turns (or rounds) on from the decision in
    ``s``, or the game's end (0)."""
    raise NotImplementedError("a game's verb")


def rollout_scores(table, r):
    """The players' scores a rollout ends on (in ``table[0]``), one per player at the table."""
    raise NotImplementedError("a game's verb")


def option_features(decision, s, r, p, plans, options, n):
    """The features of each of the ``n`` options, one row each, as ``p`` sees them (a game
    with a learnt expert, ``core/expert.py``; read only by a recording search). ``plans``
    are the table's: an expert whose features play options out (``played_out``) needs them."""
    raise NotImplementedError("a game's verb")


def is_record_of(t, dtype) -> bool:
    """Whether numba type ``t`` is a record of numpy dtype ``dtype``, an array of them or the
    dtype itself (a verb called before there is a table names its game by its state's dtype)."""
    if isinstance(t, (types.Array, types.DType)):
        t = t.dtype
    return isinstance(t, types.Record) and as_dtype(t) == dtype


DECLARED = {}  # (verb, state dtype) -> its implementation, for the interpreted engine


def declares(verb, state):
    """``@declares(redeal, STATE)`` over a function that returns a game's ``verb`` for a table of
    dtype ``state``, with the verb's argument names. A game's search module declares its verbs
    and is imported by the game's spec (it imports the rules and the players; neither imports
    it back); the verb is compiled, and cached, with the game whose file it lies in."""
    def declare(implementation):
        def typing(*args):
            return implementation() if any(is_record_of(a, state) for a in args) else None
        typing.__signature__ = inspect.signature(verb)  # what numba checks the verb against
        overload(verb, jit_options={"cache": True})(typing)
        DECLARED[verb, state] = implementation
        return implementation
    return declare


def declared(verb, state):
    """A game's ``verb`` for tables of dtype ``state`` as plain Python: how a verb's own body
    runs interpreted (``NUMBA_DISABLE_JIT=1``), where no overload is looked up."""
    return DECLARED[verb, state]()


def recorded(plans, decision, s, r, p, options, n, tried, k, tally, choice, anchor):
    """Write the decision to the tape when the plans' marker is one (``playtest distill``)."""
    raise NotImplementedError("compiled only")


# Compiled into ``searched`` and, like it, not cached on its own.
@overload(recorded)
def _recorded(plans, decision, s, r, p, options, n, tried, k, tally, choice, anchor):
    tape = plans[2]
    if not (isinstance(tape, types.Array) and tape.ndim == 2):
        return lambda plans, decision, s, r, p, options, n, tried, k, tally, choice, anchor: None

    def record(plans, decision, s, r, p, options, n, tried, k, tally, choice, anchor):
        write_decision(plans[2], decision, p, tried, k, tally, choice, anchor,
                       option_features(decision, s, r, p, plans, options, n))
    return record


def searched(decision, s, r, p, plans, rng, options, n):
    """Which of the ``n`` options (``options[:n]``) a search player takes at ``decision`` (the
    game's code for which choice it is)."""
    raise NotImplementedError("compiled only")


# Not cached on its own: its code holds the game's verbs, and the core's cache must never hold
# a game's code (the core's cache folder does not change when a game does). It is cached in its
# callers, the game's players, and compiled again when they are.
@overload(searched)
def _searched(decision, s, r, p, plans, rng, options, n):
    if not searching_plans(plans):
        return never_searched
    state = as_dtype(s)

    def impl(decision, s, r, p, plans, rng, options, n):
        if not searches(decision, s, n):
            return 0
        rollouts, turns, _, confidence = budget(plans[1][p])
        policy = policy_plans(plans, p, plans[0].shape[0])
        seed = decision_seed(rng)
        # the search starts from the option its rollout policy would take itself
        tried, k, anchor = tried_options(decision, s, r, p, policy, rollout_stream(seed, rollouts),
                                         options, n)
        if k == 1:
            return tried[0]
        tally = new_tally(k, rollouts)
        for c in range(k):
            for j in range(rollouts):
                rr = rollout_stream(seed, j)
                table = np.empty(1, dtype=state)  # not zeroed: every byte is copied next
                table[0] = s
                x = table[0]  # (the table is kept in hand to the end: see core/tables.py)
                redeal(x, r, p, rr)
                take_option(decision, x, r, p, policy, rr, options, tried[c])
                play_on(s, x, r, policy, rr, turns)
                scores = rollout_scores(table, r)
                share, margin = outcome(scores, scores.shape[0], p)
                add_outcome(tally, c, j, share, margin)
        choice = best_option(tally, k, anchor, confidence)
        recorded(plans, decision, s, r, p, options, n, tried, k, tally, choice, anchor)
        return tried[choice]
    return impl


PLAYOUT_SEED = 0x706C61796F7574  # the one stream every playout draws from (``played_out``)


def played_out(decision, s, r, p, plans, policy, weights, options, n, gains):
    """A learnt expert's look ahead: each of the ``n`` options taken and the rules gone on to
    the next decision (``take_option``) once, every seat playing strategy ``policy`` with the
    weights ``weights``, after what ``p`` cannot see is re-dealt; ``gains[:n]``: ``p``'s score
    then less now (``rollout_scores``). Returns whether it played them out: only at a table
    with searching plans, so that the heuristic game loop compiles no playout (a game whose
    expert looks ahead seats it with searching plans, ``Strategies.expert_plays_out``)."""
    raise NotImplementedError("compiled only")


# Not cached on its own, as ``searched``: its code holds the game's verbs.
@overload(played_out)
def _played_out(decision, s, r, p, plans, policy, weights, options, n, gains):
    if not searching_plans(plans):
        return lambda decision, s, r, p, plans, policy, weights, options, n, gains: False
    state = as_dtype(s)

    def impl(decision, s, r, p, plans, policy, weights, options, n, gains):
        heuristic = every_seat(policy, weights, plans[0].shape[0])
        # one re-deal, on a stream the same for every decision, and every option played from
        # it: the features depend on the table alone, and on the hidden cards only through
        # what p knows of them
        dealt = np.empty(1, dtype=state)
        dealt[0] = s
        before = rollout_scores(dealt, r)[p]
        stream = rollout_stream(PLAYOUT_SEED, 0)
        redeal(dealt[0], r, p, stream)
        for o in range(n):
            rr = stream.copy()
            table = np.empty(1, dtype=state)
            table[0] = dealt[0]
            x = table[0]  # (the table is kept in hand to the end: see core/tables.py)
            take_option(decision, x, r, p, heuristic, rr, options, o)
            gains[o] = rollout_scores(table, r)[p] - before
        return True
    return impl
