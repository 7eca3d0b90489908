"""Real launch commands from public scripts through the launch audit (session 11):

- a command substitution in a flag's value (`--cuda-graph-bs $(seq -s ' ' 1 64)`,
  `$(seq 1 160 | tr "\\n" " ")`) was split into the server's words: its `-s` became an ambiguous
  SGLang flag (the command refused), its `|` ended the server command before the speculative
  flags (the audit saw no speculation at all);
- Python launchers: a vLLM server started from a `subprocess.run(cmd)` argv list was "not an SGLang
  or vLLM server command"; `LLM(model=TARGET, ...)` under `TARGET = "..."` said TARGET's value was
  not in the text; of a baseline `sglang.Engine(...)` and the EAGLE-3 one after it, the baseline
  was audited (no speculation, no finding); SGLang's `popen_launch_server(..., other_args=[...])`
  and `python -c "...LLM(...)"` were not read;
- an algorithm name the engine does not have (`"method": "EAGLE-3"` for vLLM, `EAGEL3` for SGLang)
  passed silently, though the server does not start (unless a plugin registers the name).
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, effective_spec, parse_launch_command
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


# A public script that starts vLLM with subprocess (GitHub code index, a Qwen3-8B speculative
# decoding study): the method written as the paper's name, "EAGLE-3", which vLLM has no method for.
SUBPROCESS_EAGLE = """def init_vllm_eagle( local_api_port: int = 8000, max_num_seqs: str = 128, api_key: str = "key123456", precision: str = "float16", spec_model_id: str = None):
    cmd = [
        "python", "-m", "vllm.entrypoints.openai.api_server",
        "--model", "Qwen/Qwen3-8B",
        "--gpu-memory-utilization", "0.85", 
        "--max-model-len", "512",
        "--max-num-seqs", max_num_seqs,
        "--api-key", api_key,
        "--host", "0.0.0.0",
        "--port", "8000",
        "--speculative-config", '{"method": "EAGLE-3", "model": "RedHatAI/Qwen3-8B-speculator.eagle3", "num_speculative_tokens": 5}'
    ]
    _vllm_process = subprocess.run(cmd)
"""


def test_a_subprocess_argv_list_is_read_and_an_unknown_vllm_method_is_named():
    launch, findings = _launch(SUBPROCESS_EAGLE)
    # before: "not an SGLang or vLLM server command" (SD004)
    assert (launch["engine"], launch["target_model"], launch["draft_model"], launch["num_steps"]) == (
        "vllm", "Qwen/Qwen3-8B", "RedHatAI/Qwen3-8B-speculator.eagle3", 5)
    [finding] = findings
    assert finding.code == "SD102"
    assert 'method": "EAGLE-3" is none of vLLM\'s methods' in finding.evidence[0]
    assert 'did you mean "eagle3"?' in finding.evidence[0]


def test_a_subprocess_list_with_the_model_computed_elsewhere_says_so():
    code = SUBPROCESS_EAGLE.replace('"--model", "Qwen/Qwen3-8B"', '"--model", args.model')
    launch, _ = _launch(code)
    assert not launch["found"] and "--model is the Python expression 'args.model'" in launch["error"]


def test_sglang_algorithm_typo_is_a_warning_with_the_near_name():
    # the SGLang docs' EAGLE-3 command (docs/advanced_features/speculative_decoding) with the
    # algorithm mistyped
    launch, findings = _launch(
        "python3 -m sglang.launch_server --model meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGEL3 "
        "--speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B --speculative-num-steps 5 "
        "--speculative-eagle-topk 8 --speculative-num-draft-tokens 32 --mem-fraction 0.6 --cuda-graph-max-bs 2 "
        "--dtype float16")
    [finding] = findings
    assert (finding.code, finding.severity) == ("SD102", "warning")
    assert "Unknown speculative algorithm name: EAGEL3" in finding.evidence[0]
    assert "unless a plugin registers that name; did you mean EAGLE3?" in finding.evidence[0]
    # vLLM's word for it is no SGLang algorithm either: SGLang serves MTP as NEXTN
    _, findings = _launch("python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3-0324 --tp 8 "
                          "--speculative-algorithm MTP --speculative-num-steps 1 --speculative-eagle-topk 1 "
                          "--speculative-num-draft-tokens 2")
    assert any("SGLang serves a model's own MTP layers as NEXTN" in e for f in findings for e in f.evidence)


def test_the_known_algorithm_names_pass():
    for name in ("EAGLE", "eagle3", "NEXTN", "STANDALONE", "DFLASH", "FROZEN_KV_MTP"):
        cfg = parse_launch_command(f"python3 -m sglang.launch_server --model-path m --speculative-algorithm {name}")
        assert not any("none of SGLang's algorithms" in p for p in effective_spec(cfg).problems), name
    for method in ("eagle3", "deepseek_mtp", "mtp", "suffix", "draft_model"):
        cfg = parse_launch_command(f"vllm serve m --speculative-config '{{\"method\": \"{method}\", "
                                   f"\"model\": \"d\", \"num_speculative_tokens\": 3}}'")
        assert not any("none of vLLM's methods" in p for p in effective_spec(cfg).problems), method


# A public Qwen3-1.7B EAGLE-3 example (GitHub code index, gpu/run_eagle3_vllm.py): the models named
# by constants above the call.
VLLM_CONSTANTS = """from vllm import LLM, SamplingParams

