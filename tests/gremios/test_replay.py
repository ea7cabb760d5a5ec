"""The replay tells everything: every change, every rule that fired without effect, every decision
with its options, in structured fields (the referee's view, face-down cards named).

Most tables are built by hand and told with ``story.tell``, the reading ``api.replay`` uses; the
last tests check whole replays from ``api.replay`` for what must hold in any game.
"""

import numpy as np
import pytest

from simulator import api
from simulator.games.gremios import story
from tests.game_fixtures import unfolding_of
from simulator.games.gremios.board import (
    AGE_OF_PROSPERITY, BAD_HARVEST, BANKRUPTCY, COMMON_TREASURE, EVENT_NAMES, EXPEDITION, FAMINE,
    FARM, FIRST_BLOCKADE_CARD, FOREIGN_INVASION, GOOD_HARVEST, GOVERNOR, GUILD_NAMES, INNKEEPER,
    LAND_EXPROPRIATION, MARKET, MERCENARY, MUTINY, NO_ROLE, PEASANT, PIRATE, PLAGUE, PORT,
    RARE_TREASURE, SHOPKEEPER, STANDARD, STOWAWAY, TAX_COLLECTION, TRADE_BLOCKADE, WEALTH_LOW,
    guild_number, guild_of_roll,
)
from simulator.games.gremios.story import BUILD_INN, EXCHANGE_WEALTH
from simulator.games.gremios.turn import (
    action_price, apply_event, collection_phase, event_phase, investment_phase, new_game,
    reveal_event, roll_phase, sail, take_action, take_treasure,
)

from .test_scenarios import legal, set_event_deck, set_treasure_deck

GOLD, SILVER, BRONZE, FOURTH = 0, 1, 2, 3


def told(log, kind):
    """The replay's events of ``kind``."""
    return [e for e in story.tell(log) if e["kind"] == kind]


def fields(event):
    """An event without its kind and sentence."""
    return {k: v for k, v in event.items() if k not in ("kind", "text")}


# --- rules that fired without effect ----------------------------------------------------------

@pytest.mark.parametrize("card", [MUTINY, BANKRUPTCY])
def test_pending_event_on_a_seven_is_told(blank, r, plans, rolling, log, card):
    """Mutiny / Bankruptcy: the guild "affected by the next dice roll"; a 7 names none."""
    s = blank()
    rng = rolling(7)
    apply_event(s, r, plans, rng, log, card)
    roll_phase(s, r, rng, log)
    [event] = told(log, "pending_no_guild")
    assert fields(event) == {"card": EVENT_NAMES[card], "roll": 7, "guild": None, "reason": "seven"}


@pytest.mark.parametrize("card", [MUTINY, BANKRUPTCY])
def test_pending_event_on_a_guild_not_founded_is_told(blank, r, plans, rolling, log, card):
    s = blank()
    rng = rolling(guild_number(r, FARM))
    apply_event(s, r, plans, rng, log, card)
    roll_phase(s, r, rng, log)
    [event] = told(log, "pending_no_guild")
    assert fields(event) == {"card": EVENT_NAMES[card], "roll": guild_number(r, FARM),
                             "guild": "Farm", "reason": "not founded"}
    [pays] = told(log, "roll_pays_nobody")
    assert fields(pays) == {"roll": guild_number(r, FARM), "guild": "Farm", "reason": "not founded"}


def test_pending_event_on_a_founded_guild_is_no_no_op(blank, r, plans, rolling, log, place_coins):
    s = blank()
    place_coins(s, [(GOLD, FARM)] * 2)
    rng = rolling(guild_number(r, FARM))
    apply_event(s, r, plans, rng, log, MUTINY)
    roll_phase(s, r, rng, log)
    assert told(log, "pending_no_guild") == [] and len(told(log, "lost_investments")) == 1


