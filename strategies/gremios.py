"""Scripted Gremios players.

Each seat is played by a strategy id plus a weight vector (``plans = (ids, weights)``, one row
per seat). Heuristic players value every legal action in coins from a few features (victory
points, expected income, expedition odds...) scaled by their weights, add their personality's
bias, and take the best action worth more than keeping the coins; they know their role's
abilities because the costs and gains they read from ``board`` already include them. Players
see only what a player at the table sees, except that ``random`` and ``greedy`` need nothing.
"""

import numpy as np

from simulator.core.expert import shipped_expert, valued_choice, weight_table
from simulator.core.jit import compiled
from simulator.core.rng import below, jitter
from simulator.core.search import searched, weight_layout
from simulator.games.gremios.board import (
    AGE_OF_PROSPERITY, ARCHBISHOP, BAD_HARVEST, BANKRUPTCY, BLOCKADE_GUILDS, COMMON_TREASURE,
    EXPEDITION, FIRST_BLOCKADE_CARD, FOREIGN_INVASION, GOOD_HARVEST, GOVERNOR,
    LAND_EXPROPRIATION, MUTINY, N_GUILDS, PEASANT, PIRATE, PLAGUE, ROLE_NAMES, STOWAWAY, TAX_COLLECTION,
    TRADER, WEALTH_HIGH, WEALTH_LOW, cultivate_cost, event_card_counts,
    expedition_investment_cost, guild_blocked_for, guild_investment_cost, guild_number,
    guild_vp, has_role, inn_cost_with_plot, repair_cost, role_holder, roll_probability,
    success_probability, takes_top_investor, treasure_count, victory_points, vp_emblem, vp_inns,
    vp_top_investor, wealth_coins,
)
from simulator.games.gremios.codes import (
    BUILD_INN, BUY_LAND, CRAFTSMAN_BUY, CRAFTSMAN_SELL, CULTIVATE, DECIDE_ACTION, DECIDE_EVENT,
    DECIDE_ROLE, END_TURN, EXCHANGE_WEALTH, INVEST_EXPEDITION, INVEST_GUILD, MERCENARY_MUTINY, REPAIR_INN,
)

RANDOM, GREEDY, GUILD_BARON, INN_BUILDER, EXPEDITION_GAMBLER, BALANCED, LOOKAHEAD, EXPERT = range(8)
NAMES = ("random", "greedy", "guild_baron", "inn_builder", "expedition_gambler", "balanced",
         "lookahead", "expert")
DESCRIPTIONS = (
    "uniform over the legal choices (ending the turn is one of them)",
    "most immediate victory points, then most coins; never invests for the long run",
    "buys guild income and top-investor seats, defends them, keeps a small purse",
    "buys plots and saves for inns, repairs at once, likes land roles",
    "stakes every expedition, trades treasures, hunts the discoverer emblem",
    "weighs guilds, inns and expeditions evenly",
    "searches: plays its role choice, each investment and each Governor's pick out to the end "
    "(rollouts by greedy players, hidden cards re-dealt) and leaves greedy's choice only for a "
    "surely better one",
    "learnt from the search (playtest distill): values its role, each action and the Governor's "
    "pick by a weighted sum of their features, and decides the rest as balanced does",
)

# The weight vector: what each entry means (values are in coins), then the expert's and the
# search's weights.
HEURISTIC_WEIGHT_NAMES = (
    "victory_point",     # value of one victory point gained now
    "income",            # value of one more expected coin per turn for the rest of the game
    "guild",             # bias for guild investments
    "expedition",        # multiplier on an expedition stake's expected worth
    "inn",               # bias for building and repairing inns
    "land",              # bias for buying and cultivating plots
    "reserve",           # coins to keep in hand after an optional purchase
    "save_for_inn",      # 1: do not spend below the price of the next inn
    "noise",             # random jitter on every value, so equal players do not mirror each other
)
(W_VICTORY_POINT, W_INCOME, W_GUILD, W_EXPEDITION, W_INN, W_LAND, W_RESERVE, W_SAVE_FOR_INN,
 W_NOISE) = range(len(HEURISTIC_WEIGHT_NAMES))

