"""Card tables in the rule data: a ``[tables.NAME]`` of rules.toml is the array the kernels read,
each of its numbers a parameter of its own, changed like any other; a table that does not add up
is refused when the file is read."""

import numpy as np
import pytest

from simulator.core.errors import UsageError
from simulator.core.game import GAME_NAMES, get_game
from simulator.core.ruledata import load_rules

RULES = '''
rules_version = "1"

[params.rounds]
value = 5
range = [1, 9]
source = "Rulebook, Playing."

[tables.cost]
description = "What a card costs: [card, build/upgrade, resource]."
shape = [3, 2, 2]
rows = ["kiosk", "shop", "inn"]
columns = ["cost_coin", "cost_mana", "upgrade_coin", "upgrade_mana"]
range = [0, 9]
source = "assumption: the card list."

[tables.cost.numbers]
kiosk = ["-", "-", "-", "-"]
shop  = [  3,   0,   5,   0]
inn   = [  2,   1,   2,   0]

[tables.cost.sources]
shop = "Rulebook, the Shop."
upgrade_mana = "assumption: no upgrade asks for Mana."
shop_upgrade_coin = "Rulebook, Upgrade: 'the 5 Coin resources'."

[tables.gives]
description = "What a card side gives: [card, side, resource]; the Kiosk is printed, one side."
shape = [2, 2, 2]
rows = ["kiosk", "kiosk", "shop", "bank"]
columns = ["coin", "vp"]
range = [0, 9]
ranges = { vp = [0, 15] }
source = "assumption: the card list."

[tables.gives.numbers]
kiosk = [1, "-"]
shop  = [2,   0]
bank  = [3,  12]

[tables.missions]
description = "What a mission asks (coin, mana) and gives (vp)."
rows = ["embassy", "lair"]
columns = ["coin", "mana", "vp"]
fields = { m_cost = [2, 2], m_reward = [2] }
range = [0, 9]
source = "assumption: the missions."

[tables.missions.numbers]
embassy = [1, 0, 1]
lair    = [0, 2, 3]

[tables.copies]
description = "The deck: copies of each spell."
shape = [3]
name = "spell_{row}"
rows = ["-", "hex", "curse"]
columns = ["copies"]
range = [0, 9]
ranges = { hex = [1, 1] }
source = "Components."

[tables.copies.numbers]
hex   = [1]
curse = [2]
'''


def rules_from(tmp_path, text=RULES):
    path = tmp_path / "rules.toml"
    path.write_text(text)
    return load_rules(path, "cards")


def test_every_number_of_a_table_is_a_parameter_named_by_its_row_and_column(tmp_path):
    rules = rules_from(tmp_path)
    assert list(rules.params) == [
        "rounds", "shop_cost_coin", "shop_cost_mana", "shop_upgrade_coin", "shop_upgrade_mana",
        "inn_cost_coin", "inn_cost_mana", "inn_upgrade_coin", "inn_upgrade_mana", "kiosk_coin",
        "shop_coin", "shop_vp", "bank_coin", "bank_vp", "embassy_coin", "embassy_mana",
        "embassy_vp", "lair_coin", "lair_mana", "lair_vp", "spell_hex", "spell_curse"]
    assert rules.value("shop_upgrade_coin") == 5 and rules.value("bank_vp") == 12
    assert (rules.params["bank_vp"].low, rules.params["bank_vp"].high) == (0, 15)
    assert (rules.params["bank_coin"].low, rules.params["bank_coin"].high) == (0, 9)
    assert (rules.params["spell_hex"].low, rules.params["spell_hex"].high) == (1, 1)  # its row's


def test_a_number_takes_the_most_specific_source(tmp_path):
    source = {name: p.source for name, p in rules_from(tmp_path).params.items()}
    assert source["shop_upgrade_coin"] == "Rulebook, Upgrade: 'the 5 Coin resources'."  # its own
    assert source["shop_upgrade_mana"] == "assumption: no upgrade asks for Mana."  # its column's
    assert source["shop_cost_coin"] == "Rulebook, the Shop."                       # its row's
    assert source["inn_cost_coin"] == "assumption: the card list."                 # the table's


