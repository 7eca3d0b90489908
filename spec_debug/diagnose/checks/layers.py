"""SD201-SD204: which target layers the engine feeds the draft, against training.

Layer ids are compared in one convention, "input-to-layer" (id i = the residual stream
entering 0-indexed decoder layer i; SGLang PR #25454), as spec_debug.eagle3.engines returns
them. The engine rules (+1 or not, which config key is read, default ids) live in that table.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Mapping, Sequence

from spec_debug.diagnose.checks.common import Where
from spec_debug.eagle3 import engines
from spec_debug.record import Finding


@dataclass(frozen=True)
class LayerAnalysis:
    engine: str
    engine_version: str | None
    num_target_layers: int
    trained: list[int]
    trained_source: str
    served: list[int]
    served_source: str
    configured: list[int] | None
    config_key: str | None
    used_default: bool
    unreachable: list[int]
    fc_fan_in: int | None
    shift: int | None
    """The common offset served - trained when every slot differs by the same amount."""
    sources: list[str]

    @property
    def mismatch(self) -> bool:
        return self.served != self.trained

    def to_facts(self) -> dict[str, Any]:
        facts = asdict(self)
        facts["mismatch"] = self.mismatch
        return facts


def analyse_layers(engine: str, engine_version: str | None, draft_raw: Mapping[str, Any],
                   num_target_layers: int, *, trained_layer_ids: Sequence[int] | None = None,
                   measured_served_ids: Sequence[int] | None = None) -> LayerAnalysis:
    """Trained vs served ids. `trained_layer_ids` (e.g. from the training dump's `layer_ids`
    metadata) overrides what the config implies; `measured_served_ids` (a serving-path dump)
    overrides the engine table."""
    plan = engines.serve_plan(engine, engine_version, draft_raw, num_target_layers)
    if trained_layer_ids is not None:
        trained, trained_source = [int(i) for i in trained_layer_ids], "training data layer_ids"
    else:
        trained = engines.trained_layer_ids(draft_raw, num_target_layers)
        has_ids = engines.configured_layer_ids(
            draft_raw, (engines.TOP_LEVEL_KEY, engines.NESTED_KEY)) is not None
        trained_source = "draft config" if has_ids else "trainer default [2, N//2, N-3]"
    if measured_served_ids is not None:
        served, served_source = [int(i) for i in measured_served_ids], "measured (serving dump)"
    else:
        served, served_source = list(plan.layer_ids), f"{engine} {engine_version or 'latest'} convention"
    shift = None
    if len(served) == len(trained) and served:
        deltas = {s - t for s, t in zip(served, trained)}
        if len(deltas) == 1:
            shift = deltas.pop()
    return LayerAnalysis(
        engine=engine, engine_version=engine_version, num_target_layers=num_target_layers,
        trained=trained, trained_source=trained_source, served=served, served_source=served_source,
        configured=plan.configured, config_key=plan.config_key, used_default=plan.used_default,
        unreachable=list(plan.unreachable), fc_fan_in=plan.fc_fan_in, shift=shift,
        sources=list(plan.sources))


def _names(ids: Sequence[int], n: int) -> str:
    """Readable ids: 'input to layer 3 (= output of layer 2)'; 0 is the embedding output."""
    parts = []
    for i in ids:
        if i == 0:
            parts.append("0 (embedding output)")
        elif i == n:
            parts.append(f"{i} (final layer output)")
        else:
            parts.append(str(i))
    return "[" + ", ".join(parts) + "]"


def check_aux_layers(analysis: LayerAnalysis, *, target_hidden_size: int | None = None,
                     fc_in_features: int | None = None, num_aux: int | None = None,
                     at: Where = Where()) -> list[Finding]:
    a, n = analysis, analysis.num_target_layers
    facts = a.to_facts()
    base = [f"trained on {_names(a.trained, n)} ({a.trained_source}), input-to-layer ids",
            f"served {_names(a.served, n)} ({a.served_source})"]
    if a.configured is not None:
        base.append(f"draft config {a.config_key} = {a.configured}")
    findings: list[Finding] = []
    if a.mismatch:
        if a.used_default and a.trained_source == "training data layer_ids":
            findings.append(at.finding("SD203", base + [
                f"{a.engine} reads no aux ids from this config (keys it reads: "
                f"{', '.join(engines.convention(a.engine, 'config_keys', a.engine_version)) or 'none'}) "
                f"and falls back to its default"], facts,
                remediation=f"Write the trained ids into the draft config.json under the key "
                            f"{a.engine} {a.engine_version or 'latest'} reads "
                            f"({engines.TOP_LEVEL_KEY} for speculators/vLLM, eagle_config."
                            f"{engines.TOP_LEVEL_KEY} for SGLang)."))
        elif a.shift in (1, -1):
            findings.append(at.finding("SD202", base + [
                f"every served layer is the trained one {a.shift:+d}: the engine and the trainer "
                "disagree on output-of vs input-to layer ids"], facts))
        else:
            extra = [f"ids {a.unreachable} are never captured by {a.engine} "
                     f"{a.engine_version or 'latest'}"] if a.unreachable else []
            fix = None
            if a.used_default and a.served_source.endswith("convention"):
                keys = engines.convention(a.engine, "config_keys", a.engine_version)
                extra.append(f"{a.engine} {a.engine_version or 'latest'} reads the ids only from "
                             f"{', '.join(keys) or 'nowhere (always its default)'}; this config has "
                             f"none there, so it serves its default [2, N//2, N-3]")
                if keys:
                    fix = (f"Add {keys[0]} = {a.trained} to the draft's config.json (the key this "
                           f"engine version reads), restart the server, and confirm with the layout probe.")
                else:
                    fix = "Upgrade the engine to a version that reads the aux ids from the draft config."
            findings.append(at.finding("SD201", base + extra, facts, remediation=fix))
    width_problem = []
    aux = num_aux if num_aux is not None else len(a.trained)
    if fc_in_features is not None and target_hidden_size:
        if fc_in_features != aux * target_hidden_size:
            width_problem.append(f"fc.weight has {fc_in_features} input features; {aux} aux layers x "
                                 f"hidden {target_hidden_size} = {aux * target_hidden_size}")
    if a.fc_fan_in is not None and a.fc_fan_in != aux:
        width_problem.append(f"{a.engine} {a.engine_version or 'latest'} builds fc for {a.fc_fan_in} "
                             f"aux layers; the draft has {aux}")
    if width_problem:
        findings.append(at.finding("SD204", width_problem,
                                   {"fc_in_features": fc_in_features, "num_aux": aux,
                                    "target_hidden_size": target_hidden_size,
                                    "engine_fc_fan_in": a.fc_fan_in}))
    return findings
