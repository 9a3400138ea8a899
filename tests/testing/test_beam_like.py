"""himga.testing.write_beam_like: BEAM's layout, deterministic bytes, and the quirks the builder must handle."""

from __future__ import annotations

import hashlib
import json

from himga.testing import write_beam_like


def test_the_same_arguments_give_the_same_bytes(tmp_path):
    first = write_beam_like(tmp_path / "a", "1M", chats=2, plans=1, batches=3, groups=4, words=5, seed=7)
    second = write_beam_like(tmp_path / "b", "1M", chats=2, plans=1, batches=3, groups=4, words=5, seed=7)
    digest = [hashlib.sha256((c.folder / "chat.json").read_bytes()).hexdigest() for c in (*first, *second)]
    assert digest[:2] == digest[2:] and digest[0] != digest[1]
    assert [(c.folder.relative_to(tmp_path / "a").as_posix(), c.batches, c.questions) for c in first] == [
        ("chats/1M/1", 3, 20),
        ("chats/1M/2", 3, 20),
    ]


def test_the_10m_layout_holds_plans_whose_ids_run_on(tmp_path):
    [chat] = write_beam_like(tmp_path, plans=2, batches=2, groups=3, words=4)
    value = json.loads((chat.folder / "chat.json").read_text(encoding="utf-8"))
    assert [next(iter(plan)) for plan in value] == ["plan-1", "plan-2"]
    ids = [m["id"] for plan in value for batch in next(iter(plan.values())) for group in batch["turns"] for m in group]
    assert ids == list(range(chat.messages)) and chat.batches == 4
    first = value[0]["plan-1"][0]["turns"][0][0]
    assert first["time_anchor"] == "January-12-2024" and first["content"].endswith(" ->-> 1,1")
    questions = json.loads((chat.folder / "probing_questions" / "probing_questions.json").read_text(encoding="utf-8"))
    assert len(questions) == 10 and "source_chat_ids" not in questions["abstention"][0]
