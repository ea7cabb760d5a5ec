"""A replayed Gnomeland game is the game of the run, event for event; the jsonl replay."""

import json

import polars as pl

from simulator import api
from tests.game_fixtures import log_of


def test_replay_matches_the_run(tmp_path):
    for players in (2, 4):
        path = api.run("gnomeland", players=players, games=30, seed=3, out=tmp_path / f"r{players}",
                       progress=False)
        data = api.load(path)
        seats, games = data.seats, data.games
        for index in (0, 11, 29):
            events = api.replay("gnomeland", seed=3, game_index=index, players=players)
            end = events[-1]
            assert end["kind"] == "game_end"
            rows = seats.filter(pl.col("game_id") == index).sort("seat")
            assert end["scores"] == rows["score"].to_list()
            assert end["building_points"] == rows["building_points"].to_list()
            game = games.filter(pl.col("game_id") == index)
            assert sum(e["kind"] == "turn" for e in events) == game["turns"].item()
            assert sum(e["kind"] == "round" for e in events) == 5
            assert sum(e["kind"] == "contest" for e in events) == game["contests"].item()
            for seat in range(players):
                row = rows.filter(pl.col("seat") == seat)
                mine = [e for e in events if e.get("player") == seat]
                assert sum(e["kind"] == "die" for e in mine) == row["dice_spent"].item()
                assert sum(e["kind"] == "copy" for e in mine) == row["copies"].item()
                assert sum(e["kind"] == "mission" for e in mine) == row["missions_completed"].item()
                assert sum(e["kind"] == "hire" for e in mine) == row["mercenaries_hired"].item()
                assert sum(e["vp"] for e in mine if e["kind"] == "score") == \
                    row["vp_missions"].item() + row["vp_contests"].item()
            chosen = [e for e in events if e["kind"] == "option" and e["chosen"]]
            assert len(chosen) == sum(e["kind"] == "options" for e in events)


def test_replay_jsonl_on_the_command_line(playtest):
    code, out, err = playtest("replay", "gnomeland", "--seed", 1, "-p", 3, "--format", "jsonl")
    assert code == 0, err
    events = [json.loads(line) for line in out.strip().splitlines()]
    kinds = {e["kind"] for e in events}
    assert {"round", "turn", "die", "options", "option", "keep", "first_player", "game_end"} <= kinds
    assert all("text" in e for e in events)
    code, text, _ = playtest("replay", "gnomeland", "--seed", 1, "-p", 2)
    assert code == 0 and "=== Round 1" in text and "Game over" in text


def test_options_name_their_cards():
    """A Tavern option names its Action card, a spell option its Spell, a mission its card."""
    from simulator.games.gnomeland.board import ACTION_NAMES, SPELL_NAMES
    events = [e for index in range(6) for e in api.replay("gnomeland", seed=2, game_index=index,
                                                          players=4)]
    options = [e for e in events if e["kind"] == "option"]
    tavern = [e for e in options if e["option"] == "tavern"]
    spells = [e for e in options if e["option"] == "cast spell"]
    missions = [e for e in options if e["option"] == "mission"]
    assert tavern and spells and missions
    for e in tavern:
        assert e["card"] == ACTION_NAMES[e["b"]] and e["card"] in e["text"]
        assert "Tavern card " in e["text"]
    for e in spells:
        assert e["card"] == SPELL_NAMES[e["b"]] and f"cast {e['card']}" in e["text"]
    for e in missions:
        assert e["card"] in e["text"]
    assert all(e["card"] is None for e in options if e["option"] in ("spend die", "end turn"))


def test_build_and_upgrade_events_keep_their_own_kind():
    """Issue 30: a build or upgrade told its Building's kind in a field named ``kind``, which
    overwrote the event's own kind, so ``special`` named a build, an upgrade and a special use.
    Each event keeps the kind of its log code; the Building's kind is ``building_kind``."""
    from simulator.games.gnomeland import story
    from simulator.games.gnomeland.codes import BUILD, LOG_KINDS, SPECIAL, UPGRADE
    # the log rows as the kernel writes them: (code, player, normal 0 / special 1, ...)
    events = story.tell(log_of(
        (BUILD, 0, 0, 0, 1, -1, 0),     # P0 builds Normal Building 0 on slot 1
        (BUILD, 1, 1, 0, 0, -1, 0),     # P1 builds Special Building 0 on special slot 0
        (UPGRADE, 0, 0, 1, 0, 0, 0),    # P0 upgrades Normal Building 0 on slot 1
        (UPGRADE, 1, 1, 0, 0, 0, 0),    # P1 upgrades Special Building 0 on slot 0
        (SPECIAL, 1, 0, 1, 0, 0, 0)))   # P1 uses the upgraded Special Building 0
    assert [e["kind"] for e in events] == ["build", "build", "upgrade", "upgrade", "special"]
    assert [e.get("building_kind") for e in events] == ["normal", "special", "normal", "special",
                                                         None]
    # and in a played game: every event is of the kind of its log code
    played = [e for index in range(3)
              for e in api.replay("gnomeland", seed=2, game_index=index, players=4)]
    assert {e["kind"] for e in played} <= set(LOG_KINDS) | {"seating"}
    builds = [e for e in played if "building_kind" in e]
    assert {e["kind"] for e in builds} == {"build", "upgrade"}


# --- issue 30: the supply, and what the replay tells ----------------------------------------------

RESOURCES = {"coin": 0, "mana": 1, "weapons": 2}


