"""The answer prompts by name against the benchmarks' own code: fixtures made by running it (``tests/fixtures/run/``,
``README.md`` there says how), compared byte for byte."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from helpers.chat_server import ChatServer

from himga.data import load_dataset
from himga.memory import FullContext, MemoryMessage, Retrieved
from himga.run import run
from himga.run.prompts import AnswerInput, answer_prompt_named, answer_prompts, default_answer_prompt
from himga.schema.view import system_view

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "run"
VARIANTS = {
    "longmemeval": "cot_json",
    "longmemeval-nl": "cot_nl",
    "longmemeval-direct": "nocot_json",
    "longmemeval-direct-nl": "nocot_nl",
}


def _fixture(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.fixture(scope="module")
def lme_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("lme-cache")


@pytest.mark.parametrize("name", list(VARIANTS))
def test_longmemeval_requests_equal_the_official_prepare_prompt_for_all_97_oracle_questions(
    name, shared_data, lme_cache, tmp_path
):
    """``himga run`` with ``full-context`` on the oracle sample sends what ``run_generation.main`` sends: the prompt
    and the request (model, messages, n, temperature, max_tokens), hashed as the fixture hashed the official kwargs."""
    expected = _fixture("longmemeval-prompts.json")
    variant = VARIANTS[name]
    sent = {}

    def respond(body):
        kwargs = {k: body[k] for k in ("model", "messages", "n", "temperature", "max_tokens")}
        digest = _sha(json.dumps(kwargs, ensure_ascii=False))
        sent[digest] = body["messages"][0]["content"]
        return digest

    with ChatServer(respond=respond) as server:
        manifest = run(
            "longmemeval",
            memory="full-context",
            answer_model="gpt-4o-2024-08-06",
            answer_prompt=name,
            base_url=server.base_url,
            out=tmp_path / "r",
            config="oracle",
            data_dir=shared_data / "longmemeval" / "longmemeval_oracle_sample.json",
            cache_dir=lme_cache,
            progress=False,
        )
    records = [json.loads(line) for line in (tmp_path / "r" / "records.jsonl").read_text().splitlines()]
    got = {r["question_id"]: r["response"] for r in records}
    want = {qid: q[variant]["request_sha256"] for qid, q in expected["questions"].items()}
    assert len(got) == 97 and got == want
    assert manifest["answer_prompt"]["name"] == name and manifest["reference"] is False
    for qid in ("gpt4_78cf46a3", "7e974930"):  # a haystack whose dates are not sorted; the file's first
        assert sent[want[qid]] == expected["questions"][qid][variant]["prompt"]


def test_longmemeval_is_the_default_prompt_of_longmemeval_and_its_json_history_escapes_non_ascii():
    assert default_answer_prompt("longmemeval").name == "longmemeval"
    items = [Retrieved("café", "S1:1", date_str="2023/05/20 (Sat) 02:21", role="user")]
    json_prompt = answer_prompt_named("longmemeval").render(AnswerInput("q?", "2023/05/21 (Sun) 10:00", items))
    nl_prompt = answer_prompt_named("longmemeval-nl").render(AnswerInput("q?", "2023/05/21 (Sun) 10:00", items))
    assert '[{"role": "user", "content": "caf\\u00e9"}]' in json_prompt[0]["content"]
    assert "\n\nuser: café\n" in nl_prompt[0]["content"]


@pytest.fixture(scope="module")
def conv26(shared_data, tmp_path_factory):
    """conv-26's Sample, its system view and the full-context memory's items (every message, in order)."""
    sample = load_dataset("locomo", data_dir=shared_data / "locomo", cache_dir=tmp_path_factory.mktemp("c"))[0]
    view = system_view(sample)
    memory = FullContext()
    memory.reset()
    for session in view.sessions:
        for m in session.messages:
            memory.ingest(MemoryMessage(m.role, m.content, m.turn_id, m.date_str, session.session_id))
    return sample, view, memory.retrieve("")


def _locomo_input(sample, view, items, index: int, gold: dict, model: str = "gpt-4-turbo") -> AnswerInput:
    question = view.questions[index]
    speakers = (view.speaker_a, view.speaker_b)
    return AnswerInput(question.question, None, items, None, model, speakers, gold)


def test_locomo_requests_equal_the_official_gpt_utils_for_all_199_questions_of_conv_26(conv26):
    """``get_gpt_answers`` with ``--model gpt-4-turbo --batch-size 1``: context, question, role and parameters; the
    category-5 options in the order the official run drew them."""
    sample, view, items = conv26
    expected = _fixture("locomo-conv26-prompts.json")
    prompt = answer_prompt_named("locomo")
    assert len(expected["requests"]) == len(sample.qa_pairs) == 199
    for request in expected["requests"]:
        i = request["qa_index"]
        gold = dict(prompt.gold(sample.qa_pairs[i]))
        order = expected["questions"][i].get("option_order")
        if order:
            shown = expected["questions"][i]["option_text_from_answer_key"]
            gold["options"] = tuple(shown if order[k] == "qa['answer']" else order[k] for k in ("a", "b"))
        (message,) = prompt.render(_locomo_input(sample, view, items, i, gold))
        assert message["content"] == expected["context"] + request["question_part"], i
        assert _sha(message["content"]) == request["query_sha256"]
        assert message["role"] == request["message_role"] == "user"
        assert {**prompt.parameters, "model": "gpt-4-turbo"} == request["request_params"]
    assert expected["gpt-3.5-turbo-16k__batch1"]["message_role"] == "system"
    (message,) = prompt.render(_locomo_input(sample, view, items, 0, prompt.gold(sample.qa_pairs[0]), "gpt-3.5-turbo"))
    assert message["role"] == "system"


def test_locomo_reads_gold_and_locomo_no_gold_does_not(conv26):
    """The official prompt shows category 5's adversarial answer beside the abstention, in a seeded order; the
    correction asks every question plainly."""
    sample, view, items = conv26
    prompt, plain = answer_prompt_named("locomo"), answer_prompt_named("locomo-no-gold")
    assert (prompt.reads_gold, plain.reads_gold, default_answer_prompt("locomo").name) == (True, False, "locomo")
    golds = [prompt.gold(qa) for qa in sample.qa_pairs]
    cat5 = [g["options"] for g in golds if g["category"] == 5]
    assert len(cat5) == 47 and sum(o[0] == "Not mentioned in the conversation" for o in cat5) == 17
    assert golds == [prompt.gold(qa) for qa in sample.qa_pairs]  # the same order every time
    i = next(n for n, g in enumerate(golds) if g["category"] == 5)
    shown = prompt.render(_locomo_input(sample, view, items, i, golds[i]))[0]["content"]
    asked = plain.render(_locomo_input(sample, view, items, i, None))[0]["content"]
    assert "Select the correct answer: (a) " in shown and "self-care is important" in shown
    assert asked.endswith(f"Question: {view.questions[i].question} Short answer:\n")
    assert "self-care is important" not in asked


def test_a_run_whose_prompt_reads_gold_is_a_reference_and_says_so(shared_data, tmp_path):
    with ChatServer(default="Not mentioned in the conversation") as server:
        manifest = run(
            "locomo",
            memory="recency",
            answer_model="m",
            base_url=server.base_url,
            out=tmp_path / "r",
            limit=3,
            data_dir=shared_data / "locomo",
            cache_dir=tmp_path / "c",
            progress=False,
        )
    assert manifest["answer_prompt"]["name"] == "locomo"
    assert (manifest["answer_prompt"]["reads_gold"], manifest["reference"]) == (True, True)
    hint = "Use DATE of CONVERSATION to answer with an approximate date."
    # conv-26:0 and :1 are temporal (category 2, the date hint), :2 open-domain; requests arrive in any order
    assert sorted(hint in body["messages"][0]["content"] for body in server.bodies) == [False, True, True]


def test_mem0_renders_the_official_request():
    """``MemorySearch.answer_question`` with two memories a speaker (the fixture's stub search)."""
    expected = _fixture("mem0-answer-prompt.json")
    prompt = answer_prompt_named("mem0")
    assert prompt.templates["system"] == expected["ANSWER_PROMPT"]
    results = expected["example_input"]["stub_search_results"]
    items = [
        Retrieved(m["memory"], None, date_str=m["metadata"]["timestamp"], role=user.split("_")[0])
        for user, memories in results.items()
        for m in memories
    ]
    question = expected["example_input"]["qa"]["question"]
    messages = prompt.render(AnswerInput(question, None, items, speakers=("Caroline", "Melanie")))
    assert messages == expected["example_request"]["messages"]
    assert {"model": "gpt-4o-mini", **prompt.parameters, "messages": messages} == expected["example_request"]


def test_the_locomo_audit_prompts_render_its_conv_26_context_but_for_the_captions_it_drops(conv26):
    """fc_eval's ``format_full_context`` of conv-26 line by line: the same but for the 39 captioned turns without an
    ``img_url``, whose captions the audit drops and the view cannot tell apart; the requests of its three questions."""
    sample, view, items = conv26
    expected = _fixture("locomo-audit-answer-prompts.json")
    prompt = answer_prompt_named("memos")
    rendered = prompt.render(AnswerInput("Q", None, items))[0]["content"]
    context = rendered.split("\n\nQuestion: Q")[0].split("time references.\n\n", 1)[1]
    want = expected["context_conv26"]
    assert (
        len(context.splitlines()) == len(want.splitlines()) == 456
    )  # 19 headers, 419 messages, 18 blank lines between sessions (the last ends the text)
    differ = [(a, b) for a, b in zip(context.splitlines(), want.splitlines(), strict=True) if a != b]
    assert len(differ) == 39
    for ours, theirs in differ:
        clock, said = theirs.split("] ", 1)
        speaker, text = said.split(": ", 1)
        assert ours.startswith(f"{clock}] {speaker}: [{speaker} shared an image: ") and ours.endswith(text)
    for name, run_name in (("memos", "gpt-4.1-mini-memos"), ("evermemos-cot", "gpt-4.1-mini-cot")):
        prompt = answer_prompt_named(name)
        for n, request in enumerate(expected["runs"][run_name]["answer_requests"]):
            (message,) = prompt.render(AnswerInput(view.questions[n].question, None, items))
            official = request["messages"][0]["content"].replace("<CONTEXT conv-26>", want)
            assert message["content"] == official.replace(want, context)
            assert request["request"] == {"model": "gpt-4.1-mini", **prompt.parameters}


@pytest.mark.parametrize(
    ("reply", "hypothesis"),
    [
        ("## STEP 7\n...\n## FINAL ANSWER:\n 7 May 2023 \n", "7 May 2023"),
        ("FINAL ANSWER: a FINAL ANSWER: b", "a"),
        ("  no marker  ", "no marker"),
    ],
)
def test_the_audit_prompts_score_the_text_after_final_answer(reply, hypothesis):
    assert answer_prompt_named("evermemos-cot").extract(reply) == hypothesis


def test_beam_prompts_are_the_repository_s_own():
    expected = _fixture("beam-answer-prompts.json")
    beam, rag = answer_prompt_named("beam"), answer_prompt_named("beam-rag")
    question = expected["long_context"]["example_question"]
    items = [Retrieved("hi", "S1:1", role="user"), Retrieved("hello", "S1:2", role="assistant")]
    assert beam.render(AnswerInput(question, None, items)) == [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "hello"},
        {"role": "user", "content": expected["long_context"]["example_final_user_turn"]},
    ]
    assert _sha(rag.templates["user"]) == expected["rag"]["sha256"]
    assert rag.render(AnswerInput(question, None, [])) == [
        {"role": "user", "content": expected["rag"]["example_with_empty_context"]}
    ]
    (message,) = rag.render(AnswerInput(question, None, items))
    assert "CONTEXT:\nUSER: hi \n\nASSISTANT: hello \n\n\n\nQUESTION:" in message["content"]
    assert default_answer_prompt("beam").name == "beam"


def test_every_prompt_names_its_source_and_the_plain_one_is_the_default_elsewhere():
    prompts = answer_prompts()
    assert list(prompts) == [
        "plain",
        "longmemeval",
        "longmemeval-direct",
        "longmemeval-nl",
        "longmemeval-direct-nl",
        "locomo",
        "locomo-no-gold",
        "mem0",
        "evermemos-cot",
        "memos",
        "beam",
        "beam-rag",
        "personamem",
        "personamem-o-series",
    ]
    for prompt in prompts.values():
        if prompt.name != "plain":
            assert len(prompt.source["commit"]) == 40 and "/" in prompt.source["repository"]
    assert default_answer_prompt("realtalk").name == "plain"
