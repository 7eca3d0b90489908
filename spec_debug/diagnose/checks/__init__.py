"""Checks: pure functions from typed facts to coded findings, one module per area.

Each check returns a list of `spec_debug.record.Finding` (empty when all is well) and never
does I/O. One root cause yields one error finding; a symptom of a root cause that an earlier
check already reported is lowered to info and says which code explains it.
"""

from spec_debug.diagnose.checks.common import Where
from spec_debug.diagnose.checks.draft_config import check_context_length, check_norm_flags, check_rope
from spec_debug.diagnose.checks.drafter import check_engine_semantics, check_layout, check_standalone_accuracy
from spec_debug.diagnose.checks.forward import check_forward_sources
from spec_debug.diagnose.checks.launch_flags import (
    check_algorithm,
    check_draft_budget,
    check_dtype,
    check_num_steps,
)
from spec_debug.diagnose.checks.layers import check_aux_layers
from spec_debug.diagnose.checks.perf import check_accept_length_gap, check_payoff, check_throughput
from spec_debug.diagnose.checks.vocab_maps import check_vocab_report

__all__ = [
    "Where",
    "check_num_steps", "check_draft_budget", "check_algorithm", "check_dtype",
    "check_aux_layers", "check_vocab_report",
    "check_standalone_accuracy", "check_layout", "check_engine_semantics",
    "check_throughput", "check_accept_length_gap", "check_payoff",
    "check_forward_sources",
    "check_norm_flags", "check_context_length", "check_rope",
]
