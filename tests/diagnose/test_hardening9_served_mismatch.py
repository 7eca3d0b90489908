"""The launch audit names it when the server log it was given was written by a server started
with other speculative settings: the log's startup line (SGLang `server_args=...`, vLLM
`speculative_config=SpeculativeConfig(...)`) is printed after the engine's own rules, so a
difference means another command started that server."""

from __future__ import annotations

from pathlib import Path

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes import launch_flags
from spec_debug.probes.registry import ProbeContext

# SGLang's documented EAGLE-3 command (docs/advanced_features/speculative_decoding.md).
SGLANG_EAGLE3 = ("python3 -m sglang.launch_server --model meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
                 "--speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B --speculative-num-steps 5 "
                 "--speculative-eagle-topk 8 --speculative-num-draft-tokens 32 --mem-fraction 0.6 "
                 "--cuda-graph-max-bs 2 --dtype float16")
# SGLang's startup line (server_args.py, logged as `server_args=ServerArgs(...)`), cut to the
# fields that matter, from a server started at one step.
STARTUP = ("[2026-10-30 12:00:00] server_args=ServerArgs(model_path='meta-llama/Llama-3.1-8B-Instruct', "
           "speculative_algorithm='EAGLE3', speculative_draft_model_path='jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B', "
           "speculative_num_steps=1, speculative_eagle_topk=1, speculative_num_draft_tokens=2, tp_size=1)")


def _audit(command: str, log: Path) -> list:
    host = launch_flags.run({"server_cmdline": command, "server_log": str(log)})
    facts = launch_step.parse(host)
    ctx = ProbeContext(step_id="launch_flags", host="gpu01", args={}, facts=facts, host_facts=facts)
    return launch_step.check(ctx)


def test_a_log_of_a_server_started_with_other_steps_is_named(tmp_path):
    log = tmp_path / "server.log"
    log.write_text(STARTUP + "\n")
    notes = [line for f in _audit(SGLANG_EAGLE3, log) for line in f.evidence if "startup line" in line]
    assert len(notes) == 1
    assert "the audited command runs steps 5, topk 8, draft tokens 32" in notes[0]
    assert "runs steps 1, topk 1, draft tokens 2" in notes[0] and str(log) in notes[0]


def test_the_log_of_this_commands_server_adds_nothing(tmp_path):
    log = tmp_path / "server.log"
    log.write_text(STARTUP.replace("speculative_num_steps=1, speculative_eagle_topk=1, speculative_num_draft_tokens=2",
                                   "speculative_num_steps=5, speculative_eagle_topk=8, speculative_num_draft_tokens=32")
                   + "\n")
    assert not any("startup line" in line for f in _audit(SGLANG_EAGLE3, log) for line in f.evidence)


def test_a_vllm_log_is_compared_after_vllms_rules(tmp_path):
    # vLLM's `Initializing a V1 LLM engine ... speculative_config=SpeculativeConfig(...)` line
    # (vllm/config/speculative.py `__repr__`)
    log = tmp_path / "vllm.log"
    log.write_text("INFO 10-30 12:00:00 [core.py:74] Initializing a V1 LLM engine (v0.10.1) with config: "
                   "model='meta-llama/Llama-3.1-8B-Instruct', speculative_config=SpeculativeConfig(method='eagle3', "
                   "model='yuhuili/EAGLE3-LLaMA3.1-Instruct-8B', num_spec_tokens=3), seed=0\n")
    command = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
               "'{\"method\": \"eagle3\", \"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", \"num_speculative_tokens\": 3}'")
    assert not any("startup line" in line for f in _audit(command, log) for line in f.evidence)
    notes = [line for f in _audit(command.replace('"num_speculative_tokens": 3', '"num_speculative_tokens": 5'), log)
             for line in f.evidence if "startup line" in line]
    assert notes and "steps 5" in notes[0] and "steps 3" in notes[0]
