"""What an import did, for the import dialog; no Textual.

A mailbox holds every mail of a game, so an import finds mostly packets already stored
(duplicates) and one or two new ones. :func:`report_lines` puts first a summary, then what
matters (the packets accepted, with the comment their author wrote, then those refused and
the invitations), and the duplicates last, summed up per game::

    report_lines(report)
    # ['1 accepted, 3 duplicates (already stored), 0 refused.',
    #  'game 3f9a0c2e packet 7 (allied orders): accepted; your move (German combat)',
    #  '  comment from the allied player: "GT3: the SS go in"',
    #  'duplicates: game 3f9a0c2e packets 2-4 (already stored; nothing changed)']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pbem.exchange import ImportItem, ImportReport

__all__ = ["Comments", "report_lines", "seq_ranges"]

Comments = Callable[[str, int], str]
"""The comment of packet ``seq`` of game ``game_id`` ("" for none)."""


def seq_ranges(seqs: Sequence[int]) -> str:
    """``2-4 7 9-10``: sequence numbers as ranges."""
    out: list[str] = []
    ordered = sorted(set(seqs))
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        out.append(str(ordered[i]) if i == j else f"{ordered[i]}-{ordered[j]}")
        i = j + 1
    return " ".join(out)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def report_lines(report: ImportReport, comment: Comments | None = None) -> list[str]:
    """The import's report: a summary, the accepted packets (each with its author's comment,
    when ``comment`` finds one), the refused ones and the invitations, then the duplicates in
    one line per game, then the mail reader's notes."""
    accepted, refused = report.accepted, report.refused
    invitations, duplicates = report.invitations, report.of("duplicate")
    summary = (
        f"{len(accepted)} accepted, {_plural(len(duplicates), 'duplicate')} (already "
        f"stored), {len(refused)} refused."
    )
    if invitations:
        summary = f"{summary[:-1]}, {_plural(len(invitations), 'invitation')}."
    lines = [summary]
    for item in accepted:
        lines.append(item.line())
        said = comment(item.game_id, item.seq) if comment is not None else ""
        if said:
            lines.append(f'  comment from the {item.author} player: "{said}"')
    lines += [i.line() for i in refused]
    lines += [i.line() for i in invitations]
    by_game: dict[str, list[ImportItem]] = {}
    for item in duplicates:
        by_game.setdefault(item.game_id, []).append(item)
    for game_id, items in by_game.items():
        what = "packet" if len(items) == 1 else "packets"
        seqs = seq_ranges([i.seq for i in items])
        lines.append(
            f"duplicates: game {game_id[:8]} {what} {seqs} (already stored; nothing changed)"
        )
    lines += [f"note: {n}" for n in report.notes]
    return lines
