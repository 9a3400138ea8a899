"""himga.qrels and `himga qrels`: TREC files on the real data, read back and scored by a real IR client
(ir-measures)."""

from __future__ import annotations

import json
import math
from collections import defaultdict

import ir_measures
import pytest
from ir_measures import RR, R, Success, nDCG

from himga.cli import main
from himga.data import EvidenceRef, Message, QAPair, QuestionType, Sample, Session, load_longmemeval
from himga.errors import ConfigurationError
from himga.qrels import documents, qrels, write_qrels, write_run

K = 20  # above the largest number of relevant ids of any query (LoCoMo turns: 19)


@pytest.fixture(scope="module")
def oracle_sample(shared_data, tmp_path_factory):
    path = shared_data / "longmemeval" / "longmemeval_oracle_sample.json"
    return load_longmemeval(path, config="oracle", cache_dir=tmp_path_factory.mktemp("lme_cache"))


def _tsv(path) -> list[list[str]]:
    return [line.rstrip("\n").split("\t") for line in path.read_text(encoding="utf-8").splitlines()]


def _candidates(folder, granularity) -> dict[str, list[str]]:
    out = defaultdict(list)
    for qid, doc in _tsv(folder / f"candidates.{granularity}.tsv"):
        out[qid].append(doc)
    return out


def _perfect(folder, granularity) -> dict[str, list[str]]:
    """Relevant ids first (in qrels order), then the other candidates."""
    relevant = defaultdict(list)
    for q in ir_measures.read_trec_qrels(str(folder / f"qrels.{granularity}.txt")):
        relevant[q.query_id].append(q.doc_id)
    return {
        qid: relevant[qid] + [d for d in docs if d not in relevant[qid]]
        for qid, docs in _candidates(folder, granularity).items()
    }


def _score(folder, granularity, run_file, measures):
    qrels_file = str(folder / f"qrels.{granularity}.txt")
    return ir_measures.calc_aggregate(
        measures, ir_measures.read_trec_qrels(qrels_file), ir_measures.read_trec_run(str(run_file))
    )


def test_longmemeval_files_and_perfect_run(oracle_sample, tmp_path):
    summary = write_qrels(oracle_sample, tmp_path)
    assert (summary.queries, summary.evaluable, len(summary.excluded), summary.dangling) == (97, 89, 8, [])
    assert summary.lines == {
        "queries.tsv": 97,
        "excluded.tsv": 8,
        "dangling.tsv": 0,
        "qrels.session.txt": 171,
        "candidates.session.tsv": 186,
        "qrels.turn.txt": 186,
        "candidates.turn.tsv": 1088,
    }
    assert [q for q, reason in _tsv(tmp_path / "excluded.tsv") if reason == "no has_answer user turn"] == [
        "71a3fd6b",
        "8464fc84",
        "488d3006",
        "16c90bf4",
        "58470ed2",
        "51b23612",
    ]
    lines = (tmp_path / "qrels.session.txt").read_text().splitlines()
    assert [line for line in lines if line.startswith("gpt4_f420262d ")] == [
        "gpt4_f420262d 0 answer_d8a1af6c_5 1",
        "gpt4_f420262d 0 answer_d8a1af6c_4 1",
    ]
    assert qrels(oracle_sample, "session")["gpt4_f420262d"] == {"answer_d8a1af6c_5": 1, "answer_d8a1af6c_4": 1}
    for granularity in ("session", "turn"):
        run = write_run(_perfect(tmp_path, granularity), tmp_path / f"perfect.{granularity}.run")
        scores = _score(tmp_path, granularity, run, [R @ K, nDCG @ K])
        assert scores == {R @ K: 1.0, nDCG @ K: 1.0}
        assert len({q.query_id for q in ir_measures.read_trec_qrels(str(tmp_path / f"qrels.{granularity}.txt"))}) == 89


def test_reversed_run_gives_the_hand_computed_values(oracle_sample, tmp_path):
    (sample,) = [s for s in oracle_sample if s.sample_id == "gpt4_f420262d"]
    write_qrels([sample], tmp_path)
    candidates = _candidates(tmp_path, "session")["gpt4_f420262d"]
    assert candidates == [
        "answer_d8a1af6c_1",
        "answer_d8a1af6c_2",
        "answer_d8a1af6c_5",
        "answer_d8a1af6c_4",
        "answer_d8a1af6c_3",
    ]
    run = write_run({"gpt4_f420262d": candidates[::-1]}, tmp_path / "reversed.run")  # relevant at ranks 3 and 2
    assert run.read_text().splitlines()[0] == "gpt4_f420262d Q0 answer_d8a1af6c_3 1 5 himga"
    scores = _score(tmp_path, "session", run, [R @ 1, R @ 2, R @ 3, RR, Success @ 2, nDCG @ 3])
    assert scores[R @ 1] == 0.0 and scores[R @ 2] == 0.5 and scores[R @ 3] == 1.0
    assert scores[RR] == 0.5 and scores[Success @ 2] == 1.0  # Success@k is LongMemEval's recall_any@k
    ndcg3 = (1 / math.log2(3) + 1 / math.log2(4)) / (1 + 1 / math.log2(3))  # gains at ranks 2, 3 over ideal ranks 1, 2
    assert scores[nDCG @ 3] == pytest.approx(ndcg3, abs=1e-4) and round(ndcg3, 4) == 0.6934


