"""Issue 16 §2: a 100,000-level nesting stops at MAX_DEPTH in bounded memory, on both readers.

Before the depth guard, ijson's C backend grew with the square of the depth (100,000 levels in a 200 KB
LongMemEval file: 23 GB, killed by the kernel; 30,000: 2.4 GB). Each load here runs in a child process
whose address space is limited to 1 GiB (``resource.setrlimit``), and once more as uid 65534.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

DEPTH = 100_000
LIMIT = 1 << 30  # bytes of address space: the import of datasets and pyarrow fits, 30,000 levels did not
TOO_DEEP = "arrays and objects nested more than 64 levels deep (the benchmark files need fewer than 10)"

_CHILD = f"""
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({LIMIT}, {LIMIT}))
from himga.data import load_locomo, load_longmemeval
from himga.errors import SourceFormatError
name, path, cache = sys.argv[1:4]
try:
    load_locomo(path, cache_dir=cache) if name == "locomo" else load_longmemeval(path, config="oracle", cache_dir=cache)
except SourceFormatError as e:
    print(e)
"""


def _longmemeval(content: bytes) -> bytes:
    question = {
        "question_id": "q2",
        "question_type": "multi-session",
        "question": "Q?",
        "answer": "A",
        "question_date": "2023/05/20 (Sat) 10:00",
        "haystack_dates": ["2023/05/01 (Mon) 09:00"],
        "haystack_session_ids": ["s1"],
        "haystack_sessions": [[{"role": "user", "content": "X"}]],
    }
    first = {**question, "question_id": "q1", "haystack_sessions": [[{"role": "user", "content": "hi"}]]}
    return json.dumps([first, question]).encode().replace(b'"X"', content)


def _locomo(answer: bytes) -> bytes:
    record = {
        "sample_id": "conv-a",
        "conversation": {
            "speaker_a": "A",
            "speaker_b": "B",
            "session_1": [{"speaker": "A", "dia_id": "D1:1", "text": "hi"}],
        },
        "qa": [{"question": "Q?", "answer": "X", "category": 1, "evidence": []}],
    }
    first = {**record, "sample_id": "conv-0", "qa": [{"question": "Q?", "answer": "Y", "category": 1, "evidence": []}]}
    return json.dumps([first, record]).encode().replace(b'"X"', answer)


ARRAYS = b"[" * DEPTH + b"]" * DEPTH
OBJECTS = b'{"a": ' * DEPTH + b"1" + b"}" * DEPTH

CASES = [
    (
        "longmemeval",
        "longmemeval_oracle.json",
        _longmemeval(ARRAYS),
        f"longmemeval_oracle.json: $[1]: {TOO_DEEP} (question q2)",
    ),
    (
        "longmemeval",
        "longmemeval_oracle.json",
        _longmemeval(OBJECTS),
        f"longmemeval_oracle.json: $[1]: {TOO_DEEP} (question q2)",
    ),
    ("locomo", "locomo10.json", _locomo(ARRAYS), f"locomo10.json: $[1]: {TOO_DEEP}"),
    ("locomo", "locomo10.json", _locomo(OBJECTS), f"locomo10.json: $[1]: {TOO_DEEP}"),
]
IDS = ["longmemeval-arrays", "longmemeval-objects", "locomo-arrays", "locomo-objects"]


@pytest.mark.parametrize(("name", "file", "data", "message"), CASES, ids=IDS)
def test_deep_nesting_stops_within_1_gib(tmp_path, name, file, data, message):
    path = tmp_path / file
    path.write_bytes(data)
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, name, str(path), str(tmp_path / "cache")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == message + "\n"


def test_deep_nesting_as_another_user(as_nobody):
    base = Path(tempfile.mkdtemp(prefix="himga-deep-"))
    try:
        for name, file, data, message in CASES[::2]:
            folder = base / name
            folder.mkdir()
            (folder / file).write_bytes(data)
            for p in (base, folder, folder / file):
                os.chown(p, 65534, 65534)
            done = as_nobody(sys.executable, "-c", _CHILD, name, str(folder / file), str(folder / "cache"))
            assert done.returncode == 0, done.stderr[-2000:]
            assert done.stdout == message + "\n"
    finally:
        shutil.rmtree(base)
