"""Every registered judge renders the requests its source code sends and reads replies as that code reads them
(tests/fixtures/scoring/official-judges.json, made by running each source with its client pointed at a local
endpoint: make_judge_fixtures.py)."""

from __future__ import annotations

import hashlib
import json

import pytest
from helpers.scoring_fixtures import load_fixture

from himga.errors import ConfigurationError
from himga.scoring import UnreadableReply, judge_named, judges, judges_for

OFFICIAL = load_fixture("official-judges.json")
LOCOMO_JUDGES = ("mem0", "zep", "memos", "evermemos", "magma")

#: name -> (repository, path, commit, template sha256): the registry's pins.
PINS = {
    "longmemeval": (
        "xiaowu0162/LongMemEval",
        "src/evaluation/evaluate_qa.py",
        "9e0b455f4ef0e2ab8f2e582289761153549043fc",
        "4f4a89de21cca13d247ed5d482e70da54d99f54b14178fd6a4de664ef3b25f01",
    ),
    "mem0": (
        "mem0ai/mem0",
        "evaluation/metrics/llm_judge.py",
        "2352a44193bd0e36cd544fc5664cbee14e020bc2",
        "8674a40b356c88549440305a3435348b7dd4605ec216daa4fadde4bbe0ef756d",
    ),
    "zep": (
        "getzep/zep-papers",
        "kg_architecture_agent_memory/locomo_eval/zep_locomo_eval.py",
        "4b7f26cc76cca20743314ba9acb8c2cb6adc42f6",
        "7c164c376df803be6740677daa05940eacc66a99288d2ddd1a5eb36b143d7779",
    ),
    "memos": (
        "MemTensor/MemOS",
        "evaluation/scripts/locomo/locomo_eval.py",
        "be68e2fb5370866bd5e2b188bb3d22bd13b49e09",
        "1a500dbe3456eef6482a4298235dc7e816fba5f647dc46c05bc883fc961654e0",
    ),
    "evermemos": (
        "EverMind-AI/EverMemOS",
        "evaluation/config/prompts.yaml",
        "5180bac5673f4a58401adb6d7a05607aef17ee7f",
        "4a3c0dc4bdf6c9c1307710fd14062d3bb15e59d6f357657aa42c06cbaf5e0c9e",
    ),
    "beam": (
        "mohammadtavakoli78/BEAM",
        "src/evaluation/compute_metrics.py",
        "b2a3ee8ba12d68f83143dda191097dc3e028ddd3",
        "c0ccd6b1c9efb30d29cf8c1db79eca870333373257b5c6317fe1db522b9192f1",
    ),
    "beam-fixed": (
        "mohammadtavakoli78/BEAM",
        "src/evaluation/compute_metrics.py",
        "b2a3ee8ba12d68f83143dda191097dc3e028ddd3",
        "c0ccd6b1c9efb30d29cf8c1db79eca870333373257b5c6317fe1db522b9192f1",
    ),
    "locomo_plus": (
        "xjtuleeyf/Locomo-Plus",
        "evaluation_framework/task_eval/prompt.py",
        "059f4e3d38f7f1f96765e8e2cb7de3097551bffb",
        "f93f48ecd89daa90a7169c5614ca5411ea5376d834ebb6c13e14762f79d2366f",
    ),
    "magma": (
        "FredJiang0324/MAMGA",
        "memory/llm_judge.py",
        "11fd2a6ac8dd27abd32a3a3c6d93a8c13e01d4b4",
        "9e046360f2b68e6a467f2fbbe81bbd21fb759c7ea9085b60e5c7b6258b5311fd",
    ),
}


def _digest(body: dict) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


@pytest.fixture(scope="module")
def locomo_qas(locomo_samples):
    from himga.data import item_id

    return {item_id(s, qa): qa for s in locomo_samples for qa in s.qa_pairs}


