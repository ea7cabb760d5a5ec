"""Scripted Gnomeland players.

Each seat is played by a strategy id plus a weight vector (``plans = (ids, weights)``, one row
per seat). The turn is a sequence of single actions (``turn.list_options``): heuristic players
value every legal action in victory points from what it brings now (points, resources,
Mercenaries, dice) and what it is worth for the rest of the game (a building's yield over the
rounds left), scaled by their weights, and take the best; dice-changing actions come before the
dice they change, dice before purchases, and the turn ends when every die is spent and nothing
is worth doing. Resources the player cannot keep past the turn are valued by what the Warehouses
would keep of them. Everything on the table is public, so players read the whole state except
the decks' order (which no decision reads). Copying decisions are asked of the copying player's
own strategy.
"""

import numpy as np
from numba.extending import overload
from numba.np.unsafe.ndarray import to_fixed_tuple

from simulator.core.expert import shipped_expert, valued_choice, weight_table
from simulator.core.jit import compiled
from simulator.core.rng import below, jitter
from simulator.core.search import SEARCH_WEIGHTS, searched, weight_layout
from simulator.games.gnomeland.board import (
    ABUNDANCE, ADVANCED, BASE, BRAWL, COIN, CURSE, EFFECT_CONVERT, EFFECT_DIE_UP,
    EFFECT_DIE_UP_DOWN, EFFECT_EXTRA_DIE, EFFECT_INCOME, EFFECT_PAID_DIE, EFFECT_REROLL, FAVOUR,
    FIRST_NORMAL_CARD, FIRST_SPECIAL_CARD, FORTUNE, GNOME_HOUSE, GNOME_RECALL, HEX,
    MAGIC_CHALLENGE, MANA, M_TRADERS, SOLDIER, SUMMONING, TRADER, TWO_COINS, WAREHOUSE, WEAPON,
    RESOURCES_DISCARDED, WIZARD, contest_points, convert_gives, convert_price, hire_funding,
    keep_limit, may_complete, mission_vp, slot_of, special_effect, warehouses_of,
)
from simulator.games.gnomeland.codes import (
    DECIDE_ACTION, OPT_BUILD_NORMAL, OPT_BUILD_SPECIAL, OPT_CONVERT, OPT_DIE, OPT_DIE_CHANGE,
    OPT_END, OPT_HIRE, OPT_INCOME, OPT_MISSION, OPT_PALACE, OPT_REROLL, OPT_SPELL, OPT_TAVERN,
    OPT_UPGRADE_NORMAL, OPT_UPGRADE_SPECIAL,
)

RANDOM, GREEDY, MISSION_HUNTER, ENGINE_BUILDER, COPIER, BRAWLER, BALANCED, LOOKAHEAD, EXPERT = \
    range(9)
NAMES = ("random", "greedy", "mission_hunter", "engine_builder", "copier", "brawler", "balanced",
         "lookahead", "expert")
DESCRIPTIONS = (
    "uniform over the legal actions (ending the turn is one once every die is spent)",
    "most victory points now: missions and buildings' end points first; no value for the rounds ahead",
    "completes every mission it can, hires the Mercenaries missions ask for",
    "builds and upgrades early for yield over the rounds left",
    "lives on others' dice: spends gnomes to copy their resources",
    "plays for the Brawl and the Magic Challenge: Weapons and Mana, gnomes on the contests",
    "weighs missions, buildings, contests and copying evenly",
    "searches: plays each action of its turn out to the end of the game (rollouts by balanced "
    "players, decks re-dealt) and leaves balanced's choice only for a surely better one",
    "learnt from the search (playtest distill): values each action of its turn by a weighted sum "
    "of its features, and decides the rest (copying, Warehouses, contests) as balanced does",
)

STYLE_NAMES = (
    "victory_point",     # worth of one victory point (1: the unit)
    "coin",              # worth of a Coin in hand, in victory points
    "mana",              # ... a Mana
    "weapon",            # ... a Weapons
    "mercenary",         # worth of a Mercenary card held
    "gnome",             # worth of a gnome kept at home (for the Tavern and copying)
    "engine",            # share of a building's yield per round over the rounds left
    "mission",           # bias on a mission's points (on top of their worth)
    "contest",           # worth of a contest point expected from a gnome on Brawl/Magic
    "copy",              # multiplier on the worth of copied resources
    "keep",              # share of its worth a resource kept in a Warehouse keeps
    "attack",            # worth of each point or resource taken from a rival (Hex, Curse)
    "die_first",         # priority of spending dice before buying (in victory points)
    "noise",             # random jitter on every value, so equal players do not mirror each other
)
(W_VP, W_COIN, W_MANA, W_WEAPON, W_MERC, W_GNOME, W_ENGINE, W_MISSION, W_CONTEST, W_COPY,
 W_KEEP, W_ATTACK, W_DIE_FIRST, W_NOISE) = range(len(STYLE_NAMES))

