"""The one reader of a run's input files (predictions, labels, ids): the guarantees of the source readers."""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import sys

import pytest

from himga.errors import ConfigurationError, SourceFormatError
from himga.jsonio.run_inputs import read_id_lines, read_json_lines, read_records
from himga.scoring import read_labels, read_predictions

GOOD = b'{"question_id": "a", "hypothesis": "x"}\n'


def _file(tmp_path, name, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _error(call, *args) -> str:
    with pytest.raises(SourceFormatError) as info:
        call(*args)
    return str(info.value)


def test_a_latin1_line_is_named(tmp_path):  # B1
    path = _file(tmp_path, "p.jsonl", GOOD + b'{"question_id": "b", "hypothesis": "caf\xe9"}\n')
    assert _error(read_predictions, path) == "p.jsonl: line 2: expected UTF-8 text, got invalid byte at column 40"


def test_deep_nesting_is_refused_before_the_parser(tmp_path):  # B2
    path = _file(tmp_path, "p.jsonl", GOOD + b"[" * 100_000 + b"\n")
    assert _error(read_predictions, path) == (
        "p.jsonl: line 2[0]: arrays and objects nested more than 64 levels deep "
        "(the benchmark files need fewer than 10)"
    )
    labels = _file(tmp_path, "l.jsonl", b'{"question_id": "a", "reply": ' + b"[" * 100_000 + b"\n")
    assert _error(read_labels, labels) == (
        "l.jsonl: line 1: arrays and objects nested more than 64 levels deep (the benchmark files need fewer than 10)"
    )


def test_a_duplicate_key_is_an_error(tmp_path):  # A6
    path = _file(tmp_path, "p.jsonl", b'{"question_id": "a", "hypothesis": "a", "hypothesis": "b"}\n')
    assert _error(read_predictions, path) == (
        "p.jsonl: line 1.hypothesis: duplicate key 'hypothesis': the object holds "
        "it more than once (which value is meant is ambiguous)"
    )


def test_a_byte_order_mark_is_accepted(tmp_path):  # C2
    assert read_predictions(_file(tmp_path, "p.jsonl", b"\xef\xbb\xbf" + GOOD)) == {"a": "x"}
    assert read_id_lines(_file(tmp_path, "ids.txt", b"\xef\xbb\xbfconv-26:0\r\n\n conv-26:1 \n")).lines == [
        (1, "conv-26:0"),
        (3, "conv-26:1"),
    ]


def test_long_and_control_ids_are_not_echoed(tmp_path):  # B3
    path = _file(tmp_path, "p.jsonl", b'{"question_id": "' + b"x" * 5_000_000 + b'", "hypothesis": "x"}\n')
    assert (
        _error(read_predictions, path)
        == "p.jsonl: line 1.question_id: expected an id of at most 258 characters, got 5,000,000"
    )
    path = _file(tmp_path, "p.jsonl", b'{"question_id": "a\\u001b[31m", "hypothesis": "x"}\n')
    assert _error(read_predictions, path) == (
        "p.jsonl: line 1.question_id: expected an id without control characters, got 'a\\x1b[31m'"
    )
    ids = _file(tmp_path, "ids.txt", b"conv-26:0\n" + b"y" * 20_000_000 + b"\n")
    assert _error(read_id_lines, ids) == "ids.txt: line 2: expected an id of at most 258 characters, got 20,000,000"


def test_ids_file_errors(tmp_path):
    assert _error(read_id_lines, _file(tmp_path, "ids.txt", b"conv-26:0\nconv-26:1\nconv-26:0\n")) == (
        "ids.txt: line 3: 'conv-26:0' is also on line 1"
    )
    assert _error(read_id_lines, _file(tmp_path, "ids.txt", b"conv-26:0\n\xff\n")) == (
        "ids.txt: line 2: expected UTF-8 text, got invalid byte at column 1"
    )
    assert (
        _error(read_id_lines, _file(tmp_path, "ids.txt", b"\n \n"))
        == "ids.txt: $: expected one id per line, found none"
    )


def test_a_file_that_is_no_json_gets_advice_for_a_run_not_for_a_source(tmp_path):
    assert _error(read_predictions, _file(tmp_path, "p.jsonl", b"hello world\n")) == (
        "p.jsonl: $: expected JSON, got a short text 'hello world' (12 bytes): pass the file the run wrote (JSON "
        "Lines, or a JSON array)"
    )


def test_another_encoding_on_the_first_line_is_placed_by_line_and_column(tmp_path):
    assert _error(
        read_predictions,
        _file(tmp_path, "p.jsonl", '{"question_id": "conv-26:0", "hypothesis": "café"}\n'.encode("latin-1")),
    ) == ("p.jsonl: line 1: expected UTF-8 text, got invalid byte at column 48")
    # one line holding an object is one record, read and placed as a longer JSON Lines file's (issue 36: one rule)
    assert _error(
        read_records, _file(tmp_path, "p.jsonl", '{"question_id": "conv-26:0", "hypothesis": "café"}'.encode("latin-1"))
    ) == ("p.jsonl: line 1: expected UTF-8 text, got invalid byte at column 48")
    assert _error(
        read_records,
        _file(tmp_path, "p.json", '[{"question_id": "conv-26:0", "hypothesis": "café"}]'.encode("latin-1")),
    ) == ("p.json: $: expected UTF-8 text, got invalid byte 0xe9 at line 1 column 49 (offset 48)")  # a document


def test_an_empty_file_has_nothing_to_score(tmp_path):  # D4
    assert _error(read_predictions, _file(tmp_path, "p.jsonl", b"\n\n")) == (
        "p.jsonl: $: expected JSON Lines (predictions, one object per line), got no line"
    )


def test_missing_file_and_folder(tmp_path):  # B6's kind of message for inputs
    with pytest.raises(
        ConfigurationError, match=f"^predictions file {re.escape(repr(str(tmp_path / 'no.jsonl')))} does not exist$"
    ):
        read_predictions(tmp_path / "no.jsonl")
    with pytest.raises(
        ConfigurationError, match=f"^labels file {re.escape(repr(str(tmp_path)))} is a directory, expected a file$"
    ):
        read_labels(tmp_path)


def test_the_sha256_is_of_the_bytes_read_from_a_pipe(tmp_path):  # A2
    data = b"\xef\xbb\xbf" + GOOD + b'{"question_id": "b", "hypothesis": "y"}\n'
    read_end, write_end = os.pipe()
    os.write(write_end, data)
    os.close(write_end)
    try:
        file = read_json_lines(f"/dev/fd/{read_end}")
    finally:
        os.close(read_end)
    assert file.sha256 == hashlib.sha256(data).hexdigest()
    assert [v["question_id"] for _, v in file.lines] == ["a", "b"]


def test_dash_reads_standard_input(monkeypatch):  # D3
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(GOOD)))
    file = read_json_lines("-")
    assert (file.name, file.sha256, file.lines) == (
        "<stdin>",
        hashlib.sha256(GOOD).hexdigest(),
        [(1, json.loads(GOOD))],
    )


