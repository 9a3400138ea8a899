"""The bad-input matrix for LongMemEval: every malformed file gives the documented himga error
naming the file, the JSON path and the question, or correct data; a failed attempt leaves no cache entry.

Each case runs through both facades (``load_longmemeval`` and ``build_dataset``, config ``oracle``).
Fixtures are written inline: ``_question()`` is a minimal valid question dict (two haystack sessions).
"""

from __future__ import annotations

import logging

import pytest
from helpers.bad_input import (
    LOADERS,
    cache_entries,
    check_bad_then_good,
)
from helpers.bad_input import (
    call_on as _call,
)
from helpers.bad_input import (
    del_key as _del,
)
from helpers.bad_input import (
    dump as _dump,
)
from helpers.bad_input import (
    replace_last as _last,
)
from helpers.bad_input import (
    set_key as _set,
)

from himga.errors import SourceFormatError

FILE = "longmemeval_oracle.json"


def _question(qid: str = "q1") -> dict:
    return {
        "question_id": qid,
        "question_type": "multi-session",
        "question": "Where did I go?",
        "answer": "Paris",
        "question_date": "2023/05/20 (Sat) 10:00",
        "haystack_dates": ["2023/05/01 (Mon) 09:00", "2023/05/02 (Tue) 09:00"],
        "haystack_session_ids": ["s1", "s2"],
        "haystack_sessions": [
            [
                {"role": "user", "content": "I went to Paris.", "has_answer": True},
                {"role": "assistant", "content": "Nice!"},
            ],
            [{"role": "user", "content": "Hello"}],
        ],
        "answer_session_ids": ["s1"],
    }


GOOD = _dump([_question()])


def _mutated(change) -> bytes:
    questions = [_question("q1"), _question("q2")]
    change(questions[1])
    return _dump(questions)


Q2 = "(question q2)"
NOT_FINITE = "expected a number that is finite in a double (at most ~1.8e308)"
TOO_LONG = "expected an id of at most 128 characters, got {}"
TOO_DEEP = "arrays and objects nested more than 64 levels deep (the benchmark files need fewer than 10)"
DUPLICATE = "duplicate key {!r}: the object holds it more than once (which value is meant is ambiguous)"


