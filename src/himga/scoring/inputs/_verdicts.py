"""Reading a judge's verdicts back: replies (``himga judge``'s, or any ``{"question_id", "reply"}`` lines), the
official LongMemEval ``*.eval-results-*`` lines, and the judged-results JSON of the LoCoMo evaluations that record
their runs (EverMemOS's ``eval_results.json``, the locomo-audit probe's ``ap_eval_results_scored.json``).

A reply is read by its judge's own rule (:class:`~himga.scoring.judges._judge.LabelRule`); a reply that rule cannot
read is an error naming the file and the line, as the judge's official code stops there.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from himga.errors import SourceFormatError, type_name
from himga.jsonio.reader import load_json
from himga.jsonio.run_inputs import check_id, input_name, read_json_lines
from himga.scoring.inputs._bound import RECORDED_LAYOUTS, Bound, bound_of, usage_of
from himga.scoring.judges import Judge, UnreadableReply
from himga.scoring.judges._evermemos import evermemos_ids

__all__ = ["Verdicts", "read_verdicts"]


def _registered():
    from himga.scoring.judges import judges

    return judges()


@dataclass
class Verdicts:
    """The verdicts of one file.

    Attributes:
        name: The file's name; sha256: the sha256 of its bytes.
        scores: judge name → question id → run (from 1) → item (from 1; one unless the judge is itemized) → the
            value the judge's rule read (a score in [0, 1] for every judge without its own ``combine``).
        models: judge name → the judge models the file names (``himga judge`` records the model that answered).
        hypotheses: question id → the hypothesis the file says was judged (EverMemOS's ``generated_answer``,
            LongMemEval's ``hypothesis``).
        bound: ``(judge, question id, run, item)`` → what its reply line says about the request it answered
            (:class:`~himga.scoring.Bound`; :func:`~himga.scoring.check_bound` compares it with the request rendered).
        recorded: layout → the number of verdicts recorded elsewhere, read without a request hash
            (:data:`~himga.scoring.inputs._bound.RECORDED_LAYOUTS`).
        usage: judge name → ``{request_sha256: the endpoint's token counts}`` of its reply lines that carry them.
        other_judges: judge name → the lines of registered judges not being scored (a file of several judges'
            replies), left unread.
    """

    name: str
    sha256: str
    scores: dict[str, dict[str, dict[int, dict[int, object]]]] = field(default_factory=dict)
    models: dict[str, set[str]] = field(default_factory=dict)
    hypotheses: dict[str, str] = field(default_factory=dict)
    bound: dict[tuple[str, str, int, int], Bound] = field(default_factory=dict)
    recorded: dict[str, int] = field(default_factory=dict)
    usage: dict[str, dict[str, dict]] = field(default_factory=dict)
    other_judges: dict[str, int] = field(default_factory=dict)

    def count_recorded(self, key: str, judge: Judge, where: str) -> None:
        """One more verdict of the recorded layout marked by ``key`` (``"llm_judgments"``).

        Raises:
            SourceFormatError: a layout ``judge``'s routes do not read (:attr:`~himga.scoring.Judge.recorded`).
        """
        if key not in judge.recorded:
            readers = ", ".join(j.name for j in _registered().values() if key in j.recorded)
            raise SourceFormatError(
                self.name,
                where,
                f"a verdict recorded elsewhere ({RECORDED_LAYOUTS[key]}, no request hash), which judge {judge.name}'s "
                f"route does not read (only {readers or 'no judge'}'s does): give the replies himga judge wrote, each "
                "bound to its request",
            )
        self.recorded[RECORDED_LAYOUTS[key]] = self.recorded.get(RECORDED_LAYOUTS[key], 0) + 1

    def add(self, where: str, judge: Judge, qid: str, run: int, score, item: int = 1) -> None:
        items = self.scores.setdefault(judge.name, {}).setdefault(qid, {}).setdefault(run, {})
        if item in items:
            raise SourceFormatError(
                self.name,
                where,
                f"a second verdict of judge {judge.name} on {qid} run {run}"
                + (f" item {item}" if judge.itemized else ""),
            )
        items[item] = score


def _is_document(data: bytes) -> bool:
    """A JSON document (indented EverMemOS results) rather than JSON Lines: its first non-blank line is not a whole
    object."""
    first = next((line.strip() for line in data.lstrip(b"\xef\xbb\xbf").splitlines() if line.strip()), b"")
    return first in (b"{", b"[") or not first.endswith((b"}", b"]"))


def _judge_of(value: dict, judges: Mapping[str, Judge], name: str, where: str) -> Judge | None:
    """The judge a verdict is of; ``None`` for another registered judge's (a file of several judges' replies)."""
    if "judge" not in value:
        if "request_sha256" in value and len(judges) == 1:  # himga judge copies a --judge request's judge onto it
            raise SourceFormatError(
                name,
                where,
                f"a reply himga judge wrote for a request that named no judge (a benchmark's own route, himga score "
                f"... --prompts without --judge), not of judge {', '.join(judges)}: score it on that route, or ask "
                "again from --judge NAME --prompts",
            )
        if len(judges) == 1:
            return next(iter(judges.values()))
        raise SourceFormatError(
            name, where, f"no 'judge': with {len(judges)} judges every verdict names its judge (himga judge writes it)"
        )
    if value["judge"] not in judges:
        from himga.scoring.judges import judges as registered

        if isinstance(value["judge"], str) and value["judge"] in registered():
            return None
        raise SourceFormatError(name, f"{where}.judge", f"expected one of {', '.join(judges)}, got {value['judge']!r}")
    return judges[value["judge"]]


def _run(value: dict, judge: Judge, name: str, where: str) -> int:
    run = value.get("run", 1)
    if isinstance(run, bool) or not isinstance(run, int) or not 1 <= run <= judge.runs:
        raise SourceFormatError(
            name, f"{where}.run", f"expected 1-{judge.runs} (judge {judge.name} runs {judge.runs} times), got {run!r}"
        )
    return run


def _item(value: dict, judge: Judge, name: str, where: str) -> int:
    item = value.get("item", 1)
    if isinstance(item, bool) or not isinstance(item, int) or item < 1 or (item > 1 and not judge.itemized):
        expected = "a number from 1" if judge.itemized else f"1 (judge {judge.name} asks once per question)"
        raise SourceFormatError(name, f"{where}.item", f"expected {expected}, got {item!r}")
    return item


def _read_line(out: Verdicts, number: int, value: dict, judges: Mapping[str, Judge]) -> None:
    where = f"line {number}"
    if "request_id" in value and "judge" not in value:  # a reply to a benchmark's own requests (without --judge)
        raise SourceFormatError(
            out.name,
            where,
            "a reply to a request of himga score without --judge (its request_id says so); the replies --judge "
            "reads answer the requests --judge writes (question_id, judge, run, item): score these without --judge, or "
            "ask again from --judge NAME --prompts",
        )
    qid = check_id(out.name, f"{where}.question_id", value.get("question_id")) if "question_id" in value else None
    if qid is None:
        raise SourceFormatError(out.name, where, "no 'question_id'")
    if (judge := _judge_of(value, judges, out.name, where)) is None:  # another registered judge's line: counted
        out.other_judges[value["judge"]] = out.other_judges.get(value["judge"], 0) + 1
        return None
    if isinstance(value.get("model"), str):
        out.models.setdefault(judge.name, set()).add(value["model"])
    for key in ("hypothesis", "generated_answer"):
        if isinstance(value.get(key), str):
            out.hypotheses[qid] = value[key]
    if "autoeval_label" in value:  # LongMemEval's evaluate_qa.py output
        label = value["autoeval_label"].get("label") if isinstance(value["autoeval_label"], dict) else None
        if not isinstance(label, bool):
            raise SourceFormatError(
                out.name, f"{where}.autoeval_label.label", f"expected a boolean, got {type_name(label)}"
            )
        if isinstance(value["autoeval_label"].get("model"), str):
            out.models.setdefault(judge.name, set()).add(value["autoeval_label"]["model"])
        out.count_recorded("autoeval_label", judge, f"{where}.autoeval_label")
        return out.add(where, judge, qid, _run(value, judge, out.name, where), float(label))
    if "llm_judgments" in value:
        return _read_judgments(out, where, judge, qid, value["llm_judgments"])
    if "reply" not in value:
        raise SourceFormatError(out.name, where, "no 'reply' (nor 'autoeval_label' or 'llm_judgments')")
    if not isinstance(value["reply"], str):
        raise SourceFormatError(out.name, f"{where}.reply", f"expected a string, got {type_name(value['reply'])}")
    try:
        score = judge.label.read(value["reply"])
    except UnreadableReply as e:
        raise SourceFormatError(out.name, f"{where}.reply", f"judge {judge.name} cannot read this reply: {e}") from None
    run, item = _run(value, judge, out.name, where), _item(value, judge, out.name, where)
    out.add(where, judge, qid, run, score, item)
    out.bound[(judge.name, qid, run, item)] = bound_of(out.name, where, value)
    out.usage.setdefault(judge.name, {}).update(usage_of([value]))


def _read_judgments(out: Verdicts, where: str, judge: Judge, qid: str, judgments) -> None:
    """``{"judgment_1": bool, ...}`` (EverMemOS, MemOS, the locomo-audit probe): one verdict per run."""
    if not isinstance(judgments, dict) or not judgments:
        raise SourceFormatError(
            out.name, f"{where}.llm_judgments", f"expected an object of judgment_<run>, got {type_name(judgments)}"
        )
    for key, label in judgments.items():
        run = int(key.removeprefix("judgment_")) if re.fullmatch(r"judgment_[1-9][0-9]*", key) else 0
        if not 1 <= run <= judge.runs:
            raise SourceFormatError(
                out.name, f"{where}.llm_judgments.{key}", f"expected judgment_1 to judgment_{judge.runs}"
            )
        if not isinstance(label, bool):
            raise SourceFormatError(
                out.name, f"{where}.llm_judgments.{key}", f"expected a boolean, got {type_name(label)}"
            )
        out.count_recorded("llm_judgments", judge, f"{where}.llm_judgments.{key}")
        out.add(f"{where}.llm_judgments.{key}", judge, qid, run, float(label))


def _read_document(out: Verdicts, data, judges: Mapping[str, Judge], questions: Mapping) -> None:
    groups = data.get("detailed_results") if isinstance(data, dict) else None
    if isinstance(groups, dict):
        entries = [
            (f"$.detailed_results.{g}[{i}]", e) for g, items in groups.items() for i, e in enumerate(items or [])
        ]
    elif isinstance(groups, list):
        entries = [(f"$.detailed_results[{i}]", e) for i, e in enumerate(groups)]
    else:
        raise SourceFormatError(
            out.name, "$", "expected JSON Lines, or a judged-results object with 'detailed_results'"
        )
    ids = evermemos_ids(questions)
    for where, entry in entries:
        if not isinstance(entry, dict):
            raise SourceFormatError(out.name, where, f"expected an object, got {type_name(entry)}")
        raw = entry.get("question_id")
        qid = ids.get(raw, raw) if isinstance(raw, str) else raw
        if not isinstance(qid, str) or qid not in questions:
            raise SourceFormatError(out.name, f"{where}.question_id", f"{raw!r} names no question of the dataset")
        qa = questions[qid]
        if isinstance(entry.get("question"), str) and entry["question"] != getattr(qa, "question", entry["question"]):
            raise SourceFormatError(
                out.name,
                f"{where}.question",
                f"{raw} is {qid}, whose question is {qa.question!r}, not {entry['question']!r}",
            )
        if isinstance(entry.get("generated_answer"), str):
            out.hypotheses[qid] = entry["generated_answer"]
        if judges and (judge := _judge_of(entry, judges, out.name, where)) is not None:  # no judges: the answers only
            _read_judgments(out, where, judge, qid, entry.get("llm_judgments"))


def read_verdicts(path: str | Path, judges: Mapping[str, Judge], questions: Mapping) -> Verdicts:
    """Read a verdicts file for the judges ``judges`` (name → :class:`Judge`).

    Args:
        path: JSON Lines (``{"question_id", "reply", "judge"?, "run"?, "model"?}`` lines, LongMemEval's
            ``*.eval-results-*`` lines, or lines with ``llm_judgments``), or a judged-results JSON document
            (``{"detailed_results": {group: [{"question_id": "locomo_0_qa0", "llm_judgments": {"judgment_1": true,
            ...}, "generated_answer", "question"}]}}``).
        judges: The judges being scored; a file that names no judge serves exactly one; lines of other
            registered judges are skipped.
        questions: ``{question_id: QAPair}`` of the whole dataset in dataset order (maps EverMemOS ids).

    Raises:
        SourceFormatError: a malformed line or entry, a reply the judge's rule cannot read, an unknown judge
            or run, two verdicts on one question run, an EverMemOS id or question that is not the dataset's.
        ConfigurationError: the file does not exist or is a directory.
    """
    name = input_name(path)
    if str(path) != "-" and Path(path).is_file():
        with open(path, "rb") as f:
            head = f.read(1 << 16)
        if _is_document(head):
            digest = hashlib.sha256()
            data = load_json(path, digest=digest)
            out = Verdicts(name, digest.hexdigest())
            _read_document(out, data, judges, questions)
            return out
    file = read_json_lines(path, "labels")
    out = Verdicts(file.name, file.sha256)
    for number, value in file.lines:
        _read_line(out, number, value, judges)
    return out
