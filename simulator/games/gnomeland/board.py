"""Gnomeland: the table as numbers, and the questions the rules and the players ask of it.

One game's state is a numpy record of dtype ``STATE`` (layout below, field by field); the rule
numbers are a record of ``rules.toml``'s parameters (``r.hex_penalty``...) and of its card tables
(``r.n_cost``...: a card's numbers by its index), so the rules read a card by its index.
Resources are indexed COIN, MANA, WEAPON; mercenaries TRADER, WIZARD, SOLDIER in the same order
as the resource they give (a Trader gives Coins, a Wizard Mana, a Soldier Weapons).

Nothing is hidden in Gnomeland but the order of the decks: every field except the decks'
contents may be read by any player.
"""

import numpy as np

from simulator.core.jit import compiled
from simulator.core.tables import table_factory

MAX_PLAYERS = 4
MAX_DICE = 12          # a player's dice in one turn: their own plus neutral dice
MAX_DECK = 64          # spell and action decks (rules.toml counts are checked against it)

COIN, MANA, WEAPON = range(3)
RESOURCE_NAMES = ("Coin", "Mana", "Weapons")
TRADER, WIZARD, SOLDIER = range(3)   # a mercenary's index is the resource it gives
MERCENARY_NAMES = ("Trader", "Wizard", "Soldier")

# --- buildings ---------------------------------------------------------------------------------
# Normal buildings: the two printed ones, then the five cards of a player's deck (Base / Advanced).
KIOSK, GUARD_POST, SHOP, INN, FORGE, SHRINE, MARKET = range(7)
N_NORMAL_TYPES = 7
FIRST_NORMAL_CARD = SHOP
NORMAL_NAMES = (("Kiosk", "Kiosk"), ("Guard Post", "Guard Post"), ("Shop", "Bank"),
                ("Inn", "Hotel"), ("Forge", "Armoury"), ("Shrine", "Abbey"),
                ("Market", "Exchange"))
# Special buildings: the three printed ones, then the five cards.
WAREHOUSE, GNOME_HOUSE, PIER, COURT, OBELISK, PALACE, SANCTUARY = range(7)
N_SPECIAL_TYPES = 7
FIRST_SPECIAL_CARD = PIER
SPECIAL_NAMES = (("Warehouse", "Warehouse"), ("Gnome House", "Gnome House"), ("Pier", "Port"),
                 ("Court", "Town Hall"), ("Obelisk", "Monument"), ("Palace", "Castle"),
                 ("Sanctuary", "Temple"))
N_CARDS = 5            # of each kind in a player's deck
EMPTY = -1
BASE, ADVANCED = 0, 1
# where a card of a player's deck is (deck_at)
IN_DECK, ON_BOARD, COVERED = 0, 1, 2

# --- missions, actions, spells -----------------------------------------------------------------
N_MISSIONS = 10
MISSION_NAMES = (("Embassy", "Grand Embassy"), ("Watchtower", "Dragons' Lair"),
                 ("Market Day", "Trade Fair"), ("Apprentice", "Arcane Rite"),
                 ("Militia", "War Camp"), ("Coven", "Circle of Mages"),
                 ("Caravan", "Trade Route"), ("Festival", "Grand Festival"),
                 ("Bridge", "Fortress Bridge"), ("Library", "Great Library"))
# m_cost columns: coin, mana, weapons, mercenaries of any kind, traders, wizards, soldiers
M_ANY, M_TRADERS = 3, 4
# m_reward columns: vp, coin, mana, weapons
FORTUNE, FAVOUR, BRAWL, MAGIC_CHALLENGE, TWO_COINS = range(5)
N_ACTIONS = 5
ACTION_NAMES = ("Little Folk's Fortune", "Favour of the Gods", "Brawl", "Magic Challenge",
                "Two Coins")
ABUNDANCE, GNOME_RECALL, SUMMONING, HEX, CURSE = range(5)
N_SPELLS = 5
SPELL_NAMES = ("Abundance", "Gnome Recall", "Summoning", "Hex", "Curse")

# --- sources (dataset columns) ----------------------------------------------------------------
FROM_DICE, FROM_COPY, FROM_TAVERN, FROM_SPELL, FROM_SPECIAL, FROM_MISSION, FROM_MERCENARY = range(7)
N_SOURCES = 7
SOURCE_NAMES = ("dice", "copied", "tavern", "spell", "special", "mission", "mercenary")