# (case id, bad file bytes, exact message)
CASES = [
    ("empty file", b"", f"{FILE}: $: expected a JSON array, got an empty file"),
    ("whitespace only", b"\n  \n", f"{FILE}: $: expected a JSON array, got only whitespace (4 bytes)"),
    ("empty array", b"[]", f"{FILE}: $: expected at least one question, found none"),
    ("top level string", b'"q1"', f"{FILE}: $: expected a JSON array at the top level, got string"),
    ("top level number", b"500", f"{FILE}: $: expected a JSON array at the top level, got number"),
    ("top level null", b"null", f"{FILE}: $: expected a JSON array at the top level, got null"),
    ("question is a number", _dump([_question(), 7]), f"{FILE}: $[1]: expected a question object, got number"),
    ("question is an array", _dump([[_question()]]), f"{FILE}: $[0]: expected a question object, got array"),
    ("question is null", _dump([None]), f"{FILE}: $[0]: expected a question object, got null"),
    # required keys missing at each level
    ("no question_id", _mutated(_del("question_id")), f"{FILE}: $[1]: missing required key 'question_id'"),
    (
        "a LoCoMo file",
        _dump([{"sample_id": "conv-1", "conversation": {"speaker_a": "A", "speaker_b": "B"}, "qa": []}]),
        f"{FILE}: $[0]: missing required key 'question_id' (this looks like a LoCoMo file: load it as dataset "
        "'locomo')",
    ),
    ("no question", _mutated(_del("question")), f"{FILE}: $[1]: missing required key 'question' {Q2}"),
    ("no answer", _mutated(_del("answer")), f"{FILE}: $[1]: missing required key 'answer' {Q2}"),
    ("no question_type", _mutated(_del("question_type")), f"{FILE}: $[1]: missing required key 'question_type' {Q2}"),
    (
        "no haystack_sessions",
        _mutated(_del("haystack_sessions")),
        f"{FILE}: $[1]: missing required key 'haystack_sessions' {Q2}",
    ),
    (
        "no haystack_session_ids",
        _mutated(_del("haystack_session_ids")),
        f"{FILE}: $[1]: missing required key 'haystack_session_ids' {Q2}",
    ),
    (
        "no haystack_dates",
        _mutated(_del("haystack_dates")),
        f"{FILE}: $[1]: missing required key 'haystack_dates' {Q2}",
    ),
    (
        "turn without role",
        _mutated(_del("haystack_sessions", 0, 1, "role")),
        f"{FILE}: $[1].haystack_sessions[0][1]: missing required key 'role' {Q2}",
    ),
    (
        "turn without content",
        _mutated(_del("haystack_sessions", 1, 0, "content")),
        f"{FILE}: $[1].haystack_sessions[1][0]: missing required key 'content' {Q2}",
    ),
    # wrong types at each level
    (
        "number as question_id",
        _mutated(_set("question_id", 7)),
        f"{FILE}: $[1].question_id: expected string, got number",
    ),
    ("null question", _mutated(_set("question", None)), f"{FILE}: $[1].question: expected string, got null {Q2}"),
    (
        "array as answer",
        _mutated(_set("answer", ["Paris"])),
        f"{FILE}: $[1].answer: expected string or number, got array {Q2}",
    ),
    (
        "boolean as answer",
        _mutated(_set("answer", True)),
        f"{FILE}: $[1].answer: expected string or number, got boolean {Q2}",
    ),
    (
        "null question_type",
        _mutated(_set("question_type", None)),
        f"{FILE}: $[1].question_type: expected string, got null {Q2}",
    ),
    (
        "null session list",
        _mutated(_set("haystack_sessions", None)),
        f"{FILE}: $[1].haystack_sessions: expected array, got null {Q2}",
    ),
    (
        "null session",
        _mutated(_set("haystack_sessions", 1, None)),
        f"{FILE}: $[1].haystack_sessions[1]: expected an array of turns, got null {Q2}",
    ),
    (
        "dict as turn list",
        _mutated(_set("haystack_sessions", 0, {"role": "user", "content": "hi"})),
        f"{FILE}: $[1].haystack_sessions[0]: expected an array of turns, got object {Q2}",
    ),
    (
        "string as turn",
        _mutated(_set("haystack_sessions", 0, 1, "Nice!")),
        f"{FILE}: $[1].haystack_sessions[0][1]: expected a turn object, got string {Q2}",
    ),
    (
        "number as content",
        _mutated(_set("haystack_sessions", 0, 0, "content", 5)),
        f"{FILE}: $[1].haystack_sessions[0][0].content: expected string, got number {Q2}",
    ),
    (
        "null role",
        _mutated(_set("haystack_sessions", 1, 0, "role", None)),
        f"{FILE}: $[1].haystack_sessions[1][0].role: expected string, got null {Q2}",
    ),
    (
        "string as session id list",
        _mutated(_set("haystack_session_ids", "s1")),
        f"{FILE}: $[1].haystack_session_ids: expected array, got string {Q2}",
    ),
    (
        "number as session id",
        _mutated(_set("haystack_session_ids", 1, 2)),
        f"{FILE}: $[1].haystack_session_ids[1]: expected string, got number {Q2}",
    ),
    (
        "string as date list",
        _mutated(_set("haystack_dates", "2023/05/01")),
        f"{FILE}: $[1].haystack_dates: expected array, got string {Q2}",
    ),
    (
        "number as date",
        _mutated(_set("haystack_dates", 0, 20230501)),
        f"{FILE}: $[1].haystack_dates[0]: expected string, got number {Q2}",
    ),
    (
        "number as question_date",
        _mutated(_set("question_date", 20230520)),
        f"{FILE}: $[1].question_date: expected string, got number {Q2}",
    ),
    (
        "string as evidence list",
        _mutated(_set("answer_session_ids", "s1")),
        f"{FILE}: $[1].answer_session_ids: expected an array of strings {Q2}",
    ),
    (
        "number in evidence list",
        _mutated(_set("answer_session_ids", ["s1", 2])),
        f"{FILE}: $[1].answer_session_ids: expected an array of strings {Q2}",
    ),
    # duplicate object keys (a JSON parser would keep the last answer)
    (
        "answer twice",
        GOOD.replace(b'"answer": "Paris"', b'"answer": "Paris", "answer": "Rome"'),
        f"{FILE}: $[0].answer: {DUPLICATE.format('answer')} (question q1)",
    ),
    (
        "same answer twice",
        GOOD.replace(b'"answer": "Paris"', b'"answer": "Paris", "answer": "Paris"'),
        f"{FILE}: $[0].answer: {DUPLICATE.format('answer')} (question q1)",
    ),
    (
        "answer twice in the second question",
        _last(_dump([_question("q1"), _question("q2")]), b'"answer": "Paris"', b'"answer": "Paris", "answer": "Rome"'),
        f"{FILE}: $[1].answer: {DUPLICATE.format('answer')} {Q2}",
    ),
    (
        "content twice in a turn",
        GOOD.replace(b'"content": "Nice!"', b'"content": "Nice!", "content": "Bad"'),
        f"{FILE}: $[0].haystack_sessions[0][1].content: {DUPLICATE.format('content')} (question q1)",
    ),
    (
        "has_answer twice",
        GOOD.replace(b'"has_answer": true', b'"has_answer": true, "has_answer": true'),
        f"{FILE}: $[0].haystack_sessions[0][0].has_answer: {DUPLICATE.format('has_answer')} (question q1)",
    ),
    # parallel lists of different lengths
    (
        "one date too few",
        _mutated(_call(list.pop, "haystack_dates")),
        f"{FILE}: $[1].haystack_dates: 1 dates for 2 sessions {Q2}",
    ),
    (
        "one date too many",
        _mutated(_call(lambda d: d.append("2023/05/03 (Wed) 09:00"), "haystack_dates")),
        f"{FILE}: $[1].haystack_dates: 3 dates for 2 sessions {Q2}",
    ),
    (
        "one session id too many",
        _mutated(_call(lambda d: d.append("s3"), "haystack_session_ids")),
        f"{FILE}: $[1].haystack_session_ids: 3 session ids for 2 sessions {Q2}",
    ),
    (
        "one session too few",
        _mutated(_call(list.pop, "haystack_sessions")),
        f"{FILE}: $[1].haystack_session_ids: 2 session ids for 1 sessions {Q2}",
    ),
    # identifiers longer than MAX_ID_LENGTH (128 characters; they are repeated in every qrels line)
    (
        "question_id of 200,000 characters",
        _mutated(_set("question_id", "q" * 200_000)),
        f"{FILE}: $[1].question_id: {TOO_LONG.format('200,000')}",
    ),
    (
        "session id of 129 characters",
        _mutated(_set("haystack_session_ids", 1, "s" * 129)),
        f"{FILE}: $[1].haystack_session_ids[1]: {TOO_LONG.format(129)} {Q2}",
    ),
    (
        "answer session id of 129 characters",
        _mutated(_set("answer_session_ids", ["s" * 129])),
        f"{FILE}: $[1].answer_session_ids[0]: {TOO_LONG.format(129)} {Q2}",
    ),
    # control characters in ids (a TREC reader cuts 'x\0y' at the NUL into a phantom query 'x')
    (
        "NUL in question_id",
        _mutated(_set("question_id", "x\0y")),
        f"{FILE}: $[1].question_id: expected an id without control characters, got 'x\\x00y'",
    ),
    (
        "ESC in a session id",
        _mutated(_set("haystack_session_ids", 0, "s1\x1b[31m")),
        f"{FILE}: $[1].haystack_session_ids[0]: expected an id without control characters, got 's1\\x1b[31m' {Q2}",
    ),
    (
        "tab in an answer session id",
        _mutated(_set("answer_session_ids", ["s\t1"])),
        f"{FILE}: $[1].answer_session_ids[0]: expected an id without control characters, got 's\\t1' {Q2}",
    ),
    # ids a TREC file cannot hold: whitespace of any kind, or nothing at all
    (
        "question_id with a space",
        _mutated(_set("question_id", "q 1")),
        f"{FILE}: $[1].question_id: expected an id without whitespace, got 'q 1'",
    ),
    (
        "empty question_id",
        _mutated(_set("question_id", "")),
        f"{FILE}: $[1].question_id: expected a non-empty id, got ''",
    ),
    (
        "question_id with a no-break space",
        _mutated(_set("question_id", "q\xa0x")),
        f"{FILE}: $[1].question_id: expected an id without whitespace, got 'q\\xa0x'",
    ),
    (
        "question_id with a line separator",
        _mutated(_set("question_id", "q\u2028x")),
        f"{FILE}: $[1].question_id: expected an id without whitespace, got 'q\\u2028x'",
    ),
    (
        "session id with a space",
        _mutated(_set("haystack_session_ids", 0, "s 1")),
        f"{FILE}: $[1].haystack_session_ids[0]: expected an id without whitespace, got 's 1' {Q2}",
    ),
    (
        "empty answer session id",
        _mutated(_set("answer_session_ids", [""])),
        f"{FILE}: $[1].answer_session_ids[0]: expected a non-empty id, got '' {Q2}",
    ),
    # has_answer decides relevance: true or false, nothing else
    (
        "has_answer 'yes'",
        _mutated(_set("haystack_sessions", 0, 0, "has_answer", "yes")),
        f"{FILE}: $[1].haystack_sessions[0][0].has_answer: expected boolean, got string {Q2}",
    ),
    (
        "has_answer null",
        _mutated(_set("haystack_sessions", 0, 0, "has_answer", None)),
        f"{FILE}: $[1].haystack_sessions[0][0].has_answer: expected boolean, got null {Q2}",
    ),
    (
        "has_answer 1",
        _mutated(_set("haystack_sessions", 0, 1, "has_answer", 1)),
        f"{FILE}: $[1].haystack_sessions[0][1].has_answer: expected boolean, got number {Q2}",
    ),
    # numbers beyond a double, integers beyond 64 bits (§11: the C parser's limit, explained)
    (
        "answer 1e400",
        _mutated(_set("answer", "X")).replace(b'"X"', b"1e400"),
        f"{FILE}: $[1]: {NOT_FINITE}: parse error: numeric (floating point) overflow {Q2}",
    ),
    (
        "answer -1e400",
        _mutated(_set("answer", "X")).replace(b'"X"', b"-1e400"),
        f"{FILE}: $[1]: {NOT_FINITE}: parse error: numeric (floating point) overflow {Q2}",
    ),
    (
        "answer of 20 digits",
        _mutated(_set("answer", "X")).replace(b'"X"', b"12345678901234567890"),
        f"{FILE}: $[1]: invalid JSON: parse error: integer overflow (this reader holds integers in 64 bits, -2**63+1 "
        f"to 2**63-1; write a larger one as a string, or as a float if precision does not matter) {Q2}",
    ),
    # nesting past MAX_DEPTH (64) stops before ijson's C backend sees it; the real files need 5 levels
    (
        "content: arrays nested 100,000 deep",
        _mutated(_set("haystack_sessions", 0, 0, "content", "X")).replace(b'"X"', b"[" * 100_000 + b"]" * 100_000),
        f"{FILE}: $[1]: {TOO_DEEP} {Q2}",
    ),
    (
        "content: objects nested 100,000 deep",
        _mutated(_set("haystack_sessions", 0, 0, "content", "X")).replace(
            b'"X"', b'{"a": ' * 100_000 + b"1" + b"}" * 100_000
        ),
        f"{FILE}: $[1]: {TOO_DEEP} {Q2}",
    ),
    (
        "content: arrays nested 65 deep",
        _mutated(_set("haystack_sessions", 0, 0, "content", "X")).replace(b'"X"', b"[" * 60 + b"]" * 60),
        f"{FILE}: $[1]: {TOO_DEEP} {Q2}",
    ),
    (
        "content: arrays nested 64 deep",
        _mutated(_set("haystack_sessions", 0, 0, "content", "X")).replace(b'"X"', b"[" * 59 + b"]" * 59),
        f"{FILE}: $[1].haystack_sessions[0][0].content: expected string, got array {Q2}",
    ),
    ("top level: 100,000 arrays", b"[" * 100_000 + b"]" * 100_000, f"{FILE}: $[0]: {TOO_DEEP}"),
    ("top level: 100,000 objects", b'{"a": ' * 100_000 + b"1" + b"}" * 100_000, f"{FILE}: $: {TOO_DEEP}"),
]

