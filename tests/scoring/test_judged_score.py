"""``himga score --judge``: requests of named judges, their replies read by each judge's rule, judges side by side,
the audit's probe (its recorded verdicts give 62.81% and 10.61%, as score_ap.py computes them), and a run's report
carrying a probe's false-accept rates."""

from __future__ import annotations

import json

import pytest
from helpers.replies import replied
from helpers.scoring_fixtures import load_fixture

from himga.cli import main

PROBE = load_fixture("official-probe-scores.json")
METRICS = load_fixture("official-longmemeval-qa-metrics.json")
CATEGORY = {"1": "multi_hop", "2": "temporal", "3": "open_domain", "4": "single_hop"}


def _jsonl(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def env(shared_data, tmp_path_factory):
    """Arguments every LoCoMo call shares (one build cache for the module), the audit's folder found by name."""
    return ["--data-dir", str(shared_data / "locomo"), "--cache-dir", str(tmp_path_factory.mktemp("judged_cache"))]


@pytest.fixture
def audit_root(shared_data, monkeypatch):
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(shared_data))
    return shared_data / "locomo-audit" / "ap-baseline"


@pytest.mark.parametrize("version", ["v1", "v2"])
def test_the_probe_reproduces_the_audit_from_its_recorded_verdicts(version, audit_root, env, tmp_path, capsys):
    out = tmp_path / "probe.json"
    recorded = audit_root / version / "ap_eval_results_scored.json"
    assert (
        main(
            [
                "score",
                "locomo",
                "--probe",
                version,
                "--judge",
                "evermemos",
                "--labels",
                str(recorded),
                *env,
                "--out",
                str(out),
            ]
        )
        == 0
    )
    table = capsys.readouterr().out.splitlines()
    report, official = json.loads(out.read_text()), PROBE[version]
    assert report["overall"]["mean"] == official["mean"] and report["overall"]["runs"] == official["run_accs"]
    assert report["overall"]["std"] == official["std"] and report["scored"] == official["total"] == 1540
    assert {row["type"]: (row["mean"], row["runs"], row["n"]) for row in report["per_type"] if row["n"]} == {
        CATEGORY[c]: (v["mean"], v["run_accs"], v["total"]) for c, v in official["per_category"].items()
    }
    shown = {"v1": "0.1061", "v2": "0.6281"}[version]
    assert official["overall_line"].startswith(f"Overall: {float(shown) * 100:.2f}%")
    assert table[0] == "locomo: false-accept rate by judge evermemos (per judge: n, mean, 95% interval)"
    assert table[7].startswith(f"overall                      1540  {shown} [")
    assert report["probe"] == {
        "set": version,
        "file": f"ap-baseline/{version}/ap_eval_results_scored.json",
        "sha256": report["probe"]["sha256"],
        "is_pin": True,
        "pin": f"dial481/locomo-audit@9493fb4 ap-baseline/{version}/ap_eval_results_scored.json",
    }
    assert (
        report["not_judged"] == 446 and report["judge"]["template_sha256"] == report["run"]["judge"]["template_sha256"]
    )
    assert report["run"]["inputs"]["labels"]["sha256"] == report["probe"]["sha256"]


def _replies(requests: list[dict], reply_of) -> list[dict]:
    return [replied(r, reply_of(r), model="m-1") for r in requests]


def _requests(base: list[str], path) -> list[dict]:
    """The requests ``himga score ... --prompts`` writes for ``base`` (a score command without its output)."""
    assert main([*base, "--prompts", str(path)]) == 0
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture(scope="module")
def subset(locomo_samples, tmp_path_factory):
    """Predictions (the gold, and "Not mentioned" for every third) and an ids file of 40 questions, 8 of them category
    5."""
    from himga.data import item_id

    qas = [(item_id(s, qa), qa) for s in locomo_samples for qa in s.qa_pairs]
    chosen = [q for q in qas if q[1].raw["category"] != 5][:32] + [q for q in qas if q[1].raw["category"] == 5][:8]
    folder = tmp_path_factory.mktemp("subset")
    ids = folder / "ids.txt"
    ids.write_text("".join(qid + "\n" for qid, _ in chosen))
    wrong = {5: "She went to Paris"}  # category 5: a hallucinated answer (its gold is an abstention)
    hyp = _jsonl(
        folder / "hyp.jsonl",
        [
            {
                "question_id": qid,
                "hypothesis": "Not mentioned" if i % 3 == 0 else wrong.get(qa.raw["category"], str(qa.answer)),
            }
            for i, (qid, qa) in enumerate(chosen)
        ],
    )
    return ids, hyp, dict(chosen)


