"""``himga validate``: data-quality findings of a benchmark's raw source, without changing anything.

The source is read by the dataset's own builder code (``_split_generators`` to find the files,
``_generate_examples`` to parse them, in a throw-away cache folder, so nothing is written to the real
cache and nothing is modified); each row becomes a :class:`~himga.data.Sample` through the
``SAMPLE_FEATURES`` encode/decode round trip and :func:`~himga.schema.convert.row_to_sample`. Rules
that only need the Sample fields live here (:func:`generic_findings`); rules that read what the
source format keeps in ``raw`` live beside each builder (the catalogue entry's ``validate_rules``:
``himga_locomo.validate_rules``, ``himga_longmemeval.validate_rules``), so the raw format is interpreted only in the
builder packages.

Example:
    >>> report = validate("locomo", data_dir="../shared/data/locomo")  # doctest: +SKIP
    >>> report.counts["malformed_evidence"]  # doctest: +SKIP
    6
"""

from __future__ import annotations

import json
import tempfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from himga.catalog import Benchmark, benchmark
from himga.errors import shown
from himga.finding import Finding
from himga.schema.convert import row_to_sample
from himga.schema.features import SAMPLE_FEATURES
from himga.schema.sample import Sample

__all__ = ["GENERIC_KINDS", "Finding", "Report", "format_report", "generic_findings", "iter_source_samples", "validate"]

#: Findings computed from Sample fields alone, for every dataset (``third_speaker`` only where a sample names its two
#: speakers: LoCoMo and its family; a LongMemEval or BEAM report does not list it).
GENERIC_KINDS = {
    "dangling_evidence": "evidence turn ids that point at no turn (after normalization)",
    "duplicate_question": "question texts asked more than once within a sample",
    "duplicate_turn_id": "turn ids used by more than one message within a sample",
    "third_speaker": "speakers who are neither speaker_a nor speaker_b",
}


@dataclass
class Report:
    """The findings of one source.

    Attributes:
        dataset: a benchmark of the catalogue (``"locomo"``, ``"longmemeval"``, ``"beam"``, ...:
            :data:`himga.catalog.NAMES`).
        config: The builder config the source was read as (the default's name when none was given, or the config
            a file's name says), as ``himga stats`` names it.
        files: The source file names read.
        samples: How many samples were checked.
        kinds: Every kind checked (kind → title), in display order.
        findings: All findings, in source order within each kind.
        provenance: One line per source file: byte-identical to a pinned file or not
            (:func:`himga.sources._provenance.provenance`).
        errors: The kinds that fail the check (the rules' ``ERRORS``: BEAM's ``probe_marker``); any other kind
            is a report on the gold, the data unchanged.
    """

    dataset: str
    config: str | None
    files: list[str]
    samples: int
    kinds: dict[str, str]
    findings: list[Finding] = field(default_factory=list)
    provenance: list[str] = field(default_factory=list)
    errors: tuple[str, ...] = ()

    @property
    def failed(self) -> bool:
        """Whether a finding is of an error kind (``himga validate`` then exits with status 1)."""
        return any(f.kind in self.errors for f in self.findings)

    @property
    def counts(self) -> dict[str, int]:
        """Kind → number of findings, for every kind checked (zeros included)."""
        found = Counter(f.kind for f in self.findings)
        return {kind: found[kind] for kind in self.kinds}

    def to_json(self) -> dict[str, Any]:
        """The report as a JSON-ready dict: dataset, config, files, samples, counts, findings."""
        return {
            "dataset": self.dataset,
            "config": self.config,
            "files": self.files,
            "provenance": self.provenance,
            "samples": self.samples,
            "counts": self.counts,
            "kinds": self.kinds,
            "errors": list(self.errors),
            "failed": self.failed,
            "findings": [asdict(f) for f in self.findings],
        }