# What the expert (core/expert.py) sees of an action of its turn (DECIDE_ACTION, the one decision
# the search player searches). All of it is on the table: the decks' order is never read.
FEATURE_NAMES = (
    "ends_turn",          # 1 for ending the turn
    "spends_die",         # 1 for spending a die on a Normal Building
    "improves_dice",      # 1 for an action worth taking only before the dice are spent (is_improver)
    "contest_gnome",      # 1 for a gnome sent to the Brawl or the Magic Challenge
    "tavern_other",       # 1 for any other Tavern action (a gnome spent)
    "spell",              # 1 for a spell cast (Mana paid)
    "attack",             # 1 for a Hex or a Curse (taken from a rival)
    "hire",               # 1 for a Mercenary hired
    "build_normal",       # 1 for a Normal Building built
    "build_special",      # 1 for a Special Building built
    "upgrade",            # 1 for a building turned to its advanced side
    "mission",            # 1 for a mission completed
    "convert_income",     # 1 for a Special Building's conversion or income
    "points_now",         # victory points the action gains at once (minus those it covers)
    "resources_paid",     # Coins, Mana and Weapons it costs, counted together
    "rounds_left",        # rounds after this one (the building actions' horizon; 0 for the rest)
    "balanced_value",     # its worth to balanced (the strongest heuristic), in victory points
    "balanced_rank",      # balanced's rank of it: its worth plus the priority of dice and of
                          # dice-changing actions (0 for ending the turn and for what it skips)
    "balanced_skips",     # 1 for an action balanced never takes (a purchase worth nothing to it)
)
(F_ENDS_TURN, F_SPENDS_DIE, F_IMPROVES_DICE, F_CONTEST_GNOME, F_TAVERN_OTHER, F_SPELL, F_ATTACK,
 F_HIRE, F_BUILD_NORMAL, F_BUILD_SPECIAL, F_UPGRADE, F_MISSION, F_CONVERT_INCOME, F_POINTS_NOW,
 F_RESOURCES_PAID, F_ROUNDS_LEFT, F_BALANCED_VALUE, F_BALANCED_RANK,
 F_BALANCED_SKIPS) = range(len(FEATURE_NAMES))
N_FEATURES = len(FEATURE_NAMES)
EXPERT_FALLBACK = BALANCED  # what the expert does where it values no options

(WEIGHT_NAMES, W_FIRST_VALUE,
 (W_ROLLOUTS, W_ROLLOUT_TURNS, W_ROLLOUT_POLICY, W_SEARCH_CONFIDENCE)) = \
    weight_layout(STYLE_NAMES, FEATURE_NAMES)
N_WEIGHTS = len(WEIGHT_NAMES)

_STYLE = np.array([
    # vp  coin  mana  weap  merc  gnome engine miss  cont  copy  keep  atk   first noise
    [0.0, 0.0,  0.0,  0.0,  0.0,  0.0,  0.0,   0.0,  0.0,  0.0,  0.0,  0.0,  0.0,  0.0],   # random
    [1.0, 0.3,  0.3,  0.3,  0.3,  0.3,  0.0,   0.0,  0.0,  1.0,  1.0,  0.0,  3.0,  0.0],   # greedy
    [1.0, 0.35, 0.35, 0.35, 0.6,  0.5,  0.3,   0.5,  0.2,  1.0,  0.9,  0.2,  3.0,  0.05],  # mission_hunter
    [1.0, 0.35, 0.35, 0.35, 0.4,  0.5,  1.0,   0.0,  0.2,  1.0,  0.9,  0.1,  3.0,  0.05],  # engine_builder
    [1.0, 0.35, 0.35, 0.35, 0.4,  0.15, 0.4,   0.2,  0.2,  1.3,  0.9,  0.1,  3.0,  0.05],  # copier
    [1.0, 0.3,  0.45, 0.45, 0.4,  0.4,  0.4,   0.1,  1.2,  1.0,  0.9,  0.4,  3.0,  0.05],  # brawler
    [1.0, 0.35, 0.35, 0.35, 0.4,  0.5,  0.6,   0.2,  0.4,  1.0,  0.9,  0.2,  3.0,  0.05],  # balanced
])
_SEARCH = np.zeros((LOOKAHEAD + 1, len(SEARCH_WEIGHTS)))
# lookahead: balanced's weights, 4 rollouts per option to the game's end, balanced rollouts,
# leaving balanced's own choice at 1 standard error
_STYLE = np.vstack([_STYLE, _STYLE[BALANCED]])
_SEARCH[LOOKAHEAD] = (4, 0, BALANCED, 1.0)
DEFAULT_WEIGHTS = weight_table(np.hstack([_STYLE, _SEARCH]), len(STYLE_NAMES), EXPERT_FALLBACK,
                               shipped_expert("gnomeland", FEATURE_NAMES))
