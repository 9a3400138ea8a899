"""The commands on BEAM's real files: validate (gold checks per tier, a surviving marker fails), stats, qrels (turns
from
the evidence ids, sessions from their batches), subset, and score's judge path (requests, replies, table, record)."""

from __future__ import annotations

import json
import shutil

import pytest
from helpers.replies import replied, write_replies

from himga.catalog import benchmark
from himga.cli import main
from himga.validate import validate

#: himga validate beam, per tier (the card's table).
VALIDATE = {
    "100K": {
        "probe_marker": 0,
        "marker_text": 8,
        "answer_contradicts_rubric": 2,
        "missing_evidence": 5,
        "unknown_role": 0,
        "empty_rubric": 0,
        "undated_batch": 0,
        "unparseable_date": 0,
        "dangling_evidence": 0,
        "duplicate_question": 0,
        "duplicate_turn_id": 0,
    },
    "500K": {
        "probe_marker": 0,
        "marker_text": 24,
        "answer_contradicts_rubric": 3,
        "missing_evidence": 1,
        "unknown_role": 0,
        "empty_rubric": 0,
        "undated_batch": 0,
        "unparseable_date": 0,
        "dangling_evidence": 0,
        "duplicate_question": 0,
        "duplicate_turn_id": 0,
    },
}


@pytest.mark.parametrize("tier", ["100K", "500K"])
def test_validate_counts_per_tier(shared_data, tier):
    report = validate("beam", tier, data_dir=shared_data / "beam")
    assert report.counts == VALIDATE[tier] and not report.failed
    assert report.provenance == [f"{70 if tier == '500K' else 40} files = mohammadtavakoli78/BEAM@b2a3ee8, sha256 ok"]
    contradictions = [(f.sample_id, f.where) for f in report.findings if f.kind == "answer_contradicts_rubric"]
    assert (
        contradictions
        == {
            "100K": [("100K-1", "QA temporal_reasoning:0"), ("100K-14", "QA temporal_reasoning:0")],
            "500K": [
                ("500K-9", "QA temporal_reasoning:1"),
                ("500K-16", "QA temporal_reasoning:1"),
                ("500K-22", "QA temporal_reasoning:0"),
            ],
        }[tier]
    )
    first = next(f for f in report.findings if f.kind == "answer_contradicts_rubric")
    assert (
        first.detail == "rubric 'LLM response should state: 8 weeks' says 8 weeks; the answer says 4 weeks"
        or tier == "500K"
    )
    texts = [(f.sample_id, f.where, f.detail) for f in report.findings if f.kind == "marker_text"]
    assert (
        texts[:2]
        == {
            "100K": [("100K-5", "turn 153", "' ->->  3,8'"), ("100K-7", "turn 236", "' ->-> 5,14)'")],
            "500K": [
                ("500K-16", "turn 680", "' ->-> 7,(N/A, but related to the context, however the instr…'"),
                ("500K-17", "turn 830", "' ->-> 7,(no specific bullet, but related to the context of …'"),
            ],
        }[tier]
    )


