"""A run's files as scoring reads them: predictions and labels (:mod:`.predictions`), the evaluation loop's records
(:mod:`.run_records`), judge verdicts (:mod:`.verdicts`) and LongMemEval's labels files (:mod:`.longmemeval_labels`)."""
