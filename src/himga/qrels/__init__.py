"""Relevance labels in the formats IR tools read: TREC qrels and runs, query and candidate lists
(:func:`write_qrels`, :func:`export_qrels`, :func:`write_run`; the files are listed in :mod:`himga.qrels._write`),
and rankings made on the system view in those ids (:func:`view_run`).
The modules behind this face are private."""

from himga.qrels._run import write_run
from himga.qrels._view import view_run
from himga.qrels._write import IDENTITY, QrelsSummary, documents, export_qrels, qrels, write_qrels

__all__ = ["IDENTITY", "QrelsSummary", "documents", "export_qrels", "qrels", "view_run", "write_qrels", "write_run"]
