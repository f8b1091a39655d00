"""*Breakthrough in the Ardennes* (SSI 1984): its map and order of battle, as data.

Data for the ruleset ``rules/breakthrough/`` (issue 24):

* :mod:`.grid`: the manual's ``x,y`` coordinates on :mod:`rules.hexgrid` hexes;
* :mod:`.fit`: the least-squares placement of the grid on the ground from 10.1's towns;
* :mod:`.compile`: the map compiler, ``make map-breakthrough`` (writes ``map.json``);
* :mod:`.mapdata`: the map's types, loader (:func:`~.mapdata.load_map`) and text drawing;
* :mod:`.oob`: the order of battle, pools, allowances and limits (:func:`~.oob.load_oob`);
* :mod:`.board`: :func:`~.board.load_board` (scenario, level), the ruleset's board from both.

``README.md`` documents the map; ``docs/rules-notes-breakthrough.md`` every reading.
"""
