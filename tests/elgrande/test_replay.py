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


def test_every_decision_tells_the_index_of_its_option():
    """Issue 30: every logged choice is the index of the option taken among those offered, as
    the kernel logs it (a free move's decision told 'free move', 9 options, chosen 12 at seed
    8101, 2 players, the expansion, game 0; the limit table's told no index): over seeded
    games of both modes at 2-5 players. A free move's decision names its destination, the
    limit table's the colour put on the space, as the events that follow do."""
    told = set()
    for mode in ("base", "grand_inquisitor_colonies"):
        for players in (2, 3, 4, 5):
            for index in range(2):
                events = api.replay("elgrande", seed=8101, game_index=index, players=players,
                                    mode=mode)
                for e, after in zip(events, events[1:]):
                    if e["kind"] != "decision":
                        continue
                    told.add(e["decision"])
                    assert isinstance(e["chosen"], int) and 0 <= e["chosen"] < e["options"], e
                    if e["decision"] == "free move":
                        assert (e["chosen"] == 0) == (e["destination"] is None)
                        if e["chosen"]:
                            assert after["kind"] == "free_move" and after["to"] == e["destination"]
                    if e["decision"] == "limit table space":
                        assert after["kind"] == "table_filled" and after["colour"] == e["colour"]
    assert {"free move", "limit table space"} <= told


def _turns(events):
    """Each event with the player whose turn it is then (None between turns: the card play, a
    Copycat after a turn, a general scoring with its Free Choice)."""
    current = None
    for e in events:
        if e["kind"] == "turn":
            current = e["player"]
        elif e["kind"] == "round" or (
                e["kind"] == "scoring" and e["scoring"] == "general scoring") or (
                e["kind"] == "held_card_used" and e["card"] in ("copycat", "free choice")):
            current = None
        yield current, e


def test_tokens_are_taken_only_in_their_players_turn():
    """Issue 30 (seed 8101, 5 players, the expansion, game 63): a Caballero moved into África by
    Free Choice during a general scoring took a Ware there. 'During your turn, you may take Gold
    and Wares': every token is taken by the player whose turn it is (the black Caballeros'
    by their holder, in his turn)."""
    taken = 0
    for players, index in ((5, 63), (5, 0), (4, 1), (3, 2), (2, 3)):
        events = api.replay("elgrande", seed=8101, game_index=index, players=players,
                            mode="grand_inquisitor_colonies")
        for current, e in _turns(events):
            if e["kind"] == "token_taken":
                taken += 1
                assert current is not None and e["colour"] in (current, "black"), e
    assert taken > 0


def test_holy_inquisition_places_next_to_the_king_only():
    """Issue 30 (seed 8101, 2 players, the expansion, game 0: 'P1 places a Caballero from the
    court in the Castillo' with Holy Inquisition): its 3 Caballeros go 'into regions
    neighboring the King's region', never the Castillo or the Ship; holy_inquisition_places =
    'as_any_card' (the wider reading) lets them in there."""
    from simulator.games.elgrande.board import BORDERS, REGION_NAMES
    where = {}
    for places in ("neighbours", "as_any_card"):
        found = []
        for index in range(3):
            events = api.replay("elgrande", seed=8101, game_index=index, players=2,
                                mode="grand_inquisitor_colonies",
                                settings={"holy_inquisition_places": places})
            king, card = None, None
            for e in events:
                if e["kind"] == "setup":
                    king = e["king"]
                elif e["kind"] == "king_moved":
                    king = e["to"]
                elif e["kind"] in ("turn", "card_taken"):
                    card = e.get("card")
                elif e["kind"] == "placed" and card == "holy_inquisition":
                    found.append((king, e["place"]))
        where[places] = found
    assert where["neighbours"]
    for king, place in where["neighbours"]:
        assert place in REGION_NAMES and BORDERS[REGION_NAMES.index(king),
                                                  REGION_NAMES.index(place)] == 1
    assert any(place in ("the Castillo", "the Ship") for _, place in where["as_any_card"])


