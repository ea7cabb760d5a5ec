"""Gremios, played by the rulebook: setup, the four turn phases, events, expeditions, roles.

The functions follow the rulebook's order. ``s`` is one game's state (``board.STATE``), ``r`` the
rule numbers (``rules.toml``), ``rng`` the game's random stream, ``log`` the replay log (empty in
batch runs), and ``plans`` the seats' strategies (ids and weights) that every decision is asked of.
"""

import numpy as np

from simulator.core.jit import compiled
from simulator.core.rng import roll_2d6, shuffle
from simulator.core.trace import came_up, checking, found_broken, record, telling
from simulator.core.unfolding import decided, note_leader
from simulator.games.gremios import codes as L
from simulator.games.gremios import invariants
from simulator.games.gremios.board import (
    AGE_OF_PROSPERITY, ARCHBISHOP, AT_ONCE, BAD_HARVEST, BANKRUPTCY, BLOCKADE_GUILDS,
    BLOCKADE_OF_GUILD, CHURCH, CRAFTSMAN,
    DOCTOR, EXPEDITION, FAMINE, FARM, FIRST_BLOCKADE_CARD, FOREIGN_INVASION, FROM_EVENTS,
    FROM_GUILDS, FROM_INNS, FROM_ROLES, FROM_TREASURES, FROM_TURN, GOOD_HARVEST, GOVERNOR,
    INNKEEPER, LAND_EXPROPRIATION, MASTER_BUILDER, MAX_EXPEDITION_SLOTS, MERCENARY, MONASTERY,
    MUTINY, NO_ROLE, N_BLOCKADES, N_GUILDS, N_ROLES, PEASANT, PIRATE, PLAGUE, PORT, SHOPKEEPER,
    STOWAWAY, TAVERN, TAX_COLLECTION, TRADER, ULTIMATE_DUEL, WEALTH_HIGH, WEALTH_LOW,
    cultivate_cost, event_card_counts, expedition_investment_cost, expedition_stakes,
    guild_blocked_for, guild_coins, guild_investment_cost, guild_of_roll, has_role, inn_cost,
    inn_cost_with_plot, investment_actions_left, new_table, repair_cost, role_holder,
    set_top_investor, stowaway_threshold, takes_top_investor, treasure_count, victory_points,
    wealth_coins,
)
from simulator.games.gremios.codes import (
    BUILD_INN, BUY_LAND, BY_EVENT, BY_MERCENARY, BY_PROSPERITY, BY_SECOND_BLOCKADE, BY_SEVEN,
    BY_THIRD_BLOCKADE, CRAFTSMAN_BUY, CRAFTSMAN_SELL, CULTIVATE, END_TURN, EXCHANGE_WEALTH,
    INVEST_EXPEDITION, INVEST_GUILD, MERCENARY_MUTINY, REPAIR_INN,
)
from strategies import gremios as players

MAX_ACTIONS_PER_TURN = 64  # more than any legal turn takes; a guard against a looping strategy


# --- small bookkeeping ------------------------------------------------------------------------

@compiled
def gain(s, p, coins, source):
    s.coins[p] += coins
    s.coins_from[p, source] += coins


@compiled
def role_pays(s, log, role, coins, reason, except_player, rule):
    """The holder of ``role`` (if any, and not ``except_player``) receives ``coins``: rule
    ``rule`` (of ``RULES_THAT_COME_UP``; -1 when no rule sets them) came up."""
    p = role_holder(s, role)
    if p < 0 or p == except_player:
        return
    if rule >= 0:
        came_up(log, rule)
    if coins <= 0:
        record(log, L.ROLE_NO_COINS, p, reason)
        return
    gain(s, p, coins, FROM_ROLES)
    record(log, L.ROLE_COINS, p, coins, reason, s.coins[p])


@compiled
def half(n, rounding):
    """Half of ``n``, one more if odd when rounding up (rules: 0 = up, 1 = down)."""
    return (n + 1) // 2 if rounding == 0 else n // 2


@compiled
def check_end(s, r, log):
    """The game ends when someone has reached the target (told in the replay as points change).

    Called once an action or a phase is over and, with ``end_rule`` at_once, after each treasure
    of an expedition too: the only action made of several steps that can raise points.
    """
    was_over = s.over
    for p in range(s.n_players):
        points = victory_points(s, r, p)
        if telling(log) and points != s.points_told[p]:
            record(log, L.POINTS, p, s.points_told[p], points)
            s.points_told[p] = points
        if points >= r.victory_points_to_win:
            s.over = 1
            if not was_over:
                record(log, L.TARGET_REACHED, p, points, r.victory_points_to_win, r.end_rule)


# --- Game Setup -----------------------------------------------------------------------------

