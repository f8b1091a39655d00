"""Rule-case markers name real cases of the checklist, and every marked test names one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHECKLIST = ROOT.parent / "shared" / "spec" / "ao-rule-cases.md"
MARK_CALL = re.compile(r"mark\.rule\(([^)]*)\)")
CASE_ID = re.compile(r'"(AO-[0-9A-Za-z.]+\*?)"')
CASE = re.compile(r"^- (AO-[0-9A-Za-z.]+\*?)", re.MULTILINE)


def marked_ids() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if path.name == Path(__file__).name:
            continue
        for call in MARK_CALL.findall(path.read_text(encoding="utf-8")):
            for case in CASE_ID.findall(call):
                found.setdefault(case, []).append(path.name)
    return found


@pytest.mark.skipif(not CHECKLIST.exists(), reason="rule-case checklist not beside the checkout")
def test_every_marked_case_is_in_the_checklist() -> None:
    known = set(CASE.findall(CHECKLIST.read_text(encoding="utf-8")))
    assert len(known) > 100
    unknown = {c: files for c, files in marked_ids().items() if c not in known}
    assert unknown == {}


def test_marker_pattern_reads_every_id() -> None:
    src = '@pytest.mark.rule("AO-7.4E")\n@pytest.mark.rule("AO-6.7L*", "AO-4.2c")'
    ids = [c for call in MARK_CALL.findall(src) for c in CASE_ID.findall(call)]
    assert ids == ["AO-7.4E", "AO-6.7L*", "AO-4.2c"]