# What the expert (core/expert.py) sees of an option, raw: points and coins as the rules count
# them, chances from the rule data. Each decision fills only its own features (the rest 0).
FEATURE_NAMES = (
    # an action of the investment phase
    "ends_turn",          # 1 for ending the turn
    "points_now",         # victory points the action gains at once (minus those it gives up)
    "coins_paid",         # coins it costs (negative: coins it brings)
    "under_3_coins_left", # 1 if it leaves the player fewer than 3 coins
    "income",             # expected coins a turn it adds, times the share of the game left
    "treasure_chance",    # an expedition stake: the chance it brings a treasure card
    "pirate_refund",      # the Pirate's expected coins back from a failed ship
    "emblem_points",      # points of the discoverer emblem changing hands because of it
    "harvest_coins",      # a cultivation: expected harvest coins
    "guild", "expedition", "inn", "land", "trade",  # which kind of action it is
    "below_inn_price",    # it spends coins that were within 3 of the next inn's price
    # the Governor's pick of an event
    "event_mine",         # the event's rough effect on the player, in coins
    "event_rivals",       # its mean effect on each rival
) + tuple(f"role_{name}" for name in ROLE_NAMES)  # the role card kept: one for each role
(F_ENDS_TURN, F_POINTS_NOW, F_COINS_PAID, F_UNDER_3_COINS_LEFT, F_INCOME, F_TREASURE_CHANCE,
 F_PIRATE_REFUND, F_EMBLEM_POINTS, F_HARVEST_COINS, F_GUILD, F_EXPEDITION, F_INN, F_LAND, F_TRADE,
 F_BELOW_INN_PRICE, F_EVENT_MINE, F_EVENT_RIVALS, F_FIRST_ROLE) = range(18)
N_FEATURES = len(FEATURE_NAMES)
EXPERT_FALLBACK = BALANCED  # what the expert does where it values no options

(WEIGHT_NAMES, W_FIRST_VALUE,
 (W_ROLLOUTS, W_ROLLOUT_TURNS, W_ROLLOUT_POLICY, W_SEARCH_CONFIDENCE)) = \
    weight_layout(HEURISTIC_WEIGHT_NAMES, FEATURE_NAMES)
N_WEIGHTS = len(WEIGHT_NAMES)

GREEDY_POINT = 1000.0  # greedy's price of a point in coins: points first, then coins

DEFAULT_WEIGHTS = weight_table(np.array([
    # vp   income guild exped  inn  land reserve save noise  rollouts turns policy confidence
    [0.0,  0.0,  0.0,  0.0,  0.0,  0.0,  0.0,  0.0,  0.0, 0, 0, 0, 0],       # random (unused)
    [GREEDY_POINT, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0, 0, 0, 0],      # greedy: points, then coins
    [5.0,  7.0,  1.0,  0.3,  0.5,  -1.0, 0.0,  0.0,  0.3, 0, 0, 0, 0],       # guild_baron
    [3.5,  5.0,  -0.5, 0.3,  2.0,  0.5,  0.0,  1.0,  0.3, 0, 0, 0, 0],       # inn_builder
    [3.0,  6.0,  0.0,  1.6,  1.0,  -1.0, 0.0,  0.0,  0.3, 0, 0, 0, 0],       # expedition_gambler
    [3.0,  7.0,  0.0,  1.0,  0.5,  0.0,  1.0,  0.0,  0.3, 0, 0, 0, 0],       # balanced
    # lookahead: greedy's weights for its rollouts, 32 per option, 24 turns deep, greedy players
    [GREEDY_POINT, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 32, 24, GREEDY, 1.0],  # lookahead
]), len(HEURISTIC_WEIGHT_NAMES), EXPERT_FALLBACK, shipped_expert("gremios", FEATURE_NAMES))

# Which roles suit a personality: affinity of each role with the guild, expedition, inn and
# land styles (rows follow board's role order).
ROLE_STYLE = np.array([
    # guild exped inn land
    [1.0, 0.0, 0.0, 0.5],   # archbishop
    [0.5, 1.0, 0.0, 0.0],   # craftsman
    [0.5, 0.0, 0.3, 0.0],   # doctor
    [0.5, 0.5, 0.5, 0.5],   # governor
    [0.0, 0.0, 1.0, 0.5],   # innkeeper
    [0.0, 0.0, 1.0, 0.3],   # master_builder
    [1.0, 0.0, 0.0, 0.0],   # mercenary
    [0.0, 0.0, 0.3, 1.0],   # peasant
    [0.3, 1.0, 0.0, 0.0],   # pirate
    [1.0, 0.0, 0.0, 0.3],   # shopkeeper
    [0.3, 1.0, 0.0, 0.0],   # stowaway
    [1.0, 0.5, 0.0, 0.0],   # trader
])


