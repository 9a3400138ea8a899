"""LongMemEval's labels files: the judge's replies, or the official ``*.eval-results-<model>`` lines, read by its
official label rule (:func:`himga.scoring.judge_label`)."""

from __future__ import annotations

from pathlib import Path

from himga.jsonio.run_inputs import read_json_lines
from himga.scoring.inputs._predictions import labels_of
from himga.scoring.judges._longmemeval import judge_label

__all__ = ["read_labels"]


def read_labels(path: str | Path) -> tuple[dict[str, bool], list[str]]:
    """LongMemEval's judge verdicts: ``({question_id: label}, judge models named in the file)``.

    Each line is ``{"question_id", "reply"}`` (the judge's reply, read by :func:`~himga.scoring.judge_label`) or a
    line of the official ``*.eval-results-<model>`` file (``autoeval_label: {"model", "label"}``).

    Raises:
        SourceFormatError: a malformed line or duplicate ids (as :func:`himga.scoring.read_predictions`).
        ConfigurationError: the file does not exist or is a directory.
        OSError: the file cannot be read.
    """
    labels, models, _ = labels_of(read_json_lines(path, "labels"), judge_label)
    return labels, models
