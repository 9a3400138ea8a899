"""Deterministic files in the raw LongMemEval layout, at any scale, written as a stream.

The real ``longmemeval_s_cleaned.json`` (277 MB) and ``longmemeval_m_cleaned.json`` (~2.5 GB) cannot
be vendored or downloaded everywhere, so the scale tests and ``benchmarks/`` use files written here.
The layout is the real one (a JSON list of question dicts; keys in the real order ``question_id``,
``question_type``, ``question``, ``answer``, ``question_date``, ``haystack_dates``,
``haystack_session_ids``, ``haystack_sessions``, ``answer_session_ids``; turns ``{"role", "content"}``)
and the file carries the quirks of the real S/M files (listed in ``../shared/data/README.md`` and the
dataset card, measured on 99 real oracle entries; the S figures are LongMemEval's published ones, not
re-counted here):

* question types in the cleaned-S proportions (133 multi-session, 133 temporal-reasoning,
  78 knowledge-update, 70 single-session-user, 56 single-session-assistant, 30
  single-session-preference per 500 questions) and 30 abstention questions per 500, marked only by
  an id ending in ``_abs`` (they keep their type; their answer is an explanation);
* answers mostly strings, some integers;
* ``has_answer`` on every turn of an answer session and on no other turn; a few answer sessions have
  no ``true`` turn;
* dates ``YYYY/MM/DD (Ddd) HH:MM``; haystacks in file order that is often not chronological, and some
  sessions dated after the question;
* filler sessions drawn from a shared pool, so many session ids (with identical turns) recur across
  questions, and a few haystacks hold the same id twice (with different dates; 13 cleaned-S haystacks
  do, per the dataset card);
* blank turns, rare very long turns (up to ~90k characters), non-ASCII text (accents, CJK, emoji
  outside the BMP) and characters JSON must escape (quotes, backslashes, newlines, tabs).

Every file of at least 8 questions holds each quirk at least once (questions 0-7 of every hundred
force one each); beyond that they occur at seeded rates. The pool depends on ``sessions`` only, so the
first N questions of a file are the file written with ``questions=N``.

The output depends only on ``(questions, sessions, seed)`` (``random.Random`` with string seeds, which
are hashed with SHA-512, so ``PYTHONHASHSEED`` does not matter). Defaults (S-scale: 500 questions, ~48
sessions each) give 259,675,208 bytes (sha256 59ddb3c5c99145d24988805b733fe52c09d9aee001be6c4790ee385f19f41c03),
500 questions (30 abstentions), 24,075 session entries (19,792 distinct ids) and 247,143 turns, in
12-25 s; ``sessions=480`` gives an M-scale file (~2.6 GB). Memory stays bounded by one question: each
question is generated, written and dropped; filler sessions are regenerated from their pool index
instead of being kept.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

__all__ = ["GeneratedFile", "iter_questions", "main", "write_longmemeval_like"]

# Cleaned-S counts per 500 questions (LongMemEval's published statistics; also in the dataset card).
TYPE_COUNTS = (
    ("multi-session", 133),
    ("temporal-reasoning", 133),
    ("knowledge-update", 78),
    ("single-session-user", 70),
    ("single-session-assistant", 56),
    ("single-session-preference", 30),
)
ABSTENTIONS_PER_500 = 30

_VOCABULARY = (
    "the of and to in is you that it for was on are with as I his they be at one have this from or had by "
    "but what some we can out other were all there when up use your how said an each she which do their "
    "time if will way about many then them write would like so these her long make thing see him two has "
    "look more day could go come did number sound no most people my over know water than call first who "
    "may down side been now find any new work part take get place made live where after back little only "
    "round man year came show every good me give our under name very through just form sentence great "
    "think say help low line differ turn cause much mean before move right boy old too same tell does set "
    "recommend schedule budget recipe marathon spreadsheet itinerary garden project weekend meeting "
    "Kyoto café naïve résumé jalapeño Zürich São Paulo 東京 北京 día señor € ¥ — – … "
    '“curly” "quoted" back\\slash tab\there line\nbreak two\n\nparagraphs emoji🙂 rocket🚀'
).split(" ")
_ABSTENTION_ANSWER = "The information provided is not enough. You did not mention {}."
_BASE = dt.datetime(2023, 1, 1, 9, 0)


@dataclass(frozen=True)
class GeneratedFile:
    """What :func:`write_longmemeval_like` wrote.

    Attributes:
        path: The file written.
        questions: Question dicts (rows of the built dataset).
        session_entries: Haystack entries summed over questions (repeats counted every time).
        turns: Turns summed over all haystack entries.
        abstentions: Questions whose id ends in ``_abs``.
        bytes: File size in bytes.
    """

    path: Path
    questions: int
    session_entries: int
    turns: int
    abstentions: int
    bytes: int


def _rng(seed: int, *parts: object) -> random.Random:
    return random.Random(":".join(["himga-longmemeval-like", str(seed), *map(str, parts)]))


def _text(rng: random.Random, n_words: int) -> str:
    return " ".join(rng.choices(_VOCABULARY, k=n_words))


def _turns(rng: random.Random, *, evidence: bool, blank: bool = False, giant: bool = False) -> list[dict]:
    """One session's turns; ``has_answer`` only when ``evidence`` (an answer session)."""
    n = rng.choice((2, 4, 6, 8, 10, 12, 14, 16, 20)) + (rng.random() < 0.05)
    first = "assistant" if rng.random() < 0.02 else "user"
    other = "user" if first == "assistant" else "assistant"
    true_turn = -1 if rng.random() < 0.04 else (0 if first == "user" else 1)  # -1: no has_answer true
    turns = []
    for i in range(n):
        role = first if i % 2 == 0 else other
        words = rng.randint(8, 128) if role == "user" else rng.randint(40, 546)
        if rng.random() < 0.0008:
            words = rng.randint(6000, 14000)
        content = "" if rng.random() < 0.0005 else _text(rng, words)
        turn = {"role": role, "content": content}
        if evidence:
            turn["has_answer"] = i == true_turn
        turns.append(turn)
    if blank:
        turns[-1]["content"] = ""
    if giant:
        turns[-1]["content"] = _text(rng, 14000)
    return turns


