"""Relevance labels in the formats IR tools read: TREC qrels and runs, query and candidate lists.

The labels are :meth:`Sample.relevance <himga.schema.sample.Sample.relevance>` (the official rules; sources
in :mod:`himga.schema.relevance`). Files written by :func:`write_qrels` into one folder::

    queries.tsv               qid <TAB> question              every QA pair (whitespace runs → one space)
    qrels.session.txt         qid 0 docid 1                   evaluable QA pairs, relevant sessions
    qrels.turn.txt            qid 0 docid 1                   evaluable QA pairs, relevant turns
    candidates.session.tsv    qid <TAB> docid                 per QA pair, the documents to rank
    candidates.turn.tsv       qid <TAB> docid
    excluded.tsv              qid <TAB> reason                QA pairs the official metrics leave out
    dangling.tsv              qid <TAB> docid                 relevant ids naming no turn (LoCoMo)
    identity.json             sources' sha256, config, gold   (:func:`export_qrels` only) what the labels come from

Ids are unique and stable (they depend only on the source file) and bounded (source ids have at most
:data:`~himga.identifiers.MAX_ID_LENGTH` = 128 characters, so a line has at most ~520): LongMemEval ``qid`` =
``question_id``, documents = the haystack session id and ``<session_id>_<n>`` (the official ids); LoCoMo ``qid`` =
``<sample_id>:<question_id>`` (``conv-26:0``), documents = ``<sample_id>:S<n>`` (``conv-26:S1``) and
``<sample_id>:<turn_id>`` (``conv-26:D1:3``), qualified by the conversation because LoCoMo's own ids repeat across
conversations. Excluded QA pairs have no qrels lines, so a TREC tool averaging over the qrels' queries gives
LongMemEval's official averages; for LoCoMo, see the differences from its official recall in
:mod:`himga.schema.relevance`. Every file is written completely or not at all.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from himga.errors import ConfigurationError, shown
from himga.identifiers import trec_id
from himga.schema.ids import item_id
from himga.schema.relevance import GRANULARITIES, check_granularity, rule_of

__all__ = ["IDENTITY", "QrelsSummary", "documents", "export_qrels", "qrels", "write_qrels"]


def _doc_id(sample, local: str, granularity: str) -> str:
    if not rule_of(sample).scoped_ids:
        return local
    return f"{sample.sample_id}:S{local}" if granularity == "session" else f"{sample.sample_id}:{local}"


def documents(sample, granularity: str) -> dict[str, str]:
    """The candidate documents of ``sample``'s questions: ``{doc id: text}``, haystack order.

    Args:
        sample: A :class:`~himga.data.Sample`.
        granularity: ``"session"`` or ``"turn"``.

    Returns:
        LongMemEval, as the official corpus (``run_retrieval.py``): a session's user turns joined by one
        space, or one user turn's content. LoCoMo (himga's choice; the official code has no corpus
        text): a session's turns as ``"<speaker>: <content>"`` lines, or one turn's ``content``. A session
        id repeated in a haystack keeps its first text.

    Raises:
        ConfigurationError: an unknown granularity.
    """
    check_granularity(granularity)
    docs: dict[str, str] = {}
    rule = rule_of(sample)
    for session in sample.sessions:
        if granularity == "session":
            docs.setdefault(_doc_id(sample, session.session_id, "session"), rule.session_text(session))
            continue
        for turn_id, m in rule.turns(session):
            docs.setdefault(_doc_id(sample, turn_id, "turn"), m.content)
    return docs


def _judged(sample, rel, granularity: str, candidates: list[str]) -> list[tuple[str, int]]:
    """(doc id, grade) lines of one evaluable QA pair; grade 0 on the first candidate when none is relevant."""
    judged = [(_doc_id(sample, i, granularity), 1) for i in rel.ids(granularity)]
    return judged or [(c, 0) for c in candidates[:1]]


def qrels(samples: Iterable, granularity: str) -> dict[str, dict[str, int]]:
    """The qrels of evaluable QA pairs as a dict, ``{qid: {doc id: 1}}`` (what ``pytrec_eval``/``ir_measures`` take).

    Args:
        samples: Samples (a list or a :class:`~himga.data.LazySamples`).
        granularity: ``"session"`` or ``"turn"``.

    Returns:
        One entry per evaluable QA pair, in sample and QA order. An evaluable QA pair without a relevant
        id at this granularity (none in the released files) gets its first candidate with grade 0, so that
        it scores 0 as in the official averages instead of vanishing.

    Raises:
        ConfigurationError: an unknown granularity.
    """
    out: dict[str, dict[str, int]] = {}
    for sample in samples:
        for qa in sample.qa_pairs:
            rel = sample.relevance(qa)
            if rel.evaluable:
                candidates = [_doc_id(sample, c, granularity) for c in sample.candidates(granularity)]
                out[item_id(sample, qa)] = dict(_judged(sample, rel, granularity, candidates))
    return out


@dataclass
class QrelsSummary:
    """What :func:`write_qrels` wrote.

    Attributes:
        out_dir: The folder.
        queries: QA pairs in ``queries.tsv``.
        evaluable: QA pairs with qrels lines.
        excluded: ``[(qid, reason)]`` of the others, as in ``excluded.tsv``.
        dangling: ``[(qid, doc id)]`` relevant ids that name no turn of the sample, as in ``dangling.tsv``.
        lines: Lines per file name.
    """

    out_dir: Path
    queries: int = 0
    evaluable: int = 0
    excluded: list[tuple[str, str]] = field(default_factory=list)
    dangling: list[tuple[str, str]] = field(default_factory=list)
    lines: dict[str, int] = field(default_factory=dict)


#: ``candidates.*.tsv`` may hold at most this many bytes per character of a sample's text (its turns,
#: turn ids, questions and answers), at least :data:`MIN_CANDIDATE_BYTES` per sample. The released
#: LoCoMo needs 42 at most (conv-*: 32.0 MB of candidates for 1.0 M characters of text in all); each
#: LongMemEval question has its own haystack, so it needs less than 1.
CANDIDATE_BYTES_PER_CHARACTER = 256
MIN_CANDIDATE_BYTES = 1 << 20


def _sample_characters(sample) -> int:
    """The characters of ``sample``'s turns, questions and answers (what its candidates are made of)."""
    text = sum(len(m.content) + len(m.turn_id or "") for s in sample.sessions for m in s.messages)
    return text + sum(len(qa.question) + len(qa.answer) for qa in sample.qa_pairs)