# rules choices (index into the ``choices`` list of rules.toml)
NO, YES = 0, 1
ONCE_PER_CARD, ONCE_PER_SIDE = 0, 1
SPEND_HELD, HIRE_AND_SPEND = 0, 1        # contest_mercenaries
RESOURCES_TAKEN, RESOURCES_DISCARDED = 0, 1   # covered_warehouse

STATE = np.dtype([
    # the table
    ("n_players", np.int64),
    ("round_no", np.int64),                  # rounds begun (1 during the first)
    ("over", np.int64),
    ("truncated", np.int64),
    ("first_player", np.int64),              # who holds the First Player marker
    ("first_seat", np.int64),                # who held it in round 1 (highest roll)
    ("current", np.int64),                   # whose turn it is, -1 between turns
    ("turn_in_round", np.int64),             # the current turn's place in the round (0: first player)
    ("steps", np.int64),                     # actions taken in the current turn
    ("turns", np.int64),
    ("clock", np.int64),                     # counts score moves: who reached a space first
    ("supply", np.int64, (3,)),              # cubes in the supply, by resource
    # the players
    ("res", np.int64, (MAX_PLAYERS, 3)),     # in hand during the turn; in Warehouses between turns
    ("stored", np.int64, (MAX_PLAYERS, 3)),  # of res, still on the Warehouses (the active player)
    ("copied", np.int64, (MAX_PLAYERS, 3)),  # copied resources beside the board, for the next turn
    ("mercs", np.int64, (MAX_PLAYERS, 3)),   # mercenaries held, by kind
    ("merc_deck", np.int64, (3,)),           # mercenaries available, by kind
    ("normal", np.int64, (MAX_PLAYERS, 3)),  # Normal Building type on slots 1-2, 3-4, 5-6
    ("normal_side", np.int64, (MAX_PLAYERS, 3)),
    ("special", np.int64, (MAX_PLAYERS, 3)),  # Special Building type per slot (EMPTY: none)
    ("special_side", np.int64, (MAX_PLAYERS, 3)),
    ("special_used", np.int64, (MAX_PLAYERS, 3)),  # used this turn (once per turn)
    ("deck_at", np.int64, (MAX_PLAYERS, 2, N_CARDS)),  # [p, normal/special, card]: IN_DECK...
    ("gnomes_home", np.int64, (MAX_PLAYERS,)),  # on the Gnome House
    ("gnomes_tavern", np.int64, (MAX_PLAYERS,)),  # on a Tavern card this round
    ("gnomes_out", np.int64, (MAX_PLAYERS,)),  # removed from the game
    ("magic", np.int64, (MAX_PLAYERS,)),     # 1: the Magic marker is out this round
    ("score", np.int64, (MAX_PLAYERS,)),     # the Score track
    ("reached", np.int64, (MAX_PLAYERS,)),   # clock when the marker reached its space
    ("done", np.int64, (MAX_PLAYERS, N_MISSIONS, 2)),  # missions completed, by card and side
    # the board
    ("missions", np.int64, (4,)),            # card on each space: 0-1 Base, 2-3 Advanced (or -1)
    ("hexes", np.int64, (4,)),               # Hex markers on each mission space
    ("mission_deck", np.int64, (N_MISSIONS,)),  # the top card is the last one
    ("mission_deck_n", np.int64),
    ("tavern", np.int64, (2,)),              # the two Action cards (-1: none)
    ("tavern_gnomes", np.int64, (2, MAX_PLAYERS)),  # gnomes on each
    ("action_deck", np.int64, (MAX_DECK,)),
    ("action_deck_n", np.int64),
    ("action_used", np.int64, (MAX_DECK,)),  # discarded Action cards, to reshuffle
    ("action_used_n", np.int64),
    ("spell", np.int64),                     # the Spell in the Wizard's Tower (-1: none)
    ("spell_deck", np.int64, (MAX_DECK,)),
    ("spell_deck_n", np.int64),
    # the active player's dice
    ("dice", np.int64, (MAX_DICE,)),
    ("dice_spent", np.int64, (MAX_DICE,)),
    ("dice_neutral", np.int64, (MAX_DICE,)),
    ("n_dice", np.int64),
    ("own_dice", np.int64, (MAX_PLAYERS, MAX_DICE)),  # each player's roll for the round
    ("tavern_done", np.int64),               # the active player has used a gnome on the Tavern
    # what happened, for the dataset
    ("decisions", np.int64),                 # choices among two or more options (core/unfolding.py)
    ("vp_missions", np.int64, (MAX_PLAYERS,)),
    ("vp_contests", np.int64, (MAX_PLAYERS,)),
    ("gained", np.int64, (MAX_PLAYERS, N_SOURCES)),    # resources received, by source
    ("gained_kind", np.int64, (MAX_PLAYERS, 3)),       # resources received, by kind
    ("lost", np.int64, (MAX_PLAYERS,)),                # discarded at the end of a turn
    ("supply_short", np.int64, (MAX_PLAYERS,)),        # gains the supply could not pay
    ("dice_used", np.int64, (MAX_PLAYERS,)),
    ("copies", np.int64, (MAX_PLAYERS,)),              # actions copied (a gnome each)
    ("copied_from", np.int64, (MAX_PLAYERS,)),         # times others copied this player
    ("tavern_used", np.int64, (MAX_PLAYERS, N_ACTIONS)),
    ("gnomes_recalled", np.int64, (MAX_PLAYERS,)),
    ("gnomes_lost", np.int64, (MAX_PLAYERS,)),         # discarded with a replaced Gnome House
    ("hired", np.int64, (MAX_PLAYERS,)),
    ("built", np.int64, (MAX_PLAYERS, 2)),             # normal, special
    ("upgraded", np.int64, (MAX_PLAYERS, 2)),
    ("cast", np.int64, (MAX_PLAYERS, N_SPELLS)),
    ("missions_done", np.int64, (MAX_PLAYERS,)),
    ("vp_by_mission", np.int64, (MAX_PLAYERS, N_MISSIONS)),  # mission VP, by card
    ("card_level", np.int64, (MAX_PLAYERS, 2, N_CARDS)),  # [p, normal/special, card]: 1 built, 2 upgraded
    ("beaten", np.int64, (MAX_PLAYERS,)),              # rivals beaten in contests
    ("brawls", np.int64),
    ("challenges", np.int64),
    ("action_reshuffles", np.int64),
])