def test_two_judges_side_by_side(subset, env, tmp_path, capsys):
    ids, hyp, chosen = subset
    req, out = tmp_path / "req.jsonl", tmp_path / "report.json"
    base = ["score", "locomo", str(hyp), "--judge", "mem0,magma", "--ids", str(ids), *env]
    assert main([*base, "--prompts", str(req)]) == 0
    requests = [json.loads(line) for line in req.read_text().splitlines()]
    assert capsys.readouterr().out.startswith(f"wrote 64 judge requests (mem0 32, magma 32) to {req}")
    assert [r["model"] for r in requests] == ["gpt-4o-mini"] * 64 and {r["run"] for r in requests} == {1}

    def reply(r):  # mem0 accepts even questions, magma scores by the question's position
        i = list(chosen).index(r["question_id"])
        return (
            json.dumps({"label": "CORRECT" if i % 2 == 0 else "WRONG"})
            if r["judge"] == "mem0"
            else json.dumps({"score": (i % 5) / 4})
        )

    labels = _jsonl(tmp_path / "rep.jsonl", _replies(requests, reply))
    assert main([*base, "--labels", str(labels), "--out", str(out)]) == 0
    table = capsys.readouterr().out.splitlines()
    report = json.loads(out.read_text())
    mem0, magma = report["reports"]
    position = {qid: i for i, qid in enumerate(chosen)}
    assert report["per_question"]["mem0"] == {q: float(position[q] % 2 == 0) for q in list(chosen)[:32]}
    rule = {
        q: 1.0 if i % 3 == 0 else 0.0 for i, q in enumerate(chosen) if chosen[q].raw["category"] == 5
    }  # "Not mentioned"
    assert report["per_question"]["magma"] == {**{q: (position[q] % 5) / 4 for q in list(chosen)[:32]}, **rule}
    assert (mem0["scored"], mem0["not_judged"], magma["scored"], magma["not_judged"]) == (32, 8, 40, 0)
    assert table[1].split() == ["n", "mem0", "n", "magma"]
    assert table[6].split()[:2] == ["adversarial", "0"] and table[6].split()[3:5] == [
        "8",
        f"{sum(rule.values()) / 8:.4f}",
    ]
    assert [j["name"] for j in report["run"]["judge"]] == ["mem0", "magma"]
    assert mem0["judge"]["models_answered"] == ["m-1"] and mem0["judge"]["model_requested"] == "gpt-4o-mini"
    assert table[-3].startswith("judge magma: FredJiang0324/MAMGA@11fd2a6 memory/llm_judge.py")


def test_a_reply_the_judge_cannot_read_names_its_line(subset, env, tmp_path, capsys):
    ids, hyp, chosen = subset
    base = ["score", "locomo", str(hyp), "--judge", "mem0", "--ids", str(ids), *env]
    rows = _replies(_requests(base, tmp_path / "req.jsonl"), lambda r: '{"label": "CORRECT"}')
    capsys.readouterr()
    rows[4]["reply"] = "CORRECT"  # not JSON: mem0's evaluate_llm_judge raises
    assert main([*base, "--labels", str(_jsonl(tmp_path / "r.jsonl", rows))]) == 2
    assert capsys.readouterr().err == (
        "himga: error: r.jsonl: line 5.reply: judge mem0 cannot read this reply: "
        "json.loads(extract_json(reply))['label'] fails (JSONDecodeError)\n"
    )
    rows[4]["reply"] = '{"label": "WRONG"}'
    unnamed = [{k: v for k, v in r.items() if k != "judge"} for r in rows]
    assert main([*base, "--judge", "mem0,zep", "--labels", str(_jsonl(tmp_path / "r.jsonl", unnamed))]) == 2
    assert "r.jsonl: line 1: no 'judge': with 2 judges every verdict names its judge" in capsys.readouterr().err
    assert main([*base, "--labels", str(_jsonl(tmp_path / "r.jsonl", unnamed))]) == 2  # a benchmark route's replies
    assert capsys.readouterr().err.startswith(
        "himga: error: r.jsonl: line 1: a reply himga judge wrote for a request that named no judge (a benchmark's own "
        "route, himga score ... --prompts without --judge), not of judge mem0: "
    )
    assert main([*base, "--labels", str(_jsonl(tmp_path / "r.jsonl", rows[:30]))]) == 2
    assert "2 of 32 question ids missing (--partial scores the given ones)" in capsys.readouterr().err
    assert main([*base, "--labels", str(_jsonl(tmp_path / "r.jsonl", rows[:30])), "--partial"]) == 0
    assert capsys.readouterr().out.splitlines()[-2].endswith("30 scored, 2 missing, 8 not judged")
    other = [{**r, "judge": "zep"} if n == 3 else r for n, r in enumerate(rows)]  # another judge's line: not read
    assert main([*base, "--labels", str(_jsonl(tmp_path / "r.jsonl", other)), "--partial"]) == 0
    out = capsys.readouterr().out
    assert "31 scored, 1 missing, 8 not judged" in out
    assert "note: r.jsonl: not read: 1 line of judge zep (not named by --judge)\n" in out
    labels = _jsonl(tmp_path / "r.jsonl", [{**r, "judge": "mem0"} for r in rows])  # no line of judge evermemos
    for partial in ([], ["--partial"]):
        assert main([*base, "--judge", "mem0,evermemos", "--labels", str(labels), *partial]) == 2
        assert capsys.readouterr().err == (
            "himga: error: r.jsonl: $: no verdicts of judge evermemos in r.jsonl (on the 32 questions it asks about)\n"
        )


