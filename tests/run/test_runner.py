"""``himga run`` and :func:`himga.run.run` against a local OpenAI-compatible server (127.0.0.1, started by each test):
faults, resume after kill -9, refusals, shards, and what a memory is shown."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.chat_server import ChatServer

from himga.cli import main
from himga.errors import ConfigurationError, EndpointError
from himga.memory import BaseMemory, Retrieved
from himga.run import RunStopped, run

ROOT = Path(__file__).resolve().parents[2]


def _answer(body: dict) -> str:
    """The server's answer: the question's first word, read from the plain prompt (deterministic)."""
    question = body["messages"][-1]["content"].rsplit("Question: ", 1)[1]
    return question.split()[0]


class Spy(BaseMemory):
    """Keeps every message and remembers what it was given, for the tests below."""

    seen: list = []

    def reset(self):
        self.messages = []

    def ingest(self, message):
        self.messages.append(message)
        Spy.seen.append(("ingest", message))

    def retrieve(self, query, k=10, now=None):
        Spy.seen.append(("retrieve", query, k, now))
        return [Retrieved(m.content, m.turn_id, date_str=m.date_str) for m in self.messages[-k:]]


class Empty(BaseMemory):
    def reset(self):
        pass

    def ingest(self, message):
        pass

    def retrieve(self, query, k=10, now=None):
        return []


class Broken(Spy):
    def retrieve(self, query, k=10, now=None):
        return 42


class Raising(Spy):
    def ingest(self, message):
        raise RuntimeError("index is full")


def _records(out: Path) -> list[dict]:
    """The records of a run, in dataset order, without what varies between runs (latency)."""
    lines = [json.loads(line) for line in (out / "records.jsonl").read_text(encoding="utf-8").splitlines()]
    return sorted(({k: v for k, v in r.items() if k != "latency_ms"} for r in lines), key=lambda r: r["order"])


def _complete_lines(path: Path) -> int:
    """The lines of ``path`` that end in a newline (0 before it exists)."""
    return path.read_bytes().count(b"\n") if path.is_file() else 0


@pytest.fixture
def locomo(shared_data, tmp_path):
    return {"data_dir": shared_data / "locomo", "cache_dir": tmp_path / "cache"}


def test_a_run_answers_every_question_through_429_and_500_bursts(locomo, tmp_path):
    with ChatServer(respond=_answer, burst=[429, 500, 429, 500, 500]) as server:
        manifest = run(
            "locomo",
            memory="recency",
            answer_model="m",
            base_url=server.base_url,
            out=tmp_path / "r",
            limit=30,
            concurrency=4,
            max_retries=6,
            progress=False,
            **locomo,
        )
    records = _records(tmp_path / "r")
    assert (manifest["completed"], manifest["answered"], len(records)) == (True, 30, 30)
    assert records[0]["response"] == "When" and records[0]["question_id"] == "conv-26:0"
    assert manifest["answered_models"] == ["judge-model-2026-01-01"]
    assert (
        manifest["score"]["scored"] == 30 and manifest["endpoint"] == "127.0.0.1:" + server.base_url.split(":")[2][:-3]
    )


def test_kill_9_mid_run_then_resume_gives_the_records_of_an_uninterrupted_run(locomo, tmp_path):
    command = [
        sys.executable,
        "-m",
        "himga.cli",
        "run",
        "locomo",
        "--memory",
        "recency",
        "--answer-model",
        "m",
        "--limit",
        "40",
        "--concurrency",
        "2",
        "--no-progress",
        "--data-dir",
        str(locomo["data_dir"]),
        "--cache-dir",
        str(locomo["cache_dir"]),
    ]
    with ChatServer(respond=_answer) as server:
        main([*command[3:], "--base-url", server.base_url, "--out", str(tmp_path / "whole")])
    with ChatServer(respond=_answer, hold_after=15) as server:
        out = tmp_path / "killed"
        env = {**os.environ, "OPENAI_API_KEY": "sk-test-secret-0123"}
        process = subprocess.Popen(
            [*command, "--base-url", server.base_url, "--out", str(out)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(server.bodies) < 17:  # 15 answered, 2 held in flight
            time.sleep(0.05)
        records = out / "records.jsonl"
        while time.monotonic() < deadline and _complete_lines(records) < 15:  # the writer's lag, longer under load
            time.sleep(0.05)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        written = len(_records(out))
        server.release()
        assert written == 15  # the questions in flight are lost, no more
        assert main([*command[3:], "--base-url", server.base_url, "--out", str(out)]) == 0
    assert _records(out) == _records(tmp_path / "whole")
    assert "sk-test-secret" not in (out / "manifest.json").read_text() + (out / "records.jsonl").read_text()


def test_a_rerun_with_another_top_k_is_refused_naming_it(locomo, tmp_path):
    out = tmp_path / "r"
    run("locomo", memory="recency", answer_model="extractive", out=out, limit=5, progress=False, **locomo)
    with pytest.raises(ConfigurationError, match=r"holds a run whose top_k differs: 10 there, 5 now"):
        run("locomo", memory="recency", answer_model="extractive", out=out, limit=5, top_k=5, progress=False, **locomo)
    with pytest.raises(ConfigurationError, match=r"holds a run whose memory differs"):
        run("locomo", memory="full-context", answer_model="extractive", out=out, limit=5, progress=False, **locomo)


def test_a_401_stops_the_run_with_one_line_before_anything_is_ingested(locomo, tmp_path, capsys):
    Spy.seen = []
    with ChatServer(models_status=401) as server:
        with pytest.raises(EndpointError, match=r"refused the key \(401\)"):
            run(
                "locomo",
                memory=Spy,
                answer_model="m",
                base_url=server.base_url,
                out=tmp_path / "r",
                limit=3,
                progress=False,
                **locomo,
            )
    assert Spy.seen == []  # nothing ingested
    with ChatServer(respond=_answer, burst=[401] * 10) as server:  # the key is refused at the first answer
        with pytest.raises(RunStopped, match=r"^question conv-26:\d+: the answer model refused the request \(401: "):
            run(
                "locomo",
                memory="recency",
                answer_model="m",
                base_url=server.base_url,
                out=tmp_path / "s",
                limit=3,
                progress=False,
                **locomo,
            )
    status = main(
        [
            "run",
            "locomo",
            "--memory",
            "recency",
            "--answer-model",
            "m",
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--out",
            str(tmp_path / "t"),
            "--data-dir",
            str(locomo["data_dir"]),
        ]
    )
    assert (status, capsys.readouterr().err) == (
        2,
        "himga: error: cannot reach http://127.0.0.1:9/v1: connection refused\n",
    )


def test_a_memory_that_retrieves_nothing_stops_the_run(locomo, tmp_path):
    with pytest.raises(
        RunStopped,
        match=r"^no context retrieved for any of the 199 questions of sample conv-26: was "
        r"anything ingested\?",
    ):
        run("locomo", memory=Empty, answer_model="extractive", out=tmp_path / "r", progress=False, **locomo)
    manifest = run(
        "locomo",
        memory=Empty,
        answer_model="extractive",
        out=tmp_path / "s",
        limit=3,
        allow_empty_retrieval=True,
        progress=False,
        **locomo,
    )
    assert manifest["completed"] and [r["response"] for r in _records(tmp_path / "s")] == ["", "", ""]


def test_a_memory_that_raises_or_returns_no_items_is_named(locomo, tmp_path):
    with pytest.raises(
        RunStopped, match=r"^memory .*Raising: ingest\(\) raised on sample conv-26: RuntimeError: index"
    ):
        run("locomo", memory=Raising, answer_model="extractive", out=tmp_path / "r", limit=2, progress=False, **locomo)
    with pytest.raises(
        RunStopped,
        match=r"retrieve\(\) on sample conv-26 returned what is not items: expected a list of "
        r"Retrieved items, got number",
    ):
        run("locomo", memory=Broken, answer_model="extractive", out=tmp_path / "s", limit=2, progress=False, **locomo)


def test_shards_merged_equal_one_run(locomo, tmp_path, capsys):
    base = [
        "run",
        "locomo",
        "--memory",
        "recency",
        "--answer-model",
        "extractive",
        "--no-progress",
        "--data-dir",
        str(locomo["data_dir"]),
        "--cache-dir",
        str(locomo["cache_dir"]),
    ]
    assert main([*base, "--out", str(tmp_path / "one")]) == 0
    for i in range(3):
        assert main([*base, "--shard", f"{i}/3", "--out", str(tmp_path / f"s{i}")]) == 0
    sizes = [json.loads((tmp_path / f"s{i}" / "manifest.json").read_text())["answered"] for i in range(3)]
    assert sorted(sizes) == [633, 634, 719] and sum(sizes) == 1986  # whole samples, balanced by question count
    assert main(["run", "merge", *(str(tmp_path / f"s{i}") for i in range(3)), "--out", str(tmp_path / "m")]) == 0
    assert _records(tmp_path / "m") == _records(tmp_path / "one")
    assert main(["run", "merge", str(tmp_path / "s0"), str(tmp_path / "s1"), "--out", str(tmp_path / "n")]) == 2
    assert "expected each of 0/3 to 2/3 once" in capsys.readouterr().err


def test_a_memory_sees_dated_view_messages_and_the_question_date(shared_data, tmp_path):
    """LongMemEval's question date is the retrieve's ``now``, never today; every message is the view's, dated."""
    Spy.seen = []
    run(
        "longmemeval",
        memory=Spy,
        answer_model="extractive",
        out=tmp_path / "r",
        config="oracle",
        limit=3,
        data_dir=shared_data / "longmemeval" / "longmemeval_oracle_sample.json",
        cache_dir=tmp_path / "c",
        progress=False,
    )
    ingested = [m for kind, m, *_ in Spy.seen if kind == "ingest"]
    asked = [call for call in Spy.seen if call[0] == "retrieve"]
    source = json.loads((shared_data / "longmemeval" / "longmemeval_oracle_sample.json").read_text())
    assert [now for *_, now in asked] == [q["question_date"] for q in source[:3]]
    assert [k for _, _, k, _ in asked] == [10, 10, 10]
    assert all(m.date_str and m.turn_id.startswith("S") and m.session_id == m.turn_id.split(":")[0] for m in ingested)
    assert {type(m).__name__ for m in ingested} == {"MemoryMessage"}
    assert not any(hasattr(m, attr) for m in ingested for attr in ("raw", "has_answer", "evidence"))


