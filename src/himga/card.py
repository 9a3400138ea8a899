"""The dataset card (``README.md``) of an exported dataset: YAML front matter and a Markdown body.

Everything on the card is derived, never written twice: the front matter's ``configs`` and
``dataset_info`` come from ``datasets``' own helpers (``MetadataConfigs``, ``DatasetInfosDict``, the same
ones ``Dataset.push_to_hub`` uses) fed with :data:`~himga.data.features.SAMPLE_FEATURES` and the split
sizes of the export; the source table from the files the export was built from (name, size, sha256,
compared with the builder's pins by :mod:`himga.export_sources`), or, on a card of no export, from the
pins themselves (the builder configs' ``remote_file()``); the field reference from the ``Attributes:`` sections of the dataclass docstrings in
:mod:`himga.data.schema`; description, license and citation from the builder module. Only the data
notes below are prose of this module. The card holds no paths and no timestamps, so the same export
gives the same bytes (a test keeps the committed ``himga_locomo/README.md`` and
``himga_longmemeval/README.md`` equal to the generator's output).
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import re
import typing
from dataclasses import dataclass

import datasets
from datasets.info import DatasetInfo, DatasetInfosDict
from datasets.utils.metadata import MetadataConfigs
from huggingface_hub import DatasetCardData

from himga.data.builders import BUILDER_MODULES, builder_class
from himga.data.features import SAMPLE_FEATURES
from himga.data.schema import QuestionType, Sample
from himga.export_sources import SourceFile, matching_pins, pinned_file

__all__ = ["SplitSize", "card_title", "data_files_pattern", "field_reference", "pin_note", "render_card"]

SPLIT = "test"

#: Per dataset: the card's title and the ``load_dataset`` name registered by :mod:`himga.registry`.
_TITLES = {"locomo": ("LoCoMo (HiMGA-normalized)", "himga_locomo"), "longmemeval": ("LongMemEval (HiMGA-normalized)", "himga_longmemeval")}

#: Rows per config of the full releases, for ``size_categories`` when an export's sizes are not known.
_PUBLISHED_ROWS = {"locomo": 10, "longmemeval": 500}

_NOTES = {
    "locomo": """\
**Category mapping.** `category` 1 = multi-hop, 2 = temporal, 3 = open-domain, 4 = single-hop,
5 = adversarial: the order of the LoCoMo authors' evaluation code (`task_eval/evaluation_stats.py`),
which the data agrees with (category-2 questions ask "when"; category 4, the largest group with 841
questions, is answered by a single turn). Counts: single_hop 841, adversarial 446, temporal 321,
multi_hop 282, open_domain 96. The HiMGA seed docs' order (1 single-hop, 3 multi-hop, 4 open-domain) is
the builder option `category_order="seed"`; `qa_pairs[].raw.category` always keeps the original number.

**Category-5 gold.** `adversarial_answer` is a *trap*: an event of the *other* speaker, asked about as
if it were this speaker's. The correct response is to abstain, so `answer` is
`"Not mentioned in the conversation"` (the abstention LoCoMo's own scorer accepts). The builder option
`adversarial_answer="seed"` uses `adversarial_answer` (else `answer`, else `""`) instead; the source QA
dict, `adversarial_answer` included, stays in `qa_pairs[].raw`.

**Category-3 gold.** `answer` is the text before the first `;`, stripped, as LoCoMo's scorer cuts it
(`task_eval/evaluation.py`); the rest is the annotator's rationale (11 of the 96 answers, e.g.
`"Yes; it's classical music"` → `"Yes"`). The builder option `category3_answer="full"` keeps the whole
string; `qa_pairs[].raw.answer` always does. Other categories are never cut.

**Summaries.** `raw.event_summary`, `raw.observation` and `raw.session_summary` are the source's
per-session dicts keyed by session id (`sessions[].session_id`): `events_session_1`,
`session_1_observation` and `session_1_summary` become key `"1"`, values unchanged (`event_summary`
keeps its `date`).

**Evidence.** `evidence.turn_ids` is normalized from the source `evidence`: split on `;`, `,` and
whitespace (`"D8:6; D9:17"` → `["D8:6", "D9:17"]`), `D:11:26` → `D11:26`, leading zeros dropped
(`D30:05` → `D30:5`), tokens that are not turn ids (`D`) dropped, duplicates removed in order. 8 of the
1,986 lists change; `qa_pairs[].raw.evidence` keeps the original.

**Abstention.** Category 5 (`question_type` `adversarial`, 446 questions) is the abstention category.

