"""Scenario data (map, order of battle, set-ups, schedules) and the builders that compile it."""