class SeedMemory:
    """A memory written against the seed's three methods only: no base class, ``retrieve(question)``, a string back."""

    def reset(self):
        self.messages = []

    def ingest(self, msg):
        self.messages.append(msg.content)

    def retrieve(self, question):
        words = set(question.lower().split())
        return max(self.messages, key=lambda text: len(words & set(text.lower().split())), default="")


@pytest.mark.parametrize("dataset", ["locomo", "longmemeval", "beam"])
def test_the_seed_loop_runs_a_seed_memory_on_three_benchmarks(dataset, shared_data, beam_tier, tmp_path):
    if dataset == "beam":
        beam_tier("100K")  # the session's build, reused
        source = {"data_dir": shared_data / "beam", "config": "100K", "cache_dir": beam_tier.cache["100K"]}
    elif dataset == "longmemeval":
        source = {"data_dir": shared_data / "longmemeval" / "longmemeval_oracle_sample.json", "config": "oracle"}
    else:
        source = {"data_dir": shared_data / "locomo"}
    manifest = run(
        dataset,
        memory=SeedMemory,
        answer_model="extractive",
        out=tmp_path / "r",
        limit=20,
        progress=False,
        **{"cache_dir": tmp_path / "c", **source},
    )
    records = _records(tmp_path / "r")
    assert manifest["completed"] and len(records) == 20 and all(r["response"] for r in records)
    assert manifest["memory"]["name"].endswith("SeedMemory")