@compiled
def new_game(r, n_players, mode, fixed_roles, plans, rng, log):
    """A game set up by the rulebook's Game Setup (and the two-player changes)."""
    table = new_table()
    s = table[0]
    s.n_players = n_players
    s.two_player_turns = 1 if n_players == 2 else 0
    s.emblem = -1
    s.pending = -1
    s.top_investor[:] = -1
    s.roles[:, :] = NO_ROLE
    s.role_not_chosen[:] = NO_ROLE
    record(log, L.SETUP, n_players, mode, r.victory_points_to_win, r.starting_coins, r.end_rule)

    # 1-2. The expedition card, and as many guilds as players (3 in the two-player game).
    guilds = np.arange(N_GUILDS)
    shuffle(rng, guilds, N_GUILDS)
    if n_players == 2:
        came_up(log, L.UP_GUILDS_AT_START_TWO)
    at_start = r.guilds_at_start_two_players if n_players == 2 else n_players
    at_start = min(at_start, N_GUILDS)
    for i in range(at_start):
        s.guild_open[guilds[i]] = 1
        record(log, L.SETUP_GUILD, guilds[i])

    # 3. The event deck: the other guilds and the event cards; three set aside into the discard.
    n = 0
    for i in range(at_start, N_GUILDS):
        s.event_deck[n] = guilds[i]
        n += 1
    counts = event_card_counts(r)
    for kind in range(len(counts)):
        for _ in range(counts[kind]):
            s.event_deck[n] = GOOD_HARVEST + kind
            n += 1
    s.event_deck_n = n
    shuffle(rng, s.event_deck, n)
    set_aside_events(s, r, log)

    # Resource decks.
    s.land_deck_n = r.land_cards
    s.inn_deck_n = r.inn_cards
    t = 0
    kinds = (r.wealth_low_cards, r.wealth_high_cards, r.common_treasure_cards, r.rare_treasure_cards)
    for kind in range(4):
        for _ in range(kinds[kind]):
            s.treasure_deck[t] = kind
            t += 1
    s.treasure_deck_n = t
    shuffle(rng, s.treasure_deck, t)

    # 4. Two role cards and three coins each; 5. roles chosen in turn order. Seats are numbered
    # from the starting player (the highest roll), so seat 0 always starts.
    s.fixed_roles[:, :] = fixed_roles
    shuffle_role_deck(s, rng)
    for p in range(n_players):
        deal_role(s, r, mode, plans, rng, log, p)
    give_starting_coins(s, r, log)
    return table


@compiled
def shuffle_role_deck(s, rng):
    """The role cards not fixed by ``--roles``, shuffled face down."""
    n = 0
    for role in range(N_ROLES):
        fixed = False
        for p in range(s.n_players):
            if s.fixed_roles[p, 0] == role or s.fixed_roles[p, 1] == role:
                fixed = True
        if not fixed:
            s.role_deck[n] = role
            n += 1
    s.role_deck_n = n
    shuffle(rng, s.role_deck, n)


@compiled
def deal_role(s, r, mode, plans, rng, log, p):
    """Player ``p``'s role cards: they keep one (both in the duel), or take their fixed role."""
    if s.fixed_roles[p, 0] != NO_ROLE:
        s.roles[p, 0] = s.fixed_roles[p, 0]
        s.roles[p, 1] = s.fixed_roles[p, 1]
        record(log, L.ROLES_DEALT, p, -1, -1, -1, s.roles[p, 0], s.roles[p, 1])
        return
    dealt = np.full(3, NO_ROLE, dtype=np.int64)
    for k in range(r.roles_dealt):
        s.role_deck_n -= 1
        dealt[k] = s.role_deck[s.role_deck_n]
    if mode == ULTIMATE_DUEL:
        s.roles[p, 0] = dealt[0]
        s.roles[p, 1] = dealt[1]
    else:
        decided(s, r.roles_dealt)
        keep_role(s, p, dealt, players.choose_role(s, r, p, plans, rng, dealt, r.roles_dealt))
    record(log, L.ROLES_DEALT, p, dealt[0], dealt[1], dealt[2], s.roles[p, 0], s.roles[p, 1])


@compiled
def keep_role(s, p, dealt, pick):
    s.roles[p, 0] = dealt[pick]
    # The card not chosen (the first of them, if three were dealt) is recorded.
    s.role_not_chosen[p] = dealt[1] if pick == 0 else dealt[0]


@compiled
def give_starting_coins(s, r, log):
    """Three coins each, once the roles are chosen; the Innkeeper's two plots."""
    for p in range(s.n_players):
        s.coins[p] = r.starting_coins
        # Innkeeper: starts with two uncultivated plots.
        if has_role(s, p, INNKEEPER):
            plots = min(r.innkeeper_starting_plots, s.land_deck_n)
            came_up(log, L.UP_INNKEEPER_PLOTS)
            s.plots[p] += plots
            s.land_deck_n -= plots
            record(log, L.STARTING_PLOTS, p, plots, s.land_deck_n)


@compiled
def set_aside_events(s, r, log):
    """Move the top cards of the freshly shuffled deck to the discard pile (always keep one)."""
    aside = max(min(r.events_set_aside, s.event_deck_n - 1), 0)
    s.events_aside_n = aside  # the discard pile is empty now: they lie at its bottom
    for k in range(aside):
        s.event_deck_n -= 1
        card = s.event_deck[s.event_deck_n]
        s.event_discard[s.event_discard_n] = card
        s.event_discard_n += 1
        record(log, L.SET_ASIDE, card, k + 1, aside, s.event_reshuffles)


@compiled
def discard_event(s, card):
    s.event_discard[s.event_discard_n] = card
    s.event_discard_n += 1


# --- 1. Event Phase -----------------------------------------------------------------------------

@compiled
def reveal_event(s, r, rng, log):
    """The top event card; when the deck is out, the discard is reshuffled and three set aside."""
    if s.event_deck_n == 0:
        for i in range(s.event_discard_n):
            s.event_deck[i] = s.event_discard[i]
        s.event_deck_n = s.event_discard_n
        s.event_discard_n = 0
        if s.event_deck_n == 0:
            return -1
        shuffle(rng, s.event_deck, s.event_deck_n)
        s.event_reshuffles += 1
        record(log, L.RESHUFFLE, s.event_deck_n, s.event_reshuffles)
        set_aside_events(s, r, log)
    s.event_deck_n -= 1
    s.events_revealed += 1
    s.event_top_known = 0
    return s.event_deck[s.event_deck_n]


