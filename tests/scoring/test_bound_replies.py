"""A judge's reply is scored only against the request it answered, on every judged route and the real files: the trial
of issue 35 (every answer changed to "I do not know", then scored with the replies of the earlier run) is refused with
how many, the first question, and what to do; ``--partial`` does not hide it; verdicts recorded elsewhere (the
audit's probe, LongMemEval's ``*.eval-results-*`` lines) are read and the report says they were not checked."""

from __future__ import annotations

import json

import pytest
from helpers.replies import write_replies

from himga.cli import main

CHANGED = "I do not know"


def _jsonl(path, rows):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def _requests(base: list[str], path) -> list[dict]:
    assert main([*base, "--prompts", str(path)]) == 0
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _changed(pred, path, which) -> object:
    """``pred`` with the hypotheses of the questions ``which`` picks changed to "I do not know"."""
    rows = [json.loads(line) for line in pred.read_text(encoding="utf-8").splitlines()]
    return _jsonl(path, [{**r, "hypothesis": CHANGED} if which(r["question_id"]) else r for r in rows])


def _refused(args: list[str], capsys) -> str:
    """The one error line of ``himga score`` refusing replies, without and with ``--partial`` (the same)."""
    capsys.readouterr()
    assert main(args) == 2
    err = capsys.readouterr().err
    assert main([*args, "--partial"]) == 2 and capsys.readouterr().err == err
    assert err.count("\n") == 1
    return err


def _hint(dataset: str, pred, judged: str = "") -> str:
    return (
        f"write the requests of these predictions with `himga score {dataset} {pred}{judged} ... --prompts REQ.jsonl` "
        "(the same options, --prompts instead of --labels), send them with `himga judge REQ.jsonl --out "
        "REPLIES.jsonl`, and score those replies (--partial does not skip this check)\n"
    )


@pytest.fixture(scope="module")
def locomo_env(shared_data, locomo_samples, tmp_path_factory):
    """30 LoCoMo questions of categories 1-4 (an ids file), the gold as predictions, a build cache for the module."""
    from himga.data import item_id

    folder = tmp_path_factory.mktemp("bound_locomo")
    chosen = [item_id(s, qa) for s in locomo_samples for qa in s.qa_pairs if qa.raw["category"] != 5][:30]
    answers = {item_id(s, qa): str(qa.answer) for s in locomo_samples for qa in s.qa_pairs}
    (folder / "ids.txt").write_text("".join(q + "\n" for q in chosen))
    pred = _jsonl(folder / "pred.jsonl", [{"question_id": q, "hypothesis": answers[q]} for q in chosen])
    env = [
        "--ids",
        str(folder / "ids.txt"),
        "--data-dir",
        str(shared_data / "locomo"),
        "--cache-dir",
        str(folder / "c"),
    ]
    return pred, chosen, env


def test_locomo_judge_replies_of_other_answers_are_refused(locomo_env, tmp_path, capsys):
    """``himga score locomo changed.jsonl --judge mem0 --labels REPLIES`` (the trial gave 0.3221, exit 0)."""
    pred, chosen, env = locomo_env
    requests = _requests(["score", "locomo", str(pred), "--judge", "mem0", *env], tmp_path / "req.jsonl")
    replies = write_replies(tmp_path / "replies.jsonl", requests, lambda r: '{"label": "CORRECT"}')
    assert main(["score", "locomo", str(pred), "--judge", "mem0", "--labels", str(replies), *env]) == 0
    changed = _changed(pred, tmp_path / "changed.jsonl", lambda q: q in chosen[3:10])
    err = _refused(["score", "locomo", str(changed), "--judge", "mem0", "--labels", str(replies), *env], capsys)
    assert err == (
        "himga: error: replies.jsonl: $: 7 of 30 replies judged other answers than changed.jsonl holds (the first: "
        "conv-26:3, line 4): the request each answered (request_sha256) is not the one these predictions render; "
        + _hint("locomo", changed, " --judge mem0")
    )
    # what the message says to do: the requests of these predictions, their replies, a score
    again = _requests(["score", "locomo", str(changed), "--judge", "mem0", *env], tmp_path / "req2.jsonl")
    assert sum(a != b for a, b in zip(again, requests, strict=True)) == 7
    replies = write_replies(tmp_path / "replies2.jsonl", again, lambda r: '{"label": "WRONG"}')
    out = tmp_path / "report.json"
    assert (
        main(["score", "locomo", str(changed), "--judge", "mem0", "--labels", str(replies), *env, "--out", str(out)])
        == 0
    )
    report = json.loads(out.read_text())
    assert report["run"]["inputs"]["labels"]["bound_to_requests"] == {"checked": 30, "unchecked": {}}