# the features' valuation: balanced's weights without noise, the expert's zero
BALANCED_WEIGHTS = DEFAULT_WEIGHTS[BALANCED].copy()
BALANCED_WEIGHTS[W_NOISE] = 0.0
assert DEFAULT_WEIGHTS.shape == (len(NAMES), N_WEIGHTS)

IMPROVE_FIRST = 6.0   # dice-changing actions are worth taking only before the dice are spent


def weights_of(plans, p):
    """``p``'s weight vector as a tuple. A tuple travels by value, so the valuation's many small
    calls pass it without reference counting (an array argument costs an atomic increment and
    decrement in every compiled call)."""
    return tuple(plans[1][p])


@overload(weights_of, jit_options={"cache": True})
def _weights_of(plans, p):
    return lambda plans, p: to_fixed_tuple(plans[1][p], N_WEIGHTS)


@compiled
def acting(plans, p):
    """The strategy that makes ``p``'s decision: a search player decides what it does not search
    (copying, Warehouses, re-rolls, contests) as its rollout policy would."""
    sid = plans[0][p]
    if sid == EXPERT:
        return EXPERT_FALLBACK
    return int(plans[1][p, W_ROLLOUT_POLICY]) if sid == LOOKAHEAD else sid


# --- what things are worth ---------------------------------------------------------------------

@compiled
def bundle_value(w, b):
    return b[0] * w[W_COIN] + b[1] * w[W_MANA] + b[2] * w[W_WEAPON]


@compiled
def merc_values(s, r, p, w):
    """Worth of a Mercenary card of each kind: more while the board's missions that ``p`` may
    still complete name more of that kind than ``p`` holds."""
    traders, wizards, soldiers = 0, 0, 0
    for space in range(4):
        if may_complete(s, r, p, space):
            named = r.m_cost[s.missions[space], 0 if space < 2 else 1]
            traders += named[M_TRADERS + TRADER]
            wizards += named[M_TRADERS + WIZARD]
            soldiers += named[M_TRADERS + SOLDIER]
    short = 0.5 * w[W_VP] * (1.0 + w[W_MISSION])
    return (w[W_MERC] + (short if traders > s.mercs[p, TRADER] else 0.0),
            w[W_MERC] + (short if wizards > s.mercs[p, WIZARD] else 0.0),
            w[W_MERC] + (short if soldiers > s.mercs[p, SOLDIER] else 0.0))


@compiled
def building_value(s, r, w, t, side):
    """Worth of one die on a Normal Building of type ``t`` (its best alternative)."""
    a = bundle_value(w, r.n_yield[t, side, 0])
    b = bundle_value(w, r.n_yield[t, side, 1])
    m = w[W_MERC] if r.n_merc[t, side] == 1 else 0.0
    return max(a, max(b, m))


@compiled
def slot_values(s, r, p, w):
    """Worth of one die on each of ``p``'s Normal Building slots (1-2, 3-4, 5-6)."""
    return (building_value(s, r, w, s.normal[p, 0], s.normal_side[p, 0]),
            building_value(s, r, w, s.normal[p, 1], s.normal_side[p, 1]),
            building_value(s, r, w, s.normal[p, 2], s.normal_side[p, 2]))


@compiled
def average_die(slots):
    """A die's worth on average, from each slot's (``slot_values``)."""
    total = 0.0
    for v in range(1, 7):
        total += slots[slot_of(v)]
    return total / 6.0


@compiled
def pending(s):
    """The active player's unspent dice: on each Normal Building slot (1-2, 3-4, 5-6)."""
    n0, n1, n2 = 0, 0, 0
    for i in range(s.n_dice):
        if not s.dice_spent[i]:
            slot = slot_of(s.dice[i])
            if slot == 0:
                n0 += 1
            elif slot == 1:
                n1 += 1
            else:
                n2 += 1
    return n0, n1, n2


@compiled
def rounds_after(s, r):
    return max(0, r.rounds - s.round_no)


@compiled
def keep_value(w, h0, h1, h2, limit):
    """What the Warehouses would keep of a hand (h0, h1, h2): the ``limit`` most valuable units."""
    total = 0.0
    left = limit
    while left > 0:
        best, best_v = -1, -1.0
        if h0 > 0 and w[W_COIN] > best_v:
            best, best_v = 0, w[W_COIN]
        if h1 > 0 and w[W_MANA] > best_v:
            best, best_v = 1, w[W_MANA]
        if h2 > 0 and w[W_WEAPON] > best_v:
            best, best_v = 2, w[W_WEAPON]
        if best < 0:
            break
        total += best_v * w[W_KEEP]
        if best == 0:
            h0 -= 1
        elif best == 1:
            h1 -= 1
        else:
            h2 -= 1
        left -= 1
    return total