def supply_walk(events, n_players):
    """The supply rebuilt from what the replay says moved (gains, payments, copies, the
    Warehouses' keeps, contests), independently of its told ``supply`` events: yields (event,
    the supply after it)."""
    hand = [[0, 0, 0] for _ in range(n_players)]
    copied = [[0, 0, 0] for _ in range(n_players)]
    supply = [16, 12, 12]
    counted = None

    def move(where, p, bundle, sign):
        for name, k in RESOURCES.items():
            where[p][k] += sign * bundle[name]
            supply[k] -= sign * bundle[name]

    for e in events:
        kind = e["kind"]
        if kind in ("die", "gain"):
            move(hand, e["player"], e["gained"], 1)
        elif kind == "copy":
            move(copied, e["player"], e["gained"], 1)
        elif kind == "pay":
            move(hand, e["player"], e["paid"], -1)
        elif kind == "warehouse_discarded":
            move(hand, e["player"], e["discarded"], -1)
        elif kind == "turn":
            p = e["player"]
            hand[p] = [a + b for a, b in zip(hand[p], copied[p])]
            copied[p] = [0, 0, 0]
        elif kind == "keep":
            p = e["player"]
            for name, k in RESOURCES.items():
                supply[k] += hand[p][k] - e["kept"][name]
                hand[p][k] = e["kept"][name]
        elif kind == "contest":
            counted = RESOURCES["weapons" if e["contest"] == "Brawl" else "mana"]
        elif kind == "contest_roll":
            supply[counted] += e["warehouses"]
            hand[e["player"]][counted] -= e["warehouses"]
        elif kind == "curse" and e["from"] is not None:
            k = RESOURCES[e["resource"].lower()]
            hand[e["from"]][k] -= 1
            hand[e["player"]][k] += 1
        yield e, list(supply)


def test_a_mercenary_never_gives_a_cube_the_supply_has_not():
    """Issue 30 (seed 8356, four players, lookahead and the six heuristics, game 0): a Trader
    discarded to pay while all 16 Coins were held gave a seventeenth. Rebuilt from the story,
    the supply never goes below zero, and the supply the replay tells is the one rebuilt."""
    mix = ["lookahead", "greedy", "mission_hunter", "engine_builder", "copier", "brawler",
           "balanced"]
    events = api.replay("gnomeland", seed=8356, game_index=0, players=4, strategies=mix)
    told = None
    for e, supply in supply_walk(events, 4):
        assert min(supply) >= 0, e["text"]
        if e["kind"] == "supply":
            told = [e["coin"], e["mana"], e["weapons"]]
            assert min(told) >= 0
    assert told == supply


def test_an_exchange_that_cannot_pay_out_is_not_offered():
    """Issue 30 (seed 8387, three players, the default mix, game 0): the Pier was offered and
    used with no Weapons left in the supply, 2 Coins for nothing. No Pier or Port option, Two
    Coins action or copy is offered while the supply has none of what it gives."""
    events = api.replay("gnomeland", seed=8387, game_index=0, players=3)
    supply = [16, 12, 12]
    for e, after in supply_walk(events, 3):
        if e["kind"] == "option" and e["option"] == "convert":
            assert supply[e["b"]] > 0, e["text"]
        if e["kind"] == "option" and e["card"] == "Two Coins":
            assert supply[0] > 0, e["text"]
        if e["kind"] in ("copy", "special"):
            assert sum(e["gained"].values()) > 0, e["text"]
        supply = after


def test_the_replay_tells_dice_mercenaries_and_the_supply():
    """Issue 30: the replay told a contest's total only, a mission's Mercenaries not at all, a
    payment's discarded Mercenaries as a count, a die event without its die. Now each contest
    count follows the player's dice (as rolled and as counted), a mission that takes Mercenaries
    names them, a payment names the cards discarded, a die event its die."""
    events = [e for index in range(4)
              for e in api.replay("gnomeland", seed=2, game_index=index, players=4)]
    rolls = [i for i, e in enumerate(events) if e["kind"] == "contest_roll"]
    assert rolls
    for i in rolls:
        j = i - 1
        while events[j]["kind"] in ("hire", "pay", "supply"):  # the hires the count paid for
            j -= 1
        dice = events[j]
        assert dice["kind"] == "contest_dice" and dice["player"] == events[i]["player"]
        assert len(dice["rolled"]) >= 3 and len(dice["dice"]) == len(dice["rolled"])
        assert all(1 <= v <= 6 for v in dice["rolled"] + dice["dice"])
    handed = 0
    for i, e in enumerate(events):
        if e["kind"] != "mission":
            continue
        c = max(j for j in range(i) if events[j]["kind"] == "option" and events[j]["chosen"])
        wanted = events[c]["cost"].get("mercenaries", 0)
        told = [x for x in events[c:i] if x["kind"] == "mission_mercenaries"]
        assert sum(sum(x["mercenaries"].values()) for x in told) == wanted
        handed += bool(wanted)
    assert handed
    pays = [e for e in events if e["kind"] == "pay"]
    assert any(e["mercenaries_discarded"] for e in pays)
    for e in pays:
        assert sum(e["discarded"].values()) == e["mercenaries_discarded"]
    # a die event's die is the turn's die of that value (rolled, added, changed), spent once
    own, dice, spent = {}, [], set()
    for e in events:
        if e["kind"] == "roll":
            own[e["player"]] = e["dice"]
        elif e["kind"] == "turn":
            dice, spent = list(own[e["player"]]), set()
        elif e["kind"] == "extra_die":
            assert e["die"] == len(dice)
            dice.append(e["value"])
        elif e["kind"] in ("reroll", "die_change"):
            dice[e["die"]] = e["new"]
        elif e["kind"] == "die":
            assert dice[e["die"]] == e["value"] and e["die"] not in spent
            spent.add(e["die"])
    assert any(e["kind"] == "supply" for e in events)