@compiled
def acting(plans, p):
    """The strategy that makes ``p``'s decision: a search player decides what it does not search
    (its role, the Stowaway's stake, expropriated plots) as its rollout policy would."""
    sid = plans[0][p]
    if sid == EXPERT:
        return EXPERT_FALLBACK
    return int(plans[1][p][W_ROLLOUT_POLICY]) if sid == LOOKAHEAD else sid


@compiled
def expert_choice(decision, s, r, p, plans, options, n):
    """The expert's option: the best valued by its weights over the options' features."""
    return valued_choice(option_features(decision, s, r, p, options, n), n, plans[1][p],
                         W_FIRST_VALUE)


# --- setup ------------------------------------------------------------------------------------

@compiled
def choose_role(s, r, p, plans, rng, dealt, n_dealt):
    """Index of the role kept among the ``n_dealt`` dealt."""
    if plans[0][p] == LOOKAHEAD:
        options = np.zeros((3, 2), dtype=np.int64)
        options[:, 0] = dealt
        return searched(DECIDE_ROLE, s, r, p, plans, rng, options, n_dealt)
    if plans[0][p] == EXPERT:
        options = np.zeros((3, 2), dtype=np.int64)
        options[:, 0] = dealt
        return expert_choice(DECIDE_ROLE, s, r, p, plans, options, n_dealt)
    sid = acting(plans, p)
    w = plans[1][p]
    if sid == RANDOM or sid == GREEDY:  # no role adds points by itself: nothing to prefer
        return below(rng, n_dealt)
    best = 0
    best_value = -1e18
    for i in range(n_dealt):
        style = ROLE_STYLE[dealt[i]]
        value = style[0] * (w[W_GUILD] + w[W_INCOME] / 5.0) + style[1] * w[W_EXPEDITION] * 2.0 + \
            style[2] * (w[W_INN] + w[W_SAVE_FOR_INN]) + style[3] * (w[W_LAND] + 1.0) + \
            jitter(w[W_NOISE], rng)
        if value > best_value:
            best, best_value = i, value
    return best


# --- event phase --------------------------------------------------------------------------------

