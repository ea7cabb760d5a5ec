"""The replay tells everything (issue 30): a game rebuilt from its JSONL replay alone ends where
the engine's game ends.

``Rebuild`` walks the events ``playtest replay grimoire --format jsonl`` writes and keeps the
whole table from the rulebook's meaning and the rule data only (no engine module, no kernel
call): every Territory (quest cards and items by name, VP tokens), the VP supply, the quest deck,
the Discard Area and the item deck as multisets, the zone, the spell-level marker, the turn order
and the players' tallies. It checks every running total an event states, and every event that
must agree with the rules (the marker, group A and B, a zone slot's card, a gain as far as the
supply goes, half the tokens rounded). At the end its table and scores are compared with the
engine's final state (the same game played through ``turn.play_game``) and the seat columns the
replay's own kernel call wrote; its winners with the replay's and the dataset's.
"""

import json
from collections import Counter

import numpy as np
import pytest

from simulator.core.config import make_config
from simulator.core.replay import told_with_seats_and_result
from simulator.core.rng import seed_stream
from simulator.core.search import SEARCHING
from simulator.core.seating import seat_plans
from simulator.core.trace import empty_log
from simulator.core.unfolding import new_leaders
from simulator.games.grimoire import board, turn

# What the rule data calls each card: its parameters are NAME_cards and NAME_vp.
QUEST_CARDS = {"Copper Coin": "copper", "Silver Chalice": "silver", "Gold Crown": "gold",
               "Thief": "thief", "Spy": "spy", "Rogue": "rogue", "Prince": "prince",
               "Queen": "queen", "King": "king", "Squire": "squire", "Knight": "knight",
               "Sage": "sage"}
TREASURES = ("Copper Coin", "Silver Chalice", "Gold Crown")
COMPANIONS = tuple(name for name in QUEST_CARDS if name not in TREASURES)
ITEM_CARDS = {"Blessed Shoes": "blessed_shoes", "Junk": "junk", "Trinket": "trinket",
              "Jewel": "jewel", "Relic": "relic"}
# The spells that pay VP tokens, and their parameters.
TOKEN_SPELLS = {"Fireball": "fireball_vp", "Thunderstorm": "thunderstorm_vp", "Fortune": "fortune_vp"}
# The seat columns the rebuild counts itself.
TALLIED = tuple(f"cast_level_{level}" for level in range(1, 16)) + (
    "spells_duplicated", "spells_negated", "turns_first", "companions_won", "companions_lost",
    "vp_tokens_won", "vp_tokens_lost", "cards_taken", "cards_drawn", "items_drawn", "shoes_used")


def take(multiset, card, where):
    assert multiset[card] > 0, f"{card} taken from {where}, which holds none"
    multiset[card] -= 1