def test_mutiny_and_bankruptcy_that_take_nothing_are_told(blank, r, plans, rolling, log, place_coins):
    """Mutiny: only players with more than one investment lose one; a Bankruptcy in a guild
    nobody invested in takes nothing either."""
    s = blank()
    place_coins(s, [(GOLD, FARM), (SILVER, FARM)])
    s.guild_open[MARKET] = 1
    rng = rolling(guild_number(r, FARM), guild_number(r, MARKET))
    apply_event(s, r, plans, rng, log, MUTINY)
    roll_phase(s, r, rng, log)
    apply_event(s, r, plans, rng, log, BANKRUPTCY)
    roll_phase(s, r, rng, log)
    assert [fields(e) for e in told(log, "nobody_loses")] == [
        {"guild": "Farm", "card": "Mutiny", "reason": "nobody has more than one investment there"},
        {"guild": "Market", "card": "Bankruptcy", "reason": "nobody has invested there"}]
    assert told(log, "lost_investments") == []


def test_blockade_accumulation_on_a_guild_not_on_the_board_is_told(blank, r, plans, rolling, log,
                                                                   place_coins):
    """Temporary Events: the second blockade's mutiny and the third's bankruptcy act on the
    affected guilds "if they are already on the board"."""
    s = blank()
    place_coins(s, [(GOLD, MARKET)] * 2)  # the Port, the other Trade Blockade guild, is not founded
    card = FIRST_BLOCKADE_CARD + TRADE_BLOCKADE
    for _ in range(3):
        apply_event(s, r, plans, rolling(7), log, card)
    assert [fields(e) for e in told(log, "guild_not_on_board")] == [
        {"guild": "Port", "effect": "Mutiny", "cause": "a second blockade"},
        {"guild": "Port", "effect": "Bankruptcy", "cause": "a third blockade"}]
    [discarded] = told(log, "blockades_discarded")
    assert fields(discarded) == {"blockade": "Trade Blockade", "cards": 3}


def test_expedition_event_with_no_stakes_is_told(blank, r, plans, rolling, log):
    s = blank()
    apply_event(s, r, plans, rolling(7), log, EXPEDITION)
    assert len(told(log, "expedition_no_stakes")) == 1 and told(log, "pending") == []


@pytest.mark.parametrize("card, reason", [
    (GOOD_HARVEST, "nobody has a cultivated plot"),
    (BAD_HARVEST, "nobody has a cultivated plot"),
    (FOREIGN_INVASION, "nobody has a standing inn"),
    (LAND_EXPROPRIATION, "nobody holds a plot"),
    (TAX_COLLECTION, "nobody (the Governor aside) has 4 or more coins"),
])
def test_action_events_that_affect_nobody_are_told(blank, r, plans, rolling, log, card, reason):
    s = blank()
    s.coins[:] = [3, 0, 2, 1]
    s.destroyed_inns[GOLD] = 2  # destroyed inns cannot be destroyed again
    apply_event(s, r, plans, rolling(7), log, card)
    [event] = told(log, "event_no_effect")
    assert fields(event) == {"card": EVENT_NAMES[card], "reason": reason}


@pytest.mark.parametrize("card", [GOOD_HARVEST, BAD_HARVEST, FOREIGN_INVASION, LAND_EXPROPRIATION,
                                  TAX_COLLECTION])
def test_action_events_that_affect_someone_are_not_called_no_ops(blank, r, plans, rolling, log, card):
    s = blank()
    s.coins[SILVER] = 4
    s.cultivated[SILVER] = 1
    s.inns[SILVER] = 1
    apply_event(s, r, plans, rolling(7), log, card)
    assert told(log, "event_no_effect") == []