def _check_candidate_bytes(sample, candidates: Mapping[str, list[str]], qids: list[str]) -> None:
    """Refuse a sample whose ``candidates.*.tsv`` lines (every question × every document) would
    outgrow :data:`CANDIDATE_BYTES_PER_CHARACTER` × its text: a file of many tiny turns and questions
    would otherwise make gigabytes from a few hundred kilobytes."""
    docs = sum(len(d) + 2 for g in GRANULARITIES for d in candidates[g])  # tab and newline
    projected = sum(len(q) * sum(len(candidates[g]) for g in GRANULARITIES) for q in qids) + len(qids) * docs
    limit = max(CANDIDATE_BYTES_PER_CHARACTER * _sample_characters(sample), MIN_CANDIDATE_BYTES)
    if projected > limit:
        turns = len(candidates["turn"])
        raise ConfigurationError(
            f"cannot write TREC files: sample {shown(sample.sample_id)}: its candidates ({len(qids):,} questions × "
            f"{turns:,} turns) would take {projected:,} bytes, more than {CANDIDATE_BYTES_PER_CHARACTER} bytes per "
            f"character of its text ({limit:,}); the released benchmarks need at most 42"
        )


def write_qrels(samples: Iterable, out_dir: str | Path) -> QrelsSummary:
    """Write the qrels, query list, candidates, excluded and dangling lists of ``samples`` (one pass).

    Args:
        samples: Samples of one dataset (a list or a :class:`~himga.data.LazySamples`).
        out_dir: The output folder (created; the seven files of the module docstring are replaced).

    Returns:
        A :class:`QrelsSummary`.

    Raises:
        ConfigurationError: an id is empty, contains whitespace or a control character, or is longer than
            :data:`~himga.identifiers.MAX_QUALIFIED_ID_LENGTH` (258) characters, or a query id repeats.
        OSError: the folder is not writable (no file is then replaced).

    After a failure no file is replaced and the folders this call created are removed again.
    """
    out = Path(out_dir)
    made = [p for p in (out, *out.parents) if not p.exists()]  # removed again if nothing is written
    out.mkdir(parents=True, exist_ok=True)
    names = ["queries.tsv", "excluded.tsv", "dangling.tsv"]
    names += [f"{kind}.{g}.{ext}" for g in GRANULARITIES for kind, ext in (("qrels", "txt"), ("candidates", "tsv"))]
    summary = QrelsSummary(out, lines=dict.fromkeys(names, 0))
    handles: dict = {}  # opened inside the try, so a failed open leaves no temporary file behind
    seen: set[str] = set()

    def emit(name: str, *cols: str) -> None:
        handles[name].write(" ".join(cols) + "\n" if name.startswith("qrels") else "\t".join(cols) + "\n")
        summary.lines[name] += 1

    try:
        for n in names:
            handles[n] = open(out / f".{n}.tmp", "w", encoding="utf-8", newline="\n")
        for sample in samples:
            candidates = {
                g: [trec_id(_doc_id(sample, c, g), "document id") for c in sample.candidates(g)] for g in GRANULARITIES
            }
            _check_candidate_bytes(sample, candidates, [item_id(sample, qa) for qa in sample.qa_pairs])
            for qa in sample.qa_pairs:
                qid = trec_id(item_id(sample, qa), "query id")
                if qid in seen:
                    raise ConfigurationError(f"cannot write qrels: query id {qid!r} occurs twice")
                seen.add(qid)
                emit("queries.tsv", qid, " ".join(qa.question.split()))
                summary.queries += 1
                for g in GRANULARITIES:
                    for doc in candidates[g]:
                        emit(f"candidates.{g}.tsv", qid, doc)
                rel = sample.relevance(qa)
                for turn in rel.dangling:
                    summary.dangling.append((qid, _doc_id(sample, turn, "turn")))
                    emit("dangling.tsv", qid, _doc_id(sample, turn, "turn"))
                if not rel.evaluable:
                    summary.excluded.append((qid, rel.reason))
                    emit("excluded.tsv", qid, rel.reason)
                    continue
                summary.evaluable += 1
                for g in GRANULARITIES:
                    for doc, grade in _judged(sample, rel, g, candidates[g]):
                        emit(f"qrels.{g}.txt", qid, "0", trec_id(doc, "document id"), str(grade))
        for h in handles.values():
            h.close()
        for n in names:
            os.replace(out / f".{n}.tmp", out / n)
        made = []
    finally:
        for n, h in handles.items():
            h.close()
            (out / f".{n}.tmp").unlink(missing_ok=True)
        for folder in made:  # the folders this call made, innermost first: a failure leaves none behind
            with contextlib.suppress(OSError):
                folder.rmdir()
    return summary


