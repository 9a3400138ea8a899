"""The reference memories (``himga run --memory NAME``) end to end on LoCoMo and the LongMemEval oracle sample, with a
local endpoint (127.0.0.1, started here) answering and embedding; their retrieval scored against the official
relevance."""

from __future__ import annotations

import json
import statistics

import pytest
from helpers.chat_server import ChatServer

from himga.cli import main
from himga.data import load_dataset
from himga.memory import BM25, Embedding, FullContext, MemoryMessage, Oracle, reference_memories
from himga.run import run

MEMORIES = ["full-context", "oracle", "recency", "bm25", "embedding"]


@pytest.fixture(scope="module")
def sources(shared_data, tmp_path_factory):
    """Each benchmark's run arguments, one build cache shared by the module."""
    cache = tmp_path_factory.mktemp("cache")
    return {
        "locomo": {"data_dir": shared_data / "locomo", "cache_dir": cache},
        "longmemeval": {
            "config": "oracle",
            "data_dir": shared_data / "longmemeval" / "longmemeval_oracle_sample.json",
            "cache_dir": cache,
        },
    }


def _args(memory: str, server) -> dict:
    return (
        {"model": "hash-64", "base_url": server.base_url, "api_key_env": "HIMGA_TEST_KEY"}
        if memory == "embedding"
        else {}
    )


@pytest.mark.parametrize("memory", MEMORIES)
def test_each_reference_memory_runs_on_locomo_with_an_endpoint_and_is_scored(memory, sources, tmp_path, monkeypatch):
    """The official scores of the endpoint's canned answer (every category-5 question right, a little F1 elsewhere),
    retrieval at both levels, the manifest naming the memory and whether it read gold."""
    monkeypatch.setenv("HIMGA_TEST_KEY", "k")
    with ChatServer(default="Not mentioned in the conversation") as server:
        manifest = run(
            "locomo",
            memory=memory,
            memory_args=_args(memory, server),
            answer_model="m",
            answer_prompt="locomo-no-gold",
            base_url=server.base_url,
            out=tmp_path / "r",
            limit=199,  # conv-26
            progress=False,
            **sources["locomo"],
        )
    assert (manifest["completed"], manifest["answered"], len(server.bodies)) == (True, 199, 199)
    score = manifest["score"]
    assert (score["overall"]["n"], round(score["overall"]["mean"], 4)) == (199, 0.2423)  # the official F1
    adversarial = next(t for t in score["per_type"] if t["type"] == "adversarial")
    assert (adversarial["n"], adversarial["mean"]) == (47, 1.0)  # conv-26's category 5: right
    assert manifest["memory"]["name"] == memory and manifest["reference"] is (memory == "oracle")
    assert manifest["retrieval"]["turn"]["questions"] == manifest["retrieval"]["session"]["questions"] == 197
    assert manifest["retrieval"]["left_out"] == {"no evidence": 2}


@pytest.mark.parametrize("memory", MEMORIES)
def test_each_reference_memory_runs_on_the_longmemeval_oracle_sample(memory, sources, tmp_path, monkeypatch):
    """The run writes the official judge's 97 requests and scores retrieval over the 89 questions the official
    retrieval evaluation keeps (2 abstentions and 6 without a has_answer turn left out)."""
    monkeypatch.setenv("HIMGA_TEST_KEY", "k")
    with ChatServer(default="yes") as server:
        manifest = run(
            "longmemeval",
            memory=memory,
            memory_args=_args(memory, server),
            answer_model="m",
            base_url=server.base_url,
            out=tmp_path / "r",
            progress=False,
            **sources["longmemeval"],
        )
    assert (manifest["completed"], manifest["answered"]) == (True, 97)
    assert manifest["score"]["requests"] == 97
    assert manifest["retrieval"]["left_out"] == {"abstention": 2, "no has_answer user turn": 6}
    assert manifest["retrieval"]["session"]["questions"] == 89
    assert manifest["answer_prompt"]["name"] == "longmemeval"


def _labels(dataset: str, sources) -> list:
    samples = load_dataset(dataset, **sources[dataset])
    return [r for s in samples for q in s.qa_pairs if (r := s.relevance(q)).evaluable]


def test_the_oracle_retrieves_every_relevant_id_up_to_the_cut(sources, tmp_path):
    """Recall@k is the share of the relevant ids that fit in k: 1.0 for every question with at most k of them (a
    LoCoMo evidence turn that names no turn of the conversation, ``dangling``, cannot be retrieved)."""
    for dataset in ("locomo", "longmemeval"):
        for unit, granularity in (("session", "session"), ("turn", "turn")):
            manifest = run(
                dataset,
                memory="oracle",
                memory_args={"unit": unit},
                out=tmp_path / f"{dataset}-{unit}",
                progress=False,
                **sources[dataset],
            )
            table = manifest["retrieval"][granularity]
            labels = [
                (set(r.ids(granularity)), set(r.ids(granularity)) - set(r.dangling)) for r in _labels(dataset, sources)
            ]
            for k in (5, 10):
                bound = statistics.fmean(min(k, len(found)) / len(ids) for ids, found in labels)
                assert table[f"recall@{k}"] == pytest.approx(bound), (dataset, unit, k)
                assert table[f"recall_any@{k}"] == 1.0
            assert manifest["reference"] is True and manifest["memory"]["reads_gold"] is True
    assert sum(len(set(r.sessions)) > 10 for r in _labels("locomo", sources)) == 1