@pytest.mark.parametrize("lift", ["seven", "prosperity"])
def test_nothing_to_lift_is_told(blank, r, plans, rolling, log, lift):
    """A 7 and the Age of Prosperity send every temporary event to the discard pile: with none
    active they lift nothing, and say so."""
    s = blank()
    if lift == "seven":
        roll_phase(s, r, rolling(7), log)
        cause = "a roll of 7"
    else:
        apply_event(s, r, plans, rolling(7), log, AGE_OF_PROSPERITY)
        cause = "the Age of Prosperity"
        assert len(told(log, "event_coins")) == 4  # everyone still receives the coin
    [event] = told(log, "blockades_lifted")
    assert fields(event) == {"cause": cause, "lifted": {}}


def test_lifted_temporary_events_are_counted(blank, r, rolling, log):
    s = blank()
    s.blockades[FAMINE] = 2
    s.plague = 1
    roll_phase(s, r, rolling(7), log)
    [event] = told(log, "blockades_lifted")
    assert event["lifted"] == {"Famine": 2, "Plague": 1}


def test_peasant_bonus_checked_and_not_earned_is_told(blank, r, plans, rolling, log):
    """Peasant: the bonus needs more cultivated plots than all other players combined."""
    s = blank()
    s.roles[GOLD, 0] = PEASANT
    s.cultivated[:] = [2, 1, 1, 0]
    apply_event(s, r, plans, rolling(7), log, GOOD_HARVEST)
    [event] = told(log, "role_no_coins")
    assert event["player"] == GOLD and event["cultivated"] == 2 and event["rivals_cultivated"] == 2
    assert told(log, "role_coins") == []


def test_stowaway_declining_is_told(blank, r, plans, rolling, log):
    """The Stowaway *may* sneak on: with one treasure left for the first stake and a rival
    Pirate to collect the coin of a failed ship, a heuristic player declines."""
    s = blank()
    s.roles[BRONZE, 0] = STOWAWAY
    s.roles[SILVER, 0] = PIRATE
    s.expedition[0] = GOLD
    s.expedition_n = 1
    set_treasure_deck(s, [COMMON_TREASURE])
    apply_event(s, r, plans, rolling(7), log, EXPEDITION)
    assert s.expedition_n == 1
    [event] = told(log, "stowaway_stays")
    assert fields(event) == {"player": BRONZE, "reason": "declines the free stake", "stakes": 1}


def test_stowaway_with_a_stake_already_is_told(blank, r, plans, rolling, log):
    s = blank()
    s.roles[BRONZE, 0] = STOWAWAY
    s.expedition[0] = BRONZE
    s.expedition_n = 1
    apply_event(s, r, plans, rolling(7), log, EXPEDITION)
    [event] = told(log, "stowaway_stays")
    assert fields(event) == {"player": BRONZE, "reason": "already has a stake on board", "stakes": 1}


def test_stowaway_finding_no_ship_with_the_option_no_is_told(blank, rules_with, plans, rolling, log):
    r = rules_with(stowaway_boards_empty_ship="no")
    s = blank()
    s.roles[BRONZE, 0] = STOWAWAY
    apply_event(s, r, plans, rolling(7), log, EXPEDITION)
    [event] = told(log, "stowaway_stays")
    assert event["player"] == BRONZE and event["stakes"] == 0 and "no ship" in event["reason"]
    assert len(told(log, "expedition_no_stakes")) == 1


def test_blocked_income_is_told_with_the_coins_withheld(blank, r, rolling, log, place_coins):
    s = blank()
    eight = guild_of_roll(r, 8)
    place_coins(s, [(GOLD, eight), (SILVER, eight), (GOLD, eight)])
    s.blockades[FAMINE] = 1
    roll_phase(s, r, rolling(8), log)
    assert [fields(e) for e in told(log, "blocked")] == [
        {"guild": GUILD_NAMES[eight], "player": GOLD, "withheld": 2, "blocked_by": "Famine"},
        {"guild": GUILD_NAMES[eight], "player": SILVER, "withheld": 1, "blocked_by": "Famine"}]
    s.plague = 1
    roll_phase(s, r, rolling(8), log)
    assert told(log, "blocked")[-1]["blocked_by"] == "Plague"


