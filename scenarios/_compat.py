"""Temporary: ``scenarios/build.py`` (being split elsewhere) still imports ``compile_setup``
and ``encode_setup`` from :mod:`rules.scenario`, which no longer reads data. Until it imports
them from :mod:`scenarios.setup`, this puts them back under the old name at run time; the
engine itself never sees them. Delete this module with that import."""

from __future__ import annotations

import rules.scenario
from scenarios.setup import compile_setup, encode_setup

vars(rules.scenario).update(compile_setup=compile_setup, encode_setup=encode_setup)
