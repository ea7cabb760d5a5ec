"""Gremios's invariants: what holds of every table between turns, checked after each turn of a
checked run (``playtest run gremios --check``)."""

import numpy as np

from simulator.core.jit import compiled
from simulator.core.trace import broken
from simulator.games.gremios.board import (
    AT_ONCE, BANKRUPTCY, EXPEDITION, FIRST_BLOCKADE_CARD, GOOD_HARVEST, MAX_EVENT_CARDS,
    MAX_EXPEDITION_SLOTS, MAX_TREASURES, MUTINY, N_BLOCKADES, N_EVENT_KINDS, N_GUILDS, N_ROLES,
    NO_ROLE, PLAGUE, ULTIMATE_DUEL, event_card_counts, guild_coins, guild_vp, treasure_count,
    victory_points,
)

INVARIANTS = (
    "{b} event cards of kind {a} (0-9 the guilds, 10 Good Harvest to 23 the Plague) are in the "
    "event deck, the discard pile, on the board and waiting for the roll, not the deck's count "
    "(a guild card once: in the deck or founded)",
    "{a} event cards are set aside at the bottom of a discard pile of {b}",
    "{b} treasure cards of kind {a} (0 wealth (low), 1 wealth (high), 2 common, 3 rare) are in "
    "the treasure deck, the players' hands and out of the game, not the deck's count",
    "{a} land cards are in the land deck and the players' plots (cultivated or not), not the "
    "{b} of the deck",
    "{a} inn cards are in the inn deck and the players' inns (standing or destroyed), not the "
    "{b} of the deck",
    "the {a} deck (0 event deck, 1 event discard pile, 2 treasure, 3 land, 4 inn, 5 role) holds "
    "{b} cards, fewer than none or more than it can",
    "role card {a} is {b} times among the players' roles, the cards not chosen and the role "
    "deck (each role card exists once)",
    "player {a} holds role {b}: not one role card, or two different ones in the Ultimate Duel",
    "player {a} holds {b} coins, fewer than none",
    "player {a} holds {b} coins, more than their starting coins and all the coins they received",
    "player {a} holds {b} plots, inns, treasures or investments of one kind, fewer than none",
    "guild {a} is not on the board but holds {b} coins",
    "guild {a} holds {b} coins, more than its slots",
    "guild {a}'s top-investor marker is with player {b}, who does not have the most "
    "investments there",
    "guild {a} holds {b} coins but nobody holds its top-investor marker",
    "player {a} scores {b}, not the sum of their points from the guilds they top, their "
    "undestroyed inns, their treasures and the discoverer emblem",
    "the discoverer emblem is with player {a}, who holds {b} treasure cards: not a player at the "
    "table, not the most, or fewer than the minimum",
    "the discoverer emblem is discarded while player {a} alone holds the most treasure cards, "
    "{b}, at least the minimum",
    "player {a} holds {b} treasure cards, not those taken less those exchanged or sold",
    "player {a} has shown {b} exchanged treasures of one kind, more than they gave up",
    "player {a} has {b} undestroyed inns, not those built and repaired less those destroyed",
    "player {a} has {b} destroyed inns, not those destroyed less those repaired",
    "{a} investments are on the expedition, which sails when its {b} slots are filled",
    "expedition slot {a} holds player {b}, not a player at the table",
    "{b} blockade cards of kind {a} (0 Mine Collapse, 1 Material Shortage, 2 Trade Blockade, "
    "3 Famine) are active: fewer than none, or as many as cause a bankruptcy (they are then "
    "discarded)",
    "event card {a} waits for a roll after turn {b} (only an Expedition, a Mutiny or a "
    "Bankruptcy waits, for the roll of its own turn)",
    "allowance {a} of the turn (0 guild investments, 1 expedition investments, 2 the Trader's "
    "repeats, 3 the Peasant's free cultivations, 4 the Master Builder's free repairs, 5 the "
    "Craftsman's trades, 6 the Mercenary's mutinies) is {b}, used more often than the rules allow",
    "player {a} has {b} victory points, the target reached, yet the game goes on",
    "the game is over with at most {a} victory points, below the target of {b}",
    "{a} players have reached the target of {b} victory points, though the game ends the moment "
    "one does (end_rule at_once)",
    "it is player {a}'s turn at a table of {b}",
    "{a} turns were played, more than the limit of {b}",
)
(EVENT_CARDS, SET_ASIDE, TREASURE_CARDS, LAND_CARDS, INN_CARDS, DECK_SIZE, ROLE_CARDS, ROLES_HELD,
 COINS_NEGATIVE, COINS_FROM_NOWHERE, HOLDINGS_NEGATIVE, GUILD_NOT_ON_BOARD, GUILD_FULL,
 TOP_INVESTOR_NOT_MOST, TOP_INVESTOR_MISSING, SCORE_SOURCES, EMBLEM_HOLDER, EMBLEM_DISCARDED,
 TREASURES_HELD, TREASURES_SHOWN, INNS_STANDING, INNS_DESTROYED, EXPEDITION_FULL,
 EXPEDITION_STAKE, BLOCKADES, PENDING, ALLOWANCES, GAME_GOES_ON, OVER_BELOW_TARGET,
 TWO_AT_TARGET, TURN_PLAYER, TURN_LIMIT) = range(32)


