"""Gremios (Elenport): rules in ``turn.py`` (rulebook order), the table in ``board.py``, the
numbers in ``rules.toml``, the replay story in ``story.py``, the batch kernel in ``kernel.py``
and what the engine needs to know of the game in ``spec.py``."""
