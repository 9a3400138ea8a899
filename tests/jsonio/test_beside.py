"""The array reader's checks in a second process (himga.jsonio._beside): the same items, errors, digests and
fingerprint as when they run in the reader's own process, whatever the input.

The files here are small, so the tests lower the size from which the checks run beside the parse
(``BESIDE_MIN_BYTES``) to 0; the S-scale build (``tests/builders/test_longmemeval.py``) takes the real route.
"""

from __future__ import annotations

import hashlib
import json
import os

import pytest
from errors.test_bad_input_longmemeval import CASES, PREFIX_CASES

from himga.errors import SourceChangedError
from himga.jsonio import ContentDigest, _beside, iter_array_items
from himga.jsonio import reader as jsonfile

_START = jsonfile.start_checks


def _read(path, beside: bool, monkeypatch, stop: int | None = None):
    """``(items, error, sha256, fingerprint, children)`` of one read; ``children`` the check processes started."""
    monkeypatch.setattr(_beside, "BESIDE_MIN_BYTES", 0 if beside else 1 << 62)
    started = []
    monkeypatch.setattr(jsonfile, "start_checks", lambda *a: started.append(_START(*a)) or started[-1])
    digest, content, items, error = hashlib.sha256(), ContentDigest(), [], None
    try:
        for index, item in iter_array_items(
            path, id_key="question_id", id_label="question", digest=digest, content=content, parallel=True
        ):
            items.append((index, item))
            if index == stop:
                break
    except Exception as e:
        error = (type(e).__name__, str(e))
    done = error is None and stop is None
    return items, error, digest.hexdigest() if done else None, content.hexdigest() if done else None, started


def test_the_rule():
    assert _beside.checks_beside(_beside.BESIDE_MIN_BYTES, False)
    assert not _beside.checks_beside(_beside.BESIDE_MIN_BYTES - 1, False)  # LoCoMo, BEAM chats: not worth a process
    assert not _beside.checks_beside(1 << 40, True)  # compressed: the child would decompress it again


def test_a_reader_not_asking_for_it_checks_here(tmp_path, monkeypatch):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(_questions(5)))
    monkeypatch.setattr(_beside, "BESIDE_MIN_BYTES", 0)
    started = []
    monkeypatch.setattr(jsonfile, "start_checks", lambda *a: started.append(a))
    assert (
        len(list(iter_array_items(path))) == 5 and started == []
    )  # parallel=False: a stream's first item waits for nothing


def test_one_cpu_checks_here(monkeypatch):
    monkeypatch.setattr(_beside, "_usable_cpus", lambda: 1)
    assert not _beside.checks_beside(1 << 40, False)


@pytest.mark.parametrize("cases", ["CASES", "PREFIX_CASES"])
def test_every_bad_input_case_reads_the_same_either_way(tmp_path, monkeypatch, cases):
    """The LongMemEval bad-input matrix (tests/errors) at the reader: items yielded before the error, the error,
    the digest and the fingerprint are equal with the checks here and beside."""
    path = tmp_path / "longmemeval_oracle.json"
    errors, children = 0, 0
    for name, data, _message in {"CASES": CASES, "PREFIX_CASES": PREFIX_CASES}[cases]:
        path.write_bytes(data)
        here, beside = _read(path, False, monkeypatch), _read(path, True, monkeypatch)
        assert here[:4] == beside[:4], name
        assert here[4] == [] and all(c._proc.returncode is not None for c in beside[4]), name  # none left running
        errors += here[1] is not None
        children += len(beside[4])
    assert errors == {"CASES": 18, "PREFIX_CASES": 9}[cases]  # the cases the reader itself refuses
    assert (
        children == {"CASES": len(CASES), "PREFIX_CASES": len(PREFIX_CASES)}[cases]
    )  # the checks ran beside for each file


def _questions(n: int) -> list[dict]:
    return [
        {
            "question_id": f"q{i}",
            "answer": "x" * 3000,
            "haystack_sessions": [[{"role": "user", "content": "\u00e9:" * i}]],
        }
        for i in range(n)
    ]


def test_a_bad_item_is_refused_before_it_is_yielded(tmp_path, monkeypatch):
    text = json.dumps(_questions(40))
    cases = {
        "duplicate key": text.replace('"question_id": "q23"', '"question_id": "q23", "question_id": "again"'),
        "65 levels": text.replace('"question_id": "q23"', '"question_id": "q23", "deep": ' + "[" * 64 + "]" * 64),
        "integer beyond 64 bits": text.replace(
            '"question_id": "q23"', '"question_id": "q23", "n": 9223372036854775808'
        ),
    }
    for name, bad in cases.items():
        path = tmp_path / "s.json"
        path.write_text(bad)
        items, error, *_, children = _read(path, True, monkeypatch)
        assert len(children) == 1 and error is not None and "$[23]" in error[1], name
        assert [i for i, _ in items] == list(range(23)), name  # never the bad item, nor one after it
        assert children[0]._proc.returncode is not None  # the child is gone


