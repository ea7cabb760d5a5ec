"""Gnomeland's invariants: what holds of every table between turns, checked after each turn and
round of a checked run (``playtest run gnomeland --check``)."""

from simulator.core.jit import compiled
from simulator.core.trace import broken
from simulator.games.gnomeland.board import (
    ADVANCED, BASE, EMPTY, FIRST_NORMAL_CARD, FIRST_SPECIAL_CARD, GNOME_HOUSE, GUARD_POST,
    IN_DECK, KIOSK, N_ACTIONS, N_CARDS, N_MISSIONS, N_NORMAL_TYPES, N_SPECIAL_TYPES, N_SPELLS,
    ON_BOARD, ONCE_PER_CARD, WAREHOUSE, YES, action_counts, contest_points, dice_left,
    final_score, has_gnome_house, keep_limit, mercenaries_per_deck, spell_counts, supply_start,
    vp_normal, vp_special,
)

INVARIANTS = (
    "{b} cubes of resource {a} (0 Coins, 1 Mana, 2 Weapons) are in the supply, the Warehouses "
    "and hands and the copies beside the boards, not the limited supply's count",
    "the unlimited supply holds {b} of resource {a}, not its printed count (nothing is taken "
    "from it)",
    "the supply holds {b} of resource {a}, fewer than none",
    "player {a} holds {b} of a resource (Warehouses, hand or copied), fewer than none",
    "player {a} keeps {b} resources after their turn, more than their Warehouses hold",
    "{b} Mercenary cards of kind {a} (0 Traders, 1 Wizards, 2 Soldiers) are in their deck and "
    "the players' hands, not the deck's count for the player count",
    "player {a} holds {b} Mercenaries of one kind, fewer than none",
    "the Mercenary deck of kind {a} holds {b} cards, fewer than none",
    "player {a} has {b} gnomes on the Gnome House, the Tavern and out of the game, not the "
    "gnomes each player takes",
    "player {a} has {b} gnomes in one place (Gnome House, Tavern, out of the game), fewer than "
    "none",
    "player {a} has {b} gnomes out of the game and on the Tavern, not those spent copying and "
    "on the Tavern and lost with a covered Gnome House, less those recalled",
    "player {a} has {b} gnomes on the Tavern's Action cards, not their gnomes on the Tavern",
    "player {a} has {b} gnomes on the Tavern this round, more than one (one gnome per turn)",
    "player {a} has {b} gnomes on a Gnome House they no longer have",
    "{b} Action cards of kind {a} are in the Action deck, the used pile and the Tavern, not the "
    "deck's count",
    "{b} Spell cards of kind {a} are in the Spell deck and the Wizard's Tower, more than the "
    "deck holds",
    "Mission card {a} is {b} times in the Mission deck and on the board, more than once",
    "card {b} is none of the deck's it lies in (place {a}: 0-1 the Tavern, 2 the Wizard's "
    "Tower, 3-6 the mission spaces, 7 the Action deck, 8 the used Actions, 9 the Spell deck, "
    "10 the Mission deck)",
    "player {a} completed both sides of Mission card {b} (each Mission card may be completed "
    "only once by each player)",
    "player {a} completed {b} missions, not one per Mission side they completed (a side "
    "completed twice)",
    "player {a} cast {b} spells, more than one a round",
    "player {a}'s building card {b} (Normal 2-6, Special 12-16) is not on one slot of their "
    "board while built and uncovered, or is on a slot while in their deck or covered",
    "player {a}'s building card {b} (Normal 2-6, Special 12-16) is counted as built or "
    "upgraded against where it stands",
    "player {a} has building {b} (Normal 0-6, Special 10-16, none 9) on a slot or side their "
    "Village board cannot hold",
    "a die of player {a} shows {b}, not 1 to 6 (player -1: the dice of the turn just played)",
    "a turn ended with {a} of its {b} dice unspent",
    "the First Player marker is with player {a}, not one of the {b} players",
    "round {a} is not one of the game's {b} rounds",
    "player {a} scores {b}, not the sum of their points from missions, contests, Normal and "
    "Special Buildings",
    "player {a} has {b} points from missions, not the sum of the points each Mission card gave",
    "player {a} has {b} points from contests, not the points for each rival beaten",
    "Mission space {a} holds {b} Hex markers, fewer than none or with no mission on it",
)
(CUBES, UNLIMITED_SUPPLY, SUPPLY_NEGATIVE, RESOURCES_NEGATIVE, OVER_WAREHOUSES, MERCENARIES,
 MERCENARIES_NEGATIVE, MERCENARY_DECK_NEGATIVE, GNOMES, GNOMES_NEGATIVE, GNOMES_SPENT,
 TAVERN_GNOMES, ONE_GNOME_A_TURN, GNOMES_WITHOUT_HOUSE, ACTION_CARDS, SPELL_CARDS,
 MISSION_CARDS, UNKNOWN_CARD, MISSION_BOTH_SIDES, MISSIONS_COUNTED, ONE_SPELL_A_ROUND, CARD_PLACE,
 CARD_LEVEL, VILLAGE_BOARD, DIE_FACE, DICE_UNSPENT, FIRST_PLAYER, ROUND, SCORE_SOURCES,
 MISSION_POINTS, CONTEST_POINTS, HEXES) = range(32)


