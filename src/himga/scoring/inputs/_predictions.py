"""Reading a run's files: predictions (``{"question_id", "hypothesis"}`` lines) and judge verdicts.

Both are JSON Lines, one object per line (blank lines are skipped), as LongMemEval's own scripts read and
write them. Every problem is a :class:`~himga.errors.SourceFormatError` naming the file and the line.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from pathlib import Path
from typing import TypeVar

from himga.errors import SourceFormatError, shown, type_name
from himga.identifiers import MAX_QUALIFIED_ID_LENGTH
from himga.jsonio.run_inputs import InputFile, check_id, input_name, read_json_lines

__all__ = [
    "brief",
    "check_hypotheses",
    "check_ids",
    "in_subset",
    "labels_of",
    "predictions_of",
    "read_predictions",
    "replies_of",
]

V = TypeVar("V")
_SHOWN = 20  # ids listed in an error message before "... and N more"


def brief(qid: object) -> str:
    """An id as a message shows it: escaped when not printable, cut to 40 characters when longer than an id may be."""
    text = str(qid)
    if len(text) > MAX_QUALIFIED_ID_LENGTH:
        return f"{text[:40]!r}... ({len(text):,} characters)"
    return shown(text)


def _listing(ids: list[str]) -> str:
    more = f", ... and {len(ids) - _SHOWN} more" if len(ids) > _SHOWN else ""
    return ", ".join(ids[:_SHOWN]) + more


_PLACES = 5  # places of one id shown before "... (N in all)"


def places(where: list) -> str:
    """The places an id was found at, as a message shows them: ``1, 7, 9`` or, past five, ``1, 7, 9, 12, 15, ... (6,000
    in all)`` (an id repeated on thousands of lines must not make a message of thousands of numbers)."""
    shown = ", ".join(map(str, where[:_PLACES]))
    return shown + (f", ... ({len(where):,} in all)" if len(where) > _PLACES else "")


def _string(name: str, number: int, value: dict, key: str) -> str:
    if key not in value:
        raise SourceFormatError(name, f"line {number}", f"no {key!r}")
    if not isinstance(value[key], str):
        raise SourceFormatError(name, f"line {number}.{key}", f"expected a string, got {type_name(value[key])}")
    return value[key]


def _qid(name: str, number: int, value: dict) -> str:
    if "question_id" not in value:
        raise SourceFormatError(name, f"line {number}", "no 'question_id'")
    return check_id(name, f"line {number}.question_id", value["question_id"])


def _unique(name: str, pairs: Iterable[tuple[int, str, object]]) -> dict[str, object]:
    out: dict[str, object] = {}
    lines: dict[str, list[int]] = {}
    for number, qid, value in pairs:
        lines.setdefault(qid, []).append(number)
        out[qid] = value
    duplicated = [f"{qid} (lines {places(ns)})" for qid, ns in lines.items() if len(ns) > 1]
    if duplicated:
        raise SourceFormatError(name, "$", f"{len(duplicated)} duplicate question ids: {_listing(duplicated)}")
    return out


def predictions_of(file: InputFile) -> dict[str, str]:
    """``{question_id: hypothesis}`` of a predictions file read by :func:`~himga.jsonio.run_inputs.read_json_lines`."""
    return _unique(
        file.name, ((n, _qid(file.name, n, v), _string(file.name, n, v, "hypothesis")) for n, v in file.lines)
    )


def read_predictions(path: str | Path) -> dict[str, str]:
    """``{question_id: hypothesis}`` of a predictions file (or ``-``: standard input), in file order.

    Raises:
        SourceFormatError: what :func:`~himga.jsonio.run_inputs.read_json_lines` raises (not UTF-8, invalid
            JSON, too deep, a duplicate key, not an object), a missing or non-string ``question_id`` or
            ``hypothesis`` (``PRED.jsonl: line 7.hypothesis: expected a string, got number``), an id longer
            than 258 characters or with control characters, or duplicate ids (all listed with their lines); a JSON
            array (the evaluation loop's records file) says so: ``json.load`` it for
            :func:`~himga.scoring.score_records`, or score it with ``himga score``, which reads both.
        ConfigurationError: the file does not exist or is a directory.
        OSError: the file cannot be read.
    """
    if path != "-" and _starts_an_array(path):
        raise SourceFormatError(
            input_name(path),
            "$",
            'expected JSON Lines (a {"question_id", "hypothesis"} object per line), '
            "got a JSON array: json.load it and pass the records to score_records, "
            "or score the file with himga score, which reads both",
        )
    return predictions_of(read_json_lines(path, "predictions"))


def _starts_an_array(path: str | Path) -> bool:
    """Whether the file's first significant byte is ``[`` (:func:`himga.jsonio.jsonlines.leading_byte`)."""
    from himga.jsonio.jsonlines import leading_byte

    try:
        return leading_byte(path) == b"["
    except OSError:  # read_json_lines words it
        return False


def _label(name: str, number: int, value: dict, judge_label) -> bool | float:
    if "autoeval_label" in value:  # the official evaluate_qa.py output (*.eval-results-<model>)
        label = value["autoeval_label"].get("label") if isinstance(value["autoeval_label"], dict) else None
        if not isinstance(label, bool):
            raise SourceFormatError(
                name, f"line {number}.autoeval_label.label", f"expected a boolean, got {type_name(label)}"
            )
        return label
    return judge_label(_string(name, number, value, "reply"))


def labels_of(
    file: InputFile, read_label: Callable[[str], bool | float]
) -> tuple[dict[str, bool | float], list[str], dict[str, str]]:
    """The verdicts of a labels file read by :func:`~himga.jsonio.run_inputs.read_json_lines`.

    Args:
        file: The file.
        read_label: ``reply -> label``, how a ``reply`` is read (the judge's :attr:`~himga.scoring.LabelRule.read`).

    Returns:
        ``({question_id: label}, judge models named in the file, {question_id: hypothesis the file holds})``;
        the last is filled from the official ``*.eval-results-*`` lines, which repeat the hypothesis judged.
    """
    judge_label = read_label
    models: set[str] = set()
    rows = []
    hypotheses: dict[str, str] = {}
    for number, value in file.lines:
        qid = _qid(file.name, number, value)
        rows.append((number, qid, _label(file.name, number, value, judge_label)))
        if "hypothesis" in value:
            hypotheses[qid] = _string(file.name, number, value, "hypothesis")
        if isinstance(value.get("autoeval_label"), dict) and isinstance(value["autoeval_label"].get("model"), str):
            models.add(value["autoeval_label"]["model"])
        if isinstance(value.get("model"), str):  # himga judge's replies: the model that answered
            models.add(value["model"])
    return _unique(file.name, rows), sorted(models), hypotheses


def replies_of(file: InputFile) -> tuple[dict[str, str], list[str]]:
    """The judge's replies of a replies file read by :func:`~himga.jsonio.run_inputs.read_json_lines`, for a judge of
    several requests per question (BEAM): each line ``{"request_id", "reply"[, "question_id", "model"]}``.

    Returns:
        ``({request_id: reply}, judge models named in the file)``.

    Raises:
        SourceFormatError: a line without a string ``request_id`` or ``reply`` (``REPLIES.jsonl: line 7.reply:
            expected a string, got number``), or a request id twice.
    """
    models: set[str] = set()
    rows = []
    for number, value in file.lines:
        if "request_id" not in value and isinstance(value.get("judge"), str):  # a reply of himga score --judge
            raise SourceFormatError(
                file.name,
                f"line {number}",
                f"a reply to a request of himga score --judge {value['judge']} (its judge, run and item say so), not "
                "to this route's own requests ({request_id, reply}): score these with --judge "
                f"{value['judge']}, or ask again from this route's --prompts",
            )
        request_id = check_id(file.name, f"line {number}.request_id", _string(file.name, number, value, "request_id"))
        rows.append((number, request_id, _string(file.name, number, value, "reply")))
        if isinstance(value.get("model"), str):
            models.add(value["model"])
    return _unique(file.name, rows), sorted(models)


def in_subset(
    verdicts: Mapping[str, V],
    scored: Collection[str],
    every: Collection[str],
    question_of: Callable[[str], str] | None = None,
) -> dict[str, V]:
    """The verdicts a subset run reads: those on questions of the dataset outside the scored subset (``--ids``) are
    ignored, as its other predictions are (a labels file made for the whole run serves any subset of it).

    Args:
        verdicts: ``{key: verdict}``: by question id, or by request id with ``question_of``.
        scored: The question ids scored (the subset).
        every: Every question id of the dataset: a verdict on a question outside it is kept, for the caller to refuse.
        question_of: ``key -> question id`` when the keys are not question ids (BEAM's request ids).
    """

    def outside(key: str) -> bool:
        qid = question_of(key) if question_of is not None else key
        return qid not in scored and qid in every

    return {key: value for key, value in verdicts.items() if not outside(key)}


def check_hypotheses(file: str, judged: dict[str, str], predictions: dict[str, str], predictions_file: str) -> None:
    """Refuse verdicts on other hypotheses than the ones scored.

    Args:
        file: The labels file's name.
        judged: ``{question_id: hypothesis}`` the labels file holds (:func:`labels_of`).
        predictions: The hypotheses being scored.
        predictions_file: Their file's name.

    Raises:
        SourceFormatError: ``labels.jsonl: $: 2 verdicts judged another hypothesis than hyp.jsonl's: q1, q2``.
    """
    differ = [brief(qid) for qid, text in judged.items() if qid in predictions and predictions[qid] != text]
    if differ:
        raise SourceFormatError(
            file, "$", f"{len(differ)} verdicts judged another hypothesis than {predictions_file}'s: {_listing(differ)}"
        )


def check_ids(
    file: str,
    given: Iterable[str],
    expected: Iterable[str],
    *,
    partial: bool = False,
    partial_hint: str = "partial=True",
) -> list[str]:
    """Compare a file's question ids with the dataset's.

    Args:
        file: The file's name, for messages.
        given: The file's ids.
        expected: The dataset's ids, in dataset order.
        partial: Accept missing ids (they are returned) instead of raising.
        partial_hint: How the caller says ``partial`` (``"--partial"`` on the command line), for the message.

    Returns:
        The missing ids, in dataset order (``[]`` unless ``partial``).

    Raises:
        SourceFormatError: ids the dataset does not have (always), or missing ids (unless ``partial``);
            the message lists them.
    """
    expected = list(expected)
    known = set(expected)
    given = list(given)
    unknown = [brief(qid) for qid in given if qid not in known]
    if unknown:
        raise SourceFormatError(file, "$", f"{len(unknown)} question ids not in the dataset: {_listing(unknown)}")
    have = set(given)
    missing = [qid for qid in expected if qid not in have]
    if missing and not partial:
        raise SourceFormatError(
            file,
            "$",
            f"{len(missing)} of {len(expected)} question ids missing ({partial_hint} scores "
            f"the given ones): {_listing([brief(m) for m in missing])}",
        )
    return missing
