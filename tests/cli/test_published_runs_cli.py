"""``himga import``, ``himga score ... --verdicts`` and ``himga compare`` on the published runs: the headline
reproduced with what himga adds (official F1, leniency, audited gold), runs side by side with a PNG, and the errors
of each as one line."""

from __future__ import annotations

import hashlib
import json
import struct
from pathlib import Path

import pytest

from himga.cli import main

_FC = "dial481__locomo-audit/fc-baseline/results/"
_AMB = "vectorize-io__agent-memory-benchmark/outputs/locomo/cognee/rag/locomo10.json.gz"
_RESPONSES = "getzep__zep/benchmarks/locomo_eval/data/zep_locomo_responses.json"
_MEMPALACE = "MemPalace__mempalace/benchmarks/results_locomo_hybrid_session_top10_20260414_1649.json"


@pytest.fixture(scope="module")
def env(shared_data, tmp_path_factory):
    """Arguments every call shares (one build cache for the module)."""
    return ["--data-dir", str(shared_data / "locomo"), "--cache-dir", str(tmp_path_factory.mktemp("published_cache"))]


def _imported(published_runs, name, env, tmp_path, capsys) -> str:
    out = tmp_path / (name.rpartition("/")[2].split(".")[0] + ".jsonl")
    assert main(["import", str(published_runs / name), "--out", str(out), *env]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("wrote ")
    return str(out)


def test_import_then_the_headline_and_what_himga_adds(published_runs, shared_data, env, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(shared_data))  # the probe and the errata, found by name
    path = tmp_path / "fc.jsonl"
    assert (
        main(["import", str(published_runs / _FC / "gpt-4.1-mini-cot/eval_results.json"), "--out", str(path), *env])
        == 0
    )
    assert capsys.readouterr().out.splitlines()[1:4] == [
        "joined: 1,540 of 1,540 to LoCoMo questions by conversation and question text; ties resolved: 1 by category, "
        "22 by occurrence",
        "categories: integers, LoCoMo's for 1,540 of 1,540",
        "gold: copied in 1,540 records, 0 differ from LoCoMo's published; 11 category-3 answers whole, as the judges "
        "read them (the official F1 cuts them at ';')",
    ]
    report = tmp_path / "report.json"
    args = ["score", "locomo", str(path), "--verdicts", "--probe", "v2", "--gold", "audited", "--out", str(report)]
    assert main([*args, *env]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert (
        lines[0] == "locomo: the file's own verdicts (fc.jsonl, run 'locomo-audit fc gpt-4.1-mini-cot'), 3 per question"
    )
    assert lines[6:9] == [
        "overall                      1540  0.9262 [0.9133, 0.9391]  1540  0.2084 [0.2006, 0.2162] ",
        "overall_without_category_5   1540  0.9262 [0.9133, 0.9391]  1540  0.2084 [0.2006, 0.2162] ",
        "headline: 92.62% = the mean of 3 judge runs (1,426, 1,424, 1,429 of 1,540: 4,279/4,620); majority of 3: "
        "92.66% (1,427/1,540)",
    ]
    assert lines[9] == "denominator: the file's 1,540 questions: all 10 conversations, categories 1, 2, 3, 4"
    assert lines[10].startswith("published: 92.62% (dial481/locomo-audit@9493fb4b4af4256ed17a18e8fd0b3cfdeec29539 ")
    assert lines[10].endswith("fc-baseline/README.md): reproduced (92.62%)")
    assert lines[14:17] == [
        "leniency: judge evermemos (gpt-4o-mini) accepts 62.81% [60.43, 65.20] of the probe v2 wrong answers (the "
        "audit's recorded verdicts, ap-baseline/v2/ap_eval_results_scored.json)",
        "audited gold: the audit corrects the answer of 120 questions of the file's 1,540; the file's verdicts "
        "accept 66.67% of them",
        "audited gold: set aside, the headline is 94.81% over 1,420 questions (with them 92.62%); re-judge against "
        "the corrected answers: himga score locomo fc.jsonl --gold audited --judge NAME --prompts REQ.jsonl",
    ]
    saved = json.loads(report.read_text())
    assert saved["overall"]["counts"] == [1426, 1424, 1429] and saved["official_f1"]["overall"]["n"] == 1540
    assert (
        saved["leniency"]["runs"] == [970 / 1540, 962 / 1540, 970 / 1540] and len(saved["audited"]["corrected"]) == 120
    )
    assert saved["imported_run"]["judge"] == "evermemos" and saved["run"]["gold"]["variant"] == "audited"


def test_compare_the_audits_full_context_runs_with_a_plot(published_runs, env, tmp_path, capsys):
    runs = [str(published_runs / _FC / m / "eval_results.json") for m in ("gpt-4.1-mini-cot", "gpt-4o-mini-cot",
                                                                          "gpt-4.1-mini-memos")]  # fmt: skip
    png = tmp_path / "fc.png"
    assert main(["compare", *runs, "--plot", str(png), *env]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "locomo: 3 runs side by side, by their own verdicts (per run: n, mean, 95% interval)"
    assert lines[2] == (
        "single_hop                    841  0.9651 [0.9530, 0.9773]   841  0.8910 [0.8700, 0.9120]   841  0.8966 "
        "[0.8762, 0.9169] "
    )
    assert lines[6].startswith("overall                      1540  0.9262 [0.9133, 0.9391]  1540  0.7989 ")
    assert lines[8] == (
        "[1] locomo-audit fc gpt-4.1-mini-cot: eval_results.json (layout locomo-audit-eval, sha256 7fa10ba1d897), "
        "judge evermemos (gpt-4o-mini), 3 runs, answer model gpt-4.1-mini, gold published"
    )
    assert lines[11:] == ["comparable: the same questions, judge and gold", f"wrote {png}"]
    head = png.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", head[16:24]) == (1320, 660)


def test_compare_names_what_is_not_comparable(published_runs, env, capsys):
    runs = [_RESPONSES.replace("responses", "grades"), _AMB, "memodb-io__memobase/docs/experiments/locomo-benchmark/"
            "fixture/memobase/memobase_eval_0710_3000.json"]  # fmt: skip
    assert main(["compare", *(str(published_runs / r) for r in runs), *env]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].endswith("  n differs")
    assert lines[-2:] == [
        "not comparable: denominators differ: 1,540 questions [1] [3]; 152 questions (conv-26) [2]",
        "not comparable: judges differ: judge zep (gpt-4o-mini) [1]; judge cognee (amb)'s own (unregistered) "
        "(gemini-2.5-flash-lite) [2]; judge memobase's own (unregistered) (gpt-4o-mini) [3]",
    ]
    assert main(["compare", str(published_runs / _RESPONSES), *env]) == 2
    assert capsys.readouterr().err == (
        "himga: error: run 'zep responses' holds no verdicts (a himga run, or a file without them): compare with "
        "--score f1\n"
    )
    assert main(["compare", str(published_runs / _RESPONSES), "--score", "f1", *env]) == 0
    assert capsys.readouterr().out.splitlines()[6].startswith("overall                      1540  0.1866 [0.1784, ")


def test_an_amb_file_of_one_conversation_says_its_denominator(published_runs, env, tmp_path, capsys):
    path = _imported(published_runs, _AMB, env, tmp_path, capsys)
    assert main(["score", "locomo", path, "--verdicts", *env]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[8:10] == [
        "headline: 80.26% (122/152)",
        "denominator: the file's 152 questions: conversation conv-26 only, categories 1, 2, 3, 4",
    ]
    assert main(["score", "locomo", path, *env]) == 2  # the official score over LoCoMo: 1,834 questions missing
    assert capsys.readouterr().err.startswith(
        "himga: error: locomo10.jsonl: $: 1834 of 1986 question ids missing (--partial scores the given ones): "
        "conv-26:152, "
    )


def test_a_retrieval_run_gets_its_headline_and_himga_s_retrieval_table(published_runs, env, tmp_path, capsys):
    """MemPalace's R@10 (the mean of its own recall, over 1,986) beside recall@10 against the official relevance
    labels (1,982 questions with evidence; 1,980 agree with its own, two malformed references read otherwise)."""
    path = _imported(published_runs, _MEMPALACE, env, tmp_path, capsys)
    assert main(["score", "locomo", path, "--verdicts", *env, "--out", str(tmp_path / "r.json")]) == 0
    lines = capsys.readouterr().out.splitlines()
    headline = next(n for n, line in enumerate(lines) if line.startswith("headline: "))
    assert lines[headline] == "headline: 88.91%, the mean of the file's recall values"
    assert lines[headline + 2] == (
        "retrieval session  (1,982 questions)  recall@5 0.7826  nDCG@5 0.6690  recall_any@5 0.8340  recall_all@5 "
        "0.7371  recall@10 0.8887  nDCG@10 0.7064  recall_any@10 0.9263  recall_all@10 0.8466"
    )
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["retrieval"]["left_out"] == {"no evidence": 4}


def test_verdicts_errors(published_runs, env, tmp_path, capsys):
    responses = _imported(published_runs, _RESPONSES, env, tmp_path, capsys)
    assert main(["score", "locomo", responses, "--verdicts", *env]) == 2
    assert capsys.readouterr().err == (
        "himga: error: zep_locomo_responses.jsonl: line 1: no 'verdicts': --verdicts scores the file's own verdicts "
        "(himga import)\n"
    )
    amb = _imported(published_runs, _AMB, env, tmp_path, capsys)
    lines = open(amb, encoding="utf-8").read().splitlines()
    edited = json.loads(lines[1])
    edited["verdicts"] = ["yes"]
    (tmp_path / "edited.jsonl").write_text("\n".join([lines[0], json.dumps(edited), *lines[2:]]) + "\n")
    assert main(["score", "locomo", str(tmp_path / "edited.jsonl"), "--verdicts", *env]) == 2
    assert capsys.readouterr().err == (
        "himga: error: edited.jsonl: line 2.verdicts[0]: expected a verdict (a boolean, or a number in [0, 1]), "
        "got string\n"
    )
    assert main(["score", "locomo", amb, "--verdicts", "--judge", "mem0", "--labels", amb, *env]) == 2
    assert capsys.readouterr().err.startswith("himga: error: --verdicts scores the file's own verdicts; re-judging ")


def test_import_by_a_field_map(env, tmp_path, capsys):
    their = [{"c": 0, "question": "When did Caroline go to the LGBTQ support group?", "said": "7 May", "v": 1}]
    (tmp_path / "their.json").write_text(json.dumps(their))
    (tmp_path / "map.json").write_text(json.dumps({"records": "$", "conversation": "c", "question": "question",
                                                   "response": "said", "verdicts": "v"}))  # fmt: skip
    out = tmp_path / "theirs.jsonl"
    args = ["import", str(tmp_path / "their.json"), "--field-map", str(tmp_path / "map.json"), "--out", str(out)]
    assert main([*args, *env]) == 0
    assert (
        capsys.readouterr()
        .out.splitlines()[0]
        .startswith("their.json: layout fields (read by a field map), 1 record, sha256 ")
    )
    assert [json.loads(line)["question_id"] for line in out.read_text().splitlines()] == ["conv-26:0"]
    (tmp_path / "map.json").write_text(json.dumps({"records": "$", "question": "question", "said": "said"}))
    assert main([*args, *env]) == 2
    assert capsys.readouterr().err.startswith("himga: error: map.json: unknown key 'said': expected one of ")


def test_the_wording_of_two_refusals(published_runs, env, tmp_path, capsys):
    copy = tmp_path / "responses.json"
    copy.write_bytes((published_runs / _RESPONSES).read_bytes())
    assert main(["import", str(copy), "--out", str(copy), *env]) == 2
    assert capsys.readouterr().err == (
        f"himga: error: --out '{copy}' is the published run file '{copy}': refusing to overwrite an input\n"
    )
    run = tmp_path / "run.jsonl"
    run.write_text('{"question_id": "conv-26:0", "response": "x", "verdicts": []}\n')
    assert main(["score", "locomo", str(run), "--verdicts", "--partial", *env]) == 2
    assert capsys.readouterr().err == (
        "himga: error: run.jsonl: line 1.verdicts: expected a list of verdicts, got an empty array\n"
    )


def test_compare_names_the_copy_it_read_beside_the_published_file(published_runs, env, tmp_path, capsys):
    """Imported records read again name the file read and its sha256: an edited copy is told from the original."""
    grades = "getzep__zep/benchmarks/locomo_eval/data/zep_locomo_grades.json"
    original = _imported(published_runs, grades, env, tmp_path, capsys)
    lines = Path(original).read_text().splitlines()
    flipped = tmp_path / "flipped.jsonl"
    flipped.write_text("\n".join(line.replace('"verdicts": [true]', '"verdicts": [false]', 1) for line in lines) + "\n")
    assert main(["compare", original, str(flipped), *env]) == 0
    out = capsys.readouterr().out
    digests = [hashlib.sha256(Path(p).read_bytes()).hexdigest()[:12] for p in (original, flipped)]
    assert f"[1] zep: zep_locomo_grades.jsonl (sha256 {digests[0]}), imported from zep_locomo_grades.json (" in out
    assert f"[2] zep: flipped.jsonl (sha256 {digests[1]}), imported from zep_locomo_grades.json (" in out
    assert digests[0] != digests[1]
