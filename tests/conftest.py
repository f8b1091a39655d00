"""Shared test configuration.

Tests that check a rule case carry ``@pytest.mark.rule("AO-7.4E")`` (one or more ids from
``../shared/spec/ao-rule-cases.md``); ``tests/test_rule_markers.py`` keeps the ids honest.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", max_examples=100, deadline=None, derandomize=True)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile("long", max_examples=2000, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
