"""BEAM's judge equals the official code (mohammadtavakoli78/BEAM@b2a3ee8 src/evaluation/compute_metrics.py): the
prompts byte for byte for every question of both tiers, the scores to the last digit on recorded replies
(tests/fixtures/scoring/official-beam-*.json, made by make_beam_fixtures.py), quirks included by default."""

from __future__ import annotations

import hashlib
import json

import pytest
from helpers.beam_cases import hypothesis, reply_for
from helpers.scoring_fixtures import load_fixture

from himga.data import EvidenceRef, QAPair, QuestionType
from himga.errors import ConfigurationError, SourceFormatError
from himga.scoring import BEAM_JUDGE, beam_judge_prompt, beam_parse_reply
from himga.scoring.judges.beam import _prompts as B
from himga.scoring.judges.beam import _score as S

PROMPTS = load_fixture("official-beam-judge-prompts.json")
SCORES = load_fixture("official-beam-scores.json")
REFERENCE = {
    "abstention": "ideal_response",
    "contradiction_resolution": "ideal_answer",
    "instruction_following": "expected_compliance",
    "preference_following": "expected_compliance",
    "summarization": "ideal_summary",
}


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _key(request: dict):
    """The stub's key of a request: a one-message prompt's text, else the messages (as the official code passes
    them)."""
    messages = request["messages"]
    return messages[0]["content"] if len(messages) == 1 else messages


@pytest.fixture(scope="module")
def questions(beam_tier):
    """(tier, chat, ability, index) → the himga QA pair (the sample id is ``<tier>-<chat>``)."""
    return {
        (
            tier,
            s.sample_id.removeprefix(f"{tier}-"),
            *qa.question_id.split(":")[:1],
            int(qa.question_id.split(":")[1]),
        ): qa
        for tier in ("100K", "500K")
        for s in beam_tier(tier)
        for qa in s.qa_pairs
    }


def test_the_judge_is_data_with_its_source():
    assert (
        BEAM_JUDGE["template_sha256"]
        == B.TEMPLATE_SHA256
        == PROMPTS["template_sha256"]
        == ("d349c9a8559bed9c14bfe2e624212225b09218ff864258a739229c15f4c8e869")
    )
    assert (BEAM_JUDGE["repository"], BEAM_JUDGE["commit"], BEAM_JUDGE["model"], BEAM_JUDGE["parameters"]) == (
        "mohammadtavakoli78/BEAM",
        "b2a3ee8ba12d68f83143dda191097dc3e028ddd3",
        "gpt-4.1-mini",
        {"temperature": 0},
    )
    assert list(BEAM_JUDGE["variants"]) == ["official", "fixed"] and BEAM_JUDGE["licence"] is None
    assert (
        B.TEMPLATE.count("<question>") == B.TEMPLATE.count("<rubric_item>") == B.TEMPLATE.count("<llm_response>") == 1
    )


def test_every_prompt_of_both_tiers_is_the_official_one(questions):
    assert len(PROMPTS["rows"]) == 1100 and len(questions) == 1100
    pairs = 0
    for tier, chat, ability, index, rubric_sha, official_pairs in PROMPTS["rows"]:
        qa = questions[(tier, chat, ability, index)]
        requests = B.judge_requests(f"{chat}:{qa.question_id}", qa, qa.answer)
        rubric = [r["messages"][0]["content"] for r in requests if "#rubric-" in r["request_id"]]
        assert _sha(json.dumps(rubric, ensure_ascii=False)) == rubric_sha, (tier, chat, ability, index)
        ours = {_sha(json.dumps(r["messages"], ensure_ascii=False)) for r in requests if "#same-" in r["request_id"]}
        assert set(official_pairs) <= ours
        pairs += len(official_pairs)
    assert pairs == 110  # one per event-ordering question (40 + 70): each reference is one line, matched at once


