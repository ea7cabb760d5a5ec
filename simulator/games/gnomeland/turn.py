"""Gnomeland, played by the rulebook: Setup, then five rounds of dice, turns and the end of the
round, then the End of the Game.

The functions follow the rulebook's order. ``s`` is one game's state (``board.STATE``), ``r`` the
rule numbers (``rules.toml``), ``rng`` the game's random stream, ``log`` the replay log (empty in
batch runs), and ``plans`` the seats' strategies that every decision is asked of.
"""

import numpy as np

from simulator.core.deck import draw, take_top
from simulator.core.jit import compiled
from simulator.core.rng import roll_die, shuffle
from simulator.core.trace import came_up, checking, found_broken, record, telling
from simulator.core.unfolding import decided, note_leader
from simulator.games.gnomeland import codes as L
from simulator.games.gnomeland import invariants
from simulator.games.gnomeland.board import (
    ADVANCED, BASE, BRAWL, COIN, COVERED, CURSE, EFFECT_CONVERT, EFFECT_DIE_UP, EFFECT_DIE_UP_DOWN,
    EFFECT_EXTRA_DIE, EFFECT_INCOME, EFFECT_PAID_DIE, EFFECT_REROLL, EMPTY, FAVOUR, HIRE_AND_SPEND,
    RESOURCES_DISCARDED,
    FIRST_NORMAL_CARD, FIRST_SPECIAL_CARD, FORTUNE, FROM_COPY, FROM_DICE, FROM_MERCENARY,
    FROM_MISSION, FROM_SPECIAL, FROM_SPELL, FROM_TAVERN, GNOME_HOUSE, GNOME_RECALL, GUARD_POST,
    HEX, IN_DECK, KIOSK, MAGIC_CHALLENGE, MANA, MAX_DICE, MAX_PLAYERS, M_ANY, M_TRADERS,
    N_ACTIONS, N_CARDS, N_MISSIONS, N_SPELLS, ON_BOARD, SOLDIER, SUMMONING, TRADER, TWO_COINS,
    WAREHOUSE, WEAPON, YES, ABUNDANCE, action_counts, circular, contest_points,
    convert_gives, convert_price, dice_left, final_score, building_points, has_alternative,
    has_gnome_house, has_merc_choice, hire_funding, keep_limit, may_complete,
    warehouses_of,
    mercenaries_per_deck, mission_vp, new_table, slot_of, special_effect, spell_counts,
    supply_start, yield_of,
)
from simulator.games.gnomeland.codes import (
    BY_ACTION, BY_BUILDING, BY_SPELL, OPT_BUILD_NORMAL, OPT_BUILD_SPECIAL, OPT_CONVERT, OPT_DIE,
    OPT_DIE_CHANGE, OPT_END, OPT_HIRE, OPT_INCOME, OPT_MISSION, OPT_PALACE, OPT_REROLL,
    OPT_SPELL, OPT_TAVERN, OPT_UPGRADE_NORMAL, OPT_UPGRADE_SPECIAL, SCORE_CONTEST, SCORE_MISSION,
)
from simulator.games.gnomeland.counted import (
    ACTION_RULES, CONTEST_POINTS_RULES, CONVERT_PRICE_RULES, HIRE_RULES, M_RULES, N_COST_RULES,
    N_YIELD_RULES, S_COST_RULES, S_INCOME_RULES, SPELL_RULES, SUPPLY_RULES, came_up_all,
)
from strategies import gnomeland as players

MAX_OPTIONS = 256


@compiled
def pack(c, m, w):
    return c + 10 * m + 100 * w


@compiled
def pack_wide(c, m, w):
    """A bundle for the replay log where a count may pass 9 (a hand, a payment, what is kept):
    three digits a resource."""
    return c + 1000 * m + 1000000 * w


@compiled
def keep_options(h0, h1, h2, limit):
    """The ways to keep ``limit`` resources (or the whole hand, if fewer) of a hand of ``h0``
    Coins, ``h1`` Mana and ``h2`` Weapons: how many choices ``choose_keep`` is among."""
    m = min(limit, h0 + h1 + h2)
    ways = 0
    for a in range(min(h0, m) + 1):
        for b in range(min(h1, m - a) + 1):
            if m - a - b <= h2:
                ways += 1
    return ways


# --- resources and the supply --------------------------------------------------------------------

@compiled
def take_from_supply(s, r, p, k, amount, log):
    """``amount`` of resource ``k`` from the supply, as far as it goes (a limited supply)."""
    if r.supply_limited == YES and amount > s.supply[k]:
        came_up(log, L.UP_SUPPLY_LIMITED)
        came_up(log, SUPPLY_RULES[k])
        short = amount - s.supply[k]
        s.supply_short[p] += short
        record(log, L.SUPPLY_SHORT, p, k, short)
        amount = s.supply[k]
    if r.supply_limited == YES:
        s.supply[k] -= amount
    return amount


@compiled
def supply_has(s, r, k):
    """Whether a gain of resource ``k`` would bring anything: an exchange that pays out from an
    empty supply (the Pier, Two Coins, a copy) gains nothing for its cost and is not offered."""
    return r.supply_limited != YES or s.supply[k] > 0


@compiled
def give_back(s, r, k, amount):
    if r.supply_limited == YES:
        s.supply[k] += amount


@compiled
def tell_supply(s, r, log):
    """The replay's supply counts, after an event that changed them (a limited supply only)."""
    if r.supply_limited == YES:
        record(log, L.SUPPLY, s.supply[0], s.supply[1], s.supply[2])


@compiled
def receive(s, r, p, k, amount, source, log):
    """``amount`` of resource ``k`` into ``p``'s hand, as far as the supply goes; returns what came."""
    if amount <= 0:
        return 0
    got = take_from_supply(s, r, p, k, amount, log)
    s.res[p, k] += got
    s.gained[p, source] += got
    s.gained_kind[p, k] += got
    return got


@compiled
def gain(s, r, p, bundle, source, log):
    """``p`` receives ``bundle`` (coin, mana, weapons) into hand; returns what came (a tuple:
    passed on by value, it costs no allocation)."""
    got = (receive(s, r, p, COIN, bundle[0], source, log),
           receive(s, r, p, MANA, bundle[1], source, log),
           receive(s, r, p, WEAPON, bundle[2], source, log))
    if source != FROM_DICE and got[0] + got[1] + got[2] > 0:
        record(log, L.GAIN, p, source, pack(got[0], got[1], got[2]))
        tell_supply(s, r, log)
    return got


@compiled
def gain_one(s, r, p, k, amount, source, log):
    return gain(s, r, p, (amount if k == COIN else 0, amount if k == MANA else 0,
                          amount if k == WEAPON else 0), source, log)


@compiled
def mercs_for(s, r, p, k, need, spare):
    """Mercenary cards of kind ``k`` that cover ``need`` more units of their resource, or -1
    when ``spare`` cards are not enough (or the supply cannot pay their resource)."""
    if need <= 0:
        return 0
    y = r.mercenary_yield
    if y <= 0:
        return -1
    cards = (need + y - 1) // y
    if cards > spare:
        return -1
    return cards