TARGET = "Qwen/Qwen3-1.7B"
SPECULATOR = "AngelSlim/Qwen3-1.7B_eagle3"

llm = LLM(
    model=TARGET,
    speculative_config={
        "method": "eagle3",
        "model": SPECULATOR,
        "num_speculative_tokens": 4,
    },
    max_model_len=8192,
    gpu_memory_utilization=0.8,
)
"""


def test_names_bound_in_the_same_text_are_read_through():
    cfg = parse_launch_command(VLLM_CONSTANTS)
    # before: "LLM(...): model is the Python expression 'TARGET', whose value is not in this text"
    assert (cfg.target_model, cfg.draft_model, cfg.algorithm, cfg.num_steps) == (
        "Qwen/Qwen3-1.7B", "AngelSlim/Qwen3-1.7B_eagle3", "EAGLE3", 4)
    # a name bound to two values is not guessed
    with pytest.raises(LaunchParseError, match="model is the Python expression 'TARGET'"):
        parse_launch_command(VLLM_CONSTANTS.replace('SPECULATOR = ', 'TARGET = "x"\nSPECULATOR = '))


# A public GRPO + EAGLE-3 benchmark (GitHub code index): a baseline engine, then the EAGLE-3 one.
TWO_ENGINES = """def main():
    results = {}

    # Baseline (no EAGLE)
    engine = sglang.Engine(
        model_path="./output_grpo/merged",
        mem_fraction_static=0.7,
    )
    results["baseline"] = run_bench(engine, "BASELINE")
    engine.shutdown()
    time.sleep(5)

    # EAGLE-3
    engine = sglang.Engine(
        model_path="./output_grpo/merged",
        mem_fraction_static=0.7,
        speculative_algorithm="EAGLE3",
        speculative_draft_model_path="./output_eagle/sglang_ckpt",
        speculative_num_steps=3,
        speculative_eagle_topk=1,
        speculative_num_draft_tokens=4,
    )