def test_the_record_holds_each_table_as_the_array_the_kernels_read(tmp_path):
    r = rules_from(tmp_path).as_record()[0]
    assert r.cost.shape == (3, 2, 2)
    assert r.cost.tolist() == [[[0, 0], [0, 0]], [[3, 0], [5, 0]], [[2, 1], [2, 0]]]
    # a repeated row fills each of its places; "-" is 0
    assert r.gives.tolist() == [[[1, 0], [1, 0]], [[2, 0], [3, 12]]]
    assert r.copies.tolist() == [0, 1, 2]
    # a table of several arrays: each takes its columns
    assert r.m_cost.tolist() == [[1, 0], [0, 2]] and r.m_reward.tolist() == [1, 3]
    assert r.shop_upgrade_coin == 5  # and each number as a parameter beside it


def test_a_changed_number_changes_the_array_in_every_place_it_fills(tmp_path):
    rules = rules_from(tmp_path).with_overrides({"kiosk_coin": "4", "inn_upgrade_mana": 3,
                                                 "spell_curse": "0"})
    r = rules.as_record()[0]
    assert r.gives[0, :, 0].tolist() == [4, 4]
    assert r.cost[2, 1].tolist() == [2, 3]
    assert r.copies.tolist() == [0, 1, 0]
    assert {d["name"] for d in rules.describe() if d["overridden"]} == {"kiosk_coin", "inn_upgrade_mana", "spell_curse"}


@pytest.mark.parametrize("setting,message", [
    ({"shop_cost_cion": "4"}, "unknown parameter 'shop_cost_cion' of cards (did you mean shop_cost_coin"),
    ({"kiosk_vp": "1"}, "unknown parameter 'kiosk_vp'"),   # a number the card does not have
    ({"bank_vp": "16"}, "--set bank_vp=16: out of range; bank_vp must be an integer from 0 to 15"),
    ({"shop_cost_coin": "x"}, "--set shop_cost_coin=x: not an integer"),
    ({"spell_hex": "2"}, "spell_hex must be an integer from 1 to 1"),
])
def test_a_bad_change_of_a_card_number_is_a_one_line_error(tmp_path, setting, message):
    with pytest.raises(UsageError) as raised:
        rules_from(tmp_path).with_overrides(setting)
    assert message in str(raised.value) and "\n" not in str(raised.value)


@pytest.mark.parametrize("old,new,message", [
    ('shape = [3, 2, 2]', 'shape = [3, 2, 3]', "3 rows of 4 numbers do not fill cost [3, 2, 3]"),
    ('m_reward = [2]', 'm_reward = [2, 2]', "2 rows of 3 numbers do not fill m_cost [2, 2], m_reward [2, 2]"),
    ('inn   = [  2,   1,   2,   0]\n', '', "rows ['inn'] are not both listed and numbered"),
    ('shop  = [  3,   0,   5,   0]', 'shop  = [  3,   0,   5]', "row shop has 3 numbers, not 4"),
    ('bank  = [3,  12]', 'bank  = [3,  16]', "bank_vp default 16 is outside its range"),
    ('bank  = [3,  12]', 'bank  = [3,  "x"]', "bank_vp is 'x', neither a number nor '-'"),
    ('name = "spell_{row}"', 'name = "rounds"', "rounds is already a parameter"),
    ('shop = "Rulebook, the Shop."', 'pier = "Rulebook, the Pier."', "sources for ['pier']"),
    ('ranges = { hex = [1, 1] }', 'ranges = { wish = [1, 1] }', "ranges for ['wish']"),
])
def test_a_table_that_does_not_add_up_is_refused_on_reading(tmp_path, old, new, message):
    assert old in RULES
    with pytest.raises(RuntimeError) as raised:
        rules_from(tmp_path, RULES.replace(old, new))
    assert message in str(raised.value)


def test_a_table_needs_no_game_code_to_be_read(tmp_path):
    """The arrays come from the file alone, with no game's code loaded."""
    rules = rules_from(tmp_path)
    assert np.array_equal(rules.as_record()[0].copies, [0, 1, 2])


@pytest.mark.parametrize("game", GAME_NAMES)
def test_each_number_of_a_games_tables_is_read_where_its_card_lies(game):
    """Changing one number of a game's card table changes its array in the places that number
    fills and nowhere else."""
    rules = get_game(game).rules()
    base = rules.as_record()[0]
    for table in rules.card_tables:
        cells = np.array(table.cells, dtype=object).reshape(table.shape)
        for name in dict.fromkeys(c for c in table.cells if c is not None):
            param = rules.params[name]
            if param.low == param.high:
                continue  # fixed (El Grande's King and Holy Inquisition: one card each)
            other = param.low if param.default != param.low else param.high
            changed = rules.with_overrides({name: other}).as_record()[0][table.name]
            assert np.array_equal(changed != base[table.name], cells == name), (table.name, name)
            assert (changed[cells == name] == other).all()
