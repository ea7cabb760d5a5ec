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


MODES = ["family", "advanced", "family_alguazil", "advanced_alguazil"]


def _runs(colours: dict) -> set[int]:
    """The cells in horizontal runs of three or more of one colour (``colours``: cell -> colour
    name, None or no entry for an empty cell or a joker joining nothing)."""
    cells = set()
    for first in (0, 6):
        column = 0
        while column < 6:
            here, end = colours.get(first + column), column + 1
            while end < 6 and here is not None and colours.get(first + end) == here:
                end += 1
            if here is not None and end - column >= 3:
                cells.update(range(first + column, first + end))
            column = end
    return cells


def _joker_combinations(events):
    """(index, combination event, its zone before it: cell -> gem name, its jokers' events) for
    every combination, the zones followed event by event."""
    zones = {}  # (player, cell) -> gem name
    found = []
    for i, e in enumerate(events):
        kind = e["kind"]
        if kind in ("zone_gem", "zone_filled"):
            zones[e["player"], e["cell"]] = e["gem"]
        elif kind in ("switch", "small_gem_switch"):
            p = e["player"]
            zones[p, e["cell"]] = e["other_gem"]
            if e["with"] == "zone":
                zones[p, e["other"]] = e["gem"]
        elif kind == "zone_settled":
            zones[e["player"], e["cell"]] = e["gem"]
            zones[e["player"], e["from_cell"]] = "nothing"
        elif kind == "combination":
            p = e["player"]
            zone = {cell: gem for (q, cell), gem in zones.items() if q == p}
            jokers = []
            for later in events[i + 1:]:
                if later["kind"] != "joker":
                    break
                jokers.append(later)
            found.append((i, e, zone, jokers))
            for cell in e["cells"]:
                zones[p, cell] = "nothing"
    return found


def _check_jokers_told(events):
    """Every joker of a combination is told once, in a colour that makes the combination: the
    zone with the jokers in their told colours (the others joining nothing) has exactly the
    combination's cells in runs. Returns how many jokers were told."""
    told = 0
    for i, e, zone, jokers in _joker_combinations(events):
        colours = {cell: gem.split()[0] for cell, gem in zone.items()
                   if gem not in ("nothing", "joker")}
        in_it = sorted(cell for cell in e["cells"] if zone[cell] == "joker")
        assert sorted(j["cell"] for j in jokers) == in_it, (i, e["text"])
        colours.update({j["cell"]: j["colour"] for j in jokers})
        assert _runs(colours) == set(e["cells"]), (i, e["text"], [j["text"] for j in jokers])
        told += len(jokers)
    return told


def test_a_joker_is_logged_in_the_colour_of_the_combination_it_made(table, r, log):
    """Issue 30 (seed 8201, family, game 2: 'P0's joker at inner 3 is red' in a combination of
    six gems): red red red joker amber amber all go only if the joker is amber (red red red is a
    run already, amber amber needs it); the kernel logged the left gem's colour, red. In red red
    joker blue blue blue the joker must be red; in red red red joker blue blue blue either (the
    left one, red, is told)."""
    from simulator.core.rng import seed_stream
    from simulator.games.gemmis import board, story, turn
    for inner, cells, colour in (("R R R J A A", 0b111111 << 6, "amber"),
                                 ("R R J B B B", 0b111111 << 6, "red"),
                                 ("J R R B B B", 0b111111 << 6, "red"),
                                 ("R J A A R R", 0b1110 << 6, "amber")):
        t = table().zone(0, "W B W B G G", inner)
        s = t.s
        masks = t.masks()
        log[0, 0] = 0
        turn.trigger(s, r, seed_stream(1, 0), log, 0, masks, cells, 0, 0)
        jokers = [e for e in story.tell(log) if e["kind"] == "joker"]
        assert [e["colour"] for e in jokers] == [colour], inner
    # the game, under the reading it was played by (sack_into_zone = empty_cell)
    events = api.replay("gemmis", seed=8201, game_index=2, mode="family",
                        settings={"sack_into_zone": "empty_cell"})
    i = next(i for i, e in enumerate(events) if e["kind"] == "combination" and e["player"] == 0
             and e["cells"] == list(range(6, 12)) and events[i + 2]["kind"] == "joker")
    assert {e["cell"]: e["colour"] for e in events[i + 1:i + 3]} == {7: "red", 9: "amber"}
    assert _check_jokers_told(events) > 0


@pytest.mark.parametrize("mode", MODES)
def test_every_joker_is_told_in_the_colour_its_combination_needs(mode):
    told = sum(_check_jokers_told(api.replay("gemmis", seed=8201, game_index=i, mode=mode))
               for i in range(8))
    assert told > 0


