"""Statistics beside the official scores: intervals (:mod:`._intervals`), the not-official metrics papers print
(:mod:`._paper_metrics`) in the tables they print them in (:mod:`._paper_tables`), and retrieval against the official
relevance labels (:mod:`._retrieval`)."""
