"""Gremios: the table as numbers, and the questions the rules and the players ask of it.

One game's state is a numpy record of dtype ``STATE`` (field layout below); the rule numbers
are a record of ``rules.toml``'s parameters (``r.inn_cost``...). Everything here is read-only
except the small bookkeeping helpers at the end; the turn itself is in ``turn.py``.
"""

import numpy as np

from simulator.core.jit import compiled
from simulator.core.tables import table_factory

MAX_PLAYERS = 4
MAX_EVENT_CARDS = 256  # event deck + discard; rules.toml card counts are capped to fit
MAX_TREASURES = 256
MAX_EXPEDITION_SLOTS = 10

# Guilds, by index; GUILD_NUMBERS below gives the number printed on each (see rules.toml [notes]).
CHURCH, SMITHY, QUARRY, MARKET, FARM, TAVERN, PORT, SAWMILL, JEWELLERY_SHOP, MONASTERY = range(10)
N_GUILDS = 10
GUILD_NAMES = ("Church", "Smithy", "Quarry", "Market", "Farm", "Tavern", "Port", "Sawmill",
               "Jewellery Shop", "Monastery")
# The number on each guild, by the rules' famine_numbers choice: the Famine's Farm and Tavern on
# 6 and 8 (and the Mine Collapse's Smithy and Jewellery Shop on 3 and 11), or the other way round.
GUILD_NUMBERS = np.array([[2, 3, 4, 5, 6, 8, 9, 10, 11, 12],
                          [2, 6, 4, 5, 3, 11, 9, 10, 8, 12]], dtype=np.int64)

# Blockade kinds: each blocks the two guilds under its padlock.
MINE_COLLAPSE, MATERIAL_SHORTAGE, TRADE_BLOCKADE, FAMINE = range(4)
N_BLOCKADES = 4
BLOCKADE_NAMES = ("Mine Collapse", "Material Shortage", "Trade Blockade", "Famine")
BLOCKADE_OF_GUILD = np.array([-1, MINE_COLLAPSE, MATERIAL_SHORTAGE, TRADE_BLOCKADE, FAMINE, FAMINE,
                              TRADE_BLOCKADE, MATERIAL_SHORTAGE, MINE_COLLAPSE, -1], dtype=np.int64)
BLOCKADE_GUILDS = np.array([[SMITHY, JEWELLERY_SHOP], [QUARRY, SAWMILL], [MARKET, PORT],
                            [FARM, TAVERN]], dtype=np.int64)

# Event cards: 0-9 found the guild of that index; then the action and temporary events.
GOOD_HARVEST, AGE_OF_PROSPERITY, EXPEDITION, BAD_HARVEST, BANKRUPTCY, MUTINY, FOREIGN_INVASION, \
    LAND_EXPROPRIATION, TAX_COLLECTION = range(10, 19)
FIRST_BLOCKADE_CARD = 19  # + blockade kind
PLAGUE = 23
N_EVENT_KINDS = 24
EVENT_NAMES = GUILD_NAMES + (
    "Good Harvest", "Age of Prosperity", "Expedition", "Bad Harvest", "Bankruptcy", "Mutiny",
    "Foreign Invasion", "Land Expropriation", "Tax Collection") + BLOCKADE_NAMES + ("Plague",)

# Treasure cards.
WEALTH_LOW, WEALTH_HIGH, COMMON_TREASURE, RARE_TREASURE = range(4)
TREASURE_NAMES = ("wealth (low)", "wealth (high)", "common treasure", "rare treasure")

# Roles.
ARCHBISHOP, CRAFTSMAN, DOCTOR, GOVERNOR, INNKEEPER, MASTER_BUILDER, MERCENARY, PEASANT, PIRATE, \
    SHOPKEEPER, STOWAWAY, TRADER = range(12)
N_ROLES = 12
ROLE_NAMES = ("archbishop", "craftsman", "doctor", "governor", "innkeeper", "master_builder",
              "mercenary", "peasant", "pirate", "shopkeeper", "stowaway", "trader")
NO_ROLE = -1