@compiled
def check(s, r, mode, log):
    """Note in ``log`` each invariant the table ``s`` breaks between turns (the first noted is
    kept)."""
    found = np.zeros(N_EVENT_KINDS, dtype=np.int64)  # cards of each kind, for both card checks
    check_event_cards(s, r, log, found)
    check_resource_cards(s, r, log, found)
    check_roles(s, mode, log)
    for p in range(s.n_players):
        check_holdings(s, r, log, p)
    check_guilds(s, r, log)
    check_emblem(s, r, log)
    check_expedition(s, r, log)
    check_turn(s, r, log)


@compiled
def check_event_cards(s, r, log, found):
    """Every event card in the deck, the discard pile, on the board (a founded guild, an active
    blockade or Plague) or waiting for the roll; the set-aside cards under the discard pile."""
    if not (0 <= s.event_deck_n <= MAX_EVENT_CARDS):
        broken(log, DECK_SIZE, 0, s.event_deck_n)
        return
    if not (0 <= s.event_discard_n <= MAX_EVENT_CARDS - s.event_deck_n):
        broken(log, DECK_SIZE, 1, s.event_discard_n)
        return
    found[:] = 0
    for i in range(s.event_deck_n):
        card = s.event_deck[i]
        if 0 <= card < N_EVENT_KINDS:
            found[card] += 1
        else:
            broken(log, EVENT_CARDS, card, 1)
    for i in range(s.event_discard_n):
        card = s.event_discard[i]
        if 0 <= card < N_EVENT_KINDS:
            found[card] += 1
        else:
            broken(log, EVENT_CARDS, card, 1)
    for g in range(N_GUILDS):
        found[g] += s.guild_open[g]
    for kind in range(N_BLOCKADES):
        found[FIRST_BLOCKADE_CARD + kind] += s.blockades[kind]
    found[PLAGUE] += s.plague
    if 0 <= s.pending < N_EVENT_KINDS:
        found[s.pending] += 1
    counts = event_card_counts(r)
    for card in range(N_EVENT_KINDS):
        expected = 1 if card < N_GUILDS else counts[card - GOOD_HARVEST]
        if found[card] != expected:
            broken(log, EVENT_CARDS, card, found[card])
    if not (0 <= s.events_aside_n <= s.event_discard_n):
        broken(log, SET_ASIDE, s.events_aside_n, s.event_discard_n)


@compiled
def check_resource_cards(s, r, log, found):
    """The treasure, land and inn cards: each in its deck, with a player, or (a treasure
    exchanged or sold) out of the game."""
    if not (0 <= s.treasure_deck_n <= MAX_TREASURES):
        broken(log, DECK_SIZE, 2, s.treasure_deck_n)
    else:
        printed = (r.wealth_low_cards, r.wealth_high_cards, r.common_treasure_cards,
                   r.rare_treasure_cards)
        found[:4] = 0
        for i in range(s.treasure_deck_n):
            kind = s.treasure_deck[i]
            if 0 <= kind < 4:
                found[kind] += 1
            else:
                broken(log, TREASURE_CARDS, kind, 1)
        for kind in range(4):
            for p in range(s.n_players):
                found[kind] += s.treasures[p, kind] + s.treasures_given_up[p, kind]
            if found[kind] != printed[kind]:
                broken(log, TREASURE_CARDS, kind, found[kind])
    if s.land_deck_n < 0:
        broken(log, DECK_SIZE, 3, s.land_deck_n)
    if s.inn_deck_n < 0:
        broken(log, DECK_SIZE, 4, s.inn_deck_n)
    lands = s.land_deck_n
    inns = s.inn_deck_n
    for p in range(s.n_players):
        lands += s.plots[p] + s.cultivated[p]
        inns += s.inns[p] + s.destroyed_inns[p]
    if lands != r.land_cards:
        broken(log, LAND_CARDS, lands, r.land_cards)
    if inns != r.inn_cards:
        broken(log, INN_CARDS, inns, r.inn_cards)


