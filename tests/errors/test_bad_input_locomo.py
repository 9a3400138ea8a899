"""The bad-input matrix for LoCoMo: every malformed file gives the documented himga error
naming the file and the JSON path, or correct data; a failed attempt never leaves a cache entry behind.

Each case runs through both facades (``load_locomo`` and ``build_dataset``). Fixtures are written inline:
``_record()`` is a minimal valid current-layout sample record (two sessions, two QA pairs).
"""

from __future__ import annotations

import json

import datasets
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

from himga.cache import make_builder
from himga.catalog import benchmark
from himga.errors import HimgaError, SourceFormatError

FILE = "locomo10.json"


def _record(sample_id: str = "conv-x") -> dict:
    conversation = {"speaker_a": "Ann", "speaker_b": "Bob"}
    for n in (1, 2):
        conversation[f"session_{n}_date_time"] = f"1:0{n} pm on {n} May, 2023"
        conversation[f"session_{n}"] = [
            {"speaker": "Ann", "dia_id": f"D{n}:1", "text": f"hello {n}"},
            {"speaker": "Bob", "dia_id": f"D{n}:2", "text": "hi", "blip_caption": "a cat"},
        ]
    return {
        "sample_id": sample_id,
        "conversation": conversation,
        "qa": [
            {"question": "When?", "answer": 2023, "evidence": ["D1:1"], "category": 2},
            {"question": "Bob's dog?", "adversarial_answer": "Rex", "evidence": [], "category": 5},
        ],
    }


GOOD = _dump([_record()])


def _mutated(change) -> bytes:
    records = [_record("conv-a"), _record("conv-b")]
    change(records[1])
    return _dump(records)


NOT_FINITE = "expected a number that is finite in a double (at most ~1.8e308)"
TOO_LONG = "expected an id of at most 128 characters, got {}"
TOO_DEEP = "arrays and objects nested more than 64 levels deep (the benchmark files need fewer than 10)"
DUPLICATE = "duplicate key {!r}: the object holds it more than once (which value is meant is ambiguous)"