# Modes.
STANDARD, ULTIMATE_DUEL = 0, 1
MODE_NAMES = ("standard", "ultimate_duel")

# Where a player's coins came from (columns coins_<source> of the seats table).
FROM_TURN, FROM_INNS, FROM_GUILDS, FROM_EVENTS, FROM_ROLES, FROM_TREASURES = range(6)
N_COIN_SOURCES = 6
COIN_SOURCE_NAMES = ("turn", "inns", "guilds", "events", "roles", "treasures")

STATE = np.dtype([
    # the table
    ("n_players", np.int64),
    ("two_player_turns", np.int64),          # 1: two consecutive turns each (2-player rules)
    ("roles", np.int64, (MAX_PLAYERS, 2)),   # role ids held; second is NO_ROLE except in the duel
    ("role_not_chosen", np.int64, (MAX_PLAYERS,)),  # the dealt card not kept (face down)
    ("fixed_roles", np.int64, (MAX_PLAYERS, 2)),  # roles given by --roles (or a mix entry), or -1
    ("role_deck", np.int64, (N_ROLES,)),     # the role cards still to deal (face down)
    ("role_deck_n", np.int64),
    ("coins", np.int64, (MAX_PLAYERS,)),
    ("guild_open", np.int64, (N_GUILDS,)),   # 1 once founded (on the board)
    ("investments", np.int64, (MAX_PLAYERS, N_GUILDS)),
    ("top_investor", np.int64, (N_GUILDS,)), # player holding the marker, or -1
    ("top_investor_points", np.int64, (MAX_PLAYERS,)),  # points from markers held (kept by
                                             # set_top_investor: read far more often than changed)
    ("first_placed", np.int64, (MAX_PLAYERS, N_GUILDS)),  # when their earliest coin there was placed
    ("placements", np.int64),                # coins placed on guilds so far (the clock for that)
    ("expedition", np.int64, (MAX_EXPEDITION_SLOTS,)),  # investor per slot, in placement order
    ("expedition_n", np.int64),
    ("plots", np.int64, (MAX_PLAYERS,)),     # uncultivated plots
    ("cultivated", np.int64, (MAX_PLAYERS,)),
    ("inns", np.int64, (MAX_PLAYERS,)),      # standing inns
    ("destroyed_inns", np.int64, (MAX_PLAYERS,)),
    ("treasures", np.int64, (MAX_PLAYERS, 4)),  # held, by treasure kind (hidden from rivals)
    ("treasures_given_up", np.int64, (MAX_PLAYERS, 4)),  # exchanged or sold, by kind (own info)
    ("treasures_shown", np.int64, (MAX_PLAYERS, 4)),  # of those, exchanged face up (public)
    ("emblem", np.int64),                    # holder of the discoverer emblem, or -1
    ("blockades", np.int64, (N_BLOCKADES,)), # active cards of each kind
    ("plague", np.int64),                    # active Plague cards
    ("pending", np.int64),                   # event waiting for the next roll (Mutiny, ...) or -1
    # decks: the top of a deck is its last card
    ("event_deck", np.int64, (MAX_EVENT_CARDS,)),
    ("event_deck_n", np.int64),
    ("event_discard", np.int64, (MAX_EVENT_CARDS,)),
    ("event_discard_n", np.int64),
    ("events_aside_n", np.int64),            # the unseen set-aside cards: event_discard[:n]
    ("event_top_known", np.int64),           # 1: the deck's top card is the Governor's returned one
    ("treasure_deck", np.int64, (MAX_TREASURES,)),
    ("treasure_deck_n", np.int64),
    ("land_deck_n", np.int64),
    ("inn_deck_n", np.int64),
    # the turn
    ("turn", np.int64),                      # turns played so far
    ("player", np.int64),                    # whose turn it is
    ("over", np.int64),
    ("truncated", np.int64),
    ("guild_investments_left", np.int64),    # this turn's allowances
    ("expedition_investments_left", np.int64),
    ("extra_investments_left", np.int64),    # Trader
    ("free_cultivations_left", np.int64),    # Peasant
    ("free_repairs_left", np.int64),         # Master Builder
    ("craftsman_trade_left", np.int64),
    ("mercenary_mutiny_left", np.int64),
    ("points_told", np.int64, (MAX_PLAYERS,)),  # victory points as last told in the replay log
    # what happened, for the dataset
    ("decisions", np.int64),                 # choices among two or more options (core/unfolding.py)
    ("coins_from", np.int64, (MAX_PLAYERS, N_COIN_SOURCES)),
    ("guild_investments_made", np.int64, (MAX_PLAYERS,)),
    ("expedition_investments_made", np.int64, (MAX_PLAYERS,)),
    ("lands_bought", np.int64, (MAX_PLAYERS,)),
    ("inns_built", np.int64, (MAX_PLAYERS,)),
    ("inns_lost", np.int64, (MAX_PLAYERS,)),
    ("inns_repaired", np.int64, (MAX_PLAYERS,)),
    ("treasures_taken", np.int64, (MAX_PLAYERS,)),
    ("treasures_bought", np.int64, (MAX_PLAYERS,)),
    ("treasures_cashed", np.int64, (MAX_PLAYERS,)),
    ("mutinies_caused", np.int64, (MAX_PLAYERS,)),
    ("rolls", np.int64),
    ("sevens", np.int64),
    ("events_revealed", np.int64),
    ("expeditions", np.int64),
    ("expeditions_won", np.int64),
    ("mutinies", np.int64),
    ("bankruptcies", np.int64),
    ("invasions", np.int64),
    ("event_reshuffles", np.int64),
])