@pytest.mark.parametrize(("argv", "message"), [
    (["--memory", "nosuch"], "--memory nosuch: expected a reference memory (recency, full-context"),
    (["--memory", "json:loads"], "--memory json:loads: loads is no memory"),
    (["--memory", "no_such_module_x:Y"], "--memory no_such_module_x:Y: cannot import it (ModuleNotFoundError"),
    (["--shard", "3/2"], "--shard 3/2: expected I/N with 0 <= I < N"),
    (["--concurrency", "0"], "--concurrency: expected at least 1, got 0"),
    (["--top-k", "0"], "--top-k: expected a positive integer, got 0"),
    (["--memory-arg", "budget"], "--memory-arg 'budget': expected KEY=VALUE"),
])  # fmt: skip
def test_bad_input_is_one_line(argv, message, locomo, tmp_path, capsys):
    base = [
        "run",
        "locomo",
        "--memory",
        "recency",
        "--answer-model",
        "extractive",
        "--out",
        str(tmp_path / "r"),
        "--data-dir",
        str(locomo["data_dir"]),
    ]
    assert main([*base, *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("himga: error: " + message) and err.count("\n") == 1, err


def test_an_out_that_is_a_file_or_holds_something_else_is_refused(locomo, tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(ConfigurationError, match="is a file: a run writes a folder"):
        run("locomo", memory="recency", answer_model="extractive", out=tmp_path / "file", progress=False, **locomo)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("x")
    with pytest.raises(ConfigurationError, match=r"holds other files than a run's \(notes.txt\)"):
        run("locomo", memory="recency", answer_model="extractive", out=tmp_path / "other", progress=False, **locomo)