def test_the_quirk_and_its_fix():
    official = beam_judge_prompt("How long?", "state: 8 weeks", "4 weeks")
    assert "QUESTION (what the user asked): <question>" in official and "(what to check): state: 8 weeks" in official
    fixed = beam_judge_prompt("How long? <rubric_item>", "state: 8 weeks", "<question>", variant="fixed")
    assert "(what the user asked): How long? <rubric_item>\n" in fixed and "RESPONSE TO EVALUATE: <question>\n" in fixed
    # the official chain replaces a placeholder written in the rubric item too
    assert "RUBRIC CRITERION (what to check): see x" in beam_judge_prompt("q", "see <llm_response>", "x")
    with pytest.raises(ConfigurationError, match=r"^judge variant: expected one of official, fixed, got 'strict'$"):
        beam_judge_prompt("q", "r", "x", variant="strict")


def _case_replies(case: dict, requests: list[dict]) -> dict[str, str]:
    return {
        r["request_id"]: reply_for(_key(r), case["same_pool"] if "#same-" in r["request_id"] else case["pool"])
        for r in requests
    }


def test_scores_equal_the_official_code_to_the_last_digit(questions):
    cases = SCORES["cases"]
    assert len(cases) == 185 and len({c["ability"] for c in cases}) == 10
    compared = errors = 0
    for case in cases:
        qa = questions[(case["tier"], case["chat"], case["ability"], case["index"])]
        text = hypothesis(case["hypothesis"], qa.raw, qa.answer)
        item = f"{case['chat']}:{qa.question_id}"
        requests = B.judge_requests(item, qa, text)
        shas = {
            _sha(_key(r) if isinstance(_key(r), str) else json.dumps(_key(r), ensure_ascii=False)) for r in requests
        }
        assert set(case["asked"]) <= shas, case  # every request the official code sent, byte for byte
        replies = _case_replies(case, requests)
        if "error" in case["official"]:
            with pytest.raises(
                SourceFormatError, match=rf"^replies: {item}#rubric-0: the official scorer cannot read this reply \("
            ):
                S.score_replies(item, qa, text, replies, file="replies")
            errors += 1
            continue
        ours = S.score_replies(item, qa, text, replies)
        for key, value in case["official"].items():
            assert ours[key] == value, (case, key)
        assert (
            ours["score"] == case["official"]["tau_norm" if case["ability"] == "event_ordering" else "llm_judge_score"]
        )
        compared += 1
    assert (compared, errors) == (182, 3)


def test_partial_scores_count_zero_officially_and_half_when_fixed(questions):
    qa = questions[("100K", "1", "temporal_reasoning", 0)]
    requests = B.judge_requests("1:temporal_reasoning:0", qa, "x")
    half = {r["request_id"]: '{"score": 0.5}' for r in requests}
    assert S.score_replies("1:temporal_reasoning:0", qa, "x", half)["score"] == 0.0
    fixed = B.judge_requests("1:temporal_reasoning:0", qa, "x", "fixed")
    assert [r["request_id"] for r in fixed] == [
        "1:temporal_reasoning:0#fixed-rubric-0",
        "1:temporal_reasoning:0#fixed-rubric-1",
    ]
    assert "<question>" not in fixed[0]["messages"][0]["content"] and qa.question in fixed[0]["messages"][0]["content"]
    assert (
        S.score_replies("1:temporal_reasoning:0", qa, "x", {r["request_id"]: '{"score": 0.5}' for r in fixed}, "fixed")[
            "score"
        ]
        == 0.5
    )
    with pytest.raises(
        SourceFormatError, match=r"^replies: 1:temporal_reasoning:0#fixed-rubric-0: no reply to this judge request$"
    ):
        S.score_replies("1:temporal_reasoning:0", qa, "x", half, "fixed")  # replies to the official prompts