@compiled(inline="always")  # asked many times per option list: no call
def payable3(s, r, p, c0, c1, c2):
    """Whether ``p`` can pay the cost (coin ``c0``, mana ``c1``, weapons ``c2``) from hand,
    discarding Mercenaries for what the hand lacks. A Mercenary's resource comes from the
    supply as it stands before the payment (the card is discarded to get the resource, then the
    cost is paid: ``pay``), so a limited supply must hold what the hand lacks. (Three numbers,
    no array: the option list asks this hundreds of times a turn.)"""
    if c0 <= s.res[p, 0] and c1 <= s.res[p, 1] and c2 <= s.res[p, 2]:
        return True
    for k in range(3):
        c = c0 if k == 0 else (c1 if k == 1 else c2)
        have = s.res[p, k]
        need = c - have
        if need > 0:
            if mercs_for(s, r, p, k, need, s.mercs[p, k]) < 0:
                return False
            if r.supply_limited == YES and s.supply[k] < need:
                return False
    return True


@compiled
def pay(s, r, p, c0, c1, c2, log):
    """Pay the cost (coin ``c0``, mana ``c1``, weapons ``c2``): Mercenaries are discarded (back
    to their deck) for their resource from the supply as far as the hand lacks it, then the cost
    is paid from hand; a limited supply pays a Mercenary's resource only while it has the cube
    (``payable3``). Returns the Mercenaries discarded."""
    discarded = 0
    by_kind = 0  # the cards discarded, packed by kind (no array: pay is called often)
    for k in range(3):
        c = c0 if k == 0 else (c1 if k == 1 else c2)
        while s.res[p, k] < c:
            s.mercs[p, k] -= 1
            s.merc_deck[k] += 1
            by_kind += pack(1 if k == 0 else 0, 1 if k == 1 else 0, 1 if k == 2 else 0)
            discarded += 1
            came_up(log, L.UP_MERCENARY_YIELD)
            gain_one(s, r, p, k, r.mercenary_yield, FROM_MERCENARY, log)
    # every Mercenary's gain before any cube goes back: the supply each gain tells is then the
    # supply before the payment the pay event tells (a kind's cubes never pay another's gain)
    for k in range(3):
        c = c0 if k == 0 else (c1 if k == 1 else c2)
        s.res[p, k] -= c
        s.stored[p, k] -= min(c, s.stored[p, k])  # what the Warehouses hold goes first
        give_back(s, r, k, c)
    if c0 + c1 + c2 > 0:
        record(log, L.PAY, p, pack_wide(c0, c1, c2), discarded, by_kind)
        tell_supply(s, r, log)
    return discarded


@compiled
def add_points(s, p, vp, why, log):
    """Move ``p``'s score marker; the clock records who reached a space first."""
    if vp <= 0:
        return
    s.score[p] += vp
    s.clock += 1
    s.reached[p] = s.clock
    if why == SCORE_MISSION:
        s.vp_missions[p] += vp
    else:
        s.vp_contests[p] += vp
    record(log, L.SCORE, p, vp, why, s.score[p])


# --- Setup ---------------------------------------------------------------------------------------

@compiled
def draw_action(s, rng, log):
    """The top Action card; an empty deck is refilled from the used ones, shuffled (-1: none)."""
    card, s.action_deck_n, s.action_used_n, shuffled = draw(
        rng, s.action_deck, s.action_deck_n, s.action_used, s.action_used_n)
    if shuffled:
        s.action_reshuffles += 1
        record(log, L.ACTION_RESHUFFLE, shuffled)
    if card >= 0:
        came_up(log, ACTION_RULES[card])
    return card


@compiled
def draw_spell(s, log):
    s.spell, s.spell_deck_n = take_top(s.spell_deck, s.spell_deck_n)
    if s.spell >= 0:
        came_up(log, SPELL_RULES[s.spell])
    record(log, L.SPELL_CARD, s.spell)


@compiled
def draw_mission(s, space, log):
    s.missions[space], s.mission_deck_n = take_top(s.mission_deck, s.mission_deck_n)
    s.hexes[space] = 0
    record(log, L.MISSION_DRAWN, space, s.missions[space])


@compiled
def new_game(r, n_players, plans, rng, log):
    """A game set up by the rulebook's Setup."""
    table = new_table()
    s = table[0]
    s.n_players = n_players
    s.current = -1
    for k in range(3):
        s.supply[k] = supply_start(r, k)
        s.merc_deck[k] = mercenaries_per_deck(r, n_players)
    # the Mission deck, two Base missions on the board
    for i in range(N_MISSIONS):
        s.mission_deck[i] = i
    s.mission_deck_n = N_MISSIONS
    shuffle(rng, s.mission_deck, N_MISSIONS)
    s.missions[:] = -1
    draw_mission(s, 0, log)
    draw_mission(s, 1, log)
    # the Tavern: two face-up Action cards
    n = 0
    counts = action_counts(r)
    for a in range(N_ACTIONS):
        for _ in range(counts[a]):
            s.action_deck[n] = a
            n += 1
    s.action_deck_n = n
    shuffle(rng, s.action_deck, n)
    for slot in range(2):
        s.tavern[slot] = draw_action(s, rng, log)
        record(log, L.TAVERN_CARD, slot, s.tavern[slot])
    # the Wizard's Tower: one Spell
    n = 0
    counts = spell_counts(r)
    for a in range(N_SPELLS):
        for _ in range(counts[a]):
            s.spell_deck[n] = a
            n += 1
    s.spell_deck_n = n
    shuffle(rng, s.spell_deck, n)
    draw_spell(s, log)
    # the Village boards: two Kiosks and a Guard Post; two Warehouses and the Gnome House
    for p in range(n_players):
        s.normal[p, 0] = KIOSK
        s.normal[p, 1] = KIOSK
        s.normal[p, 2] = GUARD_POST
        for k in range(3):
            s.special[p, k] = EMPTY
        for k in range(min(r.warehouses, 2)):
            s.special[p, k] = WAREHOUSE
        s.special[p, 2] = GNOME_HOUSE
        s.gnomes_home[p] = r.gnomes_per_player
    # first player: the highest roll of three dice, ties re-rolled
    tied = np.ones(MAX_PLAYERS, dtype=np.int64)
    while True:
        best = -1
        totals = np.zeros(MAX_PLAYERS, dtype=np.int64)
        for p in range(n_players):
            if tied[p]:
                for _ in range(r.dice_per_player):
                    totals[p] += roll_die(rng)
                record(log, L.FIRST_ROLL, p, totals[p])
                best = max(best, totals[p])
        count = 0
        for p in range(n_players):
            tied[p] = 1 if tied[p] and totals[p] == best else 0
            count += tied[p]
        if count == 1:
            break
    for p in range(n_players):
        if tied[p]:
            s.first_player = p
    s.first_seat = s.first_player
    return table


# --- dice ------------------------------------------------------------------------------------------

@compiled
def neutral_in_hand(s):
    n = 0
    for i in range(s.n_dice):
        if s.dice_neutral[i] and not s.dice_spent[i]:
            n += 1
    return n


@compiled
def neutral_available(s, r):
    """A neutral die is in the common pool (FAQ Q2: spent ones go back) and the hand has room."""
    return neutral_in_hand(s) < r.neutral_dice and s.n_dice < MAX_DICE


@compiled
def add_neutral_die(s, r, rng, log, p, why):
    came_up(log, L.UP_NEUTRAL_DICE)
    v = roll_die(rng)
    s.dice[s.n_dice] = v
    s.dice_spent[s.n_dice] = 0
    s.dice_neutral[s.n_dice] = 1
    s.n_dice += 1
    record(log, L.EXTRA_DIE, p, v, why, s.n_dice - 1)