def test_the_registry_pins_each_source():
    assert list(judges()) == ["longmemeval", "beam", "beam-fixed", *LOCOMO_JUDGES, "locomo_plus"]
    assert {
        n: (j.source["repository"], j.source["path"], j.source["commit"], j.sha256) for n, j in judges().items()
    } == PINS
    assert {n: OFFICIAL["commits"][n] for n in LOCOMO_JUDGES} == {n: PINS[n][2] for n in LOCOMO_JUDGES}
    assert [j.name for j in judges_for("locomo")] == list(LOCOMO_JUDGES)
    assert [j.name for j in judges_for("longmemeval")] == ["longmemeval"]
    assert [j.name for j in judges_for("beam")] == ["beam", "beam-fixed"]
    assert {n: j.runs for n, j in judges().items()} == {
        "longmemeval": 1,
        "beam": 1,
        "beam-fixed": 1,
        "mem0": 1,
        "zep": 1,
        "memos": 3,
        "evermemos": 3,
        "magma": 1,
        "locomo_plus": 1,
    }


def test_zep_keeps_its_typo_and_evermemos_equals_the_audit_copy(shared_data):
    import yaml

    assert "You williolw23 be given" in judge_named("zep").templates["user"]
    audit = yaml.safe_load((shared_data / "locomo-audit" / "evaluation" / "config" / "prompts.yaml").read_text())[
        "llm_judge"
    ]
    assert dict(judge_named("evermemos").templates) == {"system": audit["system_prompt"], "user": audit["user_prompt"]}


@pytest.mark.parametrize("name", LOCOMO_JUDGES)
def test_requests_equal_the_source_code(name, locomo_qas):
    judge = judge_named(name)
    rows = [r for r in OFFICIAL["rows"] if r[0] == name]
    assert len(rows) == 40
    assert [
        r for r in rows if _digest(judge.request_body(judge.prompt("locomo", locomo_qas[r[1]], r[2]))) != r[3]
    ] == []
    qid, hypothesis = OFFICIAL["questions"][1], OFFICIAL["hypotheses"][2]
    assert judge.request_body(judge.prompt("locomo", locomo_qas[qid], hypothesis)) == OFFICIAL["requests"][name]


@pytest.mark.parametrize("name", LOCOMO_JUDGES)
def test_replies_are_read_as_the_source_code_reads_them(name):
    judge = judge_named(name)
    got = []
    for reply, _ in OFFICIAL["labels"][name]:
        try:
            got.append([reply, {"score": judge.label.read(reply)}])
        except UnreadableReply:
            got.append([reply, "unreadable"])
    expected = [[reply, "unreadable" if "error" in out else out] for reply, out in OFFICIAL["labels"][name]]
    assert got == expected


def test_magma_scores_category_5_by_its_rule(locomo_qas):
    magma = judge_named("magma")
    rows = OFFICIAL["magma_category_5"]
    assert len(rows) == 27
    assert [[q, h, magma.rule_score("locomo", locomo_qas[q], h)] for q, h, _ in rows] == rows
    assert magma.prompt("locomo", locomo_qas["conv-26:0"], "x")[1]["content"].endswith(
        "One sentence explaining the score\n"
    )
    assert magma.rule_score("locomo", locomo_qas["conv-26:0"], "x") is None  # category 2: the model judges


def test_locomo_judges_leave_category_5_out(locomo_qas):
    adversarial = next(qa for qid, qa in locomo_qas.items() if qa.raw["category"] == 5)
    assert [judge_named(n).prompt("locomo", adversarial, "x") for n in LOCOMO_JUDGES[:4]] == [None] * 4


def test_unknown_judge_and_benchmark():
    with pytest.raises(
        ConfigurationError,
        match="unknown judge 'gpt': expected one of beam, beam-fixed, evermemos, locomo_plus, longmemeval, magma, "
        "mem0, memos, zep",
    ):
        judge_named("gpt")
    with pytest.raises(ConfigurationError, match="judge 'mem0' applies to locomo, not longmemeval"):
        judge_named("mem0").prompt("longmemeval", {}, "x")
