"""Tiny source files written by tests: one LoCoMo sample of two turns and one QA pair."""

from __future__ import annotations

import json
from pathlib import Path


def tiny_locomo(folder: Path, sample_id: str = "s1") -> Path:
    """Write ``folder/locomo10.json`` (one sample ``sample_id``: speakers A and B, turns D1:1 and D1:2, QA ``s1:0``);
    return ``folder``."""
    turns = [{"speaker": "A", "dia_id": "D1:1", "text": "hi"}, {"speaker": "B", "dia_id": "D1:2", "text": "yo"}]
    record = {
        "sample_id": sample_id,
        "conversation": {"speaker_a": "A", "speaker_b": "B", "session_1": turns},
        "qa": [{"question": "Q?", "answer": "hi", "category": 1, "evidence": ["D1:1"]}],
    }
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "locomo10.json").write_text(json.dumps([record]), encoding="utf-8")
    return folder