@compiled
def free_dice(s, r, rng, log, p):
    """Castle and Temple: one more die in the turn, rolled as soon as the building stands."""
    for k in range(3):
        t = s.special[p, k]
        if t >= FIRST_SPECIAL_CARD and not s.special_used[p, k] and \
                special_effect(t, s.special_side[p, k]) == EFFECT_EXTRA_DIE:
            s.special_used[p, k] = 1
            if neutral_available(s, r):
                add_neutral_die(s, r, rng, log, p, BY_BUILDING)
            else:
                came_up(log, L.UP_NEUTRAL_DICE)
                record(log, L.NO_NEUTRAL_DIE, p, t)


# --- copying ---------------------------------------------------------------------------------------

@compiled
def offer_copies(s, r, plans, rng, log, p, got):
    """Using Gnomes Outside Your Own Turn: each other player clockwise may spend a gnome for the
    same resources, kept beside their board until their next turn (no Warehouse limit)."""
    if got[0] + got[1] + got[2] == 0:
        return
    n = s.n_players
    for i in range(1, n):
        q = (p + i) % n
        if s.gnomes_home[q] == 0:
            record(log, L.COPY_DECLINED, q, p, 1)
            continue
        if not ((got[0] > 0 and supply_has(s, r, COIN)) or (got[1] > 0 and supply_has(s, r, MANA))
                or (got[2] > 0 and supply_has(s, r, WEAPON))):
            came_up(log, L.UP_SUPPLY_LIMITED)
            record(log, L.COPY_DECLINED, q, p, 2)  # the supply has none of it: no copy offered
            continue
        decided(s, 2)
        if not players.choose_copy(s, r, q, p, plans, rng, got):
            record(log, L.COPY_DECLINED, q, p, 0)
            continue
        s.gnomes_home[q] -= 1
        s.gnomes_out[q] += 1
        s.copies[q] += 1
        s.copied_from[p] += 1
        came = np.zeros(3, dtype=np.int64)
        for k in range(3):
            if got[k] > 0:
                came[k] = take_from_supply(s, r, q, k, got[k], log)
                s.copied[q, k] += came[k]
                s.gained[q, FROM_COPY] += came[k]
                s.gained_kind[q, k] += came[k]
        record(log, L.COPY, q, p, pack(came[0], came[1], came[2]), s.gnomes_home[q])
        tell_supply(s, r, log)


# --- the turn's actions ----------------------------------------------------------------------------

@compiled
def spend_die(s, r, plans, rng, log, p, d, alt):
    """Spend die ``d`` on the Normal Building of its pair (alternative ``alt``; 2 + kind: the
    Hotel's Mercenary); the other players may copy the resources."""
    s.dice_spent[d] = 1
    s.dice_used[p] += 1
    slot = slot_of(s.dice[d])
    t = s.normal[p, slot]
    side = s.normal_side[p, slot]
    came_up_all(log, N_YIELD_RULES[t, side])  # its yield, the other side of a '/', a Mercenary
    # the DIE record's alternative and the die's index share a field (alt < 10): record has six
    if alt >= 2:
        kind = alt - 2
        s.merc_deck[kind] -= 1
        s.mercs[p, kind] += 1
        record(log, L.DIE, p, s.dice[d], slot, alt + 10 * d, 0, t * 2 + side)
        record(log, L.MERCENARY, p, kind, 0)
        return
    got = gain(s, r, p, yield_of(s, r, p, slot, alt), FROM_DICE, log)
    record(log, L.DIE, p, s.dice[d], slot, alt + 10 * d, pack(got[0], got[1], got[2]), t * 2 + side)
    if got[0] + got[1] + got[2] > 0:
        tell_supply(s, r, log)
    offer_copies(s, r, plans, rng, log, p, got)


@compiled
def place_card(s, r, log, p, kind, card, slot):
    """Build: the card covers what stands on the slot; markers on it are discarded."""
    if kind == 0:
        old, old_side = s.normal[p, slot], s.normal_side[p, slot]
        if old >= FIRST_NORMAL_CARD:
            s.deck_at[p, 0, old - FIRST_NORMAL_CARD] = COVERED
        s.normal[p, slot] = card
        s.normal_side[p, slot] = BASE
        s.deck_at[p, 0, card - FIRST_NORMAL_CARD] = ON_BOARD
        s.card_level[p, 0, card - FIRST_NORMAL_CARD] = max(1, s.card_level[p, 0, card - FIRST_NORMAL_CARD])
    else:
        old, old_side = s.special[p, slot], s.special_side[p, slot]
        if old >= FIRST_SPECIAL_CARD:
            s.deck_at[p, 1, old - FIRST_SPECIAL_CARD] = COVERED
        if old == GNOME_HOUSE and s.gnomes_home[p] > 0:
            record(log, L.GNOMES_DISCARDED, p, s.gnomes_home[p])
            s.gnomes_lost[p] += s.gnomes_home[p]
            s.gnomes_out[p] += s.gnomes_home[p]
            s.gnomes_home[p] = 0
        s.special[p, slot] = card
        s.special_side[p, slot] = BASE
        s.special_used[p, slot] = 0
        s.deck_at[p, 1, card - FIRST_SPECIAL_CARD] = ON_BOARD
        s.card_level[p, 1, card - FIRST_SPECIAL_CARD] = max(1, s.card_level[p, 1, card - FIRST_SPECIAL_CARD])
    s.built[p, kind] += 1
    record(log, L.BUILD, p, kind, card, slot, old, old_side if old >= 0 else 0)


@compiled
def cover_warehouse(s, r, plans, rng, log, p, slot):
    """A Warehouse about to be covered (covered_warehouse = resources_discarded): the resources
    kept on the Warehouses since the last turn and not yet spent lose their place where the
    others cannot hold them, and are discarded ('any marker ... placed on them is immediately
    discarded'). The player covers the emptiest Warehouse; their strategy chooses, as at the
    end of a turn, which of the kept resources stay."""
    if s.special[p, slot] != WAREHOUSE:
        return
    came_up(log, L.UP_COVERED_WAREHOUSE)
    if r.covered_warehouse != RESOURCES_DISCARDED:
        return
    on = s.stored[p, 0] + s.stored[p, 1] + s.stored[p, 2]
    if on > 0:
        came_up(log, L.UP_WAREHOUSE_CAPACITY)
    room = (warehouses_of(s, p) - 1) * r.warehouse_capacity
    if on <= room:
        return
    hand = (s.res[p, 0], s.res[p, 1], s.res[p, 2])
    for k in range(3):  # the strategy chooses among the kept resources only
        s.res[p, k] = s.stored[p, k]
    decided(s, keep_options(s.res[p, 0], s.res[p, 1], s.res[p, 2], room))
    keep = players.choose_keep(s, r, p, plans, rng, room)
    lost = 0
    drops = np.zeros(3, dtype=np.int64)
    for k in range(3):
        drops[k] = s.stored[p, k] - keep[k]
        s.res[p, k] = hand[k] - drops[k]
        s.stored[p, k] = keep[k]
        give_back(s, r, k, drops[k])
        lost += drops[k]
    s.lost[p] += lost
    record(log, L.WAREHOUSE_DISCARDED, p, slot, pack_wide(drops[0], drops[1], drops[2]))
    tell_supply(s, r, log)


@compiled
def mission_cost(s, r, space):
    card = s.missions[space]
    return r.m_cost[card, 0 if space < 2 else 1]