# (case id, bad file bytes, exact message) — the message names the file and the JSON path.
CASES = [
    ("empty file", b"", f"{FILE}: $: expected a JSON document, got an empty file"),
    ("whitespace only", b" \n\t ", f"{FILE}: $: expected a JSON document, got only whitespace (4 bytes)"),
    (
        "top level string",
        b'"conv-26"',
        f"{FILE}: $: expected an array of sample objects or one sample object, got string",
    ),
    ("top level number", b"10", f"{FILE}: $: expected an array of sample objects or one sample object, got number"),
    ("top level null", b"null", f"{FILE}: $: expected an array of sample objects or one sample object, got null"),
    ("top level boolean", b"true", f"{FILE}: $: expected an array of sample objects or one sample object, got boolean"),
    ("empty array", b"[]", f"{FILE}: $: expected at least one sample record, found none"),
    ("record is a number", _dump([_record(), 3]), f"{FILE}: $[1]: expected object, got number"),
    ("record is a string", _dump(["conv-26"]), f"{FILE}: $[0]: expected object, got string"),
    ("record is an array", _dump([[_record()]]), f"{FILE}: $[0]: expected object, got array"),
    ("record is null", _dump([None]), f"{FILE}: $[0]: expected object, got null"),
    (
        "object without conversation",
        b"{}",
        f"{FILE}: $: missing required key 'conversation' (not a LoCoMo sample record)",
    ),
    # required keys missing at each level
    (
        "no conversation",
        _mutated(_del("conversation")),
        f"{FILE}: $[1]: missing required key 'conversation' (not a LoCoMo sample record)",
    ),
    ("no qa", _mutated(_del("qa")), f"{FILE}: $[1]: missing required key 'qa'"),
    (
        "a LongMemEval file",
        _dump([{"question_id": "q1", "question": "?", "answer": "a", "haystack_sessions": []}]),
        f"{FILE}: $[0]: missing required key 'conversation' (this looks like a LongMemEval file: load it as dataset "
        "'longmemeval')",
    ),
    (
        "a REALTALK file",
        _dump({"name": {"speaker_1": "Emi", "speaker_2": "Elise"}, "session_1": [], "qa": []}),
        f"{FILE}: $: missing required key 'speaker_a' (this looks like a REALTALK file: load it as dataset 'realtalk')",
    ),
    (
        "no speaker_a",
        _mutated(_del("conversation", "speaker_a")),
        f"{FILE}: $[1].conversation: missing required key 'speaker_a'",
    ),
    (
        "no speaker_b",
        _mutated(_del("conversation", "speaker_b")),
        f"{FILE}: $[1].conversation: missing required key 'speaker_b'",
    ),
    (
        "turn without speaker",
        _mutated(_del("conversation", "session_2", 1, "speaker")),
        f"{FILE}: $[1].conversation.session_2[1]: missing required key 'speaker'",
    ),
    (
        "turn without text",
        _mutated(_del("conversation", "session_1", 0, "text")),
        f"{FILE}: $[1].conversation.session_1[0]: missing required key 'text'",
    ),
    (
        "turn without dia_id",
        _mutated(_del("conversation", "session_1", 0, "dia_id")),
        f"{FILE}: $[1].conversation.session_1[0]: missing required key 'dia_id'",
    ),
    (
        "qa without question",
        _mutated(_del("qa", 0, "question")),
        f"{FILE}: $[1].qa[0]: missing required key 'question'",
    ),
    ("qa without answer", _mutated(_del("qa", 0, "answer")), f"{FILE}: $[1].qa[0]: missing required key 'answer'"),
    (
        "qa without category",
        _mutated(_del("qa", 1, "category")),
        f"{FILE}: $[1].qa[1]: missing required key 'category'",
    ),
    # wrong types at each level
    (
        "conversation is an array",
        _mutated(_set("conversation", [])),
        f"{FILE}: $[1].conversation: expected object, got array",
    ),
    (
        "null session list",
        _mutated(_set("conversation", "session_1", None)),
        f"{FILE}: $[1].conversation.session_1: expected array, got null",
    ),
    (
        "dict as session",
        _mutated(_set("conversation", "session_1", {"speaker": "Ann"})),
        f"{FILE}: $[1].conversation.session_1: expected array, got object",
    ),
    (
        "array as turn",
        _mutated(_set("conversation", "session_1", 0, ["Ann", "hello"])),
        f"{FILE}: $[1].conversation.session_1[0]: expected object, got array",
    ),
    (
        "number as content",
        _mutated(_set("conversation", "session_1", 0, "text", 5)),
        f"{FILE}: $[1].conversation.session_1[0].text: expected string, got number",
    ),
    (
        "null speaker",
        _mutated(_set("conversation", "session_1", 0, "speaker", None)),
        f"{FILE}: $[1].conversation.session_1[0].speaker: expected string, got null",
    ),
    (
        "number as dia_id",
        _mutated(_set("conversation", "session_1", 0, "dia_id", 1)),
        f"{FILE}: $[1].conversation.session_1[0].dia_id: expected string, got number",
    ),
    (
        "null blip_caption",
        _mutated(_set("conversation", "session_1", 1, "blip_caption", None)),
        f"{FILE}: $[1].conversation.session_1[1].blip_caption: expected string, got null",
    ),
    (
        "number as date",
        _mutated(_set("conversation", "session_1_date_time", 20230508)),
        f"{FILE}: $[1].conversation.session_1_date_time: expected string, got number",
    ),
    (
        "null speaker_a",
        _mutated(_set("conversation", "speaker_a", None)),
        f"{FILE}: $[1].conversation.speaker_a: expected string, got null",
    ),
    ("null qa list", _mutated(_set("qa", None)), f"{FILE}: $[1].qa: expected array, got null"),
    ("dict as qa list", _mutated(_set("qa", {"question": "q"})), f"{FILE}: $[1].qa: expected array, got object"),
    ("string as qa", _mutated(_set("qa", 0, "When?")), f"{FILE}: $[1].qa[0]: expected object, got string"),
    (
        "null question",
        _mutated(_set("qa", 0, "question", None)),
        f"{FILE}: $[1].qa[0].question: expected string, got null",
    ),
    (
        "array as answer",
        _mutated(_set("qa", 0, "answer", ["2023"])),
        f"{FILE}: $[1].qa[0].answer: expected string or number, got array",
    ),
    (
        "null answer",
        _mutated(_set("qa", 0, "answer", None)),
        f"{FILE}: $[1].qa[0].answer: expected string or number, got null",
    ),
    (
        "string as evidence list",
        _mutated(_set("qa", 0, "evidence", "D1:1")),
        f"{FILE}: $[1].qa[0].evidence: expected array, got string",
    ),
    (
        "null evidence list",
        _mutated(_set("qa", 0, "evidence", None)),
        f"{FILE}: $[1].qa[0].evidence: expected array, got null",
    ),
    (
        "number in evidence list",
        _mutated(_set("qa", 0, "evidence", ["D1:1", 7])),
        f"{FILE}: $[1].qa[0].evidence[1]: expected string, got number",
    ),
    ("number as sample_id", _mutated(_set("sample_id", 42)), f"{FILE}: $[1].sample_id: expected string, got number"),
    # LoCoMo categories
    ("category 0", _mutated(_set("qa", 0, "category", 0)), f"{FILE}: $[1].qa[0].category: expected 1-5, got 0"),
    ("category 6", _mutated(_set("qa", 1, "category", 6)), f"{FILE}: $[1].qa[1].category: expected 1-5, got 6"),
    ("category -1", _mutated(_set("qa", 0, "category", -1)), f"{FILE}: $[1].qa[0].category: expected 1-5, got -1"),
    (
        "category as string",
        _mutated(_set("qa", 0, "category", "2")),
        f"{FILE}: $[1].qa[0].category: expected 1-5, got string '2'",
    ),
    (
        "category as float",
        _mutated(_set("qa", 0, "category", 2.0)),
        f"{FILE}: $[1].qa[0].category: expected 1-5, got number 2.0",
    ),
    (
        "category as boolean",
        _mutated(_set("qa", 0, "category", True)),
        f"{FILE}: $[1].qa[0].category: expected 1-5, got boolean true",
    ),
    (
        "category null",
        _mutated(_set("qa", 0, "category", None)),
        f"{FILE}: $[1].qa[0].category: expected 1-5, got null",
    ),
    # session_N with a non-integer N
    (
        "session_x",
        _mutated(_set("conversation", "session_x", [])),
        f"{FILE}: $[1].conversation.session_x: expected a key session_N or session_N_date_time with integer N >= 1",
    ),
    (
        "session_1.5",
        _mutated(_set("conversation", "session_1.5", [])),
        f"{FILE}: $[1].conversation.session_1.5: expected a key session_N or session_N_date_time with integer N >= 1",
    ),
    (
        "session_0",
        _mutated(_set("conversation", "session_0", [])),
        f"{FILE}: $[1].conversation.session_0: expected a key session_N or session_N_date_time with integer N >= 1",
    ),
    (
        "session_03",
        _mutated(_set("conversation", "session_03", [])),
        f"{FILE}: $[1].conversation.session_03: expected a key session_N or session_N_date_time with integer N >= 1",
    ),
    (
        "session_two_date_time",
        _mutated(_set("conversation", "session_two_date_time", "x")),
        f"{FILE}: $[1].conversation.session_two_date_time: expected a key session_N or session_N_date_time with "
        "integer N >= 1",
    ),
    # duplicate object keys (a JSON parser would keep the second session_1; evidence ids would point at its text)
    (
        "session_1 twice",
        GOOD.replace(b'"session_2_date_time"', b'"session_1": [], "session_2_date_time"'),
        f"{FILE}: $[0].conversation.session_1: {DUPLICATE.format('session_1')}",
    ),
    (
        "session_1 twice in the second record",
        _last(
            _dump([_record("conv-a"), _record("conv-b")]),
            b'"session_2_date_time"',
            b'"session_1": [], "session_2_date_time"',
        ),
        f"{FILE}: $[1].conversation.session_1: {DUPLICATE.format('session_1')}",
    ),
    (
        "category twice",
        GOOD.replace(b'"category": 2', b'"category": 2, "category": 2'),
        f"{FILE}: $[0].qa[0].category: {DUPLICATE.format('category')}",
    ),
    (
        "text twice in a turn",
        GOOD.replace(b'"text": "hi"', b'"text": "hi", "text": "bye"'),
        f"{FILE}: $[0].conversation.session_1[1].text: {DUPLICATE.format('text')}",
    ),
    (
        "sample_id twice",
        GOOD.replace(b'"sample_id": "conv-x"', b'"sample_id": "conv-x", "sample_id": "conv-y"'),
        f"{FILE}: $[0].sample_id: {DUPLICATE.format('sample_id')}",
    ),
    # NaN / Infinity literals
    (
        "NUL byte in a string",
        GOOD.replace(b"hello 1", b"hel\x00lo"),
        f"{FILE}: $: invalid JSON at line 1 column 195: control character '\\x00' unescaped in a string",
    ),
    (
        "NaN literal",
        GOOD.replace(b'"answer": 2023', b'"answer": NaN'),
        f"{FILE}: $[0].qa[0].answer: expected standard JSON, got non-standard JSON literal NaN",
    ),
    (
        "Infinity literal",
        GOOD.replace(b'"answer": 2023', b'"answer": Infinity'),
        f"{FILE}: $[0].qa[0].answer: expected standard JSON, got non-standard JSON literal Infinity",
    ),
    (
        "-Infinity literal",
        GOOD.replace(b'"category": 2', b'"category": -Infinity'),
        f"{FILE}: $[0].qa[0].category: expected standard JSON, got non-standard JSON literal -Infinity",
    ),
]

