"""The official-code outputs the scoring tests compare with (``tests/fixtures/scoring``, made by its
``make_fixtures.py``)."""

from __future__ import annotations

import json
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "scoring"


def load_fixture(name: str) -> dict:
    """The fixture file ``name`` of ``tests/fixtures/scoring`` as JSON."""
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))