@compiled
def mission_payable(s, r, p, space):
    """Resources and Mercenaries: the named kinds first, then any kind, then the resources
    (Mercenaries not otherwise needed may be discarded for what the hand lacks)."""
    card = s.missions[space]
    side = 0 if space < 2 else 1
    spare = 0
    for k in range(3):
        named = r.m_cost[card, side, M_TRADERS + k]
        if named > s.mercs[p, k]:
            return False
        c = r.m_cost[card, side, k]
        have = s.res[p, k]
        need = c - have
        used = mercs_for(s, r, p, k, need, s.mercs[p, k] - named)
        if used < 0:
            return False
        if need > 0 and r.supply_limited == YES and s.supply[k] < need:
            return False
        spare += s.mercs[p, k] - named - used
    return spare >= r.m_cost[card, side, M_ANY]


@compiled
def complete_mission(s, r, log, p, space):
    card = s.missions[space]
    side = 0 if space < 2 else 1
    c = mission_cost(s, r, space)
    vp = mission_vp(s, r, space)
    hexed = r.m_reward[card, side, 0] - vp
    came_up_all(log, M_RULES[card, side])
    if s.hexes[space] > 0:
        came_up(log, L.UP_HEX_PENALTY)
    handed = np.zeros(3, dtype=np.int64)  # Mercenaries handed in, by kind
    for k in range(3):  # the named Mercenaries
        for _ in range(c[M_TRADERS + k]):
            s.mercs[p, k] -= 1
            s.merc_deck[k] += 1
            handed[k] += 1
    # any kind: those the resource payment will not need, the most plentiful first
    for _ in range(c[M_ANY]):
        best = -1
        best_spare = 0
        for k in range(3):
            need = max(0, c[k] - s.res[p, k])
            spare = s.mercs[p, k] - mercs_for(s, r, p, k, need, s.mercs[p, k])
            if spare > best_spare:
                best, best_spare = k, spare
        s.mercs[p, best] -= 1
        s.merc_deck[best] += 1
        handed[best] += 1
    if handed[0] + handed[1] + handed[2] > 0:
        record(log, L.MISSION_MERCENARIES, p, pack(handed[0], handed[1], handed[2]), space)
    pay(s, r, p, c[0], c[1], c[2], log)
    s.done[p, card, side] = 1
    s.missions_done[p] += 1
    s.vp_by_mission[p, card] += vp
    record(log, L.MISSION, p, space, card, side, vp, hexed)
    add_points(s, p, vp, SCORE_MISSION, log)
    gain(s, r, p, r.m_reward[card, side, 1:], FROM_MISSION, log)


@compiled
def hire_price(r, kind):
    if kind == TRADER:
        return r.trader_cost_coin
    if kind == SOLDIER:
        return r.soldier_cost
    return r.wizard_cost


@compiled
def take_mercenary(s, log, p, kind, why):
    s.merc_deck[kind] -= 1
    s.mercs[p, kind] += 1
    record(log, L.MERCENARY, p, kind, why)


@compiled
def cast_spell(s, r, plans, rng, log, p, variant):
    """Cast a Spell: the Magic marker on the card (Hex: on a mission), pay 1 Mana, its effect."""
    spell = s.spell
    came_up(log, L.UP_SPELL_COST_MANA)
    pay(s, r, p, 0, r.spell_cost_mana, 0, log)
    s.magic[p] = 1
    s.cast[p, spell] += 1
    record(log, L.SPELL, p, spell, variant)
    if spell == ABUNDANCE:
        add_neutral_die(s, r, rng, log, p, BY_SPELL)
    elif spell == GNOME_RECALL:
        s.gnomes_out[p] -= 1
        s.gnomes_home[p] += 1
        s.gnomes_recalled[p] += 1
        record(log, L.RECALL, p, s.gnomes_home[p])
    elif spell == SUMMONING:
        take_mercenary(s, log, p, variant, 1)
    elif spell == HEX:
        came_up(log, L.UP_HEX_PENALTY)
        s.hexes[variant] += 1
        record(log, L.HEX, p, variant, mission_vp(s, r, variant))
    elif spell == CURSE:
        came_up(log, L.UP_CURSE_COINS)
        if variant == 0:
            got = gain_one(s, r, p, COIN, r.curse_coins, FROM_SPELL, log)
            record(log, L.CURSE, p, -1, COIN, got[0])
        else:
            q = (variant - 1) // 2
            k = COIN if (variant - 1) % 2 == 0 else WEAPON
            amount = min(r.curse_coins, s.res[q, k])
            s.res[q, k] -= amount
            s.res[p, k] += amount
            s.gained[p, FROM_SPELL] += amount
            s.gained_kind[p, k] += amount
            record(log, L.CURSE, p, q, k, amount)


@compiled
def use_tavern(s, r, plans, rng, log, p, slot):
    """Activate an Action card: a gnome from the Village board on it, and its benefit."""
    action = s.tavern[slot]
    s.gnomes_home[p] -= 1
    s.gnomes_tavern[p] += 1
    s.tavern_gnomes[slot, p] += 1
    s.tavern_done = 1
    s.tavern_used[p, action] += 1
    record(log, L.TAVERN, p, slot, action)
    if action == FORTUNE:
        add_neutral_die(s, r, rng, log, p, BY_ACTION)
    elif action == FAVOUR:
        decided(s, 1 << dice_left(s))  # any set of the unspent dice
        mask = players.choose_rerolls(s, r, p, plans, rng)
        for i in range(s.n_dice):
            if not s.dice_spent[i] and (mask >> i) & 1:
                old = s.dice[i]
                s.dice[i] = roll_die(rng)
                record(log, L.REROLL, p, i, old, s.dice[i], BY_ACTION)
    elif action == TWO_COINS:
        came_up(log, L.UP_TWO_COINS_GAIN)
        gain_one(s, r, p, COIN, r.two_coins_gain, FROM_TAVERN, log)
    # Brawl and Magic Challenge act at the end of the round


@compiled
def use_special(s, r, rng, log, p, kind, slot, b):
    """A Special Building's once-per-turn ability."""
    t = s.special[p, slot]
    side = s.special_side[p, slot]
    s.special_used[p, slot] = 1
    if kind == OPT_PALACE:
        came_up(log, L.UP_PALACE_PAY_COIN)
        pay(s, r, p, r.palace_pay_coin, 0, 0, log)
        record(log, L.SPECIAL, p, t, side, 0)
        add_neutral_die(s, r, rng, log, p, BY_BUILDING)
    elif kind == OPT_DIE_CHANGE:
        d = b // 2
        old = s.dice[d]
        s.dice[d] = circular(old + (1 if b % 2 == 0 else -1))
        record(log, L.DIE_CHANGE, p, d, old, s.dice[d], t, side)
    elif kind == OPT_REROLL:
        old = s.dice[b]
        s.dice[b] = roll_die(rng)
        record(log, L.REROLL, p, b, old, s.dice[b], BY_BUILDING)
    elif kind == OPT_CONVERT:
        came_up(log, CONVERT_PRICE_RULES[side])
        pay(s, r, p, convert_price(r, side), 0, 0, log)
        got = gain_one(s, r, p, b, 1, FROM_SPECIAL, log)
        record(log, L.SPECIAL, p, t, side, pack(got[0], got[1], got[2]))
    elif kind == OPT_INCOME:
        came_up_all(log, S_INCOME_RULES[side])
        got = gain(s, r, p, r.s_income[side], FROM_SPECIAL, log)
        record(log, L.SPECIAL, p, t, side, pack(got[0], got[1], got[2]))


