"""The answer prompt ``personamem``: the request PersonaMem's official ``query_llm`` builds, for every question of the
32k split, compared with the official code's own requests (``tests/fixtures/personamem/personamem_requests.json``), as
rendered and as ``himga run personamem --memory full-context`` sends them to a local endpoint; then ``himga score``
on the run's records gives the official letter rule's accuracy per type."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

import pytest
from helpers.chat_server import ChatServer

from himga.cli import main
from himga.errors import ConfigurationError
from himga.memory import Retrieved
from himga.run import run
from himga.run.prompts import PERSONAMEM, PERSONAMEM_O_SERIES, AnswerInput, answer_prompt_named, default_answer_prompt
from himga.run.prompts._personamem import convert_role_system_to_user, merges_roles, merges_roles_o_series

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "personamem"


@pytest.fixture(scope="module")
def official():
    return json.loads((FIXTURES / "personamem_requests.json").read_text(encoding="utf-8"))


def _sha(messages: list[dict]) -> str:
    """The fixture's serialisation: ``json.dumps(messages, ensure_ascii=False)``, UTF-8, sha256."""
    return hashlib.sha256(json.dumps(messages, ensure_ascii=False).encode("utf-8")).hexdigest()


def _inputs(samples, model: str):
    """``(question id, AnswerInput)`` of every question, its history as full-context retrieves it (every message up to
    the position, with its role)."""
    for sample in samples:
        messages = [m for s in sample.sessions for m in s.messages]
        for qa in sample.qa_pairs:
            items = [Retrieved(m.content, m.turn_id, role=m.role) for m in messages[: qa.position]]
            yield qa.question_id, AnswerInput(qa.question, None, items, tuple(qa.options), model)


@pytest.mark.parametrize("model", ["gpt-4o-mini", "gemini-1.5-flash"])
def test_every_rendered_request_is_the_official_one(personamem_samples, official, model):
    expected = official["models"][model]["questions"]
    rendered = {qid: PERSONAMEM.render(inp) for qid, inp in _inputs(personamem_samples, model)}
    assert len(rendered) == len(expected) == 589
    assert {qid: _sha(m) for qid, m in rendered.items()} == {qid: q["messages_sha256"] for qid, q in expected.items()}
    for qid, full in official["models"][model]["full_requests"].items():  # 3 requests in full
        assert {"model": model, "messages": rendered[qid]} == full["request"]
    merged = sum(
        m[-1]["content"] != q["final_user_turn"] or q["final_turn_is_merged"]
        for m, q in zip(rendered.values(), expected.values())
    )
    assert merged == (400 if model == "gpt-4o-mini" else 0)
    assert sum(len(m) for m in rendered.values()) == sum(q["n_messages_sent"] for q in expected.values())


def test_the_variant_merges_for_o_series_models_only(personamem_samples, official):
    assert [merges_roles(m) for m in ("gpt-4o", "gpt-4o-mini", "gpt-3.5-turbo", "o1", "gpt-4.1-mini", None)] == [
        True, True, True, True, False, False,
    ]  # fmt: skip
    assert [merges_roles_o_series(m) for m in ("gpt-4o", "o1", "o1-mini", "o3-mini", "openai/o4-mini", "gpt-4")] == [
        False, True, True, True, True, False,
    ]  # fmt: skip
    qid, inp = next(_inputs(personamem_samples, "gpt-4o-mini"))
    unmerged = official["models"]["gemini-1.5-flash"]["questions"][qid]["messages_sha256"]
    assert _sha(PERSONAMEM_O_SERIES.render(inp)) == unmerged  # gpt-4o-mini keeps its system turns
    o1 = AnswerInput(inp.question, None, inp.items, inp.options, "o1-mini")
    assert PERSONAMEM_O_SERIES.render(o1) == PERSONAMEM.render(inp)  # o1-mini: merged, as the official code merges it
    assert (PERSONAMEM.parameters, PERSONAMEM_O_SERIES.parameters) == ({}, {})  # model and messages only
    assert default_answer_prompt("personamem") is PERSONAMEM and answer_prompt_named("personamem-o-series")
    assert PERSONAMEM.source["commit"] == "041d82ac6170d3e62c8f105d16df357dced48d73"


def test_the_merge_rule_on_its_own():
    turns = [
        {"role": "system", "content": "p1"},
        {"role": "system", "content": "p2"},
        {"role": "user", "content": "User: a"},
        {"role": "user", "content": "User: b"},
        {"role": "assistant", "content": "x"},
        {"role": "system", "content": "p3"},
        {"role": "assistant", "content": "y"},
    ]
    assert convert_role_system_to_user(turns) == [
        {"role": "user", "content": "[System]: p1\n[System]: p2\nUser: a\nUser: b"},
        {"role": "assistant", "content": "x\n[System]: p3\ny"},
    ]
    assert turns[2] == {"role": "user", "content": "User: a"}  # the input is not changed


def test_a_question_without_options_is_refused():
    with pytest.raises(ConfigurationError, match="the question has no options"):
        PERSONAMEM.render(AnswerInput("q?", None, [Retrieved("t", role="user")], None, "gpt-4o-mini"))


