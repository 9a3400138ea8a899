"""``personamem``: PersonaMem's official request (``Evaluation.query_llm``), and ``personamem-o-series``, the same
request with the role merge applied only to the models it was written for.

Source: bowen-upenn/PersonaMem, commit ``041d82ac6170d3e62c8f105d16df357dced48d73``, ``inference_standalone_openai.py``
(git blob ``336147180a2d3c922b74dbb11e6af1ca84d3fdee``): ``Evaluation.query_llm`` (l.25–46) and
``convert_role_system_to_user`` (l.81–115). The request, as read there:

- the context (the shared context up to the question's end index, as chat turns ``{"role", "content"}``), then one
  user turn ``question + "\\n\\n" + instructions + "\\n\\n" + all_options`` (``all_options``: the CSV cell, a Python
  list of the four ``"(x) …"`` strings; rebuilt here as ``str(list(options))``, which gives the cell back for all 589
  questions of the 32k split);
- when the model's name contains the letter ``o`` (``if 'o' in self.args['models']['llm_model']``, l.34):
  ``convert_role_system_to_user``: each system turn becomes a ``"[System]: {content}\\n"`` prefix of the next turn and
  consecutive turns of one role are merged with ``"\\n"``. The condition is true for ``gpt-4o``, ``gpt-4o-mini`` and
  ``gpt-3.5-turbo`` as well as for ``o1``, ``o1-mini``, ``o3-mini``; ``gemini-1.5-flash``, ``gpt-4.1-mini`` or
  ``gpt-4`` get the context unchanged;
- ``client.chat.completions.create(model=..., messages=...)`` (l.37–40): no other parameter (API defaults).

The history comes from what the memory retrieved, in its order: the ``full-context`` memory returns every message
ingested (up to the question's position), with its role, so the request is the official one;
``tests/fixtures/personamem/personamem_requests.json`` holds the official function's requests (sha256 of the messages)
for the 589 questions and two models, and the tests compare every one.
"""

from __future__ import annotations

import re

from himga.errors import ConfigurationError
from himga.run.prompts._prompt import AnswerInput, AnswerPrompt, register_answer_prompt

__all__ = [
    "INSTRUCTIONS",
    "PERSONAMEM",
    "PERSONAMEM_O_SERIES",
    "SOURCE",
    "convert_role_system_to_user",
    "merges_roles",
    "merges_roles_o_series",
    "personamem_messages",
]

#: The official instructions (``query_llm``, l.28), byte for byte.
INSTRUCTIONS = (
    "Find the most appropriate model response and give your final answer (a), (b), (c), or (d) after the special "
    "token <final_answer>."
)
#: Where the request was read.
SOURCE = {
    "repository": "bowen-upenn/PersonaMem",
    "path": "inference_standalone_openai.py",
    "commit": "041d82ac6170d3e62c8f105d16df357dced48d73",
    "symbol": "Evaluation.query_llm, convert_role_system_to_user",
}
_TEMPLATES = {
    "instructions": INSTRUCTIONS,
    "user": "{question}\n\n{instructions}\n\n{all_options}",
    "system_prefix": "[System]: {content}\n",
    "merge_separator": "\n",
}
#: An o-series reasoning model's name (``o1``, ``o1-mini``, ``o3-mini``, ``o4-mini``), after any provider prefix.
_O_SERIES = re.compile(r"o[0-9]")


def convert_role_system_to_user(messages: list[dict]) -> list[dict]:
    """The official ``convert_role_system_to_user``: each system turn's text becomes a ``"[System]: {content}\\n"``
    prefix of the next turn; consecutive turns of one role are merged, joined by ``"\\n"``.

    Returns:
        New message dicts (``messages`` is not changed).
    """
    out: list[dict] = []
    system = ""
    for message in messages:
        role, content = message.get("role"), message.get("content", "")
        if role == "system":
            system += f"[System]: {content}\n"
            continue
        if system:
            content, system = system + content, ""
        if out and out[-1]["role"] == role:
            out[-1]["content"] += "\n" + content
        else:
            out.append({"role": role, "content": content})
    return out


def merges_roles(model: str | None) -> bool:
    """The official condition: the model's name contains the letter ``o`` (``None``: no model named, no merge)."""
    return model is not None and "o" in model


def merges_roles_o_series(model: str | None) -> bool:
    """Whether ``model`` is an o-series reasoning model (``o1``, ``o1-mini``, ``o3-mini``, ``o4-mini``; a provider
    prefix such as ``openai/`` allowed): the models the merge was written for (the function's docstring: "for models
    without system role support"; the script's ``--model`` help: "o3-mini, o1, o1-mini, gpt-4o, gpt-4o-mini")."""
    return model is not None and _O_SERIES.match(model.rsplit("/", 1)[-1]) is not None


def personamem_messages(inp: AnswerInput, merge) -> list[dict]:
    """The official messages of ``inp``: the retrieved items as chat turns (an item without a role is sent as a user
    turn), then the question turn; merged by :func:`convert_role_system_to_user` when ``merge(inp.model)``.

    Raises:
        ConfigurationError: the question has no options (the prompt is PersonaMem's: four ``"(x) …"`` options).
    """
    if not inp.options:
        raise ConfigurationError(
            "answer prompt personamem: the question has no options; it renders PersonaMem's four-option questions"
        )
    final = inp.question + "\n\n" + INSTRUCTIONS + "\n\n" + str(list(inp.options))  # query_llm, l.30
    messages = [{"role": item.role or "user", "content": item.text} for item in inp.items]
    messages.append({"role": "user", "content": final})
    return convert_role_system_to_user(messages) if merge(inp.model) else messages


_NOTES = (
    "the history is what the memory retrieved, in its order, each item a chat turn with its role (full-context: every "
    "message up to the question's position, the official context); an item without a role is sent as a user turn",
    "all_options is rebuilt as str(list(options)), the CSV cell for all 589 questions of the 32k split",
    "no request parameter besides model and messages, as the official call",
)

#: The official request, with its condition for the merge: any model whose name contains ``o`` (gpt-4o, gpt-4o-mini).
PERSONAMEM = register_answer_prompt(
    AnswerPrompt(
        name="personamem",
        title="PersonaMem's official request: the context as chat turns, then the question with its four options; "
        "system turns merged for every model whose name contains the letter o",
        source=SOURCE,
        templates=_TEMPLATES,
        render=lambda inp: personamem_messages(inp, merges_roles),
        benchmarks=("personamem",),
        notes=(
            *_NOTES,
            "the merge (convert_role_system_to_user) applies when 'o' is in the model's name, as the official code "
            "tests it: gpt-4o and gpt-4o-mini too; personamem-o-series applies it to o1/o3/o4 models only",
        ),
        default_for=("personamem",),
    )
)

#: The same request with the merge applied only to the o-series reasoning models it was written for.
PERSONAMEM_O_SERIES = register_answer_prompt(
    AnswerPrompt(
        name="personamem-o-series",
        title="PersonaMem's official request, system turns merged only for o-series models (o1, o1-mini, o3-mini, "
        "o4-mini), not for gpt-4o",
        source=SOURCE,
        templates=_TEMPLATES,
        render=lambda inp: personamem_messages(inp, merges_roles_o_series),
        benchmarks=("personamem",),
        notes=(
            *_NOTES,
            "not the official condition: the merge applies to o-series model names (o<digit>..., after a provider "
            "prefix) only; gpt-4o and gpt-4o-mini keep their system turns",
        ),
    )
)