@compiled
def cards_short(have, cost, y):
    """Mercenary cards (worth ``y`` each) discarded to cover what ``have`` lacks of ``cost``."""
    return (cost - have + y - 1) // y if cost > have else 0


@compiled
def cost_value(s, r, p, w, now, c0, c1, c2):
    """What paying (coin ``c0``, mana ``c1``, weapons ``c2``) costs ``p``: its worth while dice
    remain to be spent; after that, what the Warehouses would have kept of it; and the
    Mercenaries discarded to cover what the hand lacks (``now``: ``decision_constants``)."""
    _, left, _, limit, kept, _, _, _ = now
    y = max(1, r.mercenary_yield)
    h0, h1, h2 = s.res[p, 0], s.res[p, 1], s.res[p, 2]
    p0, p1, p2 = min(c0, h0), min(c1, h1), min(c2, h2)
    mercs = (cards_short(h0, c0, y) + cards_short(h1, c1, y) + cards_short(h2, c2, y)) * w[W_MERC]
    if left > 0:
        return p0 * w[W_COIN] + p1 * w[W_MANA] + p2 * w[W_WEAPON] + mercs
    return kept - keep_value(w, h0 - p0, h1 - p1, h2 - p2, limit) + mercs


@compiled
def gnome_cost(s, r, p, w):
    """A gnome spent: worth ``gnome`` while the Tavern turns left could use it, little beyond."""
    uses = rounds_after(s, r) + (0 if s.current == p and s.tavern_done else 1)
    if s.gnomes_home[p] > uses:
        return 0.3 * w[W_GNOME]
    return w[W_GNOME]


@compiled
def effect_value(s, r, p, w, t, side, avg):
    """Worth per turn of a Special Building's ability."""
    e = special_effect(t, side)
    if e == EFFECT_EXTRA_DIE:
        return avg
    if e == EFFECT_PAID_DIE:
        return max(0.0, avg - r.palace_pay_coin * w[W_COIN])
    if e == EFFECT_DIE_UP:
        return 0.35 * avg
    if e == EFFECT_DIE_UP_DOWN:
        return 0.5 * avg
    if e == EFFECT_REROLL:
        return 0.3 * avg
    if e == EFFECT_CONVERT:
        best = w[W_WEAPON]
        if convert_gives(side, MANA):
            best = max(best, w[W_MANA])
        return max(0.0, best - 0.5 * convert_price(r, side) * w[W_COIN])
    if e == EFFECT_INCOME:
        return bundle_value(w, r.s_income[side])
    return 0.0


@compiled
def special_points(r, t, side):
    if t < FIRST_SPECIAL_CARD:
        return 0
    return r.vp_base_special if side == BASE else r.vp_advanced_special


@compiled
def replaced_special_loss(s, r, p, w, slot, future, avg):
    t = s.special[p, slot]
    if t < 0:
        return 0.0
    if t == WAREHOUSE:
        lost = 0.0
        if r.covered_warehouse == RESOURCES_DISCARDED:  # the kept resources that lose their place
            room = (warehouses_of(s, p) - 1) * r.warehouse_capacity
            lost = max(0, s.stored[p, 0] + s.stored[p, 1] + s.stored[p, 2] - room) * \
                min(w[W_COIN], min(w[W_MANA], w[W_WEAPON]))
        return lost + r.warehouse_capacity * w[W_KEEP] * (w[W_COIN] + w[W_MANA] + w[W_WEAPON]) / \
            3.0 * (future + 1) * (0.5 + w[W_ENGINE])
    if t == GNOME_HOUSE:
        return 100.0 + s.gnomes_home[p] * w[W_GNOME]
    side = s.special_side[p, slot]
    return special_points(r, t, side) * w[W_VP] + effect_value(s, r, p, w, t, side, avg) * future * w[W_ENGINE]


@compiled
def contest_worth(s, r, p, w):
    """Expected points of a gnome on a Brawl or Magic Challenge: about half the rivals beaten,
    plus the gnome's +1."""
    pts = contest_points(r, s.n_players)
    return w[W_CONTEST] * pts * (s.n_players - 1) * 0.6


@compiled
def decision_constants(s, r, p, w):
    """What every action of one decision is valued against, computed once per decision: a die's
    worth on average on ``p``'s board, the dice still to spend, the dice each building will
    still take in the rounds left, how many resources the Warehouses keep and what they would
    keep of the hand as it is, the unspent dice on each Normal Building slot, each Mercenary
    kind's worth, a die's worth on each slot."""
    limit = keep_limit(s, r, p)
    slots = slot_values(s, r, p, w)
    on_slots = pending(s)
    return (average_die(slots), on_slots[0] + on_slots[1] + on_slots[2],
            rounds_after(s, r) * r.dice_per_player / 3.0,
            limit, keep_value(w, s.res[p, 0], s.res[p, 1], s.res[p, 2], limit),
            on_slots, merc_values(s, r, p, w), slots)


