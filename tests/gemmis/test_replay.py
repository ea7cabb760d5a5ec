"""A replayed GEMMiS game is the game of the run, event for event: every switch, combination,
refill and street move the story tells is counted in the dataset too."""

import json

import polars as pl
import pytest
from click.testing import CliRunner

from simulator import api
from simulator.cli import main
from simulator.games.gemmis.board import SKILL_NAMES
from simulator.games.gemmis.kernel import SIZES, SKILL_COLUMNS
from tests.game_fixtures import log_of


def count(events, kind, **fields):
    return sum(1 for e in events if e["kind"] == kind and all(e.get(k) == v for k, v in fields.items()))


@pytest.mark.parametrize("mode", ["family", "advanced_alguazil"])
def test_replay_matches_the_run(tmp_path, mode):
    path = api.run("gemmis", games=20, seed=3, mode=mode, out=tmp_path / "run", progress=False)
    data = api.load(path)
    seats, games = data.seats, data.games
    for index in (0, 7, 19):
        events = api.replay("gemmis", seed=3, game_index=index, mode=mode)
        assert events[0]["kind"] == "seating" and events[1]["kind"] == "setup"
        assert events[1]["mode"] == mode
        end = events[-1]
        assert end["kind"] == "game_end"
        rows = seats.filter(pl.col("game_id") == index).sort("seat")
        assert end["scores"] == rows["score"].to_list()
        assert end["small_gems"] == rows["small_gems"].to_list()
        game = games.filter(pl.col("game_id") == index)
        assert count(events, "turn") == game["turns"].item()
        assert count(events, "street_moved") == game["street_moves"].item()
        assert count(events, "sack_refilled") == game["sack_refills"].item()
        for seat, row in enumerate(rows.iter_rows(named=True)):
            switches = count(events, "switch", player=seat) + \
                count(events, "small_gem_switch", player=seat)
            assert switches == row["switches"]
            assert count(events, "combination", player=seat) == row["combinations"]
            for k in SIZES:
                assert count(events, "combination", player=seat, size=k) == row[f"combinations_{k}"]
            cascades = sum(1 for e in events if e["kind"] == "combination" and e["player"] == seat
                           and e["cascade"] > 0)
            assert cascades == row["cascades"]
            assert count(events, "joker", player=seat) == row["jokers_used"]
            assert count(events, "small_gem_taken", player=seat) == row["small_gems"]
            table = sum(e["table_points"] for e in events
                        if e["kind"] == "combination" and e["player"] == seat)
            values = sum(e["values"] for e in events
                         if e["kind"] == "combination" and e["player"] == seat)
            assert (table, values) == (row["points_combinations"], row["points_values"])
            for skill, column in zip(SKILL_NAMES[:3], SKILL_COLUMNS[:3]):
                assert count(events, "alguazil_used", player=seat, skill=skill) == row[column]
            assert count(events, "alguazil_cancelled", player=seat) == row["alguazil_cancel"]
        # every cell a combination empties is refilled (from the street or the sack) or told
        # as left empty: followed event by event, a zone's empty places are those its
        # combinations emptied and no fill has filled since, and each "left empty" tells them all
        empty = [0, 0]
        for e in events:
            if e["kind"] == "combination":
                empty[e["player"]] += e["size"]
            elif e["kind"] == "zone_filled":
                empty[e["player"]] -= 1
                assert empty[e["player"]] >= 0
            elif e["kind"] == "zone_left_empty":
                assert e["cells"] == empty[e["player"]]
        # every decision is told with its options
        assert all(0 <= e["chosen"] < e["options"] for e in events if e["kind"] == "options")


def test_the_cli_replays_as_jsonl():
    result = CliRunner().invoke(main, ["replay", "gemmis", "--seed", "1", "--game-index", "2",
                                       "--format", "jsonl"])
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in result.output.splitlines()]
    kinds = {e["kind"] for e in events}
    assert {"setup", "turn", "switch", "combination", "zone_filled", "street_moved",
            "street_filled", "game_end"} <= kinds
    assert all("text" in e for e in events)


def _told(*rows):
    """The story of a log holding ``rows`` (code, a, b, c, d, e, f), as the kernel writes them."""
    from simulator.games.gemmis import story
    return story.tell(log_of(*rows))


def _inner_row(*gems):
    """P0's inner row (cells 6-11) set up with these gem codes (colour * 10 + value)."""
    from simulator.games.gemmis import story as S
    return [(S.ZONE_GEM, 0, 6 + column, gem) for column, gem in enumerate(gems)]


def test_a_joker_is_told_in_the_colour_its_combination_needs():
    """Issue 30 (seed 8201, family, game 2: 'P0's joker at inner 3 is red' in a combination of
    six gems): red red red joker amber amber all go only if the joker is amber (red red red is a
    run already, amber amber needs it); the kernel logs the left gem's colour, red. In red red
    joker blue blue blue the joker must be red."""
    from simulator.games.gemmis import story as S
    from simulator.games.gemmis.board import JOKER
    red, blue, amber, joker = 0, 10, 40, JOKER * 10
    inner = 0b111111 << 6
    joker_row = (S.JOKER_COLOUR, 0, 9, 0)  # the kernel's: red
    events = _told(*_inner_row(red, red, red, joker, amber, amber),
                   (S.COMBINATION, 0, 6, 8, 0, inner, 0), joker_row)
    assert events[-1]["colour"] == "amber" and events[-1]["text"].endswith("is amber.")
    events = _told(*_inner_row(red, red, joker, blue, blue, blue),
                   (S.COMBINATION, 0, 6, 8, 0, inner, 0), (S.JOKER_COLOUR, 0, 8, 0))
    assert events[-1]["colour"] == "red"
    # the zone is followed: a switch in the zone makes red red joker red amber amber the first
    # case's row
    events = _told(*_inner_row(red, red, joker, red, amber, amber),
                   (S.SWITCH, 0, S.SWITCH_IN_ZONE, 8, 9, joker, red),
                   (S.COMBINATION, 0, 6, 8, 0, inner, 0), joker_row)
    assert events[-1]["colour"] == "amber"
    # the game
    events = api.replay("gemmis", seed=8201, game_index=2, mode="family")
    told = [e for e in events if e["kind"] == "joker" and e["cell"] == 9 and e["player"] == 0]
    assert "amber" in [e["colour"] for e in told]


def test_an_alert_at_the_top_stays_there():
    """Issue 30: an alert at the top (level 3) logged again after the opponent's combination was
    told as rising to level 3. It starts at 0 and a skill used drops it back to 0."""
    from simulator.games.gemmis import story as S
    alert = lambda level: (S.ALERT, 1, level, 3)
    events = _told(alert(1), alert(2), alert(3), alert(3), (S.ALGUAZIL_USED, 1, 0), alert(1))
    assert [e["rose"] for e in events if e["kind"] == "alert"] == [True, True, True, False, True]
    assert "stays at level 3" in events[3]["text"] and "rises to level 3" in events[2]["text"]
    assert events[4]["level"] == 0
    # in played games: an alert below the top never stays, it only rises
    alerts = [e for i in range(6) for e in api.replay("gemmis", seed=8201, game_index=i,
                                                      mode="advanced_alguazil")
              if e["kind"] == "alert"]
    assert any(not e["rose"] for e in alerts)
    assert all(e["rose"] for e in alerts if e["level"] < e["available_at"])
