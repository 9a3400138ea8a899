"""The one-pass fast path of the JSON readers (himga.jsonio._fast): used for good input, and every input it
cannot vouch for goes to the full reader, which words the error (the bad-input suites in tests/errors check
the words; here: that each check fires, at its boundary)."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from himga.errors import SourceFormatError
from himga.jsonio import _fast, reader
from himga.jsonio.reader import iter_array_items, load_json, parse_json_text
from himga.sources import ContentDigest, content_sha256
from himga.testing import write_longmemeval_like


@pytest.fixture
def full_reads(monkeypatch) -> list[int]:
    """The indices from which the full reader was asked to read (one entry per fallback)."""
    calls: list[int] = []
    full = reader.full_array_items

    def counted(path, **kwargs):
        calls.append(0)
        yield from full(path, **kwargs)

    monkeypatch.setattr(reader, "full_array_items", counted)
    return calls


def _items(path, **kwargs) -> list:
    return [item for _, item in iter_array_items(path, **kwargs)]


def test_a_good_file_is_read_by_the_fast_path_alone(tmp_path, full_reads):
    path = tmp_path / "s.json"
    write_longmemeval_like(path, 12, 8)
    digest, content = hashlib.sha256(), ContentDigest()
    items = _items(path, id_key="question_id", digest=digest, content=content)
    assert full_reads == []
    expected = json.loads(path.read_bytes())
    assert items == expected and len(items) == 12
    assert digest.hexdigest() == hashlib.sha256(path.read_bytes()).hexdigest()
    assert content.hexdigest() == content_sha256(expected)


@pytest.mark.parametrize("block", [1, 2, 7, 64, 1 << 22])
def test_items_across_read_blocks(tmp_path, monkeypatch, full_reads, block):
    items = [1, -0, 2.5, "a:b", None, True, [], {}, {"k": [1, {"x": "]},"}]}, "\u00e9\U0001f642", 12345678901234]
    path = tmp_path / "a.json"
    path.write_bytes(b"\xef\xbb\xbf \n[ " + json.dumps(items, indent=1).encode()[1:] + b" \n")
    monkeypatch.setattr(_fast, "_BLOCK", block)
    assert _items(path) == items and full_reads == []


# (file text, what the full reader says) — each one an input the fast path must not vouch for
SIGNALS = {
    "duplicate key": ('[{"a": 1}, {"a": 1, "b": {"c": 1, "c": 2}}]', "$[1].b.c: duplicate key 'c'"),
    "duplicate key, colons in the values": ('[{"a": "x:y", "a": "::"}]', "$[0].a: duplicate key 'a'"),
    "duplicate key whose value holds keys": ('[{"a": {"b": 1}, "a": {"b": 1}}]', "$[0].a: duplicate key 'a'"),
    "duplicate key spaced": ('[{"a" : 1 , "a"\n:\t2}]', "$[0].a: duplicate key 'a'"),
    "64 levels in all": (
        "[" + "[" * 63 + "]" * 63 + ", " + "[" * 64 + "]" * 64 + "]",
        "$[1]: arrays and objects nested more than 64 levels deep",
    ),
    "integer beyond 64 bits": ("[1, 9223372036854775808]", "$[1]: invalid JSON: parse error: integer overflow"),
    "negative integer beyond 64 bits": (
        "[1, -9223372036854775808]",
        "$[1]: invalid JSON: parse error: integer overflow",
    ),
    "NaN": ("[1, NaN]", "$[1]: invalid JSON"),
    "number beyond a double": ("[1e400]", "$[0]: expected a number that is finite in a double"),
    "trailing comma": ("[1, 2, ]", "$[2]: invalid JSON"),
    "truncated": ('[1, {"a": "b', "$[1]: invalid JSON: parse error: premature EOF"),
    "garbage after the array": ("[1, 2] x", "$: invalid JSON: parse error: trailing garbage"),
    "two arrays": ("[1] [2]", "$: invalid JSON: parse error: trailing garbage"),
    "control character in a string": ('[1, "a\x01b"]', "$[1]: invalid JSON"),
    # yajl alone reads a form feed or vertical tab as whitespace; JSON (and load_json) does not
    "form feed between items": (
        "[1,\x0c2]",
        "$[1]: invalid JSON: a form feed (\\x0c), which JSON reads neither as whitespace",
    ),
    "form feed before the array": ("\x0c[1]", "$[0]: invalid JSON: a form feed (\\x0c)"),
    "vertical tab after the array": ("[1]\x0b", "$[1]: invalid JSON: a vertical tab (\\x0b)"),
    "form feed in a string": ('[1, "a\x0cb"]', "$[1]: invalid JSON: a form feed (\\x0c)"),
    "lone surrogate after a key": (
        '[{"a": 1, "\\udc00": 2}]',
        "$[0]: expected valid Unicode text, got a lone surrogate",
    ),
}


@pytest.mark.parametrize("name", sorted(SIGNALS))
def test_every_check_fires_and_the_full_reader_words_it(tmp_path, full_reads, name):
    text, message = SIGNALS[name]
    path = tmp_path / "x.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SourceFormatError) as info:
        _items(path)
    assert str(info.value).startswith(f"x.json: {message}"), str(info.value)
    assert full_reads == [0]


def test_a_lone_surrogate_is_read_as_the_full_reader_reads_it(tmp_path, full_reads):
    path = tmp_path / "s.json"
    path.write_text('[1, {"\\ud800": "x"}]')
    expected = [item for _, item in reader.full_array_items(path)]
    full_reads.clear()
    assert _items(path) == expected and full_reads == [0]


def test_the_edges_the_fast_path_keeps(tmp_path, full_reads):
    edges = [[[[[0]]]] * 2, 9223372036854775807, -9223372036854775807, 5e-324, 1.7976931348623157e308]
    deep = "[" * 63 + "]" * 63  # an item 63 levels deep: 64 with the array
    escaped_colon = '{"a:b": "\\u003a", "c": 1}'  # ':' written as an escape, in a key's value
    path = tmp_path / "edges.json"
    path.write_text(f"[{json.dumps(edges)[1:-1]}, {deep}, {escaped_colon}]")
    assert _items(path) == [*edges, json.loads(deep), {"a:b": ":", "c": 1}] and full_reads == []


def test_an_escaped_colon_is_a_false_alarm_read_on_by_the_full_reader(tmp_path, full_reads):
    path = tmp_path / "e.json"
    path.write_text('[{"a": 1}, {"b": "\\\\u003a"}, {"c": 3}]')  # a backslash, then the text u003a
    content = ContentDigest()
    assert _items(path, content=content) == [{"a": 1}, {"b": "\\u003a"}, {"c": 3}]
    assert full_reads == [0] and content.hexdigest() == content_sha256([{"a": 1}, {"b": "\\u003a"}, {"c": 3}])


def test_whole_documents_and_lines(tmp_path):
    assert parse_json_text("q.jsonl", '{"n": 123456789012345678901234567890, "s": "\\u00e9"}', "line 1") == {
        "n": 123456789012345678901234567890,
        "s": "é",
    }  # any integer, exactly, as json reads it
    with pytest.raises(SourceFormatError, match=r"^q.jsonl: line 3.a: duplicate key 'a'"):
        parse_json_text("q.jsonl", '{"a": 1, "a": 2}', "line 3")
    path = tmp_path / "locomo10.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps([{"x": [1.5, "a"]}]).encode())
    assert load_json(path) == [{"x": [1.5, "a"]}]


def test_numbers_parse_as_python_parses_them():
    rng = random.Random(0)
    texts = [repr(rng.uniform(-1e6, 1e6)) for _ in range(2000)]
    texts += [f"{rng.randint(1, 9)}.{rng.randint(0, 10**17)}e{rng.randint(-330, 307)}" for _ in range(2000)]
    texts += ["0.1", "1e-7", "2.2250738585072014e-308", "4.9e-324", "1E+2", "-0.0", "-0", "0", "123456789012345678"]
    parsed = _fast.decode(("[" + ",".join(texts) + "]").encode(), 64)
    assert parsed == json.loads("[" + ",".join(texts) + "]")
    assert [type(v) for v in parsed] == [type(v) for v in json.loads("[" + ",".join(texts) + "]")]
