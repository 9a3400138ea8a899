"""What the judge costs, on BEAM 100K with canned replies (a chatty model's answers, a judge that says YES when the
rubric item is written in the line): himga judge sends no more requests than the official code asks (its
``align_with_llm`` run on the same replies, tests/helpers/beam_walk.py), the same body is paid once whatever route
wrote it, the score is the one every pair's reply gives, and ``--dry-run`` says it all before anything is sent."""

from __future__ import annotations

import json

import pytest
from helpers.beam_walk import CountingJudge, align_with_llm, canned_predictions, canned_reply
from helpers.chat_server import ChatServer
from helpers.replies import write_replies

from himga.cli import main


@pytest.fixture(autouse=True)
def _key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-cost")


@pytest.fixture(scope="module")
def canned(beam_tier, shared_data, tmp_path_factory):
    """The canned run of BEAM 100K's 400 questions, its requests (himga score --prompts), and the official count."""
    folder = tmp_path_factory.mktemp("cost")
    questions = [
        (f"{s.sample_id}:{qa.question_id}", str(qa.question_type), qa.raw)
        for s in beam_tier("100K")
        for qa in s.qa_pairs
    ]
    predictions = canned_predictions(questions)
    pred = folder / "pred.jsonl"
    pred.write_text("".join(json.dumps({"question_id": q, "hypothesis": h}) + "\n" for q, h in predictions.items()))
    common = ["score", "beam", str(pred), "--config", "100K", "--data-dir", str(shared_data / "beam")]
    common += ["--cache-dir", str(beam_tier.cache["100K"])]
    assert main([*common, "--prompts", str(folder / "req.jsonl")]) == 0
    requests = [json.loads(line) for line in (folder / "req.jsonl").read_text().splitlines()]
    official = CountingJudge()
    pairs = []
    for qid, ability, record in questions:
        if ability == "event_ordering":
            asked = official.calls
            align_with_llm(record["rubric"], predictions[qid].split("\n"), official)
            pairs.append(official.calls - asked)
    rubric = sum(len(record["rubric"]) for _q, _a, record in questions)
    return folder, common, requests, {"rubric": rubric, "walk": official.calls, "per_question": pairs}


def _judge(req, out, server, cache, *extra) -> list[str]:
    args = ["judge", str(req), "--out", str(out), "--base-url", server.base_url, "--cache-dir", str(cache)]
    assert main([*args, "--no-progress", *extra]) == 0
    return []


def test_beam_100k_sends_no_more_than_the_official_walk(canned, tmp_path, capsys):
    folder, common, requests, official = canned
    # before: one request a line (the cache was keyed by the whole line, ids included): 6,774, of which 5,723 pairs
    assert len(requests) == 6774 and sum("walk" in r for r in requests) == 5723
    assert (official["rubric"], official["walk"], max(official["per_question"])) == (1051, 753, 41)
    cache, replies = tmp_path / "cache", tmp_path / "replies.jsonl"
    capsys.readouterr()
    assert main(["judge", str(folder / "req.jsonl"), "--dry-run", "--cache-dir", str(cache)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"req.jsonl: 6,774 requests, 4,487 distinct bodies, 0 answered in the cache ({cache})",
        "to send: 964 requests, ~1,093,549 prompt tokens (the characters of their messages / 4, the rule of thumb for "
        "English text; no tokenizer is downloaded)",
        "and of the 5,723 event-ordering pairs of 40 first-match walks, only those a walk reaches: at most 3,523 "
        "(~336,366 prompt tokens at most), as the official walk asks them",
        "dry run: nothing was sent",
    ]
    with ChatServer(respond=lambda body: canned_reply(body["messages"])) as server:
        _judge(folder / "req.jsonl", replies, server, cache)
    out = capsys.readouterr().out
    assert out.startswith(
        "req.jsonl: 6,774 requests (4,487 distinct bodies; 5,723 event-ordering pairs in 40 walks, 753 reached), "
        f"0 answered before (cache {cache}), 1,717 sent now, 0 without a reply"
    )
    # after: 964 distinct rubric prompts and the 753 pairs the official walk asks, each once
    sent_pairs = [json.dumps(b["messages"]) for b in server.bodies if len(b["messages"]) == 2]
    assert len(server.bodies) == 1717 <= official["rubric"] + official["walk"] and len(sent_pairs) == 753
    assert "tokens paid now: 1,717 prompt, 1,717 completion" in out  # the test server's usage: 1 and 1 a call
    # the score: what the official walk replayed over a reply to every pair gives
    every = write_replies(tmp_path / "every.jsonl", requests, lambda r: canned_reply(r["messages"]))
    reports = {}
    for name, labels in (("walked", replies), ("every", every)):
        assert main([*common, "--labels", str(labels), "--out", str(tmp_path / f"{name}.json")]) == 0
        reports[name] = json.loads((tmp_path / f"{name}.json").read_text())
    assert reports["walked"]["per_question"] == reports["every"]["per_question"]
    assert round(reports["walked"]["overall"]["mean"], 4) == 0.3798 and reports["walked"]["scored"] == 400
    assert reports["walked"]["run"]["judge"]["usage"] == {
        "calls": 1717,
        "prompt_tokens": 1717,
        "completion_tokens": 1717,
        "total_tokens": 3434,
    }
    # the registry's --judge beam asks the same bodies: every one answered from the cache, none sent again
    assert main([*common, "--judge", "beam", "--prompts", str(tmp_path / "named.jsonl")]) == 0
    capsys.readouterr()
    with ChatServer() as server:
        _judge(tmp_path / "named.jsonl", tmp_path / "named-replies.jsonl", server, cache)
        assert server.bodies == []
    out = capsys.readouterr().out
    assert f"1,804 answered before (cache {cache}), 0 sent now, 0 without a reply" in out
    labels = ["--judge", "beam", "--labels", str(tmp_path / "named-replies.jsonl"), "--out", str(tmp_path / "n.json")]
    assert main([*common, *labels]) == 0
    assert json.loads((tmp_path / "n.json").read_text())["per_question"] == reports["walked"]["per_question"]


def test_the_next_round_of_a_file_based_workflow(canned, tmp_path, capsys):
    """Without himga judge (a batch API): ``--prompts NEXT --labels REPLIES`` writes what the replies so far leave
    unanswered, the next pair of each walk included; a round at a time, the requests are the official walk's."""
    folder, common, requests, official = canned
    chat = [r for r in requests if r["question_id"].startswith("100K-1:")]  # chat 1: 20 questions, 2 walks
    (tmp_path / "ids.txt").write_text("".join(dict.fromkeys(r["question_id"] + "\n" for r in chat)))
    common = [*common, "--ids", str(tmp_path / "ids.txt")]
    by_id = {r["request_id"]: r for r in chat}
    replies, answered, rounds = tmp_path / "replies.jsonl", [], 0
    replies.write_text("")
    while True:
        capsys.readouterr()
        assert main([*common, "--labels", str(replies), "--prompts", str(tmp_path / "next.jsonl")]) == 0
        todo = [json.loads(line) for line in (tmp_path / "next.jsonl").read_text().splitlines()]
        if not todo:
            break
        rounds += 1
        answered += [by_id[r["request_id"]] for r in todo]
        write_replies(replies, answered, lambda r: canned_reply(r["messages"]))
    assert "every request has its reply" in capsys.readouterr().out
    walked = [r for r in answered if "walk" in r]
    assert (len(answered) - len(walked), len(walked), rounds) == (
        sum("walk" not in r for r in chat),
        sum(official["per_question"][:2]),
        max(official["per_question"][:2]),
    )
