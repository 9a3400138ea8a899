"""The himga_personamem builder on the real 32k split: exact values measured on the files, each question at its position
in its shared context (nothing after it), every CSV column kept, the split pinned by content whatever its line endings,
and bad input named by file and row."""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path

import datasets
import pytest

from himga.catalog import benchmark
from himga.data import SAMPLE_FEATURES, QuestionType, load_dataset, system_view
from himga.errors import ConfigurationError, SourceFormatError
from himga.scoring import PERSONAMEM_SCORER
from himga.sources import provenance
from himga.validate import validate
from himga_personamem.records import QUESTION_TYPES
from himga_personamem.source_record import sample_to_record

#: ``question_type`` counts of ``questions_32k.csv``.
TYPES = {
    "track_full_preference_evolution": 139,
    "recall_user_shared_facts": 129,
    "recalling_the_reasons_behind_previous_updates": 99,
    "suggest_new_ideas": 93,
    "generalizing_to_new_scenarios": 57,
    "provide_preference_aligned_recommendations": 55,
    "recalling_facts_mentioned_by_the_user": 17,
}


@pytest.fixture(scope="module")
def samples(personamem_samples):
    return personamem_samples


@pytest.fixture(scope="module")
def source(shared_data):
    """The two files read directly: ``(CSV rows as dicts, {context id: turns} in file order, header)``."""
    folder = shared_data / "personamem"
    with open(folder / "questions_32k.csv", newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        rows = list(reader)
    contexts = {}
    for line in (folder / "shared_contexts_32k.jsonl").read_text(encoding="utf-8").splitlines():
        contexts.update(json.loads(line))
    return rows, contexts, reader.fieldnames


def test_one_sample_per_shared_context(samples, source):
    rows, contexts, _ = source
    assert [s.sample_id for s in samples] == list(contexts)  # the contexts file's order
    assert {s.dataset for s in samples} == {"personamem"}
    assert (len(samples), sum(len(s.sessions) for s in samples)) == (37, 195)
    messages = [m for s in samples for session in s.sessions for m in session.messages]
    assert len(messages) == 6462
    assert Counter(m.role for m in messages) == {"user": 3363, "assistant": 2904, "system": 195}
    assert Counter(len(s.sessions) for s in samples) == {5: 19, 6: 11, 4: 5, 7: 2}
    assert all(session.messages[0].role == "system" for s in samples for session in s.sessions)  # a persona opens it
    assert {(m.date_str, session.date_str) for s in samples for session in s.sessions for m in session.messages} == {
        (None, None)
    }  # no dates in this release
    assert (samples[0].speaker_a, samples[0].speaker_b, samples[0].raw) == (None, None, {})


def test_every_turn_is_a_message_as_written(samples, source):
    _, contexts, _ = source
    for s in samples:
        messages = [m for session in s.sessions for m in session.messages]
        assert [{"role": m.role, "content": m.content} for m in messages] == contexts[s.sample_id]
        assert [m.turn_id for m in messages] == [str(i) for i in range(len(messages))]
    first = samples[0].sessions[0].messages
    assert first[1].content.startswith("User: ") and first[2].content.startswith("Assistant: ")


def test_each_question_is_a_qa_pair_at_its_position(samples, source):
    rows, contexts, header = source
    qas = [(s, qa) for s in samples for qa in s.qa_pairs]
    assert len(qas) == 589 and [qa.question_id for _, qa in qas] == [r["question_id"] for r in rows]  # CSV order
    assert Counter(str(qa.question_type) for _, qa in qas) == TYPES
    assert QUESTION_TYPES == PERSONAMEM_SCORER.type_order == tuple(dict.fromkeys(r["question_type"] for r in rows))
    assert all(isinstance(qa.question_type, QuestionType) for _, qa in qas)
    for (s, qa), row in zip(qas, rows, strict=True):
        assert s.sample_id == row["shared_context_id"] and qa.raw == row and list(qa.raw) == header  # every column
        assert (qa.question, qa.answer, qa.position) == (
            row["user_question_or_message"],
            row["correct_answer"],
            int(row["end_index_in_shared_context"]),
        )
        assert str(list(qa.options)) == row["all_options"] and len(qa.options) == 4  # the rule that rebuilds the cell
        assert [o[:4] for o in qa.options] == ["(a) ", "(b) ", "(c) ", "(d) "]
        assert (qa.evidence.turn_ids, qa.evidence.session_ids, qa.is_abstention) == ([], [], False)
    assert Counter(qa.answer for _, qa in qas) == {"(c)": 158, "(b)": 146, "(a)": 143, "(d)": 142}
    assert (min(qa.position for _, qa in qas), max(qa.position for _, qa in qas)) == (96, 237)
    json_cells = sum(1 for r in rows if r["all_options"].startswith('["') and _is_json(r["all_options"]))
    assert json_cells == 286  # the other 303 hold a single-quoted item: a Python list literal, not JSON


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def test_no_question_sees_a_turn_after_its_end_index(samples, source):
    """The system view's position counts the Sample's messages in order across sessions: the messages before it are
    exactly ``context[:end_index_in_shared_context]``, and the turn at it is the next one of the context (for 139
    questions it is the question itself, verbatim)."""
    _, contexts, _ = source
    at_question = 0
    for s in samples:
        view = system_view(s)
        seen = [m.content for session in view.sessions for m in session.messages]
        for qa, question in zip(s.qa_pairs, view.questions, strict=True):
            assert question.position == qa.position and question.options == qa.options
            assert seen[: question.position] == [t["content"] for t in contexts[s.sample_id][: qa.position]]
            at_question += qa.question in seen[qa.position]
    assert at_question == 139
    assert "correct_answer" not in json.dumps([q.__dict__ for q in system_view(samples[0]).questions])


def test_item_ids_are_the_question_ids_and_no_retrieval_is_labelled(samples):
    from himga.data import item_id

    sample = samples[0]
    qa = sample.qa_pairs[0]
    assert item_id(sample, qa) == "acd74206-37dc-4756-94a8-b99a395d9a21"
    rel = sample.relevance(qa)
    assert (rel.evaluable, rel.reason, rel.turns) == (False, "no evidence", [])


def test_a_source_record_is_rebuilt(samples, source):
    rows, contexts, _ = source
    rebuilt_rows = []
    for s in samples:
        line, questions = sample_to_record(s)
        assert line == {s.sample_id: contexts[s.sample_id]}
        rebuilt_rows += questions
    assert rebuilt_rows == rows


def test_validate_lists_the_second_spelling_beside_the_first(shared_data):
    report = validate("personamem", data_dir=shared_data / "personamem")
    assert (report.samples, report.config) == (37, "32k")
    assert report.counts == {
        "first_spelling": 129,
        "second_spelling": 17,
        "unprefixed_turn": 246,
        "options_shape": 0,
        "options_not_rebuilt": 0,
        "gold_not_an_option": 0,
        "repeated_question": 3,
        "letters_mismatch": 0,
        "unknown_role": 0,
        "blank_turn": 0,
        "context_without_question": 0,
        "dangling_evidence": 0,
        "duplicate_question": 57,
        "duplicate_turn_id": 0,
    }
    unprefixed = Counter(f.where.rsplit("(", 1)[1] for f in report.findings if f.kind == "unprefixed_turn")
    assert unprefixed == {"user)": 175, "assistant)": 71}
    assert report.provenance == [
        "questions_32k.csv: same content as bowen-upenn/PersonaMem-v1@a8076d5 (re-serialised; sha256 "
        "23f306a8d28b7ffcf133fe7dad09ade06fcb862fc7c3f19691362a5cd69409bd)",
        "shared_contexts_32k.jsonl = bowen-upenn/PersonaMem-v1@a8076d5, sha256 ok",
    ]


def test_the_hub_line_endings_are_the_same_content(shared_data, tmp_path):
    """The Hub's CSV has CRLF line endings: with them restored, the copy is the pinned file byte for byte, and a build
    of either gives the same rows."""
    folder = tmp_path / "crlf"
    folder.mkdir()
    data = (shared_data / "personamem" / "questions_32k.csv").read_bytes()
    (folder / "questions_32k.csv").write_bytes(data.replace(b"\n", b"\r\n"))
    (folder / "shared_contexts_32k.jsonl").symlink_to(shared_data / "personamem" / "shared_contexts_32k.jsonl")
    pins = list(benchmark("personamem").pins().values())
    assert provenance(
        folder / "questions_32k.csv", pins
    ) == "questions_32k.csv = bowen-upenn/PersonaMem-v1@a8076d5, " + ("sha256 ok")
    crlf = datasets.load_dataset("himga_personamem", data_dir=str(folder), split="test", cache_dir=str(tmp_path / "c"))
    lf = datasets.load_dataset(
        "himga_personamem", data_dir=str(shared_data / "personamem"), split="test", streaming=True
    )
    assert crlf.features == SAMPLE_FEATURES == lf.features
    assert list(lf) == list(crlf)


def test_the_split_a_source_is(shared_data, tmp_path):
    entry = benchmark("personamem")
    folder = shared_data / "personamem"
    assert entry.config_of(None, folder) == "32k"
    assert [p.name for p in entry.source_files("32k", folder / "questions_32k.csv")] == [
        "questions_32k.csv",
        "shared_contexts_32k.jsonl",
    ]
    files = [str(folder / "shared_contexts_32k.jsonl"), str(folder / "questions_32k.csv")]
    assert entry.config_of(None, None, files) == "32k"
    with pytest.raises(ConfigurationError, match=r"no questions_128k\.csv and shared_contexts_128k\.jsonl in .*"):
        entry.config_of("128k", folder)
    with pytest.raises(ConfigurationError, match="is the 32k split's file, not 1M's"):
        entry.config_of("1M", None, files)
    (tmp_path / "questions.csv").write_text("x")
    with pytest.raises(ConfigurationError, match="cannot tell the split of questions.csv"):
        entry.config_of(None, None, [str(tmp_path / "questions.csv")])
    with pytest.raises(ConfigurationError, match=r"no pinned source: the 128k split's revision on the Hub"):
        entry.source_files("128k", None)
    assert [p.revision for p in entry.pins().values()] == ["a8076d5608c93ba2a28983cd78aa99b01a163ae7", None, None]
    assert entry.pin("32k").parts[1].sha256 == "217247ebfec9e8442fc53570c795ab69f21aad08745f7de78d9beab51b122d4a"


def _spoil(shared_data, tmp_path, name: str, edit) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    rows = list(csv.reader((shared_data / "personamem" / "questions_32k.csv").open(newline="", encoding="utf-8")))
    lines = (shared_data / "personamem" / "shared_contexts_32k.jsonl").read_text(encoding="utf-8").splitlines()
    rows, lines = edit(rows, lines)
    with open(folder / "questions_32k.csv", "w", newline="", encoding="utf-8") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)
    (folder / "shared_contexts_32k.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def _cell(rows, n: int, column: str, value: str):
    rows[n][rows[0].index(column)] = value
    return rows


def _turns_edit(lines, index: int, edit):
    value = json.loads(lines[index])
    ((cid, turns),) = value.items()
    edit(turns)
    lines[index] = json.dumps(value)
    return lines


CASES = [
    (
        lambda r, ln: (_cell(r, 3, "end_index_in_shared_context", "999"), ln),
        "questions_32k.csv: row 3.end_index_in_shared_context: 999 is past the end of context e898d03fec68... "
        "(183 turns)",
    ),
    (
        lambda r, ln: (_cell(r, 2, "end_index_in_shared_context", "-1"), ln),
        "questions_32k.csv: row 2.end_index_in_shared_context: expected a non-negative integer, got '-1'",
    ),
    (
        lambda r, ln: (_cell(r, 5, "all_options", "(a) yes (b) no"), ln),
        "questions_32k.csv: row 5.all_options: expected a list of option strings, got '(a) yes (b) no'",
    ),
    (
        lambda r, ln: (_cell(r, 7, "question_type", "recall_facts"), ln),
        "questions_32k.csv: row 7.question_type: expected one of recall_user_shared_facts, "
        "provide_preference_aligned_recommendations, suggest_new_ideas, recalling_the_reasons_behind_previous_updates, "
        "track_full_preference_evolution, generalizing_to_new_scenarios, recalling_facts_mentioned_by_the_user, got "
        "'recall_facts'",
    ),
    (
        lambda r, ln: (_cell(r, 9, "question_id", r[1][1]), ln),
        "questions_32k.csv: row 9.question_id: 'acd74206-37dc-4756-94a8-b99a395d9a21' is also the id of row 1",
    ),
    (
        lambda r, ln: ([row[:12] + row[13:] for row in r], ln),
        "questions_32k.csv: line 1: missing column 'all_options'",
    ),
    (
        lambda r, ln: (r, ln[1:]),
        "questions_32k.csv: row 1.shared_context_id: "
        "'e898d03fec683b1cabf29f57287ff66f8a31842543ecef44b56766844c1c1301' names no context of "
        "shared_contexts_32k.jsonl (and 8 more questions)",
    ),
    (
        lambda r, ln: (r, _turns_edit(ln, 2, lambda t: t[4].pop("content"))),
        "shared_contexts_32k.jsonl: line 3.ae5c969c32dafa28ff3f884495f4655de811b061007afaf3307d7b858ff7cfae[4]"
        ".content: expected a string, got nothing",
    ),
    (
        lambda r, ln: (r, [*ln, ln[0]]),
        "shared_contexts_32k.jsonl: line 38: context "
        "'e898d03fec683b1cabf29f57287ff66f8a31842543ecef44b56766844c1c1301' is also on line 1",
    ),
]


@pytest.mark.parametrize("n", range(len(CASES)))
def test_bad_input_names_the_file_and_the_row(shared_data, tmp_path, n):
    edit, message = CASES[n]
    folder = _spoil(shared_data, tmp_path, str(n), edit)
    with pytest.raises(SourceFormatError) as e:
        load_dataset("personamem", data_dir=folder, cache_dir=tmp_path / "c")
    assert str(e.value) == message


def test_a_folder_with_one_file_of_the_pair(shared_data, tmp_path):
    (tmp_path / "questions_32k.csv").symlink_to(shared_data / "personamem" / "questions_32k.csv")
    with pytest.raises(SourceFormatError, match=r"^shared_contexts_32k.jsonl: \$: missing in .*: a split is read from"):
        load_dataset("personamem", config="32k", data_dir=tmp_path, cache_dir=tmp_path / "c")


def test_the_usage_page_snippet_runs_as_written(shared_data, tmp_path):
    """docs/usage.md, "PersonaMem: questions inside the history": the snippet runs and its comments are what it
    gives."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "usage.md").read_text(encoding="utf-8")
    section = text.split("## PersonaMem: questions inside the history\n", 1)[1].split("\n## ", 1)[0]
    snippet = section.split("```python\n", 1)[1].split("```\n", 1)[0]
    code = snippet.replace("../shared/data", str(shared_data)).replace(
        'data_dir="', f'cache_dir="{tmp_path / "c"}", data_dir="'
    )
    ns: dict = {}
    exec(compile(code, "usage.md", "exec"), ns)
    samples, sample, qa = ns["samples"], ns["sample"], ns["qa"]
    claims = {
        "# 37 samples, 589 QA pairs": (len(samples), sum(len(s.qa_pairs) for s in samples)) == (37, 589),
        "# 5 sessions, 183 messages, 9 questions": (len(sample.sessions), len(ns["messages"]), len(sample.qa_pairs))
        == (5, 183, 9),
        "# (182, '(c)', 'recall_user_shared_facts')": (qa.position, qa.answer, qa.question_type.value)
        == (182, "(c)", "recall_user_shared_facts"),
        '# "(c) It\'s great to see such innovative ap"': qa.options[2][:40]
        == "(c) It's great to see such innovative ap",
        "# what the question sees; messages[0].role is 'system'": len(ns["history"]) == 182
        and ns["messages"][0].role == "system",
    }
    assert {claim: claim in snippet and ok for claim, ok in claims.items()} == dict.fromkeys(claims, True)


def test_the_export_loads_without_himga_and_its_card_is_the_committed_one(shared_data, tmp_path):
    from helpers.exports import assert_same_as_builder, load_without_himga

    from himga.data.loaders import build_dataset
    from himga.publish import export

    out = tmp_path / "personamem_export"
    assert export("personamem", out, data_dir=shared_data / "personamem")["32k"].num_examples == 37
    built = build_dataset("personamem", path=shared_data / "personamem", cache_dir=tmp_path / "c")
    assert_same_as_builder(load_without_himga(tmp_path, str(out)), built)
    committed = Path(__file__).resolve().parents[2] / "himga_personamem" / "README.md"
    # regenerate: himga export personamem himga_personamem --card-only --data-dir ../shared/data/personamem
    assert (out / "README.md").read_text(encoding="utf-8") == committed.read_text(encoding="utf-8")
