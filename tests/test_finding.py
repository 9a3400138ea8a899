"""The rules the benchmarks' validate rules share (himga.finding): one function each, called by every benchmark
that reports it (LoCoMo's ``blank_text`` turns and LongMemEval's ``blank_turn``)."""

from __future__ import annotations

from himga.data import Message, Sample, Session
from himga.finding import blank_turns, unknown_roles


def _sample(*sessions: list[str], roles: dict[tuple[int, int], str] | None = None) -> Sample:
    roles = roles or {}
    return Sample(
        sample_id="s",
        dataset="longmemeval",
        qa_pairs=[],
        sessions=[
            Session(
                session_id=f"x{i}",
                messages=[Message(role=roles.get((i, j), "user"), content=t) for j, t in enumerate(texts)],
            )
            for i, texts in enumerate(sessions)
        ],
    )


def test_blank_turns_in_source_order():
    sample = _sample(["hi", "", "  \n\t"], [], ["\u3000", "ok", " a "])
    assert [(i, j, m.content) for i, j, m in blank_turns(sample)] == [(0, 1, ""), (0, 2, "  \n\t"), (2, 0, "\u3000")]


def test_no_blank_turn():
    assert list(blank_turns(_sample(["a", "b"], ["."]))) == []


def test_unknown_roles_in_source_order():
    sample = _sample(["a", "b"], ["c", "d"], roles={(0, 1): "assistant", (1, 0): "system", (1, 1): "User"})
    assert [(i, j, m.role) for i, j, m in unknown_roles(sample)] == [(1, 0, "system"), (1, 1, "User")]
    assert [(i, j) for i, j, _ in unknown_roles(sample, ("user", "assistant", "system", "User"))] == []
