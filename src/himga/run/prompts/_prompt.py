"""Answer prompts by name: the template that turns a question and what a memory retrieved into the request the answer
model is sent, with where it was read and the request parameters its source uses.

Like the judges (:class:`himga.scoring.Judge`): the text byte for byte, a source, a sha256 the manifest records. The
default of a run is its benchmark's official prompt where one is registered, else :data:`PLAIN`, himga's own, which
the manifest names as such.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from himga.memory import Retrieved
from himga.registry import Registry

__all__ = [
    "AnswerInput",
    "AnswerPrompt",
    "answer_prompt_named",
    "answer_prompts",
    "default_answer_prompt",
    "register_answer_prompt",
    "sessions_in_order",
]


@dataclass(frozen=True)
class AnswerInput:
    """What an answer prompt renders: the system view's question and what the memory retrieved, nothing else.

    Attributes:
        question: The question text.
        now: The question's date (the benchmark's, else the last ingested message's; raw string), or ``None``.
        items: What the memory retrieved, best first.
        options: The answer options the benchmark shows with the question (multiple choice), else ``None``.
        model: The answer model the request is for (a source whose request depends on the model reads it).
        speakers: The conversation's two speakers (``speaker_a``, ``speaker_b``) where the benchmark names them, else
            ``()``.
        gold: What a prompt that reads gold took from the grader's question (:attr:`AnswerPrompt.gold`), else
            ``None``.
    """

    question: str
    now: str | None
    items: Sequence[Retrieved]
    options: tuple[str, ...] | None = None
    model: str | None = None
    speakers: tuple[str, ...] = ()
    gold: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class AnswerPrompt:
    """One answer prompt.

    Attributes:
        name: The name ``--answer-prompt`` takes.
        title: What it is, in a few words.
        source: Where the text was read (``repository``, ``path``, ``commit``, ``symbol``), or ``{"repository":
            "himga"}`` for himga's own.
        templates: Part name → text, byte for byte.
        render: ``AnswerInput -> messages`` (the chat messages sent).
        parameters: The request parameters the source sends besides model and messages (``temperature``, ...).
        benchmarks: The benchmarks it is written for, or ``()`` for any.
        notes: What a reader must know (a quirk kept, gold it shows).
        default_for: The benchmarks whose runs use it unless another is named (their official prompt).
        gold: ``QAPair -> mapping``: what the source shows the model of the grader's question (a category, an answer
            option), or ``None``. A prompt with one reads gold: the runner hands it the question's result as
            :attr:`AnswerInput.gold`, the manifest says ``reads_gold`` and the run is a reference, never a system.
        extract: ``reply -> hypothesis``: the answer the source scores, taken from the model's reply (the text after a
            ``FINAL ANSWER:``), or ``None`` (the reply is the hypothesis). The record keeps both.
    """

    name: str
    title: str
    source: Mapping[str, str]
    templates: Mapping[str, str]
    render: Callable[[AnswerInput], list[dict]]
    parameters: Mapping[str, Any] = field(default_factory=dict)
    benchmarks: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    default_for: tuple[str, ...] = ()
    gold: Callable[[Any], Mapping[str, Any]] | None = None
    extract: Callable[[str], str] | None = None

    @property
    def reads_gold(self) -> bool:
        """The prompt shows the model something of the gold (:attr:`gold` is set)."""
        return self.gold is not None

    @property
    def sha256(self) -> str:
        """The sha256 of :attr:`templates` (``json.dumps(templates, sort_keys=True)``, UTF-8), as a judge's."""
        return hashlib.sha256(json.dumps(dict(self.templates), sort_keys=True).encode()).hexdigest()

    def describe(self) -> dict:
        """The prompt for the manifest: name, source, template sha256, parameters, whether it reads gold."""
        return {
            "name": self.name,
            "title": self.title,
            **dict(self.source),
            "template_sha256": self.sha256,
            "parameters": dict(self.parameters),
            "reads_gold": self.reads_gold,
            "extracts_answer": self.extract is not None,
            "notes": list(self.notes),
        }


#: Every answer prompt by name, in the order registered.
PROMPTS: Registry[AnswerPrompt] = Registry("answer prompt")


def register_answer_prompt(prompt: AnswerPrompt) -> AnswerPrompt:
    """Add ``prompt`` to the registry under its name; returns it.

    Raises:
        ConfigurationError: another prompt has that name.
    """
    return PROMPTS.register(prompt.name, prompt)


def answer_prompts() -> dict[str, AnswerPrompt]:
    """Every registered answer prompt by name (a copy)."""
    return PROMPTS.all()


def answer_prompt_named(name: str) -> AnswerPrompt:
    """The answer prompt called ``name``.

    Raises:
        ConfigurationError: ``unknown answer prompt 'x': expected one of plain, ...``.
    """
    return PROMPTS.named(name)


def default_answer_prompt(dataset: str) -> AnswerPrompt:
    """The answer prompt of a run of ``dataset`` without ``--answer-prompt``: the registered prompt that is its
    default (its official one), else ``plain`` (himga's own)."""
    return next((p for p in PROMPTS.all().values() if dataset in p.default_for), PROMPTS.named("plain"))


_VIEW_ID = re.compile(r"S(\d+):(\d+)")


def sessions_in_order(items: Sequence[Retrieved]) -> list[tuple[int, list[Retrieved]]]:
    """The retrieved items grouped by their view session (``S3:4`` is message 4 of session 3), sessions by number and
    messages by number, as a conversation reads: ``[(session number, [items])]``. Items without a view id form a last
    session, numbered 0, in the order given."""
    sessions: dict[int, list[tuple[int, Retrieved]]] = {}
    for n, item in enumerate(items):
        match = _VIEW_ID.fullmatch(item.id or "")
        session, turn = (int(match[1]), int(match[2])) if match else (0, n)
        sessions.setdefault(session, []).append((turn, item))
    ordered = sorted(sessions, key=lambda number: (number == 0, number))
    return [(number, [item for _, item in sorted(sessions[number], key=lambda t: t[0])]) for number in ordered]