@compiled
def event_phase(s, r, plans, rng, log):
    p = s.player
    card = reveal_event(s, r, rng, log)
    if card < 0:
        record(log, L.NO_EVENT)
        return
    record(log, L.REVEAL, p, card)
    # Governor: reveals two and applies one, leaving the other on top for the next turn. With a
    # single card left in the deck, only that one.
    if has_role(s, p, GOVERNOR) and s.event_deck_n > 0:
        second = reveal_event(s, r, rng, log)
        record(log, L.REVEAL, p, second)
        decided(s, 2)
        chosen = players.choose_event(s, r, p, plans, rng, card, second)
        governor_applies(s, r, plans, rng, log, chosen, second if chosen == card else card)
        return
    apply_event(s, r, plans, rng, log, card)


@compiled
def governor_applies(s, r, plans, rng, log, chosen, other):
    """The Governor applies ``chosen``; ``other`` goes back on top, seen by all, for next turn."""
    p = s.player
    s.event_deck[s.event_deck_n] = other
    s.event_deck_n += 1
    s.event_top_known = 1
    s.events_revealed -= 1  # the returned card is revealed again next turn
    record(log, L.GOVERNOR_CHOICE, p, chosen, other)
    apply_event(s, r, plans, rng, log, chosen)


@compiled
def apply_event(s, r, plans, rng, log, card):
    if card < N_GUILDS:
        s.guild_open[card] = 1
        record(log, L.GUILD_FOUNDED, card)
    elif card == GOOD_HARVEST:
        good_harvest(s, r, log)
        discard_event(s, card)
    elif card == AGE_OF_PROSPERITY:
        for p in range(s.n_players):
            came_up(log, L.UP_PROSPERITY_COINS)
            gain(s, p, r.prosperity_coins, FROM_EVENTS)
            record(log, L.EVENT_COINS, p, r.prosperity_coins, card, s.coins[p])
        lift_temporary_events(s, r, log, BY_PROSPERITY)
        discard_event(s, card)
    elif card == EXPEDITION:
        stowaways_sneak_on(s, r, plans, rng, log)
        if s.expedition_n > 0:
            s.pending = card
            record(log, L.PENDING, card)
        else:
            record(log, L.EXPEDITION_NO_STAKES)
            discard_event(s, card)
    elif card == BAD_HARVEST:
        bad_harvest(s, r, log)
        discard_event(s, card)
    elif card == BANKRUPTCY or card == MUTINY:
        s.pending = card
        record(log, L.PENDING, card)
    elif card == FOREIGN_INVASION:
        foreign_invasion(s, r, log)
        discard_event(s, card)
    elif card == LAND_EXPROPRIATION:
        land_expropriation(s, r, plans, rng, log)
        discard_event(s, card)
    elif card == TAX_COLLECTION:
        tax_collection(s, r, log)
        discard_event(s, card)
    elif card == PLAGUE:
        s.plague += 1
        record(log, L.PLAGUE_PLACED, s.plague)
    else:
        place_blockade(s, r, log, card - FIRST_BLOCKADE_CARD)
    check_end(s, r, log)


# --- 2. Roll Phase ------------------------------------------------------------------------------

@compiled
def roll_phase(s, r, rng, log):
    d1, d2 = roll_2d6(rng)
    roll = d1 + d2
    s.rolls += 1
    record(log, L.ROLL, s.player, roll, 0)
    guild = guild_of_roll(r, roll)
    # Apply the previous event if it depended on the roll (a Mutiny or a Bankruptcy needs a guild
    # on the board; an Expedition is pending only with stakes on it).
    if s.pending >= 0:
        if s.pending == EXPEDITION:
            sail(s, r, log, roll)
        elif guild < 0 or not s.guild_open[guild]:
            record(log, L.PENDING_NO_GUILD, s.pending, roll, guild)
        elif s.pending == MUTINY:
            mutiny(s, r, log, guild, BY_EVENT)
        else:
            bankruptcy(s, r, log, guild, BY_EVENT)
        discard_event(s, s.pending)
        s.pending = -1
        if s.over:
            return  # end_rule at_once: a treasure of that expedition ended the game
    if roll == 7:
        s.sevens += 1
        lift_temporary_events(s, r, log, BY_SEVEN)
    elif not s.guild_open[guild]:
        record(log, L.ROLL_PAYS_NOBODY, roll, guild, 0)
    else:
        invested = False
        for p in range(s.n_players):
            if s.investments[p, guild] == 0:
                continue
            invested = True
            if guild_blocked_for(s, p, guild):
                record(log, L.BLOCKED, guild, p, s.investments[p, guild], blocking_card(s, guild))
                continue
            gain(s, p, s.investments[p, guild], FROM_GUILDS)
            record(log, L.INCOME, p, guild, s.investments[p, guild], s.coins[p])
        if not invested:
            record(log, L.ROLL_PAYS_NOBODY, roll, guild, 1)
    check_end(s, r, log)


@compiled
def blocking_card(s, g):
    """The temporary event that keeps guild ``g`` from paying (the Plague named first)."""
    if s.plague > 0 and g != CHURCH and g != MONASTERY:
        return PLAGUE
    return FIRST_BLOCKADE_CARD + BLOCKADE_OF_GUILD[g]


# --- 3. Collection Phase (the player's turn proper begins) --------------------------------------

