"""value_shown: what "expected X, got Y" says of a JSON value (the LoCoMo category checks use it)."""

from __future__ import annotations

import pytest

from himga.errors import value_shown


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (7, "7"),
        (-1, "-1"),
        (2.0, "number 2.0"),
        (float("1e400"), "number inf"),
        ("2", "string '2'"),
        ("x" * 60, "string '" + "x" * 38 + "…"),
        (True, "boolean true"),
        (False, "boolean false"),
        (None, "null"),
        ([2], "array"),
        ({"a": 2}, "object"),
    ],
)
def test_value_shown(value, shown):
    assert value_shown(value) == shown