def test_a_reply_line_without_a_request_hash_is_refused(locomo_env, tmp_path, capsys):
    pred, chosen, env = locomo_env
    lines = [{"question_id": q, "judge": "mem0", "run": 1, "reply": '{"label": "CORRECT"}'} for q in chosen]
    replies = _jsonl(tmp_path / "r.jsonl", lines)
    err = _refused(["score", "locomo", str(pred), "--judge", "mem0", "--labels", str(replies), *env], capsys)
    assert err == (
        "himga: error: r.jsonl: $: 30 replies without a request_sha256 (the first: conv-26:0, line 1), so nothing "
        "says which answers they judged: himga judge writes it beside each reply; "
        + _hint("locomo", pred, " --judge mem0")
    )


def test_longmemeval_replies_of_other_answers_are_refused(shared_data, tmp_path, capsys):
    """``himga score longmemeval changed_lme.jsonl --config oracle --labels lme_replies.jsonl`` (the trial: 0.2828)."""
    questions = json.loads((shared_data / "longmemeval" / "longmemeval_oracle_sample.json").read_text())
    pred = _jsonl(
        tmp_path / "pred.jsonl", [{"question_id": q["question_id"], "hypothesis": str(q["answer"])} for q in questions]
    )
    env = ["--config", "oracle", "--data-dir", str(shared_data / "longmemeval" / "longmemeval_oracle_sample.json")]
    env += ["--cache-dir", str(tmp_path / "c")]
    requests = _requests(["score", "longmemeval", str(pred), *env], tmp_path / "req.jsonl")
    replies = write_replies(tmp_path / "lme_replies.jsonl", requests, lambda r: "Yes.")
    changed = _changed(pred, tmp_path / "changed_lme.jsonl", lambda q: True)
    err = _refused(["score", "longmemeval", str(changed), *env, "--labels", str(replies)], capsys)
    first = questions[0]["question_id"]
    assert err == (
        f"himga: error: lme_replies.jsonl: $: 97 of 97 replies judged other answers than changed_lme.jsonl holds (the "
        f"first: {first}, line 1): the request each answered (request_sha256) is not the one these predictions render; "
        + _hint("longmemeval", changed)
    )


@pytest.fixture(scope="module")
def beam_env(beam_tier, shared_data, tmp_path_factory):
    """Chat 1 of BEAM 100K (20 questions), the gold answers as predictions, scored with --partial."""
    folder = tmp_path_factory.mktemp("bound_beam")
    samples = beam_tier("100K")
    pred = _jsonl(
        folder / "pred.jsonl",
        [
            {"question_id": f"{s.sample_id}:{qa.question_id}", "hypothesis": qa.answer}
            for s in samples[:1]
            for qa in s.qa_pairs
        ],
    )
    env = ["--config", "100K", "--data-dir", str(shared_data / "beam"), "--cache-dir", str(beam_tier.cache["100K"])]
    return pred, env


def _beam_reply(request: dict) -> str:
    return "YES" if request["messages"][0]["role"] == "system" else '{"score": 1.0, "reason": "ok"}'


def test_beam_replies_of_other_answers_are_refused(beam_env, tmp_path, capsys):
    """``himga score beam changed_beam.jsonl --config 100K --labels beam_replies.jsonl`` (``{request_id, reply}``
    lines; the trial: 0.3437): a changed answer renders other requests under the same request ids."""
    pred, env = beam_env
    requests = _requests(["score", "beam", str(pred), *env, "--partial"], tmp_path / "req.jsonl")
    replies = write_replies(tmp_path / "beam_replies.jsonl", requests, _beam_reply)
    assert main(["score", "beam", str(pred), *env, "--partial", "--labels", str(replies)]) == 0
    changed = _changed(pred, tmp_path / "changed_beam.jsonl", lambda q: ":event_ordering:" not in q)
    err = _refused(["score", "beam", str(changed), *env, "--labels", str(replies)], capsys)
    assert err == (
        "himga: error: beam_replies.jsonl: $: 45 of 61 replies judged other answers than changed_beam.jsonl holds "
        "(the first: 100K-1:abstention:0, line 1): the request each answered (request_sha256) is not the one these "
        "predictions render; " + _hint("beam", changed)
    )


