"""The evaluation loop's records, as it writes them, matched to the questions they answer.

A record is an object with the system's answer under ``hypothesis`` (LongMemEval's name) or ``response`` (the
seed loop's), and the question it answers named one of three ways:

- ``{"question_id": "conv-26:0"}``: the scored item id (:func:`himga.data.item_id`; LongMemEval's own ids);
- ``{"sample_id": "conv-26", "question_id": "0"}``: as the loop copies them from the Sample and the QA pair;
- ``{"question_id": "v1a2b3c4d5e:q1"}``: the id of the system view (:func:`himga.data.system_view`).

Fields the loop copies from the QA pair (``question``, ``answer``, ``question_type``) are checked against the gold
they claim to be: a loop that answered stale or edited gold, or gold read with other options, is caught.
:func:`himga.scoring.score_records` scores them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from himga.errors import SourceFormatError, counted, type_name
from himga.scoring.inputs._predictions import brief
from himga.scoring.inputs._predictions import places as found_at
from himga.scoring.inputs._type_labels import matching_map

__all__ = [
    "COPIED_FIELDS",
    "HYPOTHESIS_KEYS",
    "RecordIndex",
    "match_records",
    "record_index",
    "records_of",
    "resolve_record",
    "unmatched_hint",
]

#: Where a record holds the system's answer, in the order looked up.
HYPOTHESIS_KEYS = ("hypothesis", "response")
#: Fields a loop copies from the QA pair, checked against the gold.
COPIED_FIELDS = ("question", "answer", "question_type")

_SHOWN = 20


@dataclass
class RecordIndex:
    """Every way a record may name a question of the data scored.

    Attributes:
        questions: ``{item id: QAPair}`` in dataset order (:func:`himga.scoring.questions_by_id`).
        sample_of: ``{item id: sample id}``.
        pairs: ``{(sample id, question id): item id}``.
        views: ``{view question id: item id}`` (:func:`himga.data.view_question_ids`).
        datasets: The ``Sample.dataset`` names of the data (``{"beam"}``).
    """

    questions: dict = field(default_factory=dict)
    sample_of: dict[str, str] = field(default_factory=dict)
    pairs: dict[tuple[str, str], str] = field(default_factory=dict)
    views: dict[str, str] = field(default_factory=dict)
    datasets: set[str] = field(default_factory=set)

    def example(self) -> str:
        """The accepted forms, with the first question of the data: ``{"question_id": "conv-26:0"} or ...``."""
        if not self.questions:
            return "no question to match"
        first = next(iter(self.questions))
        sample, local = self.sample_of[first], self.questions[first].question_id
        view = next(iter(self.views))
        forms = [json.dumps({"question_id": first})]
        if first != local or sample != local:
            forms.append(json.dumps({"sample_id": sample, "question_id": local}))
        forms.append(json.dumps({"question_id": view}) + " (the system view's id)")
        return "expected " + " or ".join(forms)


def record_index(samples: Iterable) -> RecordIndex:
    """The :class:`RecordIndex` of Samples, in one pass that keeps only the QA pairs (LongMemEval-M's haystacks go)."""
    from himga.schema.ids import item_id
    from himga.schema.view import view_question_ids

    index = RecordIndex()
    for sample in samples:
        for qa in sample.qa_pairs:
            qid = item_id(sample, qa)
            index.questions[qid] = qa
            index.sample_of[qid] = sample.sample_id
            index.pairs[(sample.sample_id, qa.question_id)] = qid
        index.views.update(view_question_ids(sample))
        index.datasets.add(sample.dataset)
    return index


def _other_configs(index: RecordIndex) -> tuple[dict[str, tuple[str, str]], list[str]]:
    """``({sample id or view sample id: (sample id, config)}, configs scored)`` of the samples of the configs not
    scored, for benchmarks whose configs reuse sample ids' form (:func:`himga.scoring._scorers.release_ids`, which
    their entries register: :attr:`himga.entry.Benchmark.release_ids`)."""
    from himga.schema.view import view_id
    from himga.scoring._scorers import release_ids

    other: dict[str, tuple[str, str]] = {}
    scored: list[str] = []
    for dataset in sorted(index.datasets):
        if (release := release_ids(dataset)) is None:
            continue
        configs = {release[s] for s in index.sample_of.values() if s in release}
        scored += sorted(configs)
        for sample, config in release.items():
            if config not in configs:
                other[sample] = other[view_id(dataset, sample)] = (sample, config)
    return other, scored


def _foreign(record: dict, other: dict[str, tuple[str, str]]) -> tuple[str, str] | None:
    """``(sample id, config)`` of another config's sample that a record names (by sample id, item id or view id)."""
    for value in (_id_text(record.get("sample_id")), _id_text(record.get("question_id"))):
        if value is not None and (hit := other.get(value) or other.get(value.partition(":")[0])):
            return hit
    return None


def _id_text(value) -> str | None:
    """A record's id as text: a string, or an integer (``question_id: 0``) as ``str(int)``; else ``None``."""
    if isinstance(value, str):
        return value
    if type(value) is int:
        return str(value)
    return None


def resolve_record(record: dict, index: RecordIndex) -> str | None:
    """The item id of the question ``record`` answers (by ``question_id``, a view's question id, or ``sample_id`` and
    ``question_id``), or ``None`` when it names none of ``index``."""
    question, sample = _id_text(record.get("question_id")), _id_text(record.get("sample_id"))
    if question is None:
        return None
    qid = question if question in index.questions else index.views.get(question)
    if sample is None:
        return qid
    if (sample, question) in index.pairs:
        return index.pairs[(sample, question)]
    if qid is not None and sample in (
        index.sample_of[qid],
        question.rpartition(":")[0] if question in index.views else None,
    ):
        return qid
    return None


def _dict_form(file: str, where: str, record: dict, index: RecordIndex) -> None:
    """Refuse a ``{question_id: answer}`` object read as one record: keys that name questions, no record keys."""
    if any(k in record for k in (*HYPOTHESIS_KEYS, "question_id", "sample_id")):
        return
    local = {question for _, question in index.pairs}
    named = sum(1 for key in record if resolve_record({"question_id": key}, index) is not None or key in local)
    if not named:
        return
    raise SourceFormatError(
        file,
        where,
        (
            f"a {{question_id: answer}} object ({len(record):,} keys), not the loop's records: the dict form is "
            "refused, "
            f"because keyed by the ids of questions within a sample it has already lost answers (one kept per key: "
            f"{len(local):,} distinct for {len(index.questions):,} questions) and it holds no copied field to check; "
            f"write one record per answer, a JSON array or JSON Lines, the answer under 'hypothesis' or 'response' and "
            f"the question as {index.example().removeprefix('expected ')}"
        ),
    )


def _hypothesis(file: str, where: str, record: dict):
    present = [k for k in HYPOTHESIS_KEYS if k in record]
    if not present:
        raise SourceFormatError(file, where, f"no {' or '.join(map(repr, HYPOTHESIS_KEYS))} (the system's answer)")
    if len(present) > 1 and record[present[0]] != record[present[1]]:
        raise SourceFormatError(file, where, "'hypothesis' and 'response' differ: keep one")
    value = record[present[0]]
    if not isinstance(value, str):
        raise SourceFormatError(file, f"{where}.{present[0]}", f"expected a string, got {type_name(value)}")
    return value


def _gold(qa, name: str) -> tuple[str, ...]:
    """The values a copy of field ``name`` of ``qa`` may hold: the gold, and for ``question_type`` also the type as
    the source spells it (LongMemEval's ``knowledge-update`` for ``knowledge_update``)."""
    if name != "question_type":
        return (getattr(qa, name),)
    source = qa.raw.get("question_type")
    return (
        qa.question_type.value,
        *((source,) if isinstance(source, str) and source != qa.question_type.value else ()),
    )


def match_records(
    records: Iterable[tuple[str, dict]],
    index: RecordIndex,
    *,
    file: str = "records",
    check_copied: bool = True,
    type_maps: Mapping[str, Mapping] | None = None,
    category: Callable | None = None,
    need_hypothesis: bool = True,
) -> tuple[dict[str, str], dict[str, int | str]]:
    """Match records to the questions of ``index``.

    Args:
        records: ``(where, record)``: ``where`` names the record in messages (``"line 3"``, ``"$[2]"``).
        index: The questions scored (:func:`record_index`).
        file: The records' name, for messages.
        check_copied: Compare :data:`COPIED_FIELDS` with the gold (default); ``False`` ignores them.
        type_maps: The benchmark's known label maps of ``question_type`` (name → category → label,
            :attr:`himga.scoring.Scorer.type_maps`): a copied type that is not the gold's is accepted when every such
            record's label is its question's ``category(qa)`` under one of them (:mod:`._type_labels`).
        category: ``qa -> category`` for ``type_maps``.
        need_hypothesis: Refuse a record without a hypothesis (default); ``False`` matches it (its hypothesis
            ``None``): the records of a retrieval run, scored by their own values (``himga score --verdicts``).

    Returns:
        ``({item id: hypothesis}, {field: records whose copy was checked})``, records in file order; with
        ``"question_type_labels"``: the name of the label map the copied types were read with, when not the gold's.

    Raises:
        SourceFormatError: a ``{question_id: answer}`` object instead of records (the dict form); a record without a
            hypothesis (or with a non-string one); records answering another config's samples (BEAM's tiers reuse chat
            numbers: ``"1 records answer questions of config 500K, not of the data scored (config 100K): ..."``);
            records naming no question of the data (all listed, with the accepted forms and a real example); two
            records for one question (all listed with their places); copied fields that differ from the gold (all
            listed).
    """
    out: dict[str, str] = {}
    places: dict[str, list[str]] = {}
    unmatched: list[tuple[str, dict]] = []
    differ: list[tuple[int, str]] = []  # (place in the file, message line)
    relabelled: list[tuple[int, str, object, object]] = []  # (place, line, category, copied type): in other labels?
    checked: dict[str, int | str] = dict.fromkeys(COPIED_FIELDS, 0)
    for n, (where, record) in enumerate(records):
        _dict_form(file, where, record, index)
        if need_hypothesis or any(k in record for k in HYPOTHESIS_KEYS):
            hypothesis = _hypothesis(file, where, record)
        else:
            hypothesis = None
        qid = resolve_record(record, index)
        if qid is None:
            shown = {k: record[k] for k in ("sample_id", "question_id") if k in record}
            unmatched.append((f"{where} {brief(json.dumps(shown, ensure_ascii=False))}", record))
            continue
        places.setdefault(qid, []).append(where)
        out[qid] = hypothesis
        for name in COPIED_FIELDS if check_copied else ():
            if name in record:
                checked[name] += 1
                gold = _gold(index.questions[qid], name)
                if (str(record[name]) if isinstance(record[name], (str, int)) else record[name]) not in gold:
                    shown = " or ".join(brief(repr(g)) for g in gold)
                    line = f"{where} {brief(qid)} {name} {brief(repr(record[name]))}, gold {shown}"
                    if name == "question_type" and type_maps and isinstance(record[name], str):
                        relabelled.append((n, line, category(index.questions[qid]), record[name]))
                    else:
                        differ.append((n, line))
    if unmatched and (foreign := _foreign_records(unmatched, index)):
        raise SourceFormatError(file, "$", foreign)
    if unmatched:
        raise SourceFormatError(
            file,
            "$",
            f"{counted(len(unmatched), 'record')} name{'s' if len(unmatched) == 1 else ''} no question of the data: "
            f"{_listing([u for u, _ in unmatched])}; "
            f"{index.example()}{_other_benchmark(unmatched, index)}",
        )
    duplicated = [f"{brief(qid)} ({found_at(ps)})" for qid, ps in places.items() if len(ps) > 1]
    if duplicated:
        raise SourceFormatError(
            file, "$", f"{counted(len(duplicated), 'question')} answered twice: {_listing(duplicated)}"
        )
    hint = ""
    if relabelled:
        labels, misses = matching_map([(c, label) for _, _, c, label in relabelled], type_maps)
        if labels is not None and not misses:
            checked["question_type_labels"] = labels
        else:
            differ = sorted([*differ, *((relabelled[i][0], relabelled[i][1]) for i in misses)])
            if labels is not None:
                others = len(relabelled) - len(misses)
                verb = "is" if others == 1 else "are"
                hint = f"the other {counted(others, 'copied question type')} {verb} in the {labels} labels"
    if differ:
        raise SourceFormatError(
            file,
            "$",
            f"{counted(len(differ), 'copied field')} differ{'s' if len(differ) == 1 else ''} from the gold (answers to "
            "stale or edited "
            "gold, or to gold read with other options than the Samples scored: himga score "
            f"reads the default gold, --gold names another): {_listing([line for _, line in differ])}"
            + (f"; {hint}" if hint else ""),
        )
    return out, {k: v for k, v in checked.items() if v}


def _foreign_records(unmatched: list[tuple[str, dict]], index: RecordIndex) -> str | None:
    """The message for records answering another config's samples (BEAM's 500K chat 1 scored as 100K), or ``None``."""
    other, scored = _other_configs(index)
    hits = [(where, found) for where, record in unmatched if (found := _foreign(record, other)) is not None]
    if not hits:
        return None
    configs = sorted({config for _, (_sample, config) in hits})
    return (
        f"{counted(len(hits), 'record')} answer{'s' if len(hits) == 1 else ''} questions of config "
        f"{', '.join(configs)}, not of the data scored (config "
        f"{', '.join(scored)}): "
        f"{_listing([f'{where} (sample {sample}, config {config})' for where, (sample, config) in hits])}; "
        "the configs hold other samples under the same numbers: score them against their own config (--config / "
        "config=)"
    )


def _other_benchmark(unmatched: list[tuple[str, dict]], index: RecordIndex) -> str:
    """``"; they look like longmemeval's question ids (...): score them against longmemeval"`` when every unmatched
    record's id has the shape of another registered benchmark's ids (:attr:`~himga.scoring.Scorer.question_ids`) and
    no question of the data scored has it (LoCoMo-Plus holds LoCoMo's questions), else ``""``."""
    from himga.scoring._scorers import SCORERS

    ids = [_id_text(record.get("question_id")) for _, record in unmatched]
    for name, other in SCORERS.all().items():
        if other.question_ids is None or not ids or name in index.datasets:
            continue
        shape, example = re.compile(other.question_ids[0]), other.question_ids[1]
        if all(i is not None and shape.fullmatch(i) for i in ids) and not any(map(shape.fullmatch, index.questions)):
            return f"; they look like {name}'s question ids ({example}): score them against {name} (himga score {name})"
    return ""


def _listing(items: list[str]) -> str:
    more = f", ... and {len(items) - _SHOWN} more" if len(items) > _SHOWN else ""
    return "; ".join(items[:_SHOWN]) + more


def unmatched_hint(unknown: list[str], index: RecordIndex) -> str | None:
    """Why keys of a ``{question_id: hypothesis}`` dict name no question, when they are ids within a sample.

    A dict keyed by LoCoMo's per-conversation ``question_id`` (``"0"``) has kept one answer per key and lost the
    others; this says so and names the forms that work. ``None`` when the keys are not such ids.
    """
    local = {question for _, question in index.pairs}
    if not unknown or not all(key in local for key in unknown):
        return None
    return (
        f"keys like {unknown[0]!r} are question ids within a sample ({len(local):,} distinct for "
        f"{len(index.questions):,} questions): a dict keyed by them has kept one answer per key and lost the rest; "
        f"key it by himga.data.item_id(sample, qa), or pass the loop's records to himga.scoring.score_records "
        f"({index.example()})"
    )


def records_of(value) -> list[tuple[str, dict]]:
    """``(where, record)`` of a list of records passed in Python (``"$[3]"``).

    Raises:
        SourceFormatError: an item that is not a mapping.
    """
    out = []
    for n, record in enumerate(value):
        if not isinstance(record, Mapping):
            raise SourceFormatError("records", f"$[{n}]", f"expected an object, got {type_name(record)}")
        out.append((f"$[{n}]", dict(record)))
    return out
