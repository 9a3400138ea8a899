"""``himga judge`` against a real OpenAI-compatible endpoint on 127.0.0.1 (tests/helpers/chat_server.py) that answers
from a table, fails some requests with 429 and 500 and answers others slowly: killed with SIGKILL mid-run and
rerun, every request is answered exactly once, the replies and the scores are the table's, and the key never
shows in any output."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time

import pytest
from helpers.chat_server import ChatServer

from himga.cli import main

SECRET = "sk-test-NEVER-PRINT-0123456789abcdef"


def _args(requests, out, server, cache, *extra) -> list[str]:
    return [
        "judge",
        str(requests),
        "--out",
        str(out),
        "--base-url",
        server.base_url,
        "--cache-dir",
        str(cache),
        "--concurrency",
        "4",
        "--no-progress",
        *extra,
    ]


def _judge(capsys, *args) -> tuple[int, str, str]:
    """``himga judge`` in this process: ``(exit status, stdout, stderr)``."""
    status = main(_args(*args))
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.fixture(autouse=True)
def _key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)


@pytest.fixture(scope="module")
def requests_file(shared_data, tmp_path_factory):
    """mem0's requests for 24 LoCoMo questions (the gold as hypotheses), written by himga score --prompts."""
    from himga.data import item_id, load_locomo

    folder = tmp_path_factory.mktemp("judge")
    samples = load_locomo(shared_data / "locomo", cache_dir=folder / "c")
    qas = [(item_id(s, qa), qa) for s in samples for qa in s.qa_pairs if qa.raw["category"] != 5][:24]
    (folder / "ids.txt").write_text("".join(q + "\n" for q, _ in qas))
    hyp = folder / "hyp.jsonl"
    hyp.write_text("".join(json.dumps({"question_id": q, "hypothesis": str(qa.answer)}) + "\n" for q, qa in qas))
    req = folder / "req.jsonl"
    args = [
        "score",
        "locomo",
        str(hyp),
        "--judge",
        "mem0",
        "--ids",
        str(folder / "ids.txt"),
        "--data-dir",
        str(shared_data / "locomo"),
        "--cache-dir",
        str(folder / "c"),
    ]
    assert main([*args, "--prompts", str(req)]) == 0
    return req, args


def test_killed_and_rerun_every_request_is_answered_once(requests_file, tmp_path, capsys):
    req, score_args = requests_file
    requests = [json.loads(line) for line in req.read_text().splitlines()]
    keys = [r["messages"][-1]["content"] for r in requests]
    table = {k: json.dumps({"label": "CORRECT" if i % 3 else "WRONG"}) for i, k in enumerate(keys)}
    fail = {**{k: [429] for k in keys[:3]}, **{k: [500] for k in keys[3:5]}, keys[5]: [429, 500]}
    slow = {k: 0.3 for k in keys[6:9]}
    cache, out = tmp_path / "cache", tmp_path / "replies.jsonl"
    with ChatServer(table, fail=fail, slow=slow, hold_after=10) as server:
        first = subprocess.Popen(
            [sys.executable, "-m", "himga.cli", *_args(req, out, server, cache)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "OPENAI_API_KEY": SECRET},
        )
        import diskcache

        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and sum(server.answered.values()) < 10:
            time.sleep(0.05)
        with diskcache.Cache(str(cache)) as stored:
            while time.monotonic() < deadline and len(stored) < 10:
                time.sleep(0.05)
            time.sleep(0.3)
            assert len(stored) == 10  # ten answered and stored; the others held unanswered by the server
        first.kill()  # SIGKILL: no handler runs
        first_out, first_err = first.communicate(timeout=30)
        assert first.returncode == -9 and not out.exists()
        answered_first = {k for k, n in server.answered.items() if n}
        server.release()
        status, second_out, second_err = _judge(capsys, req, out, server, cache)
        assert status == 0, second_err
        assert second_out.startswith(
            f"req.jsonl: 24 requests, 10 answered before (cache {cache}), 14 sent now, 0 without a reply; "
            "answered by judge-model-2026-01-01"
        )
        assert set(server.answered) == set(keys) and set(server.answered.values()) == {1}  # every request answered once
        for key in answered_first:
            assert server.attempts[key] == 1 + len(fail.get(key, [])) or key in slow  # never sent again by the rerun
        assert server.authorization == {f"Bearer {SECRET}"}
    replies = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["question_id"], r["judge"], r["run"]) for r in replies] == [
        (r["question_id"], "mem0", 1) for r in requests
    ]
    assert [r["reply"] for r in replies] == [table[k] for k in keys] and {r["model"] for r in replies} == {
        "judge-model-2026-01-01"
    }
    for text in (first_out, first_err, second_out, second_err, out.read_text()):
        assert SECRET not in text
    status, third, _ = _judge(
        capsys, req, out, ChatServer(), cache
    )  # all cached: nothing is sent (the server is not started)
    assert status == 0 and "24 answered before" in third and "0 sent now" in third
    report = tmp_path / "report.json"
    assert main([*score_args, "--labels", str(out), "--out", str(report)]) == 0
    scores = json.loads(report.read_text())["per_question"]
    assert scores == {r["question_id"]: (1.0 if i % 3 else 0.0) for i, r in enumerate(requests)}
    assert json.loads(report.read_text())["judge"]["models_answered"] == ["judge-model-2026-01-01"]
    capsys.readouterr()


