"""``playtest replay elgrande``: the same game as the run's, told event by event."""

import polars as pl

from simulator import api


def test_replay_matches_the_run(small_runs):
    data = api.load(small_runs[4])
    seats, games = data.seats, data.games
    strategies = data.manifest["strategies"]
    for index in (0, 7, 59):
        events = api.replay("elgrande", seed=11, game_index=index, players=4,
                            strategies=strategies)
        assert events[-1]["kind"] == "game_end"
        expected = seats.filter(pl.col("game_id") == index).sort("seat")["score"].to_list()
        assert events[-1]["scores"] == expected
        row = games.filter(pl.col("game_id") == index)
        assert sum(e["kind"] == "turn" for e in events) == row["turns"].item()
        assert sum(e["kind"] == "king_moved" for e in events) == row["king_moves"].item()
        placed = seats.filter(pl.col("game_id") == index).sort("seat")["caballeros_placed"]
        assert [sum(e["kind"] == "placed" and e["player"] == p for e in events)
                for p in range(4)] == placed.to_list()


def test_replay_tells_every_decision_and_scoring(small_runs):
    events = api.replay("elgrande", seed=11, game_index=3, players=4,
                        strategies=api.load(small_runs[4]).manifest["strategies"])
    kinds = {e["kind"] for e in events}
    assert {"setup", "round", "card_up", "power_card", "turn_order", "to_court", "card_taken",
            "placed", "scoring", "place_scored", "secret_choice", "decision",
            "game_end"} <= kinds
    decisions = [e for e in events if e["kind"] == "decision"]
    assert all(0 <= e["chosen"] < e["options"] for e in decisions)
    assert sum(e["kind"] == "round" for e in events) == 9
    castillo = [e for e in events if e["kind"] == "scoring" and e["place"] == "the Castillo"
                and e["scoring"] == "general scoring"]
    assert len(castillo) == 3  # the Castillo at each general scoring
