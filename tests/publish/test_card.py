"""Issue 16 §7: user-supplied text in the card (source file names) cannot break or add table rows."""

from __future__ import annotations

import re

from himga.publish import SourceFile, SplitSize, code_cell, render_card

HOSTILE = "a|b`c\n| injected | row | 1 | `x` | y |.json"


def _cells(line: str) -> list[str]:
    """A GitHub-flavoured table row's cells: split at every pipe not escaped by a backslash."""
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


def test_code_cell_values():
    assert code_cell("locomo10.json") == "`locomo10.json`"
    assert code_cell("a|b`.json") == "``a\\|b`.json``"
    assert code_cell("`x`") == "`` `x` ``"
    assert code_cell("a``b`.json") == "```a``b`.json```"
    assert code_cell("a\nb\x1b.json") == "`a\\nb\\x1b.json`"


def test_a_hostile_file_name_stays_in_its_cell():
    source = SourceFile(HOSTILE, 12, "0" * 64)
    card = render_card("locomo", {"default": SplitSize(1, 100)}, {"default": [source]})
    table = card[card.index("| config | source file |") :].split("\n\n")[0].splitlines()
    assert len(table) == 3  # header, rule, one row: nothing injected
    row = _cells(table[2])
    assert len(row) == 5
    assert row[:4] == [
        "default",
        "``a\\|b`c\\n\\| injected \\| row \\| 1 \\| `x` \\| y \\|.json``",
        "12",
        f"`{'0' * 64}`",
    ]
