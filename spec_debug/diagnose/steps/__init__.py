"""Controller side of the diagnostic probes: `parse` (host JSON -> facts) and `check` (facts ->
findings) for each probe registered in spec_debug.probes.builtin.

Facts of each probe live under one namespace key (launch, engine, configs, vocab, layout,
forward, eval, throughput) because the runner merges every step's facts into one dict per
host. A check records the error codes it raised in `facts[namespace]["raised"]`, so a later
step can tell a symptom (info) from a root cause (error).
"""