class Rebuild:
    """The table as the replay tells it, one event at a time (``step``)."""

    def __init__(self, rule):
        self.rule = rule
        self.deck = Counter({name: rule(f"{key}_cards") for name, key in QUEST_CARDS.items()})
        self.items_deck = Counter({name: rule(f"{key}_cards") for name, key in ITEM_CARDS.items()})
        self.discard = Counter()
        self.supply = rule("vp_supply")
        self.zone = {}  # slot -> (card, face down)
        self.round = 0
        self.level = 0
        self.end_by = None  # how the game ends, once told
        self.trigger_player = -1
        self.truncated = False
        self.turns = 0
        self.target = None  # (caster, target) of the last targeting spell
        self.pending = None  # a player who reached an end threshold, until the trigger is told

    def seat(self, n):
        self.n = n
        self.quest = [Counter() for _ in range(n)]
        self.items = [Counter() for _ in range(n)]
        self.tokens = [0] * n
        self.spell = [0] * n
        self.order = [-1] * n
        self.tally = [Counter() for _ in range(n)]  # the dataset's per-seat counts

    # --- what the cards and tokens are worth ---------------------------------------------

    def treasure_count(self, p):
        return sum(self.quest[p][name] for name in TREASURES)

    def companion_count(self, p):
        return sum(self.quest[p][name] for name in COMPANIONS)

    def vp_companions(self, p):
        """The plain companions at their value; the Rogue by its owner's treasures (capped), the
        royals by each other (the rule data's notes, ``royals``)."""
        rule, held = self.rule, self.quest[p]
        vp = sum(held[name] * rule(f"{QUEST_CARDS[name]}_vp")
                 for name in ("Thief", "Spy", "Squire", "Knight", "Sage"))
        vp += held["Rogue"] * min(self.treasure_count(p) * rule("rogue_vp_per_treasure"),
                                  rule("rogue_max_vp"))
        princes, queens, kings = held["Prince"], held["Queen"], held["King"]
        vp += princes * (rule("prince_royal_vp") if queens + kings else rule("prince_vp"))
        vp += queens * (rule("queen_vp") + (rule("queen_king_bonus") if kings else 0))
        vp += kings * (rule("king_vp") + rule("king_royal_bonus") * (queens + princes))
        return vp

    def vp_treasures(self, p):
        return sum(self.quest[p][name] * self.rule(f"{QUEST_CARDS[name]}_vp") for name in TREASURES)

    def vp_items(self, p):
        return sum(self.items[p][name] * self.rule(f"{key}_vp") for name, key in ITEM_CARDS.items())

    def vp_junk(self, p):
        """The most Junk (at least one) scores the bonus; equal holders all, or none."""
        junk = [self.items[q]["Junk"] for q in range(self.n)]
        if junk[p] == 0 or junk[p] < max(junk):
            return 0
        if junk.count(junk[p]) > 1 and self.rule("junk_bonus_ties") == "none":
            return 0
        return self.rule("junk_bonus_vp")

    def sources(self, p):
        return {"vp_companions": self.vp_companions(p), "vp_treasures": self.vp_treasures(p),
                "vp_items": self.vp_items(p), "vp_junk": self.vp_junk(p),
                "vp_tokens": self.tokens[p]}

    def score(self, p):
        return sum(self.sources(p).values())

    # --- the events ----------------------------------------------------------------------

    def gain(self, p, vp, wanted, tokens):
        """VP from the supply, as far as it goes; the event states the player's new total."""
        assert vp == min(wanted, self.supply), (vp, wanted, self.supply)
        self.supply -= vp
        self.tokens[p] += vp
        assert self.tokens[p] == tokens, (p, self.tokens[p], tokens)

    def receive(self, p, card):
        self.quest[p][card] += 1
        self.check_trigger(p)

    def check_trigger(self, p):
        """10 companions or 10 treasures end the game after the round: the next event of a
        player reaching it must tell it (``pending``)."""
        if self.end_by is None and (self.companion_count(p) >= self.rule("end_companions") or
                                    self.treasure_count(p) >= self.rule("end_treasures")):
            self.pending = p

    def step(self, e):
        kind = e["kind"]
        if self.pending is not None:
            assert kind == "trigger" and e["player"] == self.pending, f"untold end trigger: {e}"
            self.pending = None
        handler = getattr(self, "on_" + kind)
        handler(e)

    def on_seating(self, e):
        self.seat(len(e["strategies"]))

    def on_round(self, e):
        assert not self.zone, "cards left in the zone at a new round"
        self.round += 1
        rule = self.rule
        level = rule("spell_level_start") + (self.round - 1) * rule("spell_level_step")
        self.level = max(1, min(level, rule("spell_level_max")))
        assert (e["round"], e["level"]) == (self.round, self.level)
        self.spell = [0] * self.n
        self.silencers = set()

    def on_reshuffle(self, e):
        assert sum(self.deck.values()) == 0 and e["cards"] == sum(self.discard.values())
        self.deck, self.discard = self.discard, Counter()

    def on_zone_card(self, e):
        take(self.deck, e["card"], "the quest deck")
        face_down = self.rule("face_down_cards_five_players" if self.n == 5 else "face_down_cards")
        assert e["face_down"] == (e["slot"] < face_down) and e["slot"] == len(self.zone)
        self.zone[e["slot"]] = (e["card"], e["face_down"])

    def on_cards_out(self, e):
        assert sum(self.deck.values()) == 0 and sum(self.discard.values()) == 0
        self.end_by = "cards_out"

    def on_spell_chosen(self, e):
        assert 1 <= e["level"] <= self.level
        self.spell[e["player"]] = e["level"]
        self.tally[e["player"]][f"cast_level_{e['level']}"] += 1

    def on_time_spell(self, e):
        assert self.spell[e["player"]] == {"Acceleration": 5, "Time Stop": 11}[e["spell"]]

    def on_order(self, e):
        p = e["player"]
        self.order[e["token"] - 1] = p
        shared = self.spell.count(self.spell[p]) > 1
        assert e["group"] == ("B" if shared else "A") and e["level"] == self.spell[p]
        self.tally[p]["spells_duplicated"] += shared
        self.tally[p]["turns_first"] += e["token"] == 1

    def on_quest_turn(self, e):
        assert self.order[e["token"] - 1] == e["player"]
        self.target = None
        self.turns += 1

    def on_thief(self, e):
        p = e["player"]
        self.gain(p, e["vp"], self.quest[p]["Thief"] * self.rule("thief_tokens"), e["tokens"])

    def on_spy_peek(self, e):
        assert 0 < e["cards"] == sum(1 for _, down in self.zone.values() if down)

    def on_negated(self, e):
        assert self.silencers - {e["player"]}, "a spell negated with no rival's Silence"
        self.tally[e["player"]]["spells_negated"] += 1

    def on_silence(self, e):
        self.silencers.add(e["player"])

    def on_vp_gain(self, e):
        self.gain(e["player"], e["vp"], self.rule(TOKEN_SPELLS[e["spell"]]), e["tokens"])

    def on_luck(self, e):
        if e["discarded"] is None:
            return
        assert self.zone.pop(e["slot"]) == (e["discarded"], True)
        self.discard[e["discarded"]] += 1

    def on_luck_replacement(self, e):
        take(self.deck, e["card"], "the quest deck")
        assert e["slot"] not in self.zone
        self.zone[e["slot"]] = (e["card"], True)

    def on_draw(self, e):
        if e["from"] == "the discards":
            take(self.discard, e["card"], "the Discard Area")
        else:
            take(self.deck, e["card"], "the quest deck")
        self.tally[e["player"]]["cards_drawn"] += 1
        self.receive(e["player"], e["card"])

    def on_discards_empty(self, e):
        assert sum(self.discard.values()) == 0

    def on_item(self, e):
        take(self.items_deck, e["item"], "the item deck")
        self.items[e["player"]][e["item"]] += 1
        self.tally[e["player"]]["items_drawn"] += 1

    def on_item_deck_empty(self, e):
        assert sum(self.items_deck.values()) == 0

    def on_shoes(self, e):
        take(self.items[e["player"]], "Blessed Shoes", "the player's items")  # used, not kept
        self.tally[e["player"]]["shoes_used"] += 1

    def on_no_target(self, e):
        self.target = None

    def on_caster_is_target(self, e):
        self.target = None

    def on_target(self, e):
        assert e["target"] != e["player"]
        self.target = (e["player"], e["target"])

    def on_companion_moved(self, e):
        assert self.target == (e["to"], e["from"])
        take(self.quest[e["from"]], e["card"], f"P{e['from']}'s Territory")
        self.tally[e["from"]]["companions_lost"] += 1
        self.tally[e["to"]]["companions_won"] += 1
        self.receive(e["to"], e["card"])

    def on_tokens_moved(self, e):
        assert self.target == (e["to"], e["from"])
        held = self.tokens[e["from"]]
        half = held // 2 if self.rule("polymorph_rounding") == "down" else (held + 1) // 2
        assert e["vp"] == half
        self.tokens[e["from"]] -= half
        self.tokens[e["to"]] += half
        self.tally[e["from"]]["vp_tokens_lost"] += half
        self.tally[e["to"]]["vp_tokens_won"] += half

    def on_elemental_fails(self, e):
        pass

    def on_take(self, e):
        assert self.zone.pop(e["slot"]) == (e["card"], e["face_down"])
        self.tally[e["player"]]["cards_taken"] += 1
        self.receive(e["player"], e["card"])

    def on_zone_empty(self, e):
        assert not self.zone

    def on_zone_discard(self, e):
        assert e["cards"] == len(self.zone)
        self.discard.update(card for card, _ in self.zone.values())
        self.zone = {}

    def on_trigger(self, e):
        p = e["player"]
        count = self.companion_count(p) if e["trigger"] == "companions" else self.treasure_count(p)
        assert self.end_by is None and e["count"] == count
        self.end_by, self.trigger_player = e["trigger"], p

    def on_truncated(self, e):
        assert e["rounds"] == self.round == self.rule("max_rounds")
        self.truncated = True
        self.end_by = "max_rounds"

    def on_game_end(self, e):
        scores = [self.score(p) for p in range(self.n)]
        assert e["scores"] == scores
        best = max(scores)
        winners = [p for p in range(self.n) if scores[p] == best]  # equal totals share the win
        assert e["winners"] == winners
        assert e["win_shares"] == [1 / len(winners) if p in winners else 0.0 for p in range(self.n)]
        assert e["ranks"] == [1 + sum(s > scores[p] for s in scores) for p in range(self.n)]


