"""``docs/position-format.md`` documents the command JSON (issue 21, item 5): its schema is
the one msgspec generates from the engine's types, and its examples, one per kind, decode as
written (so neither can drift from the code)."""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path

import msgspec

import rules.ao

DOC = Path(__file__).resolve().parents[2] / "docs" / "position-format.md"


def _block(name: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    m = re.search(rf"<!-- {name}:begin -->\n```json\n(.*?)\n```\n<!-- {name}:end -->", text, re.S)
    assert m is not None, f"no {name} block in {DOC.name}"
    return m.group(1)


def test_the_documented_schema_is_the_generated_one() -> None:
    generated = json.dumps(msgspec.json.schema(rules.ao.Command), indent=1, sort_keys=True)
    assert _block("command-schema") == generated


def test_one_example_per_command_kind_decodes_as_written() -> None:
    lines = _block("command-examples").splitlines()
    kinds = []
    for line in lines:
        cmd = rules.ao.decode_command(line)
        assert rules.ao.encode_command(cmd).decode() == line  # canonical, as ardennes writes it
        kinds.append(type(cmd))
    assert kinds == list(typing.get_args(rules.ao.Command))  # every kind, in the schema's order