**Session order.** `sessions` are the `session_N` keys with at least one turn, ordered by the integer N
(272 sessions, 5,882 turns). A date key without turns (conv-26 has 16) is not a session; it stays in
`raw.conversation_extra`. Image turns carry their caption inline, `"[Image: <blip_caption>] <text>"`
(1,226 turns); `img_url`, `blip_caption`, `query` and `re-download` stay in `sessions[].messages[].raw`.
Answers are always strings (`2022` → `"2022"`). Every source record can be rebuilt from its row.
""",
    "longmemeval": """\
**Question types.** `question_type` is the source's type with `-` replaced by `_`:
`single-session-user` → `single_session_user`, likewise `single_session_assistant`,
`single_session_preference`, `multi_session`, `temporal_reasoning`, `knowledge_update` (both spellings
are accepted). An unknown type falls back to `single_session_user` with a logged warning; the original
string stays in `qa_pairs[].raw.question_type`. Cleaned S: multi_session 133, temporal_reasoning 133,
knowledge_update 78, single_session_user 70, single_session_assistant 56, single_session_preference 30.

**Gold answers.** Every row has exactly one QA pair; `answer` is always a string (integer answers
become `"2"`). There is no LoCoMo-style category-5 trap answer in LongMemEval.

**Evidence.** `evidence.session_ids` = `answer_session_ids`; `evidence.turn_ids` is empty. Turns of
evidence sessions carry `has_answer` in `sessions[].messages[].raw` (every oracle turn has it; in S/M only
the turns of answer sessions do).

**Abstention.** Abstention questions are marked only by a `question_id` ending in `_abs` (30 in S); they
keep their ordinary `question_type`, and their `answer` explains why the question cannot be answered.

