"""A container whose entrypoint is a shell runs the `-c` string after its image (session 13).

`docker run --entrypoint bash IMAGE -c "python -m sglang.launch_server ..."`: the entrypoint
replaces the image's and is given the words after the image (docker run reference,
"--entrypoint"), so the server is the string's command. It was 'not an SGLang or vLLM server
command' (SGLang images), or the vLLM image's own server reading `-lc` and the string as flags.
The server is kept behind the container's words, so its image still names the engine release
and its `-e` variables still reach it; `docker run IMAGE bash -c "..."` dropped the image too.
"""

from __future__ import annotations

from spec_debug.diagnose.launch import image_release, image_rolling_tag, parse_launch_command, split_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

# A public Kimi-Linear-48B-A3B Docker deployment README on GitHub ("Quick Start"), as written.
_KIMI_LINEAR = '''sudo docker run --gpus all -d --name kimi48b-awq --restart unless-stopped \\
  --ipc=host -p 8002:8000 \\
  -v "$HF_HOME":/root/.cache/huggingface \\
  -v "$VLLM_DOWNLOAD_DIR":/data/vllm_downloads \\
  -e HF_HUB_ENABLE_HF_TRANSFER=1 \\
  --entrypoint /bin/bash vllm/vllm-openai:nightly -lc "\\
    pip install -U fla-core >/dev/null 2>&1 && \\
    vllm serve cyankiwi/Kimi-Linear-48B-A3B-Instruct-AWQ-4bit \\
      --port 8000 \\
      --tensor-parallel-size 4 \\
      --max-model-len 131072 \\
      --dtype half \\
      --gpu-memory-utilization 0.5 \\
      --max-num-seqs 64 \\
      --download-dir /data/vllm_downloads \\
      --trust-remote-code"
'''

_SGLANG = ("python3 -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 "
           "--speculative-draft d --speculative-num-steps 3 --speculative-eagle-topk 1 "
           "--speculative-num-draft-tokens 4")


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


def test_a_public_readme_with_a_bash_entrypoint():
    cfg = parse_launch_command(_KIMI_LINEAR)
    assert cfg.engine == "vllm" and cfg.target_model == "cyankiwi/Kimi-Linear-48B-A3B-Instruct-AWQ-4bit"
    assert cfg.tp == 4 and "-lc" not in cfg.argv
    assert image_rolling_tag(cfg.argv, "vllm") == "nightly"


def test_an_sglang_image_with_a_bash_entrypoint_is_its_server():
    command = f'docker run --gpus all --entrypoint bash lmsysorg/sglang:v0.5.6 -c "{_SGLANG}"'
    launch, findings = _findings(command)
    assert launch["found"] and launch["engine"] == "sglang"
    # the image names the release, so --speculative-draft is refused outright (0.5.2 on)
    assert [f.code for f in findings] == ["SD102"]
    assert findings[0].title == "The engine refuses this launch command at startup"


def test_a_shell_after_the_image_keeps_the_image_and_its_env():
    cfg = parse_launch_command(f"sudo docker run -e SGLANG_ENABLE_SPEC_V2=1 lmsysorg/sglang:v0.5.6 "
                               f"bash -c 'env SGLANG_ENABLE_SPEC_V2=0 {_SGLANG}'")
    assert image_release(cfg.argv, "sglang") == "0.5.6"
    assert cfg.env["SGLANG_ENABLE_SPEC_V2"] == "0"  # the string's own env runs last


def test_a_shell_entrypoint_running_no_server_is_none():
    assert split_command("docker run --rm --entrypoint bash lmsysorg/sglang:v0.5.20 -c "
                         "'cat /sgl-workspace/sglang/python/sglang/srt/layers/attn_residual.py'") == [
        "cat", "/sgl-workspace/sglang/python/sglang/srt/layers/attn_residual.py"]