def test_a_refused_key_is_never_printed(requests_file, tmp_path, capsys):
    req, _ = requests_file
    keys = [json.loads(line)["messages"][-1]["content"] for line in req.read_text().splitlines()]
    with ChatServer(default='{"label": "CORRECT"}', fail={k: [401] for k in keys[3:5]}) as server:
        status, out, err = _judge(capsys, req, tmp_path / "r.jsonl", server, tmp_path / "c", "--max-retries", "0")
    assert status == 1
    assert "22 sent now, 2 without a reply" in out and "failed: req.jsonl: line 4: AuthenticationError 401" in out
    assert "invalid key in Bearer ***" in out and SECRET not in out + err
    assert "rerun the same command to send the 2 requests without a reply" in out
    assert len((tmp_path / "r.jsonl").read_text().splitlines()) == 22


def test_an_endpoint_that_cannot_answer_stops_the_run_in_seconds(requests_file, tmp_path, capsys):
    """Connection refused, a refused key, a 404 to the first request: one line naming the URL and the cause, before the
    queue is worked (the trial waited 177 s for "0 sent now, 99 without a reply")."""
    req, _ = requests_file
    out = tmp_path / "r.jsonl"
    started = time.monotonic()
    args = ["judge", str(req), "--out", str(out), "--cache-dir", str(tmp_path / "c"), "--no-progress"]
    assert main([*args, "--base-url", "http://127.0.0.1:9/v1"]) == 2
    assert capsys.readouterr().err == "himga: error: cannot reach http://127.0.0.1:9/v1: connection refused\n"
    assert time.monotonic() - started < 10 and not out.exists()
    with ChatServer(default='{"label": "CORRECT"}', models_status=401) as server:
        assert main([*args, "--base-url", server.base_url]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"himga: error: {server.base_url} refused the key (401): ") and err.count("\n") == 1
        assert server.bodies == [] and SECRET not in err
    keys = [json.loads(line)["messages"][-1]["content"] for line in req.read_text().splitlines()]
    with ChatServer(default='{"label": "CORRECT"}', fail={keys[0]: [404]}) as server:  # a wrong path or model
        assert main([*args, "--base-url", server.base_url]) == 2
        assert capsys.readouterr().err == (
            f"himga: error: {server.base_url} answered 404 to the first request (model gpt-4o-mini): Error code: 404 - "
            "injected 404\n"
        )
        assert len(server.bodies) == 1 and not out.exists()


def test_a_reply_that_is_not_json_stops_the_judge_in_one_line(requests_file, tmp_path, capsys):
    """A proxy's login page (a 200 in HTML) is no judge reply: one line, nothing cached, no traceback."""
    req, _ = requests_file
    out = tmp_path / "r.jsonl"
    args = ["judge", str(req), "--out", str(out), "--cache-dir", str(tmp_path / "c"), "--no-progress"]
    with ChatServer(raw_reply=b"<html>please log in</html>") as server:
        assert main([*args, "--base-url", server.base_url]) == 2
    assert capsys.readouterr().err == (
        "himga: error: the endpoint's reply is not JSON ('<html>please log in</html>'): is --base-url an "
        "OpenAI-compatible /v1 endpoint?\n"
    )
    assert not out.exists()


