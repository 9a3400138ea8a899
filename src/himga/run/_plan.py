"""What a run asks: the benchmark built once, its questions selected (ids file, limit, shard), the samples made lazily
as the runner reaches them (their QA pairs first, the haystacks one sample at a time)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

__all__ = ["Plan", "plan"]


@dataclass
class Plan:
    """A planned run.

    Attributes:
        config: The config the build resolved.
        identity: :func:`himga.run.run_identity` of the data (sources, gold, subset fingerprint).
        selected: View question id → item id of the questions asked, in dataset order.
        questions: Item id → QAPair of every question of the data (for scoring).
        sample_of: View question id → source sample id.
        dataset: The built ``datasets.Dataset``.
        rows: Source sample id → its row in :attr:`dataset`.
        order: View question id → its place among every question of the data (dataset order, from 0).
    """

    config: str
    identity: dict
    selected: dict[str, str]
    questions: dict
    sample_of: dict[str, str]
    dataset: object = None
    rows: dict[str, int] = field(default_factory=dict)
    order: dict[str, int] = field(default_factory=dict)

    def samples(self, pending: set[str]) -> Iterator[tuple]:
        """``(sample, view, view ids, questions)`` of every sample with a pending question, made one at a time."""
        from himga.data.lazy import LazySamples
        from himga.run._runner import Question
        from himga.schema.view import system_view, view_ids

        wanted = {self.sample_of[q] for q in pending}
        lazy = LazySamples(self.dataset)
        for sample_id, row in self.rows.items():
            if sample_id not in wanted:
                continue
            sample = lazy[row]
            view, ids = system_view(sample), view_ids(sample)
            questions = [
                Question(
                    q.question_id,
                    ids.questions[q.question_id],
                    q.question,
                    q.question_date,
                    q.position,
                    self.order[q.question_id],
                    tuple(q.options),
                )
                for q in view.questions
                if q.question_id in self.selected
            ]
            yield sample, view, ids, questions


def plan(entry, *, config, data_dir, cache_dir, ids, limit, shard, options) -> Plan:
    """Build ``entry``'s data and select the questions of the run.

    Raises:
        ConfigurationError: an ids file naming no question of the data; and what a build raises.
    """
    from himga.data.lazy import qa_samples
    from himga.data.loaders import build_dataset
    from himga.jsonio.run_inputs import read_id_lines
    from himga.run._identity import ids_of, run_identity
    from himga.run._shards import shard_samples
    from himga.schema.ids import item_id
    from himga.schema.view import view_question_ids

    ds = build_dataset(entry, config, path=data_dir, cache_dir=cache_dir, **options)
    resolved = ds.info.config_name
    ids_file = read_id_lines(ids) if ids is not None else None
    identity = run_identity(entry, resolved, data_dir=data_dir, ids=ids_file, **options)
    order: list[tuple[str, str, str]] = []  # (view question id, item id, sample id)
    questions, rows = {}, {}
    for row, sample in enumerate(qa_samples(ds)):
        rows[sample.sample_id] = row
        views = view_question_ids(sample)
        for (view, item), qa in zip(views.items(), sample.qa_pairs, strict=True):
            order.append((view, item, sample.sample_id))
            questions[item_id(sample, qa)] = qa
    places = {view: n for n, (view, _, _) in enumerate(order)}
    if ids_file is not None:
        keep = ids_of(ids_file, questions)
        order = [o for o in order if o[1] in keep]
    if limit is not None:
        order = order[:limit]
    counts: dict[str, int] = {}
    for _, _, sample in order:
        counts[sample] = counts.get(sample, 0) + 1
    share = shard_samples(list(counts.items()), shard)
    order = [o for o in order if o[2] in share]
    return Plan(
        resolved, identity, {v: i for v, i, _ in order}, questions, {v: s for v, _, s in order}, ds, rows, places
    )
