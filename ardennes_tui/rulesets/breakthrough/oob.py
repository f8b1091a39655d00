"""*Breakthrough*'s order of battle for ``ardennes oob --ruleset breakthrough``: every unit of
13.2 (strength, its two-player value of BA-13.2c where it differs, mobility, the 7.4
operation allowances, arrival day and hex) and the corps artillery pools of 13.4, from
``scenarios/breakthrough/oob.toml`` (:func:`scenarios.breakthrough.oob.load_oob`).
"""

from __future__ import annotations

from typing import Any

from scenarios.breakthrough.oob import FIRST_DAY, load_oob

__all__ = ["oob_data", "oob_lines"]


def oob_data(side: str | None = None) -> dict[str, Any]:
    """The units (in the order of battle's order) and pools, of one side or both."""
    oob = load_oob()
    units = []
    for u in oob.units:
        if side is not None and u.side != side:
            continue
        allow = oob.allowance(u)
        pool = oob.pool(u)
        units.append(
            {
                "id": u.id,
                "side": u.side,
                "designation": u.designation,
                "type": u.type,
                "strength": u.combat,
                "two_player": u.combat_value(True),
                "mobile": u.mobile,
                "operation": [allow.first, allow.second],
                "day": u.day,
                "turn": u.day - FIRST_DAY + 1,
                "hex": u.hex,
                "pool": pool.corps if pool is not None else None,
            }
        )
    pools = [
        {
            "side": p.side,
            "corps": p.corps,
            "points": p.points,
            "reinforcement": p.reinforcement,
            "reinforcement_day": p.reinforcement_day,
        }
        for p in oob.pools
        if side is None or p.side == side
    ]
    return {"units": units, "pools": pools}


def oob_lines(side: str | None = None) -> list[str]:
    """The order of battle as text: a line a unit (on the map on 16 December first, then the
    arrivals by day), then the pools."""
    data = oob_data(side)
    out: list[str] = []
    for s in ("german", "american"):
        mine = [u for u in data["units"] if u["side"] == s]
        if not mine:
            continue
        total = sum(u["strength"] for u in mine)
        if out:
            out.append("")
        out.append(f"{s.capitalize()}: {len(mine)} units, strength {total}")
        for u in sorted(mine, key=lambda u: (u["day"], u["hex"], u["id"])):
            two = f" ({u['two_player']} two-player)" if u["two_player"] != u["strength"] else ""
            mob = "mobile" if u["mobile"] else "non-mobile"
            first, second = u["operation"]
            when = "on the map" if u["day"] == FIRST_DAY else f"arrives {u['day']} Dec"
            out.append(
                f"  {u['id']:<14} {u['designation']:<18} {u['type']:<5} {u['strength']:>3}{two} "
                f"{mob}, OP {first}/{second}, {when} at {u['hex']}"
            )
        for p in (p for p in data["pools"] if p["side"] == s):
            more = (
                f", +{p['reinforcement']} on {p['reinforcement_day']} Dec"
                if p["reinforcement_day"]
                else ""
            )
            out.append(f"  {p['corps']} corps artillery pool: {p['points']}{more}")
    return out
