"""PersonaMem data-quality rules for ``himga validate`` (see :mod:`himga.validate`). Counts on the 32k split in
brackets:

- ``first_spelling`` [129] and ``second_spelling`` [17]: the questions typed ``recall_user_shared_facts`` and those
  typed ``recalling_facts_mentioned_by_the_user``, which by its name looks like a second spelling of the first; listed
  side by side, never merged (each is its own row of ``himga stats`` and of the score table, as the file has it).
- ``unprefixed_turn`` [246: 175 user, 71 assistant]: a user turn whose text does not start with ``"User: "``, or an
  assistant turn without ``"Assistant: "`` (``"Patient: "``, ``"Therapist: "``, ``"[Original_Conversation]"``, code):
  the prefix is part of the source's text, not a rule, which is why the builder keeps the text as it is.
- ``options_shape`` [0]: options that are not four strings ``"(a) "`` … ``"(d) "`` in order; ``options_not_rebuilt``
  [0]: an ``all_options`` cell that ``str(list(options))`` does not give back byte for byte (the answer prompt
  ``personamem`` sends the rebuilt text, the official request the cell); ``gold_not_an_option`` [0]: a
  ``correct_answer`` that names none of the options' letters.
- ``repeated_question`` [3]: a question equal to an earlier one of its context in every column but ``question_id``
  (same position, text, options and gold): both are kept, and both count, as in the official loop.
- ``letters_mismatch`` [0]: ``context_length_in_letters`` differs from the characters of the turns the question sees
  (the sum of their ``content`` lengths): the end index and the cell disagree.
- ``unknown_role`` [0]: a role other than system, user or assistant; ``blank_turn`` [0]: a turn with no text;
  ``context_without_question`` [0]: a shared context no question is asked in.
"""

from __future__ import annotations

from collections.abc import Iterator

from himga.finding import Finding, blank_turns, unknown_roles

__all__ = ["FIRST_SPELLING", "KINDS", "SECOND_SPELLING", "findings"]

FIRST_SPELLING = "recall_user_shared_facts"
SECOND_SPELLING = "recalling_facts_mentioned_by_the_user"
_PREFIX = {"user": "User: ", "assistant": "Assistant: "}

KINDS = {
    "first_spelling": f"questions typed {FIRST_SPELLING}",
    "second_spelling": f"questions typed {SECOND_SPELLING}: a second spelling of {FIRST_SPELLING}? (kept apart)",
    "unprefixed_turn": "user or assistant turns not starting 'User: ' or 'Assistant: ' (text kept as written)",
    "options_shape": "questions whose options are not four strings '(a) ' ... '(d) ' in order",
    "options_not_rebuilt": "all_options cells that str(list(options)) does not give back",
    "gold_not_an_option": "correct answers naming no option's letter",
    "repeated_question": "questions equal to an earlier one of their context in every column but question_id",
    "letters_mismatch": "context_length_in_letters differing from the characters of the turns the question sees",
    "unknown_role": "turns whose role is not system, user or assistant",
    "blank_turn": "turns with no text",
    "context_without_question": "shared contexts no question is asked in",
}


def _options(qa) -> Iterator[Finding]:
    where = f"QA {qa.question_id}"
    letters = [f"({c})" for c in "abcd"]
    if len(qa.options) != 4 or any(not o.startswith(f"{x} ") for o, x in zip(qa.options, letters, strict=False)):
        yield Finding("options_shape", "", where, f"{len(qa.options)} options: {[o[:12] for o in qa.options]}")
    cell = qa.raw.get("all_options")
    if cell != str(list(qa.options)):
        yield Finding("options_not_rebuilt", "", where, f"{str(cell)[:60]!r}")
    gold = qa.answer.strip().lower()
    if gold not in [o[:3].lower() for o in qa.options]:
        yield Finding("gold_not_an_option", "", where, f"{qa.answer!r}")


def findings(sample) -> Iterator[Finding]:
    """The PersonaMem findings of one Sample built by :func:`himga_personamem.records.context_row`, kinds of
    :data:`KINDS`."""
    sid = sample.sample_id
    messages = [m for s in sample.sessions for m in s.messages]
    by_type = {FIRST_SPELLING: 0, SECOND_SPELLING: 0}
    for qa in sample.qa_pairs:
        if str(qa.question_type) in by_type:
            by_type[str(qa.question_type)] += 1
    for qa in sample.qa_pairs:
        qtype = str(qa.question_type)
        if qtype in by_type:
            kind = "first_spelling" if qtype == FIRST_SPELLING else "second_spelling"
            detail = f"its context: {by_type[FIRST_SPELLING]} and {by_type[SECOND_SPELLING]} of the two spellings"
            yield Finding(kind, sid, f"QA {qa.question_id}", detail)
    for m in messages:
        prefix = _PREFIX.get(m.role)
        if prefix is not None and not m.content.startswith(prefix):
            yield Finding("unprefixed_turn", sid, f"turn {m.turn_id} ({m.role})", repr(m.content[:40]))
    first: dict[str, str] = {}
    for qa in sample.qa_pairs:
        key = repr(sorted((k, v) for k, v in qa.raw.items() if k != "question_id"))
        if (earlier := first.setdefault(key, qa.question_id)) != qa.question_id:
            yield Finding("repeated_question", sid, f"QA {qa.question_id}", f"as QA {earlier}")
    for qa in sample.qa_pairs:
        for f in _options(qa):
            yield Finding(f.kind, sid, f.where, f.detail)
        letters = sum(len(m.content) for m in messages[: qa.position])
        if qa.raw.get("context_length_in_letters") != str(letters):
            yield Finding(
                "letters_mismatch",
                sid,
                f"QA {qa.question_id}",
                f"{qa.raw.get('context_length_in_letters')!r}; the {qa.position} turns seen hold {letters:,}",
            )
    for _i, _j, m in unknown_roles(sample, ("system", "user", "assistant")):
        yield Finding("unknown_role", sid, f"turn {m.turn_id}", repr(m.role))
    for _i, _j, m in blank_turns(sample):
        yield Finding("blank_turn", sid, f"turn {m.turn_id}", repr(m.content))
    if not sample.qa_pairs:
        yield Finding("context_without_question", sid, "", f"{len(messages):,} turns")