def iter_source_samples(
    entry: Benchmark, config: str | None = None, *, data_dir: str | Path | None = None
) -> tuple[list[Path], Iterator[Sample]]:
    """Parse a source with the builder's own code, without writing a cache.

    Args:
        entry: The benchmark.
        config: The builder config.
        data_dir: A folder or one file; default: the pinned source (see :func:`himga.sources.get_dataset`).

    Returns:
        ``(files, samples)``; the samples are produced lazily, one at a time, in source order.

    Raises:
        SourceFormatError: malformed input (the same errors as a build).
        ConfigurationError, DownloadError, ChecksumError, SourceUnreadableError: as for a build.
    """
    return _read(_builder(entry, config, data_dir))


def _read(builder) -> tuple[list[Path], Iterator[Sample]]:
    """``(files, samples)`` of :func:`iter_source_samples`, from the builder."""
    files = builder.source_files()

    def samples() -> Iterator[Sample]:
        for _key, row in builder.generate_examples(files):
            yield row_to_sample(SAMPLE_FEATURES.decode_example(SAMPLE_FEATURES.encode_example(row)))

    return files, samples()


def _builder(entry: Benchmark, config: str | None, data_dir: str | Path | None):
    """The builder of ``entry`` for ``data_dir``, with a cache folder that is removed at once (nothing is written)."""
    from himga.cache import path_builder

    with tempfile.TemporaryDirectory(prefix="himga-validate-") as scratch:
        return path_builder(benchmark(entry), config, data_dir, cache_dir=scratch)


def generic_findings(sample: Sample) -> Iterator[Finding]:
    """Findings of :data:`GENERIC_KINDS` in one Sample.

    ``dangling_evidence``: each ``qa.evidence.turn_ids`` entry that is no message's ``turn_id``;
    ``duplicate_question``: each question text that more than one QA pair of the sample asks
    (one finding per text, listing the QA ids); ``duplicate_turn_id``: each turn id carried by more
    than one message (evidence pointing at it is ambiguous); ``third_speaker``: in a sample naming its two
    speakers (LoCoMo), each other name a message has, with how many messages (LoCoMo's scorers and the system view
    know two speakers).
    """
    turn_ids = {m.turn_id for s in sample.sessions for m in s.messages}
    for qa in sample.qa_pairs:
        for turn_id in qa.evidence.turn_ids:
            if turn_id not in turn_ids:
                yield Finding("dangling_evidence", sample.sample_id, f"QA {qa.question_id}", turn_id)
    by_text: dict[str, list[str]] = {}
    for qa in sample.qa_pairs:
        by_text.setdefault(qa.question, []).append(qa.question_id)
    for text, ids in by_text.items():
        if len(ids) > 1:
            yield Finding("duplicate_question", sample.sample_id, f"QA {', '.join(ids)}", repr(text))
    turns = Counter(m.turn_id for s in sample.sessions for m in s.messages if m.turn_id is not None)
    for turn_id, n in turns.items():
        if n > 1:
            yield Finding("duplicate_turn_id", sample.sample_id, "", f"{turn_id} on {n} messages")
    speakers = (sample.speaker_a, sample.speaker_b)
    if None not in speakers:
        others = Counter(m.role for s in sample.sessions for m in s.messages if m.role not in speakers)
        for name, n in others.items():
            yield Finding(
                "third_speaker",
                sample.sample_id,
                "",
                f"{name!r} on {n} messages (speakers {speakers[0]!r} and {speakers[1]!r})",
            )


