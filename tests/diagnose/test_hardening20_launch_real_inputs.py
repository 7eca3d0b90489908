"""Real launch commands from public scripts through the launch audit (session 11):

- a command substitution in a flag's value (`--cuda-graph-bs $(seq -s ' ' 1 64)`,
  `$(seq 1 160 | tr "\\n" " ")`) was split into the server's words: its `-s` became an ambiguous
  SGLang flag (the command refused), its `|` ended the server command before the speculative
  flags (the audit saw no speculation at all);
"""

from __future__ import annotations

from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext


def _launch(command: str, models: dict | None = None, engine: dict | None = None):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": models or {}})
    host = {**facts, **({"engine": engine} if engine else {})}
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=host)
    return facts["launch"], launch_step.check(ctx)


# A public SGLang spec-v2 benchmark script (GitHub code index): the command kept in a
# triple-quoted bash string, its CUDA-graph sizes from `$(seq -s ' ' 1 64)`.
SPEC_V2_SCRIPT = '''#!/bin/bash

export FLASHINFER_DISABLE_VERSION_CHECK=1
export SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1
export SGLANG_ENABLE_SPEC_V2=1
MODEL=meta-llama/Meta-Llama-3.1-8B-Instruct
SPEC_MODEL=lmsys/sglang-EAGLE-LLaMA3-Instruct-8B
PORT=23333
command="""
python -m sglang.launch_server \\
    --dtype float16 \\
    --model-path $MODEL \\
    --attention-backend triton \\
    --decode-log-interval 1 \\
    --cuda-graph-bs $(seq -s ' ' 1 64) \\
    --enable-beta-spec \\
    --speculative-algorithm EAGLE \\
    --speculative-draft-model $SPEC_MODEL \\
    --speculative-num-steps 5 \\
    --speculative-eagle-topk 1 \\
    --speculative-num-draft-tokens 6 \\
    --host 127.0.0.1 \\
    --port $PORT \\
    --load-format dummy \\
    --max-running-requests 1
"""
echo $command
$command
'''


def test_a_command_substitution_with_quotes_is_one_value_not_flags():
    launch, findings = _launch(SPEC_V2_SCRIPT)
    # before: "sglang: --s is ambiguous ..." (SD004), the `-s` of seq read as a server flag
    assert launch["found"], launch.get("error")
    assert (launch["algorithm"], launch["num_steps"], launch["topk"], launch["num_draft_tokens"]) == ("EAGLE", 5, 1, 6)
    assert [f.code for f in findings] == []


# The decode server of a public PD-disaggregation script (GitHub code index), its graph sizes
# from a pipeline inside the substitution, run in the container with `bash -c '...'`; the
# speculative flags after it are the MTP ones SGLang's DeepSeek docs give the decode server.
PIPE_IN_SUBSTITUTION = (
    "docker exec pd_spike_decode bash -c 'python3 -m sglang.launch_server --model-path /models/DeepSeek-R1-0528 "
    "--disaggregation-mode decode --host 0.0.0.0 --port 8000 --trust-remote-code --tp-size 8 "
    "--cuda-graph-bs $(seq 1 160 | tr \"\\n\" \" \") --speculative-algorithm NEXTN --speculative-num-steps 1 "
    "--speculative-eagle-topk 1 --speculative-num-draft-tokens 2 2>&1 | stdbuf -oL tee /out/decode.log'")


def test_a_pipeline_inside_a_substitution_does_not_end_the_server_command():
    cfg = parse_launch_command(PIPE_IN_SUBSTITUTION)
    # before: the `|` inside $(...) ended the command: no algorithm, steps or draft tokens
    assert (cfg.algorithm, cfg.num_steps, cfg.topk, cfg.num_draft_tokens) == ("NEXTN", 1, 1, 2)
    assert cfg.flags["cuda-graph-bs"] == '$(seq 1 160 | tr "\\n" " ")'


def test_a_host_from_hostname_and_awk_keeps_the_flags_after_it():
    cfg = parse_launch_command(
        "python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
        "--host $(hostname -I | awk '{print $1}') --port $((30000 + 1)) --speculative-algorithm EAGLE3 "
        "--speculative-draft-model-path lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B --speculative-num-steps 3 "
        "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4")
    assert (cfg.algorithm, cfg.num_steps, cfg.num_draft_tokens) == ("EAGLE3", 3, 4)
    assert cfg.flags["host"] == "$(hostname -I | awk '{print $1}')"


def test_single_quotes_keep_a_dollar_paren_as_written():
    cfg = parse_launch_command("""vllm serve m --speculative-config '{"method": "ngram", "model": "$(x", """
                               """"num_speculative_tokens": 3, "prompt_lookup_max": 4}'""")
    assert cfg.speculative_config["model"] == "$(x" and cfg.num_steps == 3