"""


def test_the_speculative_engine_of_a_benchmark_is_audited_not_its_baseline():
    cfg = parse_launch_command(TWO_ENGINES)
    # before: the baseline engine (no algorithm, nothing to check)
    assert (cfg.algorithm, cfg.draft_model, cfg.num_steps, cfg.num_draft_tokens) == (
        "EAGLE3", "./output_eagle/sglang_ckpt", 3, 4)


# SGLang's spec-overlap EAGLE test (sgl-project/sglang test/srt, `--enable-beta-spec`; GitHub code
# index): the server started by SGLang's own test harness.
SGLANG_TEST = """class TestEagleBS1(CustomTestCase):
    num_questions = 60

    @classmethod
    def setUpClass(cls):
        cls.model = "meta-llama/Llama-2-7b-chat-hf"
        cls.base_url = DEFAULT_URL_FOR_TEST
        cls.process = popen_launch_server(
            cls.model,
            cls.base_url,
            timeout=DEFAULT_TIMEOUT_FOR_SERVER_LAUNCH,
            other_args=[
                "--trust-remote-code",
                "--attention-backend",
                "triton",
                "--enable-beta-spec",
                "--speculative-algorithm",
                "EAGLE",
                "--speculative-draft-model",
                "lmzheng/sglang-EAGLE-llama2-chat-7B",
                "--speculative-num-steps",
                "5",
                "--speculative-eagle-topk",
                "1",
                "--speculative-num-draft-tokens",
                "6",
                "--max-running-requests",
                "1",
            ],
        )
"""


def test_sglang_test_harness_launch_is_read():
    cfg = parse_launch_command(SGLANG_TEST)
    # before: "not an SGLang or vLLM server command"
    assert (cfg.engine, cfg.target_model, cfg.draft_model, cfg.algorithm, cfg.num_steps, cfg.num_draft_tokens) == (
        "sglang", "meta-llama/Llama-2-7b-chat-hf", "lmzheng/sglang-EAGLE-llama2-chat-7B", "EAGLE", 5, 6)


def test_python_dash_c_code_is_read():
    # a public EAGLE-3 training README (GitHub code index), step 3 "Use with vLLM" (the
    # VLLM_USE_V1=1 word added, to check the environment travels)
    cfg = parse_launch_command("""  # 3. Use with vLLM
  VLLM_USE_V1=1 python -c "
  from vllm import LLM
  llm = LLM(
      model='Qwen/Qwen3-1.7B',
      speculative_config={'method': 'eagle3', 'model': './eagle3_qwen3_model', 'num_speculative_tokens': 3},
  )
  "
""")
    assert (cfg.engine, cfg.target_model, cfg.algorithm, cfg.num_steps) == ("vllm", "Qwen/Qwen3-1.7B", "EAGLE3", 3)
    assert cfg.env == {"VLLM_USE_V1": "1"}


# A docker compose file for Gemma 4 + its EAGLE-3 speculator on vLLM's nightly image, from a
# public chat log (GitHub code index) whose vLLM log answers "unrecognized arguments": the V0
# speculative flags, which vLLM dropped in 0.8.3.
COMPOSE_NIGHTLY = """services:
  gemma-4-26b-it-nvfp4-eagle3:
    image: vllm/vllm-openai:nightly
    container_name: gemma-4-26b-it-nvfp4-eagle3
    runtime: nvidia
    restart: unless-stopped
    ports:
      - "8000:8000"
    shm_size: "32g"
    ipc: host
    environment:
      - NVIDIA_VISIBLE_DEVICES=all
      - HF_HUB_ENABLE_HF_TRANSFER=1
      - VLLM_WORKER_MULTIPROC_METHOD=spawn
      - VLLM_ATTENTION_BACKEND=FLASHINFER
    command:
      # 1. Model as a POSITIONAL argument (No --model, no "serve")
      - "RedHatAI/gemma-4-26B-A4B-it-NVFP4"
      - "--served-model-name"
      - "gemma-4-26b-it-nvfp4"
      # 2. Speculative Flags (Standard CLI syntax)
      - "--speculative-method"
      - "eagle"
      - "--speculative-model"
      - "RedHatAI/gemma-4-26B-A4B-it-speculator.eagle3"
      - "--num-speculative-tokens"
      - "3"
      # 3. Performance & Memory
      - "--gpu-memory-utilization"
      - "0.82"
      - "--max-model-len"
      - "98304"
      - "--trust-remote-code"
      - "--host"
      - "0.0.0.0"
