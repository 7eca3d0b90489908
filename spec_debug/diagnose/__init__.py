"""Facts -> findings: the finding catalog, launch/log parsers, the throughput model, checks."""
