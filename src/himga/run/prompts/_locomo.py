"""``locomo``: LoCoMo's official QA prompt (one question a request), byte for byte, and ``locomo-no-gold``, the same
prompt without what it shows of the gold.

Source: snap-research/LoCoMo at ``3eb6f2c585f5e1699204e3c3bdf7adc5c28cb376`` (``task_eval/gpt_utils.py`` last changed
in cbfbc1db, ``global_methods.py`` in 425a79af): ``CONV_START_PROMPT`` (l.51, its typo "wriiten" kept), ``QA_PROMPT``
and ``QA_PROMPT_CAT_5`` (l.26-36), the context of ``get_input_context`` (l.172-204), the question of
``get_gpt_answers`` (l.243-259, l.285) and the request of ``run_chatgpt`` (``global_methods.py`` l.92-128). Licence:
CC BY-NC 4.0 (the repository's). ``tests/fixtures/run/locomo-conv26-prompts.json`` holds the official function's
requests for the 199 questions of conv-26 (``--model gpt-4-turbo --batch-size 1``, made by running it:
``tests/fixtures/run/README.md``); the tests compare every one byte for byte.

The request, as the official code builds it with ``--batch-size 1``:

- the header ``CONV_START_PROMPT`` with the two speakers (the official order is ``list(set(...))`` of session 1's
  speakers, which changes with ``PYTHONHASHSEED``; here ``speaker_a`` then ``speaker_b``, the order the official run
  with ``PYTHONHASHSEED=0`` printed for conv-26);
- the context: the sessions **newest first**, each ``DATE: <session date>\\nCONVERSATION:\\n`` and its turns in order,
  a turn ``<speaker> said, "<text>"\\n`` and, when it shares an image, `` and shared <caption>.`` after that newline,
  then ``\\n``; the ``"\\n\\n"`` meant to separate sessions all land at the end (two a session);
- ``"\\n\\n"`` and ``QA_PROMPT`` with the question, whose template starts with a newline;
- category 2: the question gets `` Use DATE of CONVERSATION to answer with an approximate date.``; category 5:
  `` Select the correct answer: (a) {} (b) {}. `` with ``Not mentioned in the conversation`` and the question's
  ``answer`` (the release's ``adversarial_answer`` where ``answer`` is missing, as upstream PRs #13 and #41 fix the
  ``KeyError`` the released code stops on) in random order, and ``QA_PROMPT_CAT_5``;
- one message, ``system`` for a ``gpt-3.5`` model and ``user`` otherwise; ``temperature=0``, ``max_tokens=32``,
  ``n=1``.

What it shows of the gold: the category (2 and 5 are asked differently) and, for category 5, the adversarial answer
as one of two options next to the abstention the scorer accepts (a 50 % floor). ``locomo`` keeps it (the official
behaviour: the run's manifest says ``reads_gold``); ``locomo-no-gold`` asks every question with ``QA_PROMPT`` alone.

The history is rebuilt from the retrieved items: grouped by their view session (``S3:4`` is message 4 of session
``S3``), in session then message order, each session dated by its messages' date. Not reproduced: the official cut of
the context to the model's window (``MAX_LENGTH``, cl100k tokens, keeping the *oldest* sessions); no LoCoMo
conversation reaches gpt-4-turbo's 128,000 (conv-26 with a question: 17,477). The official option order is unseeded
(``random.random() < 0.5``); here it is drawn from a generator seeded by the question id and text, the same in every
run. The official batch mode (20 questions a request, ``QA_PROMPT_BATCH``) is not a per-question prompt and is not
offered.
"""

from __future__ import annotations

import random

from himga.run.prompts._prompt import AnswerInput, AnswerPrompt, register_answer_prompt, sessions_in_order
from himga.schema.content import split_inline_image

__all__ = ["LOCOMO", "LOCOMO_NO_GOLD", "NOT_MENTIONED", "SOURCE", "TEMPLATES", "locomo_gold"]

SOURCE = {
    "repository": "snap-research/LoCoMo",
    "path": "task_eval/gpt_utils.py",
    "commit": "3eb6f2c585f5e1699204e3c3bdf7adc5c28cb376",
    "symbol": "CONV_START_PROMPT, QA_PROMPT, QA_PROMPT_CAT_5, get_input_context, get_gpt_answers",
    "licence": "CC BY-NC 4.0",
}

