"""Statistics beside the official scores: intervals (:mod:`.intervals`), and the not-official metrics papers print
(:mod:`.paper_metrics`) in the tables they print them in (:mod:`.paper_tables`)."""
