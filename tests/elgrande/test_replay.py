"""``playtest replay elgrande``: the same game as the run's, told event by event."""

import polars as pl

from simulator import api
from tests.game_fixtures import log_of


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


def test_replay_of_the_expansion_tells_every_new_rule(expansion_run):
    """The expansion's replay matches its run and tells its rules with structured fields: the
    black Caballeros and the limit table at setup, the secret setup choice, free moves, tokens
    laid, taken and brought home, the spaces scored, the Grand Inquisitor taken and his extra
    Caballero, the limit table filled."""
    data = api.load(expansion_run)
    strategies = data.manifest["strategies"]
    kinds = set()
    for index in range(15):  # the limit table fills in about one game of four
        events = api.replay("elgrande", seed=11, game_index=index, players=4,
                            strategies=strategies, mode="grand_inquisitor_colonies")
        expected = data.seats.filter(pl.col("game_id") == index).sort("seat")["score"].to_list()
        assert events[-1]["scores"] == expected
        row = data.games.filter(pl.col("game_id") == index)
        assert sum(e["kind"] == "inquisitor_taken" and e["from"] != e["player"]
                   for e in events) == row["inquisitor_changes"].item()
        assert sum(e["kind"] == "token_home" for e in events) == row["tokens_brought_home"].item()
        kinds |= {e["kind"] for e in events}
        for e in events:
            if e["kind"] == "token_home":
                assert e["points"] in (4, 6) and e["token"] in ("Ware", "Gold")
            if e["kind"] == "space_scored":
                assert e["space"] in ("ambassador", "envoy", "Captain", "Viceroy")
            if e["kind"] == "secret_choice" and e["purpose"] == "two Caballeros at setup":
                assert e["place"] not in ("Francia", "the Ship", "América", "África")
    assert {"black_placed", "table_placed", "tokens_laid", "token_taken", "token_home",
            "space_scored", "inquisitor_taken", "extra_caballero", "free_move",
            "table_filled"} <= kinds, kinds


def _told(*rows):
    """The story of a log holding ``rows`` (code, a, b, c, d, e, f), as the kernel writes them."""
    from simulator.games.elgrande import story
    return story.tell(log_of(*rows))


def test_a_free_move_tells_the_index_of_its_option():
    """Issue 30: a free move's decision told the destination's place number + 1 as ``chosen``
    (seed 8101, 2 players, the expansion, game 0: 'free move', 9 options, chosen 12). Its
    options are staying, then the destinations in place order: from the Ship, América, África
    and the coastal regions (Cataluña, Galicia, Granada, País Vasco, Sevilla, Valencia, Francia)
    but not the King's region, nor Francia when it is full."""
    from simulator.games.elgrande import board as B
    from simulator.games.elgrande import story as S
    free = lambda options, place: (S.DECISION, 0, S.DECIDE_FREE_MOVE, options, place + 1)
    # the King in Sevilla: 8 destinations; América is the 7th of them, option index 7
    events = _told((S.SETUP, 2, B.SEVILLA), free(9, B.AMERICA), free(9, -1))
    assert [e["chosen"] for e in events[1:]] == [7, 0]
    assert [e["destination"] for e in events[1:]] == ["América", None]
    # the King moves to Aragón (not coastal): 9 destinations, or 8 when Francia is full
    events = _told((S.SETUP, 2, B.SEVILLA), (S.KING_MOVED, B.SEVILLA, B.ARAGON),
                   free(10, B.AFRICA), free(9, B.AFRICA), free(10, B.FRANCIA))
    assert [e["chosen"] for e in events[2:]] == [9, 8, 7]
    # from a colony the only destination is the Ship
    assert _told((S.SETUP, 2, B.SEVILLA), free(2, B.SHIP))[1]["chosen"] == 1


def test_every_decision_of_the_expansion_tells_a_valid_option():
    """Every logged choice is an index of its options (the limit table's, whose options the log
    does not list, says its colour and leaves the index out unless there is one option)."""
    from simulator.games.elgrande.board import REGION_NAMES
    events = [e for index in range(2) for e in api.replay(
        "elgrande", seed=8101, game_index=index, players=2, mode="grand_inquisitor_colonies")]
    decisions = [e for e in events if e["kind"] == "decision"]
    free = [e for e in decisions if e["decision"] == "free move"]
    assert free and any(e["chosen"] > 1 for e in free)
    for e in decisions:
        if e["decision"] == "limit table space":
            assert e["chosen"] == (0 if e["options"] == 1 else None) and "colour" in e
        else:
            assert 0 <= e["chosen"] < e["options"], e
    # the decision's destination is the free move's that follows it
    for e, after in zip(events, events[1:]):
        if e.get("decision") == "free move" and e["chosen"]:
            assert after["kind"] == "free_move" and after["to"] == e["destination"]
            assert e["destination"] in REGION_NAMES
