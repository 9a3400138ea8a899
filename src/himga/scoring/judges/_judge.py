"""What a judge is: its template text byte for byte, where it was read, how its reply is read, how it was run.

A :class:`Judge` is data (like a task file of lm-evaluation-harness): the registry
(:mod:`himga.scoring.judges`) holds the published ones, and a benchmark folder may define its own and list it
in its catalogue entry (``Benchmark.judges``). Nothing here calls a model.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from himga.errors import ConfigurationError

__all__ = ["Judge", "LabelRule", "UnreadableReply", "template_sha256"]

#: What a per-question verdict is: a yes/no label (1/0), a grade (1/0.5/0) or a continuous score in [0, 1].
LabelKind = Literal["binary", "graded", "continuous"]


class UnreadableReply(ValueError):
    """A reply the judge's official code cannot read (it raises or exits there); the message says why."""


@dataclass(frozen=True)
class LabelRule:
    """How a judge's reply becomes a score, exactly as the judge's source code reads it.

    Attributes:
        name: A short name (``"json-label-correct"``).
        description: The rule in words, with the source function (for the table and the run record).
        kind: What the score is (:data:`LabelKind`).
        read: ``reply text -> score in [0, 1]`` (for a judge with its own :attr:`Judge.combine`, any value that
            function takes); raises :class:`UnreadableReply` where the official code fails.
    """

    name: str
    description: str
    kind: LabelKind
    read: Callable[[str], float]

    @property
    def values(self) -> tuple[float, ...]:
        """The scores a labels file may hold for this rule: ``(0, 1)`` for a binary label, ``(0, 0.5, 1)`` for a grade
        (``True``/``False`` count as 1/0); ``()`` for a continuous score (any number in [0, 1])."""
        return {"binary": (0.0, 1.0), "graded": (0.0, 0.5, 1.0)}.get(self.kind, ())


def template_sha256(templates: Mapping[str, str]) -> str:
    """The sha256 of a judge's templates: ``json.dumps(templates, sort_keys=True)``, UTF-8 (the run record's hash)."""
    return hashlib.sha256(json.dumps(dict(templates), sort_keys=True).encode()).hexdigest()


