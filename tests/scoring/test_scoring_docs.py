"""docs/scoring-a-run.md: each Python example runs and prints exactly the output shown under it; each
command runs (on the files the page describes)."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
from pathlib import Path

import pytest
from helpers.replies import write_replies

from himga.cli import main

DOC = Path(__file__).resolve().parents[2] / "docs" / "scoring-a-run.md"
TEXT = DOC.read_text(encoding="utf-8")
EXAMPLES = re.findall(r"```python\n(.*?)```\n\n```text\n(.*?)```", TEXT, re.S)
COMMANDS = [line[2:] for block in re.findall(r"```console\n(.*?)```", TEXT, re.S) for line in block.splitlines()]


def test_the_page_has_an_example_of_at_most_ten_lines_per_benchmark():
    assert len(EXAMPLES) == 2 and len(COMMANDS) == 11
    assert [len(code.splitlines()) for code, _ in EXAMPLES] == [9, 10]


@pytest.mark.parametrize("index", [0, 1], ids=["locomo", "longmemeval"])
def test_example_prints_what_the_page_shows(in_docs_folder, index):
    code, shown = EXAMPLES[index]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, f"{DOC.name} example {index + 1}", "exec"), {"__name__": "__doc_example__"})
    assert out.getvalue() == shown


def test_commands_run(in_docs_folder, locomo_samples, beam_tier, capsys):
    from himga.data import item_id

    rows = [
        {"question_id": item_id(s, qa), "hypothesis": "Not mentioned in the conversation"}
        for s in locomo_samples
        for qa in s.qa_pairs
    ]
    (in_docs_folder / "predictions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    ids = ["gpt4_2655b836", "09ba9854_abs"]
    (in_docs_folder / "hypotheses.jsonl").write_text(
        "".join(json.dumps({"question_id": q, "hypothesis": "I don't know."}) + "\n" for q in ids)
    )
    beam = [
        {"question_id": item_id(s, qa), "hypothesis": "I don't know."} for s in beam_tier("100K") for qa in s.qa_pairs
    ]
    (in_docs_folder / "beam-hypotheses.jsonl").write_text("".join(json.dumps(r) + "\n" for r in beam))
    for command in COMMANDS[:3] + COMMANDS[9:]:  # LongMemEval's, then BEAM's (the judges' path: the test below)
        if "--labels replies.jsonl" in command:  # the judge's replies to the requests the command before wrote
            requests = [json.loads(line) for line in (in_docs_folder / "requests.jsonl").read_text().splitlines()]
            write_replies(
                in_docs_folder / "replies.jsonl", requests, lambda r: dict(zip(ids, ["No", "Yes."]))[r["question_id"]]
            )
        if "beam-replies.jsonl" in command:
            requests = [json.loads(line) for line in (in_docs_folder / "beam-requests.jsonl").read_text().splitlines()]
            write_replies(in_docs_folder / "beam-replies.jsonl", requests, lambda r: '{"score": 0.5}')
        assert main(shlex.split(command)[1:]) == 0, command
    assert len((in_docs_folder / "requests.jsonl").read_text().splitlines()) == 2
    assert json.loads((in_docs_folder / "report.json").read_text())["abstention"]["mean"] == 1.0
    beam_report = json.loads((in_docs_folder / "beam-report.json").read_text())
    assert (beam_report["scored"], beam_report["judge_variant"]) == (400, "official")
    assert {row["type"]: row["mean"] for row in beam_report["per_type"]}[
        "temporal_reasoning"
    ] == 0.0  # int(0.5), the quirk


def test_the_judges_path_runs_against_a_local_endpoint(
    in_docs_folder, shared_data, locomo_samples, monkeypatch, capsys
):
    """Predictions -> requests -> replies (a local OpenAI-compatible endpoint) -> table, then the probe, as the page
    shows."""
    from helpers.chat_server import ChatServer

    from himga.data import item_id

    rows = [{"question_id": item_id(s, qa), "hypothesis": str(qa.answer)} for s in locomo_samples for qa in s.qa_pairs]
    (in_docs_folder / "predictions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    path, probe = COMMANDS[3:7], COMMANDS[7:9]
    assert len(path) == 4 and sum(len(c) <= 200 for c in path) == 4
    monkeypatch.setenv("OPENAI_API_KEY", "sk-docs-test-key")
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(shared_data))
    with ChatServer(default='{"label": "CORRECT"}') as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        for command in path:
            assert main(shlex.split(command)[1:]) == 0, command
    report = json.loads((in_docs_folder / "report.json").read_text())
    assert [r["judge"]["name"] for r in report["reports"]] == ["mem0", "evermemos"]
    assert {r["overall"]["mean"] for r in report["reports"]} == {1.0}
    assert sum(server.answered.values()) == len((in_docs_folder / "requests.jsonl").read_text().splitlines())
    capsys.readouterr()
    for command in probe:
        assert main(shlex.split(command)[1:]) == 0, command
    shown = re.search(r"```console\n\$ himga score locomo --probe.*?```\n\n```text\n(.*?)```", TEXT, re.S)[1]
    out = capsys.readouterr().out
    assert shown.strip() in [line.rstrip() for line in out.splitlines()]
    assert (
        "false-accept: judge evermemos (gpt-4o-mini) accepts 0.6281 [0.6043, 0.6520] of the probe v2 wrong answers"
        in out
    )


def test_what_the_page_says_of_the_registry_is_the_registry():
    """A benchmark's default judge that the page's table lists is said to be registered, never "not in the registry"."""
    from himga.scoring import judges

    table = {
        name for row in re.findall(r"^\| (`[^|]+`) \|", TEXT, re.MULTILINE) for name in re.findall(r"`([^`]+)`", row)
    }
    assert {"locomo_plus", "beam", "beam-fixed", "mem0"} <= table <= set(judges())
    assert "not in the `--judge` registry" not in TEXT
    assert "also in the `--judge` registry as `locomo_plus`" in TEXT