# (case id, bad file bytes, expected start of the message)
PREFIX_CASES = [
    ("truncated mid-record", GOOD[: len(GOOD) // 2], f"{FILE}: $[0]: invalid JSON: parse error: premature EOF"),
    (
        "truncated in the second question",
        _dump([_question("q1"), _question("q2")])[: len(GOOD) + 40],
        f"{FILE}: $[1]: invalid JSON: parse error: premature EOF",
    ),
    ("trailing garbage", GOOD + b" x", f"{FILE}: $: invalid JSON: "),
    (
        "invalid UTF-8 byte",
        GOOD.replace(b"Paris.", b"Par\xffis."),
        f"{FILE}: $[0]: invalid JSON: lexical error: invalid bytes in UTF8 string.",
    ),
    (
        "top level string",
        b'"a question"',
        f"{FILE}: $: expected a JSON array at the top level, got string",
    ),  # one object is one question
    (
        "NaN literal",
        GOOD.replace(b'"answer": "Paris"', b'"answer": NaN'),
        f"{FILE}: $[0]: invalid JSON: lexical error: invalid char in json text.",
    ),
    (
        "Infinity literal",
        GOOD.replace(b'"answer": "Paris"', b'"answer": Infinity'),
        f"{FILE}: $[0]: invalid JSON: lexical error: invalid char in json text.",
    ),
    ("-Infinity literal", GOOD.replace(b'"answer": "Paris"', b'"answer": -Infinity'), f"{FILE}: $[0]: invalid JSON: "),
    (
        "lone surrogate in a key",
        GOOD.replace(b'"has_answer"', b'"\\udc00": 1, "has_answer"'),
        f"{FILE}: $[0]: expected valid Unicode text, got a lone surrogate",
    ),
]


@pytest.fixture(params=sorted(LOADERS["longmemeval"]))
def loader(request):
    return LOADERS["longmemeval"][request.param]


@pytest.mark.parametrize(("bad", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_file_exact_message(loader, tmp_path, bad, message):
    error, samples = check_bad_then_good(
        loader, tmp_path / FILE, bad, GOOD, tmp_path / "cache", SourceFormatError, message=message
    )
    assert error.file == FILE
    assert [s.sample_id for s in samples] == ["q1"]


@pytest.mark.parametrize(("bad", "prefix"), [c[1:] for c in PREFIX_CASES], ids=[c[0] for c in PREFIX_CASES])
def test_bad_file_message_names_file_and_path(loader, tmp_path, bad, prefix):
    error, samples = check_bad_then_good(
        loader, tmp_path / FILE, bad, GOOD, tmp_path / "cache", SourceFormatError, prefix=prefix
    )
    assert [s.sample_id for s in samples] == ["q1"]


def test_truncated_file_names_the_question(tmp_path):
    loader = LOADERS["longmemeval"]["load_longmemeval"]
    bad = _dump([_question("q1"), _question("7161e7e2")])
    error, _ = check_bad_then_good(loader, tmp_path / FILE, bad[:-30], GOOD, tmp_path / "c", SourceFormatError)
    assert str(error) == f"{FILE}: $[1]: invalid JSON: parse error: premature EOF (truncated file?) (question 7161e7e2)"


# ---- accepted inputs -------------------------------------------------------------------------------


def test_utf8_bom_is_accepted(loader, tmp_path):
    plain = loader(_write(tmp_path / "plain.json", GOOD), tmp_path / "cache")
    with_bom = loader(_write(tmp_path / FILE, b"\xef\xbb\xbf" + GOOD), tmp_path / "cache")
    assert with_bom == plain
    assert with_bom[0].sessions[0].messages[0].content == "I went to Paris."


def test_unknown_question_type_falls_back_with_a_warning(loader, tmp_path, caplog):
    question = _question()
    question["question_type"] = "multi-hop-reasoning"
    with caplog.at_level(logging.WARNING):
        (sample,) = loader(_write(tmp_path / FILE, _dump([question])), tmp_path / "cache")
    assert sample.qa_pairs[0].question_type.value == "single_session_user"
    assert sample.qa_pairs[0].raw["question_type"] == "multi-hop-reasoning"
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING and "multi-hop-reasoning" in r.getMessage()]
    assert len(warnings) == 1
    assert warnings[0].getMessage() == (
        "longmemeval: question q1 has unknown question_type 'multi-hop-reasoning'; "
        "using 'single_session_user' (the original stays in raw)"
    )


def test_underscore_question_type_is_known(loader, tmp_path, caplog):
    question = _question()
    question["question_type"] = "knowledge_update"
    with caplog.at_level(logging.WARNING):
        (sample,) = loader(_write(tmp_path / FILE, _dump([question])), tmp_path / "cache")
    assert sample.qa_pairs[0].question_type.value == "knowledge_update"
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING and "question_type" in r.getMessage()]


def test_200k_character_turn_is_accepted(loader, tmp_path):
    question = _question()
    question["haystack_sessions"][1][0]["content"] = "y" * 199_999 + "ü"
    (sample,) = loader(_write(tmp_path / FILE, _dump([question])), tmp_path / "cache")
    content = sample.sessions[1].messages[0].content
    assert len(content) == 200_000
    assert content.endswith("yü")


def test_5000_turn_session_is_accepted(loader, tmp_path):
    question = _question()
    question["haystack_sessions"][1] = [
        {"role": ("user", "assistant")[i % 2], "content": f"turn {i + 1}"} for i in range(5000)
    ]
    (sample,) = loader(_write(tmp_path / FILE, _dump([question])), tmp_path / "cache")
    messages = sample.sessions[1].messages
    assert len(messages) == 5000
    assert (messages[0].role, messages[-1].role, messages[-1].content) == ("user", "assistant", "turn 5000")


def test_duplicate_session_ids_and_blank_turns_are_kept(loader, tmp_path):
    question = _question()
    question["haystack_session_ids"] = ["s1", "s1"]
    question["haystack_sessions"][1] = [{"role": "user", "content": ""}, {"role": "assistant", "content": "  "}]
    (sample,) = loader(_write(tmp_path / FILE, _dump([question])), tmp_path / "cache")
    assert [s.session_id for s in sample.sessions] == ["s1", "s1"]
    assert [m.content for m in sample.sessions[1].messages] == ["", "  "]


def test_optional_keys_may_be_missing(loader, tmp_path):
    question = _question()
    del question["question_date"], question["answer_session_ids"]
    question["answer"] = 42
    (sample,) = loader(_write(tmp_path / FILE, _dump([question])), tmp_path / "cache")
    assert sample.qa_pairs[0].answer == "42"
    assert sample.qa_pairs[0].evidence.session_ids == []
    assert sample.raw == {}


def test_directory_ignores_non_json_files_and_subfolders(tmp_path):
    from himga.data import load_longmemeval

    data = tmp_path / "data"
    (data / "sub").mkdir(parents=True)
    _write(data / "b.json", _dump([_question("qb")]))
    _write(data / "a.json", _dump([_question("qa")]))
    _write(data / "sub" / "c.json", b"not json")
    _write(data / "notes.txt", b"hello")
    _write(data / ".qc.json", b"[")  # hidden (macOS ._ files, editors' backups)
    (data / "folder.json").mkdir()
    samples = load_longmemeval(
        data, config="oracle", cache_dir=tmp_path / "cache"
    )  # no file of any config: two parts of one source
    assert [s.sample_id for s in samples] == ["qa", "qb"]


@pytest.mark.parametrize("layout", ["empty", "only other files", "json only in subfolders"])
def test_directory_without_data_is_a_clear_error(tmp_path, layout):
    from himga.data import load_longmemeval

    data = tmp_path / "data"
    data.mkdir()
    if layout != "empty":
        _write(data / "notes.txt", b"hello")
        (data / "sub").mkdir()
        if layout == "json only in subfolders":
            _write(data / "sub" / FILE, GOOD)
    with pytest.raises(SourceFormatError) as info:
        load_longmemeval(data, cache_dir=tmp_path / "cache")
    assert str(info.value) == "data: $: expected at least one .json file in the directory, found none"
    assert cache_entries(tmp_path / "cache") == []
    _write(data / FILE, GOOD)
    assert [s.sample_id for s in load_longmemeval(data, cache_dir=tmp_path / "cache")] == ["q1"]


def test_config_folder_without_the_config_file_lists_the_names(tmp_path):
    from himga.data import build_dataset
    from himga.errors import HimgaError

    data = tmp_path / "data"
    data.mkdir()
    _write(data / "other.json", GOOD)
    _write(data / "longmemeval_s_cleaned.json", GOOD)  # another config's file: other.json is not taken for oracle's
    with pytest.raises(HimgaError) as info:
        build_dataset("longmemeval", "oracle", path=data, cache_dir=tmp_path / "cache")
    assert str(info.value) == (
        f"longmemeval (config 'oracle'): no source file in {data}; looked for longmemeval_oracle.json, "
        "longmemeval_oracle, "
        "longmemeval_oracle.jsonl; found longmemeval_s_cleaned.json, other.json (pass the file itself instead of its "
        "folder to use another name)"
    )


def _write(path, data: bytes):
    path.write_bytes(data)
    return path