def rebuilt(lines, rule):
    table = Rebuild(rule)
    for line in lines:
        table.step(json.loads(line))
    assert table.pending is None
    return table


def engine_final_state(config, index):
    """The state record the engine ends game ``index`` with, playing it as the batch kernel does
    (its seeded stream, its seats by the design)."""
    setup, r = config.setup, config.rules.as_record()[0]
    n = setup.n_players
    plans, _ = seat_plans(index, n, board.MAX_PLAYERS, setup.seatings, setup.mix_ids,
                          setup.mix_weights, SEARCHING if setup.seats_searching_plans else None)
    table = turn.play_game(r, n, plans, seed_stream(np.uint64(config.seed), index),
                           empty_log(), new_leaders(r.max_rounds * n))
    return table.view(np.recarray)[0]


def named(counts, names):
    return Counter({name: int(c) for name, c in zip(names, counts) if c})


def compare_with_engine(t, s, seats):
    """The rebuilt table against the engine's final state ``s`` and seat columns ``seats``."""
    n = t.n
    for p in range(n):
        assert +t.quest[p] == named(s.quest[p], board.QUEST_NAMES), p
        assert +t.items[p] == named(s.items[p], board.ITEM_NAMES), p
        assert t.tokens[p] == s.tokens[p]
        row = {name: seats[name][p] for name in seats}
        assert t.score(p) == row["score"]
        assert t.sources(p) == {k: row[k] for k in t.sources(p)}
        assert (t.companion_count(p), t.treasure_count(p), sum(t.items[p].values())) == \
            (row["companions"], row["treasures"], row["items"])
        for column in TALLIED:
            assert row[column] == t.tally[p][column], (p, column)
        assert row["triggered_end"] == (t.trigger_player == p)
        assert row["winner"] == (row["rank"] == 1)
    assert t.supply == s.vp_supply
    assert +t.deck == named(np.bincount(s.quest_deck[:s.quest_deck_n], minlength=12), board.QUEST_NAMES)
    assert +t.discard == named(np.bincount(s.quest_discard[:s.quest_discard_n], minlength=12),
                               board.QUEST_NAMES)
    assert +t.items_deck == named(np.bincount(s.item_deck[:s.item_deck_n], minlength=5),
                                  board.ITEM_NAMES)
    zone = {i: (board.QUEST_NAMES[s.zone[i]], bool(s.zone_face_down[i]))
            for i in range(s.zone_n) if s.zone[i] >= 0}
    assert t.zone == zone
    assert (t.round, t.level, t.turns) == (s.round_no, s.level, s.turns)
    assert t.order == list(s.order[:n]) and t.spell == list(s.spell[:n])
    assert t.end_by == board.END_TRIGGER_NAMES[s.end_trigger] and t.truncated == bool(s.truncated)
    assert t.trigger_player == s.trigger_player