def test_the_readme_run_bm25_on_locomo_needs_no_endpoint_and_prints_its_table(sources, tmp_path, capsys):
    """``himga run locomo --memory bm25 --answer-model extractive``: the official scores and the retrieval table,
    session-level recall@10 pinned; ``himga score`` on its records reports the same retrieval."""
    argv = ["run", "locomo", "--memory", "bm25", "--answer-model", "extractive", "--out", str(tmp_path / "bm25")]
    argv += ["--data-dir", str(sources["locomo"]["data_dir"]), "--cache-dir", str(sources["locomo"]["cache_dir"])]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "locomo: 1,986 questions scored" in out
    assert "overall                       1986   0.0392" in out
    assert "retrieval session  (1,982 questions)  recall@5 0.7758  nDCG@5 0.6713" in out
    manifest = json.loads((tmp_path / "bm25" / "manifest.json").read_text())
    assert round(manifest["retrieval"]["session"]["recall@10"], 4) == 0.8484
    assert round(manifest["retrieval"]["turn"]["recall@10"], 4) == 0.4958
    assert manifest["memory"]["tokenizer"]["library"] == "bm25s" and manifest["reference"] is False
    records = str(tmp_path / "bm25" / "records.jsonl")
    source = ["--data-dir", str(sources["locomo"]["data_dir"]), "--cache-dir", str(sources["locomo"]["cache_dir"])]
    assert main(["score", "locomo", records, *source, "--out", str(tmp_path / "report.json")]) == 0
    rescored = capsys.readouterr().out
    assert [line for line in rescored.splitlines() if line.startswith("retrieval")] == [
        line for line in out.splitlines() if line.startswith("retrieval")
    ]
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["retrieval"] == manifest["retrieval"]


def test_bm25_by_session_ranks_sessions(sources, tmp_path):
    manifest = run("locomo", memory="bm25", memory_args={"unit": "session"}, out=tmp_path / "r", progress=False,
                   **sources["locomo"])  # fmt: skip
    assert round(manifest["retrieval"]["session"]["recall@10"], 4) == 0.9074
    records = [json.loads(line) for line in (tmp_path / "r" / "records.jsonl").read_text().splitlines()]
    assert all(r["retrieved_ids"] == [] and len(r["retrieved_sessions"]) <= 10 for r in records)
    assert "turn" not in manifest["retrieval"]  # nothing retrieved at that level: no row of zeros


def test_embeddings_are_requested_once_per_text_across_a_rerun(sources, tmp_path, monkeypatch):
    monkeypatch.setenv("HIMGA_TEST_KEY", "k")
    with ChatServer() as server:
        args = {**_args("embedding", server), "cache_dir": str(tmp_path / "embeddings")}
        for out in ("first", "second"):
            run("locomo", memory="embedding", memory_args=args, out=tmp_path / out, limit=60, progress=False,
                **sources["locomo"])  # fmt: skip
            if out == "first":
                first = dict(server.embedded)
    assert first == dict(server.embedded)  # the rerun embedded nothing
    assert set(first.values()) == {1} and len(first) == 419 + 60  # conv-26's messages, its first 60 questions


def test_full_context_cuts_the_oldest_messages_to_the_budget_and_records_the_cut(sources, tmp_path):
    manifest = run("locomo", memory="full-context", memory_args={"budget": 500}, out=tmp_path / "r", limit=2,
                   progress=False, **sources["locomo"])  # fmt: skip
    records = [json.loads(line) for line in (tmp_path / "r" / "records.jsonl").read_text().splitlines()]
    kept = records[0]["memory"]["kept_messages"]
    assert records[0]["memory"] == {"budget": 500, "cut_messages": 419 - kept, "kept_messages": kept}
    assert sum(len(r["text"].split()) for r in records[0]["retrieved"]) <= 500
    assert manifest["memory"]["args"] == {"budget": 500}


@pytest.mark.parametrize(
    ("cls", "kwargs", "message"),
    [
        (BM25, {"unit": "word"}, "unit: expected 'turn' or 'session', got 'word'"),
        (Oracle, {"unit": "word"}, "unit: expected 'turn' or 'session', got 'word'"),
        (FullContext, {"budget": 0}, "budget: expected a positive number of tokens (words), got 0"),
    ],
)
def test_bad_arguments_are_named(cls, kwargs, message):
    with pytest.raises(TypeError, match=message.replace("(", r"\(").replace(")", r"\)")):
        cls(**kwargs)


def test_the_five_reference_memories_are_registered_and_bm25_ranks_what_matches():
    assert list(reference_memories()) == ["recency", "full-context", "bm25", "embedding", "oracle"]
    assert Embedding.name == "embedding"
    memory = BM25()
    memory.reset()
    for n, text in enumerate(["I adopted a dog named Rex", "The weather is nice", "Rex loves the park"], 1):
        memory.ingest(MemoryMessage("A", text, f"S1:{n}", "d", "S1"))
    assert [r.id for r in memory.retrieve("Where does Rex go?", k=2)] == ["S1:3", "S1:1"]
    assert memory.retrieve("the", k=2) == []  # a stop word only: nothing matches
