"""The rules the benchmarks' validate rules share (himga.finding): one function each, called by every benchmark
that reports it (LoCoMo's ``blank_text`` turns and LongMemEval's ``blank_turn``)."""

from __future__ import annotations

from himga.data import Message, Sample, Session
from himga.finding import blank_turns


def _sample(*sessions: list[str]) -> Sample:
    return Sample(sample_id="s", dataset="longmemeval", qa_pairs=[],
                  sessions=[Session(session_id=f"x{i}", messages=[Message(role="user", content=t) for t in texts])
                            for i, texts in enumerate(sessions)])


def test_blank_turns_in_source_order():
    sample = _sample(["hi", "", "  \n\t"], [], ["\u3000", "ok", " a "])
    assert [(i, j, m.content) for i, j, m in blank_turns(sample)] == [(0, 1, ""), (0, 2, "  \n\t"), (2, 0, "\u3000")]


def test_no_blank_turn():
    assert list(blank_turns(_sample(["a", "b"], ["."]))) == []
