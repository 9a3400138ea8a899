"""What a run is: the data and gold it is computed on (:func:`run_identity`, :class:`GoldIdentity`), a subset's
fingerprint, the record beside every reported number (:func:`run_record`), and outputs written whole.

Subsets (:mod:`himga.subset`), qrels (:mod:`himga.qrels`) and scoring reports all take these facts from here.
The modules behind this face are private.
"""

from himga.run._identity import GoldIdentity, fingerprint, gold_identity, run_identity, source_hashes
from himga.run._outputs import check_outputs, output_file, source_inputs, write_text
from himga.run._record import dumps_report, run_record, source_record

__all__ = [
    "GoldIdentity",
    "check_outputs",
    "dumps_report",
    "fingerprint",
    "gold_identity",
    "output_file",
    "run_identity",
    "run_record",
    "source_hashes",
    "source_inputs",
    "source_record",
    "write_text",
]