def replayed(config, index):
    """Game ``index``'s replay as the lines ``playtest replay grimoire --format jsonl`` prints
    (the engine's replay call, told as the command tells it), and its seat columns."""
    events, seat_rows = config.game.replay(config.rules.as_record(), config.seed, index,
                                           config.setup)
    seats = config.game.seat_columns(seat_rows, config)
    lines = [json.dumps(e) for e in told_with_seats_and_result(events, seats)]
    return lines, {k: [v.item() if hasattr(v, "item") else v for v in seats[k]] for k in seats}


def check_game(config, index, lines, seats):
    table = rebuilt(lines, config.rules.value)
    assert table.end_by is not None
    compare_with_engine(table, engine_final_state(config, index), seats)
    winners = [p for p in range(config.setup.n_players) if seats["winner"][p]]
    assert json.loads(lines[-1])["winners"] == winners


def check_games(n_players, strategies, games, seed, settings=None, weights=None):
    config = make_config("grimoire", n_players, "standard", strategies, seed=seed,
                         settings=settings, weights=weights)
    for index in range(games):
        check_game(config, index, *replayed(config, index))


def test_the_command_lines_jsonl_rebuilds(playtest):
    code, out, err = playtest("replay", "grimoire", "--seed", 9, "-p", 4, "--game-index", 3,
                              "--format", "jsonl")
    assert code == 0, err
    config = make_config("grimoire", 4, seed=9)
    lines, seats = replayed(config, 3)
    assert out.splitlines() == lines
    check_game(config, 3, out.splitlines(), seats)


