"""The Allied counterattack (planner v2): which German stacks to strike in the coming Combat
Phase, with which units moved where, and whether it is worth the German reply.

At the start of each Allied Initial Movement Phase the planner looks at every German hex that
Allied units can reach the neighbours of this phase (a unit that enters an enemy zone of
control stops there, AO-7.1A, so an attack position is a hex next to the target reached in
normal mode) and builds, for each, groups of the strongest units that can get there (up to
:data:`MAX_UNITS`), spread round the target so that their zones of control close its retreats
(AO-7.3D: a Dr then eliminates what cannot retreat, AO-10.2b). Each group is valued on the
position its moves leave (:func:`rules.ao.bots.planner.lookahead.moved`):

* **the attack** (:mod:`rules.ao.bots.planner.expected`, the Standard CRT, AO-10.3a): kills and
  Ex losses (AO-10.1b), ground, attackers an Ar traps, the defenders' supply at the moment of
  combat (an isolated stack defends at half, AO-12.6) and town or West Wall immunity
  (AO-11.f/h: only Ex and De take a town), every lower column it may declare (AO-9.4L);
* **what clearing the hex is worth** (:func:`clear_value`): the exits the stack holds that no
  other German unit holds (AO-16.C), an objective town retaken (Bastogne counts the SE/SW exits
  for the German, AO-16.D);
* **the German reply** (:class:`Reply`, one ply): the German attack each stack it leaves can
  expect next player-turn - the strongest German units that can reach it, at their supply
  (unsupplied halved, isolated nothing, AO-12.6), on the German CRT in use, each die face
  counted - with and without the moved units, against the same for the hexes they leave;
  the target's own units count only when the attack fails to destroy them.

The groups of the highest net value (attack + clearing - reply, thousandths of a VP) are kept
greedily, each on the position the earlier ones leave, while worth at least :data:`MIN_NET`:
those are the strikes (:class:`Strike`) the movement then makes first
(:mod:`rules.ao.bots.planner.allied`). Isolated and unsupplied German units, and those that
have outrun their support (no German unit near them to strike back), come out on top by
themselves: weaker in defence, trapped by a few zones of control, and little to fear from
the reply. Pure and deterministic: ties go by hex and unit ids.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, cast

from rules import HexId, Rejection, hexgrid
from rules.ao import (
    Board,
    GameState,
    Reach,
    Supply,
    attack_strength_in,
    check_stack,
    crt,
    defence_strength_in,
    defender_supply,
    immunity_case,
    odds_column,
)
from rules.ao.bots.attack import ex_losses
from rules.ao.bots.fields import Fields
from rules.ao.bots.planner.expected import SCALE, Sides, Weights, expected_numerator, outcomes
from rules.ao.bots.planner.lookahead import moved
from rules.ao.bots.planner.threat import REACH_FOOT, REACH_MECH, Threat
from rules.ao.bots.retreats import RetreatContext, has_retreat, trapped

MAX_UNITS: Final = 6
"""A strike's group is drawn from the strongest this many units that can reach the target."""
MAX_STRIKES: Final = 8
"""Strikes kept per Combat Phase at most."""
MIN_NET: Final = 100
"""A strike is made when its net value is at least this (thousandths of a VP)."""
REPLY_ATTACKERS: Final = 6
"""The German reply on a stack: the strongest this many German units that can reach it."""
EXIT_CLEAR: Final = 200
"""Per exit VP a cleared target held alone (AO-16.C): the exit is Allied again."""
TOWN_CLEAR: Final = 600
"""An objective town retaken (Liège, Bastogne, St. Vith, a Meuse bridge town)."""
INTERACTION: Final = 4
"""After a strike is kept, targets within this distance of it are valued again."""


@dataclass(frozen=True, slots=True)
class Strike:
    """One planned attack: ``units`` (each moved to or staying in its ``dest`` hex, next to
    ``target``) at ``column``; ``gain`` the expected value of the attack and of clearing the
    hex, ``risk`` the expected cost of the German reply it invites (thousandths of a VP)."""

    target: HexId
    units: tuple[str, ...]
    dest: tuple[tuple[str, HexId], ...]
    column: str
    gain: int
    risk: int

    @property
    def net(self) -> int:
        return self.gain - self.risk