def validate(name: str, config: str | None = None, *, data_dir: str | Path | None = None) -> Report:
    """Check a benchmark source and return its findings.

    Args:
        name: a benchmark of the catalogue (``"locomo"``, ``"longmemeval"``, ``"beam"``, ...:
            :data:`himga.catalog.NAMES`).
        config: The builder config (LongMemEval: ``s``, ``m``, ``oracle``, ...).
        data_dir: A folder or one file; default: the pinned source.

    Returns:
        The :class:`Report`. On ``locomo10.json``: 6 malformed evidence strings, 1 evidence string
        with no turn id, 8 evidence lists changed by normalization, 4 empty evidence lists,
        2 dangling ids, 12 duplicated question texts, 16 dates without sessions.

    Raises:
        SourceFormatError: the source cannot be parsed at all (validate reports data quality of
            well-formed files; malformed ones get the build's error).
        ConfigurationError: unknown dataset or config.
    """
    entry = benchmark(name)  # unknown names → ConfigurationError
    rules = entry.validate_rules
    builder = _builder(entry, config, data_dir)
    config = builder.config.name  # as resolved, as himga stats names it
    files, samples = _read(builder)
    kinds = {**rules.KINDS, **GENERIC_KINDS}
    found: list[Finding] = []
    count = named = 0
    for sample in samples:
        count += 1
        named += None not in (sample.speaker_a, sample.speaker_b)
        found.extend(rules.findings(sample))
        found.extend(generic_findings(sample))
    if not named:  # user and assistant turns: no speaker can be a third one
        del kinds["third_speaker"]
    order = {kind: i for i, kind in enumerate(kinds)}
    found.sort(key=lambda f: order[f.kind])  # stable: source order within a kind
    from himga.sources import provenance_lines

    lines = provenance_lines(entry, files)  # the parse above recorded each file's sha256: no second read
    from himga.sources import file_label

    pins = entry.pins().values()
    return Report(
        entry.name,
        config,
        [file_label(f, pins) for f in files],
        count,
        kinds,
        found,
        lines,
        tuple(getattr(rules, "ERRORS", ())),
    )


def format_report(report: Report, *, limit: int = 20) -> str:
    """A readable table of counts, then up to ``limit`` findings of each kind.

    Args:
        report: From :func:`validate`.
        limit: Findings listed per kind (the JSON output has them all).

    Returns:
        The text, lines joined by ``\\n``.
    """
    single = report.config is None or len(benchmark(report.dataset).configs) == 1
    title = report.dataset if single else f"{report.dataset} ({report.config})"
    named = ", ".join(shown(f) for f in report.files) if len(report.files) <= 3 else f"{len(report.files)} files"
    lines = [f"himga validate {title}: {named} ({report.samples:,} samples)"]
    lines += [f"  source: {shown(line)}" for line in report.provenance] + [""]
    width = max(len(t) for t in report.kinds.values())
    lines.append(f"  {'finding':<{width}}  {'count':>6}")
    counts = report.counts
    for kind, text in report.kinds.items():
        lines.append(f"  {text:<{width}}  {counts[kind]:>6,}" + ("  (an error)" if kind in report.errors else ""))
    for kind, text in report.kinds.items():
        items = [f for f in report.findings if f.kind == kind]
        if not items:
            continue
        lines += ["", f"{text} ({len(items):,}):"]
        rows = [
            (shown(f.sample_id), shown(f.where), shown(f.detail)) for f in items[:limit]
        ]  # ids as repr if not printable
        sid_w = max(len(sid) for sid, _, _ in rows)
        where_w = max(len(where) for _, where, _ in rows)
        lines += [
            f"  {sid:<{sid_w}}  {f'{where:<{where_w}}  ' if where_w else ''}{detail}".rstrip()
            for sid, where, detail in rows
        ]
        if len(items) > limit:
            lines.append(f"  ... and {len(items) - limit:,} more (use --json FILE for all)")
    if report.failed:
        kinds = ", ".join(report.kinds[k] for k in report.errors if counts[k])
        lines += ["", f"FAILED: {kinds}: the source must not be given to a memory system as it is"]
    return "\n".join(lines)


def write_json(report: Report, file: str | Path) -> None:
    """Write :meth:`Report.to_json` to ``file`` (``"-"``: standard output), UTF-8, indented."""
    text = json.dumps(report.to_json(), indent=2, ensure_ascii=False)
    if str(file) == "-":
        print(text)
    else:
        Path(file).write_text(text + "\n", encoding="utf-8")