@compiled
def event_effect(s, r, p, card):
    """Rough coins-and-points effect of an event card on player ``p`` (in coins)."""
    vp = 3.0
    if card < N_GUILDS:
        return 0.5
    if card == GOOD_HARVEST:
        return float(s.cultivated[p] * r.harvest_coins_per_plot)
    if card == AGE_OF_PROSPERITY:
        return float(r.prosperity_coins)
    if card == EXPEDITION:
        stakes = 0
        for i in range(s.expedition_n):
            if s.expedition[i] == p:
                stakes += 1
        return stakes * success_probability(r) * vp
    if card == BAD_HARVEST:
        return -1.0 if s.cultivated[p] > 0 else 0.0
    if card == BANKRUPTCY or card == MUTINY:
        loss = 0.0
        for g in range(N_GUILDS):
            held = s.investments[p, g]
            if card == MUTINY and held > 1:
                held = 1
            elif card == MUTINY:
                held = 0
            top = guild_vp(s, r, p, g) * vp if (card == BANKRUPTCY and s.top_investor[g] == p) else 0.0
            loss += roll_probability(guild_number(r, g)) * (2.0 * held + top)
        return -loss
    if card == FOREIGN_INVASION:
        return -float((s.inns[p] + 1) // 2) * r.vp_inn * vp
    if card == LAND_EXPROPRIATION:
        return -float((s.plots[p] + s.cultivated[p] + 1) // 2) * r.land_cost
    if card == TAX_COLLECTION:
        if has_role(s, p, GOVERNOR):
            total = 0
            for q in range(s.n_players):
                if q != p and s.coins[q] >= r.tax_threshold:
                    total += (s.coins[q] + 1) // 2
            return float(total)
        return -float((s.coins[p] + 1) // 2) if s.coins[p] >= r.tax_threshold else 0.0
    # Blockades and the Plague: the income they take away.
    loss = 0.0
    for g in range(N_GUILDS):
        blocked = card == PLAGUE and g != 0 and g != N_GUILDS - 1
        if card != PLAGUE:
            kind = card - FIRST_BLOCKADE_CARD
            blocked = g == BLOCKADE_GUILDS[kind, 0] or g == BLOCKADE_GUILDS[kind, 1]
        if blocked:
            loss += roll_probability(guild_number(r, g)) * s.investments[p, g] * 4.0
    return -loss


@compiled
def choose_event(s, r, p, plans, rng, first, second):
    """The Governor's pick of the two revealed events: the one better for them than for rivals."""
    if plans[0][p] == LOOKAHEAD:
        options = np.zeros((2, 2), dtype=np.int64)
        options[0, 0], options[1, 0] = first, second
        return options[searched(DECIDE_EVENT, s, r, p, plans, rng, options, 2), 0]
    if plans[0][p] == EXPERT:
        options = np.zeros((2, 2), dtype=np.int64)
        options[0, 0], options[1, 0] = first, second
        return options[expert_choice(DECIDE_EVENT, s, r, p, plans, options, 2), 0]
    if acting(plans, p) == RANDOM:
        return first if below(rng, 2) == 0 else second
    best = first
    best_value = -1e18
    for card in (first, second):
        mine = event_effect(s, r, p, card)
        others = 0.0
        for q in range(s.n_players):
            if q != p:
                others += event_effect(s, r, q, card)
        value = mine - others / max(1, s.n_players - 1)
        if value > best_value:
            best, best_value = card, value
    return best


@compiled
def stowaway_sneaks(s, r, p, plans, rng):
    """Whether the Stowaway takes the free stake offered as the Expedition event is revealed.

    It costs nothing, so it is nearly always worth it: the chance of a treasure (none if the
    deck runs out before their place at the end of the line) and of the emblem it may bring,
    against the coin a rival Pirate collects if the ship fails (a rival's coin counted as a
    share of what it costs all the others, as when the Governor weighs events).
    """
    if acting(plans, p) == RANDOM:
        return below(rng, 2) == 0
    w = plans[1][p]
    chance = success_probability(r)
    treasure = chance * (treasure_worth(r, w) + emblem_swing(s, r, p, w, 1)) \
        if s.treasure_deck_n > s.expedition_n else 0.0
    lost_coin = (1.0 - chance) * r.invest_coins_placed
    pirate = role_holder(s, PIRATE)
    if pirate == p:
        return treasure + lost_coin > 0.0  # their own Pirate takes the coin back
    if pirate >= 0:
        return treasure - lost_coin / max(1, s.n_players - 1) > 0.0
    return treasure > 0.0


@compiled
def cultivated_plots_to_lose(s, r, p, plans, rng, lost):
    """Of ``lost`` plots expropriated, how many are cultivated ones (the rest uncultivated)."""
    if acting(plans, p) == RANDOM:
        return below(rng, min(lost, s.cultivated[p]) + 1)
    return max(0, lost - s.plots[p])  # keep the cultivated plots: they earn harvests


# --- investment phase ---------------------------------------------------------------------------

@compiled
def event_cards(r):
    """Action and temporary event cards in the deck (44 by default)."""
    total = 0
    for count in event_card_counts(r):
        total += count
    return max(1, total)


@compiled
def expected_treasure_points(r):
    """Victory points of an unseen treasure card on average, from the deck's make-up."""
    n = r.wealth_low_cards + r.wealth_high_cards + r.common_treasure_cards + r.rare_treasure_cards
    points = r.common_treasure_cards * r.vp_common_treasure + r.rare_treasure_cards * r.vp_rare_treasure
    return points / n if n > 0 else 0.0


@compiled
def treasure_worth(r, w):
    """Expected worth of an unseen treasure card, in coins."""
    n = r.wealth_low_cards + r.wealth_high_cards + r.common_treasure_cards + r.rare_treasure_cards
    if n == 0:
        return 0.0
    coins = r.wealth_low_cards * r.wealth_low_coins + r.wealth_high_cards * r.wealth_high_coins
    return coins / n + expected_treasure_points(r) * w[W_VICTORY_POINT]


@compiled
def emblem_swing(s, r, p, w, delta):
    """Value, at the weights' price of a point, of the emblem changing hands if ``p``'s treasure
    count changes by ``delta``."""
    return emblem_points(s, r, p, delta) * w[W_VICTORY_POINT]


@compiled
def emblem_points(s, r, p, delta):
    """Points of the discoverer emblem won (or lost) if ``p``'s treasure count moves by
    ``delta``."""
    mine = treasure_count(s, p) + delta
    if delta < 0 and s.emblem == p:
        for q in range(s.n_players):
            if q != p and treasure_count(s, q) > mine and treasure_count(s, q) >= r.emblem_min_treasures:
                return float(-r.vp_emblem)
        if mine < r.emblem_min_treasures:
            return float(-r.vp_emblem)
    if delta > 0 and s.emblem != p and mine >= r.emblem_min_treasures:
        for q in range(s.n_players):
            if q != p and treasure_count(s, q) >= mine:
                return 0.0
        return float(r.vp_emblem)
    return 0.0


@compiled
def visible_points(s, r, p, q):
    """Player ``q``'s points as ``p`` sees them: rivals' treasures are hidden, so counted at
    their average worth."""
    if q == p:
        return float(victory_points(s, r, p))
    return vp_top_investor(s, r, q) + vp_inns(s, r, q) + vp_emblem(s, r, q) + \
        treasure_count(s, q) * expected_treasure_points(r)


@compiled
def turns_left_factor(s, r, p):
    """Income matters less as the game nears its end: 1 early, towards 0 near the target."""
    leader = 0.0
    for q in range(s.n_players):
        leader = max(leader, visible_points(s, r, p, q))
    return max(0.1, 1.0 - leader / r.victory_points_to_win)


@compiled
def action_value(s, r, p, w, action, arg, horizon):
    """What an action is worth to this personality, in coins, net of its price.

    ``horizon`` (from ``turns_left_factor``) scales income: worth less as the game nears its end.
    """
    vp = w[W_VICTORY_POINT]
    if action == INVEST_GUILD:
        g = arg
        cost = guild_investment_cost(s, r, p, g)
        income = roll_probability(guild_number(r, g)) * s.n_players  # a roll every turn
        if guild_blocked_for(s, p, g):
            income *= 0.5
        value = w[W_INCOME] * income * horizon + w[W_GUILD]
        if s.top_investor[g] != p and takes_top_investor(s, r, p, g, s.investments[p, g] + 1):
            value += guild_vp(s, r, p, g) * vp
        elif s.top_investor[g] == p:
            value += 0.2 * w[W_GUILD]
        if has_role(s, p, ARCHBISHOP) and (g == 0 or g == N_GUILDS - 1):
            value += 0.5
        return value - cost
    if action == INVEST_EXPEDITION:
        cost = expedition_investment_cost(s, r, p)
        chance = success_probability(r)
        # Treasures go in placement order: a stake behind the last card in the deck wins nothing.
        if s.treasure_deck_n <= s.expedition_n:
            chance = 0.0
        value = w[W_EXPEDITION] * (chance * (treasure_worth(r, w) + 0.3 * r.vp_emblem * vp))
        if has_role(s, p, PIRATE):
            value += (1.0 - chance) * (s.expedition_n + 1) * r.invest_coins_placed
        if has_role(s, p, STOWAWAY):
            value += 0.5
        return value - cost
    if action == BUY_LAND:
        value = w[W_LAND] + (1.0 if has_role(s, p, PEASANT) else 0.0)
        if s.plots[p] + s.cultivated[p] == 0 and w[W_SAVE_FOR_INN] > 0:
            value += 1.5
        return value - r.land_cost
    if action == CULTIVATE:
        harvests = r.cards_good_harvest / event_cards(r) * s.n_players * 4.0 * r.harvest_coins_per_plot
        return harvests + 0.5 * w[W_LAND] - cultivate_cost(s, r, p)
    if action == BUILD_INN:
        value = r.vp_inn * vp + w[W_INCOME] * r.inn_income * horizon + w[W_INN]
        return value - inn_cost_with_plot(s, r, p)
    if action == REPAIR_INN:
        return r.vp_inn * vp + w[W_INCOME] * r.inn_income * horizon + w[W_INN] - repair_cost(s, r, p)
    if action == EXCHANGE_WEALTH:
        return wealth_coins(r, arg) * 0.9 + emblem_swing(s, r, p, w, -1)
    if action == CRAFTSMAN_BUY:
        return treasure_worth(r, w) + emblem_swing(s, r, p, w, 1) - r.craftsman_treasure_price
    if action == CRAFTSMAN_SELL:
        kept = float(wealth_coins(r, arg)) if arg <= WEALTH_HIGH else \
            (r.vp_common_treasure if arg == COMMON_TREASURE else r.vp_rare_treasure) * vp
        return r.craftsman_treasure_price - kept + emblem_swing(s, r, p, w, -1)
    if action == MERCENARY_MUTINY:
        # Hurts rivals with two or more coins in the guild; the top investor never changes.
        lost_by_rivals = 0
        for q in range(s.n_players):
            if q != p and s.investments[q, arg] > 1:
                lost_by_rivals += 1
        mine = 1 if s.investments[p, arg] > 1 else 0
        if has_role(s, p, TRADER):
            mine = 0
        swing = (lost_by_rivals / max(1, s.n_players - 1) - mine) * \
            roll_probability(guild_number(r, arg)) * s.n_players * w[W_INCOME] * horizon
        return swing - r.mercenary_mutiny_cost
    return 0.0


@compiled
def greedy_value(s, r, p, w, action, arg):
    """Immediate victory points (at the weight's price, 1000 by default) plus immediate coins."""
    vp = w[W_VICTORY_POINT]
    if action == INVEST_GUILD:
        gained = guild_vp(s, r, p, arg) if (s.top_investor[arg] != p and
                                            takes_top_investor(s, r, p, arg, s.investments[p, arg] + 1)) else 0
        return vp * gained - guild_investment_cost(s, r, p, arg)
    if action == BUILD_INN:
        return vp * r.vp_inn - inn_cost_with_plot(s, r, p)
    if action == REPAIR_INN:
        return vp * r.vp_inn - repair_cost(s, r, p)
    if action == EXCHANGE_WEALTH:
        return wealth_coins(r, arg) + emblem_swing(s, r, p, w, -1)
    if action == CRAFTSMAN_BUY:
        return vp * expected_treasure_points(r) - r.craftsman_treasure_price
    if action == CRAFTSMAN_SELL:
        if arg == WEALTH_LOW or arg == WEALTH_HIGH:
            return r.craftsman_treasure_price + emblem_swing(s, r, p, w, -1)
        return -vp
    return -1.0  # everything else costs coins and gains no points now


@compiled
def choose_action(s, r, p, plans, rng, actions, n):
    """Index (into ``actions[:n]``) of the action to take; index 0 ends the turn."""
    sid = plans[0][p]
    if sid == LOOKAHEAD:
        return searched(DECIDE_ACTION, s, r, p, plans, rng, actions, n)
    if sid == EXPERT:
        return expert_choice(DECIDE_ACTION, s, r, p, plans, actions, n)
    w = plans[1][p]
    if sid == RANDOM:
        return below(rng, n)
    best = 0
    best_value = 0.0  # ending the turn keeps the coins: worth nothing more
    inn_price = inn_cost_with_plot(s, r, p)
    horizon = turns_left_factor(s, r, p) if sid != GREEDY else 0.0
    for i in range(1, n):
        action = actions[i, 0]
        arg = actions[i, 1]
        if sid == GREEDY:
            value = greedy_value(s, r, p, w, action, arg)
        else:
            value = action_value(s, r, p, w, action, arg, horizon) + jitter(w[W_NOISE], rng)
            spends = action != EXCHANGE_WEALTH and action != CRAFTSMAN_SELL and action != BUILD_INN \
                and action != REPAIR_INN
            if spends and w[W_SAVE_FOR_INN] > 0 and s.coins[p] >= inn_price - 3 and s.inn_deck_n > 0:
                value -= 3.0  # nearly there: keep the coins for the inn
            if spends and s.coins[p] - 2 < w[W_RESERVE]:
                value -= 1.0
        if value > best_value:
            best, best_value = i, value
    return best


# --- the expert's view of an option -------------------------------------------------------------

@compiled
def action_features(s, r, p, action, arg, horizon, f):
    """Fill ``f`` (one option's row) with what the investment action ``action`` (on ``arg``)
    brings ``p``: the raw amounts the heuristics weigh in ``action_value``."""
    coins = s.coins[p]
    paid = 0.0
    if action == END_TURN:
        f[F_ENDS_TURN] = 1.0
    elif action == INVEST_GUILD:
        g = arg
        paid = guild_investment_cost(s, r, p, g)
        income = roll_probability(guild_number(r, g)) * s.n_players
        if guild_blocked_for(s, p, g):
            income *= 0.5
        f[F_INCOME] = income * horizon
        if s.top_investor[g] != p and takes_top_investor(s, r, p, g, s.investments[p, g] + 1):
            f[F_POINTS_NOW] = guild_vp(s, r, p, g)
        f[F_GUILD] = 1.0
    elif action == INVEST_EXPEDITION:
        paid = expedition_investment_cost(s, r, p)
        chance = success_probability(r) if s.treasure_deck_n > s.expedition_n else 0.0
        f[F_TREASURE_CHANCE] = chance
        if has_role(s, p, PIRATE):
            f[F_PIRATE_REFUND] = (1.0 - chance) * (s.expedition_n + 1) * r.invest_coins_placed
        f[F_EXPEDITION] = 1.0
    elif action == BUY_LAND:
        paid = r.land_cost
        f[F_LAND] = 1.0
    elif action == CULTIVATE:
        paid = cultivate_cost(s, r, p)
        f[F_HARVEST_COINS] = r.cards_good_harvest / event_cards(r) * s.n_players * 4.0 * \
            r.harvest_coins_per_plot
        f[F_LAND] = 1.0
    elif action == BUILD_INN or action == REPAIR_INN:
        paid = inn_cost_with_plot(s, r, p) if action == BUILD_INN else repair_cost(s, r, p)
        f[F_POINTS_NOW] = r.vp_inn
        f[F_INCOME] = r.inn_income * horizon
        f[F_INN] = 1.0
    elif action == EXCHANGE_WEALTH:
        paid = -wealth_coins(r, arg)
        f[F_EMBLEM_POINTS] = emblem_points(s, r, p, -1)
        f[F_TRADE] = 1.0
    elif action == CRAFTSMAN_BUY:
        paid = r.craftsman_treasure_price
        f[F_POINTS_NOW] = expected_treasure_points(r)
        f[F_EMBLEM_POINTS] = emblem_points(s, r, p, 1)
        f[F_TRADE] = 1.0
    elif action == CRAFTSMAN_SELL:
        paid = -r.craftsman_treasure_price
        if arg == COMMON_TREASURE:
            f[F_POINTS_NOW] = -r.vp_common_treasure
        elif arg > WEALTH_HIGH:
            f[F_POINTS_NOW] = -r.vp_rare_treasure
        else:
            paid += wealth_coins(r, arg)  # the wealth card's own coins are given up
        f[F_EMBLEM_POINTS] = emblem_points(s, r, p, -1)
        f[F_TRADE] = 1.0
    elif action == MERCENARY_MUTINY:
        paid = r.mercenary_mutiny_cost
        lost_by_rivals = 0
        for q in range(s.n_players):
            if q != p and s.investments[q, arg] > 1:
                lost_by_rivals += 1
        mine = 1 if s.investments[p, arg] > 1 and not has_role(s, p, TRADER) else 0
        f[F_INCOME] = (lost_by_rivals / max(1, s.n_players - 1) - mine) * \
            roll_probability(guild_number(r, arg)) * s.n_players * horizon
        f[F_GUILD] = 1.0
    f[F_COINS_PAID] = paid
    f[F_UNDER_3_COINS_LEFT] = 1.0 if coins - paid < 3 else 0.0
    if paid > 0 and action != BUILD_INN and action != REPAIR_INN and s.inn_deck_n > 0 and \
            coins >= inn_cost_with_plot(s, r, p) - 3:
        f[F_BELOW_INN_PRICE] = 1.0


@compiled
def option_features(decision, s, r, p, options, n):
    """The features (``FEATURE_NAMES``) of each of the ``n`` options of ``p``'s decision, one
    row each, from what ``p`` sees: the board's public counts and ``p``'s own cards."""
    f = np.zeros((n, N_FEATURES))
    if decision == DECIDE_ROLE:
        for i in range(n):
            f[i, F_FIRST_ROLE + options[i, 0]] = 1.0
    elif decision == DECIDE_EVENT:
        for i in range(n):
            card = options[i, 0]
            others = 0.0
            for q in range(s.n_players):
                if q != p:
                    others += event_effect(s, r, q, card)
            f[i, F_EVENT_MINE] = event_effect(s, r, p, card)
            f[i, F_EVENT_RIVALS] = others / max(1, s.n_players - 1)
    else:
        horizon = turns_left_factor(s, r, p)
        for i in range(n):
            action_features(s, r, p, options[i, 0], options[i, 1], horizon, f[i])
    return f