def test_judge_options_are_checked(env, longmemeval_file, tmp_path, capsys):
    hyp = _jsonl(tmp_path / "h.jsonl", [{"question_id": "conv-26:0", "hypothesis": "x"}])
    assert main(["score", "locomo", "--probe", "v2", "--labels", str(hyp), *env]) == 2
    assert (
        capsys.readouterr().err
        == "himga: error: --probe scores wrong answers with a judge: name it with --judge NAME\n"
    )
    assert main(["score", "longmemeval", str(hyp), "--judge", "mem0", "--labels", str(hyp)]) == 2
    assert capsys.readouterr().err == "himga: error: judge 'mem0' applies to locomo, not longmemeval\n"
    assert main(["score", "locomo", str(hyp), "--judge", "mem0", *env]) == 2
    assert "needs --prompts OUT.jsonl" in capsys.readouterr().err
    assert main(["score", "locomo", str(hyp), "--probe", "v1", "--judge", "mem0", "--labels", str(hyp), *env]) == 2
    assert (
        capsys.readouterr().err
        == "himga: error: --probe scores the probe's own answers: give no predictions file with it\n"
    )


def test_longmemeval_by_name_equals_the_official_route(longmemeval_file, tmp_path, capsys):
    hyp = _jsonl(
        tmp_path / "hyp.jsonl",
        [{"question_id": x["question_id"], "hypothesis": x["hypothesis"]} for x in METRICS["labels"]],
    )
    labels = _jsonl(tmp_path / "l.eval-results-gpt-4o", METRICS["labels"])
    base = [
        "score",
        "longmemeval",
        str(hyp),
        "--config",
        "oracle",
        "--data-dir",
        str(longmemeval_file),
        "--cache-dir",
        str(tmp_path / "c"),
        "--labels",
        str(labels),
    ]
    assert main([*base, "--out", str(tmp_path / "a.json")]) == 0
    assert main([*base, "--judge", "longmemeval", "--out", str(tmp_path / "b.json")]) == 0
    a, b = json.loads((tmp_path / "a.json").read_text()), json.loads((tmp_path / "b.json").read_text())
    assert b["per_type"] == a["per_type"] and b["overall"] == a["overall"] and b["task_averaged"] == a["task_averaged"]
    assert b["per_question"] == a["per_question"] and b["abstention"] == a["abstention"]
    assert b["judge"]["template_sha256"] == a["run"]["judge"]["template_sha256"]
    assert b["judge"]["models_answered"] == ["gpt-4o-2024-08-06"]
    capsys.readouterr()