new_table, copy_of = table_factory(STATE)


@compiled
def event_card_counts(r):
    """How many of each action and temporary event card the deck holds, from Good Harvest
    (card GOOD_HARVEST) to the Plague (card PLAGUE), in card order."""
    return r.event_cards


@compiled
def has_role(s, p, role):
    return s.roles[p, 0] == role or s.roles[p, 1] == role


@compiled
def role_holder(s, role):
    """The player with ``role``, or -1 (each role card exists once)."""
    for p in range(s.n_players):
        if has_role(s, p, role):
            return p
    return -1


# --- victory points --------------------------------------------------------------------------

@compiled
def guild_vp(s, r, p, g):
    """Points player ``p`` gets for topping guild ``g`` (the Archbishop's Church and Monastery: 2)."""
    if (g == CHURCH or g == MONASTERY) and has_role(s, p, ARCHBISHOP):
        return r.archbishop_guild_vp
    return r.vp_top_investor


@compiled
def vp_top_investor(s, r, p):
    return s.top_investor_points[p]


@compiled
def set_top_investor(s, r, g, p):
    """Move guild ``g``'s top-investor marker to ``p`` (-1: nobody), with the points it carries."""
    old = s.top_investor[g]
    if old >= 0:
        s.top_investor_points[old] -= guild_vp(s, r, old, g)
    if p >= 0:
        s.top_investor_points[p] += guild_vp(s, r, p, g)
    s.top_investor[g] = p


@compiled
def vp_inns(s, r, p):
    return s.inns[p] * r.vp_inn


@compiled
def vp_treasures(s, r, p):
    return s.treasures[p, COMMON_TREASURE] * r.vp_common_treasure + \
        s.treasures[p, RARE_TREASURE] * r.vp_rare_treasure


@compiled
def vp_emblem(s, r, p):
    return r.vp_emblem if s.emblem == p else 0


AT_ONCE, FINISH_ACTION = 0, 1  # rules.end_rule


@compiled
def victory_points(s, r, p):
    return vp_top_investor(s, r, p) + vp_inns(s, r, p) + vp_treasures(s, r, p) + vp_emblem(s, r, p)


@compiled
def treasure_count(s, p):
    return s.treasures[p, 0] + s.treasures[p, 1] + s.treasures[p, 2] + s.treasures[p, 3]


# --- guilds ----------------------------------------------------------------------------------

@compiled
def guild_number(r, g):
    return GUILD_NUMBERS[r.famine_numbers, g]


@compiled
def guild_of_roll(r, roll):
    """The guild a roll pays, or -1 (a 7)."""
    for g in range(N_GUILDS):
        if GUILD_NUMBERS[r.famine_numbers, g] == roll:
            return g
    return -1


