"""Rows written column-wise (himga.schema.columns.SessionColumns) give the same Arrow table as the same rows as
dicts."""

from __future__ import annotations

import json

import pyarrow as pa
import pytest

from himga.cache import plain_row, rows_to_table
from himga.schema.columns import SessionColumns
from himga.schema.features import SAMPLE_FEATURES
from himga_longmemeval.records import question_to_row

HAS_ANSWER = json.dumps({"has_answer": True})


def _row(sessions, sample_id="q1") -> dict:
    return {
        "sample_id": sample_id,
        "dataset": "longmemeval",
        "sessions": sessions,
        "qa_pairs": [],
        "speaker_a": None,
        "speaker_b": None,
        "raw": None,
    }


def _ipc(table: pa.Table) -> bytes:
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return sink.getvalue().to_pybytes()


EDGES = {
    "no session": SessionColumns([], [], [], [], [], []),
    "a session without messages": SessionColumns(["s1"], [None], [0], [], [], []),
    "sessions around an empty one": SessionColumns(
        ["s1", "s2", "s1"],
        ["2023/05/01 (Mon) 09:00", None, ""],
        [2, 2, 3],
        ["user", "assistant", "user"],
        ["", "r\u00e9sum\u00e9 \U0001f642", "a\nb"],
        [HAS_ANSWER, None, '{"note": [1, 2.5]}'],
    ),
}


@pytest.mark.parametrize("name", sorted(EDGES))
def test_session_columns_write_the_dict_rows_table(name):
    rows = [_row(EDGES[name]), _row(EDGES["sessions around an empty one"], "q2")]
    columnar, plain = rows_to_table(rows), rows_to_table([plain_row(r) for r in rows])
    assert columnar.schema == plain.schema == SAMPLE_FEATURES.arrow_schema
    assert columnar.equals(plain) and _ipc(columnar) == _ipc(plain)  # the same bytes, not only equal values
    assert plain_row(rows[0])["sessions"] == columnar.column("sessions").to_pylist()[0]


def test_plain_row_as_dicts():
    (session,) = plain_row(_row(SessionColumns(["s1"], ["d"], [1], ["user"], ["hi"], [None])))["sessions"]
    assert session == {
        "session_id": "s1",
        "messages": [{"role": "user", "content": "hi", "turn_id": None, "date_str": None, "raw": None}],
        "date_str": "d",
        "title": None,
    }
    row = _row([session])
    assert plain_row(row) is row  # rows written as dicts pass as they are


def test_real_questions_give_the_same_bytes_either_way(shared_data):
    questions = json.loads((shared_data / "longmemeval" / "longmemeval_oracle_sample.json").read_text())
    rows = [question_to_row(q, file="x.json", path=f"$[{i}]") for i, q in enumerate(questions)]
    assert all(type(r["sessions"]) is SessionColumns for r in rows)
    for start in range(0, len(rows), 10):
        batch = rows[start : start + 10]
        assert _ipc(rows_to_table(batch)) == _ipc(rows_to_table([plain_row(r) for r in batch]))
