"""Rule-case markers name real cases of the checklist, and every marked test names one. The
checklist is the repository's copy, ``tests/data/ao-rule-cases.md``, of
``../shared/spec/ao-rule-cases.md``, which it must match when that is beside the checkout."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHECKLIST = ROOT / "tests" / "data" / "ao-rule-cases.md"
SOURCE = ROOT.parent / "shared" / "spec" / "ao-rule-cases.md"
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


def test_every_marked_case_is_in_the_checklist() -> None:
    known = set(CASE.findall(CHECKLIST.read_text(encoding="utf-8")))
    assert len(known) > 100
    unknown = {c: files for c, files in marked_ids().items() if c not in known}
    assert unknown == {}


def test_marker_pattern_reads_every_id() -> None:
    src = '@pytest.mark.rule("AO-7.4E")\n@pytest.mark.rule("AO-6.7L*", "AO-4.2c")'
    ids = [c for call in MARK_CALL.findall(src) for c in CASE_ID.findall(call)]
    assert ids == ["AO-7.4E", "AO-6.7L*", "AO-4.2c"]


@pytest.mark.skipif(
    not SOURCE.exists(), reason="../shared/spec/ao-rule-cases.md not beside the checkout"
)
def test_the_checklist_is_a_copy_of_the_source() -> None:
    copy = CHECKLIST.relative_to(ROOT)
    assert CHECKLIST.read_bytes() == SOURCE.read_bytes(), f"{copy} is stale: cp {SOURCE} {copy}"


# Breakthrough in the Ardennes: ``BA-`` ids, from ``tests/data/bita-rule-cases.md``, the copy of
# ``../shared/spec/bita-rule-cases.md``.
BA_CHECKLIST = ROOT / "tests" / "data" / "bita-rule-cases.md"
BA_SOURCE = ROOT.parent / "shared" / "spec" / "bita-rule-cases.md"
BA_CASE_ID = re.compile(r'"(BA-[0-9]+\.[0-9]+[a-z])"')
BA_CASE = re.compile(r"^- (BA-[0-9]+\.[0-9]+[a-z])\s", re.MULTILINE)


def ba_marked_ids() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if path.name == Path(__file__).name:
            continue
        for call in MARK_CALL.findall(path.read_text(encoding="utf-8")):
            for case in BA_CASE_ID.findall(call):
                found.setdefault(case, []).append(path.name)
    return found


def test_every_marked_breakthrough_case_is_in_its_checklist() -> None:
    known = set(BA_CASE.findall(BA_CHECKLIST.read_text(encoding="utf-8")))
    assert len(known) > 200
    assert {"BA-1.4b", "BA-13.2a", "BA-10.2c"} <= known
    marked = ba_marked_ids()
    assert len(marked) >= 15
    assert {c: files for c, files in marked.items() if c not in known} == {}


@pytest.mark.skipif(
    not BA_SOURCE.exists(), reason="../shared/spec/bita-rule-cases.md not beside the checkout"
)
def test_the_breakthrough_checklist_is_a_copy_of_the_source() -> None:
    copy = BA_CHECKLIST.relative_to(ROOT)
    assert BA_CHECKLIST.read_bytes() == BA_SOURCE.read_bytes(), (
        f"{copy} is stale: cp {BA_SOURCE} {copy}"
    )


BA_APP_ONLY = (
    "BA-1.2a",
    "BA-6.1a",
    "BA-6.1b",
    "BA-6.2a",
    "BA-6.3a",
    "BA-7.1a",
    "BA-7.3a",
)
"""The Breakthrough cases only the app can show (one-key entry, the cursor and unit menus):
``docs/rules-notes-breakthrough.md``, "Checklist coverage by the ruleset" (issue 24: at most
ten)."""


def test_every_breakthrough_case_but_the_apps_is_named_by_a_test() -> None:
    known = BA_CASE.findall(BA_CHECKLIST.read_text(encoding="utf-8"))
    marked = ba_marked_ids()
    unnamed = tuple(c for c in known if c not in marked)
    assert unnamed == BA_APP_ONLY
    assert len(BA_APP_ONLY) <= 10