def test_a_roll_of_a_guild_with_no_investments_is_told(blank, r, rolling, log):
    s = blank()
    s.guild_open[PORT] = 1
    roll_phase(s, r, rolling(guild_number(r, PORT)), log)
    [event] = told(log, "roll_pays_nobody")
    assert fields(event) == {"roll": guild_number(r, PORT), "guild": "Port", "reason": "no investments"}


def test_every_emblem_check_is_told(blank, r, rolling, log, start_turn):
    """Discoverer Emblem: checked at every treasure taken or given up, changed or not."""
    s = blank()
    set_treasure_deck(s, [COMMON_TREASURE] * 3)
    take_treasure(s, r, log, GOLD)
    take_treasure(s, r, log, GOLD)
    s.treasures[SILVER, WEALTH_LOW] = 1
    start_turn(s, SILVER, 0)
    take_action(s, r, rolling(7), log, SILVER, EXCHANGE_WEALTH, WEALTH_LOW)
    assert [fields(e) for e in told(log, "emblem")] == [
        {"before": None, "holder": None, "changed": False, "treasure_cards": [1, 0, 0, 0]},
        {"before": None, "holder": GOLD, "changed": True, "treasure_cards": [2, 0, 0, 0]},
        {"before": GOLD, "holder": GOLD, "changed": False, "treasure_cards": [2, 0, 0, 0]}]


def test_role_rules_with_nothing_to_pay_are_told(blank, r, plans, rolling, log):
    """The Mercenary with no rival inn destroyed, the Governor when nobody pays tax, the
    Shopkeeper with no Famine and the Stowaway short of stakes at the start of their turn."""
    s = blank()
    s.roles[:4, 0] = [MERCENARY, GOVERNOR, SHOPKEEPER, STOWAWAY]
    apply_event(s, r, plans, rolling(7), log, FOREIGN_INVASION)
    apply_event(s, r, plans, rolling(7), log, TAX_COLLECTION)
    for p in (BRONZE, FOURTH):
        s.player = p
        collection_phase(s, r, log)
    assert [(e["player"], e["rule"]) for e in told(log, "role_no_coins")] == [
        (GOLD, story.ROLE_REASONS[story.R_MERCENARY]), (SILVER, story.ROLE_REASONS[story.R_GOVERNOR]),
        (BRONZE, story.ROLE_REASONS[story.R_SHOPKEEPER_FAMINE]),
        (FOURTH, story.ROLE_REASONS[story.R_STOWAWAY])]
    assert told(log, "role_no_coins")[-1]["stakes"] == 0 and told(log, "role_no_coins")[-1]["needed"] == 3


# --- the referee's view: setup, reshuffles --------------------------------------------------

def test_setup_names_the_cards_set_aside_and_the_innkeepers_plots(r, plans, rolling, log):
    """Game Setup 3: three random event cards are set aside into the discard pile; Innkeeper:
    two uncultivated plots at the start."""
    fixed = np.full((4, 2), NO_ROLE, dtype=np.int64)
    fixed[BRONZE, 0] = INNKEEPER
    table = new_game(r, 4, STANDARD, fixed, plans, rolling(7), log).view(np.recarray)
    s = table[0]
    [setup] = told(log, "setup")
    assert fields(setup) == {"players": 4, "mode": "standard", "target": 10, "starting_coins": 3,
                             "end_rule": "at_once"}
    aside = told(log, "set_aside")
    assert [e["card"] for e in aside] == [EVENT_NAMES[c] for c in s.event_discard[:3]]
    assert [(e["number"], e["of"], e["reshuffle"]) for e in aside] == [(1, 3, 0), (2, 3, 0), (3, 3, 0)]
    [plots] = told(log, "starting_plots")
    assert fields(plots) == {"player": BRONZE, "plots": 2, "land_deck": r.land_cards - 2}
    dealt = told(log, "roles_dealt")
    assert dealt[BRONZE]["role"] == "innkeeper"
    for p in (GOLD, SILVER, FOURTH):  # both cards dealt, the one kept and the one not chosen
        assert len(dealt[p]["dealt"]) == 2 and dealt[p]["role"] in dealt[p]["dealt"]
        assert dealt[p]["not_chosen"] == [x for x in dealt[p]["dealt"] if x != dealt[p]["role"]]


