"""playtest: Monte-Carlo balance and statistics simulator for tabletop games."""

from simulator.core import jitcache

jitcache.use_unit_caches()
