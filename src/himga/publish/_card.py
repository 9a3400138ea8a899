"""The dataset card (``README.md``) of an exported dataset: YAML front matter and a Markdown body.

Everything on the card is derived, never written twice: the front matter's ``configs`` and
``dataset_info`` come from ``datasets``' own helpers (``MetadataConfigs``, ``DatasetInfosDict``, the same
ones ``Dataset.push_to_hub`` uses) fed with :data:`~himga.schema.features.SAMPLE_FEATURES` and the split
sizes of the export; the source table from the files the export was built from (name, size, sha256,
compared with the builder's pins by :mod:`himga.publish._source_labels`), or, on a card of no export, from the
pins themselves (the builder configs' ``remote_file()``); the field reference from the ``Attributes:`` sections of the
dataclass docstrings in :mod:`himga.schema.sample`; title from the catalogue entry; description, license and citation
from the builder module; the data notes from ``card_notes.md`` beside the builder. The card holds no paths and no
timestamps, so the same export gives the same bytes (a test keeps the committed ``himga_locomo/README.md`` and
``himga_longmemeval/README.md`` equal to the generator's output).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import datasets
from datasets.info import DatasetInfo, DatasetInfosDict
from datasets.utils.metadata import MetadataConfigs
from huggingface_hub import DatasetCardData

from himga.catalog import Benchmark, benchmark
from himga.publish._card_fields import field_reference
from himga.publish._export_configs import export_config
from himga.publish._source_labels import SourceFile, matching_pins, pinned_file
from himga.schema.features import SAMPLE_FEATURES
from himga.schema.view import SYSTEM_FEATURES
from himga.sources import pin_coverage

__all__ = ["SplitSize", "card_title", "data_files_pattern", "field_reference", "pin_note", "render_card"]

SPLIT = "test"


@dataclass(frozen=True)
class SplitSize:
    """The size of one config's ``test`` split, as recorded in ``dataset_info``.

    Attributes:
        num_examples: Rows.
        num_bytes: Bytes of the rows in Arrow format (``datasets``' ``SplitInfo.num_bytes``).
    """

    num_examples: int
    num_bytes: int


def card_title(entry: Benchmark) -> str:
    """The card's ``pretty_name`` of ``entry``, e.g. ``"LoCoMo (HiMGA-normalized)"``."""
    return benchmark(entry).title


def data_files_pattern(config: str) -> str:
    """The Parquet files of ``config``'s test split, relative to the export folder."""
    return f"data/{config}/{SPLIT}-*.parquet"


def _size_category(rows: int) -> str:
    bounds = [(1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")]
    return next((label for bound, label in bounds if rows < bound), "1M<n<10M")


# --- sources: the pinned files, or the files an export was built from -------------------------------


def _sources(entry: Benchmark) -> list[tuple[str, str, str, str, str]]:
    """``(config, file, url, revision, sha256)`` of each pinned source file of ``entry`` (a pin of several files: its
    folder, ``"chats/100K/ (40 files)"``, and the sha256 of their ``sha256sum`` listing)."""
    return [
        (config, f"{f.filename}/ ({len(f.parts)} files)" if f.parts else f.filename, f.url, f.revision, f.sha256)
        for config, f in entry.pins().items()
    ]


def pin_note(entry: Benchmark, config: str, source: SourceFile) -> str:
    """How ``source`` compares with the pinned file of export config ``config`` (its builder config's):
    identical, differs, or cannot be checked."""
    config = export_config(entry, config).config
    pin = pinned_file(entry, config)
    where = f"[`{pin.filename}`]({pin.url})"
    if pin.parts and pin_coverage(pin, [(source.filename, source.sha256)])[0]:  # not a part, by its name and bytes
        return f"not a file of the pinned {where}" + (
            " (its bytes are a pinned file's: a copy under another name?)"
            if config in matching_pins(entry, source.sha256)
            else ""
        )
    if config in matching_pins(entry, source.sha256):
        return f"identical to the pinned {where}"
    if pin.sha256 is None:
        return f"not checked: no sha256 is pinned for {where}"
    return f"differs from the pinned {where}: a modified copy, a sample or another release"


def _source_section(entry: Benchmark, configs: list[str], sources: dict[str, list[SourceFile]] | None) -> str:
    if sources is None:  # the card of no export (the builder's own): the pins it downloads
        rows = [
            (c, f"`{f}`", u, f"`{r}`" if r else "not pinned", f"`{h}`" if h else "not pinned")
            for c, f, u, r, h in _sources(entry)
            if c in configs
        ]
        return "## Source\n\n" + _table(("config", "file", "pinned URL", "revision", "sha256"), rows)
    rows = [row for c in configs for row in _source_rows(entry, c, sources[c])]
    return (
        "## Source\n\nThe files each config was exported from, compared by sha256 with the file the builder pins.\n\n"
        + _table(("config", "source file", "bytes", "sha256", "pinned file"), rows)
    )


def _source_rows(entry: Benchmark, config: str, files: list[SourceFile]) -> list[tuple[str, ...]]:
    """The source table's rows of one config: a row per file, or one row for the whole when the files are exactly the
    files of a pin of several (BEAM's 40 files of ``chats/100K``)."""
    pin = pinned_file(entry, export_config(entry, config).config)
    if pin.parts and pin_coverage(pin, [(f.filename, f.sha256) for f in files]) == ([], []):  # exactly the pin's files
        return [
            (
                config,
                code_cell(f"{pin.filename}/ ({len(files)} files)"),
                f"{sum(f.num_bytes for f in files):,}",
                f"`{pin.sha256}` (sha256sum listing)",
                f"identical to the pinned [`{pin.filename}`]({pin.url})",
            )
        ]
    return [
        (config, code_cell(f.filename), f"{f.num_bytes:,}", f"`{f.sha256}`", pin_note(entry, config, f)) for f in files
    ]


def _gold_section(entry: Benchmark, golds: dict[str, dict] | None) -> str | None:
    """The card's "Gold" table (config, variant, errata file, sha256, its pin), when a config holds another
    gold than the default; ``None`` otherwise (a card of published rows only says it in the data notes)."""
    if not golds or all(g["variant"] == entry.default_gold for g in golds.values()):
        return None
    _folder, pin = entry.auxiliary_pin("errata")
    rows = []
    for config, g in golds.items():
        if g["variant"] == entry.default_gold:
            rows.append((f"`{config}`", f"`{g['variant']}`", "none", "", ""))
            continue
        same = g["errata_sha256"] == pin.sha256
        note = (
            f"identical to the pinned [`{pin.filename}`]({pin.url}) ({pin.origin}, {pin.licence})"
            if same
            else f"differs from the pinned [`{pin.filename}`]({pin.url}) ({pin.origin}): a user's errata file"
        )
        rows.append((f"`{config}`", f"`{g['variant']}`", code_cell(g["errata"]), f"`{g['errata_sha256']}`", note))
    return (
        "## Gold\n\nThe gold answers and evidence each config carries: the published ones, or those an errata "
        "file corrects (each corrected QA pair's `raw` keeps the published QA and says what changed, in `gold_audit`; "
        "each row's `raw.gold` names the variant and the errata file's sha256). Load one by its config name, e.g. "
        '`datasets.load_dataset("ORG/NAME", '
        f'"{next(c for c, g in golds.items() if g["variant"] != entry.default_gold)}", split="{SPLIT}")`.\n\n'
        + _table(("config", "gold", "errata file", "errata sha256", "pinned errata"), rows)
    )


# --- the card ----------------------------------------------------------------------------------------


def _features(entry: Benchmark, config: str):
    """The features of an export config's rows: the system view's, or a Sample's."""
    return SYSTEM_FEATURES if export_config(entry, config).view is not None else SAMPLE_FEATURES


def _front_matter(entry: Benchmark, sizes: dict[str, SplitSize | None], default_config: str) -> str:
    known = [s.num_examples for s in sizes.values() if s is not None]
    rows = max(known) if known else entry.published_rows
    card_data = DatasetCardData(
        pretty_name=entry.title,
        license=entry.module._LICENSE,
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
            features=_features(entry, config), splits=splits, dataset_size=size.num_bytes if size is not None else None
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
    "cc-by-nc-4.0": "Creative Commons Attribution-NonCommercial 4.0 International: non-commercial use only, with "
    "attribution",
    "mit": "the MIT License",
    "unknown": "no licence is stated upstream; see the data notes",
}


def licence_words(licence: str) -> str:
    """`` (<the licence in words>)`` for a licence id of :data:`LICENCE_WORDS`, else ``""``."""
    return f" ({LICENCE_WORDS[licence]})" if licence in LICENCE_WORDS else ""


def _views_sentence(entry: Benchmark, configs: list[str]) -> str:
    views = [c for c in configs if export_config(entry, c).view]
    return (
        f", but {', '.join(f'`{c}`' for c in views)}: the system view of the rows, what a memory system under test may "
        "see "
        "(no answer, evidence, question type or `raw`; every message dated; generated ids; `himga.data.system_view`), "
        "with the fields `sample_id`, `dataset`, `sessions`, `questions` (`question_id`, `question`, `question_date`), "
        "`speaker_a`, `speaker_b`"
    )


def _gold_free(entry: Benchmark, configs: list[str]) -> bool:
    """Whether the export holds only system views: its card then holds no gold (no data notes, which quote answers
    and rubrics; no field reference of the Samples' gold fields)."""
    return all(export_config(entry, c).view for c in configs)


def _gold_warning(entry: Benchmark, configs: list[str]) -> str | None:
    """The warning of an export holding a system view beside gold configs, else ``None``."""
    views = [c for c in configs if export_config(entry, c).view]
    gold = [c for c in configs if not export_config(entry, c).view]
    if not views or not gold:
        return None
    return (
        f"**This folder holds gold.** The configs {', '.join(f'`{c}`' for c in gold)} hold the gold answers, evidence "
        "and `raw` (rubrics, trap answers), and the data notes below quote them: do not give this folder to a system "
        f"under test. Give it the system view alone, exported into a folder of its own (`himga export {entry.name} "
        "OUT --view system`), whose card holds no gold."
    )


def render_card(
    entry: Benchmark,
    sizes: dict[str, SplitSize | None],
    sources: dict[str, list[SourceFile]] | None = None,
    golds: dict[str, dict] | None = None,
) -> str:
    """The ``README.md`` of an export of dataset ``name``.

    Args:
        entry: The benchmark (its catalogue entry; its name is accepted too).
        sizes: Config name → its split size, for the configs the export holds, in card order (``None``:
            size not known, e.g. the committed card of a dataset whose full source is not at hand; the
            card then records no split sizes for that config).
        sources: Config → the files it was exported from (every config of ``sizes``); ``None`` for
            the card of no export, which lists the pinned files instead.
        golds: Config → its gold record (:func:`himga.publish._export_configs.gold_record`); ``None``: the
            default gold everywhere. A config of another variant adds the "Gold" section.

    Returns:
        The card text: ``---`` YAML ``---`` then Markdown. No paths, no timestamps.
    """
    entry = benchmark(entry)
    module, title, load_name = entry.module, entry.title, entry.load_name
    default_config = entry.default_config
    configs = list(sizes)
    first = default_config if default_config in configs else configs[0]
    config_arg = "" if len(configs) == 1 else f', "{first}"'
    variants = tuple(dict.fromkeys(g["variant"] for g in (golds or {}).values())) or (entry.default_gold,)
    gold = _gold_section(entry, golds)
    parts = [
        "---\n" + _front_matter(entry, sizes, default_config).rstrip("\n") + "\n---",
        f"# {title}",
        module._DESCRIPTION.strip().replace("\n", " "),
        f"Built by the `{load_name}` builder of himga: one split, `{SPLIT}`; every config has "
        "the same features (shared with the other himga datasets, so they concatenate)"
        + (_views_sentence(entry, configs) if any(export_config(entry, c).view for c in configs) else "")
        + f". License of the data: `{module._LICENSE}`{licence_words(module._LICENSE)}; homepage: {module._HOMEPAGE}.",
        *([warning] if (warning := _gold_warning(entry, configs)) else []),
        _source_section(entry, configs, sources),
        *([gold] if gold else []),
        *(
            [
                "## Fields\n\nThe system view's, listed above; nothing else (the Samples' fields, with the gold, are "
                "in "
                f"the card of a gold export: `himga export {entry.name} OUT`)."
            ]
            if _gold_free(entry, configs)
            else []
        ),
        *(
            []
            if _gold_free(entry, configs)
            else [
                "## Fields\n\n"
                + _table(("column", "type", "meaning"), [(f"`{p}`", f"`{t}`", m) for p, t, m in field_reference()])
                + "\n\n`string (JSON)` columns hold a JSON object as text, or `null` for an empty one; query them "
                "with your reader's JSON functions (DuckDB `json_extract(raw, '$.category')`, polars "
                "`.str.json_path_match('$.category')`, Python `json.loads`)."
            ]
        ),
        "## Data notes\n\n"
        + (
            "Left out: the benchmark's data notes quote gold answers, evidence and rubrics, which a "
            "system under test must not see (they are on the card of a gold export)."
            if _gold_free(entry, configs)
            else entry.notes.strip() + (f"\n\n{module.card_notes(variants)}" if hasattr(module, "card_notes") else "")
        ),
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
        f'ds = datasets.load_dataset("{load_name}"{config_arg}, split="{SPLIT}")  # runs the himga builder on the '
        "pinned source\n"
        "```",
        "## Citation\n\n```bibtex\n" + module._CITATION.strip() + "\n```",
        "<!-- Generated by `himga export`; edit src/himga/publish/_card.py, not this file. -->",
    ]
    return "\n\n".join(parts) + "\n"