def test_locomo_files_perfect_and_reversed_runs(shared_data, locomo_samples, tmp_path, capsys):
    assert main(["qrels", "locomo", str(tmp_path), "--data-dir", str(shared_data / "locomo")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "locomo: 1986 queries, 1982 evaluable, 4 excluded (excluded.tsv)"
    assert out[-2:] == [
        "dangling: query conv-42:58 cites conv-42:D10:19, which is no turn of the conversation (kept as relevant)",
        "dangling: query conv-47:38 cites conv-47:D4:36, which is no turn of the conversation (kept as relevant)",
    ]
    assert _tsv(tmp_path / "excluded.tsv") == [
        ["conv-26:30", "no evidence"],
        ["conv-26:46", "no evidence"],
        ["conv-50:39", "no evidence"],
        ["conv-50:42", "no evidence"],
    ]
    assert _tsv(tmp_path / "queries.tsv")[0] == ["conv-26:0", "When did Caroline go to the LGBTQ support group?"]
    assert (tmp_path / "qrels.session.txt").read_text().splitlines()[0] == "conv-26:0 0 conv-26:S1 1"
    assert (tmp_path / "qrels.turn.txt").read_text().splitlines()[0] == "conv-26:0 0 conv-26:D1:3 1"
    candidates = _candidates(tmp_path, "turn")
    assert len(candidates) == 1986 and sum(map(len, candidates.values())) == 1194140
    assert all(len(set(docs)) == len(docs) for docs in candidates.values())
    # ids are unique across conversations: no turn id of one conversation is a candidate of another's query
    assert set(candidates["conv-26:0"]).isdisjoint(candidates["conv-30:0"])
    assert set(documents(locomo_samples[0], "turn")) == set(candidates["conv-26:0"])
    for granularity in ("session", "turn"):
        run = write_run(_perfect(tmp_path, granularity), tmp_path / "perfect.run")
        assert _score(tmp_path, granularity, run, [R @ K, nDCG @ K]) == {R @ K: 1.0, nDCG @ K: 1.0}
    # conv-26 "0": its one relevant turn D1:3 is candidate 3 of 419; reversed, it is at rank 417
    run = write_run({"conv-26:0": candidates["conv-26:0"][::-1]}, tmp_path / "reversed.run")
    scores = ir_measures.calc_aggregate(
        [RR, R @ 10, R @ 417], {"conv-26:0": {"conv-26:D1:3": 1}}, ir_measures.read_trec_run(str(run))
    )
    assert scores == {RR: pytest.approx(1 / 417), R @ 10: 0.0, R @ 417: 1.0}


def test_documents_are_the_official_corpus_text(oracle_sample):
    (sample,) = [s for s in oracle_sample if s.sample_id == "gpt4_f420262d"]
    docs = documents(sample, "session")
    first = sample.sessions[0]
    assert docs["answer_d8a1af6c_1"] == " ".join(m.content for m in first.messages if m.role == "user")
    assert list(documents(sample, "turn")) == sample.candidates("turn")
    assert documents(sample, "turn")["answer_d8a1af6c_1_3"] == first.messages[2].content


def _sample(qid: str) -> Sample:
    qa = QAPair(qid, "Where?", "a", QuestionType.SINGLE_SESSION_USER, EvidenceRef(session_ids=["answer_1"]))
    return Sample(
        qid, "longmemeval", [Session("answer_1", [Message("user", "at home", raw={"has_answer": True})])], [qa]
    )


def test_a_bad_id_writes_nothing(tmp_path):
    write_qrels([_sample("q1")], tmp_path)
    before = {p.name: p.read_text() for p in tmp_path.iterdir()}
    with pytest.raises(ConfigurationError, match="query id 'q 2': expected an id without whitespace, got 'q 2'"):
        write_qrels([_sample("q3"), _sample("q 2")], tmp_path)
    assert {p.name: p.read_text() for p in tmp_path.iterdir()} == before  # old files intact, no temporary files
    with pytest.raises(ConfigurationError, match="occurs twice"):
        write_qrels([_sample("q1"), _sample("q1")], tmp_path)


def test_write_run_format_and_errors(tmp_path):
    path = write_run({"q1": ["a", "b"], "q2": []}, tmp_path / "x.run", tag="bm25")
    assert path.read_text() == "q1 Q0 a 1 2 bm25\nq1 Q0 b 2 1 bm25\n"
    with pytest.raises(ConfigurationError, match="distinct doc ids"):
        write_run({"q1": ["a", "a"]}, tmp_path / "y.run")
    with pytest.raises(ConfigurationError, match="document id 'a b'"):
        write_run({"q1": ["a b"]}, tmp_path / "y.run")
    assert not (tmp_path / "y.run").exists()


def test_write_run_takes_scores_and_refuses_unordered_rankings(tmp_path):
    """Issue 16 §8: a {doc: score} mapping is ranked by score (ties by doc id descending, as trec_eval) and keeps its
    scores."""
    run = {"q1": {"b": 0.5, "a": 0.5, "c": 2}, "q2": (d for d in ["x", "y"])}  # a generator is a ranking too
    path = write_run(run, tmp_path / "scores.run")
    assert (
        path.read_text()
        == "q1 Q0 c 1 2 himga\nq1 Q0 b 2 0.5 himga\nq1 Q0 a 3 0.5 himga\nq2 Q0 x 1 2 himga\nq2 Q0 y 2 1 himga\n"
    )
    qrels_ = {"q1": {"a": 1}}
    from_file = ir_measures.calc_aggregate([RR], [ir_measures.Qrel("q1", "a", 1)], ir_measures.read_trec_run(str(path)))
    from_dict = ir_measures.calc_aggregate([RR], qrels_, {"q1": {"b": 0.5, "a": 0.5, "c": 2.0}})
    assert from_file[RR] == from_dict[RR] == 1 / 3  # 'a' at rank 3 in the file and for the evaluator
    for bad, message in [
        (
            {"q1": {"a", "b"}},
            "run for query 'q1': a set has no order; pass a list of doc ids best first, or a {doc id: score} mapping",
        ),
        ({"q1": {"a": "high"}}, "run for query 'q1': document 'a' has score 'high', expected a finite number"),
        ({"q1": {"a": float("nan")}}, "run for query 'q1': document 'a' has score nan, expected a finite number"),
        ({"q1": [1, 2]}, "cannot write TREC files: document id 1 is int, expected a string"),
        ({7: ["a"]}, "cannot write TREC files: query id 7 is int, expected a string"),
    ]:
        with pytest.raises(ConfigurationError) as info:
            write_run(bad, tmp_path / "bad.run")
        assert str(info.value) == message
    assert not (tmp_path / "bad.run").exists()


def test_qrels_record_their_gold_variant(shared_data, tmp_path, capsys):  # probe D6
    errata = shared_data / "locomo-audit" / "errors.json"
    if not errata.is_file():
        pytest.skip(f"real data not found at {errata}")
    source = ["--data-dir", str(shared_data / "locomo"), "--cache-dir", str(tmp_path / "c")]
    assert main(["qrels", "locomo", str(tmp_path / "published"), *source]) == 0
    assert (
        main(["qrels", "locomo", str(tmp_path / "audited"), *source, "--gold", "audited", "--errata", str(errata)]) == 0
    )
    out = capsys.readouterr().out.splitlines()
    errata_sha = "f298ef46263fada20688a1d672be37d4f488c6da3b19343eea55ae5c1b5fe55e"
    assert [line for line in out if "identity.json" in line] == [
        f"  {tmp_path / 'published'}/identity.json: gold published",
        f"  {tmp_path / 'audited'}/identity.json: gold audited (errors.json, sha256 {errata_sha})",
    ]
    sources = [{"file": "locomo10.json", "sha256": "79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4"}]
    assert json.loads((tmp_path / "audited" / "identity.json").read_text()) == {
        "dataset": "locomo",
        "config": "default",
        "options": {"errata": str(errata), "gold": "audited"},
        "sources": sources,
        "gold": {"variant": "audited", "errata": "errors.json", "errata_sha256": errata_sha},
    }
    assert json.loads((tmp_path / "published" / "identity.json").read_text()) == {
        "dataset": "locomo",
        "config": "default",
        "options": {},
        "sources": sources,
        "gold": {"variant": "published", "errata": None, "errata_sha256": None},
    }
    changed = {}  # the audited evidence changes the labels; TREC readers take the files as before
    for granularity in ("turn", "session"):
        by_query = {}
        for variant in ("published", "audited"):
            judged = defaultdict(set)
            for q in ir_measures.read_trec_qrels(str(tmp_path / variant / f"qrels.{granularity}.txt")):
                judged[q.query_id].add((q.doc_id, q.relevance))
            by_query[variant] = judged
        pub, aud = by_query["published"], by_query["audited"]
        changed[granularity] = (
            sum(map(len, pub.values())),
            sum(map(len, aud.values())),
            sum(pub.get(q) != aud.get(q) for q in {*pub, *aud}),
        )
    assert changed == {"turn": (2822, 2860, 94), "session": (2559, 2569, 30)}
    pytrec_eval = pytest.importorskip("pytrec_eval")
    with open(tmp_path / "audited" / "qrels.turn.txt", encoding="utf-8") as f:
        assert len(pytrec_eval.parse_qrel(f)) == 1981
