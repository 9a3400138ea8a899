"""``beam`` and ``beam-rag``: the answer prompts of BEAM's own probing-question evaluation, byte for byte.

Source: mohammadtavakoli78/BEAM at ``b2a3ee8ba12d68f83143dda191097dc3e028ddd3``:
``src/answer_probing_questions/long_term_memory_methods.py`` ``probing_question_evaluation`` (long-context,
l.534-596; rag, l.598-645), ``handling_context`` (l.467-510), ``create_chunking`` (``turn_chunk``, l.332-360) and
``src/prompts.py`` ``answer_generation_for_rag`` (l.11683-11701). Licence: the repository's. The reader is a
LangChain ``ChatOpenAI`` at ``temperature=0`` (``src/llm.py``).

``beam`` (the long-context run, BEAM's default): the chat's messages as ``{"role", "content"}`` turns, without dates,
then one user turn ``"\\n            NOTE: Only provide the answer without any explanations. \\n            Question:
{query}"`` (the f-string's indentation and the space before the newline kept). The turns are the retrieved items in
the order the memory returned them (``full-context``: the chat in order); a role other than ``user`` or
``assistant`` is sent as ``user``. Not reproduced: ``prune_from_tail``'s cut of the chat to the model's window
(tokens; no tokenizer is assumed), and a quirk of the driver, which appends every earlier question turn of the chat
to the history it reuses (``answer_generation.py`` l.74-75 with l.552-553): from a chat's third question on, the
official request also holds the earlier questions, unanswered.

``beam-rag`` (the rag runs): ``answer_generation_for_rag`` filled by ``str.replace`` (``<context>``, ``<question>``),
one message; the context is the retrieved items written as ``turn_chunk`` writes a turn's messages
(``"<ROLE>: <content> \\n\\n"``), concatenated while ``len(context + text) // 3.5 < 29000`` (an item that does not fit
is skipped, a later shorter one may still be added).
"""

from __future__ import annotations

from himga.run.prompts._prompt import AnswerInput, AnswerPrompt, register_answer_prompt

__all__ = ["ANSWER_GENERATION_FOR_RAG", "BEAM", "BEAM_RAG", "QUESTION_TURN", "SOURCE"]

SOURCE = {
    "repository": "mohammadtavakoli78/BEAM",
    "path": "src/answer_probing_questions/long_term_memory_methods.py",
    "commit": "b2a3ee8ba12d68f83143dda191097dc3e028ddd3",
}
#: The long-context question turn (l.587-592), verbatim.
QUESTION_TURN = "\n            NOTE: Only provide the answer without any explanations. \n            Question: {query}"
#: ``src/prompts.py`` ``answer_generation_for_rag``, verbatim.
ANSWER_GENERATION_FOR_RAG = (
    "\nYou are an assistant that MUST answer questions using ONLY the information provided in the context below. \n"
    "\nSTRICT INSTRUCTIONS:\n1. Answer ONLY based on the provided context\n2. Do NOT use your internal knowledge\n"
    "\nCONTEXT:\n<context>\n\nQUESTION:\n<question>\n\nANSWER REQUIREMENTS:\n- Be direct and concise\n"
    "- Only output the answer to the question without any explanation \n\nRESPONSE:\n"
)
_READER_MAX_TOKENS = 29000  # handling_context's reader_max_tokens, counted as characters // 3.5


def _long_context(inp: AnswerInput) -> list[dict]:
    turns = [{"role": i.role if i.role in ("user", "assistant") else "user", "content": i.text} for i in inp.items]
    return [*turns, {"role": "user", "content": QUESTION_TURN.format(query=inp.question)}]


def _rag(inp: AnswerInput) -> list[dict]:
    context = ""
    for item in inp.items:
        text = f"{(item.role or 'user').upper()}: {item.text} \n\n"
        if len(context + text) // 3.5 < _READER_MAX_TOKENS:
            context += text
    prompt = ANSWER_GENERATION_FOR_RAG.replace("<context>", context).replace("<question>", inp.question)
    return [{"role": "user", "content": prompt}]


BEAM = register_answer_prompt(AnswerPrompt(
    name="beam",
    title="BEAM's long-context answer request (the chat's turns, then the question turn)",
    source={**SOURCE, "symbol": "probing_question_evaluation (long-context)"},
    templates={"question": QUESTION_TURN},
    render=_long_context,
    parameters={"temperature": 0},
    benchmarks=("beam",),
    notes=(
        "prune_from_tail's cut to the model's window is not applied",
        "the driver's accumulation of earlier question turns into the history is not reproduced",
    ),
    default_for=("beam",),
))  # fmt: skip

BEAM_RAG = register_answer_prompt(AnswerPrompt(
    name="beam-rag",
    title="BEAM's rag answer prompt (answer_generation_for_rag, context as turn chunks)",
    source={**SOURCE, "symbol": "probing_question_evaluation (rag), handling_context; src/prompts.py"},
    templates={"user": ANSWER_GENERATION_FOR_RAG},
    render=_rag,
    parameters={"temperature": 0},
    benchmarks=("beam",),
))  # fmt: skip
