"""The rules that came up in Gnomeland: counted where their value can make a difference."""

from simulator.core.backends import play_part
from simulator.core.config import make_config


def counts(players, games=200, **settings):
    config = make_config("gnomeland", players, seed=4, settings=settings)
    *_, came_up = play_part(config, 0, games, games)
    return dict(zip(config.game.rules_that_come_up, map(int, came_up)))


def test_each_rule_comes_up_where_it_applies():
    two = counts(2)
    assert two["rounds"] == 200  # each game ends by the round limit, once
    assert two["contest_points_2p"] > 0 and two["contest_points_4p"] == 0
    assert two["kiosk_coin"] > 0 and two["embassy_vp"] + two["grand_embassy_vp"] > 0
    assert two["max_steps_per_turn"] == 0  # no turn reaches the safety limit
    # a card's numbers come up when the card is built, not for a card never built
    assert two["inn_cost_coin"] == 0 and two["shop_cost_coin"] == two["shop_cost_mana"] > 0


def test_a_choice_comes_up_only_where_it_is_read():
    assert counts(3, 100, warehouses=0)["warehouse_capacity"] == 0  # no Warehouse: nothing kept
    assert counts(3, 100)["warehouse_capacity"] > 0