@compiled
def check(s, r, log):
    """Note in ``log`` each invariant the table ``s`` breaks between turns (the first noted is
    kept)."""
    n = s.n_players
    check_supply(s, r, log)
    check_mercenaries(s, r, log)
    for p in range(n):
        check_gnomes(s, r, log, p)
        check_village(s, r, log, p)
        check_points(s, r, log, p)
    check_cards(s, r, log)
    check_dice(s, r, log)
    if not 0 <= s.first_player < n:
        broken(log, FIRST_PLAYER, s.first_player, n)
    if not 1 <= s.round_no <= r.rounds:
        broken(log, ROUND, s.round_no, r.rounds)


@compiled
def check_supply(s, r, log):
    """The cubes: a limited supply's are conserved, an unlimited one is never taken from."""
    n = s.n_players
    for k in range(3):
        total = s.supply[k]
        for p in range(n):
            total += s.res[p, k] + s.copied[p, k]
            if s.res[p, k] < 0 or s.copied[p, k] < 0:
                broken(log, RESOURCES_NEGATIVE, p, min(s.res[p, k], s.copied[p, k]))
        if r.supply_limited == YES and total != supply_start(r, k):
            broken(log, CUBES, k, total)
        if r.supply_limited != YES and s.supply[k] != supply_start(r, k):
            broken(log, UNLIMITED_SUPPLY, k, s.supply[k])
        if s.supply[k] < 0:
            broken(log, SUPPLY_NEGATIVE, k, s.supply[k])
    for p in range(n):
        kept = s.res[p, 0] + s.res[p, 1] + s.res[p, 2]
        if kept > keep_limit(s, r, p):
            broken(log, OVER_WAREHOUSES, p, kept)


@compiled
def check_mercenaries(s, r, log):
    """The Mercenary cards: each kind's deck and the cards held make the deck's count."""
    n = s.n_players
    for k in range(3):
        held = s.merc_deck[k]
        for p in range(n):
            held += s.mercs[p, k]
            if s.mercs[p, k] < 0:
                broken(log, MERCENARIES_NEGATIVE, p, s.mercs[p, k])
        if held != mercenaries_per_deck(r, n):
            broken(log, MERCENARIES, k, held)
        if s.merc_deck[k] < 0:
            broken(log, MERCENARY_DECK_NEGATIVE, k, s.merc_deck[k])


@compiled
def check_gnomes(s, r, log, p):
    home, tavern, out = s.gnomes_home[p], s.gnomes_tavern[p], s.gnomes_out[p]
    if home + tavern + out != r.gnomes_per_player:
        broken(log, GNOMES, p, home + tavern + out)
    if home < 0 or tavern < 0 or out < 0:
        broken(log, GNOMES_NEGATIVE, p, min(home, tavern, out))
    tavern_used = 0
    for a in range(N_ACTIONS):
        tavern_used += s.tavern_used[p, a]
    if out + tavern != s.copies[p] + tavern_used + s.gnomes_lost[p] - s.gnomes_recalled[p]:
        broken(log, GNOMES_SPENT, p, out + tavern)
    on_cards = 0
    for slot in range(2):
        if s.tavern[slot] >= 0:
            on_cards += s.tavern_gnomes[slot, p]
    if on_cards != tavern:
        broken(log, TAVERN_GNOMES, p, on_cards)
    if tavern > 1:
        broken(log, ONE_GNOME_A_TURN, p, tavern)
    if home > 0 and not has_gnome_house(s, p):
        broken(log, GNOMES_WITHOUT_HOUSE, p, home)


@compiled
def check_village(s, r, log, p):
    """The Village board: its printed buildings where it prints them, each card of the player's
    deck on one slot while built and not covered, and the dataset's count of how far it got."""
    for slot in range(3):
        t, side = s.normal[p, slot], s.normal_side[p, slot]
        printed = (t == KIOSK and slot < 2) or (t == GUARD_POST and slot == 2)
        card = FIRST_NORMAL_CARD <= t < N_NORMAL_TYPES and (side == BASE or side == ADVANCED)
        if not ((printed and side == BASE) or card):
            broken(log, VILLAGE_BOARD, p, t)
        t, side = s.special[p, slot], s.special_side[p, slot]
        # a slot the Village board prints nothing on (fewer Warehouses) stays empty until built
        printed = ((t == WAREHOUSE and slot < r.warehouses) or (t == GNOME_HOUSE and slot == 2)
                   or (t == EMPTY and r.warehouses <= slot < 2))
        card = FIRST_SPECIAL_CARD <= t < N_SPECIAL_TYPES and (side == BASE or side == ADVANCED)
        if not ((printed and side == BASE) or card):
            broken(log, VILLAGE_BOARD, p, 10 + t)
    for kind in range(2):
        first = FIRST_NORMAL_CARD if kind == 0 else FIRST_SPECIAL_CARD
        for i in range(N_CARDS):
            standing, side = 0, BASE
            for slot in range(3):
                on = s.normal[p, slot] if kind == 0 else s.special[p, slot]
                if on == first + i:
                    standing += 1
                    side = s.normal_side[p, slot] if kind == 0 else s.special_side[p, slot]
            place = s.deck_at[p, kind, i]
            if standing != (1 if place == ON_BOARD else 0):
                broken(log, CARD_PLACE, p, 10 * kind + first + i)
            level = s.card_level[p, kind, i]
            if (level == 0) != (place == IN_DECK) or level > 2 or \
                    (standing == 1 and (side == ADVANCED) != (level == 2)):
                broken(log, CARD_LEVEL, p, 10 * kind + first + i)