def test_beam_by_name_replies_of_other_answers_are_refused(beam_env, tmp_path, capsys):
    pred, env = beam_env
    base = ["score", "beam", str(pred), "--judge", "beam", *env, "--partial"]
    requests = _requests(base, tmp_path / "req.jsonl")
    replies = write_replies(tmp_path / "replies.jsonl", requests, _beam_reply)
    assert main([*base, "--labels", str(replies)]) == 0
    changed = _changed(pred, tmp_path / "changed.jsonl", lambda q: ":event_ordering:" not in q)
    err = _refused(["score", "beam", str(changed), "--judge", "beam", *env, "--labels", str(replies)], capsys)
    assert err == (
        "himga: error: replies.jsonl: $: 45 of 61 replies judged other answers than changed.jsonl holds (the first: "
        "100K-1:abstention:0, line 1): the request each answered (request_sha256) is not the one these predictions "
        "render; " + _hint("beam", changed, " --judge beam")
    )


def test_locomo_plus_replies_of_other_answers_are_refused(locomo_plus_dir, locomo_plus_samples, tmp_path, capsys):
    from himga.data import item_id

    qas = [(item_id(s, qa), qa) for s in locomo_plus_samples for qa in s.qa_pairs]
    chosen = qas[:4] + qas[-4:]  # LoCoMo's questions and cognitive ones
    (tmp_path / "ids.txt").write_text("".join(q + "\n" for q, _ in chosen))
    pred = _jsonl(tmp_path / "pred.jsonl", [{"question_id": q, "hypothesis": str(qa.answer)} for q, qa in chosen])
    env = ["--ids", str(tmp_path / "ids.txt"), "--data-dir", str(locomo_plus_dir), "--cache-dir", str(tmp_path / "c")]
    changed = _changed(pred, tmp_path / "changed.jsonl", lambda q: q == chosen[-1][0])
    for judged in ([], ["--judge", "locomo_plus"]):
        requests = _requests(["score", "locomo_plus", str(pred), *judged, *env], tmp_path / "req.jsonl")
        replies = write_replies(tmp_path / "replies.jsonl", requests, lambda r: '{"label": "correct", "reason": "ok"}')
        assert main(["score", "locomo_plus", str(pred), *judged, *env, "--labels", str(replies)]) == 0
        err = _refused(["score", "locomo_plus", str(changed), *judged, *env, "--labels", str(replies)], capsys)
        assert err == (
            f"himga: error: replies.jsonl: $: 1 of 8 replies judged other answers than changed.jsonl holds (the first: "
            f"{chosen[-1][0]}, line 8): the request it answered (request_sha256) is not the one these predictions "
            "render; " + _hint("locomo_plus", changed, " --judge locomo_plus" if judged else "")
        )


@pytest.fixture
def audit_root(shared_data, monkeypatch):
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(shared_data))
    return shared_data / "locomo-audit" / "ap-baseline"


def test_probe_replies_of_the_other_probe_are_refused(audit_root, locomo_env, tmp_path, capsys):
    """The probe's answers are the pinned file's: replies to probe v2's requests are not v1's verdicts; the recorded
    verdicts of the audit (no request hash) are read, and the report says they were not checked."""
    _pred, _chosen, env = locomo_env
    v2 = ["score", "locomo", "--probe", "v2", "--judge", "mem0", *env]
    replies = write_replies(
        tmp_path / "v2.jsonl", _requests(v2, tmp_path / "req.jsonl"), lambda r: '{"label": "WRONG"}'
    )
    assert main([*v2, "--labels", str(replies)]) == 0
    v1 = ["score", "locomo", "--probe", "v1", "--judge", "mem0", *env, "--labels", str(replies)]
    err = _refused(v1, capsys)
    assert err.startswith(
        "himga: error: v2.jsonl: $: 30 of 30 replies judged other answers than "
        "ap-baseline/v1/ap_eval_results_scored.json holds (the first: conv-26:0, line 1)"
    )
    recorded = str(audit_root / "v2" / "ap_eval_results_scored.json")
    out = tmp_path / "probe.json"
    capsys.readouterr()
    assert (
        main(
            ["score", "locomo", "--probe", "v2", "--judge", "evermemos", *env, "--labels", recorded, "--out", str(out)]
        )
        == 0
    )
    assert capsys.readouterr().out.splitlines()[-2] == (
        "note: ap_eval_results_scored.json: verdicts recorded elsewhere (4,620 llm_judgments of a judged-results file) "
        "carry no request hash: not checked against the answers scored, only by the answer they name where they name "
        "one"
    )
    assert json.loads(out.read_text())["run"]["inputs"]["labels"]["bound_to_requests"] == {
        "checked": 0,
        "unchecked": {"llm_judgments of a judged-results file": 4620},
    }


