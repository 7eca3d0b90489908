"""The diagnostic probes of the shipped playbooks: host module + controller parse/check.

Imported by the registry on the controller only (the host runs just the `module`s, which
depend on the stdlib, torch and spec_debug.eagle3). Parse/check live in spec_debug.diagnose.steps.
"""

from __future__ import annotations

from spec_debug.diagnose.steps import (
    configs_step,
    engine_step,
    eval_step,
    forward_step,
    launch_step,
    layout_step,
    throughput_step,
    vocab_step,
)
from spec_debug.probes.registry import ProbeSpec, register

register(ProbeSpec(
    name="launch_flags",
    summary="Find the SGLang/vLLM server command (or use server_cmdline), read the configs it names, "
            "apply the engine's rules to steps/topk/draft tokens",
    module="spec_debug.probes.launch_flags", parse=launch_step.parse, check=launch_step.check,
    codes=("SD101", "SD102", "SD103", "SD104", "SD201", "SD711"),
    args=("server_cmdline", "server_log"),
))
register(ProbeSpec(
    name="engine_info",
    summary="Which engine and version serve the draft (vars, the server command, or the host's packages)",
    module="spec_debug.probes.engine_info", parse=engine_step.parse, check=engine_step.check,
    args=("engine", "engine_version", "launch_engine"),
))
register(ProbeSpec(
    name="model_configs",
    summary="Draft and target config.json and tensor shapes: aux layers, norm flags, context, RoPE, config vs weights",
    module="spec_debug.probes.model_configs", parse=configs_step.parse, check=configs_step.check,
    codes=("SD201", "SD202", "SD203", "SD204", "SD701", "SD702", "SD703", "SD704",
           "SD705", "SD706", "SD707", "SD708", "SD709", "SD710"),
    args=("draft_model", "target_model"),
))
register(ProbeSpec(
    name="vocab_maps",
    summary="d2t offsets, t2d length and embedding rows against the target vocabulary",
    module="spec_debug.probes.vocab_maps", parse=vocab_step.parse, check=vocab_step.check,
    needs_torch=True, codes=("SD301", "SD302", "SD303", "SD710"),
    args=("draft_model", "target_model", "vocab_mapping"),
))
register(ProbeSpec(
    name="hidden_layout",
    summary="The engine's capture convention, the layout probe and embedding check on training data, "
            "and the layers a serving dump holds",
    module="spec_debug.probes.hidden_layout", parse=layout_step.parse, check=layout_step.check,
    needs_torch=True, codes=("SD201", "SD202", "SD203", "SD204", "SD402", "SD704"),
    args=("draft_model", "target_model", "engine", "engine_version", "hidden_states", "serving_dump",
          "vocab_mapping", "device", "max_samples"),
))
register(ProbeSpec(
    name="forward_source",
    summary="Read speculators' and the engine's eagle3 forward with ast; op order side by side",
    module="spec_debug.probes.forward_source", parse=forward_step.parse, check=forward_step.check,
    codes=("SD601",),
    args=("engine", "draft_model", "reference_files", "engine_files"),
))
register(ProbeSpec(
    name="drafter_eval",
    summary="Standalone drafter accuracy on training hidden states, reference and engine semantics",
    module="spec_debug.probes.drafter_eval", parse=eval_step.parse, check=eval_step.check,
    needs_torch=True, codes=("SD401", "SD403"),
    args=("draft_model", "target_model", "hidden_states", "vocab_mapping", "engine", "engine_version",
          "claimed_accuracy", "device", "max_samples", "steps"),
))
register(ProbeSpec(
    name="throughput_model",
    summary="Server log and benchmark numbers against the chain acceptance model and the baseline",
    module="spec_debug.probes.server_log", parse=throughput_step.parse, check=throughput_step.check,
    codes=("SD501", "SD502", "SD503"),
    args=("server_log", "baseline_tok_s", "measured_tok_s"),
))
