"""Post-stage gates: what a stage produced is checked before any reviewer sees it
(artifacts, brief grounding, brief echo, static analysis), and repeated missing-path
blocks become early precondition signals."""
