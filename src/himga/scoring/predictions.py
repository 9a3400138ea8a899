"""Reading a run's files: predictions (``{"question_id", "hypothesis"}`` lines) and judge verdicts.

Both are JSON Lines, one object per line (blank lines are skipped), as LongMemEval's own scripts read and
write them. Every problem is a :class:`~himga.errors.SourceFormatError` naming the file and the line.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path

from himga.errors import SourceFormatError, type_name

__all__ = ["check_ids", "read_labels", "read_predictions"]

_SHOWN = 20  # ids listed in an error message before "... and N more"


def _listing(ids: list[str]) -> str:
    more = f", ... and {len(ids) - _SHOWN} more" if len(ids) > _SHOWN else ""
    return ", ".join(ids[:_SHOWN]) + more


def _lines(path: Path) -> Iterator[tuple[int, dict]]:
    """``(line number, object)`` of each non-blank line."""
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError as e:
                raise SourceFormatError(path.name, f"line {number}", f"not JSON: {e.msg} (column {e.colno})") from None
            if not isinstance(value, dict):
                raise SourceFormatError(path.name, f"line {number}", f"expected an object, got {type_name(value)}")
            yield number, value


def _string(path: Path, number: int, value: dict, key: str) -> str:
    if key not in value:
        raise SourceFormatError(path.name, f"line {number}", f"no {key!r}")
    if not isinstance(value[key], str):
        raise SourceFormatError(path.name, f"line {number}.{key}", f"expected a string, got {type_name(value[key])}")
    return value[key]


def _unique(path: Path, pairs: Iterable[tuple[int, str, object]]) -> dict[str, object]:
    out: dict[str, object] = {}
    lines: dict[str, list[int]] = {}
    for number, qid, value in pairs:
        lines.setdefault(qid, []).append(number)
        out[qid] = value
    duplicated = [f"{qid} (lines {', '.join(map(str, ns))})" for qid, ns in lines.items() if len(ns) > 1]
    if duplicated:
        raise SourceFormatError(path.name, "$", f"{len(duplicated)} duplicate question ids: {_listing(duplicated)}")
    return out


def read_predictions(path: str | Path) -> dict[str, str]:
    """``{question_id: hypothesis}`` of a predictions file, in file order.

    Raises:
        SourceFormatError: a line that is not a JSON object, a missing or non-string ``question_id`` or
            ``hypothesis`` (``PRED.jsonl: line 7.hypothesis: expected a string, got number``), or duplicate ids
            (all listed with their lines).
        OSError: the file cannot be read.
    """
    path = Path(path)
    return _unique(path, ((n, _string(path, n, v, "question_id"), _string(path, n, v, "hypothesis")) for n, v in _lines(path)))


def _label(path: Path, number: int, value: dict, judge_label) -> bool:
    if "autoeval_label" in value:  # the official evaluate_qa.py output (*.eval-results-<model>)
        label = value["autoeval_label"].get("label") if isinstance(value["autoeval_label"], dict) else None
        if not isinstance(label, bool):
            raise SourceFormatError(path.name, f"line {number}.autoeval_label.label", f"expected a boolean, got {type_name(label)}")
        return label
    return judge_label(_string(path, number, value, "reply"))


def read_labels(path: str | Path) -> tuple[dict[str, bool], list[str]]:
    """The judge's verdicts: ``({question_id: label}, judge models named in the file)``.

    Each line is ``{"question_id", "reply"}`` (the judge's reply, read by
    :func:`~himga.scoring.longmemeval.judge_label`) or a line of the official ``*.eval-results-<model>``
    file (``autoeval_label: {"model", "label"}``).

    Raises:
        SourceFormatError: a malformed line or duplicate ids, as :func:`read_predictions`.
        OSError: the file cannot be read.
    """
    from himga.scoring.longmemeval import judge_label

    path = Path(path)
    models: set[str] = set()
    rows = []
    for number, value in _lines(path):
        rows.append((number, _string(path, number, value, "question_id"), _label(path, number, value, judge_label)))
        if isinstance(value.get("autoeval_label"), dict) and isinstance(value["autoeval_label"].get("model"), str):
            models.add(value["autoeval_label"]["model"])
    return _unique(path, rows), sorted(models)


def check_ids(file: str, given: Iterable[str], expected: Iterable[str], *, partial: bool = False) -> list[str]:
    """Compare a file's question ids with the dataset's.

    Args:
        file: The file's name, for messages.
        given: The file's ids.
        expected: The dataset's ids, in dataset order.
        partial: Accept missing ids (they are returned) instead of raising.

    Returns:
        The missing ids, in dataset order (``[]`` unless ``partial``).

    Raises:
        SourceFormatError: ids the dataset does not have (always), or missing ids (unless ``partial``);
            the message lists them.
    """
    expected = list(expected)
    known = set(expected)
    given = list(given)
    unknown = [qid for qid in given if qid not in known]
    if unknown:
        raise SourceFormatError(file, "$", f"{len(unknown)} question ids not in the dataset: {_listing(unknown)}")
    have = set(given)
    missing = [qid for qid in expected if qid not in have]
    if missing and not partial:
        raise SourceFormatError(file, "$", f"{len(missing)} of {len(expected)} question ids missing (--partial scores the "
                                           f"given ones): {_listing(missing)}")
    return missing
