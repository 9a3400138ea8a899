"""PersonaMem: dynamic user profiling and personalized responses (Jiang et al., 2025), as HiMGA Sample rows.

A ``datasets.GeneratorBasedBuilder``. One row per shared context (its turns as messages, cut into sessions at the
persona's system turns; its questions as QA pairs, each at its position in the history), with the features of
:data:`himga.schema.features.SAMPLE_FEATURES`; one split, ``test``. Three configs, one per split of the release:
``32k`` (default), ``128k`` and ``1M``; each reads ``questions_<split>.csv`` and ``shared_contexts_<split>.jsonl``
(:mod:`himga_personamem.layout`). The record → row mapping lives in :mod:`himga_personamem.records`.

The questions file is read whole (1.3 MB for 32k), the contexts file one line (one context) at a time.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import datasets

from himga.cache import GuardedBuilder
from himga.errors import SourceFormatError, shown
from himga.jsonio.jsonlines import iter_records
from himga.sources import ContentDigest, RemoteFile, content_sha256, csv_rows, record_content, warn_if_modified
from himga_personamem import pins
from himga_personamem.layout import resolve_config, source_files
from himga_personamem.records import check_matched, context_row, question_rows

_CITATION = """\
@inproceedings{jiang2025personamem,
  title     = {Know Me, Respond to Me: Benchmarking {LLMs} for Dynamic User Profiling and Personalized Responses at
               Scale},
  author    = {Jiang, Bowen and Hao, Zhuoqun and Cho, Young-Min and Li, Bryan and Yuan, Yuan and Chen, Sihao and
               Ungar, Lyle and Taylor, Camillo J. and Roth, Dan},
  booktitle = {Conference on Language Modeling (COLM)},
  year      = {2025},
  url       = {https://arxiv.org/abs/2504.14225}
}
"""

_DESCRIPTION = """\
PersonaMem: 20 simulated users talk to a chatbot over many sessions while their preferences change; at chosen points
a user message arrives with four candidate replies, of which one fits everything the user said so far (seven question
types: recalling facts, the reasons behind updates, tracking a preference's evolution, suggesting ideas, aligned
recommendations, new scenarios). Splits by history length: 32k, 128k, 1M tokens. Normalized to the HiMGA schema: one
row per shared context, its turns as messages, its questions as QA pairs each at its position in the history, with
their four options.
"""

_HOMEPAGE = "https://github.com/bowen-upenn/PersonaMem"
_LICENSE = "unknown"  # none stated in the GitHub repository; the v1 Hub card could not be read here (see the card)

# Version history (bump whenever emitted rows change):
#   1.0.0  first release.
_VERSION = datasets.Version("1.0.0")


@dataclass
class PersonamemConfig(datasets.BuilderConfig):
    """One PersonaMem split (no options)."""

    @property
    def candidate_names(self) -> list[str]:
        """The split's two file names (what a file of this config is called)."""
        return [pins.questions_name(self.name), pins.contexts_name(self.name)]

    def remote_file(self) -> RemoteFile:
        """The split's pin, its two files as parts (:func:`himga_personamem.pins.pins`: the catalogue entry's pin)."""
        return pins.pins()[self.name]


_CONFIGS = [
    PersonamemConfig(
        name="32k",
        version=_VERSION,
        description="PersonaMem 32k: 589 questions over 37 shared contexts (~32k tokens each), 20 personas.",
    ),
    PersonamemConfig(
        name="128k",
        version=_VERSION,
        description="PersonaMem 128k: 2,727 questions over shared contexts of ~128k tokens (a local copy).",
    ),
    PersonamemConfig(
        name="1M",
        version=_VERSION,
        description="PersonaMem 1M: 2,674 questions over shared contexts of ~1M tokens (a local copy).",
    ),
]


def _split(files) -> tuple[Path, Path]:
    """The questions CSV and the contexts file among ``files``.

    Raises:
        SourceFormatError: not exactly one ``.csv`` and one other file.
    """
    paths = [Path(f) for f in files]
    csvs = [p for p in paths if p.suffix.lower() == ".csv"]
    others = [p for p in paths if p.suffix.lower() != ".csv"]
    if len(csvs) != 1 or len(others) != 1:
        raise SourceFormatError(
            ", ".join(shown(p.name) for p in paths) or "personamem",
            "$",
            "a PersonaMem split is two files: questions_<split>.csv and shared_contexts_<split>.jsonl",
        )
    return csvs[0], others[0]


class Personamem(GuardedBuilder):  # a GeneratorBasedBuilder whose cache is checked on open
    """PersonaMem as HiMGA Sample rows (one row per shared context, split ``test``)."""

    BUILDER_CONFIG_CLASS = PersonamemConfig
    files_rule = staticmethod(source_files)
    config_rule = staticmethod(resolve_config)  # the split a file or folder name says (himga_personamem/layout.py)
    BUILDER_CONFIGS = _CONFIGS
    DEFAULT_CONFIG_NAME = "32k"
    DEFAULT_WRITER_BATCH_SIZE = 10

    def _generate_examples(self, files):
        questions_file, contexts_file = _split(files)
        pinned = [self.config.remote_file()]
        digest = hashlib.sha256()
        rows = csv_rows(questions_file, digest=digest)
        questions = question_rows(rows, questions_file.name)
        warn_if_modified(questions_file, digest.hexdigest(), pinned, content=(content := content_sha256(rows)))
        record_content(questions_file, content)
        del rows
        digest, content = hashlib.sha256(), ContentDigest()
        seen: dict[str, str] = {}
        for where, record in iter_records(contexts_file, digest=digest, content=content):
            row = context_row(
                record, questions, file=contexts_file.name, where=where, questions_file=questions_file.name
            )
            if (first := seen.setdefault(row["sample_id"], where)) != where:
                raise SourceFormatError(contexts_file.name, where, f"context {row['sample_id']!r} is also on {first}")
            yield row["sample_id"], row
        warn_if_modified(contexts_file, digest.hexdigest(), pinned, content=content.hexdigest())
        record_content(contexts_file, content.hexdigest())
        check_matched(questions, questions_file.name, contexts_file.name)