@compiled(inline="always")
def option_value(s, r, p, w, kind, a, b, now):
    """Worth of one legal action but building a card (``card_value``, ``build_value``) to a
    heuristic player, in victory points (``now``: the decision's constants,
    ``decision_constants``)."""
    avg, _, _, _, _, _, merc, slots = now
    if kind == OPT_END:
        return 0.0
    if kind == OPT_DIE:
        slot = slot_of(s.dice[a])
        t = s.normal[p, slot]
        side = s.normal_side[p, slot]
        if b >= 2:
            return merc[b - 2]
        return bundle_value(w, r.n_yield[t, side, b])
    if kind == OPT_TAVERN:
        action = b
        v = -gnome_cost(s, r, p, w)
        if action == FORTUNE:
            v += avg
        elif action == FAVOUR:
            for i in range(s.n_dice):
                if not s.dice_spent[i]:
                    v += max(0.0, avg - slots[slot_of(s.dice[i])])
        elif action == TWO_COINS:
            v += r.two_coins_gain * w[W_COIN]
        elif action == BRAWL or action == MAGIC_CHALLENGE:
            v += contest_worth(s, r, p, w)
        return v
    if kind == OPT_SPELL:
        v = -cost_value(s, r, p, w, now, 0, r.spell_cost_mana, 0)
        if b == ABUNDANCE:
            v += avg
        elif b == GNOME_RECALL:
            v += w[W_GNOME]
        elif b == SUMMONING:
            v += merc[a]
        elif b == HEX:
            card = s.missions[a]
            if may_complete(s, r, p, a):
                v -= w[W_VP] * 0.5 * min(r.hex_penalty, mission_vp(s, r, a))
            v += w[W_ATTACK] * min(r.hex_penalty, mission_vp(s, r, a)) * 0.5
            if card < 0:
                v -= 100.0
        elif b == CURSE:
            if a == 0:
                v += r.curse_coins * w[W_COIN]
            else:
                k = COIN if (a - 1) % 2 == 0 else WEAPON
                v += r.curse_coins * w[W_COIN + k] * (1.0 + w[W_ATTACK])
        return v
    if kind == OPT_PALACE:
        return avg - cost_value(s, r, p, w, now, r.palace_pay_coin, 0, 0)
    if kind == OPT_DIE_CHANGE:
        d = b // 2
        new = (s.dice[d] + (1 if b % 2 == 0 else -1) - 1) % 6 + 1
        return slots[slot_of(new)] - slots[slot_of(s.dice[d])]
    if kind == OPT_REROLL:
        return avg - slots[slot_of(s.dice[b])]
    if kind == OPT_CONVERT:
        return w[W_COIN + b] - cost_value(s, r, p, w, now, convert_price(r, s.special_side[p, a]), 0, 0)
    if kind == OPT_INCOME:
        return bundle_value(w, r.s_income[s.special_side[p, a]])
    if kind == OPT_HIRE:
        price = r.trader_cost_coin if a == 0 else (r.wizard_cost if a == 1 else r.soldier_cost)
        return merc[a] - cost_value(
            s, r, p, w, now, price if b == 0 else 0, price if b == 1 else 0, price if b == 2 else 0)
    if kind == OPT_UPGRADE_NORMAL:
        future, pending = now[2], now[5]
        t = s.normal[p, a]
        gain = building_value(s, r, w, t, ADVANCED) - building_value(s, r, w, t, BASE)
        v = r.vp_advanced_normal * w[W_VP] + gain * (w[W_ENGINE] * future + pending[a])
        return v - cost_value(s, r, p, w, now, r.n_cost[t, 1, 0], r.n_cost[t, 1, 1], r.n_cost[t, 1, 2])
    if kind == OPT_UPGRADE_SPECIAL:
        future = now[2]
        t = s.special[p, a]
        v = (r.vp_advanced_special - r.vp_base_special) * w[W_VP] + \
            (effect_value(s, r, p, w, t, ADVANCED, avg) - effect_value(s, r, p, w, t, BASE, avg)) * \
            w[W_ENGINE] * future
        return v - cost_value(s, r, p, w, now, r.s_cost[t, 1, 0], r.s_cost[t, 1, 1], r.s_cost[t, 1, 2])
    if kind == OPT_MISSION:
        card = s.missions[a]
        side = 0 if a < 2 else 1
        c = r.m_cost[card, side]
        v = mission_vp(s, r, a) * w[W_VP] * (1.0 + w[W_MISSION]) + \
            bundle_value(w, r.m_reward[card, side, 1:])
        mercs = c[3] + c[4] + c[5] + c[6]
        return v - cost_value(s, r, p, w, now, c[0], c[1], c[2]) - mercs * w[W_MERC]
    return 0.0