def _filler(seed: int, index: int) -> tuple[str, list[dict]]:
    """Pool session ``index``: a unique id and its turns, the same every time it is drawn."""
    rng = _rng(seed, "filler", index)
    h = (index * 2654435761) % 2**32  # a bijection on 32 bits: distinct indices, distinct ids
    kind = index % 3
    sid = (f"sharegpt_{h:08x}_{rng.randrange(9)}", f"ultrachat_{h}", f"{h:08x}_{rng.randint(1, 3)}")[kind]
    return sid, _turns(rng, evidence=False)


def _date(d: dt.datetime) -> str:
    return d.strftime("%Y/%m/%d (%a) %H:%M")


def _plan(seed: int) -> list[tuple[str, bool]]:
    """500 (question_type, abstention) pairs in the cleaned-S proportions, in a seeded order."""
    plan = [(qtype, False) for qtype, count in TYPE_COUNTS for _ in range(count)]
    eligible = [i for i, (qtype, _) in enumerate(plan) if qtype != "single-session-preference"]
    for i in _rng(seed, "abstentions").sample(eligible, ABSTENTIONS_PER_500):
        plan[i] = (plan[i][0], True)
    _rng(seed, "plan").shuffle(plan)
    first_abs = next(i for i, (_, is_abs) in enumerate(plan) if is_abs)
    plan[0], plan[first_abs] = plan[first_abs], plan[0]  # every file starts with an abstention question
    return plan


def _question(q: int, qtype: str, is_abs: bool, sessions: int, seed: int) -> dict:
    rng = _rng(seed, "question", q)
    forced = (
        q % 100
    )  # 0 and 7 share a filler, 1 blank turn, 2 giant turn, 3 duplicate id, 4 int answer, 5 late session, 6 unsorted
    qid = f"{rng.randrange(16**8):08x}" if rng.random() < 0.7 else f"gpt4_{rng.randrange(16**8):08x}"
    evidence_hex = f"{rng.randrange(16**8):08x}"
    if is_abs:
        qid += "_abs"
        evidence_hex += "_abs"
    n_evidence = 1 if qtype.startswith("single-session") else rng.randint(2, 4)
    n = max(n_evidence + 1, round(rng.gauss(sessions, sessions * 0.12)))
    qdate = _BASE + dt.timedelta(days=rng.randint(60, 240), minutes=rng.randint(0, 1439))
    pool = max(8, int(sessions * 2.2 * 500))
    ids, haystack = [], []
    for _ in range(n):
        sid, turns = _filler(seed, rng.randrange(pool))
        ids.append(sid)
        haystack.append(turns)
    dates = [qdate - dt.timedelta(days=rng.randint(0, 59), minutes=rng.randint(1, 1439)) for _ in range(n)]
    answer_ids = [f"answer_{evidence_hex}_{k + 1}" for k in range(n_evidence)]
    positions = rng.sample(range(n), n_evidence)
    for k, pos in enumerate(positions):
        ids[pos] = answer_ids[k]
        haystack[pos] = _turns(rng, evidence=True, blank=forced == 1 and k == 0, giant=forced == 2 and k == 0)
    if forced in (0, 7):  # questions 0 and 7 share pool session 0
        shared = next(i for i in range(n) if i not in positions)
        ids[shared], haystack[shared] = _filler(seed, 0)
    if forced == 3:  # one filler id twice, two different dates (pool draws repeat ids in ~2% more)
        src, dst = rng.sample([i for i in range(n) if i not in positions], 2)
        ids[dst], haystack[dst] = ids[src], haystack[src]
    order = list(range(n))
    if forced != 6 and rng.random() < 0.6:
        order.sort(key=dates.__getitem__)
    elif forced == 6 or rng.random() < 0.5:
        rng.shuffle(order)
    if forced == 6 and order == sorted(order, key=dates.__getitem__):
        order.reverse()
    if forced == 5 or rng.random() < 0.15:  # a session dated after the question
        dates[order[-1]] = qdate + dt.timedelta(days=rng.randint(1, 5), minutes=rng.randint(0, 1439))
    if is_abs:
        answer: object = _ABSTENTION_ANSWER.format(_text(rng, rng.randint(3, 12)))
    elif forced == 4 or (qtype == "multi-session" and rng.random() < 0.25):
        answer = rng.randint(1, 20)
    else:
        answer = _text(rng, rng.randint(1, 25))
    return {
        "question_id": qid,
        "question_type": qtype,
        "question": _text(rng, rng.randint(6, 30)) + "?",
        "answer": answer,
        "question_date": _date(qdate),
        "haystack_dates": [_date(dates[i]) for i in order],
        "haystack_session_ids": [ids[i] for i in order],
        "haystack_sessions": [haystack[i] for i in order],
        "answer_session_ids": answer_ids,
    }