@compiled
def collection_phase(s, r, log):
    p = s.player
    gain(s, p, r.turn_income, FROM_TURN)
    gain(s, p, r.inn_income * s.inns[p], FROM_INNS)
    record(log, L.COLLECTION, p, r.turn_income, r.inn_income * s.inns[p], s.coins[p])
    # Shopkeeper: one more coin for each active Famine, at the start of their turn.
    if has_role(s, p, SHOPKEEPER):
        role_pays(s, log, SHOPKEEPER, r.shopkeeper_famine_coins * s.blockades[FAMINE],
                  L.R_SHOPKEEPER_FAMINE, -1, L.UP_SHOPKEEPER_FAMINE if s.blockades[FAMINE] else -1)
    # Stowaway: three (four with two players) or more stakes between the Expedition and the Port.
    if has_role(s, p, STOWAWAY):
        stakes = expedition_stakes(s, p) + s.investments[p, PORT]
        came_up(log, L.UP_STOWAWAY_THRESHOLD_TWO if s.two_player_turns else L.UP_STOWAWAY_THRESHOLD)
        if stakes >= stowaway_threshold(s, r):
            role_pays(s, log, STOWAWAY, r.stowaway_coins, L.R_STOWAWAY, -1, L.UP_STOWAWAY_COINS)
        else:
            record(log, L.ROLE_NO_COINS, p, L.R_STOWAWAY, stakes, stowaway_threshold(s, r))
    # This turn's allowances.
    s.guild_investments_left = r.guild_investments_per_turn
    s.expedition_investments_left = r.expedition_investments_per_turn
    s.extra_investments_left = r.trader_extra_investments if has_role(s, p, TRADER) else 0
    s.free_cultivations_left = r.peasant_free_cultivations if has_role(s, p, PEASANT) else 0
    s.free_repairs_left = r.master_builder_free_repairs if has_role(s, p, MASTER_BUILDER) else 0
    s.craftsman_trade_left = r.craftsman_trades_per_turn if has_role(s, p, CRAFTSMAN) else 0
    s.mercenary_mutiny_left = r.mercenary_mutinies_per_turn if has_role(s, p, MERCENARY) else 0


# --- 4. Investment Phase ------------------------------------------------------------------------

@compiled
def legal_actions(s, r, p, actions):
    """Fill ``actions`` with (action, argument) rows the player may take now; returns how many.

    Row 0 is always ending the turn.
    """
    n = 0
    actions[n, 0] = END_TURN
    actions[n, 1] = 0
    n += 1
    coins = s.coins[p]
    if investment_actions_left(s, False) > 0:
        for g in range(N_GUILDS):
            if s.guild_open[g] and guild_coins(s, g) < r.guild_slots and \
                    guild_investment_cost(s, r, p, g) <= coins:
                actions[n, 0] = INVEST_GUILD
                actions[n, 1] = g
                n += 1
    # Actions without an argument take 0: the row may hold an earlier call's argument, which
    # the replay would tell as theirs.
    if investment_actions_left(s, True) > 0 and s.expedition_n < r.expedition_slots and \
            expedition_investment_cost(s, r, p) <= coins:
        actions[n, 0] = INVEST_EXPEDITION
        actions[n, 1] = 0
        n += 1
    if s.land_deck_n > 0 and r.land_cost <= coins:
        actions[n, 0] = BUY_LAND
        actions[n, 1] = 0
        n += 1
    if s.plots[p] > 0 and cultivate_cost(s, r, p) <= coins:
        actions[n, 0] = CULTIVATE
        actions[n, 1] = 0
        n += 1
    if s.inn_deck_n > 0 and inn_cost_with_plot(s, r, p) <= coins and \
            (s.plots[p] + s.cultivated[p] > 0 or s.land_deck_n > 0):
        actions[n, 0] = BUILD_INN
        actions[n, 1] = 0
        n += 1
    if s.destroyed_inns[p] > 0 and repair_cost(s, r, p) <= coins:
        actions[n, 0] = REPAIR_INN
        actions[n, 1] = 0
        n += 1
    for kind in (WEALTH_LOW, WEALTH_HIGH):
        if s.treasures[p, kind] > 0:
            actions[n, 0] = EXCHANGE_WEALTH
            actions[n, 1] = kind
            n += 1
    if s.craftsman_trade_left > 0:
        if s.treasure_deck_n > 0 and r.craftsman_treasure_price <= coins:
            actions[n, 0] = CRAFTSMAN_BUY
            actions[n, 1] = 0
            n += 1
        for kind in range(4):
            if s.treasures[p, kind] > 0:
                actions[n, 0] = CRAFTSMAN_SELL
                actions[n, 1] = kind
                n += 1
    if s.mercenary_mutiny_left > 0 and r.mercenary_mutiny_cost <= coins:
        for g in range(N_GUILDS):
            if s.investments[p, g] > 0:
                actions[n, 0] = MERCENARY_MUTINY
                actions[n, 1] = g
                n += 1
    return n


@compiled
def investment_phase(s, r, plans, rng, log):
    p = s.player
    actions = np.zeros((64, 2), dtype=np.int64)
    for _ in range(MAX_ACTIONS_PER_TURN):
        n = legal_actions(s, r, p, actions)
        if telling(log):
            for i in range(n):
                record(log, L.OPTION, p, actions[i, 0], actions[i, 1],
                       action_price(s, r, p, actions[i, 0], actions[i, 1]), i)
        decided(s, n)
        pick = players.choose_action(s, r, p, plans, rng, actions, n)
        if actions[pick, 0] == END_TURN:
            record(log, L.ACTION, p, END_TURN, 0, 0, s.coins[p])
            return
        take_action(s, r, rng, log, p, actions[pick, 0], actions[pick, 1])
        check_end(s, r, log)
        if s.over:
            return


