"""A one-line `vllm serve M --speculative-config {"method":"eagle3",...}` is a typed command (session 14).

It was read as a `ps` copy (quotes kept) and audited as a valid EAGLE-3 config. But bash removes
the double quotes and brace-expands the object at its commas (`printf '[%s]\\n'
--speculative-config={"method":"eagle3","model":"d"}` prints [--speculative-config=method:eagle3]
[--speculative-config=model:d]), so vLLM refuses it and the server does not start. A `ps` copy
never starts with the bare `vllm serve`: the console script's `#!` line makes the kernel run the
interpreter with the script's full path (execve(2), "Interpreter scripts"), so `ps` shows
`/usr/bin/python3 /usr/local/bin/vllm serve ...`. A JSON with spaces stays a listing of the
argv, as before (a shell would have split it into words no server takes).
"""

from __future__ import annotations

import json

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command
from spec_debug.diagnose.steps import launch_step

SPEC = '{"method":"eagle3","model":"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B","num_speculative_tokens":3}'


@pytest.mark.parametrize("line", [
    f"vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config {SPEC}",
    f"vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config={SPEC} --port 8000",
    f"$ vllm serve meta-llama/Llama-3.1-8B-Instruct -sc {SPEC}",
])
def test_a_typed_line_says_the_shell_removed_the_quotes(line):
    with pytest.raises(LaunchParseError) as exc:
        parse_launch_command(line)
    assert "JSON written unquoted in a shell command" in exc.value.message
    assert "server does not start" in exc.value.message
    quoted = exc.value.hint.split("--speculative-config ", 1)[1]
    assert json.loads(quoted.strip("'")) == json.loads(SPEC)


def test_the_audit_says_so_in_one_line():
    facts = launch_step.parse({"source": "var", "models": {}, "cmdline":
                               f"vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config {SPEC}"})
    assert not facts["launch"]["found"]
    assert "JSON written unquoted" in facts["launch"]["error"] and "\n" not in facts["launch"]["error"]


@pytest.mark.parametrize("program", ["/usr/bin/python3 /usr/local/bin/vllm serve",
                                     "/opt/venv/bin/python /opt/venv/bin/vllm serve",
                                     "python3 -m vllm.entrypoints.openai.api_server --model"])
def test_what_ps_shows_keeps_its_json(program):
    cfg = parse_launch_command(f"{program} meta-llama/Llama-3.1-8B-Instruct --speculative-config {SPEC}")
    assert (cfg.algorithm, cfg.num_steps, cfg.draft_model) == ("EAGLE3", 3, "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B")


def test_a_json_with_spaces_is_still_a_listing():
    cfg = parse_launch_command('vllm serve m --speculative-config {"method": "eagle3", "model": "d", '
                               '"num_speculative_tokens": 3}')
    assert cfg.num_steps == 3