def test_reference_answers_with_full_score_replies_score_one(questions):
    for (_tier, chat, ability, _index), qa in questions.items():
        item = f"{chat}:{qa.question_id}"
        replies = {
            r["request_id"]: ('{"score": 1.0}' if "#rubric-" in r["request_id"] else "YES")
            for r in B.judge_requests(item, qa, qa.answer)
        }
        result = S.score_replies(item, qa, qa.answer, replies)
        assert result["llm_judge_score"] == 1.0
        if ability != "event_ordering":
            assert result["score"] == 1.0
    # event ordering's table score is the order's tau: 1.0 for the rubric's items in order, one a line
    qa = questions[("500K", "7", "event_ordering", 0)]
    lines = "\n".join(qa.raw["rubric"])
    replies = {
        r["request_id"]: ('{"score": 1.0}' if "#rubric-" in r["request_id"] else "YES")
        for r in B.judge_requests("7:event_ordering:0", qa, lines)
    }
    assert S.score_replies("7:event_ordering:0", qa, lines, replies)["score"] == 1.0


def test_reply_parsing_is_the_official_rule():
    assert beam_parse_reply('```json\n{"score": 1.0}\n```') == {"score": 1.0}
    assert beam_parse_reply('Sure: {"score": 0.5, "reason": "x"} done') == {"score": 0.5, "reason": "x"}
    assert beam_parse_reply("{'score': 1.0}") == {"score": 1.0}  # json_repair
    assert beam_parse_reply('[1, 2] and {"score": 0}') == [1, 2]  # the first {...} or [...], as the official regex


def test_errors_name_the_request(questions):
    qa = questions[("100K", "2", "summarization", 1)]
    with pytest.raises(
        SourceFormatError, match=r"^r.jsonl: 2:summarization:1#rubric-0: no reply to this judge request$"
    ):
        S.score_replies("2:summarization:1", qa, "x", {}, file="r.jsonl")
    empty = QAPair(
        "summarization:9", "q", "a", QuestionType.SUMMARIZATION, EvidenceRef(), {"question": "q", "rubric": []}
    )
    with pytest.raises(
        ConfigurationError, match=r"^2:summarization:9: the rubric is empty \(the official scorer divides"
    ):
        S.score_replies("2:summarization:9", empty, "x", {})
    with pytest.raises(ConfigurationError, match=r"^BEAM judge: expected a BEAM QAPair"):
        B.judge_requests("x", QAPair("0", "q", "a", QuestionType.TEMPORAL), "x")


def _one_reply(qa, item: str, score: str, variant: str = "official", **kw) -> dict:
    """``score_replies`` with ``{"score": <score>}`` on rubric item 0 and ``1.0`` on the others."""
    requests = B.judge_requests(item, qa, "x", variant)
    replies = {
        r["request_id"]: '{"score": %s}' % (score if r["request_id"].endswith("rubric-0") else "1.0") for r in requests
    }
    return S.score_replies(item, qa, "x", replies, variant, **kw)


@pytest.mark.parametrize("variant", ["official", "fixed"])
@pytest.mark.parametrize(
    ("score", "message"),
    [
        ("1e400", "the score inf is not a finite number (1e400 and larger parse as inf)"),
        ("-1e400", "the score -inf is not a finite number"),
        ("NaN", "the score nan is not a finite number"),
        ('"1e400"', None),  # a string: int() refuses it (the official error); float() makes it inf
        ("1" + "0" * 400, "the score is an integer of 1,329 bits, not a finite number in a double"),
        ("true", "the score is true, a boolean, not a number on the rubric's scale (1.0, 0.5 or 0.0)"),
        ("false", "the score is false, a boolean, not a number on the rubric's scale (1.0, 0.5 or 0.0)"),
    ],
)
def test_a_score_that_is_no_finite_number_or_a_boolean_is_an_error_naming_the_request(
    questions, variant, score, message
):
    qa = questions[("100K", "2", "summarization", 1)]
    rid = "2:summarization:1#" + ("fixed-" if variant == "fixed" else "") + "rubric-0"
    if message is None:
        message = (
            "the official scorer cannot read this reply (ValueError: invalid literal for int() with base 10: '1e400')"
            if variant == "official"
            else "the score '1e400' is not a finite number"
        )
    with pytest.raises(SourceFormatError) as e:
        _one_reply(qa, "2:summarization:1", score, variant, file="r.jsonl")
    assert str(e.value) == f"r.jsonl: {rid}: {message}"