@compiled
def take_action(s, r, rng, log, p, action, arg):
    record(log, L.ACTION, p, action, arg, action_price(s, r, p, action, arg), s.coins[p])
    if action == INVEST_GUILD:
        invest_in_guild(s, r, log, p, arg)
    elif action == INVEST_EXPEDITION:
        invest_in_expedition(s, r, rng, log, p)
    elif action == BUY_LAND:
        buy_land(s, r, log, p)
    elif action == CULTIVATE:
        s.coins[p] -= cultivate_cost(s, r, p)
        if s.free_cultivations_left > 0:
            came_up(log, L.UP_FREE_CULTIVATIONS)
            s.free_cultivations_left -= 1
        s.plots[p] -= 1
        s.cultivated[p] += 1
    elif action == BUILD_INN:
        build_inn(s, r, log, p)
    elif action == REPAIR_INN:
        s.coins[p] -= repair_cost(s, r, p)
        if s.free_repairs_left > 0:
            came_up(log, L.UP_FREE_REPAIRS)
            s.free_repairs_left -= 1
        s.destroyed_inns[p] -= 1
        s.inns[p] += 1
        s.inns_repaired[p] += 1
    elif action == EXCHANGE_WEALTH:
        give_up_treasure(s, r, log, p, arg, True)
        came_up(log, L.UP_WEALTH_LOW if arg == WEALTH_LOW else L.UP_WEALTH_HIGH)
        gain(s, p, wealth_coins(r, arg), FROM_TREASURES)
    elif action == CRAFTSMAN_BUY:
        came_up(log, L.UP_CRAFTSMAN_TRADES)
        came_up(log, L.UP_CRAFTSMAN_PRICE)
        s.craftsman_trade_left -= 1
        s.coins[p] -= r.craftsman_treasure_price
        s.treasures_bought[p] += 1
        take_treasure(s, r, log, p)
    elif action == CRAFTSMAN_SELL:
        came_up(log, L.UP_CRAFTSMAN_TRADES)
        came_up(log, L.UP_CRAFTSMAN_PRICE)
        s.craftsman_trade_left -= 1
        give_up_treasure(s, r, log, p, arg, False)
        gain(s, p, r.craftsman_treasure_price, FROM_TREASURES)
    elif action == MERCENARY_MUTINY:
        came_up(log, L.UP_MERCENARY_MUTINIES)
        came_up(log, L.UP_MUTINY_COST)
        s.mercenary_mutiny_left -= 1
        s.coins[p] -= r.mercenary_mutiny_cost
        s.mutinies_caused[p] += 1
        mutiny(s, r, log, arg, BY_MERCENARY)


@compiled
def action_price(s, r, p, action, arg):
    """Coins an action costs (negative: coins it brings)."""
    if action == INVEST_GUILD:
        return guild_investment_cost(s, r, p, arg)
    if action == INVEST_EXPEDITION:
        return expedition_investment_cost(s, r, p)
    if action == BUY_LAND:
        return r.land_cost
    if action == CULTIVATE:
        return cultivate_cost(s, r, p)
    if action == BUILD_INN:
        return inn_cost_with_plot(s, r, p)
    if action == REPAIR_INN:
        return repair_cost(s, r, p)
    if action == EXCHANGE_WEALTH:
        return -wealth_coins(r, arg)
    if action == CRAFTSMAN_BUY:
        return r.craftsman_treasure_price
    if action == CRAFTSMAN_SELL:
        return -r.craftsman_treasure_price
    if action == MERCENARY_MUTINY:
        return r.mercenary_mutiny_cost
    return 0


@compiled
def use_investment_action(s, log, expedition):
    if expedition and s.expedition_investments_left > 0:
        s.expedition_investments_left -= 1
    elif not expedition and s.guild_investments_left > 0:
        s.guild_investments_left -= 1
    else:
        came_up(log, L.UP_EXTRA_INVESTMENTS)
        s.extra_investments_left -= 1  # the Trader's repeat


@compiled
def invest_in_guild(s, r, log, p, g):
    s.coins[p] -= guild_investment_cost(s, r, p, g)
    use_investment_action(s, log, False)
    takes_top = takes_top_investor(s, r, p, g, s.investments[p, g] + 1)
    top = s.top_investor[g]
    if top >= 0 and top != p and s.investments[top, g] == s.investments[p, g] + 1:
        came_up(log, L.UP_TOP_INVESTOR_TIES)
    s.placements += 1
    if s.investments[p, g] == 0:
        s.first_placed[p, g] = s.placements
    s.investments[p, g] += 1
    s.guild_investments_made[p] += 1
    if takes_top and s.top_investor[g] != p:
        set_top_investor(s, r, g, p)
        record(log, L.TOP_INVESTOR, g, p)
    if g == CHURCH or g == MONASTERY:
        role_pays(s, log, ARCHBISHOP, r.archbishop_coins, L.R_ARCHBISHOP, p, L.UP_ARCHBISHOP_COINS)
    if g == FARM or g == TAVERN:
        role_pays(s, log, SHOPKEEPER, r.shopkeeper_coins, L.R_SHOPKEEPER, p, L.UP_SHOPKEEPER_COINS)


@compiled
def invest_in_expedition(s, r, rng, log, p):
    s.coins[p] -= expedition_investment_cost(s, r, p)
    use_investment_action(s, log, True)
    s.expedition[s.expedition_n] = p
    s.expedition_n += 1
    s.expedition_investments_made[p] += 1
    # The last slot filled: the expedition sails at once, on its own roll (no guild income).
    if s.expedition_n >= min(r.expedition_slots, MAX_EXPEDITION_SLOTS):
        d1, d2 = roll_2d6(rng)
        record(log, L.ROLL, p, d1 + d2, 1)
        sail(s, r, log, d1 + d2)


@compiled
def buy_land(s, r, log, p):
    s.coins[p] -= r.land_cost
    s.land_deck_n -= 1
    s.plots[p] += 1
    s.lands_bought[p] += 1
    role_pays(s, log, ARCHBISHOP, r.archbishop_coins, L.R_ARCHBISHOP, p, L.UP_ARCHBISHOP_COINS)