"""


def test_a_rolling_vllm_image_in_a_compose_file_refuses_the_v0_flags():
    launch, findings = _launch(COMPOSE_NIGHTLY)
    assert (launch["engine"], launch["draft_model"], launch["num_steps"]) == (
        "vllm", "RedHatAI/gemma-4-26B-A4B-it-speculator.eagle3", 3)
    # before: no finding (the image's tag was not read, and an unknown release refuses nothing)
    [finding] = findings
    assert finding.code == "SD102"
    assert [e.split(":")[0] for e in finding.evidence] == [
        "--speculative-method", "--speculative-model", "--num-speculative-tokens"]
    assert "vLLM removed it in 0.8.3; on nightly argparse exits with 'unrecognized arguments'" in finding.evidence[1]
    # no tag is docker's latest; a host-read version still wins over a rolling tag
    untagged = COMPOSE_NIGHTLY.replace("vllm/vllm-openai:nightly", "vllm/vllm-openai")
    assert [f.code for f in _launch(untagged)[1]] == ["SD102"]
    [older] = _launch(COMPOSE_NIGHTLY, engine={"name": "vllm", "version": "0.8.2"})[1]
    # 0.8.2 still had the V0 flags (never --speculative-method)
    assert [e.split(":")[0] for e in older.evidence] == ["--speculative-method", "method eagle3"]


# The SGLang EAGLE command of tests/diagnose/test_hardening19_review_launch.py (0.4.6 docker run)
# as the container of a Kubernetes Deployment, pinned to the same release image.
K8S_PINNED = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: sglang-eagle
spec:
  template:
    spec:
      containers:
      - name: sglang
        image: lmsysorg/sglang:v0.4.6.post1-cu124
        env:
        - name: SGLANG_ENABLE_TORCH_COMPILE
          value: "0"
        command: ["python3", "-m", "sglang.launch_server"]
        args:
        - --model-path
        - meta-llama/Llama-2-7b-chat-hf
        - --speculative-algo
        - EAGLE
        - --speculative-draft
        - lmzheng/sglang-EAGLE-llama2-chat-7B
        - --speculative-num-steps
        - "5"
        - --speculative-eagle-topk
        - "8"
        - --speculative-num-draft-tokens
        - "64"
"""


def test_a_release_image_in_a_kubernetes_container_names_the_release():
    from spec_debug.diagnose.launch import image_release

    cfg = parse_launch_command(K8S_PINNED)
    assert image_release(cfg.argv, "sglang") == "0.4.6.post1"  # (the env word before the image skipped)
    # before: judged by the newest rules, --speculative-draft "ambiguous": a false SD102
    assert _launch(K8S_PINNED)[1] == []
    newer = K8S_PINNED.replace("v0.4.6.post1-cu124", "v0.5.6")
    assert [f.code for f in _launch(newer)[1]] == ["SD102"]


# ai-dynamo/dynamo examples/backends/vllm/launch/agg_spec_decoding.sh (as in the wxsms/dynamo
# fork, https://github.com/wxsms/dynamo/blob/main/examples/backends/vllm/launch/agg_spec_decoding.sh):
# NVIDIA Dynamo's vLLM worker with an EAGLE-3 draft, the model in a script variable.
DYNAMO_VLLM = """#!/bin/bash
set -e
trap 'echo Cleaning up...; kill 0' EXIT

SCRIPT_DIR="$(dirname "$(readlink -f "$0")")"
source "$SCRIPT_DIR/../../../common/launch_utils.sh"

MODEL="meta-llama/Meta-Llama-3.1-8B-Instruct"
HTTP_PORT="${DYN_HTTP_PORT:-8000}"
print_launch_banner "Launching Speculative Decoding (1 GPU)" "$MODEL" "$HTTP_PORT"

# ---------------------------
# 1. Frontend (Ingress)
# ---------------------------
python -m dynamo.frontend --http-port="$HTTP_PORT" &


# ---------------------------
# 2. Speculative Main Worker
# ---------------------------
# This runs the main model with EAGLE as the draft model for speculative decoding
DYN_SYSTEM_ENABLED=true DYN_SYSTEM_PORT=8081 \\
CUDA_VISIBLE_DEVICES=0 python -m dynamo.vllm \\
    --model "$MODEL" \\
    --enforce-eager \\
    --speculative_config '{
        "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B",
        "draft_tensor_parallel_size": 1,
        "num_speculative_tokens": 2,
        "method": "eagle3"
    }' \\
    --gpu-memory-utilization 0.8 &

# Exit on first worker failure; kill 0 in the EXIT trap tears down the rest
wait_any_exit
"""


