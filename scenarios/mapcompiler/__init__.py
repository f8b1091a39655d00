"""The map compiler behind ``python -m scenarios.build`` (see :mod:`scenarios.build`).

Modules, in the order data flows through them:

* :mod:`.projection`: lat/lon to hex units (the formulas of ``grid.toml``).
* :mod:`.geography`: the TOML input, parsed.
* :mod:`.geometry`: the vertex lattice, polylines snapped to it, polygons, distances.
* :mod:`.draft`: the map under construction, shared by the steps below.
* :mod:`.hexsides`: rivers, listed crossings, the start line and the German side.
* :mod:`.hexes`: map edges, terrain, towns, fortifications.
* :mod:`.roads`: roads, their exits, bridges.
* :mod:`.compile`: the steps in order, the assembled ``MapData``, the files written.
* :mod:`.cli`: the command line.
"""