# --- the choices a turn offers ---------------------------------------------------------------------

@compiled
def add_option(opts, n, kind, a, b, cost):
    opts[n, 0] = kind
    opts[n, 1] = a
    opts[n, 2] = b
    opts[n, 3] = cost
    return n + 1


@compiled
def first_of_value(s, d):
    """Whether die ``d`` is the first unspent die of its value (same-valued dice are one choice)."""
    for i in range(d):
        if not s.dice_spent[i] and s.dice[i] == s.dice[d]:
            return False
    return True


@compiled
def list_options(s, r, p, opts):
    """Every action ``p`` may take now (``opts`` rows: kind, a, b, packed cost); returns how many.
    Ending the turn is allowed once every die is spent."""
    n = 0
    left = dice_left(s)
    if left == 0:
        n = add_option(opts, n, OPT_END, 0, 0, 0)
    for d in range(s.n_dice):
        if s.dice_spent[d] or not first_of_value(s, d):
            continue
        slot = slot_of(s.dice[d])
        n = add_option(opts, n, OPT_DIE, d, 0, 0)
        if has_alternative(s, r, p, slot):
            n = add_option(opts, n, OPT_DIE, d, 1, 0)
        if has_merc_choice(s, r, p, slot):
            for k in range(3):
                if s.merc_deck[k] > 0:
                    n = add_option(opts, n, OPT_DIE, d, 2 + k, 0)
    if not s.tavern_done and s.gnomes_home[p] > 0 and has_gnome_house(s, p):
        for slot in range(2):
            a = s.tavern[slot]
            if a < 0:
                continue
            if a == FORTUNE and not neutral_available(s, r):
                continue
            if a == FAVOUR and left == 0:
                continue
            if a == TWO_COINS and not supply_has(s, r, COIN):
                continue
            n = add_option(opts, n, OPT_TAVERN, slot, a, 0)
    if s.magic[p] == 0 and s.spell >= 0 and payable3(s, r, p, 0, r.spell_cost_mana, 0):
        cost = pack(0, r.spell_cost_mana, 0)
        sp = s.spell
        if sp == ABUNDANCE and neutral_available(s, r):
            n = add_option(opts, n, OPT_SPELL, 0, sp, cost)
        elif sp == GNOME_RECALL and s.gnomes_out[p] > 0 and has_gnome_house(s, p):
            n = add_option(opts, n, OPT_SPELL, 0, sp, cost)   # Q6: not with every gnome
        elif sp == SUMMONING:
            for k in range(3):
                if s.merc_deck[k] > 0:
                    n = add_option(opts, n, OPT_SPELL, k, sp, cost)
        elif sp == HEX:
            for space in range(4):
                if s.missions[space] >= 0:
                    n = add_option(opts, n, OPT_SPELL, space, sp, cost)
        elif sp == CURSE:
            if supply_has(s, r, COIN):
                n = add_option(opts, n, OPT_SPELL, 0, sp, cost)
            for q in range(s.n_players):
                if q != p:
                    if s.res[q, COIN] > 0:
                        n = add_option(opts, n, OPT_SPELL, 1 + 2 * q, sp, cost)
                    if s.res[q, WEAPON] > 0:
                        n = add_option(opts, n, OPT_SPELL, 2 + 2 * q, sp, cost)
    for slot in range(3):
        t = s.special[p, slot]
        if t < FIRST_SPECIAL_CARD or s.special_used[p, slot]:
            continue
        side = s.special_side[p, slot]
        e = special_effect(t, side)
        if e == EFFECT_CONVERT:
            price = convert_price(r, side)
            if payable3(s, r, p, price, 0, 0):
                for k in range(3):
                    if convert_gives(side, k) and supply_has(s, r, k):
                        n = add_option(opts, n, OPT_CONVERT, slot, k, price)
        elif e == EFFECT_INCOME:
            n = add_option(opts, n, OPT_INCOME, slot, 0, 0)
        elif e == EFFECT_PAID_DIE:
            if neutral_available(s, r) and payable3(s, r, p, r.palace_pay_coin, 0, 0):
                n = add_option(opts, n, OPT_PALACE, slot, 0, r.palace_pay_coin)
        elif e == EFFECT_DIE_UP or e == EFFECT_DIE_UP_DOWN or e == EFFECT_REROLL:
            for d in range(s.n_dice):
                if s.dice_spent[d] or not first_of_value(s, d):
                    continue
                if e == EFFECT_REROLL:
                    n = add_option(opts, n, OPT_REROLL, slot, d, 0)
                else:
                    n = add_option(opts, n, OPT_DIE_CHANGE, slot, 2 * d, 0)
                    if e == EFFECT_DIE_UP_DOWN:
                        n = add_option(opts, n, OPT_DIE_CHANGE, slot, 2 * d + 1, 0)
    for kind in range(3):
        if s.merc_deck[kind] == 0:
            continue
        price = hire_price(r, kind)
        for k in range(3):
            # a Trader is paid in Coins; a Soldier in Coins or Weapons; a Wizard in Coins or Mana
            if k != COIN and k != kind:
                continue
            c0 = price if k == 0 else 0
            c1 = price if k == 1 else 0
            c2 = price if k == 2 else 0
            if payable3(s, r, p, c0, c1, c2):
                n = add_option(opts, n, OPT_HIRE, kind, k, pack(c0, c1, c2))
    for kind in range(2):
        first = FIRST_NORMAL_CARD if kind == 0 else FIRST_SPECIAL_CARD
        for i in range(N_CARDS):
            if s.deck_at[p, kind, i] != IN_DECK:
                continue
            if kind == 0:
                c0, c1, c2 = r.n_cost[first + i, 0, 0], r.n_cost[first + i, 0, 1], r.n_cost[first + i, 0, 2]
            else:
                c0, c1, c2 = r.s_cost[first + i, 0, 0], r.s_cost[first + i, 0, 1], r.s_cost[first + i, 0, 2]
            if not payable3(s, r, p, c0, c1, c2):
                continue
            for slot in range(3):
                n = add_option(opts, n, OPT_BUILD_NORMAL if kind == 0 else OPT_BUILD_SPECIAL,
                               first + i, slot, pack(c0, c1, c2))
    for slot in range(3):
        t = s.normal[p, slot]
        if t >= FIRST_NORMAL_CARD and s.normal_side[p, slot] == BASE:
            if payable3(s, r, p, r.n_cost[t, 1, 0], r.n_cost[t, 1, 1], r.n_cost[t, 1, 2]):
                n = add_option(opts, n, OPT_UPGRADE_NORMAL, slot, t,
                               pack(r.n_cost[t, 1, 0], r.n_cost[t, 1, 1], r.n_cost[t, 1, 2]))
        t = s.special[p, slot]
        if t >= FIRST_SPECIAL_CARD and s.special_side[p, slot] == BASE:
            if payable3(s, r, p, r.s_cost[t, 1, 0], r.s_cost[t, 1, 1], r.s_cost[t, 1, 2]):
                n = add_option(opts, n, OPT_UPGRADE_SPECIAL, slot, t,
                               pack(r.s_cost[t, 1, 0], r.s_cost[t, 1, 1], r.s_cost[t, 1, 2]))
    for space in range(4):
        if may_complete(s, r, p, space) and mission_payable(s, r, p, space):
            card, side = s.missions[space], 0 if space < 2 else 1
            mercs = r.m_cost[card, side, 3] + r.m_cost[card, side, 4] + \
                r.m_cost[card, side, 5] + r.m_cost[card, side, 6]
            n = add_option(opts, n, OPT_MISSION, space, card,
                           pack(r.m_cost[card, side, 0], r.m_cost[card, side, 1],
                                r.m_cost[card, side, 2]) + 1000 * mercs)
    return n


