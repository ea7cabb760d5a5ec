"""The rule data itself: every parameter's coding and source."""

from simulator.games.grimoire import board


def test_every_yes_no_parameter_is_coded_no_then_yes(ruleset):
    """One coding for every yes/no choice: ``board.NO`` is "no", ``board.YES`` is "yes"."""
    yes_no = [p for p in ruleset.params.values() if set(p.choices) == {"no", "yes"}]
    assert len(yes_no) >= 17  # luck_peeks, time_stop_defends, thunderstorm_defensive, forbidden_*
    for param in yes_no:
        assert param.choices == ("no", "yes"), param.name
        assert param.encode("no") == board.NO and param.encode("yes") == board.YES

