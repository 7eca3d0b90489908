"""The launch probe reads the config of a model whose path holds a space, from a pasted `ps` line.

`ps -o args` of a running `vllm serve` prints `/usr/bin/python3 /usr/local/bin/vllm serve /srv/AI
Models/Qwen3-8B --port 8000 ...`: the path's space is a word break there, as between any two argv
words. The controller reads the words up to the first flag as the one model path (a process
listing: the interpreter before the script's full path).

Before: the probe looked for `/srv/AI` and `Models/Qwen3-8B`, found neither, and the audit said the
target's config.json was not found on the host. Now: it reads `/srv/AI Models/Qwen3-8B/config.json`,
and launch_step pairs it with the target the controller reads.
"""

from __future__ import annotations

import json

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes import launch_flags


def test_the_listed_target_config_is_read(tmp_path) -> None:
    target = tmp_path / "AI Models" / "Qwen3-8B"
    target.mkdir(parents=True)
    (target / "config.json").write_text(json.dumps({"architectures": ["Qwen3ForCausalLM"], "hidden_size": 4096,
                                                    "num_hidden_layers": 36}))
    first, rest = str(target).split(" ", 1)
    line = (f"/usr/bin/python3 /usr/local/bin/vllm serve {first} {rest} --port 8000 --speculative-config "
            '{"method": "eagle3", "model": "/nonexistent/draft", "num_speculative_tokens": 3}')
    host = launch_flags.run({"server_cmdline": line})
    assert host["models"][str(target)]["found"] is True
    facts = launch_step.parse(host)
    assert facts["launch"]["target_model"] == str(target)
    assert facts["launch"]["target_path"] == str(target)
    assert facts["launch"]["target_config"]["architectures"] == ["Qwen3ForCausalLM"]


def test_a_typed_command_adds_no_joined_path() -> None:
    assert launch_flags.model_refs(["vllm", "serve", "/srv/AI", "Models/Qwen3-8B", "--port", "8000"]) == [
        "/srv/AI", "Models/Qwen3-8B"]