def test_a_surviving_marker_fails_validate(shared_data, tmp_path, capsys):
    chat = tmp_path / "chats" / "100K" / "3"
    shutil.copytree(shared_data / "beam" / "chats" / "100K" / "3", chat)
    value = json.loads((chat / "chat.json").read_text(encoding="utf-8"))
    value[0]["turns"][0][0]["content"] += "\n(written after the marker)"
    (chat / "chat.json").write_text(json.dumps(value), encoding="utf-8")
    assert main(["validate", "beam", "--data-dir", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "  probe markers left in a message's content" in out and "(an error)" in out
    assert out.rstrip().endswith(
        "FAILED: probe markers left in a message's content: the source must not be given to a memory system as it is"
    )
    assert "  source: chats/100K/3/chat.json: differs from the pinned chats/100K/3/chat.json: a modified copy" in out
    assert main(["validate", "beam", "--config", "100K", "--data-dir", str(shared_data / "beam")]) == 0


def test_an_unknown_role_is_reported_as_it_is(shared_data, tmp_path):
    """One rule with LongMemEval's (himga.finding.unknown_roles): the role stays as the source gives it."""
    chat = tmp_path / "chats" / "100K" / "3"
    shutil.copytree(shared_data / "beam" / "chats" / "100K" / "3", chat)
    value = json.loads((chat / "chat.json").read_text(encoding="utf-8"))
    value[0]["turns"][0][1]["role"] = "system"
    (chat / "chat.json").write_text(json.dumps(value), encoding="utf-8")
    report = validate("beam", "100K", data_dir=tmp_path)
    assert [(f.sample_id, f.where, f.detail) for f in report.findings if f.kind == "unknown_role"] == [
        ("100K-3", f"turn {value[0]['turns'][0][1]['id']}", "role 'system'")
    ]
    assert not report.failed


def test_stats_and_qrels(beam_tier, shared_data, tmp_path, capsys):
    beam_tier("100K")
    common = ["--config", "100K", "--data-dir", str(shared_data / "beam"), "--cache-dir", str(beam_tier.cache["100K"])]
    assert main(["stats", "beam", *common]) == 0
    out = capsys.readouterr().out
    assert "20" in out and "5,732" in out.replace("5732", "5,732")
    assert main(["qrels", "beam", str(tmp_path / "q"), *common]) == 0
    out = capsys.readouterr().out
    assert (
        out.splitlines()[0] == "beam: 400 queries, 355 evaluable, 45 excluded (excluded.tsv)"
    )  # 40 abstentions, 5 without evidence
    turn = (tmp_path / "q" / "qrels.turn.txt").read_text().splitlines()
    session = (tmp_path / "q" / "qrels.session.txt").read_text().splitlines()
    assert (len(turn), turn[0]) == (
        1_094,
        "100K-1:contradiction_resolution:0 0 100K-1:58 1",
    )  # every evidence id, each once a question
    assert "100K-1:temporal_reasoning:0 0 100K-1:2 1" in turn and "100K-1:temporal_reasoning:0 0 100K-1:S1 1" in session


def test_subset_draws_per_ability(beam_tier, shared_data, tmp_path, capsys):
    beam_tier("100K")
    out = tmp_path / "ids.txt"
    assert (
        main(
            [
                "subset",
                "beam",
                str(out),
                "--n",
                "20",
                "--seed",
                "1",
                "--stratify",
                "question_type",
                "--config",
                "100K",
                "--data-dir",
                str(shared_data / "beam"),
                "--cache-dir",
                str(beam_tier.cache["100K"]),
            ]
        )
        == 0
    )
    ids = out.read_text().split()
    assert len(ids) == 20 and sorted({i.split(":")[1] for i in ids}) == sorted(
        {
            "abstention",
            "contradiction_resolution",
            "event_ordering",
            "information_extraction",
            "instruction_following",
            "knowledge_update",
            "multi_session_reasoning",
            "preference_following",
            "summarization",
            "temporal_reasoning",
        }
    )


def test_score_requests_replies_table_and_record(beam_tier, shared_data, tmp_path, capsys):
    samples = beam_tier("100K")
    pred = tmp_path / "pred.jsonl"
    pred.write_text(
        "".join(
            json.dumps({"question_id": f"{s.sample_id}:{qa.question_id}", "hypothesis": qa.answer}) + "\n"
            for s in samples
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
    ]
    assert main([*common, "--prompts", str(tmp_path / "req.jsonl")]) == 0
    # 1,051 rubric items, and 213 (line, item) pairs of the 40 event-ordering answers (one line each)
    assert (
        capsys.readouterr().out.splitlines()[0]
        == f"wrote 1,264 judge requests to {tmp_path / 'req.jsonl'} (judge variant official); of its 213 "
        "event-ordering pairs, himga judge asks those the official walk reaches"
    )
    requests = [json.loads(line) for line in (tmp_path / "req.jsonl").read_text().splitlines()]
    assert requests[0]["request_id"] == "100K-1:abstention:0#rubric-0" and requests[0]["model"] == "gpt-4.1-mini"
    replies = write_replies(
        tmp_path / "replies.jsonl",
        requests,
        lambda r: '{"score": 1.0, "reason": "ok"}' if "#rubric-" in r["request_id"] else "YES",
        model="gpt-4.1-mini",
    )
    assert main([*common, "--labels", str(replies), "--out", str(tmp_path / "report.json")]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0] == "beam (100K): 400 questions scored (judge variant official)"
    rows = {line.split()[0]: line.split()[1:3] for line in table[2:13]}
    assert all(rows[a] == ["40", "1.0000"] for a in rows if a not in ("event_ordering", "overall"))
    report = json.loads((tmp_path / "report.json").read_text())
    # one judge, one hash: the sha256 of all three templates, as --judge beam records it (the rubric template alone was
    # d349c9a8)
    assert report["run"]["judge"]["variant"] == "official" and report["run"]["judge"]["template_sha256"].startswith(
        "c0ccd6b1"
    )
    assert len(report["run"]["sources"]) == 40 and report["run"]["sources"][0]["name"] == "chats/100K/1/chat.json"
    assert report["judge_details"]["100K-1:event_ordering:0"]["llm_judge_score"] == 1.0
    capsys.readouterr()
    assert main([*common, "--labels", str(replies), "--judge-variant", "fixed"]) == 2  # replies to the official prompts
    assert (
        "1051 replies to requests these predictions do not make (another variant or other hypotheses?)"
        in capsys.readouterr().err
    )


def test_beam_by_name_equals_the_official_route(beam_tier, shared_data, tmp_path, capsys):
    """``--judge beam,beam-fixed`` (the registry's BEAM judges, side by side) asks the same requests as the default
    route and scores each question as it does, from the same replies: the official quirk (0.5 counts 0) in ``beam``,
    fixed in ``beam-fixed``."""
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
    ]
    assert main([*common, "--prompts", str(tmp_path / "official.jsonl")]) == 0
    assert main([*common, "--judge", "beam,beam-fixed", "--prompts", str(tmp_path / "named.jsonl")]) == 0
    official = [json.loads(line) for line in (tmp_path / "official.jsonl").read_text().splitlines()]
    named = [json.loads(line) for line in (tmp_path / "named.jsonl").read_text().splitlines()]
    beam = [r for r in named if r["judge"] == "beam"]
    assert [r["messages"] for r in beam] == [r["messages"] for r in official] and len(official) == 121

    def reply(messages) -> str:  # partial on every rubric item, the same event on every pair
        return (
            '{"score": 0.5, "reason": "partly"}'
            if messages[-1]["content"].lstrip().startswith("You are an expert")
            or "rubric" in messages[-1]["content"].lower()
            else "yes"
        )

    write_replies(tmp_path / "official-replies.jsonl", official, lambda r: reply(r["messages"]))
    write_replies(tmp_path / "named-replies.jsonl", named, lambda r: reply(r["messages"]))
    capsys.readouterr()
    assert main([*common, "--labels", str(tmp_path / "official-replies.jsonl"), "--out", str(tmp_path / "o.json")]) == 0
    assert (
        main(
            [
                *common,
                "--judge",
                "beam,beam-fixed",
                "--labels",
                str(tmp_path / "named-replies.jsonl"),
                "--out",
                str(tmp_path / "n.json"),
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert (
        main([*common, "--judge", "beam", "--labels", str(tmp_path / "official-replies.jsonl")]) == 2
    )  # the other layout
    assert capsys.readouterr().err == (
        "himga: error: official-replies.jsonl: line 1: a reply to a request of himga score without --judge (its "
        "request_id says so); the replies --judge reads answer the requests --judge writes (question_id, judge, run, "
        "item): score these without --judge, or ask again from --judge NAME --prompts\n"
    )
    by_default = json.loads((tmp_path / "o.json").read_text())["per_question"]
    by_name = json.loads((tmp_path / "n.json").read_text())["per_question"]
    assert by_name["beam"] == by_default and len(by_default) == 40
    assert {q: s for q, s in by_name["beam-fixed"].items() if ":event_ordering:" not in q} == {
        q: 0.5 for q in by_default if ":event_ordering:" not in q
    }
    assert {s for q, s in by_default.items() if ":event_ordering:" not in q} == {0.0}
    # a subset (--ids: chat 1's questions) reads the replies of the whole run; those outside it are ignored
    ids = [q for q in by_default if q.startswith("100K-1:")]
    (tmp_path / "ids.txt").write_text("".join(q + "\n" for q in ids))
    common = [a for a in common if a != "--partial"] + ["--ids", str(tmp_path / "ids.txt")]
    capsys.readouterr()
    assert main([*common, "--labels", str(tmp_path / "official-replies.jsonl"), "--out", str(tmp_path / "o.json")]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "beam (100K): 20 questions scored (judge variant official)"
    assert (
        main(
            [
                *common,
                "--judge",
                "beam,beam-fixed",
                "--labels",
                str(tmp_path / "named-replies.jsonl"),
                "--out",
                str(tmp_path / "n.json"),
            ]
        )
        == 0
    )
    assert json.loads((tmp_path / "o.json").read_text())["per_question"] == {q: by_default[q] for q in ids}
    assert json.loads((tmp_path / "n.json").read_text())["per_question"]["beam"] == {q: by_default[q] for q in ids}


def _replies_with(requests: list[dict], score: str) -> str:
    """Replies to ``requests``: ``{"score": <score>}`` to the first rubric item, 1.0 to the others, YES to every
    pair."""
    lines, first = [], True
    for r in requests:
        rubric = r["messages"][0]["role"] != "system"
        reply = "YES" if not rubric else '{"score": %s}' % (score if first else "1.0")
        first = first and not rubric
        lines.append(json.dumps(replied(r, reply)))
    return "".join(line + "\n" for line in lines)


@pytest.mark.parametrize("named", [False, True])
def test_a_score_off_the_scale_is_counted_and_a_non_finite_one_refused(beam_tier, shared_data, tmp_path, capsys, named):
    samples = beam_tier("100K")
    pred = tmp_path / "pred.jsonl"
    pred.write_text(
        "".join(
            json.dumps({"question_id": f"{s.sample_id}:{qa.question_id}", "hypothesis": qa.answer}) + "\n"
            for s in samples[:1]
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
        *(["--judge", "beam"] if named else []),
    ]
    assert main([*common, "--prompts", str(tmp_path / "req.jsonl")]) == 0
    requests = [json.loads(line) for line in (tmp_path / "req.jsonl").read_text().splitlines()]
    replies = tmp_path / "replies.jsonl"
    replies.write_text(_replies_with(requests, "1e400"))
    capsys.readouterr()
    assert main([*common, "--labels", str(replies)]) == 2
    assert (
        capsys.readouterr().err
        == "himga: error: replies.jsonl: "
        + (
            "100K-1:abstention:0 run 1: judge beam cannot read a reply: item 1 (rubric-0): "
            if named
            else "100K-1:abstention:0#rubric-0: "
        )
        + "the score inf is not a finite number (1e400 and larger parse as inf)\n"
    )
    replies.write_text(_replies_with(requests, "7"))
    assert main([*common, "--labels", str(replies), "--out", str(tmp_path / "report.json")]) == 0
    out = capsys.readouterr().out.splitlines()
    report = json.loads((tmp_path / "report.json").read_text())
    scores = report["per_question"]
    assert (
        scores["100K-1:abstention:0"] == 7.0 and round(report["overall"]["mean"], 4) == 1.2862
    )  # its one item: int(7)
    if not named:
        assert report["replies_outside_scale"] == 1
        assert (
            "note: 1 judge reply gave a score outside the rubric's scale (0 to 1), counted as given, as the official "
            "code counts them" in out
        )


def test_answers_of_another_tier_are_refused(beam_tier, shared_data, tmp_path, capsys):
    """The tiers reuse chat numbers with other questions: a 500K answer, by any id form, is never scored as a 100K
    one."""
    from himga.data import system_view
    from himga.errors import SourceFormatError
    from himga.scoring import score_records

    five = beam_tier("500K")
    assert (five[0].sample_id, beam_tier("100K")[0].sample_id) == ("500K-1", "100K-1")
    view = system_view(five[0])
    records = [
        {"sample_id": view.sample_id, "question_id": view.questions[0].question_id, "response": "a"},
        {"question_id": f"500K-2:{five[1].qa_pairs[0].question_id}", "response": "b"},
        {"sample_id": "500K-3", "question_id": "abstention:0", "response": "c"},
    ]
    expected = (
        f'3 records answer questions of config 500K, not of the data scored (config 100K): $[0] {{"sample_id": '
        f'"{view.sample_id}", "question_id": "{view.sample_id}:q1"}} (sample 500K-1, config 500K); $[1] '
        f'{{"question_id": '
        '"500K-2:abstention:0"} (sample 500K-2, config 500K); $[2] {"sample_id": "500K-3", "question_id": '
        '"abstention:0"} '
        "(sample 500K-3, config 500K); the configs hold other samples under the same numbers: score them against "
        "their own config (--config / config=)"
    )
    with pytest.raises(SourceFormatError) as caught:
        score_records("beam", beam_tier("100K"), records)
    assert str(caught.value) == f"records: $: {expected}"
    pred = tmp_path / "pred.json"
    pred.write_text(json.dumps(records), encoding="utf-8")
    assert (
        main(
            [
                "score",
                "beam",
                str(pred),
                "--config",
                "100K",
                "--data-dir",
                str(shared_data / "beam"),
                "--cache-dir",
                str(beam_tier.cache["100K"]),
                "--prompts",
                str(tmp_path / "req.jsonl"),
            ]
        )
        == 2
    )
    assert capsys.readouterr().err.strip() == f"himga: error: pred.json: $: {expected}"


def test_a_run_names_each_source_file_by_its_place_in_the_layout(shared_data):
    """Every chat's files are chat.json and probing_questions.json: a run's record names them by their place."""
    from himga.run import run_identity

    files = [s["file"] for s in run_identity(benchmark("beam"), "100K", data_dir=shared_data / "beam")["sources"]]
    assert (len(files), len(set(files)), files[:2]) == (
        40,
        40,
        ["chats/100K/1/chat.json", "chats/100K/1/probing_questions/probing_questions.json"],
    )


def test_a_root_of_several_tiers_needs_the_config_on_every_route(shared_data, tmp_path, capsys):
    """One rule (the builds' and export's): no silent default tier for a folder holding several."""
    root = str(shared_data / "beam")
    expected = (
        f"himga: error: beam: {root} holds the tiers 100K, 500K, whose chats share numbers but not questions; "
        "pass the config (config= / --config)"
    )
    for argv in (
        ["stats", "beam", "--data-dir", root],
        ["validate", "beam", "--data-dir", root],
        ["export", "beam", str(tmp_path / "o"), "--data-dir", root],
    ):
        assert main(argv) == 2, argv
        assert capsys.readouterr().err.strip() == expected, argv
    from himga.publish import select_configs

    one = tmp_path / "one"
    shutil.copytree(shared_data / "beam" / "chats" / "500K" / "2", one / "chats" / "500K" / "2")
    assert select_configs("beam", None, one) == ["500K"]  # a root holding one tier: that tier, as the builds read it


def test_a_system_view_export_alone_has_no_gold_on_its_card(beam_tier, shared_data, tmp_path):
    from himga.publish import export

    samples = beam_tier("100K")
    out = tmp_path / "system"
    export("beam", out, ["100K"], data_dir=shared_data / "beam", cache_dir=beam_tier.cache["100K"], view="system")
    card = (out / "README.md").read_text(encoding="utf-8")
    gold = {t for s in samples for qa in s.qa_pairs for t in (qa.answer, *qa.raw["rubric"]) if len(t) >= 12}
    assert (len(gold), [t for t in gold if t in card]) == (1_322, [])
    quoted = next(
        qa for qa in samples[0].qa_pairs if qa.question_id == "temporal_reasoning:0"
    )  # the data notes quote it
    assert "exactly 4 weeks" in quoted.answer and "8 weeks" in quoted.raw["rubric"][0] and "4 weeks" not in card
    assert (
        "## Data notes\n\nLeft out: the benchmark's data notes quote gold answers" in card and "holds gold" not in card
    )
    export(
        "beam", out, ["100K"], data_dir=shared_data / "beam", cache_dir=beam_tier.cache["100K"]
    )  # the gold beside it
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "\n\n**This folder holds gold.** The configs `100K` hold the gold answers" in card
    assert '(answer "exactly 4 weeks", rubric "8 weeks")' in card  # the data notes are back, under the warning
