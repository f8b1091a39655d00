"""Movement (AO-5), with Road Mode (AO-6), zones of control (AO-7), stacking costs (AO-8) and
the movement half of the Terrain Effects Chart (AO-11).

One pair of functions decides a single step of a path - :func:`~rules.ao.movement.step.enter` a
neighbouring hex or :func:`~rules.ao.movement.step.change_mode` - and returns the new search node
or the rejection naming the rule case (``None`` when the caller did not ask for the reason).
:func:`check_path` folds them over a given path (via :func:`~rules.ao.movement.step.take_step`)
and :func:`legal_moves` runs one Dijkstra whose edges are exactly these calls, so what
``legal_moves`` offers is what ``apply`` accepts, at exactly the offered cost.

A search node is ``(hex, road_mode, credit, spent, stopped)``:

* ``credit`` is the number of further road hexes already paid for in the current Road Mode
  stretch (AO-6.5H; see :mod:`rules.ao.roadmode`);
* ``spent`` counts MP spent in this phase, starting from the unit's ``mp_spent`` (non-zero only
  after a forced Road Mode exit, AO-6.7L*);
* ``stopped`` is set on entering an enemy-controlled hex: nothing may follow (AO-7.1A).

Costs of entering hex ``b`` from ``a`` (all integers):

* normal mode: 1 MP along a road hexside whatever the hex terrain (AO-11.j), else clear 1 /
  rough 4 mech 2 non-mech (AO-11.a/e), +2 for Allied units entering West Wall (AO-11.h),
  +0 fortified (AO-11.i); then +6/+3 for an unbridged river hexside, +3/+1 for a ford
  (AO-11.b/c), nothing at a bridge (AO-11.d) - hexside costs also apply on a road;
* Road Mode: see :mod:`rules.ao.roadmode` (0 or 1 MP per hex), plus the ford's +3/+1 across a
  road ford (AO-11.b: a hexside, not "terrain in Road hexes", AO-6.5F);
* +6/+2 to enter a hex holding friendly units, +6/+2 to leave one (AO-8.1A).

Terrain costs are cumulative (AO-5.1D); a step the unit cannot pay for is illegal (AO-5.2J).

The modules, imported one way (each only from those above it):

* :mod:`rules.ao.movement.tables` - the static per-board tables of step costs and road links, and
  the per-state snapshot of occupancy and zones of control;
* :mod:`rules.ao.movement.mover` - who may move now (:func:`may_move`, :func:`movement_allowance`)
  and the ``Mover``: everything one unit's check or search needs;
* :mod:`rules.ao.movement.step` - the search node and the step functions ``take_step``, ``enter``
  and ``change_mode``;
* :mod:`rules.ao.movement.search` - :func:`trace_path`, :func:`check_path`, the Dijkstra of
  :func:`legal_moves` and :func:`legal_moves_for_side`.
"""

from __future__ import annotations

from rules.ao.movement.mover import may_move, movement_allowance
from rules.ao.movement.search import (
    Reach,
    Route,
    check_path,
    legal_moves,
    legal_moves_for_side,
    trace_path,
)
from rules.ao.movement.step import Node

__all__ = [
    "Node",
    "Reach",
    "Route",
    "check_path",
    "legal_moves",
    "legal_moves_for_side",
    "may_move",
    "movement_allowance",
    "trace_path",
]