# (case id, bad file bytes, expected start of the message)
PREFIX_CASES = [
    ("truncated mid-record", GOOD[: len(GOOD) // 2], f"{FILE}: $: invalid JSON at line 1 column "),
    (
        "truncated after a record",
        _dump([_record(), _record()])[: len(GOOD) + 1],
        f"{FILE}: $: invalid JSON at line 1 column ",
    ),
    ("trailing garbage", GOOD + b"]", f"{FILE}: $: invalid JSON at line 1 column "),
    (
        "two documents",
        GOOD + b"\n[]",
        f"{FILE}: $: invalid JSON at line 2 column 1: Extra data (bytes after the complete document)",
    ),
    (
        "invalid UTF-8 byte",
        GOOD.replace(b"hello 1", b"hel\xfflo"),
        f"{FILE}: $: expected UTF-8 text, got invalid byte 0xff at line ",
    ),
    (
        "UTF-16 file",
        json.dumps([_record()]).encode("utf-16"),
        f"{FILE}: $: expected UTF-8 text, got UTF-16 little-endian (its byte-order mark ff fe says so): convert it "
        f"first (`iconv -f UTF-16LE -t UTF-8 {FILE} > {FILE}.utf8`) and pass the converted file",
    ),
    (
        "Latin-1 file",
        json.dumps([_record("café")], ensure_ascii=False).encode("latin-1"),
        f"{FILE}: $: expected UTF-8 text, got invalid byte 0xe9 at line 1 column ",
    ),
    (
        "lone surrogate escape",
        GOOD.replace(b"hello 1", b"\\ud800"),
        f"{FILE}: $[0].conversation.session_1[0].text: expected valid Unicode text, got a lone surrogate",
    ),
    (
        "lone surrogate in a key",
        GOOD.replace(b'"hi"', b'"hi", "\\udc00": 1'),
        f"{FILE}: $[0].conversation.session_1[1]: expected valid Unicode text, got a lone surrogate",
    ),
    # identifiers longer than MAX_ID_LENGTH (128 characters; they are repeated in every qrels line)
    (
        "sample_id of 200,000 characters",
        _mutated(_set("sample_id", "c" * 200_000)),
        f"{FILE}: $[1].sample_id: {TOO_LONG.format('200,000')}",
    ),
    (
        "dia_id of 129 characters",
        _mutated(_set("conversation", "session_2", 1, "dia_id", "D" * 129)),
        f"{FILE}: $[1].conversation.session_2[1].dia_id: {TOO_LONG.format(129)}",
    ),
    (
        "evidence of 129 characters",
        _mutated(_set("qa", 0, "evidence", ["D1:1", "D" * 129])),
        f"{FILE}: $[1].qa[0].evidence[1]: {TOO_LONG.format(129)}",
    ),
    (
        "session number of 5,000 digits",
        _mutated(_call(lambda c: c.update({"session_" + "1" * 5000: []}), "conversation")),
        f"{FILE}: $[1].conversation: key 'session_1111111111111111'...: session number: {TOO_LONG.format('5,000')}",
    ),
    # control characters in ids (a TREC reader cuts 'x\0y' at the NUL into a phantom query 'x')
    (
        "NUL in sample_id",
        _mutated(_set("sample_id", "x\0y")),
        f"{FILE}: $[1].sample_id: expected an id without control characters, got 'x\\x00y'",
    ),
    (
        "ESC in dia_id",
        _mutated(_set("conversation", "session_1", 0, "dia_id", "D1:1\x1b[2J")),
        f"{FILE}: $[1].conversation.session_1[0].dia_id: expected an id without control characters, got 'D1:1\\x1b[2J'",
    ),
    (
        "newline in sample_id",
        _mutated(_set("sample_id", "conv\nFAKE: all good")),
        f"{FILE}: $[1].sample_id: expected an id without control characters, got 'conv\\nFAKE: all good'",
    ),
    # numbers beyond a double (1e400 became the answer "inf" and "answer": Infinity in raw)
    (
        "answer 1e400",
        _mutated(_set("qa", 0, "answer", "X")).replace(b'"X"', b"1e400"),
        f"{FILE}: $[1].qa[0].answer: {NOT_FINITE}, got 1e400",
    ),
    (
        "answer -1E+309 in raw only",
        _mutated(_set("qa", 0, "extra", "X")).replace(b'"X"', b"-1E+309"),
        f"{FILE}: $[1].qa[0].extra: {NOT_FINITE}, got -1E+309",
    ),
    # nesting past MAX_DEPTH (64) stops before the parser sees it; the real files need 4 levels
    (
        "arrays nested 100,000 deep",
        GOOD.replace(b'"answer": 2023', b'"answer": ' + b"[" * 100_000 + b"]" * 100_000),
        f"{FILE}: $[0]: {TOO_DEEP}",
    ),
    (
        "objects nested 100,000 deep",
        _mutated(_set("qa", 0, "answer", "X")).replace(b'"X"', b'{"a": ' * 100_000 + b"1" + b"}" * 100_000),
        f"{FILE}: $[1]: {TOO_DEEP}",
    ),
    (
        "arrays nested 65 deep",
        _mutated(_set("qa", 0, "answer", "X")).replace(b'"X"', b"[" * 61 + b"]" * 61),
        f"{FILE}: $[1]: {TOO_DEEP}",
    ),
]


@pytest.fixture(params=sorted(LOADERS["locomo"]))
def loader(request):
    return LOADERS["locomo"][request.param]


@pytest.mark.parametrize(("bad", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_file_exact_message(loader, tmp_path, bad, message):
    error, samples = check_bad_then_good(
        loader, tmp_path / FILE, bad, GOOD, tmp_path / "cache", SourceFormatError, message=message
    )
    assert (error.file, error.path) == (FILE, message.split(": ")[1])
    assert [s.sample_id for s in samples] == ["conv-x"]


@pytest.mark.parametrize(("bad", "prefix"), [c[1:] for c in PREFIX_CASES], ids=[c[0] for c in PREFIX_CASES])
def test_bad_file_message_names_file_and_path(loader, tmp_path, bad, prefix):
    error, samples = check_bad_then_good(
        loader, tmp_path / FILE, bad, GOOD, tmp_path / "cache", SourceFormatError, prefix=prefix
    )
    assert [s.sample_id for s in samples] == ["conv-x"]


def test_exact_messages_of_common_corruptions(tmp_path):
    loader = LOADERS["locomo"]["load_locomo"]
    error, _ = check_bad_then_good(
        loader, tmp_path / FILE, b'[{"sample_id": "conv-26", "qa": [', GOOD, tmp_path / "c", SourceFormatError
    )
    assert str(error) == f"{FILE}: $: invalid JSON at line 1 column 34: Expecting value (truncated or corrupted file?)"
    error, _ = check_bad_then_good(
        loader, tmp_path / FILE, b'[{"a": "\xe9t\xe9"}]', GOOD, tmp_path / "c", SourceFormatError
    )
    assert str(error) == f"{FILE}: $: expected UTF-8 text, got invalid byte 0xe9 at line 1 column 9 (offset 8)"
    error, _ = check_bad_then_good(
        loader, tmp_path / FILE, b'\xef\xbb\xbf[\n{"a": "\xe9"}]', GOOD, tmp_path / "c", SourceFormatError
    )
    assert (
        str(error) == f"{FILE}: $: expected UTF-8 text, got invalid byte 0xe9 at line 2 column 8 (offset 12)"
    )  # the mark counted


def test_calling_datasets_directly_raises_our_error(tmp_path):
    """``builder.download_and_prepare()`` (what ``datasets.load_dataset`` calls) raises our error itself;
    ``datasets``' ``DatasetGenerationError`` is its cause."""
    path = tmp_path / FILE
    path.write_bytes(_mutated(_set("qa", 0, "category", 9)))
    builder = make_builder(benchmark("locomo"), data_files=[str(path)], cache_dir=tmp_path / "cache")
    with pytest.raises(SourceFormatError) as info:
        builder.download_and_prepare()
    assert str(info.value) == f"{FILE}: $[1].qa[0].category: expected 1-5, got 9"
    assert isinstance(info.value.__cause__, datasets.exceptions.DatasetGenerationError)
    assert cache_entries(tmp_path / "cache") == []


# ---- accepted inputs -------------------------------------------------------------------------------


def test_utf8_bom_is_accepted(loader, tmp_path):
    plain = loader(_write(tmp_path / "plain.json", GOOD), tmp_path / "cache")
    with_bom = loader(_write(tmp_path / FILE, b"\xef\xbb\xbf" + GOOD), tmp_path / "cache")
    assert with_bom == plain
    assert with_bom[0].sessions[0].messages[0].content == "hello 1"


def test_surrogate_pair_escape_is_accepted(loader, tmp_path):
    (sample,) = loader(_write(tmp_path / FILE, GOOD.replace(b"hello 1", b"\\ud83d\\ude00")), tmp_path / "cache")
    assert sample.sessions[0].messages[0].content == "\U0001f600"


def test_200k_character_turn_is_accepted(loader, tmp_path):
    record = _record()
    record["conversation"]["session_1"][0]["text"] = "x" * 199_999 + "é"
    (sample,) = loader(_write(tmp_path / FILE, _dump(record)), tmp_path / "cache")
    content = sample.sessions[0].messages[0].content
    assert len(content) == 200_000
    assert content.endswith("xé")


def test_5000_turn_session_is_accepted(loader, tmp_path):
    record = _record()
    record["conversation"]["session_2"] = [
        {"speaker": ("Ann", "Bob")[i % 2], "dia_id": f"D2:{i + 1}", "text": f"turn {i + 1}"} for i in range(5000)
    ]
    (sample,) = loader(_write(tmp_path / FILE, _dump(record)), tmp_path / "cache")
    messages = sample.sessions[1].messages
    assert len(messages) == 5000
    assert (messages[0].turn_id, messages[-1].turn_id, messages[-1].content) == ("D2:1", "D2:5000", "turn 5000")


def test_directory_ignores_non_json_files_and_subfolders(loader, tmp_path):
    data = tmp_path / "data"
    (data / "sub" / "deeper").mkdir(parents=True)
    _write(data / "b.json", _dump([_record("conv-b")]))
    _write(data / "a.json", _dump(_record("conv-a")))
    _write(data / "sub" / "c.json", b"not json at all")
    _write(data / "sub" / "deeper" / "d.json", _dump([_record("conv-d")]))
    _write(data / "README.md", b"# notes")
    _write(data / "locomo10.json.bak", b"[{")
    _write(data / "locomo10.json.incomplete", b"[")
    _write(data / "binary.bin", bytes(range(256)))
    (data / "folder.json").mkdir()  # a folder named like a data file
    samples = loader(data, tmp_path / "cache")
    assert [s.sample_id for s in samples] == ["conv-a", "conv-b"]


@pytest.mark.parametrize("layout", ["empty", "only other files", "json only in subfolders"])
def test_directory_without_data_is_a_clear_error(loader, tmp_path, layout):
    data = tmp_path / "data"
    data.mkdir()
    if layout != "empty":
        _write(data / "notes.txt", b"hello")
        (data / "sub").mkdir()
        if layout == "json only in subfolders":
            _write(data / "sub" / "locomo10.json", GOOD)
    with pytest.raises(SourceFormatError) as info:
        loader(data, tmp_path / "cache")
    assert str(info.value) == "data: $: expected at least one .json file in the directory, found none"
    assert cache_entries(tmp_path / "cache") == []
    _write(data / FILE, GOOD)
    assert [s.sample_id for s in loader(data, tmp_path / "cache")] == ["conv-x"]


def test_missing_path_is_a_configuration_error(loader, tmp_path):
    with pytest.raises(HimgaError, match=r"^locomo: source '.*/nowhere' does not exist$"):
        loader(tmp_path / "nowhere", tmp_path / "cache")
    with pytest.raises(HimgaError, match=r"^locomo: source '.*/nowhere\.json' does not exist$"):
        loader(tmp_path / "nowhere.json", tmp_path / "cache")


def test_valid_unusual_values_are_kept(loader, tmp_path):
    """Valid JSON that is unusual but legal: float answers, huge integers, unicode escapes, nested raw keys."""
    record = _record()
    record["qa"][0]["answer"] = 1.5
    record["qa"].append({"question": "Big?", "answer": 10**30, "evidence": ["D1:1"], "category": 1})
    record["conversation"]["session_1"][0]["img_url"] = [None, {"a": [1, 2.5, True]}]
    (sample,) = loader(_write(tmp_path / FILE, _dump(record)), tmp_path / "cache")
    assert [qa.answer for qa in sample.qa_pairs] == ["1.5", "Not mentioned in the conversation", str(10**30)]
    assert sample.sessions[0].messages[0].raw == {"img_url": [None, {"a": [1, 2.5, True]}]}


def _write(path, data: bytes):
    path.write_bytes(data)
    return path


def test_editing_or_adding_a_file_in_a_folder_is_never_served_stale(loader, tmp_path):
    """``datasets`` keys a ``data_dir`` by its path only; himga adds the files' names, sizes and mtimes."""
    data = tmp_path / "data"
    data.mkdir()
    _write(data / "a.json", _dump([_record("first")]))
    assert [s.sample_id for s in loader(data, tmp_path / "cache")] == ["first"]
    _write(data / "a.json", _dump([_record("second")]))
    assert [s.sample_id for s in loader(data, tmp_path / "cache")] == ["second"]
    _write(data / "b.json", _dump([_record("third")]))
    assert [s.sample_id for s in loader(data, tmp_path / "cache")] == ["second", "third"]
    _write(data / "b.json", b"[{")  # a broken edit fails, and never falls back to the old rows
    with pytest.raises(SourceFormatError):
        loader(data, tmp_path / "cache")