def test_replies_of_one_route_given_to_another_say_which_route_wrote_them(beam_env, shared_data, tmp_path, capsys):
    pred, env = beam_env
    named = _requests(["score", "beam", str(pred), "--judge", "beam", *env, "--partial"], tmp_path / "named.jsonl")
    replies = write_replies(tmp_path / "named-replies.jsonl", named, _beam_reply)
    capsys.readouterr()
    assert main(["score", "beam", str(pred), *env, "--partial", "--labels", str(replies)]) == 2
    assert capsys.readouterr().err == (
        "himga: error: named-replies.jsonl: line 1: a reply to a request of himga score --judge beam (its judge, run "
        "and item say so), not to this route's own requests ({request_id, reply}): score these with --judge beam, or "
        "ask again from this route's --prompts\n"
    )
    # LongMemEval's own route and --judge longmemeval ask the same requests: either's replies serve both
    sample = shared_data / "longmemeval" / "longmemeval_oracle_pair.json"
    questions = json.loads(sample.read_text())
    lme = _jsonl(
        tmp_path / "lme.jsonl", [{"question_id": q["question_id"], "hypothesis": "No idea."} for q in questions]
    )
    lme_env = ["--config", "oracle", "--data-dir", str(sample), "--cache-dir", str(tmp_path / "c")]
    by_name = _requests(["score", "longmemeval", str(lme), "--judge", "longmemeval", *lme_env], tmp_path / "r.jsonl")
    lme_replies = write_replies(tmp_path / "lme-replies.jsonl", by_name, lambda r: "Yes.")
    capsys.readouterr()
    assert main(["score", "longmemeval", str(lme), *lme_env, "--labels", str(lme_replies)]) == 0
    assert capsys.readouterr().out.startswith("longmemeval (oracle): 2 questions scored")
    with_zep = [{**line, "judge": "zep"} for line in map(json.loads, lme_replies.read_text().splitlines())]
    assert (
        main(["score", "longmemeval", str(lme), *lme_env, "--labels", str(_jsonl(tmp_path / "z.jsonl", with_zep))]) == 2
    )
    assert capsys.readouterr().err == (
        "himga: error: z.jsonl: line 1: a reply of judge 'zep' (himga score --judge zep), not of longmemeval's own "
        "judge 'longmemeval': score these with --judge zep, or ask again from --prompts\n"
    )


def test_verdicts_recorded_elsewhere_are_read_only_where_the_route_reads_them(audit_root, locomo_env, tmp_path, capsys):
    """The audit's recorded verdicts are EverMemOS's judge's: read by --judge evermemos (the note says they were not
    checked), refused under --judge mem0, whose route reads only replies bound to their requests."""
    _pred, _chosen, env = locomo_env
    recorded = str(audit_root / "v2" / "ap_eval_results_scored.json")
    capsys.readouterr()
    assert main(["score", "locomo", "--probe", "v2", "--judge", "mem0", *env, "--labels", recorded]) == 2
    assert capsys.readouterr().err == (
        "himga: error: ap_eval_results_scored.json: $.detailed_results.locomo_exp_user_0[0].llm_judgments.judgment_1: "
        "a verdict recorded elsewhere (llm_judgments of a judged-results file, no request hash), which judge mem0's "
        "route does not read (only memos, evermemos's does): give the replies himga judge wrote, each bound to its "
        "request\n"
    )