**Session order.** `sessions[i]` = (`haystack_session_ids[i]`, `haystack_sessions[i]`,
`haystack_dates[i]`) in **file order**, as the official harness iterates them; haystack dates are not
always chronological and some are after `raw.question_date`. Duplicate session ids inside one haystack
(13 S haystacks) and blank turns are kept as they are. `himga_longmemeval.records.chronological(sample)`
gives a date-ordered view. `qa_pairs[].raw` is the question dict without `haystack_sessions` (their text
lives in `sessions`), so every question dict can be rebuilt from its row.
""",
}


@dataclass(frozen=True)
class SplitSize:
    """The size of one config's ``test`` split, as recorded in ``dataset_info``.

    Attributes:
        num_examples: Rows.
        num_bytes: Bytes of the rows in Arrow format (``datasets``' ``SplitInfo.num_bytes``).
    """

    num_examples: int
    num_bytes: int


def card_title(name: str) -> str:
    """The card's ``pretty_name`` for dataset ``name``, e.g. ``"LoCoMo (HiMGA-normalized)"``."""
    return _TITLES[name][0]


def data_files_pattern(config: str) -> str:
    """The Parquet files of ``config``'s test split, relative to the export folder."""
    return f"data/{config}/{SPLIT}-*.parquet"


def _size_category(rows: int) -> str:
    bounds = [(1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")]
    return next((label for bound, label in bounds if rows < bound), "1M<n<10M")


# --- field reference, from the dataclass docstrings -------------------------------------------------

_ROLE = re.compile(r":[a-z]+:`~?([^`]+)`")


def _markdown(text: str) -> str:
    text = _ROLE.sub(lambda m: f"`{m.group(1).rsplit('.', 1)[-1]}`", text)
    return text.replace("``", "`").replace("|", "\\|")


def _attribute_docs(cls: type) -> dict[str, str]:
    """``{field: description}`` from the ``Attributes:`` section of a Google-style class docstring."""
    docs: dict[str, str] = {}
    lines = inspect.getdoc(cls).splitlines()
    start = lines.index("Attributes:") + 1
    name = None
    for line in lines[start:]:
        if line and not line.startswith(" "):
            break
        if m := re.match(r"    (\w+): (.*)", line):
            name = m.group(1)
            docs[name] = m.group(2).strip()
        elif name and line.strip():
            docs[name] += " " + line.strip()
    return {k: _markdown(v) for k, v in docs.items()}


def _type_name(feature: object) -> str:
    if isinstance(feature, datasets.List):
        return f"list<{_type_name(feature.feature)}>"
    if isinstance(feature, dict):
        return "struct"
    return feature.dtype


def _dataclass_in(tp: object) -> type | None:
    for arg in (tp, *typing.get_args(tp)):
        if dataclasses.is_dataclass(arg):
            return arg
    return None


def field_reference() -> list[tuple[str, str, str]]:
    """Every column of :data:`SAMPLE_FEATURES`, nested ones included, as ``(path, type, meaning)``.

    Paths use ``[]`` for list items (``sessions[].messages[].role``). Meanings are the ``Attributes:``
    entries of the dataclass docstrings; ``question_type`` also lists the :class:`QuestionType` values.
    """
    rows: list[tuple[str, str, str]] = []

    def walk(cls: type, features: dict, prefix: str) -> None:
        docs = _attribute_docs(cls)
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            feature = features[f.name]
            meaning = docs.get(f.name, "")
            if hints[f.name] is QuestionType:
                meaning += " One of " + ", ".join(f"`{t.value}`" for t in QuestionType) + "."
            is_json = hints[f.name] is dict or typing.get_origin(hints[f.name]) is dict  # a raw column
            rows.append((prefix + f.name, "string (JSON)" if is_json else _type_name(feature), meaning))
            if (sub := _dataclass_in(hints[f.name])) is not None:
                is_list = isinstance(feature, datasets.List)
                walk(sub, feature.feature if is_list else feature, prefix + f.name + ("[]." if is_list else "."))

    walk(Sample, SAMPLE_FEATURES, "")
    return rows


# --- sources: the pinned files, or the files an export was built from -------------------------------


def _sources(name: str) -> list[tuple[str, str, str, str, str]]:
    """``(config, file, url, revision, sha256)`` of each pinned source file of dataset ``name``."""
    files = [(c.name, c.remote_file()) for c in builder_class(name).BUILDER_CONFIGS]
    return [(config, f.filename, f.url, f.revision, f.sha256) for config, f in files]


def pin_note(name: str, config: str, source: SourceFile) -> str:
    """How ``source`` compares with ``config``'s pinned file: identical, differs, or cannot be checked."""
    pin = pinned_file(name, config)
    where = f"[`{pin.filename}`]({pin.url})"
    if config in matching_pins(name, source.sha256):
        return f"identical to the pinned {where}"
    if pin.sha256 is None:
        return f"not checked: no sha256 is pinned for {where}"
    return f"differs from the pinned {where}: a modified copy, a sample or another release"


def _source_section(name: str, configs: list[str], sources: dict[str, list[SourceFile]] | None) -> str:
    if sources is None:  # the card of no export (the builder's own): the pins it downloads
        rows = [(c, f"`{f}`", u, f"`{r}`", f"`{h}`" if h else "not pinned") for c, f, u, r, h in _sources(name) if c in configs]
        return "## Source\n\n" + _table(("config", "file", "pinned URL", "revision", "sha256"), rows)
    rows = [
        (c, code_cell(f.filename), f"{f.num_bytes:,}", f"`{f.sha256}`", pin_note(name, c, f)) for c in configs for f in sources[c]
    ]
    return (
        "## Source\n\nThe files each config was exported from, compared by sha256 with the file the builder pins.\n\n"
        + _table(("config", "source file", "bytes", "sha256", "pinned file"), rows)
    )


# --- the card ----------------------------------------------------------------------------------------


def _front_matter(name: str, sizes: dict[str, SplitSize | None], default_config: str) -> str:
    module = importlib.import_module(BUILDER_MODULES[name])
    known = [s.num_examples for s in sizes.values() if s is not None]
    rows = max(known) if known else _PUBLISHED_ROWS[name]
    card_data = DatasetCardData(
        pretty_name=_TITLES[name][0],
        license=module._LICENSE,
        language=["en"],
        task_categories=["question-answering"],
        size_categories=[_size_category(rows)],
    )
    MetadataConfigs(
        {
            config: {
                "data_files": [{"split": SPLIT, "path": data_files_pattern(config)}],
                **({"default": True} if config == default_config and len(sizes) > 1 else {}),
            }
            for config in sizes
        }
    ).to_dataset_card_data(card_data)
    infos = {}
    for config, size in sizes.items():
        splits = None
        if size is not None:
            splits = datasets.SplitDict()
            splits.add(datasets.SplitInfo(name=SPLIT, num_bytes=size.num_bytes, num_examples=size.num_examples))
        infos[config] = DatasetInfo(
            features=SAMPLE_FEATURES, splits=splits, dataset_size=size.num_bytes if size is not None else None
        )
    DatasetInfosDict(infos).to_dataset_card_data(card_data)
    return card_data.to_yaml()


def code_cell(text: str) -> str:
    """``text`` (user-supplied, e.g. a source file's name) as an inline code span safe in a table cell.

    A name may hold anything a file system allows: a newline or another non-printable character is
    shown escaped (``\\n``, as ``repr`` does: a table row is one line); the span is delimited by a run of
    backticks that the name does not contain (CommonMark code spans), padded with a space when the
    name starts or ends with a backtick; ``|`` is escaped as ``\\|`` (GitHub-flavoured tables split cells
    at every unescaped pipe, even inside code). So ``a|b`.json`` renders as itself, in its own cell.
    """
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    runs = {len(run) for run in re.findall(r"`+", text)}
    fence = "`" * next(n for n in range(1, len(runs) + 2) if n not in runs)
    pad = " " if text[:1] == "`" or text[-1:] == "`" else ""
    return f"{fence}{pad}{text}{pad}{fence}".replace("|", "\\|")


def _table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


#: Licence id (the card's ``license:`` tag) → what it means, in words, for the card's text.
LICENCE_WORDS = {
    "cc-by-nc-4.0": "Creative Commons Attribution-NonCommercial 4.0 International: non-commercial use only, with attribution",
    "mit": "the MIT License",
}


def licence_words(licence: str) -> str:
    """`` (<the licence in words>)`` for a licence id of :data:`LICENCE_WORDS`, else ``""``."""
    return f" ({LICENCE_WORDS[licence]})" if licence in LICENCE_WORDS else ""


def render_card(
    name: str, sizes: dict[str, SplitSize | None], sources: dict[str, list[SourceFile]] | None = None
) -> str:
    """The ``README.md`` of an export of dataset ``name``.

    Args:
        name: ``"locomo"`` or ``"longmemeval"``.
        sizes: Config name → its split size, for the configs the export holds, in card order (``None``:
            size not known, e.g. the committed card of a dataset whose full source is not at hand; the
            card then records no split sizes for that config).
        sources: Config → the files it was exported from (every config of ``sizes``); ``None`` for
            the card of no export, which lists the pinned files instead.

    Returns:
        The card text: ``---`` YAML ``---`` then Markdown. No paths, no timestamps.
    """
    module = importlib.import_module(BUILDER_MODULES[name])
    title, load_name = _TITLES[name]
    default_config = builder_class(name).DEFAULT_CONFIG_NAME
    configs = list(sizes)
    first = default_config if default_config in configs else configs[0]
    config_arg = "" if len(configs) == 1 else f', "{first}"'
    parts = [
        "---\n" + _front_matter(name, sizes, default_config).rstrip("\n") + "\n---",
        f"# {title}",
        module._DESCRIPTION.strip().replace("\n", " "),
        f"Built by the `{load_name}` builder of himga: one split, `{SPLIT}`; every config has "
        "the same features (shared with the other himga dataset, so the two concatenate). License of the data: "
        f"`{module._LICENSE}`{licence_words(module._LICENSE)}; homepage: {module._HOMEPAGE}.",
        _source_section(name, configs, sources),
        "## Fields\n\n"
        + _table(("column", "type", "meaning"), [(f"`{p}`", f"`{t}`", m) for p, t, m in field_reference()])
        + "\n\n`string (JSON)` columns hold a JSON object as text, or `null` for an empty one; query them "
        "with your reader's JSON functions (DuckDB `json_extract(raw, '$.category')`, polars "
        "`.str.json_path_match('$.category')`, Python `json.loads`).",
        "## Data notes\n\n" + _NOTES[name].strip() + (f"\n\n{module.card_notes()}" if hasattr(module, "card_notes") else ""),
        "## Loading\n\nWithout himga (this folder, or the Hub repository it was pushed to):\n\n```python\n"
        "import datasets\n\n"
        f'ds = datasets.load_dataset("{load_name}"{config_arg}, split="{SPLIT}")  # or the Hub repo id "ORG/NAME"\n'
        f'it = datasets.load_dataset("{load_name}"{config_arg}, split="{SPLIT}", streaming=True)\n'
        "```\n\nDistributed: each config is written as a multiple of 16 Parquet files, so "
        "`datasets.distributed.split_dataset_by_node(it, rank, world_size)` gives each of 2, 4, 8 or 16 ranks "
        "whole files; for another world size, `it = it.reshard()` first (datasets ≥ 5: one shard per Parquet "
        "row group).\n\nWith himga installed: as dataclasses, or straight from the source files:\n\n```python\n"
        "import datasets\nimport himga\nfrom himga.data import samples_from_dataset\n\n"
        f'samples = samples_from_dataset(datasets.load_dataset("ORG/NAME"{config_arg}, split="{SPLIT}"))\n'
        f'ds = datasets.load_dataset("{load_name}"{config_arg}, split="{SPLIT}")  # runs the himga builder on the pinned source\n'
        "```",
        "## Citation\n\n```bibtex\n" + module._CITATION.strip() + "\n```",
        "<!-- Generated by `himga export`; edit src/himga/card.py, not this file. -->",
    ]
    return "\n\n".join(parts) + "\n"