@compiled(inline="always")
def card_value(s, r, p, w, kind, a, now):
    """What building card ``a`` (``kind``: OPT_BUILD_NORMAL or OPT_BUILD_SPECIAL) brings on any
    slot and what it costs: a Normal card's worth of a die on it; a Special card's points and
    its ability over the rounds left. A card is offered on each of the three slots in a row, so
    this is valued once for the three (``build_value`` adds what the slot loses)."""
    avg, left, future, _, _, _, _, _ = now
    if kind == OPT_BUILD_NORMAL:
        return building_value(s, r, w, a, BASE), cost_value(
            s, r, p, w, now, r.n_cost[a, 0, 0], r.n_cost[a, 0, 1], r.n_cost[a, 0, 2])
    worth = r.vp_base_special * w[W_VP] + effect_value(s, r, p, w, a, BASE, avg) * \
        (w[W_ENGINE] * future + (1.0 if left > 0 else 0.0))
    return worth, cost_value(s, r, p, w, now, r.s_cost[a, 0, 0], r.s_cost[a, 0, 1], r.s_cost[a, 0, 2])


@compiled(inline="always")
def build_value(s, r, p, w, kind, slot, worth, cost, now):
    """Worth of building a card on ``slot`` (its ``worth`` and ``cost``: ``card_value``),
    covering what stands there."""
    avg, _, future, _, _, pending, _, slots = now
    if kind == OPT_BUILD_NORMAL:
        old_t, old_side = s.normal[p, slot], s.normal_side[p, slot]
        v = (worth - slots[slot]) * (w[W_ENGINE] * future + pending[slot])
        if old_t >= FIRST_NORMAL_CARD and old_side == ADVANCED:
            v -= r.vp_advanced_normal * w[W_VP]
        return v - cost
    v = worth
    v -= replaced_special_loss(s, r, p, w, slot, future, avg)
    return v - cost


@compiled
def is_improver(kind, b):
    """Actions worth taking only before the dice are spent: more dice, changed dice."""
    if kind == OPT_DIE_CHANGE or kind == OPT_REROLL or kind == OPT_PALACE:
        return True
    if kind == OPT_TAVERN and (b == FORTUNE or b == FAVOUR):
        return True
    return kind == OPT_SPELL and b == ABUNDANCE


@compiled
def choose_option(s, r, p, plans, rng, opts, n, values):
    """The action ``p`` takes now: an index into ``opts[:n]``; ``values[:n]`` is filled with the
    worth of each (for the replay; none for the search player)."""
    sid = plans[0][p]
    if sid == LOOKAHEAD:
        for i in range(n):
            values[i] = 0.0
        return searched(DECIDE_ACTION, s, r, p, plans, rng, opts, n)
    if sid == EXPERT:
        for i in range(n):
            values[i] = 0.0
        return valued_choice(option_features(DECIDE_ACTION, s, r, p, opts, n), n, plans[1][p],
                             W_FIRST_VALUE)
    if sid == RANDOM:
        for i in range(n):
            values[i] = 0.0
        return below(rng, n)
    return heuristic_choice(s, r, p, weights_of(plans, p), rng, opts, n, values)


@compiled(inline="always")
def ranked(kind, b, v, w):
    """How a heuristic ranks an action it values ``v``: dice-changing actions first, then dice,
    then the best purchase worth more than nothing (-inf: never taken)."""
    if kind == OPT_DIE:
        return v + w[W_DIE_FIRST]
    if kind == OPT_END:
        return 0.0
    if v <= 0.0:
        return -np.inf
    if is_improver(kind, b):
        return v + IMPROVE_FIRST
    return v


@compiled
def heuristic_choice(s, r, p, w, rng, opts, n, values):
    """The action a heuristic of weights ``w`` (a tuple) takes: an index into ``opts[:n]``;
    ``values[:n]`` is filled with the worth of each, its noise drawn from ``rng``."""
    best = -1
    best_rank = -1e18
    now = decision_constants(s, r, p, w)
    card_kind, card, worth, cost = -1, -1, 0.0, 0.0   # the card last valued (card_value)
    for i in range(n):
        kind, a, b = opts[i, 0], opts[i, 1], opts[i, 2]
        if kind == OPT_BUILD_NORMAL or kind == OPT_BUILD_SPECIAL:
            if kind != card_kind or a != card:
                card_kind, card = kind, a
                worth, cost = card_value(s, r, p, w, kind, a, now)
            v = build_value(s, r, p, w, kind, b, worth, cost, now) + jitter(w[W_NOISE], rng)
        else:
            v = option_value(s, r, p, w, kind, a, b, now) + jitter(w[W_NOISE], rng)
        values[i] = v
        rank = ranked(kind, b, v, w)
        if rank > best_rank:
            best, best_rank = i, rank
    return best


