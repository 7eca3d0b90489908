"""A server log with no numbers usually ends in the error that stopped the server, most often
while loading the draft. The throughput step answered "no measured throughput with speculation:
give --var server_log=PATH" to a user who had given exactly that: it now says the log has no
numbers and quotes the error it ends in."""

from __future__ import annotations

from spec_debug.diagnose.steps import throughput_step
from spec_debug.probes import server_log
from spec_debug.probes.registry import ProbeContext

# SGLang loading an EAGLE-3 draft with the target's architecture (Tencent/AngelSlim#39), in the
# scheduler-exception form of sgl-project/sglang#5448
SGLANG_LOAD_ERROR = """\
[2025-08-13 10:02:11] server_args=ServerArgs(model_path='Qwen/Qwen3-14B', speculative_algorithm='EAGLE3', speculative_draft_model_path='AngelSlim/Qwen3-14B_eagle3', speculative_num_steps=3, speculative_eagle_topk=1, speculative_num_draft_tokens=4)
[2025-08-13 10:02:53] Received sigquit from a child process. It usually means the child failed.
[2025-08-13 10:02:53 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/opt/miniconda/envs/sglang/lib/python3.12/site-packages/sglang/srt/model_loader/loader.py", line 445, in load_weights_and_postprocess
    model.load_weights(weights)
  File "/opt/miniconda/envs/sglang/lib/python3.12/site-packages/sglang/srt/models/qwen3.py", line 493, in load_weights
    param = params_dict[name]
            ~~~~~~~~~~~^^^^^^
KeyError: 'midlayer.self_attn.qkv_proj.weight'
"""
# vLLM's worker failing to load the drafter (vllm-project/vllm#18906, #26328 form), then the
# engine's generic last line
VLLM_LOAD_ERROR = """\
(Worker_TP0 pid=529) INFO 10-06 18:54:29 [v1/worker/gpu_model_runner.py:2641] Loading drafter model...
(Worker_TP0 pid=529) ERROR 10-06 18:54:30 [v1/executor/multiproc_executor.py:597] WorkerProc failed to start.
(Worker_TP0 pid=529) ERROR 10-06 18:54:30 [v1/executor/multiproc_executor.py:597] Traceback (most recent call last):
(Worker_TP0 pid=529) ERROR 10-06 18:54:30 [v1/executor/multiproc_executor.py:597] KeyError: 'embed_tokens.weight'
(EngineCore_DP0 pid=400) ERROR 10-06 18:54:31 [core.py:708] EngineCore failed to start.
(APIServer pid=2) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}
"""


def _not_checked_lines(tmp_path, text: str) -> list[str]:
    log = tmp_path / "server.log"
    log.write_text(text)
    host = server_log.run({"server_log": str(log), "baseline_tok_s": "100", "measured_tok_s": ""})
    facts = throughput_step.parse(host)
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts, host_facts={**facts})
    return [line for f in throughput_step.check(ctx) if f.code == "SD004" for line in f.evidence]


def test_a_log_that_ends_in_a_draft_load_error_is_quoted(tmp_path):
    lines = _not_checked_lines(tmp_path, SGLANG_LOAD_ERROR)
    assert any("KeyError: 'midlayer.self_attn.qkv_proj.weight'" in line and "failed to start" in line
               for line in lines)


def test_vllms_root_cause_is_quoted_with_its_generic_last_line(tmp_path):
    lines = [line for line in _not_checked_lines(tmp_path, VLLM_LOAD_ERROR) if "ends in an error" in line]
    assert len(lines) == 1
    assert "KeyError: 'embed_tokens.weight'" in lines[0] and "Engine core initialization failed" in lines[0]


def test_a_log_without_numbers_or_errors_says_so(tmp_path):
    lines = _not_checked_lines(tmp_path, "[2025-08-13 10:02:11] The server is fired up and ready to roll!\n")
    assert any("has no throughput numbers" in line for line in lines)
    assert not any(line == "no measured throughput with speculation" for line in lines)


def test_an_error_before_the_last_restart_is_not_blamed_on_the_new_server(tmp_path):
    # the crashed run, then a restart that has not served yet: its log has no error of its own
    restart = ("[2025-08-13 10:09:00] server_args=ServerArgs(model_path='Qwen/Qwen3-14B', speculative_algorithm="
               "'EAGLE3', speculative_draft_model_path='AngelSlim/Qwen3-14B_eagle3', speculative_num_steps=3, "
               "speculative_eagle_topk=1, speculative_num_draft_tokens=4)\n")
    lines = _not_checked_lines(tmp_path, SGLANG_LOAD_ERROR + restart)
    assert not any("KeyError" in line for line in lines)
    assert any("has no throughput numbers" in line for line in lines)