def test_no_key_and_no_endpoint(requests_file, tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    req, _ = requests_file
    assert main(["judge", str(req), "--out", str(tmp_path / "r.jsonl"), "--cache-dir", str(tmp_path / "c")]) == 2
    assert capsys.readouterr().err == (
        "himga: error: no API key: set OPENAI_API_KEY (or name another variable with "
        "--api-key-env), or give --base-url for an endpoint without keys\n"
    )


def test_a_named_key_variable_left_unset_is_refused_even_for_a_local_endpoint(requests_file, tmp_path, capsys):
    """``--api-key-env MY_KEY`` says a key is meant to be sent: unset, it is an error, not the local placeholder."""
    req, _ = requests_file
    args = ["judge", str(req), "--out", str(tmp_path / "r.jsonl"), "--cache-dir", str(tmp_path / "c")]
    with ChatServer(default='{"label": "CORRECT"}') as server:
        status = main([*args, "--base-url", server.base_url, "--api-key-env", "HIMGA_NO_SUCH_KEY"])
        assert server.bodies == []
    assert (status, capsys.readouterr().err) == (
        2,
        "himga: error: --api-key-env HIMGA_NO_SUCH_KEY: $HIMGA_NO_SUCH_KEY is not set (or empty)\n",
    )


def test_the_progress_bar_counts_every_request_and_starts_at_the_cached_ones(tmp_path, capsys):
    from himga.endpoint import read_requests, send_requests

    path = tmp_path / "req.jsonl"
    path.write_text(
        "".join(
            json.dumps({"question_id": f"q{i}", "model": "m", "messages": [{"role": "user", "content": f"c{i}"}]})
            + "\n"
            for i in range(3)
        )
    )
    _, requests = read_requests(path)
    with ChatServer(default="Yes.") as server:
        first = send_requests(requests[:1], cache_dir=tmp_path / "c", base_url=server.base_url)
        assert "1/1" in capsys.readouterr().err
        result = send_requests(requests, cache_dir=tmp_path / "c", base_url=server.base_url)
    err = capsys.readouterr().err
    assert "1/3" in err and "3/3" in err and (first.sent, result.cached, result.sent) == (1, 1, 2)
    assert [r["reply"] for r in result.replies] == ["Yes."] * 3 and sum(server.answered.values()) == 3


@pytest.mark.parametrize("variant", ["official", "fixed"])
def test_beam_requests_of_the_default_route_go_through_himga_judge_and_back(
    beam_tier, shared_data, tmp_path, capsys, variant
):
    """``himga score beam --prompts`` → ``himga judge`` → ``himga score beam --labels``: a request line's ``request_id``
    (several requests a question) is an id, not part of the body sent, and comes back on its reply line."""
    samples = beam_tier("100K")
    pred = tmp_path / "pred.jsonl"
    pred.write_text(
        "".join(
            json.dumps({"question_id": f"{s.sample_id}:{qa.question_id}", "hypothesis": qa.answer}) + "\n"
            for s in samples[:2]
            for qa in s.qa_pairs
        ),
        encoding="utf-8",
    )
    common = [
        "score",
        "beam",
        str(pred),
        "--config",
        "100K",
        "--data-dir",
        str(shared_data / "beam"),
        "--cache-dir",
        str(beam_tier.cache["100K"]),
        "--partial",
        "--judge-variant",
        variant,
    ]
    req, replies, report = tmp_path / "req.jsonl", tmp_path / "replies.jsonl", tmp_path / "report.json"
    assert main([*common, "--prompts", str(req)]) == 0
    requests = [json.loads(line) for line in req.read_text().splitlines()]
    table = {
        r["messages"][-1]["content"]: "YES"
        if r["messages"][0]["role"] == "system"
        else '{"score": 0.5, "reason": "partly"}'
        for r in requests
    }
    with ChatServer(table) as server:
        status, out, _ = _judge(capsys, req, replies, server, tmp_path / "c")
    # 103 rubric items, and of the 18 event-ordering pairs (4 answers of one line) the first of each walk: a match;
    # the official prompt leaves <question> in place: two questions' rubric prompts are one body, asked once
    sent, distinct = (106, "120 distinct bodies; ") if variant == "official" else (107, "")
    assert status == 0 and (
        f"req.jsonl: 121 requests ({distinct}18 event-ordering pairs in 4 walks, 4 reached), 0 answered before" in out
    )
    assert f"{sent} sent now, 0 without a reply" in out
    assert all("request_id" not in body and "walk" not in body for body in server.bodies)
    assert len(server.bodies) == sent
    lines = [json.loads(line) for line in replies.read_text().splitlines()]
    asked = [r["request_id"] for r in requests if "walk" not in r or r["walk"]["line"] == r["walk"]["item"] == 0]
    assert [r["request_id"] for r in lines] == asked and len(asked) == 107
    assert main([*common, "--labels", str(replies), "--out", str(report)]) == 0
    scores = json.loads(report.read_text())["per_question"]
    assert len(scores) == 40 and {s for q, s in scores.items() if ":event_ordering:" not in q} == {
        0.0 if variant == "official" else 0.5
    }
    assert {q: s for q, s in scores.items() if ":event_ordering:" in q} == {  # tau_norm, the same in both variants
        "100K-1:event_ordering:0": 0.908248290463863,
        "100K-1:event_ordering:1": 0.816227766016838,
        "100K-2:event_ordering:0": 0.816227766016838,
        "100K-2:event_ordering:1": 0.816227766016838,
    }


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (["--max-retries", "-1"], "--max-retries: expected 0 or more, got -1"),
        (["--timeout", "nan"], "--timeout: expected a positive number of seconds, got nan"),
        (["--timeout", "0"], "--timeout: expected a positive number of seconds, got 0.0"),
        (["--concurrency", "0"], "--concurrency: expected at least 1, got 0"),
    ],
)
def test_bad_client_options_are_one_line_before_any_request(tmp_path, capsys, option, message):
    """What the client libraries would raise as a traceback (openai's max_retries, anyio's NaN deadline), or a
    timeout that fails every request, is refused first, with the option's name."""
    req = tmp_path / "req.jsonl"
    req.write_text(
        json.dumps({"question_id": "q0", "model": "m", "messages": [{"role": "user", "content": "c"}]}) + "\n"
    )
    with ChatServer(default="Yes.") as server:
        assert main([*_args(req, tmp_path / "out.jsonl", server, tmp_path / "c"), *option]) == 2
        assert server.bodies == []
    assert capsys.readouterr().err == f"himga: error: {message}\n"
    assert not (tmp_path / "out.jsonl").exists()


