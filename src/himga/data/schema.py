"""The seed's module of the dataclasses (``from himga.data.schema import Sample``): they live in
:mod:`himga.schema.sample`, below the loaders, and are the same objects here."""

from himga.schema.sample import EvidenceRef, Message, QAPair, QuestionType, Sample, Session

__all__ = ["EvidenceRef", "Message", "QAPair", "QuestionType", "Sample", "Session"]
