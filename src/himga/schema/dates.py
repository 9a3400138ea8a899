"""Parse the benchmarks' raw date strings into naive :class:`datetime.datetime` values.

The dataclasses keep timestamps as the source strings (``Session.date_str``,
``Sample.raw["question_date"]``); this module turns them into datetimes on demand. Known formats,
tried in this order with :func:`datetime.datetime.strptime` (no guessing, no ``dateutil``):

=====================  ===================================  =====================================
name                   example                              ``strptime`` format
=====================  ===================================  =====================================
``locomo_session``     ``1:56 pm on 8 May, 2023``           ``%I:%M %p on %d %B, %Y``
``locomo_event``       ``8 May, 2023``                      ``%d %B, %Y``
``longmemeval``        ``2023/05/20 (Sat) 02:21``           ``%Y/%m/%d (%a) %H:%M``
``beam``               ``March-15-2024``                    ``%B-%d-%Y``
``realtalk``           ``29.12.2023, 22:42:04``             ``%d.%m.%Y, %H:%M:%S``
``iso_date``           ``2024-03-01``                       ``%Y-%m-%d``
``iso_datetime``       ``2024-03-01T14:30:00``              ``%Y-%m-%dT%H:%M[:%S[.%f]]`` (or a space)
=====================  ===================================  =====================================

Date-only strings give midnight. LongMemEval's weekday is checked against the date: a mismatch
means the string is corrupt, and is an error rather than silently ignored.

**No time zone.** The results are *naive* datetimes. LoCoMo's dates carry no zone or offset (they
are the fictional wall-clock times of the conversations), and neither do LongMemEval's, BEAM's or REALTALK's; attaching
UTC or the local zone would invent information the sources do not have and would make them compare
wrongly with real zoned times. ISO strings with an offset (``+02:00``, ``Z``) are therefore rejected
rather than silently stripped.

Month, weekday and am/pm names are matched by ``strptime`` under the ``LC_TIME`` locale, which is
the C (English) locale unless the program calls ``locale.setlocale``.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterable

from himga.errors import DateFormatError

__all__ = ["FORMATS", "TemporalParser", "parse_date"]

#: The known formats, ``(name, strptime format)``, in the order they are tried.
FORMATS: tuple[tuple[str, str], ...] = (
    ("locomo_session", "%I:%M %p on %d %B, %Y"),
    ("locomo_event", "%d %B, %Y"),
    ("longmemeval", "%Y/%m/%d (%a) %H:%M"),
    ("beam", "%B-%d-%Y"),
    ("realtalk", "%d.%m.%Y, %H:%M:%S"),
    ("iso_date", "%Y-%m-%d"),
    ("iso_datetime", "%Y-%m-%dT%H:%M"),
    ("iso_datetime", "%Y-%m-%dT%H:%M:%S"),
    ("iso_datetime", "%Y-%m-%dT%H:%M:%S.%f"),
    ("iso_datetime", "%Y-%m-%d %H:%M"),
    ("iso_datetime", "%Y-%m-%d %H:%M:%S"),
    ("iso_datetime", "%Y-%m-%d %H:%M:%S.%f"),
)

_EXAMPLES = (
    "'1:56 pm on 8 May, 2023', '8 May, 2023', '2023/05/20 (Sat) 02:21', 'March-15-2024', '29.12.2023, 22:42:04', "
    "'2024-03-01', '2024-03-01T14:30:00'"
)

# strptime's messages when a string simply has another shape (anything else is a bad value, e.g. day 31 in April)
_SHAPE_MISMATCH = ("does not match format", "unconverted data remains")


class TemporalParser:
    """Parses LoCoMo, LongMemEval, BEAM, REALTALK and ISO date strings into naive datetimes.

    Each string is tried against ``formats`` in order (the format that matched last is tried first,
    since one dataset uses one format throughout). See the module docstring for the formats and for
    why no time zone is attached.

    Args:
        formats: ``(name, strptime format)`` pairs; default :data:`FORMATS`. A format with a weekday
            (``%a``/``%A``) is checked: the weekday must be the date's.

    Example:
        >>> parser = TemporalParser()
        >>> parser.parse("12:09 am on 13 September, 2023")
        datetime.datetime(2023, 9, 13, 0, 9)
        >>> parser.match("2023/05/20 (Sat) 02:21")
        ('longmemeval', datetime.datetime(2023, 5, 20, 2, 21))
    """

    def __init__(self, formats: Iterable[tuple[str, str]] = FORMATS) -> None:
        self.formats: tuple[tuple[str, str], ...] = tuple(formats)
        self._last = 0

    def parse(self, value: str | None) -> dt.datetime | None:
        """Parse one raw date string.

        Args:
            value: The raw string (surrounding whitespace is ignored), or ``None``.

        Returns:
            A naive datetime (midnight for date-only strings); ``None`` when ``value`` is ``None``.

        Raises:
            DateFormatError: ``value`` is not a string in a known format, names an impossible date,
                or has a weekday that is not its date's. The message quotes ``value``.
        """
        if value is None:
            return None
        return self.match(value)[1]

    __call__ = parse

    def match(self, value: str) -> tuple[str, dt.datetime]:
        """Parse ``value`` and also tell which format it was in.

        Returns:
            ``(format name, naive datetime)``, e.g. ``("locomo_event", datetime(2023, 5, 8, 0, 0))``.

        Raises:
            DateFormatError: as :meth:`parse`.
        """
        if not isinstance(value, str):
            raise DateFormatError(value, f"expected a string, got {type(value).__name__}")
        text = value.strip()
        order = [self._last, *(i for i in range(len(self.formats)) if i != self._last)]
        bad_value = None
        for i in order:
            name, fmt = self.formats[i]
            try:
                parsed = self._strptime(value, text, fmt)
            except DateFormatError:
                raise
            except ValueError as e:
                if not any(m in str(e) for m in _SHAPE_MISMATCH):
                    bad_value = f"{name} format, but {e}"
                continue
            self._last = i
            return name, parsed
        raise DateFormatError(value, bad_value or f"not in a known format (known: {_EXAMPLES})")

    @staticmethod
    def _strptime(value: str, text: str, fmt: str) -> dt.datetime:
        if "%a" not in fmt and "%A" not in fmt:
            return dt.datetime.strptime(text, fmt)
        # time.strptime keeps the weekday it read (tm_wday) instead of recomputing it from the date
        st = time.strptime(text, fmt)
        parsed = dt.datetime(*st[:6])
        if st.tm_wday != parsed.weekday():
            raise DateFormatError(value, f"the weekday does not match the date: {parsed:%Y-%m-%d} is a {parsed:%A}")
        return parsed


_DEFAULT = TemporalParser()


def parse_date(s: str | None) -> dt.datetime | None:
    """Parse a raw LoCoMo, LongMemEval, REALTALK or ISO date string with the default :class:`TemporalParser`.

    Args:
        s: ``"1:56 pm on 8 May, 2023"``, ``"8 May, 2023"``, ``"2023/05/20 (Sat) 02:21"``,
            ``"2024-03-01"``, ``"2024-03-01T14:30:00"``, or ``None``.

    Returns:
        A naive datetime (no time zone: the sources have none), or ``None`` for ``None``.

    Raises:
        DateFormatError: unknown format, impossible date, or wrong weekday; the message quotes ``s``.

    Example:
        >>> parse_date("1:56 pm on 8 May, 2023")
        datetime.datetime(2023, 5, 8, 13, 56)
    """
    return _DEFAULT.parse(s)
