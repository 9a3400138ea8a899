"""The S-scale input with ASCII text: the generator's non-ASCII words replaced by ASCII ones, all else the same.

Usage (from the project root): ``python benchmarks/ascii_text.py benchmarks/out/s.json benchmarks/out/s-ascii.json``

98% of the turns of ``himga.testing``'s file hold a non-ASCII character (its vocabulary mixes them in), against
7.6% in the real oracle sample; on the copy this writes, none do. Both ``benchmarks/measure.py parse`` and
``build`` (``--input`` the copy) then show what the text's encoding costs each (docs/benchmarks.md, "The targets
not met"). The questions, sessions and turns are the same; only the words below change (quotes escaped).
"""

from __future__ import annotations

import sys

#: The non-ASCII words of himga.testing's vocabulary (src/himga/testing/longmemeval_like.py) and their stand-ins.
WORDS = {
    "café": "cafe",
    "naïve": "naive",
    "résumé": "resume",
    "jalapeño": "jalapeno",
    "Zürich": "Zurich",
    "São": "Sao",
    "東京": "Tokyo",
    "北京": "Beijing",
    "día": "dia",
    "señor": "senor",
    "€": "EUR",
    "¥": "JPY",
    "—": "--",
    "–": "-",
    "…": "...",
    "“curly”": '\\"curly\\"',
    "emoji🙂": "emoji:)",
    "rocket🚀": "rocket!",
}
_BLOCK = 1 << 26


def main(source: str, target: str) -> None:
    """Write ``target``: ``source`` with :data:`WORDS` replaced, read in blocks cut at a space (never inside a word)."""
    rest = b""
    with open(source, "rb") as f, open(target, "wb") as out:
        while True:
            block = rest + f.read(_BLOCK)
            if len(block) == len(rest):  # the end
                block, rest = rest, b""
            else:
                cut = block.rfind(b" ")
                block, rest = (block[:cut], block[cut:]) if cut > 0 else (block, b"")
            if not block:
                break
            text = block.decode("utf-8")
            for word, ascii_word in WORDS.items():
                text = text.replace(word, ascii_word)
            out.write(text.encode("utf-8"))


if __name__ == "__main__":
    main(*sys.argv[1:3])
