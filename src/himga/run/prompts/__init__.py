"""Answer prompts by name: the template that turns a question and what a memory retrieved into the request the answer
model is sent, with where it was read and the request parameters its source uses (:class:`AnswerPrompt`).

Like the judges: the text byte for byte, a source, a sha256 the manifest records, one module a prompt that registers
it (:func:`register_answer_prompt`); importing this package imports them all. The default of a run is its
benchmark's official prompt where one is registered (``default_for``), else ``plain``, himga's own.
"""

from himga.run.prompts._prompt import (
    PROMPTS,
    AnswerInput,
    AnswerPrompt,
    answer_prompt_named,
    answer_prompts,
    default_answer_prompt,
    register_answer_prompt,
)

# The prompts himga holds, in the registry's order: each module registers its own.
from himga.run.prompts import _plain, _longmemeval, _locomo, _mem0, _locomo_audit, _beam  # noqa: F401  isort: skip
from himga.run.prompts import _personamem  # noqa: F401  isort: skip
from himga.run.prompts._personamem import PERSONAMEM, PERSONAMEM_O_SERIES
from himga.run.prompts._plain import PLAIN

__all__ = [
    "PERSONAMEM",
    "PERSONAMEM_O_SERIES",
    "PLAIN",
    "PROMPTS",
    "AnswerInput",
    "AnswerPrompt",
    "answer_prompt_named",
    "answer_prompts",
    "default_answer_prompt",
    "register_answer_prompt",
]
