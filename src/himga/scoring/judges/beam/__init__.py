"""BEAM's official judge: its prompts and requests (:mod:`.prompts`), the official reading of its replies
(:mod:`.replies`), the event-ordering score (:mod:`.order`) and the registered judges (:mod:`.judges`)."""