def test_every_reshuffle_names_the_cards_set_aside_again(blank, r, rolling, log):
    s = blank()
    cards = [GOOD_HARVEST, BAD_HARVEST, TAX_COLLECTION, MUTINY, EXPEDITION, BANKRUPTCY, PLAGUE]
    s.event_discard[:len(cards)] = cards
    s.event_discard_n = len(cards)
    reveal_event(s, r, rolling(7), log)
    [reshuffle] = told(log, "reshuffle")
    assert fields(reshuffle) == {"deck": len(cards), "reshuffle": 1}
    aside = told(log, "set_aside")
    assert [e["card"] for e in aside] == [EVENT_NAMES[c] for c in s.event_discard[:3]]
    assert all(e["reshuffle"] == 1 for e in aside)


# --- decisions ---------------------------------------------------------------------------------

def test_every_investment_decision_lists_its_options_and_prices(blank, r, plans, rolling, log,
                                                                start_turn):
    s = blank()
    s.guild_open[FARM] = 1
    s.guild_open[MARKET] = 1
    start_turn(s, GOLD, 4)
    offered = {(a, b): action_price(s, r, GOLD, a, b) for a, b in legal(s, r, GOLD)}
    investment_phase(s, r, plans, rolling(7), log)
    events = [e for e in story.tell(log) if e["kind"] in ("options", "action")]
    assert [e["kind"] for e in events[:2]] == ["options", "action"]
    first = events[0]
    assert first["player"] == GOLD
    assert {(o["action"], o["arg"]): o["cost"] for o in first["options"]} == \
        {(story.ACTION_NAMES[a], b): price for (a, b), price in offered.items()}
    assert first["options"][0]["action"] == "end turn"
    assert {o["guild"] for o in first["options"] if o["action"] == "invest in guild"} == {"Farm", "Market"}
    for options, chosen in zip(events[::2], events[1::2]):
        assert options["kind"] == "options" and chosen["kind"] == "action"
        assert {"action": chosen["action"], "arg": chosen["arg"], "cost": chosen["cost"]} in \
            [{k: o[k] for k in ("action", "arg", "cost")} for o in options["options"]]
    assert events[-1]["action"] == "end turn"


def test_governor_choice_is_told_with_both_cards(blank, r, plans, rolling, log):
    s = blank()
    s.roles[SILVER, 0] = GOVERNOR
    set_event_deck(s, [GOOD_HARVEST, TAX_COLLECTION])
    s.player = SILVER
    event_phase(s, r, plans, rolling(7), log)
    assert [e["card"] for e in told(log, "reveal")] == ["Tax Collection", "Good Harvest"]
    [choice] = told(log, "governor_choice")
    assert {choice["applied"], choice["returned"]} == {"Tax Collection", "Good Harvest"}


def test_land_expropriation_choice_is_told_with_the_holdings(blank, r, plans, rolling, log):
    s = blank()
    s.plots[SILVER] = 1
    s.cultivated[SILVER] = 2
    apply_event(s, r, plans, rolling(7), log, LAND_EXPROPRIATION)
    [event] = told(log, "lands_lost")
    assert event["player"] == SILVER
    assert (event["held_cultivated"], event["held_uncultivated"]) == (2, 1)
    assert event["cultivated"] + event["uncultivated"] == 2
    assert (event["cultivated"], event["uncultivated"]) == (2 - s.cultivated[SILVER], 1 - s.plots[SILVER])