def _expansion_replays(strategies=None, games=2):
    """Seeded replays of the expansion at 2-5 players (seed 8101, the issue's seed)."""
    for players in (2, 3, 4, 5):
        for index in range(games):
            yield players, index, api.replay(
                "elgrande", seed=8101, game_index=index, players=players,
                mode="grand_inquisitor_colonies",
                strategies=None if strategies is None else [strategies] * players)


def test_the_expansions_setup_caballeros_are_told():
    """Issue 30: the six more Caballeros each player takes into the provinces at the
    expansion's setup were not told, and the two of them placed by the secret choice were told
    as coming from the court. Rebuilt from the setup's events, each player's court and
    provinces are those its first turn starts from."""
    for players, index, events in _expansion_replays():
        court, provinces, first = {}, {}, {}
        for e in events:
            if e["kind"] == "home":
                court[e["player"]], provinces[e["player"]] = e["court"], e["provinces"]
            elif e["kind"] == "setup_caballeros":
                provinces[e["player"]] += e["caballeros"]
                assert e["provinces"] == provinces[e["player"]]
            elif e["kind"] == "placed" and e["player"] not in first:
                assert e["from"] == "the provinces", e  # every placement before any turn
                provinces[e["player"]] -= 1
                assert e["provinces"] == provinces[e["player"]]
            elif e["kind"] == "to_court" and e["player"] not in first:
                first[e["player"]] = (e["court"] - e["caballeros"],
                                      e["provinces"] + e["caballeros"])
        assert first == {p: (court[p], provinces[p]) for p in range(players)}, (players, index)


def test_a_free_move_is_told_once():
    """Issue 30: a free move was told twice (a ``free_move`` event, then a ``moved`` one). Each
    free move is one event, with the counts it leaves."""
    free = 0
    for players, index, events in _expansion_replays(games=4):
        for before, e in zip(events, events[1:]):
            if before["kind"] == "free_move":
                free += 1
                assert not (e["kind"] == "moved" and e["from"] == before["from"]
                            and e["to"] == before["to"]), (players, index, e)
                assert {"left", "there"} <= before.keys()
    assert free > 0


def test_a_token_brought_home_is_told_after_its_move():
    """Issue 30: a Gold or Ware brought home was told before the move that brought it. Each
    ``token_home`` follows the move (a free one or not) of its Caballero into its region, and
    no move of it is told after (a free move was told again after its token)."""
    home = 0
    for players, index, events in _expansion_replays(games=4):
        for before, e, after in zip(events, events[1:], events[2:]):
            if e["kind"] == "token_home":
                home += 1
                assert before["kind"] in ("moved", "free_move"), (players, index, before, e)
                colour = before.get("colour", before.get("owner"))
                assert before["to"] == e["place"] and colour in (e["colour"], 5), (before, e)
                assert not (after["kind"] == "moved" and before["kind"] == "free_move"
                            and (after["from"], after["to"]) == (before["from"], before["to"]))
    assert home > 0


def test_a_copycats_action_tells_whose_it_is():
    """Issue 30: a Copycat's special action, carried out after another player's turn with no
    turn of its own, was told as if in that turn. A ``copycat_action`` event names its player,
    the card and whose turn it follows, and its ``special`` event says it is a Copycat's; every
    other special action is its player's in its own turn (random players use Copycat often)."""
    copied = 0
    for players, index, events in _expansion_replays(strategies="random", games=8):
        turn = None
        for i, e in enumerate(events):
            if e["kind"] == "turn":
                turn = e["player"]
            elif e["kind"] == "copycat_action":
                copied += 1
                assert e["after"] == turn and e["player"] != turn
                used, special = events[i + 1], next(x for x in events[i:] if x["kind"] == "special")
                assert used["kind"] == "held_card_used" and used["card"] == "copycat"
                assert (used["player"], used["on"]) == (e["player"], e["card"])
                assert (special["player"], special["card"], special["copycat"]) == (
                    e["player"], e["card"], True)
            elif e["kind"] == "special" and not e["copycat"]:
                assert e["player"] == turn, (players, index, e)
    assert copied > 0