@compiled
def check_roles(s, mode, log):
    """Each role card once: held, not chosen, or still in the role deck."""
    if not (0 <= s.role_deck_n <= N_ROLES):
        broken(log, DECK_SIZE, 5, s.role_deck_n)
        return
    seen = 0  # a bit per role card: one pass over the places instead of one per role
    for i in range(s.role_deck_n):
        seen = see_role(s, log, seen, s.role_deck[i])
    for p in range(s.n_players):
        seen = see_role(s, log, seen, s.roles[p, 0])
        seen = see_role(s, log, seen, s.roles[p, 1])
        seen = see_role(s, log, seen, s.role_not_chosen[p])
    for p in range(s.n_players):
        first, second = s.roles[p, 0], s.roles[p, 1]
        if not 0 <= first < N_ROLES:
            broken(log, ROLES_HELD, p, first)
        if mode == ULTIMATE_DUEL and not (0 <= second < N_ROLES and second != first):
            broken(log, ROLES_HELD, p, second)
        if mode != ULTIMATE_DUEL and second != NO_ROLE:
            broken(log, ROLES_HELD, p, second)


@compiled(inline="always")  # called 15 times a check: a call each would cost more than the rest
def see_role(s, log, seen, role):
    """``seen`` with role card ``role`` added (a role out of range is ROLES_HELD's to report)."""
    if not 0 <= role < N_ROLES:
        return seen
    bit = np.int64(1) << role
    if seen & bit:
        found = 0
        for i in range(s.role_deck_n):
            found += s.role_deck[i] == role
        for p in range(s.n_players):
            found += (s.roles[p, 0] == role) + (s.roles[p, 1] == role) + \
                (s.role_not_chosen[p] == role)
        broken(log, ROLE_CARDS, role, found)
    return seen | bit


@compiled
def check_holdings(s, r, log, p):
    """Player ``p``'s coins, plots, inns and treasures: none below zero, and the dataset's counts
    of how they came and went adding up to what the player holds."""
    if s.coins[p] < 0:
        broken(log, COINS_NEGATIVE, p, s.coins[p])
    received = r.starting_coins
    for source in range(s.coins_from.shape[1]):
        received += s.coins_from[p, source]
    if s.coins[p] > received:
        broken(log, COINS_FROM_NOWHERE, p, s.coins[p])
    lowest = min(s.plots[p], s.cultivated[p], s.inns[p], s.destroyed_inns[p])
    for kind in range(4):
        lowest = min(lowest, s.treasures[p, kind], s.treasures_given_up[p, kind])
        if s.treasures_shown[p, kind] > s.treasures_given_up[p, kind]:
            broken(log, TREASURES_SHOWN, p, s.treasures_shown[p, kind])
    for g in range(N_GUILDS):
        lowest = min(lowest, s.investments[p, g])
    if lowest < 0:
        broken(log, HOLDINGS_NEGATIVE, p, lowest)
    held = treasure_count(s, p)
    if held != s.treasures_taken[p] - s.treasures_cashed[p]:
        broken(log, TREASURES_HELD, p, held)
    if s.inns[p] != s.inns_built[p] + s.inns_repaired[p] - s.inns_lost[p]:
        broken(log, INNS_STANDING, p, s.inns[p])
    if s.destroyed_inns[p] != s.inns_lost[p] - s.inns_repaired[p]:
        broken(log, INNS_DESTROYED, p, s.destroyed_inns[p])
    # the score from the table itself: the marker points kept by set_top_investor recounted
    markers = 0
    for g in range(N_GUILDS):
        if s.top_investor[g] == p:
            markers += guild_vp(s, r, p, g)
    sources = markers + s.inns[p] * r.vp_inn + \
        s.treasures[p, 2] * r.vp_common_treasure + s.treasures[p, 3] * r.vp_rare_treasure + \
        (r.vp_emblem if s.emblem == p else 0)
    if victory_points(s, r, p) != sources:
        broken(log, SCORE_SOURCES, p, victory_points(s, r, p))