def test_a_dynamo_worker_is_the_engine_it_runs_and_script_variables_are_read():
    cfg = parse_launch_command(DYNAMO_VLLM)
    # before: "not an SGLang or vLLM server command"; then the target read as "$MODEL"
    assert (cfg.engine, cfg.target_model, cfg.draft_model, cfg.algorithm, cfg.num_steps) == (
        "vllm", "meta-llama/Meta-Llama-3.1-8B-Instruct", "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "EAGLE3", 2)
    sglang = parse_launch_command("python3 -m dynamo.sglang --model-path Qwen/Qwen3-8B --tp 1 --speculative-algorithm "
                                  "EAGLE3 --speculative-draft-model-path AngelSlim/Qwen3-8B_eagle3 --speculative-num-steps 3 "
                                  "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4 --migration-limit=3")
    assert (sglang.engine, sglang.algorithm, sglang.num_steps) == ("sglang", "EAGLE3", 3)


def test_only_plain_values_assigned_in_the_text_are_read_and_not_in_single_quotes():
    cfg = parse_launch_command("DRAFT=/models/draft\nSTEPS=${STEPS:-3}\n"
                               "vllm serve m --speculative-config '{\"model\": \"$DRAFT\", \"num_speculative_tokens\": 3}'")
    assert cfg.draft_model == "$DRAFT"  # bash leaves it as written inside single quotes
    cfg = parse_launch_command("DRAFT=/models/draft\nvllm serve m --speculative-config "
                               "\"{\\\"model\\\": \\\"$DRAFT\\\", \\\"num_speculative_tokens\\\": 3}\"")
    assert cfg.draft_model == "/models/draft"
    with pytest.raises(LaunchParseError, match="shell expression"):
        # a default the environment may override is not taken for the value
        parse_launch_command("STEPS=${STEPS:-3}\npython3 -m sglang.launch_server --model-path m "
                             "--speculative-algorithm EAGLE3 --speculative-num-steps $STEPS")


def test_the_probe_reads_the_model_named_by_a_script_variable(tmp_path):
    from spec_debug.probes import launch_flags

    draft = tmp_path / "eagle3-draft"
    draft.mkdir()
    (draft / "config.json").write_text('{"architectures": ["LlamaForCausalLMEagle3"], "model_type": "llama"}')
    script = f"DRAFT_PATH={draft}\n" + (
        "python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE "
        "--speculative-draft-model-path $DRAFT_PATH --speculative-num-steps 3 --speculative-eagle-topk 1 "
        "--speculative-num-draft-tokens 4")
    host = launch_flags.run({"server_cmdline": script})
    # before: no config read (the draft named only as $DRAFT_PATH), so no SD103
    launch, findings = _launch(script, models=host["models"])
    assert launch["draft_model"] == str(draft)
    assert [f.code for f in findings] == ["SD103"]


# https://github.com/vllm-project/vllm/issues/20364 ("Your current environment: vLLM v0.9.1"): the
# container's `args:` as pasted in the issue, without the image whose entrypoint is the server.
ISSUE_20364_ARGS = """args:
  - --model
  - meta-llama/Llama-3.3-70B-Instruct
  - --quantization
  - fp8
  - --tensor-parallel-size
  - "2"
  - --gpu-memory-utilization
  - "0.85"
  - --max-model-len
  - "65536"
  - --disable-custom-all-reduce
  - --speculative-config={"model":"meta-llama/Llama-3.2-1B-Instruct","draft_tensor_parallel_size":1,"num_speculative_tokens":5}
  # Function calling
  - --enable-auto-tool-choice
  - --tool-call-parser
  - llama3_json
"""


def test_an_args_list_without_its_image_is_vllm_by_its_vllm_only_flags():
    cfg = parse_launch_command(ISSUE_20364_ARGS)
    # before: "not an SGLang or vLLM server command"
    assert (cfg.engine, cfg.target_model, cfg.draft_model, cfg.num_steps, cfg.tp) == (
        "vllm", "meta-llama/Llama-3.3-70B-Instruct", "meta-llama/Llama-3.2-1B-Instruct", 5, 2)
    # SGLang's own names keep it unread: no guess between the engines
    with pytest.raises(LaunchParseError, match="not an SGLang or vLLM server command"):
        parse_launch_command(ISSUE_20364_ARGS.replace("--model\n", "--model-path\n"))


def test_the_other_engines_speculative_flags_are_named():
    # SGLang's flags on `vllm serve` (the SGLang docs' EAGLE-3 flags with vLLM's server), and
    # vLLM's --speculative-config on SGLang: before, read as no speculation, no finding
    _, findings = _launch("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
                          "--speculative-draft-model-path yuhuili/EAGLE3-LLaMA3.1-Instruct-8B --speculative-num-steps 3")
    [finding] = findings
    assert finding.code == "SD102" and len(finding.evidence) == 3
    assert finding.evidence[0].startswith("--speculative-algorithm: vLLM has no such option (it is SGLang's)")
    _, findings = _launch("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
                          "--speculative-config '{\"method\": \"eagle3\", \"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", "
                          "\"num_speculative_tokens\": 3}'")
    [finding] = findings
    assert finding.evidence[0].startswith("--speculative-config is vLLM's option, and SGLang has none by that name")
    # vLLM's own spellings stay silent: the JSON, its dotted keys, an abbreviation of it
    for command in ("vllm serve m --speculative-config.method ngram --speculative-config.num_speculative_tokens 3 "
                    "--speculative-config.prompt_lookup_max 4",
                    "vllm serve m --speculative '{\"method\": \"ngram\", \"num_speculative_tokens\": 3, "
                    "\"prompt_lookup_max\": 4}'"):
        assert not any("no such option" in p for p in effective_spec(parse_launch_command(command)).problems)


def test_a_refused_command_gets_the_fix_its_lines_name_not_the_budget_rule():
    [finding] = _launch(SUBPROCESS_EAGLE)[1]
    # before: the catalog's "For chains (topk 1) set draft tokens = steps + 1 ..." under the title
    # "Draft-token budget inconsistent with steps and topk", for a method name vLLM does not have
    assert finding.title == "The engine refuses this launch command at startup"
    assert finding.remediation.startswith("Make the change each line names")
    # a budget the engine runs differently keeps the catalog's wording
    [budget] = _launch("python3 -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 "
                       "--speculative-draft-model-path d --speculative-num-steps 5 --speculative-eagle-topk 8 "
                       "--speculative-num-draft-tokens 4")[1]
    assert budget.title == "Draft-token budget inconsistent with steps and topk"
    assert budget.remediation.startswith("For chains (topk 1)")


# SkyPilot's LoRA serve.yaml for Llama 3.1 (a public SkyPilot finetuning guide, GitHub code index):
# the tensor-parallel size is SkyPilot's own variable.
SKYPILOT_RUN = """run: |
  vllm serve meta-llama/Meta-Llama-3.1-${MODEL_SIZE}-Instruct \\
    --tensor-parallel-size $SKYPILOT_NUM_GPUS_PER_NODE --enable-lora \\
    --lora-modules $LORA_NAME=/checkpoints/${MODEL_SIZE}-lora/Meta-Llama-3.1-${MODEL_SIZE}-Instruct/ \\
    --max-model-len=2048 --port 8081
"""


def test_a_serving_size_in_a_shell_variable_is_unknown_not_the_whole_command():
    cfg = parse_launch_command(SKYPILOT_RUN)
    # before: "--tensor-parallel-size holds the shell expression '$SKYPILOT_NUM_GPUS_PER_NODE'" (SD004)
    assert (cfg.engine, cfg.tp, cfg.unexpanded, cfg.speculative) == ("vllm", None, ("tensor-parallel-size",), False)
    speculative = SKYPILOT_RUN.replace("--max-model-len=2048", "--max-model-len=2048 --speculative-config "
                                       "'{\"method\": \"eagle3\", \"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", "
                                       "\"num_speculative_tokens\": 1, \"draft_tensor_parallel_size\": 1}'")
    launch, findings = _launch(speculative)
    assert launch["num_steps"] == 1 and [f.code for f in findings] == ["SD101"]
    # an unknown target size refuses no draft size; the speculative values themselves must be written
    assert effective_spec(parse_launch_command(speculative.replace('"draft_tensor_parallel_size": 1',
                                                                   '"draft_tensor_parallel_size": 4'))).problems == []
    with pytest.raises(LaunchParseError, match="shell expression"):
        parse_launch_command(speculative.replace('"num_speculative_tokens": 1', '"num_speculative_tokens": $K'))


# A public vLLM benchmark script (GitHub code index, "Measure one TP2 Student SD replica at a
# caller-selected MPS limit"): the model bound to a local name, the speculative config a dict(...) call.
STUDENT_SD = '"""Measure one TP2 Student SD replica at a caller-selected MPS limit.\n\nRun in a fresh process for each limit. Uses fixed prompts and greedy decoding;\nno Teacher or Actor is active. Two warmups, three measured repeats by default.\n"""\nimport argparse\nimport json\nimport os\nimport time\nfrom pathlib import Path\n\n\ndef main():\n    parser = argparse.ArgumentParser(__doc__)\n    parser.add_argument(\'--data\', required=True)\n    parser.add_argument(\'--output\', required=True)\n    parser.add_argument(\'--batch-size\', type=int, default=24)\n    parser.add_argument(\'--fixed-length\', type=int, default=0, help=\'Force this response length for a capacity-only control\')\n    args = parser.parse_args()\n    import pyarrow.parquet as pq\n    import torch\n    from transformers import AutoTokenizer\n    from vllm import LLM, SamplingParams\n\n    model = \'Qwen/Qwen3-0.6B\'\n    tokenizer = AutoTokenizer.from_pretrained(model)\n    rows = pq.read_table(args.data).slice(0, args.batch_size).to_pylist()\n    prompts = [{\'prompt_token_ids\': tokenizer.apply_chat_template(\n        row[\'prompt\'], tokenize=True, add_generation_prompt=True, return_dict=False\n    )} for row in rows]\n    llm = LLM(\n        model=model, dtype=\'bfloat16\', tensor_parallel_size=2,\n        gpu_memory_utilization=0.4, max_model_len=3073, max_num_seqs=32,\n        enable_prefix_caching=False, seed=42,\n        speculative_config=dict(method=\'eagle3\', model=\'GavinLucky/SGLang-EAGLE3-Qwen3-0.6B-SpecForge\',\n                                num_speculative_tokens=3, draft_tensor_parallel_size=2,\n                                rejection_sample_method=\'standard\', draft_sample_method=\'greedy\'),\n        compilation_config=dict(cudagraph_mode=\'PIECEWISE\', cudagraph_capture_sizes=[4,8,16,32,64,96,128]),\n    )\n    params = SamplingParams(temperature=0, max_tokens=args.fixed_length or 2048,\n                            min_tokens=args.fixed_length, ignore_eos=bool(args.fixed_length), seed=42)\n'


def test_a_speculative_config_built_with_dict_is_read():
    cfg = parse_launch_command(STUDENT_SD)
    # before: "LLM(...): speculative_config is the Python expression 'dict(method=...)'"
    assert (cfg.target_model, cfg.draft_model, cfg.algorithm, cfg.num_steps, cfg.tp) == (
        "Qwen/Qwen3-0.6B", "GavinLucky/SGLang-EAGLE3-Qwen3-0.6B-SpecForge", "EAGLE3", 3, 2)
    assert cfg.speculative_config["draft_tensor_parallel_size"] == 2