@compiled
def check_points(s, r, log, p):
    """The score and its sources, the missions completed and the spells cast."""
    sources = s.vp_missions[p] + s.vp_contests[p] + vp_normal(s, r, p) + vp_special(s, r, p)
    if final_score(s, r, p) != sources:
        broken(log, SCORE_SOURCES, p, final_score(s, r, p))
    by_card = 0
    sides_done = 0
    for card in range(N_MISSIONS):
        by_card += s.vp_by_mission[p, card]
        sides_done += s.done[p, card, 0] + s.done[p, card, 1]
        if r.mission_once_per == ONCE_PER_CARD and s.done[p, card, 0] and s.done[p, card, 1]:
            broken(log, MISSION_BOTH_SIDES, p, card)
    if by_card != s.vp_missions[p]:
        broken(log, MISSION_POINTS, p, s.vp_missions[p])
    if sides_done != s.missions_done[p]:
        broken(log, MISSIONS_COUNTED, p, s.missions_done[p])
    if s.vp_contests[p] != s.beaten[p] * contest_points(r, s.n_players):
        broken(log, CONTEST_POINTS, p, s.vp_contests[p])
    cast = 0
    for spell in range(N_SPELLS):
        cast += s.cast[p, spell]
    if cast > s.round_no:
        broken(log, ONE_SPELL_A_ROUND, p, cast)


@compiled
def check_cards(s, r, log):
    """The decks: every card one of its deck's; every Action card in the deck, the used pile or
    the Tavern; no Spell or Mission card twice; Hex markers only on a mission."""
    for slot in range(2):
        check_card_kind(log, slot, s.tavern[slot], N_ACTIONS, True)
    check_card_kind(log, 2, s.spell, N_SPELLS, True)
    for space in range(4):
        check_card_kind(log, 3 + space, s.missions[space], N_MISSIONS, True)
    for i in range(s.action_deck_n):
        check_card_kind(log, 7, s.action_deck[i], N_ACTIONS, False)
    for i in range(s.action_used_n):
        check_card_kind(log, 8, s.action_used[i], N_ACTIONS, False)
    for i in range(s.spell_deck_n):
        check_card_kind(log, 9, s.spell_deck[i], N_SPELLS, False)
    for i in range(s.mission_deck_n):
        check_card_kind(log, 10, s.mission_deck[i], N_MISSIONS, False)
    counts = action_counts(r)
    for a in range(N_ACTIONS):
        found = 0
        for i in range(s.action_deck_n):
            found += s.action_deck[i] == a
        for i in range(s.action_used_n):
            found += s.action_used[i] == a
        for slot in range(2):
            found += s.tavern[slot] == a
        if found != counts[a]:
            broken(log, ACTION_CARDS, a, found)
    counts = spell_counts(r)
    for spell in range(N_SPELLS):
        found = 1 if s.spell == spell else 0
        for i in range(s.spell_deck_n):
            found += s.spell_deck[i] == spell
        if found > counts[spell]:
            broken(log, SPELL_CARDS, spell, found)
    for card in range(N_MISSIONS):
        found = 0
        for i in range(s.mission_deck_n):
            found += s.mission_deck[i] == card
        for space in range(4):
            found += s.missions[space] == card
        if found > 1:
            broken(log, MISSION_CARDS, card, found)
    for space in range(4):
        if s.hexes[space] < 0 or (s.hexes[space] > 0 and s.missions[space] < 0):
            broken(log, HEXES, space, s.hexes[space])


@compiled
def check_card_kind(log, place, card, kinds, space):
    """A card in ``place`` is one of its deck's ``kinds``; a ``space`` may be empty (-1)."""
    if not (-1 if space else 0) <= card < kinds:
        broken(log, UNKNOWN_CARD, place, card)


@compiled
def check_dice(s, r, log):
    """Every die showing a face; a turn ends with every die spent (unless cut short at the step
    cap: ``truncated``)."""
    for p in range(s.n_players):
        for i in range(r.dice_per_player):
            if not 1 <= s.own_dice[p, i] <= 6:
                broken(log, DIE_FACE, p, s.own_dice[p, i])
    for i in range(s.n_dice):
        if not 1 <= s.dice[i] <= 6:
            broken(log, DIE_FACE, -1, s.dice[i])
    if not s.truncated and dice_left(s) > 0:
        broken(log, DICE_UNSPENT, dice_left(s), s.n_dice)
