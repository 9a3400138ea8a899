"""docs/published-runs.md: every command block prints the block under it, line for line, and the Python snippet
prints what its comments claim."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

from himga.cli import main

PAGE = Path(__file__).resolve().parents[2] / "docs" / "published-runs.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.S | re.M)


@pytest.fixture
def docs_folder(shared_data, tmp_path, monkeypatch):
    """A working folder beside ``shared/data`` (the real data), as the page assumes."""
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "data").symlink_to(shared_data, target_is_directory=True)
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", "../shared/data")
    return tmp_path / "work"


def test_the_pages_commands_print_its_blocks(docs_folder, published_runs, capsys):
    blocks = FENCE.findall(PAGE.read_text(encoding="utf-8"))
    pairs = [(code, blocks[i + 1][1]) for i, (info, code) in enumerate(blocks) if info == "console"]
    assert len(pairs) == 3
    cache = ["--cache-dir", str(docs_folder / "cache")]
    for commands, printed in pairs:
        capsys.readouterr()
        for command in commands.splitlines():
            assert main([*shlex.split(command.removeprefix("$ himga ")), *cache]) == 0
        assert capsys.readouterr().out.splitlines()[-len(printed.splitlines()) :] == printed.splitlines()
    assert (docs_folder / "runs.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_pages_python_snippet(docs_folder, published_runs):
    (snippet,) = [code for info, code in FENCE.findall(PAGE.read_text(encoding="utf-8")) if info == "python"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(snippet, "<published-runs.md>", "exec"), {})
    claims = [line.split("  # ")[1] for line in snippet.splitlines() if line.startswith("print(")]
    assert (
        out.getvalue().splitlines()
        == claims
        == ["[1426, 1424, 1429]", "comparable: the same questions, judge and gold"]
    )


def test_the_pages_field_map_reads_a_file(locomo_samples, tmp_path):
    import json

    from himga.run import FieldMap, import_run

    (block,) = [code for info, code in FENCE.findall(PAGE.read_text(encoding="utf-8")) if info == "json"]
    fmap = FieldMap.from_dict(json.loads(block))
    record = {"conv": "conv-26", "q": "When did Melanie paint a sunrise?", "pred": "2022", "ok": True, "type": 2,
              "ms": 40}  # fmt: skip
    (tmp_path / "their.json").write_text(json.dumps({"runs": [record]}))
    imported = import_run(tmp_path / "their.json", field_map=fmap, samples=locomo_samples)
    assert [(r["question_id"], r["verdicts"], r["latency_ms"]) for r in imported.records] == [
        ("conv-26:1", [True], {"answer": 40})
    ]
    assert (imported.run["judge"], imported.lines[2]) == ("mem0", "categories: integers, LoCoMo's for 1 of 1")
