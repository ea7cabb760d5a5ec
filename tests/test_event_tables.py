"""Every game's replay events are described by a table (``EVENTS`` in its ``story.py``, read by
``simulator/core/story.py``): every code its kernels can log (``codes.LOG_KINDS``) has an entry,
and every entry tells a row, a sentence and its fields, as ``--format jsonl`` writes them."""

import importlib
import json

import pytest

from simulator.core.game import GAME_NAMES
from simulator.games.gremios.board import GOOD_HARVEST
from tests.game_fixtures import log_of

# The rows (a, b, c, d, e, f) that are told where a row of zeros is none a kernel writes.
SAMPLES = {
    "gremios": {
        "game_end": (4, 3, 5, 2, 7, 0),  # four players' scores
        "event_no_effect": (GOOD_HARVEST, 0, 0, 0, 0, 0),  # an action card that can do nothing
    },
    "elgrande": {
        "space_scored": (9, 0, 0, 3, 10, 0),  # a region with a space of its own (story.SPACES)
    },
}


def story_of(game):
    return importlib.import_module(f"simulator.games.{game}.story")


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_code_a_kernel_can_log_has_an_entry(game):
    story = story_of(game)
    missing = [kind for code, kind in enumerate(story.LOG_KINDS) if code not in story.EVENTS]
    assert not missing
    assert set(story.EVENTS) == set(range(len(story.LOG_KINDS)))


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_entry_tells_a_sample_row(game):
    story = story_of(game)
    samples = SAMPLES.get(game, {})
    for code, kind in enumerate(story.LOG_KINDS):
        row = samples.get(kind, (0, 0, 0, 0, 0, 0))
        events = story.tell(log_of((code, *row)))
        assert len(events) == 1, kind
        event = events[0]
        assert event["kind"] == kind
        assert event["text"].strip(), kind
        assert json.loads(json.dumps(event)) == event, kind


def test_the_samples_name_codes_the_games_log():
    for game, samples in SAMPLES.items():
        assert set(samples) <= set(story_of(game).LOG_KINDS)
