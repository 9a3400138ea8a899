"""Duplicate object keys on every entry point: a SourceFormatError naming the key's JSON path,
and after the file is fixed, exactly what a fresh build returns (the bad-input matrices in tests/errors
cover more shapes through the facade)."""

from __future__ import annotations

import json

import pytest
from routes import all_routes, error_message

DETAIL = "duplicate key {!r}: the object holds it more than once (which value is meant is ambiguous)"


@pytest.mark.parametrize("dataset", ["locomo", "longmemeval"])
def test_duplicate_key_on_every_route(shared_data, tmp_path, capsys, dataset):
    if dataset == "locomo":
        config, path = None, tmp_path / "locomo10.json"
        good = json.dumps(json.loads((shared_data / "locomo" / "locomo10.json").read_text())[:1])
        bad = good.replace('"session_2_date_time"', '"session_1": [], "session_2_date_time"', 1)
        message = f"locomo10.json: $[0].conversation.session_1: {DETAIL.format('session_1')}"
    else:
        config, path = "oracle", tmp_path / "longmemeval_oracle.json"
        good = (shared_data / "longmemeval" / "longmemeval_oracle_pair.json").read_text()
        head, sep, tail = good.rpartition('"answer": ')  # the second question's answer, written twice
        bad = f'{head}"answer": "a trap", {sep}{tail}'
        message = f"longmemeval_oracle.json: $[1].answer: {DETAIL.format('answer')} (question 09ba9854_abs)"
    path.write_text(bad)
    fresh = tmp_path / "fresh" / path.name
    fresh.parent.mkdir()
    fresh.write_text(good)
    for route, load in all_routes(capsys, path).items():
        path.write_text(bad)
        assert error_message(load, dataset, config, path, tmp_path / f"cache-{route}") == message, route
        path.write_text(good)
        assert load(dataset, config, path, tmp_path / f"cache-{route}") == load(
            dataset, config, fresh, tmp_path / f"f-{route}"
        ), route