@compiled
def choose_copy(s, r, q, p, plans, rng, got):
    """Whether ``q`` spends a gnome to copy the resources ``got`` that ``p`` just received."""
    sid = acting(plans, q)
    w = weights_of(plans, q)
    if sid == RANDOM:
        return below(rng, 2) == 0
    return bundle_value(w, got) * w[W_COPY] > gnome_cost(s, r, q, w) + jitter(w[W_NOISE], rng)


@compiled
def choose_rerolls(s, r, p, plans, rng):
    """Favour of the Gods: a bit mask of the unspent dice to re-roll."""
    sid = acting(plans, p)
    w = weights_of(plans, p)
    mask = 0
    if sid == RANDOM:
        for i in range(s.n_dice):
            if not s.dice_spent[i] and below(rng, 2) == 0:
                mask |= 1 << i
        return mask
    slots = slot_values(s, r, p, w)
    avg = average_die(slots)
    for i in range(s.n_dice):
        if not s.dice_spent[i] and slots[slot_of(s.dice[i])] < avg:
            mask |= 1 << i
    return mask


@compiled
def choose_keep(s, r, p, plans, rng, limit):
    """What to keep in the Warehouses: at most ``limit`` resources of the hand."""
    sid = acting(plans, p)
    w = weights_of(plans, p)
    k0, k1, k2 = 0, 0, 0
    h0, h1, h2 = s.res[p, 0], s.res[p, 1], s.res[p, 2]
    for _ in range(limit):
        if h0 + h1 + h2 <= 0:
            break
        if sid == RANDOM:  # a unit of the hand at random
            j = below(rng, h0 + h1 + h2)
            best = 0 if j < h0 else (1 if j < h0 + h1 else 2)
        else:  # the most valuable kind in hand
            best, best_v = 2, -1.0
            if h0 > 0 and w[W_COIN] > best_v:
                best, best_v = 0, w[W_COIN]
            if h1 > 0 and w[W_MANA] > best_v:
                best, best_v = 1, w[W_MANA]
            if h2 > 0 and w[W_WEAPON] > best_v:
                best = 2
        if best == 0:
            k0, h0 = k0 + 1, h0 - 1
        elif best == 1:
            k1, h1 = k1 + 1, h1 - 1
        else:
            k2, h2 = k2 + 1, h2 - 1
    return k0, k1, k2


@compiled
def contest_mercs(s, r, q, plans, rng, k, mine, counted, totals, free, price, max_hires):
    """Mercenaries of kind ``k`` that ``q`` spends in a contest: how many of those it holds, and
    how many it hires for the occasion (at most ``max_hires``, ``price`` Coins each, paid from the
    count's own ``free`` Coins first, then the Warehouses' Coins, then Traders: ``hire_funding``),
    knowing the totals counted so far (players count from the first player clockwise). A hire
    needs a card in the deck, or one of ``q``'s own spent first. Nothing of the contest is kept,
    so a hire the free Coins pay for costs nothing, and the player takes as many of those as
    help."""
    have = s.mercs[q, k]
    if have == 0 and max_hires == 0:
        return 0, 0
    sid = acting(plans, q)
    w = weights_of(plans, q)
    deck_open = s.merc_deck[k] > 0
    if sid == RANDOM:
        j = below(rng, have + 1) if have > 0 else 0
        h = 0
        if max_hires > 0 and (deck_open or j > 0):
            h = below(rng, max_hires + 1)
        return j, h
    pts = contest_points(r, s.n_players)
    best, best_h, best_v = 0, 0, -1e18
    y = r.mercenary_yield
    for h in range(max_hires + 1):
        cost = 0.0
        if h > 0:
            from_stored, traders = hire_funding(free, s.res[q, COIN], s.mercs[q, TRADER], y,
                                                price, h)
            if from_stored < 0:
                break
            cost = from_stored * w[W_COIN] + traders * w[W_MERC]
            if cost == 0.0:
                cost = -1e-6 * h  # free Coins: more never loses
        for j in range(have + 1):
            if h > 0 and j == 0 and not deck_open:
                continue
            total = mine + (j + h) * y
            beaten = 0.0
            for o in range(s.n_players):
                if o == q:
                    continue
                if counted[o]:
                    if totals[o] < total:
                        beaten += 1.0
                else:
                    beaten += 0.5 if total >= 3 else 0.25
            v = beaten * pts * w[W_VP] - j * w[W_MERC] - cost
            if v > best_v:
                best, best_h, best_v = j, h, v
    return best, best_h