@compiled
def build_inn(s, r, log, p):
    """Build on a plot (bought now if the player has none), returning the plot to the land deck."""
    plot = L.PLOT_UNCULTIVATED
    if s.plots[p] + s.cultivated[p] == 0:
        buy_land(s, r, log, p)
        plot = L.PLOT_BOUGHT
    if has_role(s, p, MASTER_BUILDER):
        came_up(log, L.UP_BUILDER_DISCOUNT)
    s.coins[p] -= inn_cost(s, r, p)
    # Build on an uncultivated plot when there is one: a cultivated plot still earns harvests.
    if s.plots[p] > 0:
        s.plots[p] -= 1
    else:
        s.cultivated[p] -= 1
        plot = L.PLOT_CULTIVATED
    s.land_deck_n += 1
    s.inn_deck_n -= 1
    s.inns[p] += 1
    s.inns_built[p] += 1
    record(log, L.INN_BUILT, p, plot, s.inns[p])
    role_pays(s, log, INNKEEPER, r.innkeeper_coins, L.R_INNKEEPER, p, L.UP_INNKEEPER_COINS)


# --- Treasures and the Discoverer Emblem ------------------------------------------------------

@compiled
def take_treasure(s, r, log, p):
    """``p`` draws a treasure; returns False if the deck is empty."""
    if s.treasure_deck_n == 0:
        record(log, L.TREASURE_DECK_EMPTY)
        return False
    s.treasure_deck_n -= 1
    kind = s.treasure_deck[s.treasure_deck_n]
    s.treasures[p, kind] += 1
    s.treasures_taken[p] += 1
    record(log, L.TREASURE_TAKEN, p, kind, s.treasure_deck_n)
    update_emblem(s, r, log)
    return True


@compiled
def give_up_treasure(s, r, log, p, kind, face_up):
    """A wealth exchanged (its value shows: ``face_up``), or a treasure sold by the Craftsman
    (discarded face down): out of the game, never reshuffled."""
    s.treasures[p, kind] -= 1
    s.treasures_cashed[p] += 1
    s.treasures_given_up[p, kind] += 1
    if face_up:
        s.treasures_shown[p, kind] += 1
    update_emblem(s, r, log)


@compiled
def update_emblem(s, r, log):
    """The discoverer emblem goes to the player with the most treasure cards (at least two).

    A holder keeps it until someone strictly passes them. A holder who falls behind (after
    giving up a card) hands it to the single player now ahead, or it is discarded if several are
    tied ahead or nobody has two cards; a discarded emblem goes to whoever first breaks the tie
    or reaches two cards.
    """
    best = -1
    best_count = 0
    tied = False
    for p in range(s.n_players):
        if p == s.emblem:
            continue
        c = treasure_count(s, p)
        if c > best_count:
            best, best_count, tied = p, c, False
        elif c == best_count and c > 0:
            tied = True
    holder = s.emblem
    new = holder
    if holder >= 0:
        held = treasure_count(s, holder)
        if best_count > held and best_count >= r.emblem_min_treasures:
            new = -1 if tied else best
        elif held < r.emblem_min_treasures:
            new = -1
    elif best_count >= r.emblem_min_treasures and not tied:
        new = best
    if best_count > 0 or holder >= 0:
        came_up(log, L.UP_EMBLEM_MIN)
    s.emblem = new
    if telling(log):
        record(log, L.EMBLEM, holder, new, treasure_count(s, 0), treasure_count(s, 1),
               treasure_count(s, 2), treasure_count(s, 3))


# --- Expeditions ----------------------------------------------------------------------------------

@compiled
def sail(s, r, log, roll):
    """The expedition resolves on ``roll``: treasures in placement order, or the Pirate's loot."""
    s.expeditions += 1
    success = r.expedition_success_low <= roll <= r.expedition_success_high
    record(log, L.EXPEDITION_SAILS, s.expedition_n, roll, 1 if success else 0)
    if success:
        s.expeditions_won += 1
        for i in range(s.expedition_n):
            if not take_treasure(s, r, log, s.expedition[i]):
                break
            # At once: the treasure (and the emblem moving with it) that reaches the target ends
            # the game; the investors after it take nothing.
            if r.end_rule == AT_ONCE:
                check_end(s, r, log)
                if s.over:
                    break
    else:
        # Pirate: receives every coin lost in a failed expedition, their own stakes included.
        role_pays(s, log, PIRATE, s.expedition_n * r.invest_coins_placed, L.R_PIRATE, -1, -1)
    # The stakes go back to the reserve either way.
    s.expedition_n = 0


@compiled
def stowaways_sneak_on(s, r, plans, rng, log):
    """Stowaway: when the Expedition event is revealed, a free stake if they have none there.

    The ship is never full here: it sails as soon as its last slot is filled.
    """
    p = role_holder(s, STOWAWAY)
    if p < 0:
        return
    if expedition_stakes(s, p) > 0:
        record(log, L.STOWAWAY_STAYS, p, L.STOWAWAY_HAS_STAKE, s.expedition_n)
        return
    if s.expedition_n == 0:
        came_up(log, L.UP_STOWAWAY_EMPTY_SHIP)
    if s.expedition_n == 0 and r.stowaway_boards_empty_ship == 0:
        record(log, L.STOWAWAY_STAYS, p, L.STOWAWAY_NO_SHIP, s.expedition_n)
    else:
        decided(s, 2)
        if players.stowaway_sneaks(s, r, p, plans, rng):
            s.expedition[s.expedition_n] = p
            s.expedition_n += 1
            record(log, L.STOWAWAY_SNEAKS, p, s.expedition_n)
        else:
            record(log, L.STOWAWAY_STAYS, p, L.STOWAWAY_DECLINES, s.expedition_n)


# --- Event cards ----------------------------------------------------------------------------------