@compiled
def guild_coins(s, g):
    total = 0
    for p in range(s.n_players):
        total += s.investments[p, g]
    return total


@compiled
def guild_blocked_for(s, p, g):
    """Whether guild ``g`` pays player ``p`` nothing on its roll because of temporary events."""
    if s.plague > 0 and g != CHURCH and g != MONASTERY:
        return True
    kind = BLOCKADE_OF_GUILD[g]
    if kind < 0 or s.blockades[kind] == 0:
        return False
    # The Pirate collects from the Market and the Port despite the Trade Blockade.
    return not (kind == TRADE_BLOCKADE and has_role(s, p, PIRATE))


FIRST_INVESTED, HOLDER_KEEPS = 0, 1  # rules.top_investor_ties


@compiled
def takes_top_investor(s, r, p, g, investments):
    """Whether ``p`` holding ``investments`` in ``g`` takes the top-investor marker from its holder.

    More investments take it; an equal number takes it only for the player who invested first
    (unless the rules keep ties with the holder). Only investing moves the marker: a mutiny never does.
    """
    top = s.top_investor[g]
    if top < 0 or top == p:
        return True
    if investments != s.investments[top, g]:
        return investments > s.investments[top, g]
    first = s.first_placed[p, g] if s.investments[p, g] > 0 else s.placements + 1
    return r.top_investor_ties == FIRST_INVESTED and first < s.first_placed[top, g]


# --- costs ------------------------------------------------------------------------------------

@compiled
def guild_investment_cost(s, r, p, g):
    # The Craftsman's first investment in the Smithy and the Jewellery Shop is free (again after
    # a bankruptcy there, which is when their count is back to zero).
    if (g == SMITHY or g == JEWELLERY_SHOP) and has_role(s, p, CRAFTSMAN) and s.investments[p, g] == 0:
        return 0
    return r.invest_coins_placed + r.invest_coins_to_reserve


@compiled
def expedition_investment_cost(s, r, p):
    # The Stowaway invests for free in an empty expedition.
    if s.expedition_n == 0 and has_role(s, p, STOWAWAY):
        return 0
    return r.invest_coins_placed + r.invest_coins_to_reserve


@compiled
def inn_cost(s, r, p):
    cost = r.inn_cost
    if has_role(s, p, MASTER_BUILDER):
        cost = max(0, cost - r.master_builder_discount)
    return cost


@compiled
def inn_cost_with_plot(s, r, p):
    """Coins needed to build an inn now, buying the plot first if the player has none."""
    if s.plots[p] + s.cultivated[p] > 0:
        return inn_cost(s, r, p)
    return inn_cost(s, r, p) + r.land_cost


@compiled
def repair_cost(s, r, p):
    return 0 if s.free_repairs_left > 0 else r.repair_cost


@compiled
def cultivate_cost(s, r, p):
    return 0 if s.free_cultivations_left > 0 else r.cultivate_cost


@compiled
def wealth_coins(r, kind):
    return r.wealth_low_coins if kind == WEALTH_LOW else r.wealth_high_coins


@compiled
def stowaway_threshold(s, r):
    return r.stowaway_threshold_two_players if s.two_player_turns else r.stowaway_threshold


@compiled
def expedition_stakes(s, p):
    n = 0
    for i in range(s.expedition_n):
        if s.expedition[i] == p:
            n += 1
    return n


@compiled
def investment_actions_left(s, expedition):
    """Investments still allowed this turn in a guild (``expedition`` False) or the expedition."""
    own = s.expedition_investments_left if expedition else s.guild_investments_left
    return own + s.extra_investments_left


@compiled
def success_probability(r):
    """Chance that 2d6 lands in the expedition's success range."""
    chance = 0.0
    for total in range(max(2, r.expedition_success_low), min(12, r.expedition_success_high) + 1):
        chance += roll_probability(total)
    return chance


@compiled
def roll_probability(total):
    """Chance of a 2d6 total."""
    if total < 2 or total > 12:
        return 0.0
    return (6 - abs(total - 7)) / 36.0