def test_the_escaped_colon_false_alarm_reads_on(tmp_path, monkeypatch):
    """A key count the child cannot vouch for (``\\u003a``) sends the read to the full reader, which finds
    nothing wrong: every item, once, and the same fingerprint."""
    questions = _questions(30)
    path = tmp_path / "s.json"
    path.write_text(json.dumps(questions).replace('"q7"', '"q7\\u003a"'))
    questions[7]["question_id"] = "q7:"
    here, beside = _read(path, False, monkeypatch), _read(path, True, monkeypatch)
    assert here[:4] == beside[:4] and [item for _, item in beside[0]] == questions


def test_a_child_that_dies_hands_over_to_the_full_reader(tmp_path, monkeypatch):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(_questions(30)))
    here = _read(path, False, monkeypatch)
    real = _beside.Checks.next_span

    def kill_at_12(self, index):
        if index == 12:
            self._proc.kill()
            self._proc.wait()
        return real(self, index)

    monkeypatch.setattr(_beside.Checks, "next_span", kill_at_12)
    full = []
    real_full = jsonfile.full_array_items
    monkeypatch.setattr(jsonfile, "full_array_items", lambda *a, **k: full.append(a) or real_full(*a, **k))
    assert _read(path, True, monkeypatch)[:4] == here[:4]
    assert len(full) == 1 and len(here[0]) == 30 and here[1] is None


def test_a_child_that_cannot_start_leaves_the_checks_here(tmp_path, monkeypatch):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(_questions(5)))
    here = _read(path, False, monkeypatch)
    monkeypatch.setattr(_beside.sys, "executable", "/nonexistent/python")
    monkeypatch.setattr(_beside, "checks_beside", lambda size, compressed: True)
    items, error, *digests, children = _read(path, True, monkeypatch)
    assert children == [None] and (items, error, *digests) == here[:4]


@pytest.mark.parametrize("replacement", ["valid", "truncated", "duplicate key"])
def test_the_child_reads_the_file_the_reader_opened(tmp_path, monkeypatch, replacement):
    """Replaced by rename after the reader opened it: the child reads the new file, and the read is refused as
    a changed source, whatever the new file holds (not as the new file's own error, found by a full reader
    that opens the path again)."""
    path = tmp_path / "s.json"
    path.write_text(json.dumps(_questions(10)))
    text = json.dumps(_questions(10))
    new = {
        "valid": text,
        "truncated": text[: len(text) // 2],
        "duplicate key": text.replace('"question_id": "q4"', '"question_id": "q4", "question_id": "q5"'),
    }[replacement]

    def replace_then_start(p, levels, content):
        other = tmp_path / "other.json"
        other.write_text(new)
        os.replace(other, p)
        return _START(p, levels, content)

    monkeypatch.setattr(jsonfile, "start_checks", replace_then_start)
    monkeypatch.setattr(_beside, "BESIDE_MIN_BYTES", 0)
    with pytest.raises(SourceChangedError):
        list(iter_array_items(path, content=ContentDigest(), parallel=True))


def test_the_child_imports_nothing_from_the_working_directory(tmp_path, monkeypatch):
    """``python -c`` puts the working directory first on sys.path: a module there named like a dependency
    would run in the check process (and, here, kill it, so that the read falls back)."""
    (tmp_path / "orjson.py").write_text(f"open({str(tmp_path / 'ran')!r}, 'w').close()\nraise ImportError('shadow')\n")
    path = tmp_path / "s.json"
    path.write_text(json.dumps(_questions(10)))
    monkeypatch.chdir(tmp_path)
    full = []
    monkeypatch.setattr(jsonfile, "full_array_items", lambda *a, **k: full.append(a) or iter(()))
    items, error, *_, (child,) = _read(path, True, monkeypatch)
    assert not (tmp_path / "ran").exists() and full == [] and len(items) == 10 and child._proc.returncode == 0


def test_a_read_stopped_early_stops_the_child(tmp_path, monkeypatch):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(_questions(40)))
    items, error, _, _, (child,) = _read(path, True, monkeypatch, stop=3)
    assert len(items) == 4 and error is None and child._proc.returncode is not None
