"""read_verdicts: judged-results documents (EverMemOS's, the probe's) by their locomo_<i>_qa<j> ids, checked
against the questions; JSON Lines of replies by judge and run."""

from __future__ import annotations

import json

import pytest

from himga.errors import SourceFormatError
from himga.scoring import judge_named, read_verdicts


@pytest.fixture(scope="module")
def questions(locomo_samples):
    from himga.scoring import questions_by_id

    return questions_by_id(locomo_samples)


def _document(entries) -> str:
    return json.dumps({"total_questions": len(entries), "detailed_results": {"locomo_exp_user_0": entries}}, indent=2)


def test_a_judged_results_document_maps_its_ids(questions, tmp_path):
    entries = [
        {
            "question_id": "locomo_0_qa1",
            "question": questions["conv-26:1"].question,
            "generated_answer": "2022",
            "llm_judgments": {"judgment_1": True, "judgment_2": False, "judgment_3": True},
        },
        {
            "question_id": "locomo_9_qa0",
            "question": questions["conv-50:0"].question,
            "generated_answer": "x",
            "llm_judgments": {"judgment_1": False, "judgment_2": False, "judgment_3": False},
        },
    ]
    (tmp_path / "eval_results.json").write_text(_document(entries))
    verdicts = read_verdicts(tmp_path / "eval_results.json", {"evermemos": judge_named("evermemos")}, questions)
    assert verdicts.scores == {
        "evermemos": {
            "conv-26:1": {1: {1: 1.0}, 2: {1: 0.0}, 3: {1: 1.0}},
            "conv-50:0": {1: {1: 0.0}, 2: {1: 0.0}, 3: {1: 0.0}},
        }
    }
    assert verdicts.hypotheses == {"conv-26:1": "2022", "conv-50:0": "x"}


def test_a_misaligned_id_or_run_is_an_error(questions, tmp_path):
    evermemos = {"evermemos": judge_named("evermemos")}
    path = tmp_path / "eval_results.json"
    path.write_text(
        _document([{"question_id": "locomo_0_qa1", "question": "What?", "llm_judgments": {"judgment_1": True}}])
    )
    with pytest.raises(
        SourceFormatError,
        match=r"eval_results.json: \$.detailed_results.locomo_exp_user_0\[0\].question: "
        r"locomo_0_qa1 is conv-26:1, whose question is 'When did Melanie paint a sunrise\?', not 'What\?'",
    ):
        read_verdicts(path, evermemos, questions)
    path.write_text(_document([{"question_id": "locomo_0_qa1", "llm_judgments": {"judgment_4": True}}]))
    with pytest.raises(SourceFormatError, match=r"llm_judgments.judgment_4: expected judgment_1 to judgment_3"):
        read_verdicts(path, evermemos, questions)
    path.write_text(_document([{"question_id": "locomo_10_qa0", "llm_judgments": {"judgment_1": True}}]))
    with pytest.raises(SourceFormatError, match=r"question_id: 'locomo_10_qa0' names no question of the dataset"):
        read_verdicts(path, evermemos, questions)


def test_replies_by_judge_and_run(questions, tmp_path):
    lines = [
        {"question_id": "conv-26:0", "judge": "memos", "run": r, "reply": f'{{"label": "{x}"}}', "model": "m"}
        for r, x in ((1, "CORRECT"), (2, "WRONG"), (3, " correct"))
    ]
    lines.append({"question_id": "conv-26:0", "judge": "mem0", "reply": "not read: another judge's"})
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    verdicts = read_verdicts(path, {"memos": judge_named("memos")}, questions)
    assert verdicts.scores == {"memos": {"conv-26:0": {1: {1: 1.0}, 2: {1: 0.0}, 3: {1: 1.0}}}} and verdicts.models == {
        "memos": {"m"}
    }
    path.write_text(path.read_text() + json.dumps(lines[0]) + "\n")
    with pytest.raises(SourceFormatError, match="r.jsonl: line 5: a second verdict of judge memos on conv-26:0 run 1"):
        read_verdicts(path, {"memos": judge_named("memos")}, questions)
    path.write_text(json.dumps({**lines[0], "judge": "gpt-judge"}) + "\n")
    with pytest.raises(SourceFormatError, match=r"r.jsonl: line 1.judge: expected one of memos, got 'gpt-judge'"):
        read_verdicts(path, {"memos": judge_named("memos")}, questions)
