"""What an identifier may be: the one rule both readers and the TREC/TSV writers apply.

Identifiers (LoCoMo ``sample_id``, ``dia_id``, evidence ids and session numbers; LongMemEval
``question_id``, haystack and answer session ids) are repeated in every output line that names them:
``himga qrels`` writes one ``candidates.turn.tsv`` line per question and turn, each holding the qualified
query and document ids. An unbounded id makes the outputs unbounded (a 200,000-character ``sample_id`` in
a 0.5 MB file gave a 33 GB ``candidates.turn.tsv``), so ids are limited to :data:`MAX_ID_LENGTH`
characters (the benchmark files' longest is under 40), and every output line is at most a few times that.
Control characters, whitespace (any Unicode space: a no-break space, a line separator) and the empty id are refused
too: a TREC or TSV reader splits or cuts at them, and an empty id makes a qualified id such as ``:0``.
"""

from __future__ import annotations

import re
import unicodedata

from himga.errors import ConfigurationError

__all__ = ["MAX_ID_LENGTH", "MAX_QUALIFIED_ID_LENGTH", "id_problem", "trec_id"]

#: The longest identifier a source may hold, in characters (the benchmark files' ids are under 40).
MAX_ID_LENGTH = 128
#: The longest id written to a TREC/TSV file: a LoCoMo document id ``<sample_id>:S<n>`` qualifies two source ids.
MAX_QUALIFIED_ID_LENGTH = 2 * MAX_ID_LENGTH + 2
_PLAIN = re.compile(r"[!-~]+").fullmatch


def id_problem(value: str, limit: int = MAX_ID_LENGTH, *, controls: bool = True) -> str | None:
    """What is wrong with identifier ``value``, as the ``detail`` of an error, or ``None``.

    Args:
        value: The identifier (a ``str``).
        limit: Its longest allowed length in characters (default :data:`MAX_ID_LENGTH`).
        controls: Refuse control characters, whitespace and the empty id (``False`` for a list of ids that
            whitespace separates, such as a LoCoMo evidence entry ``"D8:6\\tD9:17"``, whose parts are checked
            after the split: then only the length is checked).

    Returns:
        ``"expected an id of at most 128 characters, got 200,000"``, ``"expected an id without control
        characters, got 'x\\x00y'"`` (NUL, ESC, newline, tab: any Unicode ``Cc``; a TREC reader such as
        pytrec_eval cuts ``x\\0y`` at the NUL into a phantom query ``x``), ``"expected an id without whitespace,
        got 'q 1'"`` (any character :meth:`str.isspace` calls whitespace: ``'q\\xa0x'``, ``'q\\u2028x'``; TREC
        readers split lines at whitespace), ``"expected a non-empty id, got ''"``, or ``None``.
    """
    if len(value) > limit:
        return f"expected an id of at most {limit} characters, got {len(value):,}"
    if not controls:
        return None
    if _PLAIN(value):  # printable ASCII, no space: the ids of every released file, checked at C speed
        return None
    if not value.isprintable() and any(unicodedata.category(c) == "Cc" for c in value):
        return f"expected an id without control characters, got {value!r}"
    if not value:
        return "expected a non-empty id, got ''"
    if any(c.isspace() for c in value):
        return f"expected an id without whitespace, got {value!r}"
    return None


def trec_id(value: str, what: str) -> str:
    """``value`` if it may be written as an id of a TREC/TSV file (a qrels, run or candidates line).

    Args:
        value: The id.
        what: What it is, for the message (``"query id"``, ``"document id"``, ``"run tag"``).

    Raises:
        ConfigurationError: not a string, or :func:`id_problem` with the limit :data:`MAX_QUALIFIED_ID_LENGTH`
            (empty, whitespace or a control character inside, too long; shown cut to 40 characters).
    """
    if not isinstance(value, str):
        raise ConfigurationError(
            f"cannot write TREC files: {what} {value!r} is {type(value).__name__}, expected a string"
        )
    if (problem := id_problem(value, MAX_QUALIFIED_ID_LENGTH)) is not None:  # before showing it
        raise ConfigurationError(
            f"cannot write TREC files: {what} {value[:40]!r}{'...' if len(value) > 40 else ''}: {problem}"
        )
    return value
