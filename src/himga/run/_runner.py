"""The run: the seed's evaluation loop as one function (:func:`run`, ``himga run``) that resumes, accounts and records
what makes a number comparable.

Per sample, one fresh memory (the factory's): ``reset``, the history ingested in order (up to each question's position
where the benchmark asks in the middle of it), ``ready`` waited on, then per question ``retrieve(question, k, now)``;
each question's answer is asked of the answer model in a pool of ``concurrency`` threads while the next samples are
ingested. Every answer is one line of ``records.jsonl`` the moment it arrives (:mod:`._folder`); a rerun asks only the
questions without a line, re-ingesting their samples (a memory's state lives in its process).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import FIRST_EXCEPTION, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field

from himga.errors import HimgaError
from himga.memory import BaseMemory, MemoryMessage, MemorySession, NotItems, Retrieved, as_items, retrieve_accepts
from himga.run._answer import Answer, StopRun, Unanswered
from himga.run._folder import RECORDS, SAMPLES, RunFolder
from himga.run._retrieved import kept, retrieved_ids
from himga.run.prompts import AnswerInput, AnswerPrompt

__all__ = ["RunStopped", "Work", "work_through"]


class RunStopped(HimgaError):
    """A run stopped by a fault no retry mends: a memory that raised or returned no items, a refused request. The
    records written stay; the message names the sample or question and the cause."""


@dataclass
class Question:
    """One question of a planned sample: the view's question and the ids a record names it by."""

    view_id: str
    item_id: str
    question: str
    date: str | None
    position: int | None
    order: int
    options: tuple[str, ...] = ()


@dataclass
class Work:
    """What a run asks, and how (everything but the samples themselves).

    Attributes:
        memory: ``() -> memory``, one per sample.
        answer: The answer model (``.answer(messages, items) -> Answer``).
        prompt: The answer prompt.
        top_k: ``k`` of every ``retrieve``.
        concurrency: Answers in flight at once (and samples ingested at once, at most).
        folder: The run folder.
        pending: The view question ids to ask.
        allow_empty: Go on when a memory retrieves nothing for every question of a sample.
        ready_timeout: Seconds to wait on ``ready()``.
        on_answer: Called after each record is written (the progress bar).
        reads_gold: The memory reads gold (the oracle): it is given the Sample (``bind(sample)``, after ``reset``) and
            the question's item id (``select(item_id)``, before each ``retrieve``); no other memory is.
    """

    memory: Callable[[], object]
    answer: object
    prompt: AnswerPrompt
    top_k: int
    concurrency: int
    folder: RunFolder
    pending: set[str]
    allow_empty: bool = False
    ready_timeout: float = 600.0
    on_answer: Callable[[], None] = lambda: None
    reads_gold: bool = False
    unanswered: list[str] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)  # a fault: no more answers are asked
    halt: threading.Event = field(default_factory=threading.Event)  # Ctrl-C: the samples stop too


def _memory_messages(view) -> list[MemoryMessage]:
    return [
        MemoryMessage(m.role, m.content, m.turn_id, m.date_str, s.session_id) for s in view.sessions for m in s.messages
    ]


def _call(memory, method: str, sample: str, *args, **kwargs):
    """``memory.<method>(...)``; what it raises is a :class:`RunStopped` naming the sample and the method."""
    try:
        return getattr(memory, method)(*args, **kwargs)
    except RunStopped:
        raise
    except Exception as e:
        raise RunStopped(
            f"memory {_name(memory)}: {method}() raised on sample {sample}: {type(e).__name__}: {e}"
        ) from e


def _name(memory) -> str:
    describe = getattr(memory, "describe", None)
    if callable(describe):
        try:
            return str(describe().get("name"))
        except Exception:
            pass
    return f"{type(memory).__module__}:{type(memory).__qualname__}"