class Reply:
    """The German attack an Allied stack can expect next player-turn (one ply, see the module
    docstring): per hex, the German units that can reach it (hex distance at most
    :data:`~rules.ao.bots.planner.threat.REACH_MECH` mechanized, ``REACH_FOOT`` the others) with
    their attack strength at their supply now; the escapes of :class:`Threat`."""

    def __init__(self, board: Board, state: GameState, supply: Mapping[str, Supply]) -> None:
        self.board = board
        self.threat = Threat(board, state, "allied", state.german_crt)
        self.table = state.german_crt
        m = board.game_map
        self.reach: dict[HexId, list[tuple[int, str]]] = {}
        for u in state.units:
            d = board.defs[u.id]
            if not u.in_play or u.hex is None or d.side != "german":
                continue
            s = _attack(d.strength, supply.get(u.id, "supplied"))
            if s <= 0:
                continue
            r = REACH_MECH if d.mechanized else REACH_FOOT
            for h in hexgrid.disc(u.hex, r):
                if h in m:
                    self.reach.setdefault(h, []).append((s, u.id))
        for v in self.reach.values():
            v.sort(key=lambda x: (-x[0], x[1]))

    def strength(self, h: HexId, without: Collection[str] = ()) -> int:
        """The German attack strength that can reach ``h`` (``without`` some units)."""
        got = [s for s, uid in self.reach.get(h, ()) if uid not in without]
        return sum(got[:REPLY_ATTACKERS])

    def loss(self, h: HexId, defence: int, units: int, without: Collection[str] = ()) -> int:
        """Thousandths of the ``units`` units (printed strength ``defence``) in ``h`` expected
        lost to the German reply: De and Ex, and Dr with no escape out of a town (AO-10.2b,
        AO-11.f)."""
        att = self.strength(h, without)
        if att <= 0 or units <= 0 or defence <= 0:
            return 0
        col = odds_column(att, defence)
        if isinstance(col, Rejection):
            return 0
        rows = crt.TABLES[cast(Any, self.table)]
        i = crt.ODDS_COLUMNS.index(col)
        town = h in self.threat.towns
        dead = 0
        for row in rows:
            r = row[i]
            if r.kind in ("De", "Ex") or (
                r.kind == "Dr" and not town and not self.threat.escape(h, r.hexes)
            ):
                dead += units
        return dead * SCALE // 6


def _attack(strength: int, supply: Supply) -> int:
    """Attack strength at ``supply`` (AO-12.6: unsupplied halved rounding up, isolated 0)."""
    if supply == "isolated":
        return 0
    if supply == "unsupplied":
        return (strength + 1) // 2
    return strength


def clear_value(board: Board, state: GameState, fields: Fields, h: HexId) -> int:
    """What clearing the German hex ``h`` is worth to the Allies (thousandths of a VP): the exit
    VP its units hold that no other German unit holds (in the exit hex or next to it, not in
    Road Mode, AO-16.C, AO-6.6J), :data:`EXIT_CLEAR` a VP, and :data:`TOWN_CLEAR` for an
    objective town (:attr:`Fields.garrison`)."""
    m = board.game_map
    value = TOWN_CLEAR if h in fields.garrison else 0
    others = {
        u.hex
        for u in state.units
        if u.in_play
        and u.hex is not None
        and u.hex != h
        and not u.road_mode
        and board.defs[u.id].side == "german"
    }
    for x in (h, *m.neighbours(h)):
        vp = m.hex(x).exit_vp or 0
        if vp <= 0 or any(board.defs[u.id].side == "allied" for u in state.at(x)):
            continue  # no exit, or an Allied unit in it: not German-held (AO-16.C)
        if x in others or any(n in others for n in m.neighbours(x)):
            continue  # another German unit holds it too
        value += EXIT_CLEAR * vp
    return value