PLAYERS = (2, 3, 4, 5)


@pytest.mark.parametrize("n_players", PLAYERS)
@pytest.mark.parametrize("strategies, games", [(None, 150), (["random"], 150)])
def test_heuristic_games_rebuild_from_their_replay(n_players, strategies, games):
    check_games(n_players, strategies, games, seed=3001 + n_players)


@pytest.mark.parametrize("n_players", PLAYERS)
def test_search_games_rebuild_from_their_replay(n_players):
    check_games(n_players, ["lookahead", "greedy"], 8, seed=3101 + n_players)


# Rule data that reaches the rarer paths: a short deck that runs out, reshuffles and Luck
# discarding into an empty deck; a small supply and item deck that run dry; the round limit;
# the other readings of the options the replay's events depend on.
VARIANTS = {
    "cards_out": {"end_companions": 40, "end_treasures": 40, "copper_cards": 4, "silver_cards": 3,
                  "gold_cards": 2, "squire_cards": 4, "knight_cards": 3, "sage_cards": 2},
    "dry": {"vp_supply": 9, "junk_cards": 1, "trinket_cards": 1, "jewel_cards": 0,
            "relic_cards": 0, "blessed_shoes_cards": 3, "junk_bonus_ties": "none",
            "polymorph_rounding": "up", "cure_when_discards_empty": "quest_deck",
            "first_round_order": "random", "time_spell_order": "time_stop_first"},
    "truncated": {"max_rounds": 4, "spell_level_start": 15, "spell_level_step": 0},
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("n_players", (2, 5))
@pytest.mark.parametrize("strategies", [None, ["random"]])
def test_variant_games_rebuild_from_their_replay(variant, n_players, strategies):
    check_games(n_players, strategies, 40, seed=3201 + n_players, settings=VARIANTS[variant])


@pytest.mark.slow
@pytest.mark.parametrize("n_players", PLAYERS)
@pytest.mark.parametrize("strategies, settings", [(None, None), (["random"], None)] +
                         [(None, VARIANTS[v]) for v in sorted(VARIANTS)])
def test_a_longer_sweep_rebuilds(n_players, strategies, settings):
    check_games(n_players, strategies, 1000, seed=3301 + n_players, settings=settings)


@pytest.mark.slow
@pytest.mark.parametrize("n_players", PLAYERS)
def test_a_longer_search_sweep_rebuilds(n_players):
    check_games(n_players, ["lookahead", "random"], 40, seed=3401 + n_players)