def test_records_are_an_array_or_json_lines_whatever_the_name(tmp_path):
    rows = [{"question_id": "q1", "response": "a"}, {"question_id": "q2", "response": "b"}]
    lines = tmp_path / "results.json"  # JSON Lines named .json
    lines.write_text("".join(json.dumps(r) + "\n" for r in rows))
    array = tmp_path / "results.jsonl"  # an array named .jsonl
    array.write_bytes(b"\xef\xbb\xbf" + json.dumps(rows, indent=2).encode())
    one = tmp_path / "one.json"
    one.write_text(json.dumps(rows[0]))
    a, b, c = read_records(lines), read_records(array), read_records(one)
    assert (a.layout, a.lines, a.where(2)) == ("lines", [(1, rows[0]), (2, rows[1])], "line 2")
    assert (b.layout, b.lines, b.where(1)) == ("array", [(0, rows[0]), (1, rows[1])], "$[1]")
    assert (c.layout, c.lines) == ("lines", [(1, rows[0])])
    assert b.sha256 == hashlib.sha256(array.read_bytes()).hexdigest()
    for text, message in [
        ("[]", "results.json: $: expected predictions, got an empty array"),
        ("", "results.json: $: expected a JSON array or JSON Lines (predictions), got an empty file"),
        (" \n", "results.json: $: expected a JSON array or JSON Lines (predictions), got only whitespace (2 bytes)"),
        ('[{"a": 1}, 3]', "results.json: $[1]: expected an object, got number"),
        ('"x"', "results.json: $: expected a JSON array of objects or JSON Lines (predictions), got string"),
        ('{"a": 1}\n[1]\n', "results.json: line 2: expected an object, got array"),
        (
            '{"a": 1\n{"a": 2}\n',
            "results.json: $: invalid JSON at line 2 column 1: Expecting ',' delimiter (truncated or corrupted file?)",
        ),
        (
            '[{"a": 1},\n',
            "results.json: $: invalid JSON at line 2 column 1: Expecting value (truncated or corrupted file?)",
        ),
    ]:
        lines.write_text(text)
        with pytest.raises(SourceFormatError) as e:
            read_records(lines)
        assert str(e.value) == message