def test_a_replies_cache_that_cannot_be_a_folder_is_one_line(tmp_path, capsys, monkeypatch):
    req = tmp_path / "req.jsonl"
    req.write_text(
        json.dumps({"question_id": "q0", "model": "m", "messages": [{"role": "user", "content": "c"}]}) + "\n"
    )
    with ChatServer(default="Yes.") as server:
        assert main(_args(req, tmp_path / "out.jsonl", server, req / "c")) == 2
        assert capsys.readouterr().err == (
            f"himga: error: the replies cache {str(req / 'c')!r} (cache_dir= / --cache-dir): "
            f"{str(req)!r} is a regular file, not a folder; point --cache-dir at a folder\n"
        )
        import sqlite3

        import diskcache

        def refuse(*args, **kwargs):
            raise sqlite3.OperationalError("unable to open database file")

        monkeypatch.setattr(diskcache, "Cache", refuse)  # as for a folder this user cannot write
        assert main(_args(req, tmp_path / "out.jsonl", server, tmp_path / "c")) == 2
        assert capsys.readouterr().err == (
            f"himga: error: the replies cache {str(tmp_path / 'c')!r} (cache_dir= / --cache-dir) "
            "cannot be opened: unable to open database file\n"
        )
        assert server.bodies == []


def test_replies_asked_of_another_model_are_bound_to_their_requests(requests_file, tmp_path, capsys):
    """``himga judge --model M`` sends the requests with model M: each reply line names the model asked, and scoring
    checks the reply against the request the predictions render with that model."""
    req, score_args = requests_file
    out = tmp_path / "replies.jsonl"
    with ChatServer(default='{"label": "CORRECT"}') as server:
        status, printed, _ = _judge(capsys, req, out, server, tmp_path / "c", "--model", "other-judge")
    assert status == 0 and {b["model"] for b in server.bodies} == {"other-judge"}
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert {line["model_requested"] for line in lines} == {"other-judge"} and len(lines) == 24
    assert main([*score_args, "--labels", str(out)]) == 0
    assert "model other-judge (answered: judge-model-2026-01-01)" in capsys.readouterr().out  # the model asked
    lines[5]["model_requested"] = "gpt-4o-mini"  # not the request it answered
    out.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert main([*score_args, "--labels", str(out)]) == 2
    assert "1 of 24 replies judged other answers than hyp.jsonl holds (the first: " in capsys.readouterr().err