@compiled
def apply_option(s, r, plans, rng, log, p, kind, a, b):
    if kind == OPT_DIE:
        spend_die(s, r, plans, rng, log, p, a, b)
    elif kind == OPT_TAVERN:
        use_tavern(s, r, plans, rng, log, p, a)
    elif kind == OPT_SPELL:
        cast_spell(s, r, plans, rng, log, p, a)
    elif kind == OPT_PALACE or kind == OPT_DIE_CHANGE or kind == OPT_REROLL or \
            kind == OPT_CONVERT or kind == OPT_INCOME:
        use_special(s, r, rng, log, p, kind, a, b)
    elif kind == OPT_HIRE:
        came_up(log, HIRE_RULES[a])
        price = hire_price(r, a)
        pay(s, r, p, price if b == COIN else 0, price if b == MANA else 0,
            price if b == WEAPON else 0, log)
        s.hired[p] += 1
        record(log, L.HIRE, p, a, price, b)
        take_mercenary(s, log, p, a, 3)
    elif kind == OPT_BUILD_NORMAL:
        came_up_all(log, N_COST_RULES[a, 0])
        pay(s, r, p, r.n_cost[a, 0, 0], r.n_cost[a, 0, 1], r.n_cost[a, 0, 2], log)
        place_card(s, r, log, p, 0, a, b)
    elif kind == OPT_BUILD_SPECIAL:
        came_up_all(log, S_COST_RULES[a, 0])
        pay(s, r, p, r.s_cost[a, 0, 0], r.s_cost[a, 0, 1], r.s_cost[a, 0, 2], log)
        cover_warehouse(s, r, plans, rng, log, p, b)
        place_card(s, r, log, p, 1, a, b)
        free_dice(s, r, rng, log, p)
    elif kind == OPT_UPGRADE_NORMAL:
        t = s.normal[p, a]
        came_up_all(log, N_COST_RULES[t, 1])
        pay(s, r, p, r.n_cost[t, 1, 0], r.n_cost[t, 1, 1], r.n_cost[t, 1, 2], log)
        s.normal_side[p, a] = ADVANCED
        s.upgraded[p, 0] += 1
        s.card_level[p, 0, t - FIRST_NORMAL_CARD] = 2
        record(log, L.UPGRADE, p, 0, a, t)
    elif kind == OPT_UPGRADE_SPECIAL:
        t = s.special[p, a]
        came_up_all(log, S_COST_RULES[t, 1])
        pay(s, r, p, r.s_cost[t, 1, 0], r.s_cost[t, 1, 1], r.s_cost[t, 1, 2], log)
        s.special_side[p, a] = ADVANCED
        s.upgraded[p, 1] += 1
        s.card_level[p, 1, t - FIRST_SPECIAL_CARD] = 2
        record(log, L.UPGRADE, p, 1, a, t)
        free_dice(s, r, rng, log, p)
    elif kind == OPT_MISSION:
        complete_mission(s, r, log, p, a)


@compiled
def log_options(log, opts, n, values, chosen):
    if not telling(log):
        return
    for i in range(n):
        v = min(999, max(0, int(round((values[i] + 50.0) * 10.0))))
        record(log, L.OPTION, 1 if i == chosen else 0, i, opts[i, 0], opts[i, 1], opts[i, 2],
               opts[i, 3] * 1000 + v)


@compiled
def start_turn(s, r, rng, log, p):
    """The start of ``p``'s turn: the Warehouses' and the copied resources into hand, the dice
    rolled for the round, once-per-turn abilities ready, the Castle's or Temple's die."""
    s.current = p
    s.turns += 1
    s.steps = 0
    record(log, L.TURN, p)
    stored = pack_wide(s.res[p, 0], s.res[p, 1], s.res[p, 2])
    copied = pack_wide(s.copied[p, 0], s.copied[p, 1], s.copied[p, 2])
    for k in range(3):
        s.stored[p, k] = s.res[p, k]
        s.res[p, k] += s.copied[p, k]
        s.copied[p, k] = 0
    record(log, L.HAND, p, stored, copied)
    s.n_dice = 0
    for i in range(r.dice_per_player):
        s.dice[i] = s.own_dice[p, i]
        s.dice_spent[i] = 0
        s.dice_neutral[i] = 0
        s.n_dice += 1
    for k in range(3):
        s.special_used[p, k] = 0
    s.tavern_done = 0
    free_dice(s, r, rng, log, p)


@compiled
def continue_turn(s, r, plans, rng, log, p):
    """The Turn's actions, one at a time as ``p`` chooses, until every die is spent and ``p``
    ends the turn; then the Warehouses."""
    opts = np.empty((MAX_OPTIONS, 4), dtype=np.int64)  # rows [:n] written by each listing
    values = np.empty(MAX_OPTIONS, dtype=np.float64)
    finished = False
    while s.steps < r.max_steps_per_turn:
        s.steps += 1
        n = list_options(s, r, p, opts)
        decided(s, n)
        i = players.choose_option(s, r, p, plans, rng, opts, n, values)
        record(log, L.OPTIONS, p, n)
        log_options(log, opts, n, values, i)
        if opts[i, 0] == OPT_END:
            finished = True
            break
        apply_option(s, r, plans, rng, log, p, opts[i, 0], opts[i, 1], opts[i, 2])
    if not finished:
        came_up(log, L.UP_MAX_STEPS_PER_TURN)
        s.truncated = 1
        record(log, L.TRUNCATED, p)
    end_of_turn(s, r, plans, rng, log, p)


@compiled
def play_turn(s, r, plans, rng, log, p):
    """The Turn: spend every die, with any of the actions in between; then the Warehouses."""
    start_turn(s, r, rng, log, p)
    continue_turn(s, r, plans, rng, log, p)


@compiled
def end_of_turn(s, r, plans, rng, log, p):
    """Unused resources are discarded, except one per Warehouse (the player's choice)."""
    limit = keep_limit(s, r, p)
    if s.res[p, 0] + s.res[p, 1] + s.res[p, 2] > 0 and warehouses_of(s, p) > 0:
        came_up(log, L.UP_WAREHOUSE_CAPACITY)
    decided(s, keep_options(s.res[p, 0], s.res[p, 1], s.res[p, 2], limit))
    keep = players.choose_keep(s, r, p, plans, rng, limit)
    lost = 0
    for k in range(3):
        drop = s.res[p, k] - keep[k]
        lost += drop
        give_back(s, r, k, drop)
        s.res[p, k] = keep[k]
    s.lost[p] += lost
    record(log, L.KEEP, p, pack_wide(keep[0], keep[1], keep[2]), lost)
    if lost > 0:
        tell_supply(s, r, log)
    s.current = -1


# --- End of the Round ------------------------------------------------------------------------------

@compiled
def best_die_count(s, r, p, k, value):
    """Units of resource ``k`` a die of ``value`` brings on ``p``'s board (the '/' chosen for it)."""
    slot = slot_of(value)
    return max(yield_of(s, r, p, slot, 0)[k], yield_of(s, r, p, slot, 1)[k])