# --- the expert's view of an action ------------------------------------------------------------

@compiled
def action_kind_features(s, r, p, kind, a, b, f):
    """Fill ``f`` (one action's row) with what kind of action it is, the points it gains at once
    and the resources it costs, as the rules count them."""
    paid = 0
    points = 0.0
    if kind == OPT_END:
        f[F_ENDS_TURN] = 1.0
    elif kind == OPT_DIE:
        f[F_SPENDS_DIE] = 1.0
    elif kind == OPT_TAVERN:
        if b == BRAWL or b == MAGIC_CHALLENGE:
            f[F_CONTEST_GNOME] = 1.0
        else:
            f[F_TAVERN_OTHER] = 1.0
    elif kind == OPT_SPELL:
        f[F_SPELL] = 1.0
        paid = r.spell_cost_mana
        if b == HEX or b == CURSE:
            f[F_ATTACK] = 1.0
    elif kind == OPT_PALACE:
        paid = r.palace_pay_coin
    elif kind == OPT_CONVERT:
        f[F_CONVERT_INCOME] = 1.0
        paid = convert_price(r, s.special_side[p, a])
    elif kind == OPT_INCOME:
        f[F_CONVERT_INCOME] = 1.0
    elif kind == OPT_HIRE:
        f[F_HIRE] = 1.0
        paid = r.trader_cost_coin if a == 0 else (r.wizard_cost if a == 1 else r.soldier_cost)
    elif kind == OPT_UPGRADE_NORMAL:
        f[F_UPGRADE] = 1.0
        t = s.normal[p, a]
        points = r.vp_advanced_normal
        paid = r.n_cost[t, 1, 0] + r.n_cost[t, 1, 1] + r.n_cost[t, 1, 2]
    elif kind == OPT_UPGRADE_SPECIAL:
        f[F_UPGRADE] = 1.0
        t = s.special[p, a]
        points = r.vp_advanced_special - r.vp_base_special
        paid = r.s_cost[t, 1, 0] + r.s_cost[t, 1, 1] + r.s_cost[t, 1, 2]
    elif kind == OPT_MISSION:
        f[F_MISSION] = 1.0
        c = r.m_cost[s.missions[a], 0 if a < 2 else 1]
        points = mission_vp(s, r, a)
        paid = c[0] + c[1] + c[2]
    elif kind == OPT_BUILD_NORMAL:
        f[F_BUILD_NORMAL] = 1.0
        paid = r.n_cost[a, 0, 0] + r.n_cost[a, 0, 1] + r.n_cost[a, 0, 2]
        if s.normal[p, b] >= FIRST_NORMAL_CARD and s.normal_side[p, b] == ADVANCED:
            points = -r.vp_advanced_normal  # the advanced building it covers
    elif kind == OPT_BUILD_SPECIAL:
        f[F_BUILD_SPECIAL] = 1.0
        paid = r.s_cost[a, 0, 0] + r.s_cost[a, 0, 1] + r.s_cost[a, 0, 2]
        points = r.vp_base_special - special_points(r, s.special[p, b], s.special_side[p, b])
    if kind == OPT_BUILD_NORMAL or kind == OPT_BUILD_SPECIAL or kind == OPT_UPGRADE_NORMAL or \
            kind == OPT_UPGRADE_SPECIAL:
        f[F_ROUNDS_LEFT] = rounds_after(s, r)
    if is_improver(kind, b):
        f[F_IMPROVES_DICE] = 1.0
    f[F_POINTS_NOW] = points
    f[F_RESOURCES_PAID] = paid


@compiled
def option_features(decision, s, r, p, options, n):
    """The features (``FEATURE_NAMES``) of each of the ``n`` actions of ``p``'s decision, one row
    each, from the table (all public) and never the decks' order."""
    f = np.zeros((n, N_FEATURES))
    if decision != DECIDE_ACTION:
        return f
    for i in range(n):
        action_kind_features(s, r, p, options[i, 0], options[i, 1], options[i, 2], f[i])
    values = np.zeros(n)
    no_draws = np.zeros(4, dtype=np.uint64)  # noise 0: the valuations below draw nothing
    balanced = to_fixed_tuple(BALANCED_WEIGHTS, N_WEIGHTS)
    heuristic_choice(s, r, p, balanced, no_draws, options, n, values)
    f[:, F_BALANCED_VALUE] = values
    for i in range(n):
        rank = ranked(options[i, 0], options[i, 2], values[i], balanced)
        if rank == -np.inf:
            f[i, F_BALANCED_SKIPS] = 1.0
        else:
            f[i, F_BALANCED_RANK] = rank
    return f