class Counter:
    """The strikes of one Allied Initial Movement Phase (see the module docstring).

    ``reach``: for every Allied unit that may move, the hexes it can end in in normal mode
    this phase (:func:`ao.legal_moves` with ``road_mode=False``)."""

    def __init__(
        self,
        board: Board,
        state: GameState,
        fields: Fields,
        weights: Weights,
        reach: Mapping[str, Mapping[HexId, Reach]],
    ) -> None:
        self.board = board
        self.state = state
        self.fields = fields
        self.weights = weights
        m = board.game_map
        self.supply = defender_supply(board, state, "german")
        self.reply = Reply(board, state, self.supply)
        self.german: dict[HexId, list[str]] = {}
        self.allied_at: dict[HexId, list[str]] = {}
        for u in state.units:
            if not u.in_play or u.hex is None:
                continue
            side = board.defs[u.id].side
            if side == "german":
                self.german.setdefault(u.hex, []).append(u.id)
            elif not m.is_allied_edge(u.hex):
                self.allied_at.setdefault(u.hex, []).append(u.id)
        # where each Allied unit may attack from: normal-mode arrivals next to a German hex,
        # and its own hex when it stands next to one
        self.options: dict[HexId, dict[str, tuple[HexId, ...]]] = {}
        for uid, hexes in sorted(reach.items()):
            us = state.unit(uid)
            here = us.hex
            for h in sorted({*hexes, *(() if here is None else (here,))}):
                if h in self.german or m.is_allied_edge(h):
                    continue
                if (h == here and us.road_mode) or (h != here and hexes[h].road_mode):
                    continue  # Road Mode halves the attack (AO-6.6K): arrive in normal mode
                for t in m.neighbours(h):
                    if t in self.german:
                        self.options.setdefault(t, {}).setdefault(uid, ())
                        self.options[t][uid] = (*self.options[t][uid], h)
        movable = set(reach)
        for h, ids in sorted(self.allied_at.items()):
            for uid in ids:
                if uid in movable or state.unit(uid).road_mode:
                    continue
                for t in m.neighbours(h):
                    if t in self.german:
                        self.options.setdefault(t, {})[uid] = (h,)
        self.clear = {t: clear_value(board, state, fields, t) for t in self.german}

    # -- one target ---------------------------------------------------------------------------

    def _place(
        self, t: HexId, group: Sequence[str], base: GameState
    ) -> list[tuple[str, HexId]] | None:
        """Each unit of ``group`` to one of its hexes next to ``t``: a unit already there
        stays; the others each where they close the most of the target's ways out (its
        neighbours neither German-held nor yet Allied-held or -controlled: AO-7.3D), then
        where the fewest units are, then farthest from the objectives (the German's way
        back); None when the stacking limit leaves one without a hex."""
        m = self.board.game_map
        defs = self.board.defs
        at: dict[HexId, list[str]] = {}
        for u in base.units:
            if u.in_play and u.hex is not None and defs[u.id].side == "allied":
                at.setdefault(u.hex, []).append(u.id)
        movers = set(group)
        german = self.german_now(base)
        ways = {
            n
            for n in m.neighbours(t)
            if n not in german and not m.is_allied_edge(n) and m.hex(n).terrain != "impassable"
        }
        closed = {
            n
            for n in ways
            if any(x not in movers for x in at.get(n, ()))
            or any(any(x not in movers for x in at.get(k, ())) for k in m.neighbours(n))
        }
        opts = self.options.get(t, {})
        out: list[tuple[str, HexId]] = []
        for uid in group:
            here = base.unit(uid).hex
            for lst in at.values():
                if uid in lst:
                    lst.remove(uid)
            best: tuple[int, int, int, int, HexId] | None = None
            for h in opts.get(uid, ()):
                others = at.get(h, [])
                if check_stack(m, defs[uid], h, [defs[x] for x in others]) is not None:
                    continue
                shut = len(({h} | set(m.neighbours(h))) & ways - closed)
                key = (
                    0 if h == here else 1,
                    -shut,
                    len(others),
                    -self.fields.objective.get(h, 60),
                    h,
                )
                if best is None or key < best:
                    best = key
            if best is None:
                return None
            h = best[4]
            out.append((uid, h))
            at.setdefault(h, []).append(uid)
            closed |= ({h} | set(m.neighbours(h))) & ways
        return out

    def german_now(self, base: GameState) -> set[HexId]:
        """The hexes holding German units in play in ``base``."""
        defs = self.board.defs
        return {
            u.hex
            for u in base.units
            if u.in_play and u.hex is not None and defs[u.id].side == "german"
        }

    def strike(self, t: HexId, base: GameState, used: Collection[str]) -> Strike | None:
        """The best group against ``t`` on ``base`` of the units not ``used`` (None: none
        worth :data:`MIN_NET`)."""
        b = self.board
        defs = b.defs
        defenders = [u.id for u in base.at(t) if defs[u.id].side == "german" and u.in_play]
        if not defenders:
            return None
        here = {uid: base.unit(uid).hex for uid in self.options.get(t, {})}
        cand = sorted(
            (uid for uid in self.options.get(t, {}) if uid not in used),
            key=lambda x: (-defs[x].strength, here[x] not in self.options[t][x], x),
        )[:MAX_UNITS]  # the strongest first, those already next to the target first
        if not cand:
            return None
        sup = {x: self.supply.get(x, "supplied") for x in defenders}
        face = sum(defs[x].strength for x in defenders)
        immune = any(immunity_case(b, base, x) is not None for x in defenders)
        w = Weights(
            kill=self.weights.kill,
            loss=self.weights.loss,
            ground=self.weights.ground,
            repulse=self.weights.repulse,
            clear=self.weights.clear + self.clear[t],
        )
        best: Strike | None = None
        for k in range(1, len(cand) + 1):
            group = tuple(cand[:k])
            dest = self._place(t, group, base)
            if dest is None:
                continue
            hyp = moved(base, dest)
            att = attack_strength_in(b, hyp, group)
            dfn = defence_strength_in(b, hyp, (t,), supply=sup, retreated=())
            col = odds_column(att, dfn)
            if isinstance(col, Rejection):
                continue
            stuck = trapped(b, hyp, t, RetreatContext(b, hyp, "german"))
            rctx = RetreatContext(b, hyp, "allied")
            movable = [a for a in group if immunity_case(b, hyp, a) is None]
            att_trapped = tuple(
                sum(1 for a in movable if not has_retreat(b, hyp, a, n, rctx)) for n in (1, 2, 3)
            )
            sides = Sides(
                defenders=len(defenders),
                trapped=stuck,
                immune=immune,
                ex_loss=ex_losses([defs[a] for a in group], face),
                attackers=len(movable),
                att_trapped=(att_trapped[0], att_trapped[1], att_trapped[2]),
            )
            top: tuple[int, str, int] | None = None
            for c in _columns(col):
                outs = outcomes("standard", c, sides)
                num = expected_numerator(outs, w)
                empty = sum(o.faces for o in outs if o.emptied)
                if top is None or num > top[0]:
                    top = (num, c, empty)
            assert top is not None
            num, c, empty = top
            gain = num // 6
            risk = self.risk(t, dest, base, defenders, empty)
            s = Strike(t, group, tuple(dest), c, gain, risk)
            if best is None or s.net > best.net:
                best = s
        if best is None or best.net < MIN_NET:
            return None
        return best

    def risk(
        self,
        t: HexId,
        dest: list[tuple[str, HexId]],
        base: GameState,
        defenders: Collection[str],
        empty_faces: int,
    ) -> int:
        """The cost of the German reply the moves ``dest`` invite (see the module docstring):
        the expected losses of the stacks they join, beyond those of the stacks they leave;
        the defenders of ``t`` count against them only on the faces that do not destroy
        them."""
        defs = self.board.defs
        stacks: dict[HexId, list[str]] = {}
        for u in base.units:
            if u.in_play and u.hex is not None and defs[u.id].side == "allied":
                stacks.setdefault(u.hex, []).append(u.id)
        movers = {uid for uid, _ in dest}
        after: dict[HexId, list[str]] = {
            h: [x for x in v if x not in movers] for h, v in stacks.items()
        }
        for uid, h in dest:
            after.setdefault(h, []).append(uid)
        touched = {h for _, h in dest} | {base.unit(uid).hex or "" for uid in movers}
        touched.discard("")

        def expected(where: Mapping[HexId, list[str]], without: Collection[str]) -> int:
            total = 0
            for h in touched:
                ids = where.get(h, [])
                if ids:
                    total += self.reply.loss(
                        h, sum(defs[x].strength for x in ids), len(ids), without
                    )
            return total

        before = expected(stacks, ())
        alive = expected(after, ())
        dead = expected(after, defenders)
        after_loss = (alive * (6 - empty_faces) + dead * empty_faces) // 6
        return max(0, self.weights.loss * (after_loss - before) // SCALE)

    # -- the plan -------------------------------------------------------------------------------

    def plan(self) -> list[Strike]:
        """The strikes to make, best first (see the module docstring)."""
        base = self.state
        used: set[str] = set()
        out: list[Strike] = []
        found: dict[HexId, Strike | None] = {
            t: self.strike(t, base, used) for t in sorted(self.options)
        }
        while len(out) < MAX_STRIKES:
            live = [s for s in found.values() if s is not None]
            if not live:
                break
            pick = max(live, key=lambda s: (s.net, s.target))
            out.append(pick)
            used.update(pick.units)
            base = moved(base, pick.dest)
            del found[pick.target]
            for t in list(found):
                s = found[t]
                near = hexgrid.distance(t, pick.target) <= INTERACTION
                if near or (s is not None and used.intersection(s.units)):
                    found[t] = self.strike(t, base, used)
        return out


def _columns(real: str) -> list[str]:
    """``real`` and every lower column the Allied player may declare (AO-9.4L)."""
    i = crt.ODDS_COLUMNS.index(real)
    return [crt.ODDS_COLUMNS[j] for j in range(i, -1, -1)]


__all__ = ["EXIT_CLEAR", "MIN_NET", "TOWN_CLEAR", "Counter", "Reply", "Strike", "clear_value"]
