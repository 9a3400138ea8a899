"""LoCoMo-Plus's judge: every request byte-identical to what the official llm_as_judge.py sends (its client stubbed),
the
official label parsing, and the official summary from the same replies (tests/fixtures/locomo_plus/official-judge.json,
made by running xjtuleeyf/Locomo-Plus@059f4e3)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from helpers.replies import write_replies

from himga.cli import main
from himga.errors import ConfigurationError
from himga.schema.ids import item_id
from himga.scoring import LOCOMO_PLUS_JUDGE, locomo_plus_label, score_samples
from himga.scoring.judges import _locomo_plus as M
from himga_locomo_plus.judge import SCORER, TYPE_ORDER

OFFICIAL = json.loads(
    (Path(__file__).resolve().parents[1] / "fixtures" / "locomo_plus" / "official-judge.json").read_text(
        encoding="utf-8"
    )
)

#: A row's place in the fixture: its reply is the fixture's reply of that place (cycling).
position = {row[0]: n for n, row in enumerate(OFFICIAL["rows"])}


def _sha(request: dict) -> str:
    return hashlib.sha256(json.dumps(request, ensure_ascii=False, sort_keys=True).encode("utf-8")).hexdigest()


@pytest.fixture(scope="module")
def requests(locomo_plus_samples) -> dict[str, dict]:
    """Every item's request for the fixture's prediction, by item id."""
    predictions = {row[0]: row[1] for row in OFFICIAL["rows"]}
    out = {}
    for sample in locomo_plus_samples:
        judge = SCORER.judge()  # the official judge the scorer holds
        context = judge.context(sample)
        for qa in sample.qa_pairs:
            qid = item_id(sample, qa)
            out[qid] = judge.official_request("locomo_plus", qa, predictions[qid], context)
    return out


def test_the_fixture_names_the_official_commit_and_every_item():
    assert OFFICIAL["commit"] == LOCOMO_PLUS_JUDGE["source"]["commit"] == "059f4e3d38f7f1f96765e8e2cb7de3097551bffb"
    assert len(OFFICIAL["rows"]) == 2387
    assert (LOCOMO_PLUS_JUDGE["model"], LOCOMO_PLUS_JUDGE["temperature"], LOCOMO_PLUS_JUDGE["max_tokens"]) == (
        "gpt-4o-mini",
        0.0,
        512,
    )
    assert (
        LOCOMO_PLUS_JUDGE["template_sha256"]
        == M.templates_sha256()
        == "f93f48ecd89daa90a7169c5614ca5411ea5376d834ebb6c13e14762f79d2366f"
    )


def test_every_request_is_byte_identical(requests):
    assert list(requests) == [
        row[0] for row in OFFICIAL["rows"]
    ]  # the official order: LoCoMo's questions, then the items
    assert [row[0] for row in OFFICIAL["rows"] if _sha(requests[row[0]]) != row[2]] == []
    assert len(OFFICIAL["full_requests"]) == 12
    for full in OFFICIAL["full_requests"]:
        assert requests[full["question_id"]] == full["request"]
    content = requests["cognitive-0:0"]["messages"][0]["content"]
    assert content.startswith(M.REQUEST_PREFIX + "You are a Memory Awareness Judge.")
    assert (
        "Memory/Evidence:\nCaroline：After learning to say 'no', I’ve felt a lot less stressed overall.\nMelanie："
        in content
    )


def test_the_official_label_parsing():
    for reply, label, reason, score in OFFICIAL["label_parsing"]:
        assert M.parse_reply(reply) == (label, reason)
        assert locomo_plus_label(reply) == score
    assert locomo_plus_label("Partially correct, I think") == 1.0  # the official rule finds 'correct' first
    with pytest.raises(ConfigurationError, match="^judge reply: expected a string, got null$"):
        locomo_plus_label(None)


def test_the_official_summary_from_the_same_labels(locomo_plus_samples):
    labels = {row[0]: row[5] for row in OFFICIAL["rows"]}
    report = score_samples("locomo_plus", locomo_plus_samples, labels=labels)
    rows = {r["type"]: r for r in report["per_type"]}
    assert [r["type"] for r in report["per_type"]] == list(TYPE_ORDER)
    for category, official in OFFICIAL["summary"]["by_category"].items():
        assert (rows[category]["n"], round(rows[category]["mean"], 4)) == (official["count"], official["avg"])
    assert (report["overall"]["n"], round(report["overall"]["mean"], 4)) == (2387, OFFICIAL["summary"]["overall_avg"])
    assert [rows[f"Cognitive: {r}"]["n"] for r in ("causal", "state", "goal", "value")] == [101, 100, 100, 100]


def test_score_writes_the_requests_and_reads_the_replies(locomo_plus_dir, tmp_path, capsys):
    predictions = tmp_path / "pred.jsonl"
    predictions.write_text(
        "".join(json.dumps({"question_id": r[0], "hypothesis": r[1]}) + "\n" for r in OFFICIAL["rows"])
    )
    prompts = tmp_path / "requests.jsonl"
    base = [
        "score",
        "locomo_plus",
        str(predictions),
        "--data-dir",
        str(locomo_plus_dir),
        "--cache-dir",
        str(tmp_path / "c"),
    ]
    assert main([*base, "--prompts", str(prompts)]) == 0
    requests = [json.loads(line) for line in prompts.read_text(encoding="utf-8").splitlines()]
    lines = [dict(r) for r in requests]
    assert {line.pop("rule") for line in lines} == {"locomo_plus"}  # the judge whose rule reads the reply (not sent)
    assert [line.pop("question_id") for line in lines] == [r[0] for r in OFFICIAL["rows"]]
    assert [_sha(line) for line in lines] == [r[2] for r in OFFICIAL["rows"]]
    replies = write_replies(
        tmp_path / "replies.jsonl",
        requests,
        lambda r: OFFICIAL["replies"][position[r["question_id"]] % len(OFFICIAL["replies"])],
    )
    capsys.readouterr()
    assert main([*base, "--labels", str(replies), "--out", str(tmp_path / "report.json")]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "locomo_plus: 2,387 questions scored"
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert round(report["overall"]["mean"], 4) == OFFICIAL["summary"]["overall_avg"]
    assert report["run"]["judge"]["template_sha256"] == LOCOMO_PLUS_JUDGE["template_sha256"]
    assert [s["name"] for s in report["run"]["sources"]] == [
        "data/locomo10.json",
        "data/locomo_plus.json",
    ]  # by their place in the layout
    assert all(s["is_pin"] for s in report["run"]["sources"])
    # a subset (--ids) reads the whole run's replies: the verdicts outside it are ignored, as its other predictions are
    (tmp_path / "ids.txt").write_text("".join(r[0] + "\n" for r in OFFICIAL["rows"][::50]))
    assert (
        main([*base, "--ids", str(tmp_path / "ids.txt"), "--labels", str(replies), "--out", str(tmp_path / "sub.json")])
        == 0
    )
    assert capsys.readouterr().out.splitlines()[0] == "locomo_plus: 48 questions scored"
    subset = json.loads((tmp_path / "sub.json").read_text(encoding="utf-8"))["per_question"]
    assert subset == {r[0]: report["per_question"][r[0]] for r in OFFICIAL["rows"][::50]}


def test_the_judge_by_name_asks_and_scores_as_the_official_route(locomo_plus_dir, tmp_path, capsys):
    """``--judge locomo_plus`` (the registry's entry, which reads each QA pair's Sample through its ``context``) sends
    the official requests byte for byte and scores the same replies to the official summary."""
    from himga.scoring import judge_named

    judge = judge_named("locomo_plus")
    assert judge.sha256 == LOCOMO_PLUS_JUDGE["template_sha256"] and judge.source["commit"] == OFFICIAL["commit"]
    predictions = tmp_path / "pred.jsonl"
    predictions.write_text(
        "".join(json.dumps({"question_id": r[0], "hypothesis": r[1]}) + "\n" for r in OFFICIAL["rows"])
    )
    base = [
        "score",
        "locomo_plus",
        str(predictions),
        "--judge",
        "locomo_plus",
        "--data-dir",
        str(locomo_plus_dir),
        "--cache-dir",
        str(tmp_path / "c"),
    ]
    assert main([*base, "--prompts", str(tmp_path / "requests.jsonl")]) == 0
    requests = [json.loads(line) for line in (tmp_path / "requests.jsonl").read_text(encoding="utf-8").splitlines()]
    lines = [dict(r) for r in requests]
    assert [(line.pop("question_id"), line.pop("judge"), line.pop("run")) for line in lines] == [
        (r[0], "locomo_plus", 1) for r in OFFICIAL["rows"]
    ]
    assert [_sha(line) for line in lines] == [r[2] for r in OFFICIAL["rows"]]
    replies = write_replies(
        tmp_path / "replies.jsonl",
        requests,
        lambda r: OFFICIAL["replies"][position[r["question_id"]] % len(OFFICIAL["replies"])],
    )
    assert main([*base, "--labels", str(replies), "--out", str(tmp_path / "report.json")]) == 0
    judged = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))  # one judge: its report itself
    assert (judged["scored"], round(judged["overall"]["mean"], 4)) == (2387, OFFICIAL["summary"]["overall_avg"])
    rows = {r["type"]: r for r in judged["per_type"]}
    for category, official in OFFICIAL["summary"]["by_category"].items():
        assert (rows[category]["n"], round(rows[category]["mean"], 4)) == (official["count"], official["avg"])
    assert [rows[f"Cognitive: {r}"]["n"] for r in ("causal", "state", "goal", "value")] == [101, 100, 100, 100]
    (tmp_path / "ids.txt").write_text(
        "".join(r[0] + "\n" for r in OFFICIAL["rows"][::50])
    )  # a subset: other verdicts ignored
    assert (
        main([*base, "--ids", str(tmp_path / "ids.txt"), "--labels", str(replies), "--out", str(tmp_path / "sub.json")])
        == 0
    )
    subset = json.loads((tmp_path / "sub.json").read_text(encoding="utf-8"))["per_question"]
    assert subset == {r[0]: judged["per_question"][r[0]] for r in OFFICIAL["rows"][::50]}