def test_inn_built_tells_the_plot_it_stands_on(blank, r, rolling, log, start_turn):
    s = blank()
    s.cultivated[GOLD] = 1
    start_turn(s, GOLD, 14)
    take_action(s, r, rolling(7), log, GOLD, BUILD_INN, 0)
    take_action(s, r, rolling(7), log, GOLD, BUILD_INN, 0)
    assert [fields(e) for e in told(log, "inn_built")] == [
        {"player": GOLD, "plot": "a cultivated plot", "inns": 1},
        {"player": GOLD, "plot": "a plot bought for it", "inns": 2}]


def test_the_deciding_treasure_is_told(blank, r, log):
    s = blank()
    s.inns[SILVER] = 4
    s.expedition[:2] = [SILVER, GOLD]
    s.expedition_n = 2
    set_treasure_deck(s, [COMMON_TREASURE, RARE_TREASURE])
    sail(s, r, log, 7)
    [reached] = told(log, "target_reached")
    assert fields(reached) == {"player": SILVER, "points": 10, "target": 10, "end_rule": "at_once"}
    assert [e["player"] for e in told(log, "treasure_taken")] == [SILVER]


# --- whole replays ----------------------------------------------------------------------------

@pytest.mark.parametrize("players, mode", [(4, "standard"), (2, "ultimate_duel")])
def test_a_whole_replay_tells_setup_decisions_and_end(players, mode):
    """What holds in any game: the seating, then the setup, three cards set aside at the start
    and again at every reshuffle, every action chosen from the options listed just before it,
    and the game won by the player who reached the target."""
    for index in range(3):
        events = api.replay("gremios", seed=17, game_index=index, players=players, mode=mode)
        assert events[0]["kind"] == "seating" and len(events[0]["strategies"]) == players
        assert events[1]["kind"] == "setup" and events[1]["players"] == players
        assert "log_full" not in [e["kind"] for e in events]
        kinds = [e["kind"] for e in events]
        aside = [i for i, k in enumerate(kinds) if k == "set_aside"]
        assert len(aside) == 3 * (1 + kinds.count("reshuffle"))
        for i, kind in enumerate(kinds):
            if kind == "reshuffle":
                assert kinds[i + 1:i + 4] == ["set_aside"] * 3
        for i, kind in enumerate(kinds):
            if kind == "action":
                options = events[i - 1]
                assert options["kind"] == "options" and options["player"] == events[i]["player"]
                assert events[i]["cost"] in [o["cost"] for o in options["options"]
                                             if o["action"] == events[i]["action"]]
        end = events[-1]
        assert end["kind"] == "game_end"
        reached = [e for e in events if e["kind"] == "target_reached"]
        if not end["truncated"]:
            assert [e["player"] for e in reached] == end["winners"]


@pytest.mark.parametrize("players,seed,game_index", [(4, 5, 3), (3, 8, 0), (2, 2, 6)])
def test_the_unfolding_columns_are_what_the_replay_shows(players, seed, game_index):
    """Who led after each turn, rebuilt from the replay's points events alone, gives the games
    table's lead changes and the leaders at one and two thirds of the turns; every decision
    with options told in the replay is counted."""
    from simulator.core import batch
    from simulator.core.config import make_config
    events = api.replay("gremios", players=players, seed=seed, game_index=game_index)
    points, standings = [0] * players, []
    for e in events:
        if e["kind"] == "turn" and e["turn"] > 1 or e["kind"] == "game_end":
            standings.append(list(points))
        elif e["kind"] == "points":
            points[e["player"]] = e["points"]
    _, games = batch.play_in_memory(make_config("gremios", players, seed=seed), 1, game_index,
                                    with_games=True)
    row = games.row(0, named=True)
    assert len(standings) == row["turns"]
    assert (row["lead_changes"], row["leader_at_third"], row["leader_at_two_thirds"]) == \
        unfolding_of(standings)
    action_choices = sum(1 for e in events if e["kind"] == "options" and len(e["options"]) > 1)
    assert row["decisions"] >= action_choices > 0