def test_a_score_outside_the_scale_is_added_as_the_official_code_adds_it_and_counted(questions):
    qa = questions[("100K", "2", "summarization", 1)]
    assert len(qa.raw["rubric"]) == 4
    for score, official, fixed in (
        ("7", 10 / 4, 10 / 4),
        ("7.9", 10 / 4, 10.9 / 4),
        ("-1", 2 / 4, 2 / 4),
        ("-0.5", 3 / 4, 2.5 / 4),
        ('"7"', 10 / 4, 10 / 4),
    ):
        for variant, expected in (("official", official), ("fixed", fixed)):
            result = _one_reply(qa, "2:summarization:1", score, variant)
            assert (result["score"], result["outside_scale"]) == (expected, 1), (score, variant)
    assert _one_reply(qa, "2:summarization:1", "0.5")["outside_scale"] == 0


def test_the_walk_reaches_the_pairs_the_official_code_asked_in_its_order(questions):
    """On every recorded event-ordering case, the pairs ``reached`` walks to (the pairs himga judge sends) are the
    equivalence requests the official code sent, in its order, and no other."""
    walked = 0
    for case in SCORES["cases"]:
        if case["ability"] != "event_ordering" or "error" in case["official"]:
            continue
        qa = questions[(case["tier"], case["chat"], case["ability"], case["index"])]
        text = hypothesis(case["hypothesis"], qa.raw, qa.answer)
        item = f"{case['chat']}:{qa.question_id}"
        requests = {r["request_id"]: r for r in B.judge_requests(item, qa, text)}
        ids, complete = S.reached(item, qa, text, _case_replies(case, list(requests.values())))
        pairs = [_sha(json.dumps(requests[i]["messages"], ensure_ascii=False)) for i in ids if "#same-" in i]
        rubric = {_sha(r["messages"][0]["content"]) for r in requests.values() if "walk" not in r}
        assert complete and pairs == [sha for sha in case["asked"] if sha not in rubric], case
        walked += len(pairs)
    assert walked == 375


def test_a_reply_the_official_code_cannot_read_is_no_answer(questions):
    """What himga judge keeps out of the answers (``Judge.reply_problem``): a rubric item's reply as the official code
    reads it (``int`` of the score but in event ordering, ``float`` in the fixed variant), a pair's any text."""
    from himga.scoring import judge_named

    beam, fixed = judge_named("beam"), judge_named("beam-fixed")
    order = B.judge_requests("100K-1:event_ordering:0", questions[("100K", "1", "event_ordering", 0)], "a\nb")
    rubric, pair = order[0], next(r for r in order if "walk" in r)
    assert beam.reply_problem(rubric, '{"score": "0.5"}') is None and beam.reply_problem(pair, "NO") is None
    assert beam.reply_problem(pair, " ") == "an empty reply" and beam.reply_problem(pair, None) == "no content"
    assert beam.reply_problem(rubric, '{"verdict": 1}') == (
        "the official scorer cannot read this reply (ValueError: expected a JSON object with a 'score', got object)"
    )
    temporal = B.judge_requests("100K-1:temporal_reasoning:0", questions[("100K", "1", "temporal_reasoning", 0)], "x")
    assert beam.reply_problem(temporal[0], '{"score": "0.5"}') == (
        "the official scorer cannot read this reply (ValueError: invalid literal for int() with base 10: '0.5')"
    )
    assert fixed.reply_problem(temporal[0], '{"score": "0.5"}') is None
    assert beam.reply_problem(temporal[0], '{"score": 1e400}') == (
        "the score inf is not a finite number (1e400 and larger parse as inf)"
    )