def export_qrels(
    name: str,
    out_dir: str | Path,
    config: str | None = None,
    *,
    data_dir: str | Path | None = None,
    cache_dir: str | Path | None = None,
    **options: Any,
) -> QrelsSummary:
    """Build (or reuse) a dataset and :func:`write_qrels` of all its samples, one Sample at a time, and
    :data:`IDENTITY` (``identity.json``): :func:`himga.run.run_identity` of the build (``dataset``,
    ``config`` as resolved, ``options``, ``sources`` with their sha256, ``gold``, ``errata``,
    ``errata_sha256``), so that qrels of the published and the audited LoCoMo gold can be told apart.

    Args:
        name: a benchmark of the catalogue (``"locomo"``, ``"longmemeval"``, ``"beam"``, ...:
            :data:`himga.catalog.NAMES`).
        out_dir: The output folder.
        config: The builder config (LongMemEval ``s``, ``m``, ``oracle``, ...).
        data_dir: Source files (a folder or one file); default the pinned source.
        cache_dir: The ``datasets`` cache folder.
        **options: Builder options. ``gold="audited"`` (LoCoMo, with ``errata=``) labels the audited evidence;
            the others do not change the labels.

    Returns:
        The :class:`QrelsSummary`; ``out_dir`` also gets :data:`IDENTITY` (``identity.json``), naming what
        the labels come from: ``dataset``, ``config`` as resolved, ``options``, ``sources`` with their
        sha256, ``gold`` (``"published"`` or ``"audited"``), ``errata`` and ``errata_sha256``. TREC tools
        read only the files they are given, so a JSON file beside them changes nothing for ``trec_eval``,
        ``pytrec_eval`` or ``ir_measures``.

    Raises:
        ConfigurationError: ``out_dir`` is, holds or is inside a source file or folder, is a file, or cannot be
            written (:func:`himga.run.check_outputs`, before the build); and the errors of
            :func:`himga.data.build_dataset` and :func:`write_qrels`.
    """
    from himga.catalog import benchmark
    from himga.data.lazy import LazySamples
    from himga.data.loaders import build_dataset
    from himga.run import check_outputs, run_identity, source_inputs, write_text

    entry = benchmark(name)  # resolved once, handed down
    outputs, inputs = {"out_dir": out_dir}, {"errata": options.get("errata"), "source": data_dir}
    check_outputs(outputs, inputs, folders=outputs)  # before the build
    ds = build_dataset(entry, config, path=data_dir, cache_dir=cache_dir, **options)
    check_outputs(outputs, {**inputs, **source_inputs(entry, ds.info.config_name, data_dir)}, folders=outputs)
    summary = write_qrels(LazySamples(ds), out_dir)
    identity = run_identity(entry, ds.info.config_name, data_dir=data_dir, **options)
    del identity["ids"], identity["subset_fingerprint"]  # qrels cover every QA pair
    write_text(Path(out_dir) / IDENTITY, json.dumps(identity, indent=2, ensure_ascii=False) + "\n")
    return summary


#: The file :func:`export_qrels` writes beside the qrels: what they were made from (gold variant included).
IDENTITY = "identity.json"