def test_himga_run_sends_the_official_requests_and_himga_score_reads_them(
    shared_data, personamem_samples, official, tmp_path, capsys
):
    """Every request of ``himga run personamem --memory full-context --answer-prompt personamem`` is the official one
    (the endpoint records the bodies); the canned replies are official ``extract_answer`` cases, so ``himga score``
    must give the accuracy the official function gave them."""
    cases = json.loads((FIXTURES / "personamem_extract_answer.json").read_text(encoding="utf-8"))["cases"]
    expected = official["models"]["gpt-4o-mini"]["questions"]
    qas = {qa.question_id: qa for s in personamem_samples for qa in s.qa_pairs}
    by_request: dict[str, list[str]] = {}
    for qid, q in sorted(expected.items()):
        by_request.setdefault(q["messages_sha256"], []).append(qid)
    assert sorted(map(len, by_request.values()))[-4:] == [1, 2, 2, 2]  # 3 questions repeated but for their id
    replies, correct = {}, {}
    for n, (sha, qids) in enumerate(by_request.items()):  # an official case whose gold is this question's
        usable = [c for c in cases if c["gold"] == qas[qids[0]].answer]
        case = usable[n % len(usable)] if usable else {"reply": "<final_answer>(e)", "returned": [False]}
        replies[sha] = case["reply"]
        correct.update(dict.fromkeys(qids, case["returned"][0]))
    out = tmp_path / "run"
    data = ["--data-dir", str(shared_data / "personamem"), "--cache-dir", str(tmp_path / "cache")]
    with ChatServer(respond=lambda body: replies[_sha(body["messages"])]) as server:
        argv = ["run", "personamem", "--memory", "full-context", "--answer-prompt", "personamem"]
        argv += ["--answer-model", "gpt-4o-mini", "--base-url", server.base_url, "--concurrency", "4"]
        assert main([*argv, *data, "--out", str(out), "--no-progress"]) == 0
    sent = [_sha(body["messages"]) for body in server.bodies]
    assert len(sent) == 589 and {b["model"] for b in server.bodies} == {"gpt-4o-mini"}
    assert sorted(sent) == sorted(q["messages_sha256"] for q in expected.values())
    assert all(set(body) <= {"model", "messages", "stream"} for body in server.bodies)  # no sampling parameter
    report = tmp_path / "report.json"
    assert main(["score", "personamem", str(out / "records.jsonl"), *data, "--out", str(report)]) == 0
    scored = json.loads(report.read_text(encoding="utf-8"))
    assert scored["per_question"] == {qid: float(c) for qid, c in correct.items()}
    by_type = {t: [float(correct[q]) for q, qa in qas.items() if qa.question_type == t] for t in PERSONAMEM_TYPES}
    assert [(r["type"], r["n"], r["mean"]) for r in scored["per_type"]] == [
        (t, len(v), sum(v) / len(v)) for t, v in by_type.items()
    ]
    assert scored["overall"]["mean"] == sum(correct.values()) / 589
    assert "recalling_the_reasons_behind_previous_updates" in capsys.readouterr().out


PERSONAMEM_TYPES = (
    "recall_user_shared_facts",
    "provide_preference_aligned_recommendations",
    "suggest_new_ideas",
    "recalling_the_reasons_behind_previous_updates",
    "track_full_preference_evolution",
    "generalizing_to_new_scenarios",
    "recalling_facts_mentioned_by_the_user",
)


def test_the_runner_never_shows_a_turn_after_the_position(shared_data, tmp_path):
    """What a memory holds when it is asked a question is exactly the shared context up to the question's end index:
    the runner ingests up to each position, asks, goes on (``questions_32k.csv`` and the contexts file read here
    directly)."""
    import csv

    from himga.memory import BaseMemory

    folder = shared_data / "personamem"
    contexts = {}
    for line in (folder / "shared_contexts_32k.jsonl").read_text(encoding="utf-8").splitlines():
        ((cid, turns),) = json.loads(line).items()
        contexts[cid] = [t["content"] for t in turns]
    with open(folder / "questions_32k.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    seen = []

    class Spy(BaseMemory):
        def reset(self):
            self.messages = []

        def ingest(self, message):
            self.messages.append(message.content)

        def retrieve(self, query, k=10, now=None):
            seen.append((query, hashlib.sha256(json.dumps(self.messages).encode()).hexdigest(), now))
            return [Retrieved(self.messages[-1])]

    run(
        "personamem",
        memory=Spy,
        answer_model="extractive",
        out=tmp_path / "r",
        data_dir=folder,
        cache_dir=tmp_path / "c",
        progress=False,
    )
    expected = Counter(
        (
            r["user_question_or_message"],
            hashlib.sha256(
                json.dumps(contexts[r["shared_context_id"]][: int(r["end_index_in_shared_context"])]).encode()
            ).hexdigest(),
            None,  # no dates in this release: the retrieve's now is None
        )
        for r in rows
    )
    assert len(seen) == 589 and Counter(seen) == expected