def iter_questions(questions: int = 500, sessions: int = 48, *, seed: int = 0) -> Iterator[dict]:
    """Yield the question dicts of a LongMemEval-shaped file one at a time.

    Args:
        questions: Number of question dicts (500 in the real S and M files).
        sessions: Mean haystack sessions per question (48 ≈ S, 480 ≈ M; at least the answer sessions
            plus one).
        seed: Any int; the same arguments always give the same dicts.

    Yields:
        dict: One raw question dict (the layout described in the module docstring).

    Raises:
        ValueError: ``questions < 0`` or ``sessions < 2``.
    """
    if questions < 0 or sessions < 2:
        raise ValueError(f"expected questions >= 0 and sessions >= 2, got questions={questions}, sessions={sessions}")
    plan = _plan(seed)
    for q in range(questions):
        qtype, is_abs = plan[q % len(plan)]
        yield _question(q, qtype, is_abs, sessions, seed)


def write_longmemeval_like(
    path: str | os.PathLike, questions: int = 500, sessions: int = 48, *, seed: int = 0, progress: bool = False
) -> GeneratedFile:
    """Write a LongMemEval-shaped JSON file, streaming one question at a time.

    The file appears at ``path`` only when complete (it is written to ``path + ".part"`` first).

    Args:
        path: Output file.
        questions: Number of questions (500 for S/M scale).
        sessions: Mean haystack sessions per question (48 ≈ S, ~259 MB at 500 questions; 480 ≈ M, ~2.6 GB).
        seed: Any int; the file's bytes depend only on ``(questions, sessions, seed)``.
        progress: Show a progress bar on stderr (``tqdm``: questions written, of ``questions``, and the time left).

    Returns:
        GeneratedFile: The path and the counts written (questions, session entries, turns, abstentions, bytes).

    Raises:
        ValueError: ``questions < 0`` or ``sessions < 2``.
        OSError: The file cannot be written.
    """
    from himga.run import output_file

    path = Path(path)
    n_questions = n_sessions = n_turns = n_abs = 0
    bar = tqdm(total=questions, unit=" questions", desc=f"Writing {path.name}", disable=not progress, file=sys.stderr)
    with output_file(path, newline="", part=path.name + ".part") as f, bar:
        f.write("[")
        for item in iter_questions(questions, sessions, seed=seed):
            bar.update(1)
            f.write(", " if n_questions else "")
            f.write(json.dumps(item, ensure_ascii=False))
            n_questions += 1
            n_sessions += len(item["haystack_sessions"])
            n_turns += sum(map(len, item["haystack_sessions"]))
            n_abs += item["question_id"].endswith("_abs")
        f.write("]")
    return GeneratedFile(path, n_questions, n_sessions, n_turns, n_abs, path.stat().st_size)


#: Mean haystack sessions per question of an M-scale file (``--m-scale``, as ``benchmarks/run.py --m-scale``).
M_SESSIONS = 480


def main(argv: list[str] | None = None) -> int:
    """``python -m himga.testing OUT.json [--questions N] [--sessions N | --m-scale] [--seed N]``; prints the counts."""
    ap = argparse.ArgumentParser(prog="python -m himga.testing", description="Write a LongMemEval-shaped JSON file.")
    ap.add_argument("out", type=Path)
    ap.add_argument("--questions", type=int, default=500, help="questions (default 500)")
    scale = ap.add_mutually_exclusive_group()
    scale.add_argument("--sessions", type=int, default=48, help="mean haystack sessions per question (48 ≈ S, 480 ≈ M)")
    scale.add_argument(
        "--m-scale",
        dest="sessions",
        action="store_const",
        const=M_SESSIONS,
        help=f"an M-scale file: --sessions {M_SESSIONS} (~2.6 GB)",
    )
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    try:
        written = write_longmemeval_like(args.out, args.questions, args.sessions, seed=args.seed, progress=True)
    except KeyboardInterrupt:  # Ctrl-C: one line, the shell's status for SIGINT; the partial file is removed
        print(f"\npython -m himga.testing: interrupted; {args.out} not written", file=sys.stderr)
        return 130
    print(
        f"{written.path}: {written.bytes} bytes, {written.questions} questions, {written.session_entries} "
        f"session entries, {written.turns} turns, {written.abstentions} abstentions"
    )
    return 0