def _sack_followed(events):
    """The gems in the sack, followed event by event from the setup: never below none, and
    refilled (or found empty) only when none is left."""
    in_sack = events[1]["chips"] - 24
    refills = 0
    for i, e in enumerate(events):
        kind = e["kind"]
        if kind == "street_filled" or (kind == "zone_filled" and e["from"] == "sack"):
            in_sack -= 1
        elif kind == "sack_refilled":
            assert in_sack == 0, (i, e["text"])
            in_sack += e["gems"]
            refills += 1
        elif kind in ("sack_empty", "street_left_empty"):
            assert in_sack == 0, (i, e["text"])
        elif kind == "street_gem_returned":
            in_sack += 1
        elif kind == "aside_returned":
            in_sack += e["gems"]
        assert in_sack >= 0, (i, e["text"])
    return refills


@pytest.mark.parametrize("mode", MODES)
def test_the_sack_is_refilled_when_its_last_gem_is_drawn(mode):
    """Issue 30: a refill was logged before the draw of the sack's last gem (the next gem told
    drawn was that one), so a count of the sack followed from the log went wrong at every
    refill. Also with the street shifting (gems going back into the sack)."""
    refills = sum(_sack_followed(api.replay("gemmis", seed=8201, game_index=i, mode=mode))
                  for i in range(8))
    refills += _sack_followed(api.replay("gemmis", seed=8201, game_index=0, mode=mode,
                                         settings={"street_moving": "every_turn",
                                                   "street_move": "shift_one"}))
    assert refills > 0


def test_an_alert_at_the_top_stays_there():
    """Issue 30: an alert at the top (level 3) logged again after the opponent's combination was
    told as rising to level 3. It starts at 0 and a skill used drops it back to 0."""
    from simulator.games.gemmis import story as S
    alert = lambda level: (S.ALERT, 1, level, 3)
    events = _told(alert(1), alert(2), alert(3), alert(3), (S.ALGUAZIL_USED, 1, 0),
                   (S.ALERT_AFTER_SKILL, 1, 0, 3), alert(1))
    assert [e["rose"] for e in events if e["kind"] == "alert"] == [True, True, True, False, True]
    assert "stays at level 3" in events[3]["text"] and "rises to level 3" in events[2]["text"]
    assert events[5]["level"] == 0 and "drops to level 0 (not available)" in events[5]["text"]
    # in played games: an alert below the top never stays, it only rises
    alerts = [e for i in range(6) for e in api.replay("gemmis", seed=8201, game_index=i,
                                                      mode="advanced_alguazil")
              if e["kind"] == "alert"]
    assert any(not e["rose"] for e in alerts)
    assert all(e["rose"] for e in alerts if e["level"] < e["available_at"])


def test_the_alert_level_a_skill_leaves_is_logged(table, r, log):
    """Issue 30: the alert level after a skill was not logged. A skill used leaves its user's
    alert at the lowest level; a cancelled one leaves both there."""
    from simulator.core.rng import seed_stream
    from simulator.games.gemmis import board, story, turn
    from strategies.gemmis import GREEDY
    from tests.gemmis.conftest import make_plans
    top = board.alert_available(r)
    t = table(alguazil=1)
    s = t.s
    s.alert[:] = [top, top - 1]
    plans = make_plans(GREEDY)
    assert turn.use_alguazil(s, r, plans, seed_stream(2, 0), log, 0, board.CLEAN_STREET, 0, 0)
    after = [e for e in story.tell(log) if e["kind"] == "alert_after_skill"]
    assert [(e["player"], e["level"]) for e in after] == [(0, 0)]
    log[0, 0] = 0
    s.alert[:] = [top, top]
    plans[1][:, :] = 0.0  # every threshold 0: P1 cancels
    assert not turn.use_alguazil(s, r, plans, seed_stream(2, 1), log, 0, board.CLEAN_STREET, 0,
                                 0)
    after = [e for e in story.tell(log) if e["kind"] == "alert_after_skill"]
    assert [(e["player"], e["level"]) for e in after] == [(0, 0), (1, 0)]
    # in played games: every skill used is followed by its user's level, a cancel by both, and
    # the levels followed from the log are the kernel's
    used = 0
    for mode in ("family_alguazil", "advanced_alguazil"):
        for i in range(6):
            events = api.replay("gemmis", seed=8201, game_index=i, mode=mode)
            level = [0, 0]
            expect = []  # the players whose level must be told before the next skill or turn
            for e in events:
                if e["kind"] in ("alguazil_used", "turn"):
                    assert expect == [], e["text"]
                if e["kind"] == "alguazil_used":
                    expect = [e["player"]]
                    used += 1
                elif e["kind"] == "alguazil_cancelled":
                    expect = [1 - e["player"], e["player"]]
                elif e["kind"] == "alert_after_skill":
                    assert expect and expect.pop(0) == e["player"] and e["level"] == 0
                    level[e["player"]] = e["level"]
                elif e["kind"] == "alert":
                    assert e["level"] == min(level[e["player"]] + 1, e["available_at"])
                    level[e["player"]] = e["level"]
    assert used > 0
