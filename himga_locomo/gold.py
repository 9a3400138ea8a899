"""LoCoMo's gold variants: the published answers, or the answers an audit corrected.

The one description of the variants (:data:`GOLD_VARIANTS`, the errata pin :data:`ERRATA_PIN`), the
errata reader (:func:`read_errata`) and the rule that applies an erratum to a QA row
(:func:`apply_errata`). The builder's ``gold`` option selects a variant; ``errata=PATH`` replaces the
pinned errata file with a user's own file of the same shape.

An errata file is a JSON array of objects (dial481/locomo-audit ``errors.json``):
``question_id`` (``locomo_<conversation index>_qa<0-based QA index>``, the conversation index counting
the records of the source in order, from 0), ``question`` (must equal the QA pair's), ``category``
(must equal the QA pair's, 1-4), ``error_type``, ``golden_answer``, ``correct_answer``,
``cited_evidence``, ``correct_evidence`` (lists of turn ids), ``reasoning``.

Under ``gold="audited"`` a QA pair named by an entry gets ``answer`` = ``correct_answer`` (category 3 cut
at its first ``;`` under ``category3_answer="scorer"``, the scorer's rule for every category-3 gold) and
``evidence.turn_ids`` = ``correct_evidence`` normalized like the source evidence; its ``raw`` keeps the
published QA untouched plus one key, :data:`AUDIT_KEY`: ``{"errata_id", "changed", "error_type",
"reasoning", "answer", "evidence"}`` (the last two: the entry's corrections as in the errata file, which the
scorer reads, as it reads the published record), ``changed`` listing ``"answer"`` and/or ``"evidence"`` where the
entry's correction differs from the published value (answer compared as a string, evidence as the source list). Each
sample row's ``raw`` gets ``gold``: ``{"variant", "errata", "errata_sha256"}``.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from himga.errors import ConfigurationError, SourceFormatError, type_name, value_shown
from himga.jsonio.rawcell import raw_dict, raw_text
from himga.jsonio.reader import load_json
from himga.sources import RemoteFile, get_dataset, path_kind, sha256_of, warn_if_modified
from himga_locomo.records import AUDIT_KEY, cut_category3, normalize_evidence

__all__ = [
    "AUDIT_KEY",
    "ERRATA_PIN",
    "GOLD_VARIANTS",
    "Errata",
    "Erratum",
    "GoldVariant",
    "apply_errata",
    "card_note",
    "errata_path",
    "errata_sha256",
    "key_errata",
    "read_errata",
    "unused_entries",
]

#: Gold variant → what it is. ``published`` is the default and gives the rows of builder 2.0.0 unchanged.
#: The values of the config option ``gold`` (the keys of :data:`GOLD_VARIANTS`, in order).
GoldVariant = Literal["published", "audited"]

GOLD_VARIANTS: dict[str, str] = {
    "published": "the answers and evidence of locomo10.json as published (snap-research/locomo@3eb6f2c)",
    "audited": (
        "answers and evidence corrected by the errata of dial481/locomo-audit (errors.json@9493fb4: 156 QA pairs "
        "of categories 1-4), or by a user's errata file of the same shape (errata=PATH)"
    ),
}

#: dial481/locomo-audit ``errors.json``, pinned to a commit.
# Confirmed 2026-12-01 in a clone of github.com/dial481/locomo-audit at 9493fb4 ("feat: add statistical validity
# analysis, expand Category 5 evaluation gap", 2026-04-02, the main branch's head): `git cat-file -s
# 9493fb4:errors.json` = 150552, the blob's sha256 = f298ef46...e55e; LICENSE at 9493fb4 is CC BY-NC 4.0 (the
# README says: "the same license as the underlying LoCoMo dataset"). Its data/locomo10.json is the pinned LoCoMo
# file (sha256 79fa87e9...8ff4), the file its question ids index.
#: The folder the errata file is found in, under ``$HIMGA_DATASETS_ROOT`` and ``$HIMGA_CACHE`` (the entry's
#: ``auxiliary``).
ERRATA_FOLDER = "locomo-audit"
ERRATA_PIN = RemoteFile(
    "errors.json",
    "https://raw.githubusercontent.com/dial481/locomo-audit/9493fb4b4af4256ed17a18e8fd0b3cfdeec29539/errors.json",
    "f298ef46263fada20688a1d672be37d4f488c6da3b19343eea55ae5c1b5fe55e",
    revision="9493fb4b4af4256ed17a18e8fd0b3cfdeec29539",
    size=150_552,
    path="errors.json",
    repo="dial481/locomo-audit",
    licence="cc-by-nc-4.0",
    evidence="revision, size and sha256 confirmed 2026-12-01 in a clone of github.com/dial481/locomo-audit",
)

_ID = re.compile(r"locomo_(0|[1-9][0-9]*)_qa(0|[1-9][0-9]*)")
_TEXT_FIELDS = ("question_id", "question", "error_type", "correct_answer", "reasoning")


@dataclass(frozen=True)
class Erratum:
    """One entry of an errata file.

    Attributes:
        path: Its JSON path in the errata file (``"$[12]"``).
        errata_id: Its ``question_id`` (``"locomo_0_qa1"``).
        conversation: The conversation index (0-based, records of the source in order).
        qa: The QA index within the conversation (0-based).
        question: The question text it names.
        category: The QA pair's category (1-4).
        error_type: The auditor's error type (``"WRONG_CITATION"``, ``"HALLUCINATION"``, ...).
        answer: The corrected answer (``correct_answer``).
        evidence: The corrected evidence (``correct_evidence``), as in the file.
        reasoning: The auditor's reasoning.
    """

    path: str
    errata_id: str
    conversation: int
    qa: int
    question: str
    category: int
    error_type: str
    answer: str
    evidence: tuple[str, ...]
    reasoning: str


@dataclass(frozen=True)
class Errata:
    """A parsed errata file: its name, its sha256 and its entries by ``(conversation, qa)``."""

    file: str
    sha256: str
    entries: dict[tuple[int, int], Erratum]

    def for_conversation(self, index: int) -> dict[int, Erratum]:
        """QA index → entry, for conversation ``index``."""
        return {qa: e for (conv, qa), e in self.entries.items() if conv == index}


def errata_path(errata: str | Path | None) -> Path:
    """The errata file to read: ``errata`` itself, else the pinned file.

    The pinned file is found under ``$HIMGA_DATASETS_ROOT/locomo-audit/`` when that variable is set, else
    downloaded once into ``$HIMGA_CACHE/locomo-audit/`` and verified against its sha256.

    Raises:
        ConfigurationError: ``errata`` does not exist or is no file (a directory, ``/dev/null``);
            ``$HIMGA_DATASETS_ROOT`` is set without a
            ``locomo-audit/`` folder, or that folder has no ``errors.json``.
        DownloadError, ChecksumError: the pinned file cannot be fetched or verified.
    """
    if errata is not None:
        if str(errata) == "":  # Path("") is the working directory
            raise ConfigurationError(
                "locomo: the errata path is empty: give a file (leave it out for the pinned errata)"
            )
        path = Path(errata).expanduser().resolve()
        if not path.is_file():
            kind = path_kind(path)
            what = {"a folder": "is a directory, expected a file", "missing": "does not exist"}.get(
                kind, f"is {kind}, expected a file"
            )
            raise ConfigurationError(f"locomo: errata file {str(errata)!r} {what}")
        return path
    path = get_dataset(ERRATA_FOLDER, files=[ERRATA_PIN]) / ERRATA_PIN.filename
    if not path.is_file():
        raise ConfigurationError(
            f"locomo: {path} does not exist; put dial481/locomo-audit's errors.json there ({ERRATA_PIN.url})"
        )
    return path


def errata_sha256(errata: str | Path | None) -> tuple[str, str]:
    """``(absolute path, sha256)`` of the errata file :func:`errata_path` picks (what the cache key records)."""
    path = errata_path(errata)
    return str(path), sha256_of(path)


def key_errata(kwargs: dict) -> dict:
    """A builder's keyword arguments with, under ``gold="audited"``, the errata file resolved and its sha256 added:
    ``datasets`` derives the config id from them, so an edited errata file never serves rows built from the old one
    (LoCoMo's builder and LoCoMo-Plus's call it before ``datasets`` sees them)."""
    if kwargs.get("gold") == "audited":
        kwargs["errata"], kwargs["errata_sha256"] = errata_sha256(kwargs.get("errata"))
    return kwargs


def _text(entry: dict, key: str, file: str, path: str) -> str:
    if key not in entry:
        raise SourceFormatError(file, path, f"missing required key {key!r}")
    if not isinstance(entry[key], str):
        raise SourceFormatError(file, f"{path}.{key}", f"expected string, got {type_name(entry[key])}")
    return entry[key]


def _erratum(entry: Any, file: str, path: str) -> Erratum:
    if not isinstance(entry, dict):
        raise SourceFormatError(file, path, f"expected an errata object, got {type_name(entry)}")
    fields = {key: _text(entry, key, file, path) for key in _TEXT_FIELDS}
    m = _ID.fullmatch(fields["question_id"])
    if m is None:
        raise SourceFormatError(
            file, f"{path}.question_id", f"expected locomo_<conversation>_qa<index>, got {fields['question_id']!r}"
        )
    category = entry.get("category")
    if isinstance(category, bool) or not isinstance(category, int) or not 1 <= category <= 4:
        raise SourceFormatError(
            file, f"{path}.category", f"expected 1-4 (category 5's gold is the abstention), got {value_shown(category)}"
        )
    if "correct_evidence" not in entry:
        raise SourceFormatError(file, path, "missing required key 'correct_evidence'")
    evidence = entry["correct_evidence"]
    if not isinstance(evidence, list) or not all(isinstance(e, str) for e in evidence):
        raise SourceFormatError(
            file, f"{path}.correct_evidence", f"expected an array of strings, got {type_name(evidence)}"
        )
    return Erratum(
        path,
        fields["question_id"],
        int(m[1]),
        int(m[2]),
        fields["question"],
        category,
        fields["error_type"],
        fields["correct_answer"],
        tuple(evidence),
        fields["reasoning"],
    )


def read_errata(path: str | Path) -> Errata:
    """Parse an errata file (one read: the parse and the sha256 share it).

    Args:
        path: The file (a JSON array of entries, see the module docstring).

    Returns:
        The :class:`Errata`.

    Raises:
        SourceFormatError: not JSON, not an array, an entry without a required key or with a wrong
            type, a malformed ``question_id``, a category outside 1-4, or two entries for one QA pair;
            the message names the file and the entry (``errors.json: $[3].category: expected 1-4, got 5``).
    """
    path = Path(path)
    digest = hashlib.sha256()
    data = load_json(path, digest=digest)
    warn_if_modified(path, digest.hexdigest(), [ERRATA_PIN])
    if not isinstance(data, list):
        raise SourceFormatError(path.name, "$", f"expected an array of errata objects, got {type_name(data)}")
    entries: dict[tuple[int, int], Erratum] = {}
    for i, item in enumerate(data):
        erratum = _erratum(item, path.name, f"$[{i}]")
        key = (erratum.conversation, erratum.qa)
        if key in entries:
            raise SourceFormatError(
                path.name, f"$[{i}].question_id", f"{erratum.errata_id} is also named at {entries[key].path}"
            )
        entries[key] = erratum
    return Errata(path.name, digest.hexdigest(), entries)


def apply_errata(
    row: dict[str, Any],
    record: dict,
    entries: dict[int, Erratum],
    errata: Errata,
    *,
    file: str,
    path: str,
    options: dict[str, str],
) -> None:
    """Replace, in place, the gold of the QA pairs of one sample row that errata entries name.

    Args:
        row: The row :func:`himga_locomo.records.record_to_row` built from ``record``.
        record: The source record (its ``qa`` list holds the published QA pairs).
        entries: QA index → entry, for this conversation (:meth:`Errata.for_conversation`).
        errata: The errata file (its name and sha256 go into the row's ``raw["gold"]``).
        file: The source file's name, for errors.
        path: The record's JSON path in ``file`` (``"$[3]"``).
        options: The builder options (``category3_answer``).

    Raises:
        SourceFormatError: an entry names a QA pair that does not exist, whose question or category
            differs from the entry's, or whose source already has the key :data:`AUDIT_KEY`; the message
            names the errata file, the entry and the source QA pair.
    """
    qa_pairs = row["qa_pairs"]
    for index, erratum in sorted(entries.items()):
        where = f"{erratum.errata_id} ({file} {path}.qa[{index}])"
        if index >= len(qa_pairs):
            raise SourceFormatError(
                errata.file, erratum.path, f"{where}: no such QA pair ({len(qa_pairs)} in the sample)"
            )
        source = record["qa"][index]
        if source["question"] != erratum.question:
            raise SourceFormatError(
                errata.file,
                f"{erratum.path}.question",
                f"{where}: expected the QA pair's question {source['question']!r}, got {erratum.question!r}",
            )
        if source["category"] != erratum.category:
            raise SourceFormatError(
                errata.file,
                f"{erratum.path}.category",
                f"{where}: expected the QA pair's category {source['category']}, got {erratum.category}",
            )
        if AUDIT_KEY in source:
            raise SourceFormatError(
                file, f"{path}.qa[{index}].{AUDIT_KEY}", f"the key {AUDIT_KEY!r} is reserved for gold='audited'"
            )
        changed = []
        if erratum.answer != str(source.get("answer")):
            changed.append("answer")
        if list(erratum.evidence) != source.get("evidence", []):
            changed.append("evidence")
        qa = qa_pairs[index]
        qa["answer"] = cut_category3(erratum.answer, erratum.category, options)
        qa["evidence"] = {**qa["evidence"], "turn_ids": normalize_evidence(list(erratum.evidence))}
        audit = {
            "errata_id": erratum.errata_id,
            "changed": changed,
            "error_type": erratum.error_type,
            "reasoning": erratum.reasoning,
            "answer": erratum.answer,
            "evidence": list(erratum.evidence),
        }
        qa["raw"] = raw_text({**raw_dict(qa["raw"]), AUDIT_KEY: audit})
    gold = {"variant": "audited", "errata": errata.file, "errata_sha256": errata.sha256}
    row["raw"] = raw_text({**raw_dict(row["raw"]), "gold": gold})


def unused_entries(errata: Errata, conversations: int) -> list[Erratum]:
    """The entries naming a conversation index at or beyond ``conversations`` (the source has fewer)."""
    return [e for (conv, _qa), e in sorted(errata.entries.items()) if conv >= conversations]


def card_note(variants: tuple[str, ...] = ("published",)) -> str:
    """The dataset card's paragraph on the gold: which variants the rows carry, and the errata's pin."""
    pin = ERRATA_PIN
    if len(variants) == 1:
        carried = f"These rows carry the `{variants[0]}` gold: {GOLD_VARIANTS[variants[0]]}."
    else:
        carried = (
            "The configs carry the gold variants listed under Gold: "
            + "; ".join(f"`{v}`, {GOLD_VARIANTS[v]}" for v in variants)
            + "."
        )
    return (
        f"**Gold variant.** {carried} The builder option "
        f'`gold="audited"` replaces the answers and evidence that the errata of `{pin.repo}@{pin.revision[:7]}` '
        f"(`{pin.filename}`, {pin.size:,} bytes, sha256 `{pin.sha256}`, {pin.licence}) correct: 156 QA pairs, "
        "120 answers and 97 evidence lists; `qa_pairs[].raw` keeps the published QA and gets `gold_audit` "
        "(`errata_id`, `changed`, `error_type`, `reasoning`, and the corrected `answer` and `evidence`), and "
        "`raw.gold` names the variant and the errata's sha256."
    )