@dataclass(frozen=True, eq=False)
class Judge:
    """One published judge.

    Attributes:
        name: The name ``--judge`` takes (``"mem0"``).
        title: What it is, in a few words.
        source: Where the text and rules were read: ``repository``, ``path``, ``commit`` (full SHA), ``symbol``
            (the function or constant), ``licence``, and ``confirmed`` (how and when).
        templates: Part name → text, byte for byte as the source holds it (``{"system": ..., "user": ...}``).
        label: How a reply is read (:class:`LabelRule`).
        model: The published judge model (``"gpt-4o-mini"``).
        parameters: The published request parameters besides model and messages (``temperature``, ...).
        runs: How many times the source asks the judge per question (its score is the mean over runs).
        benchmarks: The datasets the judge applies to (their QA pairs are what :attr:`messages` reads).
        messages: ``(qa, hypothesis) -> list of chat messages``, or ``None`` for a question the judge leaves out
            (LoCoMo's judges skip category 5). An :attr:`itemized` judge returns one list of messages per item
            instead (BEAM asks once per rubric item). With :attr:`context`: ``(qa, hypothesis, context)``.
        rule: ``(dataset, qa, hypothesis) -> score or None``: a score the source computes without the model
            (MAGMA's category-5 rule), else ``None``.
        itemized: Whether :attr:`messages` gives several requests per question (one per item).
        combine: ``(dataset, qa, hypothesis, [value of each item's reply]) -> score``: one run's score from its
            items' :attr:`LabelRule.read` values (default: the single value, or the mean of the items').
        context: ``sample -> context``: what the judge reads from the QA pair's Sample besides the QA pair (LoCoMo-Plus:
            the cited turns' text), passed to :attr:`messages`; ``None`` when the QA pair suffices. A judge with a
            context scores every question of its benchmarks (none is left out).
        gold: The gold rule of the rendering, in words (for the run record).
        scope: Which questions the judge scores, in words.
        variant: The variant of its benchmark's official judge it is (``"official"``, ``"fixed"``), or ``None`` for a
            published judge that is no benchmark's official one.
        request: ``(qa, hypothesis[, context]) -> request body`` when the source's request is not
            :meth:`request_body` of :attr:`messages` (LoCoMo-Plus orders its keys ``model, messages, temperature,
            max_tokens``); ``None``: :meth:`request_body`.
        keyed_requests: ``(item_id, qa, hypothesis) -> [request]`` for a judge asked several requests per question
            whose replies are read by request id on its benchmark's own route (BEAM: ``{"question_id", "request_id",
            "model", ..., "messages"}``, one per rubric item and event-ordering pair); ``None`` otherwise.
        score_keyed: ``(item_id, qa, hypothesis, {request_id: reply}, file=) -> dict`` with the question's ``score``:
            the replies to :attr:`keyed_requests` read as the official code reads them.
        request_question: ``request_id -> item id``: the question a request of :attr:`keyed_requests` is for.
        keyed_reached: ``(item_id, qa, hypothesis, {request_id: reply}) -> (request ids, complete)``: the requests of
            :attr:`keyed_requests` the official procedure asks given the replies so far (BEAM's event-ordering walk
            reaches some pairs only); ``None``: all of them.
        reached_items: The same for an :attr:`itemized` judge's items: ``(qa, hypothesis, {item: value}) -> (items
            from 1, complete)``; ``None``: every item.
        check_reply: ``(request line, reply) -> why it cannot be read, or None``, when a reply's reading depends on
            its request (BEAM: a rubric item's score, a pair's any text); ``None``: :attr:`LabelRule.read`.
        recorded: The layouts of verdicts recorded elsewhere, without a request hash, that the judge's routes read
            (the keys of :data:`himga.scoring.inputs._bound.RECORDED_LAYOUTS`: ``"autoeval_label"``, LongMemEval's
            ``*.eval-results-*`` lines; ``"llm_judgments"``, EverMemOS's and MemOS's judged results and the
            locomo-audit's probe); any other verdict is a reply bound to its request.
    """

    name: str
    title: str
    source: Mapping[str, str]
    templates: Mapping[str, str]
    label: LabelRule
    model: str
    parameters: Mapping[str, Any]
    benchmarks: tuple[str, ...]
    messages: Callable[[Any, str], list | None]
    runs: int = 1
    rule: Callable[[str, Any, str], float | None] | None = None
    itemized: bool = False
    combine: Callable[[str, Any, str, list], float] | None = None
    context: Callable[[Any], Any] | None = None
    gold: str = ""
    scope: str = "every question"
    notes: tuple[str, ...] = field(default=())
    variant: str | None = None
    request: Callable | None = None
    keyed_requests: Callable | None = None
    score_keyed: Callable | None = None
    request_question: Callable[[str], str] | None = None
    keyed_reached: Callable | None = None
    reached_items: Callable | None = None
    check_reply: Callable[[Mapping, str], str | None] | None = None
    recorded: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.context is not None and self.itemized:
            raise ConfigurationError(f"judge {self.name}: a judge with a context asks once per question (not itemized)")

    @property
    def sha256(self) -> str:
        """:func:`template_sha256` of :attr:`templates`."""
        return template_sha256(self.templates)

    def applies_to(self, dataset: str) -> bool:
        """Whether the judge applies to ``dataset``."""
        return dataset in self.benchmarks

    def prompt(self, dataset: str, qa, hypothesis: str, context: Any = None) -> list[dict] | None:
        """The chat messages the source sends for one hypothesis, or ``None`` when the judge leaves it out.

        ``context`` is :attr:`context` of the QA pair's Sample, for a judge that has one.

        Raises:
            ConfigurationError: the judge does not apply to ``dataset``, or ``hypothesis`` is not a string.
        """
        if dataset not in self.benchmarks:
            raise ConfigurationError(f"judge {self.name!r} applies to {', '.join(self.benchmarks)}, not {dataset}")
        if not isinstance(hypothesis, str):
            raise ConfigurationError(
                f"judge {self.name}: hypothesis: expected a string, got {type(hypothesis).__name__}"
            )
        if self.context is not None:
            return self.messages(qa, hypothesis, context)
        return self.messages(qa, hypothesis)

    def prompts(self, dataset: str, qa, hypothesis: str, context: Any = None) -> list[list[dict]] | None:
        """One list of chat messages per item (a single item unless :attr:`itemized`), or ``None`` (left out).

        Raises:
            ConfigurationError: as :meth:`prompt`.
        """
        found = self.prompt(dataset, qa, hypothesis, context)
        return None if found is None else list(found) if self.itemized else [found]

    def reply_problem(self, request: Mapping, reply) -> str | None:
        """Why ``reply`` (the content of the model's answer to the request line ``request``) is no answer the judge's
        official code reads, or ``None``: no content (``null``, empty or blank), or a reply its label rule refuses.
        ``himga judge`` keeps such a reply out of the answers (``--retry-failed`` asks again)."""
        if not isinstance(reply, str) or not reply.strip():
            return "no content" if reply is None or not isinstance(reply, str) else "an empty reply"
        if self.check_reply is not None:
            return self.check_reply(request, reply)
        try:
            self.label.read(reply)
        except UnreadableReply as e:
            return f"judge {self.name} cannot read it: {e}"
        return None

    def items_reached(self, dataset: str, qa, hypothesis: str, values: Mapping[int, object]) -> tuple[list[int], bool]:
        """The items (from 1) the official procedure asks for one hypothesis given the values read so far
        (:attr:`reached_items`; default every item), and whether each has a value."""
        if self.reached_items is not None:
            return self.reached_items(qa, hypothesis, dict(values))
        n = len(self.prompts(dataset, qa, hypothesis)) if self.itemized else 1
        return list(range(1, n + 1)), all(k in values for k in range(1, n + 1))

    def score_items(self, dataset: str, qa, hypothesis: str, values: list) -> float:
        """One run's score from the values its items' replies were read as (:attr:`combine`, default the mean)."""
        if self.combine is not None:
            return float(self.combine(dataset, qa, hypothesis, values))
        return float(values[0]) if len(values) == 1 else math.fsum(values) / len(values)

    def rule_score(self, dataset: str, qa, hypothesis: str) -> float | None:
        """The score the source gives without asking the model (:attr:`rule`), else ``None``."""
        return None if self.rule is None else self.rule(dataset, qa, hypothesis)

    def request_body(self, messages: list[dict], model: str | None = None) -> dict:
        """The chat-completions request the source sends: ``{"model", **parameters, "messages"}``."""
        return {"model": model or self.model, **self.parameters, "messages": messages}

    def official_request(self, dataset: str, qa, hypothesis: str, context: Any = None) -> dict:
        """The one request of a judge asked once per question, as its source builds it (:attr:`request`, else
        :meth:`request_body` of :meth:`prompt`).

        Raises:
            ConfigurationError: as :meth:`prompt`; a judge that leaves the question out or asks several requests.
        """
        if self.request is not None:
            if dataset not in self.benchmarks:
                raise ConfigurationError(f"judge {self.name!r} applies to {', '.join(self.benchmarks)}, not {dataset}")
            return self.request(qa, hypothesis, *((context,) if self.context is not None else ()))
        found = self.prompt(dataset, qa, hypothesis, context)
        if found is None or self.itemized:
            raise ConfigurationError(f"judge {self.name}: no single request for this question")
        return self.request_body(found)

    def describe(self) -> dict:
        """The judge for a report's ``run.judge``: name, source, template sha256, model, parameters, runs, label
        rule."""
        return {
            "name": self.name,
            "title": self.title,
            **dict(self.source),
            "template_sha256": self.sha256,
            **({"variant": self.variant} if self.variant is not None else {}),
            "model": self.model,
            "parameters": dict(self.parameters),
            "runs": self.runs,
            "label_rule": {"name": self.label.name, "kind": self.label.kind, "description": self.label.description},
            "gold": self.gold,
            "scope": self.scope,
        }