@compiled
def good_harvest(s, r, log):
    harvested = False
    for p in range(s.n_players):
        if s.cultivated[p] > 0:
            coins = r.harvest_coins_per_plot * s.cultivated[p]
            came_up(log, L.UP_HARVEST_COINS)
            gain(s, p, coins, FROM_EVENTS)
            record(log, L.EVENT_COINS, p, coins, GOOD_HARVEST, s.coins[p])
            harvested = True
    if not harvested:
        record(log, L.EVENT_NO_EFFECT, GOOD_HARVEST)
    # Peasant: more cultivated plots than all rivals together earns a coin per rival.
    p = role_holder(s, PEASANT)
    if p >= 0:
        rivals = 0
        for q in range(s.n_players):
            if q != p:
                rivals += s.cultivated[q]
        if s.cultivated[p] > rivals:
            role_pays(s, log, PEASANT, r.peasant_harvest_bonus * (s.n_players - 1), L.R_PEASANT, -1,
                      L.UP_HARVEST_BONUS)
        else:
            record(log, L.ROLE_NO_COINS, p, L.R_PEASANT, s.cultivated[p], rivals)


@compiled
def bad_harvest(s, r, log):
    """Everyone with a cultivated plot loses the cultivation of one; the plot stays."""
    lost = False
    for p in range(s.n_players):
        if s.cultivated[p] > 0:
            s.cultivated[p] -= 1
            s.plots[p] += 1
            record(log, L.CULTIVATION_LOST, p)
            lost = True
    if not lost:
        record(log, L.EVENT_NO_EFFECT, BAD_HARVEST)


@compiled
def lose_investments(s, r, log, p, g, lost):
    s.investments[p, g] -= lost
    record(log, L.LOST_INVESTMENTS, p, g, lost)
    # Trader: as many coins as investments lost to a mutiny or a bankruptcy.
    if has_role(s, p, TRADER):
        gain(s, p, lost, FROM_ROLES)
        record(log, L.ROLE_COINS, p, lost, L.R_TRADER, s.coins[p])


@compiled
def mutiny(s, r, log, g, cause):
    """Everyone with more than one investment in ``g`` loses one; the top investor stays."""
    s.mutinies += 1
    record(log, L.MUTINY, g, cause)
    lost = False
    for p in range(s.n_players):
        if s.investments[p, g] > 1:
            lose_investments(s, r, log, p, g, 1)
            lost = True
    if not lost:
        record(log, L.NOBODY_LOSES, g, MUTINY)


@compiled
def bankruptcy(s, r, log, g, cause):
    """All investments in ``g`` are lost, and with them the top investor; the guild stays open."""
    s.bankruptcies += 1
    record(log, L.BANKRUPTCY, g, cause)
    lost = False
    for p in range(s.n_players):
        if s.investments[p, g] > 0:
            lose_investments(s, r, log, p, g, s.investments[p, g])
            lost = True
    if not lost:
        record(log, L.NOBODY_LOSES, g, BANKRUPTCY)
    if s.top_investor[g] >= 0:
        set_top_investor(s, r, g, -1)
        record(log, L.TOP_INVESTOR, g, -1)


@compiled
def place_blockade(s, r, log, kind):
    """A blockade card: a second of its kind is a mutiny in both guilds, a third a bankruptcy."""
    s.blockades[kind] += 1
    record(log, L.BLOCKADE_PLACED, kind, s.blockades[kind])
    if s.blockades[kind] > 1:  # the second and later: where the thresholds decide
        came_up(log, L.UP_BLOCKADES_MUTINY)
        came_up(log, L.UP_BLOCKADES_BANKRUPTCY)
    if s.blockades[kind] >= r.blockades_for_bankruptcy:
        for i in range(2):
            g = BLOCKADE_GUILDS[kind, i]
            if s.guild_open[g]:
                bankruptcy(s, r, log, g, BY_THIRD_BLOCKADE)
            else:
                record(log, L.NOT_ON_BOARD, g, BANKRUPTCY, BY_THIRD_BLOCKADE)
        for _ in range(s.blockades[kind]):
            discard_event(s, FIRST_BLOCKADE_CARD + kind)
        record(log, L.BLOCKADES_DISCARDED, kind, s.blockades[kind])
        s.blockades[kind] = 0
    elif s.blockades[kind] == r.blockades_for_mutiny:
        for i in range(2):
            g = BLOCKADE_GUILDS[kind, i]
            if s.guild_open[g]:
                mutiny(s, r, log, g, BY_SECOND_BLOCKADE)
            else:
                record(log, L.NOT_ON_BOARD, g, MUTINY, BY_SECOND_BLOCKADE)


@compiled
def lift_temporary_events(s, r, log, cause):
    """A 7 or the Age of Prosperity sends every temporary event to the discard pile."""
    record(log, L.BLOCKADES_LIFTED, cause, s.blockades[0], s.blockades[1], s.blockades[2],
           s.blockades[3], s.plague)
    for kind in range(N_BLOCKADES):
        for _ in range(s.blockades[kind]):
            discard_event(s, FIRST_BLOCKADE_CARD + kind)
        s.blockades[kind] = 0
    if s.plague > 0:
        # Doctor: 2 coins per guild they top, except the Church and the Monastery.
        p = role_holder(s, DOCTOR)
        if p >= 0:
            topped = 0
            for g in range(N_GUILDS):
                if s.top_investor[g] == p and g != CHURCH and g != MONASTERY:
                    topped += 1
            role_pays(s, log, DOCTOR, r.doctor_plague_coins * topped, L.R_DOCTOR_PLAGUE, -1,
                      L.UP_DOCTOR_PLAGUE if topped else -1)
        for _ in range(s.plague):
            discard_event(s, PLAGUE)
        s.plague = 0