#: The official templates, verbatim (gpt_utils.py l.26-36, l.51, l.245-247).
TEMPLATES = {
    "start": "Below is a conversation between two people: {} and {}. The conversation takes place over multiple days "
    "and the date of each conversation is wriiten at the beginning of the conversation.\n\n",
    "qa": "\nBased on the above context, write an answer in the form of a short phrase for the following question. "
    "Answer with exact words from the context whenever possible.\n\nQuestion: {} Short answer:\n",
    "qa_cat_5": "\nBased on the above context, answer the following question.\n\nQuestion: {} Short answer:\n",
    "temporal": " Use DATE of CONVERSATION to answer with an approximate date.",
    "cat_5": " Select the correct answer: (a) {} (b) {}. ",
}
#: The option shown beside the adversarial answer of a category-5 question.
NOT_MENTIONED = "Not mentioned in the conversation"


def locomo_gold(qa) -> dict:
    """What the official prompt shows of a LoCoMo question's gold: ``{"category": int, "options": (a, b) | None}``.

    ``options`` (category 5 only): :data:`NOT_MENTIONED` and the source's ``answer`` (else ``adversarial_answer``) in
    the order a generator seeded by ``"<question_id>:<question>"`` draws (``random() < 0.5``: not-mentioned first), as
    the official code draws it unseeded.
    """
    category = qa.raw.get("category")
    if category != 5:
        return {"category": category, "options": None}
    shown = qa.raw.get("answer", qa.raw.get("adversarial_answer"))
    first = random.Random(f"{qa.question_id}:{qa.question}").random() < 0.5
    return {"category": 5, "options": (NOT_MENTIONED, shown) if first else (shown, NOT_MENTIONED)}


def _turn(item) -> str:
    caption, text = split_inline_image(item.text)
    turn = f'{item.role} said, "{text}"\n'
    if caption is not None:
        turn += f" and shared {caption}."
    return turn + "\n"


def _context(inp: AnswerInput) -> str:
    """The official context of the retrieved items: sessions newest first, ``"\\n\\n"`` a session at the end."""
    sessions = sessions_in_order(inp.items)
    context = ""
    for _, turns in sessions:
        context = f"DATE: {turns[0].date_str}\nCONVERSATION:\n" + "".join(map(_turn, turns)) + context
    return context + "\n\n" * len(sessions)


def _speakers(inp: AnswerInput) -> tuple[str, str]:
    names = list(inp.speakers) or list(dict.fromkeys(i.role for i in inp.items if i.role))
    names += ["", ""]
    return names[0], names[1]


def _render(shows_gold: bool):
    def render(inp: AnswerInput) -> list[dict]:
        gold = (inp.gold or {}) if shows_gold else {}
        question, template = inp.question, TEMPLATES["qa"]
        if gold.get("category") == 2:
            question += TEMPLATES["temporal"]
        elif gold.get("category") == 5:
            question += TEMPLATES["cat_5"].format(*gold["options"])
            template = TEMPLATES["qa_cat_5"]
        query = TEMPLATES["start"].format(*_speakers(inp)) + _context(inp) + "\n\n" + template.format(question)
        return [{"role": "system" if "gpt-3.5" in (inp.model or "") else "user", "content": query}]

    return render


_NOTES = (
    "the official cut of the context to the model's window (MAX_LENGTH, cl100k) is not applied",
    "speakers in the header: speaker_a then speaker_b (the official order follows PYTHONHASHSEED)",
    "category-5 option order drawn from a generator seeded by the question id and text (the official draw is unseeded)",
    "the official code sends the model gpt-3.5-turbo for any gpt-3.5 model name; himga sends the name given",
)

#: The official prompt: reads gold (the category, and the category-5 options).
LOCOMO = register_answer_prompt(AnswerPrompt(
    name="locomo",
    title="LoCoMo's official QA prompt (gpt_utils, one question a request; shows category-5 options)",
    source=SOURCE,
    templates=TEMPLATES,
    render=_render(True),
    parameters={"temperature": 0, "max_tokens": 32, "n": 1},
    benchmarks=("locomo",),
    notes=(*_NOTES, "reads gold: the category and the category-5 answer options, as the official code shows them"),
    default_for=("locomo",),
    gold=locomo_gold,
))  # fmt: skip

#: The official prompt without the gold it shows: every question asked with ``QA_PROMPT`` as it stands.
LOCOMO_NO_GOLD = register_answer_prompt(AnswerPrompt(
    name="locomo-no-gold",
    title="LoCoMo's official QA prompt without the gold it shows (no category hint, no category-5 options)",
    source={**SOURCE, "correction": "every question asked with QA_PROMPT, no category suffix or options"},
    templates={k: TEMPLATES[k] for k in ("start", "qa")},
    render=_render(False),
    parameters={"temperature": 0, "max_tokens": 32, "n": 1},
    benchmarks=("locomo",),
    notes=_NOTES[:2],
))  # fmt: skip
