"""SD301-SD303: the draft-to-target vocabulary maps (EAGLE3.md sections 1 and 6.7)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from spec_debug.diagnose.checks.common import Where
from spec_debug.record import Finding


@dataclass(frozen=True)
class VocabFacts:
    """What the vocab probe found (shapes from the safetensors header, d2t/t2d read when present)."""

    target_vocab_size: int
    draft_vocab_size: int
    has_d2t: bool
    has_t2d: bool
    d2t_is_offsets: bool | None = None
    """arange(DV)+d2t strictly increasing, in [0, V) and equal to t2d.nonzero(); None = not read."""
    d2t_problems: list[str] = field(default_factory=list)
    d2t_looks_absolute: bool = False
    """d2t itself is strictly increasing and in range: ids, not offsets."""
    t2d_length: int | None = None
    t2d_count: int | None = None
    embed_rows: int | None = None
    lm_head_rows: int | None = None

    def to_facts(self) -> dict[str, Any]:
        return asdict(self)


def check_vocab_maps(v: VocabFacts, at: Where = Where()) -> list[Finding]:
    facts = v.to_facts()
    findings: list[Finding] = []
    if v.draft_vocab_size < v.target_vocab_size and not v.has_d2t:
        findings.append(at.finding("SD301", [
            f"draft vocab {v.draft_vocab_size} < target vocab {v.target_vocab_size}",
            "the checkpoint has no d2t tensor: vLLM maps draft id i to target id i "
            "(draft_id_to_target_id is zero-initialised), SGLang has no hot-token map"], facts))
    elif v.has_d2t and v.d2t_is_offsets is False:
        evidence = list(v.d2t_problems)
        if v.d2t_looks_absolute:
            evidence.append("d2t is itself increasing and in range: it holds absolute target ids, "
                            "so target_id = i + d2t[i] is about twice the intended id")
        findings.append(at.finding("SD302", evidence or ["d2t fails the offset invariants"], facts))
    rows = []
    if v.t2d_length is not None and v.t2d_length != v.target_vocab_size:
        rows.append(f"t2d has {v.t2d_length} entries; the target vocabulary has {v.target_vocab_size}")
    if v.t2d_count is not None and v.t2d_count != v.draft_vocab_size:
        rows.append(f"t2d selects {v.t2d_count} tokens; the draft vocabulary has {v.draft_vocab_size}")
    if v.embed_rows is not None and v.embed_rows != v.target_vocab_size:
        rows.append(f"embed_tokens has {v.embed_rows} rows; the target vocabulary has {v.target_vocab_size}")
    if rows:
        findings.append(at.finding("SD303", rows, facts))
    return findings
