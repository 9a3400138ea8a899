"""The answer step of a run: the rendered prompt sent to an OpenAI-compatible endpoint, or ``extractive``.

``extractive`` needs no model: the answer is the text of the top retrieved item, so a run works end to end on a fresh
machine and gives a floor every paper could print (the official F1 of what was retrieved). It is named in the manifest
like any model.
"""

from __future__ import annotations

from dataclasses import dataclass

from himga.endpoint import NoCompletion, hidden, no_answer, openai_module, read_completion, sync_client
from himga.memory import Retrieved

__all__ = ["EXTRACTIVE", "Answer", "EndpointAnswerer", "ExtractiveAnswerer", "StopRun", "Unanswered"]

#: The answer model that is no model: the top retrieved item's text.
EXTRACTIVE = "extractive"


@dataclass(frozen=True)
class Answer:
    """One answer: its text, the model the endpoint says answered, and the tokens it counted (``None``: not
    reported)."""

    text: str
    model: str
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    empty: str | None = None  # why a model's reply holds no answer (null or blank content), else None


class StopRun(Exception):
    """A fault that no retry mends (a refused key, an unknown model, a prompt longer than the model takes): the run
    stops with this one line; the records written stay."""


class Unanswered(Exception):
    """A request still failing after the client's retries (429, 5xx, timeouts): the question stays unanswered, the run
    goes on, and a rerun asks it again."""


class ExtractiveAnswerer:
    """``--answer-model extractive``: the text of the top retrieved item ("" without any)."""

    model = EXTRACTIVE

    def answer(self, messages: list[dict], items: list[Retrieved]) -> Answer:
        return Answer(items[0].text if items else "", EXTRACTIVE)


class EndpointAnswerer:
    """An answer model behind an OpenAI-compatible ``/v1/chat/completions`` endpoint, through the ``openai`` client (its
    retries); one client shared by every thread."""

    def __init__(
        self, model: str, *, base_url: str | None, api_key_env: str, max_retries: int, timeout: float, parameters: dict
    ):
        self.model = model
        self.parameters = dict(parameters)
        self._openai = openai_module()
        self._client = sync_client(base_url=base_url, api_key_env=api_key_env, max_retries=max_retries, timeout=timeout)
        self._secret = self._client.api_key

    def answer(self, messages: list[dict], items: list[Retrieved]) -> Answer:
        """The model's answer to ``messages``.

        Raises:
            StopRun: 400, 401, 403, 404, 422 (a request the endpoint will refuse again), a reply that is no chat
                completion (not JSON, no choices).
            Unanswered: a connection error, a timeout, 429 or a server error after the client's retries.

        A reply whose content is null or blank is the model's answer ``""`` (scored wrong, as the official scorers
        score it), with ``empty`` saying what came back; the run counts them at its end.
        """
        openai = self._openai
        try:
            response = self._client.chat.completions.create(model=self.model, messages=messages, **self.parameters)
        except (
            openai.AuthenticationError,
            openai.PermissionDeniedError,
            openai.NotFoundError,
            openai.BadRequestError,
            openai.UnprocessableEntityError,
        ) as e:
            raise StopRun(f"{e.status_code}: {hidden(_message(e), self._secret)}") from None
        except ValueError:  # a 200 declared JSON whose body is not (json.JSONDecodeError)
            response = "(a body that is not JSON)"
        except openai.APIError as e:
            status = getattr(e, "status_code", None)
            raise Unanswered(
                f"{type(e).__name__}{f' {status}' if status else ''}: {hidden(str(e), self._secret)}"
            ) from None
        try:
            content, model, reason = read_completion(response)
        except NoCompletion as e:  # every other request would get the same: the run stops
            raise StopRun(hidden(str(e), self._secret)) from None
        empty = no_answer(content)  # still the model's answer, scored wrong as the official scorers do; counted
        if empty and reason:
            empty += f" (finish_reason {reason})"
        usage = getattr(response, "usage", None)
        return Answer(
            content or "",
            model or self.model,
            _count(getattr(usage, "prompt_tokens", None)),
            _count(getattr(usage, "completion_tokens", None)),
            empty,
        )


def _count(value) -> int | None:
    """A token count as the endpoint reported it; ``None`` for anything that is no count."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _message(error) -> str:
    body = getattr(error, "body", None)
    if isinstance(body, dict) and isinstance(body.get("message"), str):
        return body["message"]
    return str(error)