new_table, copy_of = table_factory(STATE)


# --- rule lookups ------------------------------------------------------------------------------

@compiled
def supply_start(r, k):
    return (r.supply_coin, r.supply_mana, r.supply_weapon)[k]


@compiled
def mercenaries_per_deck(r, n_players):
    if n_players <= 2:
        return r.mercenaries_2p
    if n_players == 3:
        return r.mercenaries_3p
    return r.mercenaries_4p


@compiled
def contest_points(r, n_players):
    if n_players <= 2:
        return r.contest_points_2p
    if n_players == 3:
        return r.contest_points_3p
    return r.contest_points_4p


@compiled
def spell_counts(r):
    return r.spell_copies


@compiled
def action_counts(r):
    return r.action_copies


@compiled
def dice_left(s):
    """The active player's dice not yet spent."""
    n = 0
    for i in range(s.n_dice):
        if not s.dice_spent[i]:
            n += 1
    return n


@compiled
def slot_of(value):
    """The Normal Building slot a die of ``value`` activates: 1-2, 3-4, 5-6."""
    return (value - 1) // 2


@compiled
def circular(value):
    """Circular dice: above 6 is 1, below 1 is 6."""
    return (value - 1) % 6 + 1


@compiled
def hire_funding(free, stored, traders, y, price, hires):
    """How a contest pays ``hires`` Mercenaries at ``price`` Coins each (FAQ Q3): the Coins the
    count itself produced (``free``, lost after the contest anyway) first, then Coins from the
    Warehouses (``stored``), then Traders discarded (``y`` Coins each, of ``traders`` held).
    Returns (Warehouse Coins used, Traders discarded), or (-1, -1) when that is not enough."""
    need = hires * price - min(hires * price, free)
    from_stored = min(need, stored)
    need -= from_stored
    if need == 0:
        return from_stored, 0
    if y <= 0 or (need + y - 1) // y > traders:
        return -1, -1
    return from_stored, (need + y - 1) // y


