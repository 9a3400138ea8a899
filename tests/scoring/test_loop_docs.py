"""docs/evaluation-loop.md: the seed loop, written against the system view, runs end to end to the score the page
shows, with the commands as written."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
from pathlib import Path

from himga.cli import main

DOC = Path(__file__).resolve().parents[2] / "docs" / "evaluation-loop.md"
TEXT = DOC.read_text(encoding="utf-8")
BLOCKS = re.findall(r"```(\w+)\n(.*?)```", TEXT, re.S)


def _blocks(kind: str) -> list[str]:
    return [code for info, code in BLOCKS if info == kind]


def test_the_loop_runs_to_the_score_the_page_shows(in_docs_folder, capsys, punkt):
    loop, printed, table = _blocks("python")[0], _blocks("text")[0], _blocks("text")[1]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(loop, f"{DOC.name} loop", "exec"), {"__name__": "__doc_example__"})
    assert out.getvalue() == printed
    records = json.loads((in_docs_folder / "results.json").read_text())
    assert len(records) == 1986 and set(records[0]) == {"sample_id", "question_id", "question", "response"}
    first, paper = (shlex.split(line.removeprefix("$ ")) for line in _blocks("console"))
    capsys.readouterr()
    assert main(first[1:]) == 0
    assert capsys.readouterr().out == table
    assert main(paper[1:]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(" metrics")[0] for line in lines if line.startswith("not official")] == [
        "not official: A-Mem",
        "not official: mem0",
        "not official: MAGMA",
    ]
