"""What a unit *is*, beside its fighting state: type, mobility, division, pool, allowance.

:class:`rules.breakthrough.units.Unit` carries the state that changes during play (1.5); the
fixed facts the Operation and Unit Organization rules read come from the order of battle
(13.2, 13.4, 7.4) as a :class:`Profile` per unit id, filled by the ruleset from
``scenarios.breakthrough.oob`` (the rules never import it). A divisional unit built up in play
gets its profile from :func:`rules.breakthrough.organization.divisional_profile`.
"""

from __future__ import annotations

from typing import Final, Literal

import msgspec

UnitType = Literal["INF", "ARM", "AB", "ENG", "CAV", "VG", "PZGR", "PZ", "FJ"]

INFANTRY_TYPES: Final[frozenset[str]] = frozenset({"INF", "AB", "VG", "FJ", "ENG"})
"""Types that take infantry replacement points (BA-6.5c, G20); the rest take armored."""


class Profile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The order-of-battle facts of one unit (BA-1.5b, BA-13.2a-d, BA-13.4c, BA-7.4c-d)."""

    type: UnitType
    mobile: bool
    """The Mob column of 13.2 (BA-1.5b)."""
    first: int
    second: int
    """The base allowance of 7.4: first phase / second phase (BA-7.4c-d)."""
    division: str | None = None
    """The division key (13.4's spelling) of a unit that belongs to one; None: independent."""
    pool: str | None = None
    """The corps whose Artillery Corps Pool serves it (BA-6.4a, BA-13.4c)."""
    corridor: bool = False
    """Marked ``*`` in 13.2: may enter the corridor (BA-7.6e, BA-13.2d)."""
    battalion: bool = False
    """A battalion formation: no replacements (BA-6.5b, G22)."""
    full: int = 0
    """The printed combat value (the sum over the regiments built in, for a divisional
    unit): the ceiling of replacements (BA-6.5a, G20)."""
    infiltrator: bool = False
    """The 150th Panzer Brigade: no ZOC costs through 17 December (BA-7.6d)."""

    @property
    def engineer(self) -> bool:
        """An engineer unit (BA-6.7b, BA-7.6f, BA-7.8b)."""
        return self.type == "ENG"