# --- what a building gives ---------------------------------------------------------------------

@compiled
def yield_of(s, r, p, slot, alt):
    """The resources (coin, mana, weapons) of ``p``'s Normal Building on ``slot``, alternative
    ``alt`` (0, or 1 for the other side of a '/'); the Mercenary choice is ``has_merc_choice``."""
    t = s.normal[p, slot]
    return r.n_yield[t, s.normal_side[p, slot], alt]


@compiled
def has_alternative(s, r, p, slot):
    t = s.normal[p, slot]
    a = r.n_yield[t, s.normal_side[p, slot], 1]
    return a[0] + a[1] + a[2] > 0


@compiled
def has_merc_choice(s, r, p, slot):
    return r.n_merc[s.normal[p, slot], s.normal_side[p, slot]] == 1


@compiled
def special_effect(t, side):
    """What a Special Building does, by the rulebook's card texts (EFFECT_...)."""
    if t == PIER:
        return EFFECT_CONVERT
    if t == COURT:
        return EFFECT_DIE_UP if side == BASE else EFFECT_DIE_UP_DOWN
    if t == OBELISK:
        return EFFECT_INCOME
    if t == PALACE:
        return EFFECT_PAID_DIE if side == BASE else EFFECT_EXTRA_DIE
    if t == SANCTUARY:
        return EFFECT_REROLL if side == BASE else EFFECT_EXTRA_DIE
    return EFFECT_NONE


EFFECT_NONE, EFFECT_CONVERT, EFFECT_DIE_UP, EFFECT_DIE_UP_DOWN, EFFECT_INCOME, EFFECT_PAID_DIE, \
    EFFECT_EXTRA_DIE, EFFECT_REROLL = range(8)


@compiled
def convert_price(r, side):
    """Coins a Pier (Base) or Port (Advanced) takes for one resource."""
    return r.pier_pay_coin if side == BASE else r.port_pay_coin


@compiled
def convert_gives(side, k):
    """Whether a Pier / Port gives resource ``k``: the Pier Weapons, the Port Weapons or Mana."""
    return k == WEAPON or (side == ADVANCED and k == MANA)


@compiled
def warehouses_of(s, p):
    n = 0
    for k in range(3):
        if s.special[p, k] == WAREHOUSE:
            n += 1
    return n


@compiled
def has_gnome_house(s, p):
    for k in range(3):
        if s.special[p, k] == GNOME_HOUSE:
            return True
    return False


@compiled
def keep_limit(s, r, p):
    """Resources ``p`` may keep at the end of their turn: one per Warehouse."""
    return warehouses_of(s, p) * r.warehouse_capacity


# --- points ------------------------------------------------------------------------------------

@compiled
def building_points(s, r, p):
    """End of the Game: Advanced Normal cards, Base and Advanced Special cards (printed buildings
    are not cards and score nothing)."""
    return vp_normal(s, r, p) + vp_special(s, r, p)


@compiled
def vp_normal(s, r, p):
    total = 0
    for k in range(3):
        if s.normal[p, k] >= FIRST_NORMAL_CARD and s.normal_side[p, k] == ADVANCED:
            total += r.vp_advanced_normal
    return total


@compiled
def vp_special(s, r, p):
    total = 0
    for k in range(3):
        if s.special[p, k] >= FIRST_SPECIAL_CARD:
            total += r.vp_base_special if s.special_side[p, k] == BASE else r.vp_advanced_special
    return total


@compiled
def final_score(s, r, p):
    return s.score[p] + building_points(s, r, p)


@compiled
def mission_vp(s, r, space):
    """What the mission on ``space`` gives now: its VP less any Hex (at least 0)."""
    card = s.missions[space]
    side = BASE if space < 2 else ADVANCED
    return max(0, r.m_reward[card, side, 0] - s.hexes[space] * r.hex_penalty)


@compiled
def may_complete(s, r, p, space):
    """Whether ``p`` has not yet completed the mission on ``space`` (by card or by side)."""
    card = s.missions[space]
    if card < 0:
        return False
    side = BASE if space < 2 else ADVANCED
    if r.mission_once_per == ONCE_PER_CARD:
        return s.done[p, card, 0] == 0 and s.done[p, card, 1] == 0
    return s.done[p, card, side] == 0