@compiled
def check_guilds(s, r, log):
    """Coins only on founded guilds, within their slots; the top investor has the most there."""
    for g in range(N_GUILDS):
        coins = guild_coins(s, g)
        if coins > 0 and not s.guild_open[g]:
            broken(log, GUILD_NOT_ON_BOARD, g, coins)
        if coins > r.guild_slots:
            broken(log, GUILD_FULL, g, coins)
        top = s.top_investor[g]
        if top < 0:
            if top != -1 or coins > 0:
                broken(log, TOP_INVESTOR_MISSING, g, coins)
            continue
        # a tie leaves the marker where it is: only investing moves it, a mutiny never
        if top >= s.n_players or s.investments[top, g] == 0:
            broken(log, TOP_INVESTOR_NOT_MOST, g, top)
            continue
        for p in range(s.n_players):
            if s.investments[p, g] > s.investments[top, g]:
                broken(log, TOP_INVESTOR_NOT_MOST, g, top)


@compiled
def check_emblem(s, r, log):
    """Discoverer Emblem: with the player with the most treasure cards, at least two; on a tie
    for the most it stays with its holder, or stays discarded."""
    holder = s.emblem
    if holder >= s.n_players or holder < -1:
        broken(log, EMBLEM_HOLDER, holder, 0)
        return
    most, most_player, alone = 0, -1, False
    for p in range(s.n_players):
        held = treasure_count(s, p)
        if held > most:
            most, most_player, alone = held, p, True
        elif held == most:
            alone = False
    if holder >= 0:
        held = treasure_count(s, holder)
        if held < most or held < r.emblem_min_treasures:
            broken(log, EMBLEM_HOLDER, holder, held)
    elif alone and most >= r.emblem_min_treasures:
        broken(log, EMBLEM_DISCARDED, most_player, most)


@compiled
def check_expedition(s, r, log):
    """The ship sails as soon as its last slot is filled, so between turns a slot is free."""
    slots = min(r.expedition_slots, MAX_EXPEDITION_SLOTS)
    if not (0 <= s.expedition_n < slots):
        broken(log, EXPEDITION_FULL, s.expedition_n, slots)
        return
    for i in range(s.expedition_n):
        if not 0 <= s.expedition[i] < s.n_players:
            broken(log, EXPEDITION_STAKE, i, s.expedition[i])


@compiled
def check_turn(s, r, log):
    """Temporary events, the event waiting for the roll, this turn's allowances, whose turn it
    is, and the end: the game stops when a player reaches the target."""
    for kind in range(N_BLOCKADES):
        if not 0 <= s.blockades[kind] < r.blockades_for_bankruptcy:
            broken(log, BLOCKADES, kind, s.blockades[kind])
    # the event phase's pending card is resolved by the same turn's roll, unless the game ended
    waits = s.pending == EXPEDITION or s.pending == MUTINY or s.pending == BANKRUPTCY
    if s.pending != -1 and not (waits and s.over):
        broken(log, PENDING, s.pending, s.turn)
    allowances = (s.guild_investments_left, s.expedition_investments_left,
                  s.extra_investments_left, s.free_cultivations_left, s.free_repairs_left,
                  s.craftsman_trade_left, s.mercenary_mutiny_left)
    for k in range(7):
        if allowances[k] < 0:
            broken(log, ALLOWANCES, k, allowances[k])
    if not 0 <= s.player < s.n_players:
        broken(log, TURN_PLAYER, s.player, s.n_players)
    if s.turn > r.max_turns:
        broken(log, TURN_LIMIT, s.turn, r.max_turns)
    best, at_target = 0, 0
    for p in range(s.n_players):
        points = victory_points(s, r, p)
        best = max(best, points)
        if points >= r.victory_points_to_win:
            at_target += 1
            if not s.over:
                broken(log, GAME_GOES_ON, p, points)
    if s.over and best < r.victory_points_to_win:
        broken(log, OVER_BELOW_TARGET, best, r.victory_points_to_win)
    if r.end_rule == AT_ONCE and at_target > 1:
        broken(log, TWO_AT_TARGET, at_target, r.victory_points_to_win)