def test_a_run_carries_the_judges_false_accept_rates(audit_root, subset, env, tmp_path, capsys):
    probe = tmp_path / "probe.json"
    assert (
        main(
            [
                "score",
                "locomo",
                "--probe",
                "v2",
                "--judge",
                "evermemos",
                "--labels",
                str(audit_root / "v2" / "ap_eval_results_scored.json"),
                *env,
                "--out",
                str(probe),
            ]
        )
        == 0
    )
    ids, hyp, chosen = subset
    base = ["score", "locomo", str(hyp), "--ids", str(ids), *env]
    replies = _replies(
        _requests([*base, "--judge", "evermemos"], tmp_path / "e.jsonl"), lambda r: '{"label": "CORRECT"}'
    )
    wrong = _replies(_requests([*base, "--judge", "mem0"], tmp_path / "m0.jsonl"), lambda r: '{"label": "WRONG"}')
    out = tmp_path / "run.json"
    capsys.readouterr()
    assert (
        main(
            [
                "score",
                "locomo",
                str(hyp),
                "--judge",
                "evermemos",
                "--ids",
                str(ids),
                *env,
                "--labels",
                str(_jsonl(tmp_path / "r.jsonl", replies)),
                "--probe-report",
                str(probe),
                "--out",
                str(out),
            ]
        )
        == 0
    )
    lines = capsys.readouterr().out.splitlines()
    report = json.loads(out.read_text())
    (rates,) = report["false_accept"]
    assert (
        rates["probe"] == "v2" and rates["overall"]["mean"] == PROBE["v2"]["mean"] and report["overall"]["mean"] == 1.0
    )
    assert rates["per_type"]["temporal"]["mean"] == PROBE["v2"]["per_category"]["2"]["mean"]
    assert any(
        line.startswith(
            "false-accept: judge evermemos (gpt-4o-mini) accepts 0.6281 [0.6043, 0.6520] of the probe v2 "
            "wrong answers (probe.json): single_hop 0.6853, multi_hop 0.4444, temporal 0.6324, open_domain 0.6528"
        )
        for line in lines
    )
    assert (
        main(
            [
                "score",
                "locomo",
                str(hyp),
                "--judge",
                "mem0",
                "--ids",
                str(ids),
                *env,
                "--labels",
                str(_jsonl(tmp_path / "m.jsonl", wrong)),
                "--probe-report",
                str(probe),
            ]
        )
        == 2
    )
    assert (
        capsys.readouterr().err == "himga: error: --probe-report probe.json: a probe of judge evermemos, not of mem0\n"
    )


def test_a_benchmark_adds_its_own_itemized_judge_by_registering_it(subset, env, tmp_path, monkeypatch, capsys):
    """A judge asking once per rubric item (as BEAM's does), defined beside a builder and registered there (one line,
    as LoCoMo-Plus registers its own): requests per item, replies read per item, one score per question from the
    items (its ``combine``)."""
    from himga.scoring import Judge, LabelRule, judge_named, register_judge
    from himga.scoring.judges import _registry

    def items(qa, hypothesis):
        return [[{"role": "user", "content": f"item {k}: {qa.question} / {hypothesis}"}] for k in (1, 2)]

    rubric = Judge(
        name="rubric",
        title="a per-item judge",
        source={
            "repository": "o/r",
            "path": "p.py",
            "commit": "0" * 40,
            "symbol": "f",
            "licence": "MIT",
            "confirmed": "test",
        },
        templates={"user": "item {k}: {q} / {h}"},
        label=LabelRule("json-score", "json score", "graded", lambda reply: json.loads(reply)["score"]),
        model="gpt-4.1-mini",
        parameters={"temperature": 0},
        benchmarks=("locomo",),
        messages=items,
        itemized=True,
        combine=lambda dataset, qa, hypothesis, values: sum(int(v) for v in values) / len(values),
    )
    monkeypatch.setattr(_registry.JUDGES, "_items", _registry.JUDGES.all())  # the registry as it was, after the test
    assert register_judge(rubric) is rubric
    assert judge_named("rubric") is rubric
    ids, hyp, chosen = subset
    req = tmp_path / "req.jsonl"
    base = ["score", "locomo", str(hyp), "--judge", "rubric", "--ids", str(ids), *env]
    assert main([*base, "--prompts", str(req)]) == 0
    requests = [json.loads(line) for line in req.read_text().splitlines()]
    assert len(requests) == 80 and [r["item"] for r in requests[:4]] == [1, 2, 1, 2]
    replies = _jsonl(
        tmp_path / "rep.jsonl", _replies(requests, lambda r: json.dumps({"score": 1 if r["item"] == 1 else 0.5}))
    )
    out = tmp_path / "report.json"
    assert main([*base, "--labels", str(replies), "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    assert set(report["per_question"].values()) == {0.5} and report["scored"] == 40  # int(0.5) counts 0: (1 + 0) / 2
    capsys.readouterr()
