"""himga.testing.longmemeval_like: the raw layout, every quirk at small scale, determinism, streaming."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import tracemalloc
from collections import Counter

import pytest

from himga.testing import iter_questions, write_longmemeval_like
from himga.testing.longmemeval_like import TYPE_COUNTS

KEYS = [
    "question_id", "question_type", "question", "answer", "question_date",
    "haystack_dates", "haystack_session_ids", "haystack_sessions", "answer_session_ids",
]  # fmt: skip
SMALL_SHA256 = "8fabe055912929f62ccd855898157b7f286f14ecfdcc92fc73e59dfbd243ece7"  # 12 questions, 6 sessions, seed 0


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """20 questions, ~10 sessions each: the written summary and the parsed records."""
    written = write_longmemeval_like(tmp_path_factory.mktemp("lme_like") / "small.json", 20, 10)
    return written, json.loads(written.path.read_text(encoding="utf-8"))


def test_layout_and_counts(small):
    written, records = small
    assert (written.questions, written.abstentions) == (20, 1)
    assert written.session_entries == sum(len(r["haystack_sessions"]) for r in records)
    assert written.turns == sum(len(s) for r in records for s in r["haystack_sessions"])
    assert written.bytes == written.path.stat().st_size
    for r in records:
        assert list(r) == KEYS
        n = len(r["haystack_sessions"])
        assert len(r["haystack_dates"]) == len(r["haystack_session_ids"]) == n >= 2
        assert r["question_type"] in dict(TYPE_COUNTS)
        assert set(r["answer_session_ids"]) <= set(r["haystack_session_ids"])
        for session in r["haystack_sessions"]:
            for turn in session:
                assert set(turn) <= {"role", "content", "has_answer"} and turn["role"] in ("user", "assistant")


def test_abstention_ids_and_answers(small):
    _, records = small
    abstentions = [r for r in records if r["question_id"].endswith("_abs")]
    assert [r["question_id"] for r in abstentions] == [records[0]["question_id"]]  # every file starts with one
    first = records[0]
    assert first["question_type"] != "single-session-preference"
    assert first["answer"].startswith("The information provided is not enough.")
    assert all(sid.startswith("answer_") and "_abs_" in sid for sid in first["answer_session_ids"])


def test_int_and_string_answers(small):
    _, records = small
    kinds = Counter(type(r["answer"]).__name__ for r in records)
    assert kinds["int"] >= 1 and kinds["str"] >= 1 and set(kinds) == {"int", "str"}
    assert isinstance(records[4]["answer"], int)  # forced: question 4 of every hundred


def test_has_answer_only_in_answer_sessions(small):
    _, records = small
    for r in records:
        answer = set(r["answer_session_ids"])
        for sid, session in zip(r["haystack_session_ids"], r["haystack_sessions"], strict=True):
            flags = [("has_answer" in turn) for turn in session]
            assert all(flags) if sid in answer else not any(flags), sid
    assert any(t.get("has_answer") is True for r in records for s in r["haystack_sessions"] for t in s)


def test_dates_unsorted_and_after_the_question(small):
    _, records = small
    assert all(len(d) == 22 and d[10:12] == " (" for r in records for d in [r["question_date"], *r["haystack_dates"]])
    # one year, so "YYYY/MM/DD (Ddd) HH:MM" strings order like dates
    assert any(r["haystack_dates"] != sorted(r["haystack_dates"]) for r in records)
    assert any(r["haystack_dates"] == sorted(r["haystack_dates"]) for r in records)
    assert any(max(r["haystack_dates"]) > r["question_date"] for r in records)
    assert records[6]["haystack_dates"] != sorted(records[6]["haystack_dates"])  # forced: question 6
    assert max(records[5]["haystack_dates"]) > records[5]["question_date"]  # forced: question 5


def test_repeated_sessions_within_and_across_haystacks(small):
    _, records = small
    dup = records[3]
    ids = dup["haystack_session_ids"]
    repeated = [sid for sid, k in Counter(ids).items() if k > 1]
    assert len(repeated) == 1
    at = [i for i, sid in enumerate(ids) if sid == repeated[0]]
    assert dup["haystack_dates"][at[0]] != dup["haystack_dates"][at[1]]
    assert dup["haystack_sessions"][at[0]] == dup["haystack_sessions"][at[1]]
    assert set(records[0]["haystack_session_ids"]) & set(records[7]["haystack_session_ids"])  # forced: pool session 0
    contents = {}
    for r in records:
        for sid, session in zip(r["haystack_session_ids"], r["haystack_sessions"], strict=True):
            assert contents.setdefault(sid, session) == session  # one id, one content, everywhere


def test_blank_long_and_non_ascii_turns(small):
    written, records = small
    contents = [t["content"] for r in records for s in r["haystack_sessions"] for t in s]
    assert "" in contents
    assert max(map(len, contents)) > 60_000
    text = "".join(contents)
    for ch in ("é", "東", "🙂", '"', "\\", "\n", "\t"):
        assert ch in text, ch
    raw = written.path.read_bytes()
    assert not raw.startswith(b"\xef\xbb\xbf") and "東".encode() in raw and b'\\"' in raw and b"\\n" in raw


def test_deterministic_and_a_prefix_of_larger_files(tmp_path):
    a = write_longmemeval_like(tmp_path / "a.json", 12, 6)
    b = write_longmemeval_like(tmp_path / "b.json", 12, 6, seed=0)
    assert (
        hashlib.sha256(a.path.read_bytes()).hexdigest()
        == hashlib.sha256(b.path.read_bytes()).hexdigest()
        == SMALL_SHA256
    )
    other = write_longmemeval_like(tmp_path / "c.json", 12, 6, seed=1)
    assert other.path.read_bytes() != a.path.read_bytes()
    assert list(iter_questions(5, 6)) == json.loads(a.path.read_text(encoding="utf-8"))[:5]


def test_streams_with_bounded_memory(tmp_path):
    """Traced Python allocations stay far below the file size: one question at a time."""
    tracemalloc.start()
    try:
        written = write_longmemeval_like(tmp_path / "m.json", 60, 20)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert written.bytes > 12_000_000
    assert peak < 8_000_000, (peak, written.bytes)  # ~4.3 MB measured at 10, 40 and 160 questions alike


def test_bad_arguments_write_nothing(tmp_path):
    with pytest.raises(ValueError, match="expected questions >= 0 and sessions >= 2, got questions=3, sessions=1"):
        write_longmemeval_like(tmp_path / "x.json", 3, 1)
    assert list(tmp_path.iterdir()) == []


def test_command_line(tmp_path):
    out = tmp_path / "cli.json"
    proc = subprocess.run([sys.executable, "-m", "himga.testing", str(out), "--questions", "12", "--sessions", "6"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    assert proc.stdout == f"{out}: 899472 bytes, 12 questions, 73 session entries, 741 turns, 1 abstentions\n"
    assert hashlib.sha256(out.read_bytes()).hexdigest() == SMALL_SHA256


def test_m_scale_flag_is_the_m_session_count(monkeypatch, tmp_path, capsys):
    """Issue 17 §15: `python -m himga.testing OUT --m-scale` (as the benchmark page names it) is `--sessions 480`."""
    from himga.testing import longmemeval_like

    calls = []
    monkeypatch.setattr(
        longmemeval_like,
        "write_longmemeval_like",
        lambda out, questions, sessions, seed, **kw: calls.append((questions, sessions, seed)) or _Written(out),
    )
    assert longmemeval_like.main([str(tmp_path / "m.json"), "--m-scale", "--questions", "3"]) == 0
    assert longmemeval_like.main([str(tmp_path / "s.json")]) == 0
    assert calls == [(3, 480, 0), (500, 48, 0)]
    with pytest.raises(SystemExit):
        longmemeval_like.main([str(tmp_path / "x.json"), "--m-scale", "--sessions", "10"])
    assert "not allowed with argument" in capsys.readouterr().err


class _Written:
    def __init__(self, path):
        self.path, self.bytes, self.questions, self.session_entries, self.turns, self.abstentions = path, 0, 0, 0, 0, 0


def test_the_command_shows_progress_and_ctrl_c_prints_one_line(tmp_path):
    """Issue 17 §10: a bar with the total on stderr; Ctrl-C (SIGINT) ends with one line, status 130, no file left."""
    import os
    import signal
    import time

    done = subprocess.run(
        [sys.executable, "-m", "himga.testing", str(tmp_path / "small.json"), "--questions", "20", "--sessions", "4"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0
    assert "Writing small.json: 100%" in done.stderr and "20/20" in done.stderr
    assert done.stdout.startswith(f"{tmp_path / 'small.json'}: ")
    out = tmp_path / "m.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "himga.testing", str(out), "--m-scale"],
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # as in a terminal (a background job ignores it)
    part, deadline = tmp_path / "m.json.part", time.monotonic() + 60
    while not (part.exists() and part.stat().st_size > 1) and time.monotonic() < deadline:
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert (
        "Traceback" not in err
        and err.rstrip().splitlines()[-1] == f"python -m himga.testing: interrupted; {out} not written"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["small.json"]


def test_the_benchmarks_ascii_copy_replaces_every_non_ascii_word(small, tmp_path):
    """benchmarks/ascii_text.py knows every non-ASCII word of the vocabulary: its copy of a generated file is
    ASCII, the same questions with the same turns (docs/benchmarks.md, "The targets not met")."""
    import importlib.util
    from pathlib import Path

    from himga.testing.longmemeval_like import _VOCABULARY

    script = Path(__file__).resolve().parents[2] / "benchmarks" / "ascii_text.py"
    spec = importlib.util.spec_from_file_location("ascii_text", script)
    ascii_text = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ascii_text)
    assert sorted(w for w in _VOCABULARY if not w.isascii()) == sorted(ascii_text.WORDS)
    written, before = small
    copy = tmp_path / "ascii.json"
    ascii_text.main(str(written.path), str(copy))
    data = copy.read_bytes()
    assert data.isascii()
    after = json.loads(data)
    assert [len(s) for q in after for s in q["haystack_sessions"]] == [
        len(s) for q in before for s in q["haystack_sessions"]
    ]
    assert sum(1 for q in before for s in q["haystack_sessions"] for t in s if not t["content"].isascii()) > 0