def test_sources_and_records_tell_json_lines_by_one_rule():
    from himga.jsonio import jsonlines, run_inputs
    from himga.jsonio._sniff import json_lines_by_content

    assert jsonlines.json_lines_by_content is json_lines_by_content is run_inputs.json_lines_by_content
    cases = {
        b'{"a": 1}\n{"a": 2}\n': True,
        b'{"a": 1}\n': False,
        b'[{"a": 1}]': False,
        b'{\n "a": 1\n}\n': False,
        b'\xef\xbb\xbf {"a": 1}\n\n{"b": 2}': True,
        b'{"a": 1\n{"a": 2}\n': False,
    }
    assert {data: json_lines_by_content(io.BytesIO(data).read) for data in cases} == cases


# ---- a bound on each line: /dev/zero or a file of one endless line ends in an error, not in memory exhaustion ----


def test_the_line_limit():
    from himga.jsonio.run_inputs import MAX_LINE_BYTES

    assert MAX_LINE_BYTES == 64 * 2**20


def test_a_line_past_the_limit_is_refused_naming_file_and_line(tmp_path, monkeypatch):
    monkeypatch.setattr("himga.jsonio.run_inputs.MAX_LINE_BYTES", 100)
    path = _file(tmp_path, "p.jsonl", GOOD + GOOD + b'{"question_id": "c", "hypothesis": "' + b"x" * 100 + b'"}\n')
    assert _error(read_predictions, path) == (
        "p.jsonl: line 3: longer than 100 bytes, the limit of a line of a run's "
        "input (himga.jsonio.run_inputs.MAX_LINE_BYTES): write one record per line"
    )
    exactly = _file(tmp_path, "q.jsonl", b'{"question_id": "a", "hypothesis": "' + b"x" * (100 - 38) + b'"}\n')
    assert len(exactly.read_bytes()) == 101 and read_predictions(exactly)  # 100 bytes and the newline: read
    ids = _file(tmp_path, "ids.txt", b"a\n" + b"b" * 101)
    assert _error(read_id_lines, ids).startswith("ids.txt: line 2: longer than 100 bytes")


def test_dev_zero_stops_at_the_limit(tmp_path, capsys):
    """A character device of endless bytes: read up to the limit (64 MiB), then one error line."""
    from himga.cli import main

    assert main(["score", "locomo", "/dev/zero", "--data-dir", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (
        "himga: error: zero: line 1: longer than 67,108,864 bytes, the limit of a line of a "
        "run's input (himga.jsonio.run_inputs.MAX_LINE_BYTES): write one record per line\n"
    )


def test_memory_stays_bounded_on_dev_zero(tmp_path):
    """In a process limited to 1 GiB of address space, reading /dev/zero is the error above, not a MemoryError."""
    import subprocess

    script = (
        "import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
        "from himga.jsonio.run_inputs import read_records\n"
        "try:\n    read_records('/dev/zero')\nexcept Exception as e:\n    print(type(e).__name__, str(e)[:42])\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.stdout == "SourceFormatError zero: line 1: longer than 67,108,864 bytes\n", done.stderr