def _ingest(memory, messages: list[MemoryMessage], sample: str, sessions: dict[str, str | None]) -> None:
    """Give ``messages`` (in order) to ``memory``: by session when it takes whole sessions (a session cut by a
    question's position is given in parts, each message once), else one by one."""
    by_session = isinstance(memory, BaseMemory) and type(memory).ingest_session is not BaseMemory.ingest_session
    if not by_session:
        for message in messages:
            _call(memory, "ingest", sample, message)
        return
    start = 0
    for n in range(1, len(messages) + 1):
        if n == len(messages) or messages[n].session_id != messages[start].session_id:
            sid = messages[start].session_id
            _call(memory, "ingest_session", sample, MemorySession(sid, sessions.get(sid), tuple(messages[start:n])))
            start = n


def _wait_ready(memory, sample: str, timeout: float) -> float:
    """Wait until ``memory.ready()`` (a memory without the hook is ready); returns the seconds waited.

    Raises:
        RunStopped: not ready after ``timeout`` seconds.
    """
    if not callable(getattr(memory, "ready", None)):
        return 0.0
    start = time.perf_counter()
    delay = 0.01
    while not _call(memory, "ready", sample):
        if time.perf_counter() - start > timeout:
            raise RunStopped(f"memory {_name(memory)}: not ready {timeout:g} s after sample {sample} was ingested")
        time.sleep(delay)
        delay = min(delay * 2, 1.0)
    return time.perf_counter() - start


def _retrieve(memory, accepts: set[str], question: Question, k: int, now: str | None, sample: str) -> list[Retrieved]:
    kwargs = {name: value for name, value in (("k", k), ("now", now)) if name in accepts}
    found = _call(memory, "retrieve", sample, question.question, **kwargs)
    try:
        return as_items(found)
    except NotItems as e:
        raise RunStopped(
            f"memory {_name(memory)}: retrieve() on sample {sample} returned what is not items: {e}"
        ) from None


def process_sample(
    work: Work, sample, view, ids, questions: list[Question], pool: ThreadPoolExecutor, answers: list[Future]
) -> None:
    """Ingest one sample and ask its pending questions; the answers go to ``pool`` (their futures into ``answers``).

    Raises:
        RunStopped: the memory raised, was not ready, returned something else than items, or nothing for every
            question (unless ``work.allow_empty``).
    """
    name = sample.sample_id
    memory = work.memory()
    started = time.perf_counter()
    _call(memory, "reset", name)
    if work.reads_gold:
        _call(memory, "bind", name, sample)
    messages = _memory_messages(view)
    sessions = {s.session_id: s.date_str for s in view.sessions}
    accepts = retrieve_accepts(memory)
    speakers = tuple(s for s in (view.speaker_a, view.speaker_b) if s)
    qa_of = dict(zip(ids.questions, sample.qa_pairs, strict=True)) if work.prompt.reads_gold else {}
    asked = sorted(
        (q for q in questions if q.view_id in work.pending),
        key=lambda q: len(messages) if q.position is None else q.position,
    )
    cursor, ingest_s, ready_s, empty = 0, 0.0, 0.0, 0
    for question in asked:
        if work.halt.is_set():
            return
        target = len(messages) if question.position is None else min(question.position, len(messages))
        if target > cursor:
            t = time.perf_counter()
            _ingest(memory, messages[cursor:target], name, sessions)
            ingest_s += time.perf_counter() - t
            cursor = target
            ready_s += _wait_ready(memory, name, work.ready_timeout)
        now = question.date or next((m.date_str for m in reversed(messages[:cursor]) if m.date_str), None)
        if work.reads_gold:
            _call(memory, "select", name, question.item_id)
        t = time.perf_counter()
        items = _retrieve(memory, accepts, question, work.top_k, now, name)
        retrieve_ms = (time.perf_counter() - t) * 1000
        explained = _call(memory, "explain", name) if callable(getattr(memory, "explain", None)) else None
        empty += not items
        if not work.stop.is_set():  # after a fault elsewhere, the sample's check still runs, its answers are not asked
            extras = {"speakers": speakers, "gold": work.prompt.gold(qa_of[question.view_id]) if qa_of else None}
            answers.append(pool.submit(_answer, work, question, items, now, retrieve_ms, ids, explained, extras))
    work.folder.append(
        SAMPLES,
        {
            "sample_id": name,
            "view_sample_id": view.sample_id,
            "messages": cursor,
            "questions": len(asked),
            "ingest_ms": round(ingest_s * 1000, 3),
            "ready_ms": round(ready_s * 1000, 3),
            "total_ms": round((time.perf_counter() - started) * 1000, 3),
        },
    )
    if asked and empty == len(asked) and not work.allow_empty:
        raise RunStopped(
            f"no context retrieved for any of the {len(asked)} questions of sample {name}: was anything "
            "ingested? (--allow-empty-retrieval runs anyway)"
        )