@compiled
def foreign_invasion(s, r, log):
    """Half of each player's standing inns are destroyed, one more if the number is odd."""
    s.invasions += 1
    destroyed = np.zeros(s.n_players, dtype=np.int64)
    for p in range(s.n_players):
        if s.inns[p] % 2:
            came_up(log, L.UP_INVASION_ROUNDING)
        lost = half(s.inns[p], r.invasion_rounding)
        if lost > 0:
            s.inns[p] -= lost
            s.destroyed_inns[p] += lost
            s.inns_lost[p] += lost
            destroyed[p] = lost
            record(log, L.INNS_DESTROYED, p, lost)
    if destroyed.sum() == 0:
        record(log, L.EVENT_NO_EFFECT, FOREIGN_INVASION)
    role_pays(s, log, DOCTOR, r.doctor_invasion_coins, L.R_DOCTOR_INVASION, -1, L.UP_DOCTOR_INVASION)
    # Mercenary: a coin for each rival inn destroyed by this invasion.
    m = role_holder(s, MERCENARY)
    if m >= 0:
        rival_inns = 0
        for p in range(s.n_players):
            if p != m:
                rival_inns += destroyed[p]
        role_pays(s, log, MERCENARY, r.mercenary_coins_per_inn * rival_inns, L.R_MERCENARY, -1,
                  L.UP_MERCENARY_COINS if rival_inns else -1)


@compiled
def land_expropriation(s, r, plans, rng, log):
    """Each player loses half their plots (one more if odd), choosing which; inns are untouched."""
    any_lost = False
    for p in range(s.n_players):
        if (s.plots[p] + s.cultivated[p]) % 2:
            came_up(log, L.UP_EXPROPRIATION_ROUNDING)
        lost = half(s.plots[p] + s.cultivated[p], r.expropriation_rounding)
        if lost == 0:
            continue
        # how many of the lost plots are cultivated: from as few to as many as they hold
        decided(s, min(s.cultivated[p], lost) - max(0, lost - s.plots[p]) + 1)
        cultivated = players.cultivated_plots_to_lose(s, r, p, plans, rng, lost)
        cultivated = min(max(cultivated, lost - s.plots[p]), s.cultivated[p], lost)
        record(log, L.LANDS_LOST, p, cultivated, lost - cultivated, s.cultivated[p], s.plots[p])
        s.cultivated[p] -= cultivated
        s.plots[p] -= lost - cultivated
        s.land_deck_n += lost
        any_lost = True
    if not any_lost:
        record(log, L.EVENT_NO_EFFECT, LAND_EXPROPRIATION)


@compiled
def tax_collection(s, r, log):
    """Players with four or more coins lose half (rounded up by default); the Governor takes it."""
    collected = 0
    for p in range(s.n_players):
        # The Governor's own tax comes straight back to them: they lose nothing.
        if not has_role(s, p, GOVERNOR):
            came_up(log, L.UP_TAX_THRESHOLD)
        if s.coins[p] >= r.tax_threshold and not has_role(s, p, GOVERNOR):
            if s.coins[p] % 2:
                came_up(log, L.UP_TAX_ROUNDING)
            tax = half(s.coins[p], r.tax_rounding)
            s.coins[p] -= tax
            collected += tax
            record(log, L.TAX_PAID, p, tax, s.coins[p])
    if collected == 0:
        record(log, L.EVENT_NO_EFFECT, TAX_COLLECTION, r.tax_threshold)
    role_pays(s, log, GOVERNOR, collected, L.R_GOVERNOR, -1, -1)


# --- A whole game ------------------------------------------------------------------------------

@compiled
def player_of_turn(n_players, two_player_turns, turn):
    """Clockwise from seat 0; with two players, two turns each after seat 0's single first one."""
    if two_player_turns:
        return ((turn + 1) // 2) % 2
    return turn % n_players


@compiled
def play_turn(s, r, plans, rng, log):
    s.player = player_of_turn(s.n_players, s.two_player_turns, s.turn)
    record(log, L.TURN, s.player, s.turn)
    event_phase(s, r, plans, rng, log)
    finish_turn(s, r, plans, rng, log)


@compiled
def finish_turn(s, r, plans, rng, log):
    """The turn after its event phase: the roll, the collection and the investments."""
    if not s.over:
        roll_phase(s, r, rng, log)
    if not s.over:
        collection_phase(s, r, log)
        investment_phase(s, r, plans, rng, log)
    s.turn += 1


@compiled
def play_on(s, r, plans, rng, log, until_turn):
    """Play turns until the game ends, reaches ``max_turns`` (marked truncated) or turn
    ``until_turn`` (a search's rollout stops there)."""
    while not s.over and s.turn < until_turn:
        if s.turn >= r.max_turns:
            came_up(log, L.UP_MAX_TURNS)
            s.truncated = 1
            break
        play_turn(s, r, plans, rng, log)


# Compiled into the batch loop, its one caller: as a function of its own, LLVM would optimise
# the whole game below it once more.
@compiled(inline="always")
def play_game(r, n_players, mode, fixed_roles, plans, rng, log, leaders):
    """Set up and play one game to its end (or to ``max_turns``, marked truncated), a turn at a
    time, noting in ``leaders`` who leads by victory points after each turn."""
    table = new_game(r, n_players, mode, fixed_roles, plans, rng, log)
    s = table[0]
    scores = np.zeros(4, dtype=np.int64)
    while not s.over and not s.truncated:
        turn = s.turn
        play_on(s, r, plans, rng, log, turn + 1)
        for p in range(n_players):
            scores[p] = victory_points(s, r, p)
        if s.turn > turn:  # not the step that only marks the game truncated
            note_leader(leaders, scores, n_players)
        # the last turn's table is the end of the game: nothing is scored after it
        if checking(log):
            invariants.check(s, r, mode, log)
        if found_broken(log):
            break
    record(log, L.GAME_END, n_players, scores[0], scores[1], scores[2], scores[3], s.truncated)
    return table
