"""A small synthetic map (12 x 10) and a few units, for the map renderer and viewer tests.

Known features (used by the tests):

- ``0605`` Bastogne, a road hub: roads to all six neighbours.
- ``1003`` St. Vith; ``1101`` Malmédy (a non-ASCII name).
- The Ourthe runs along the east sides of column 3 (rows 1-10); the ``0305``/``0405``
  hexside has a bridge (with a road), ``0308``/``0408`` a ford.
- Column 12 is Westwall and the German east edge; ``1106`` is "fortified".
- Column 1 is the Allied ``W`` edge; row 1 is ``NW`` (columns 1-6) and ``NE`` (7-11);
  row 10 is ``SW`` (1-6) and ``SE`` (7-11). ``0105`` is a road exit worth 5 VP.
- Hexes ``0702``-``0902`` and ``0708``-``0908`` are rough, ``0909`` impassable.
- The start line runs between columns 10 and 11 where there is no river.
"""

from __future__ import annotations

from rules import hexgrid
from rules.ao.gamemap import GameMap, HexData, HexsideData, MapData
from rules.ao.units import UnitDef

COLUMNS = 12
ROWS = 10


def _edge(col: int, row: int) -> str | None:
    if col == COLUMNS:
        return "east"
    if col == 1:
        return "W"
    if row == 1:
        return "NW" if col <= 6 else "NE"
    if row == ROWS:
        return "SW" if col <= 6 else "SE"
    return None


def fixture_map_data() -> MapData:
    towns = {"0605": "Bastogne", "1003": "St. Vith", "1101": "Malmédy", "0208": "Marche"}
    rough = {"0702", "0802", "0902", "0708", "0808", "0908"}
    hexes: list[HexData] = []
    for hex_id in hexgrid.iter_grid(COLUMNS, ROWS):
        col, row = hexgrid.parse(hex_id)
        terrain = "impassable" if hex_id == "0909" else "rough" if hex_id in rough else "clear"
        fort = "westwall" if col == COLUMNS else "fortified" if hex_id == "1106" else None
        hexes.append(
            HexData(
                id=hex_id,
                terrain=terrain,  # type: ignore[arg-type]
                town=towns.get(hex_id),
                fortification=fort,  # type: ignore[arg-type]
                edge=_edge(col, row),  # type: ignore[arg-type]
                exit_vp=5 if hex_id == "0105" else None,
                lat=50.0 - row * 0.03,
                lon=5.5 + col * 0.04,
            )
        )
    sides: dict[tuple[str, str], dict[str, object]] = {}

    def feature(a: str, b: str, **kw: object) -> None:
        key = hexgrid.hexside(a, b)
        sides.setdefault(key, {}).update(kw)

    # The Ourthe: east side of every column-3 hex, and the zig-zag between them.
    for row in range(1, ROWS + 1):
        a = hexgrid.make(3, row)
        feature(a, hexgrid.make(4, row), river="Ourthe")
        if row < ROWS:
            below = hexgrid.make(4 if hexgrid.is_shifted(row) else 3, row + 1)
            if below != a and hexgrid.adjacent(a, below):
                se = hexgrid.neighbour(a, 2)
                if se is not None and hexgrid.parse(se)[0] == 4:
                    feature(a, se, river="Ourthe")
    feature("0305", "0405", crossing="bridge", road=True)
    feature("0308", "0408", crossing="ford")
    # Roads: Bastogne to its six neighbours, then west to the exit and east to St. Vith.
    for n in hexgrid.neighbours("0605"):
        assert n is not None
        feature("0605", n, road=True)
    for a, b in (("0505", "0405"), ("0305", "0205"), ("0205", "0105")):
        feature(a, b, road=True)
    for a, b in (("0604", "0704"), ("0704", "0804"), ("0804", "0904"), ("0904", "1003")):
        if hexgrid.adjacent(a, b):
            feature(a, b, road=True)
    # Start line between columns 10 and 11.
    for row in range(1, ROWS + 1):
        a = hexgrid.make(10, row)
        for n in hexgrid.neighbours(a):
            if n is not None and hexgrid.parse(n)[0] == 11 and hexgrid.parse(n)[1] <= ROWS:
                feature(a, n, start_line=True)
    hexsides = [
        HexsideData(
            hexes=key,
            river=kw.get("river"),  # type: ignore[arg-type]
            crossing=kw.get("crossing"),  # type: ignore[arg-type]
            road=bool(kw.get("road", False)),
            start_line=bool(kw.get("start_line", False)),
        )
        for key, kw in sorted(sides.items())
    ]
    return MapData(
        map="fixture", hex_km=3.15, columns=COLUMNS, rows=ROWS, hexes=hexes, hexsides=hexsides
    )


def fixture_map() -> GameMap:
    return GameMap(fixture_map_data())


def _unit(uid: str, side: str, designation: str, utype: str, size: str, s: int, m: int) -> UnitDef:
    return UnitDef(
        id=uid,
        side=side,  # type: ignore[arg-type]
        designation=designation,
        nationality="German" if side == "german" else "US",
        type=utype,  # type: ignore[arg-type]
        size=size,  # type: ignore[arg-type]
        mechanized=utype.startswith("armor"),
        strength=s,
        movement=m,
    )


def fixture_units() -> dict[str, list[UnitDef]]:
    """A German stack of two in ``1104`` and one US unit in Bastogne (``0605``)."""
    return {
        "1104": [
            _unit("g-2pz", "german", "2 pz", "armor", "XX", 7, 4),
            _unit("g-26vg", "german", "26 vg", "infantry", "III", 3, 3),
        ],
        "0605": [_unit("us-101", "allied", "101 ab", "airborne", "XX", 6, 3)],
    }