def _answer(
    work: Work,
    question: Question,
    items: list[Retrieved],
    now: str | None,
    retrieve_ms: float,
    ids,
    explained,
    extras: dict,
) -> None:
    if work.stop.is_set():
        return
    model = getattr(work.answer, "model", None)
    messages = work.prompt.render(AnswerInput(question.question, now, items, question.options or None, model, **extras))
    t = time.perf_counter()
    try:
        answer: Answer = work.answer.answer(messages, items)
    except StopRun as e:
        raise RunStopped(
            f"question {question.item_id}: the answer model refused the request ({e}); the records written are kept"
        ) from None
    except Unanswered as e:
        work.unanswered.append(f"{question.item_id}: {e}")
        return
    answer_ms = (time.perf_counter() - t) * 1000
    record = {
        "order": question.order,
        "question_id": question.item_id,
        "view_question_id": question.view_id,
        "question": question.question,
        "response": answer.text,
        **({"hypothesis": work.prompt.extract(answer.text)} if work.prompt.extract else {}),
        "retrieved": [kept(item) for item in items],
        **retrieved_ids(items, ids),
        "model": answer.model,
        **({"empty_reply": answer.empty} if answer.empty else {}),
        "usage": {"prompt_tokens": answer.prompt_tokens, "completion_tokens": answer.completion_tokens},
        "latency_ms": {"retrieve": round(retrieve_ms, 3), "answer": round(answer_ms, 3)},
    }
    if explained:
        record["memory"] = explained
    work.folder.append(RECORDS, record)
    work.on_answer()


def work_through(work: Work, samples) -> None:
    """Run every sample of ``samples`` (``(sample, view, view ids, questions)``, lazily made) through ``work``.

    Raises:
        RunStopped: the first fault (the other workers stop; the records written stay).
        KeyboardInterrupt: Ctrl-C (the same: workers stop, records stay).
    """
    answers: list[Future] = []
    pool = ThreadPoolExecutor(work.concurrency, thread_name_prefix="himga-answer")
    ingest = ThreadPoolExecutor(max(1, min(work.concurrency, 8)), thread_name_prefix="himga-sample")
    slots = threading.BoundedSemaphore(max(1, min(work.concurrency, 8)))  # samples held at once: RSS flat
    jobs: list[Future] = []
    try:
        for sample, view, ids, questions in samples:
            while not slots.acquire(timeout=0.1):
                _raise_first(jobs + answers)
            if work.stop.is_set():
                break
            job = ingest.submit(process_sample, work, sample, view, ids, questions, pool, answers)
            job.add_done_callback(lambda _f: slots.release())
            jobs.append(job)
            _raise_first(jobs + answers)
        while True:
            done, running = wait(jobs + answers, timeout=0.2, return_when=FIRST_EXCEPTION)
            _raise_first(done)
            if not running and len(done) == len(jobs) + len(answers):
                break
    except BaseException as error:
        work.stop.set()
        if not isinstance(error, Exception):  # Ctrl-C: stop the samples too, keep what is written
            work.halt.set()
            pool.shutdown(wait=False, cancel_futures=True)
            ingest.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown(wait=False, cancel_futures=True)
        ingest.shutdown(wait=True, cancel_futures=True)  # the samples started finish their checks
        failed = [f.exception() for f in jobs if f.done() and not f.cancelled() and f.exception() is not None]
        raise (failed[0] if failed else error) from None  # the first fault in dataset order, whichever came first
    pool.shutdown()
    ingest.shutdown()


def _raise_first(futures) -> None:
    for future in list(futures):
        if future.done() and not future.cancelled() and (error := future.exception()) is not None:
            raise error