def test_the_cache_is_keyed_by_the_body_and_the_run(requests_file, tmp_path, capsys):
    """The same body under other ids is asked once; a judge's second and third runs are asked again (MemOS and
    EverMemOS sample three times); a reply an earlier himga judge stored under the whole line's sha256 is found."""
    import diskcache

    req, _ = requests_file
    lines = [json.loads(line) for line in req.read_text().splitlines()]
    again = [{**r, "question_id": r["question_id"] + "-copy"} for r in lines[:5]]  # the same bodies, other ids
    runs = [{**lines[0], "judge": "memos", "run": n} for n in (1, 2, 3)]
    path = tmp_path / "req.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in lines + again + runs))
    legacy = hashlib.sha256(json.dumps(lines[1], sort_keys=True, ensure_ascii=False).encode()).hexdigest()
    with diskcache.Cache(str(tmp_path / "c")) as cache:  # as himga judge stored it before
        cache.set(legacy, json.dumps({"reply": '{"label": "WRONG"}', "model": "old-model"}))
    with ChatServer(default='{"label": "CORRECT"}') as server:
        status, out, _ = _judge(capsys, path, tmp_path / "r.jsonl", server, tmp_path / "c")
    assert status == 0 and out.startswith(
        f"req.jsonl: 32 requests (26 distinct bodies), 2 answered before (cache {tmp_path / 'c'}), 25 sent now, "
        "0 without a reply"
    )  # 24 bodies + 2 more runs, less the one stored before: 25 sent; line 2 and its copy answered before
    assert len(server.bodies) == 25
    replies = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert [r["reply"] for r in replies if r["question_id"] in (lines[1]["question_id"], again[1]["question_id"])] == [
        '{"label": "WRONG"}'
    ] * 2
    assert len({r["request_sha256"] for r in replies[-3:]}) == 3  # each run its own request


def test_a_reply_that_is_no_answer_is_not_served_again_and_retry_failed_asks_exactly_those(
    requests_file, tmp_path, capsys
):
    """null content, an empty reply and one mem0's rule cannot read (not JSON) are stored as no answer: a rerun
    against a healthy endpoint does not return them as answers (nor asks them), ``--retry-failed`` asks those three."""
    req, score_args = requests_file
    keys = [json.loads(line)["messages"][-1]["content"] for line in req.read_text().splitlines()]
    bad = {keys[2]: None, keys[5]: "  ", keys[7]: "CORRECT"}
    cache, out = tmp_path / "c", tmp_path / "r.jsonl"
    with ChatServer({**dict.fromkeys(keys, '{"label": "CORRECT"}'), **bad}) as server:
        status, printed, _ = _judge(capsys, req, out, server, cache)
    assert status == 1 and "21 sent now, 3 without a reply" in printed
    assert printed.splitlines()[2:] == [
        "failed: req.jsonl: line 3: no answer: the endpoint sent no content",
        "failed: req.jsonl: line 6: no answer: the reply is empty",
        "failed: req.jsonl: line 8: no answer: judge mem0 cannot read it: json.loads(extract_json(reply))['label'] "
        "fails (JSONDecodeError)",
        "rerun the same command (with --retry-failed for the 3 whose reply was no answer) to send the 3 requests "
        "without a reply",
    ]
    assert len(out.read_text().splitlines()) == 21
    with ChatServer(default='{"label": "WRONG"}') as healthy:
        status, printed, _ = _judge(capsys, req, out, healthy, cache)
        assert status == 1 and healthy.bodies == [] and "21 answered before" in printed
        assert "3 requests have a stored reply that is no answer (no content, empty, or unreadable by the judge's " in (
            printed
        )
        assert main(["judge", str(req), "--dry-run", "--cache-dir", str(cache)]) == 0
        assert capsys.readouterr().out.splitlines()[0] == (
            f"req.jsonl: 24 requests, 24 distinct bodies, 21 answered in the cache ({cache}) (3 more stored as no "
            "answer: --retry-failed asks them again)"
        )
        status, printed, _ = _judge(capsys, req, out, healthy, cache, "--retry-failed")
        assert status == 0 and sorted(b["messages"][-1]["content"] for b in healthy.bodies) == sorted(bad)
    assert "21 answered before" in printed and "3 sent now, 0 without a reply" in printed
    assert main([*score_args, "--labels", str(out)]) == 0
    capsys.readouterr()


def test_predictions_given_to_himga_judge_say_to_write_the_requests_first(tmp_path, capsys):
    hint = (
        "write the judge's requests of your predictions with `himga score DATASET PRED --prompts REQ.jsonl` (with "
        "--judge NAME for a named judge) first, then send them with `himga judge REQ.jsonl --out REPLIES.jsonl`\n"
    )
    lines = tmp_path / "pred.jsonl"
    lines.write_text(json.dumps({"question_id": "conv-26:0", "hypothesis": "7 May 2023"}) + "\n")
    records = tmp_path / "results.json"
    records.write_text(json.dumps([{"sample_id": "conv-26", "question_id": "0", "response": "7 May 2023"}], indent=2))
    for path, where in (
        (lines, "line 1: a prediction, not a judge request"),
        (records, "$: a JSON array, not judge requests"),
    ):
        assert (
            main(["judge", str(path), "--out", str(tmp_path / "r.jsonl"), "--base-url", "http://127.0.0.1:9/v1"]) == 2
        )
        assert capsys.readouterr().err == f"himga: error: {path.name}: {where}: {hint}"
