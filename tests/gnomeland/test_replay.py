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
