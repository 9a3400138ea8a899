"""PersonaMem's letter rule: equal to the official ``Evaluation.extract_answer`` on every reply of the fixture made by
running it (``tests/fixtures/personamem/personamem_extract_answer.json``), and the accuracy table it gives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from himga.errors import ConfigurationError
from himga.scoring import PERSONAMEM_SCORER, format_table, personamem_score, score_samples, scorer
from himga.scoring.rules._personamem import extract_answer

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "personamem" / "personamem_extract_answer.json"


def test_every_official_reply_gives_the_official_value():
    fixture = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert fixture["_meta"]["commit"] == PERSONAMEM_SCORER.source["commit"]
    cases = fixture["cases"]
    assert len(cases) == 54
    assert [list(extract_answer(c["reply"], c["gold"])) for c in cases] == [c["returned"] for c in cases]
    assert [personamem_score(c["gold"], c["reply"]) for c in cases] == [float(c["returned"][0]) for c in cases]
    assert sum(c["returned"][0] for c in cases) == 38  # the fixture's mix: 38 correct, 16 not


def test_the_rule_s_corners():
    assert extract_answer("(c) <final_answer>", "(c)") == (True, "")  # the fallback reads the whole reply
    assert extract_answer("<final_answer>c because a user said so", "(c)")[0] is False  # the article "a" is a letter
    assert extract_answer("<final_answer>(c) and (d)", "(c)")[0] is False
    assert extract_answer("<FINAL_ANSWER>(c)", "(c)") == (True, "<FINAL_ANSWER>(c)")  # the tag is case-sensitive


def test_scores_per_type_in_the_file_s_order(personamem_samples):
    assert scorer("personamem") is PERSONAMEM_SCORER
    qas = {qa.question_id: qa for s in personamem_samples for qa in s.qa_pairs}
    predictions = {
        qid: f"<final_answer>{qa.answer}" if i % 2 else "<final_answer>(e)" for i, (qid, qa) in enumerate(qas.items())
    }
    report = score_samples("personamem", personamem_samples, predictions=predictions)
    assert [(r["type"], r["n"]) for r in report["per_type"]] == [
        ("recall_user_shared_facts", 129),
        ("provide_preference_aligned_recommendations", 55),
        ("suggest_new_ideas", 93),
        ("recalling_the_reasons_behind_previous_updates", 99),
        ("track_full_preference_evolution", 139),
        ("generalizing_to_new_scenarios", 57),
        ("recalling_facts_mentioned_by_the_user", 17),
    ]
    assert (report["overall"]["n"], report["overall"]["mean"]) == (589, 294 / 589)
    table = format_table(report)
    mean = report["per_type"][3]["mean"]
    assert f"\nrecalling_the_reasons_behind_previous_updates      99   {mean:.4f}  [" in table  # the column widened
    with pytest.raises(ConfigurationError, match="^personamem_score: reply: expected a string, got number$"):
        personamem_score("(c)", 3)