@compiled
def contest_total(s, r, plans, rng, log, q, k, gnomes, counted, totals):
    """One player's count in a Brawl (k = Weapons) or Magic Challenge (k = Mana): their dice on
    their buildings, Special Buildings, Warehouses, Mercenaries spent (those held and, FAQ Q3,
    those hired for the occasion: ``contest_mercenaries``) and their gnome."""
    dice = np.zeros(MAX_DICE, dtype=np.int64)
    n = r.dice_per_player
    for i in range(n):
        dice[i] = roll_die(rng)
    used = np.zeros(3, dtype=np.int64)
    rolled = 0  # the dice as rolled, one decimal digit each (told with the dice counted)
    for slot in range(3):  # Castle, Temple: one more die
        t = s.special[q, slot]
        if t >= FIRST_SPECIAL_CARD and special_effect(t, s.special_side[q, slot]) == EFFECT_EXTRA_DIE:
            came_up(log, L.UP_NEUTRAL_DICE)
            if n < MAX_DICE and n - r.dice_per_player < r.neutral_dice:
                dice[n] = roll_die(rng)
                n += 1
            used[slot] = 1
    for i in range(n):
        rolled = rolled * 10 + dice[i]
    for slot in range(3):  # Court, Town Hall, Sanctuary: on the die that gains most
        t = s.special[q, slot]
        if t < FIRST_SPECIAL_CARD or used[slot]:
            continue
        e = special_effect(t, s.special_side[q, slot])
        if e == EFFECT_DIE_UP or e == EFFECT_DIE_UP_DOWN:
            best_gain, best_i, best_v = 0, -1, 0
            for i in range(n):
                base = best_die_count(s, r, q, k, dice[i])
                for step in (1, -1):
                    if step == -1 and e == EFFECT_DIE_UP:
                        continue
                    v = circular(dice[i] + step)
                    g = best_die_count(s, r, q, k, v) - base
                    if g > best_gain:
                        best_gain, best_i, best_v = g, i, v
            if best_i >= 0:
                dice[best_i] = best_v
        elif e == EFFECT_REROLL:
            worst, worst_i = 1000, -1
            for i in range(n):
                c = best_die_count(s, r, q, k, dice[i])
                if c < worst:
                    worst, worst_i = c, i
            if worst_i >= 0 and worst == 0:
                dice[worst_i] = roll_die(rng)
    counted_dice = 0
    for i in range(n):
        counted_dice = counted_dice * 10 + dice[i]
    record(log, L.CONTEST_DICE, q, n, rolled, counted_dice)
    from_dice = 0
    coins = 0
    for i in range(n):
        slot = slot_of(dice[i])
        came_up_all(log, N_YIELD_RULES[s.normal[q, slot], s.normal_side[q, slot]])
        a0 = yield_of(s, r, q, slot, 0)
        a1 = yield_of(s, r, q, slot, 1)
        if a1[k] > a0[k]:
            from_dice += a1[k]
            coins += a1[COIN]
        else:
            from_dice += a0[k]
            coins += a0[COIN]
    income_coins = 0
    for slot in range(3):  # Pier, Port (Coins from the dice), Obelisk, Monument
        t = s.special[q, slot]
        if t < FIRST_SPECIAL_CARD:
            continue
        side = s.special_side[q, slot]
        e = special_effect(t, side)
        if e == EFFECT_CONVERT and convert_gives(side, k):
            came_up(log, CONVERT_PRICE_RULES[side])
        elif e == EFFECT_INCOME:
            came_up_all(log, S_INCOME_RULES[side])
        if e == EFFECT_CONVERT and convert_gives(side, k) and coins >= convert_price(r, side) and \
                convert_price(r, side) > 0:
            from_dice += 1
            coins -= convert_price(r, side)
        elif e == EFFECT_INCOME:
            from_dice += r.s_income[side, k]
            income_coins += r.s_income[side, COIN]
    stored = s.res[q, k]
    # FAQ Q3: Mercenaries 'can be bought and discarded anytime, even during a scuffle or a magic
    # challenge': the count's own Coins, the Warehouses' Coins and Traders pay for Mercenaries of
    # the contest's kind, spent at once (a Mercenary's index is its resource's: k)
    price = hire_price(r, k)
    free = coins + income_coins
    y = r.mercenary_yield
    # a Trader's Coin comes from the supply as it stands before the payments (as in ``pay``)
    traders_usable = s.mercs[q, TRADER]
    if r.supply_limited == YES and y > 0:
        traders_usable = min(traders_usable, s.supply[COIN] // y)
    max_hires = 0
    if y > 0 and (s.merc_deck[k] > 0 or s.mercs[q, k] > 0):
        came_up(log, L.UP_CONTEST_MERCENARIES)
        if r.contest_mercenaries == HIRE_AND_SPEND:
            came_up(log, HIRE_RULES[k])
    if r.contest_mercenaries == HIRE_AND_SPEND and y > 0 and \
            (s.merc_deck[k] > 0 or s.mercs[q, k] > 0):
        if price > 0:
            max_hires = (free + s.res[q, COIN] + traders_usable * y) // price
        else:
            max_hires = s.merc_deck[k] + s.mercs[q, k]
    decided(s, (s.mercs[q, k] + 1) * (max_hires + 1))  # how many held, how many hired
    mercs, hires = players.contest_mercs(s, r, q, plans, rng, k, from_dice + stored + gnomes,
                                         counted, totals, free, price, max_hires)
    s.mercs[q, k] -= mercs
    s.merc_deck[k] += mercs
    if hires > 0:
        from_stored, traders = hire_funding(free, s.res[q, COIN], traders_usable, y, price,
                                            hires)
        s.res[q, COIN] -= from_stored
        give_back(s, r, COIN, from_stored)
        s.mercs[q, TRADER] -= traders
        s.merc_deck[TRADER] += traders
        if from_stored + traders > 0:  # what the count's own Coins did not cover
            record(log, L.PAY, q, pack_wide(from_stored, 0, 0), traders, pack(traders, 0, 0))
            tell_supply(s, r, log)
        s.hired[q] += hires
        for _ in range(hires):  # hired and discarded at once: the card goes back to its deck
            record(log, L.HIRE, q, k, price, COIN, 1)
    give_back(s, r, k, stored)
    s.res[q, k] = 0
    mercs += hires
    if mercs > 0:
        came_up(log, L.UP_MERCENARY_YIELD)
    total = from_dice + stored + mercs * y + gnomes
    record(log, L.CONTEST_ROLL, q, total, from_dice, stored, mercs, gnomes)
    if stored > 0:
        tell_supply(s, r, log)
    return total


@compiled
def contest(s, r, plans, rng, log, slot):
    """Brawl or Magic Challenge on Tavern card ``slot``: every player from the first player counts,
    then scores per player with a lower total."""
    action = s.tavern[slot]
    k = WEAPON if action == BRAWL else MANA
    n = s.n_players
    held = 0
    for q in range(n):
        held += s.tavern_gnomes[slot, q]
    record(log, L.CONTEST, action, slot, held)
    if action == BRAWL:
        s.brawls += 1
    else:
        s.challenges += 1
    totals = np.zeros(MAX_PLAYERS, dtype=np.int64)
    counted = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for i in range(n):
        q = (s.first_player + i) % n
        if s.tavern_gnomes[slot, q] > 0:
            came_up(log, L.UP_CONTEST_GNOME_BONUS)
        totals[q] = contest_total(s, r, plans, rng, log, q, k,
                                  s.tavern_gnomes[slot, q] * r.contest_gnome_bonus, counted, totals)
        counted[q] = 1
    points = contest_points(r, n)
    for i in range(n):
        q = (s.first_player + i) % n
        beaten = 0
        for o in range(n):
            if o != q and totals[o] < totals[q]:
                beaten += 1
        s.beaten[q] += beaten
        if beaten > 0:
            came_up(log, CONTEST_POINTS_RULES[min(n, 4) - 2])
        record(log, L.CONTEST_POINTS, q, beaten, beaten * points)
        add_points(s, q, beaten * points, SCORE_CONTEST, log)


@compiled
def end_of_round(s, r, plans, rng, log):
    n = s.n_players
    # Brawl and Magic Challenge, where a gnome is on the card (Brawl first)
    for action in (BRAWL, MAGIC_CHALLENGE):
        for slot in range(2):
            if s.tavern[slot] == action:
                held = 0
                for q in range(n):
                    held += s.tavern_gnomes[slot, q]
                if held > 0:
                    contest(s, r, plans, rng, log, slot)
    last = s.round_no >= r.rounds
    if not last:
        # the missions' flip: Base -> Advanced spaces (the old Advanced discarded), two new Base
        for i in range(2):
            old = s.missions[2 + i]
            s.missions[2 + i] = s.missions[i]
            s.hexes[2 + i] = 0
            if s.missions[i] >= 0:
                for q in range(n):  # who completed the Base side: may they do the Advanced?
                    if s.done[q, s.missions[i], 0]:
                        came_up(log, L.UP_MISSION_ONCE_PER)
                record(log, L.MISSION_FLIP, s.missions[i], 2 + i, old)
        for i in range(2):
            draw_mission(s, i, log)
    else:
        came_up(log, L.UP_ROUNDS)
        for i in range(4):
            s.hexes[i] = 0
    # the Tavern: the cards discarded, their gnomes leave the game, two new cards
    for slot in range(2):
        if s.tavern[slot] >= 0:
            s.action_used[s.action_used_n] = s.tavern[slot]
            s.action_used_n += 1
        s.tavern[slot] = -1
        for q in range(n):
            s.tavern_gnomes[slot, q] = 0
    for q in range(n):
        if s.gnomes_tavern[q] > 0:
            record(log, L.GNOMES_REMOVED, q, s.gnomes_tavern[q])
        s.gnomes_out[q] += s.gnomes_tavern[q]
        s.gnomes_tavern[q] = 0
        s.magic[q] = 0
    if not last:
        for slot in range(2):
            s.tavern[slot] = draw_action(s, rng, log)
            record(log, L.TAVERN_CARD, slot, s.tavern[slot])
        draw_spell(s, log)
    # the First Player marker: the leader; ties, who reached the space first
    holder = s.first_player
    best = holder
    for i in range(1, n):
        q = (holder + i) % n
        if s.score[q] > s.score[best] or (s.score[q] == s.score[best] and s.reached[q] < s.reached[best]):
            best = q
    s.first_player = best
    record(log, L.FIRST_PLAYER, best, s.score[best])


# --- A whole game ----------------------------------------------------------------------------------

@compiled
def begin_round(s, r, rng, log):
    """The Round begins: every player rolls the dice of their colour (visible to all)."""
    s.round_no += 1
    record(log, L.ROUND, s.round_no, s.first_player)
    for p in range(s.n_players):
        for i in range(MAX_DICE):
            s.own_dice[p, i] = 0
        for i in range(r.dice_per_player):
            s.own_dice[p, i] = roll_die(rng)
        record(log, L.ROLL, p, s.own_dice[p, 0], s.own_dice[p, 1], s.own_dice[p, 2],
               s.own_dice[p, 3], s.own_dice[p, 4])


@compiled
def finish_round(s, r, plans, rng, log, first_turn):
    """The turns from the ``first_turn``-th (from the first player clockwise), then the end of
    the round; after the last round the game is over."""
    n = s.n_players
    for i in range(first_turn, n):
        s.turn_in_round = i
        play_turn(s, r, plans, rng, log, (s.first_player + i) % n)
    end_of_round(s, r, plans, rng, log)
    if s.round_no >= r.rounds:
        s.over = 1


@compiled
def play_round(s, r, plans, rng, log):
    """The Round: everyone rolls, turns from the first player clockwise, the end of the round."""
    begin_round(s, r, rng, log)
    finish_round(s, r, plans, rng, log, 0)


@compiled
def play_on(s, r, plans, rng, log, rounds):
    """Go on from the middle of the current player's turn (``s.current``; -1 once their turn
    ended) to the end of the game, or to the end of the ``rounds``-th round from now (0: the
    end): how a search player's rollouts continue a game."""
    if s.current >= 0:
        continue_turn(s, r, plans, rng, log, s.current)
    finish_round(s, r, plans, rng, log, s.turn_in_round + 1)
    played = 1
    while not s.over and (rounds == 0 or played < rounds):
        play_round(s, r, plans, rng, log)
        played += 1


@compiled
def building_points_came_up(s, log, p):
    """End of the Game: the points of each building card on ``p``'s board came up."""
    for k in range(3):
        if s.normal[p, k] >= FIRST_NORMAL_CARD and s.normal_side[p, k] == ADVANCED:
            came_up(log, L.UP_VP_ADVANCED_NORMAL)
        if s.special[p, k] >= FIRST_SPECIAL_CARD:
            came_up(log, L.UP_VP_BASE_SPECIAL if s.special_side[p, k] == BASE
                    else L.UP_VP_ADVANCED_SPECIAL)


# Compiled into the batch loop, its one caller: as a function of its own, LLVM would optimise
# the whole game below it once more.
@compiled(inline="always")
def play_game(r, n_players, plans, rng, log, leaders):
    """Set up and play one game of five rounds, a turn at a time, noting in ``leaders`` who leads
    by the score as it stands (``final_score``: the Score track and the buildings' points) after
    each turn; a round's last turn is noted after the end of the round (its contests scored)."""
    table = new_game(r, n_players, plans, rng, log)
    s = table[0]
    standing = np.zeros(MAX_PLAYERS, dtype=np.int64)
    while not s.over:
        begin_round(s, r, rng, log)
        s.turn_in_round = -1
        for i in range(n_players - 1):  # the turns before the round's last, as finish_round
            s.turn_in_round = i
            play_turn(s, r, plans, rng, log, (s.first_player + i) % n_players)
            for p in range(n_players):
                standing[p] = final_score(s, r, p)
            note_leader(leaders, standing, n_players)
            if checking(log):
                invariants.check(s, r, log)
            if found_broken(log):
                break
        if found_broken(log):
            break
        # play_on's last argument counts rounds (0: to the end of the game); 1 plays the round's
        # last turn and the end of the round. Called here so that the loop the search's rollouts
        # use is compiled with the heuristic game, never first inside a search (see
        # core/game.py, kernel_calls)
        play_on(s, r, plans, rng, log, 1)
        for p in range(n_players):
            standing[p] = final_score(s, r, p)
        note_leader(leaders, standing, n_players)
        # after the last round this is the end of the game's check: final scoring below only
        # reads the table
        if checking(log):
            invariants.check(s, r, log)
        if found_broken(log):
            break
    scores = np.zeros(MAX_PLAYERS, dtype=np.int64)
    points = 0
    for p in range(n_players):
        scores[p] = final_score(s, r, p)
        points |= min(255, building_points(s, r, p)) << (8 * p)
        building_points_came_up(s, log, p)
    record(log, L.GAME_END, n_players, scores[0], scores[1], scores[2], scores[3], points)
    return table
