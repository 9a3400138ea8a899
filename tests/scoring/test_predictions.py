"""Reading predictions and judge verdicts: every problem names the file and the line, ids are listed."""

from __future__ import annotations

import json
import re

import pytest

from himga.errors import SourceFormatError
from himga.scoring import check_ids, read_labels, read_predictions


def _write(tmp_path, name, lines):
    path = tmp_path / name
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines), encoding="utf-8")
    return path


def test_predictions_in_file_order(tmp_path):
    path = _write(
        tmp_path, "p.jsonl", [{"question_id": "b", "hypothesis": "x"}, "", {"question_id": "a", "hypothesis": "ü"}]
    )
    assert list(read_predictions(path).items()) == [("b", "x"), ("a", "ü")]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ({"question_id": "a", "hypothesis": 3}, "p.jsonl: line 2.hypothesis: expected a string, got number"),
        ({"question_id": "a", "hypothesis": None}, "p.jsonl: line 2.hypothesis: expected a string, got null"),
        ({"question_id": 1, "hypothesis": "x"}, "p.jsonl: line 2.question_id: expected a string, got number"),
        ({"question_id": "a"}, "p.jsonl: line 2: no 'hypothesis'"),
        (
            '{"question_id": "a",',
            "p.jsonl: line 2: invalid JSON at column 21: Expecting property name enclosed in double "
            "quotes (truncated or corrupted file?)",
        ),
        ("[1]", "p.jsonl: line 2: expected an object, got array"),
    ],
)
def test_a_bad_line_is_named(tmp_path, line, message):
    path = _write(tmp_path, "p.jsonl", [{"question_id": "z", "hypothesis": "x"}, line])
    with pytest.raises(SourceFormatError, match="^" + re.escape(message) + "$"):
        read_predictions(path)


def test_duplicates_are_listed_with_their_lines(tmp_path):
    path = _write(tmp_path, "p.jsonl", [{"question_id": q, "hypothesis": ""} for q in ("a", "b", "a", "c", "b", "a")])
    with pytest.raises(
        SourceFormatError, match=r"^p\.jsonl: \$: 2 duplicate question ids: a \(lines 1, 3, 6\), b \(lines 2, 5\)$"
    ):
        read_predictions(path)


def test_missing_and_unknown_ids():
    with pytest.raises(SourceFormatError, match=r"2 question ids not in the dataset: x, y$"):
        check_ids("p.jsonl", ["a", "x", "y"], ["a", "b"])
    with pytest.raises(
        SourceFormatError, match=r"2 of 3 question ids missing \(partial=True scores the given ones\): b, c$"
    ):
        check_ids("p.jsonl", ["a"], ["a", "b", "c"])
    assert check_ids("p.jsonl", ["a"], ["a", "b", "c"], partial=True) == ["b", "c"]
    many = [str(i) for i in range(25)]
    with pytest.raises(
        SourceFormatError, match=r"25 question ids not in the dataset: 0, 1, .*, 19, \.\.\. and 5 more$"
    ):
        check_ids("p.jsonl", many, [])


def test_labels_from_replies_or_the_official_eval_results(tmp_path):
    path = _write(
        tmp_path,
        "l.jsonl",
        [
            {"question_id": "a", "reply": "Yes."},
            {"question_id": "b", "reply": "no"},
            {"question_id": "c", "hypothesis": "h", "autoeval_label": {"model": "gpt-4o-2024-08-06", "label": True}},
        ],
    )
    assert read_labels(path) == ({"a": True, "b": False, "c": True}, ["gpt-4o-2024-08-06"])
    bad = _write(tmp_path, "bad.jsonl", [{"question_id": "c", "autoeval_label": {"label": "yes"}}])
    with pytest.raises(
        SourceFormatError, match=r"^bad\.jsonl: line 1\.autoeval_label\.label: expected a boolean, got string$"
    ):
        read_labels(bad)
