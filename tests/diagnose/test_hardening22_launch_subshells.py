"""A server started in a subshell, a group or with a process substitution (session 13).

bash(1): `(` and `)` are metacharacters ("Compound Commands": `(list)` runs list in a subshell),
`{` and `then`/`do` are reserved words before a command, and `>(list)` is a process substitution
("Process Substitution"), one word. The audit split them as words: `(python3 -m
sglang.launch_server ... --speculative-num-draft-tokens 4)&` said 'expects an integer, got
'4)'' (SD004, the command not audited), `> >(tee log)` gave vLLM the word 'log)', and `{
SGLANG_ENABLE_SPEC_V2=1 python3 ...; }` lost the server's environment behind the `{`.
"""

from __future__ import annotations

from spec_debug.diagnose.launch import parse_launch_command, split_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

SERVER = ("python3 -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path d --speculative-num-steps 1 --speculative-eagle-topk 1 "
          "--speculative-num-draft-tokens 2")


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


def test_a_subshell_around_the_server_is_audited():
    launch, findings = _findings(f"({SERVER})&")
    assert launch["found"] and launch["num_draft_tokens"] == 2
    assert [f.code for f in findings] == ["SD101"]
    assert split_command(f"( cd /srv && {SERVER} ) > server.log 2>&1 &") == SERVER.split()


def test_a_process_substitution_is_no_word_of_the_server():
    assert split_command("vllm serve m --port 8000 > >(tee server.log) 2>&1 &") == ["vllm", "serve", "m", "--port", "8000"]
    assert split_command("vllm serve m 2> >(grep -v WARNING >&2)") == ["vllm", "serve", "m"]


def test_a_group_keeps_the_servers_environment():
    cfg = parse_launch_command(f"{{ SGLANG_ENABLE_SPEC_V2=1 {SERVER}; }} 2>&1 | tee server.log")
    assert cfg.env == {"SGLANG_ENABLE_SPEC_V2": "1"}
    assert parse_launch_command(f"if [ -d /models ]; then SGLANG_ENABLE_SPEC_V2=1 {SERVER}; fi").env == {
        "SGLANG_ENABLE_SPEC_V2": "1"}


def test_parentheses_in_quotes_values_and_arrays_stay():
    assert split_command("vllm serve m --chat-template '(x)' --served-model-name a(b)")[-3:] == ["(x)", "--served-model-name", "a(b)"]
    assert split_command('cmd=(python3 -m sglang.launch_server --model-path m)\n"${cmd[@]}" --port 1') == [
        "python3", "-m", "sglang.launch_server", "--model-path", "m", "--port", "1"]


def test_exec_env_gives_the_server_its_environment():
    # an entrypoint script's last line; `exec` stays in argv, as the array tests read it
    spec_v2_tree = SERVER.replace("--speculative-num-steps 1 --speculative-eagle-topk 1 --speculative-num-draft-tokens 2",
                                  "--speculative-num-steps 3 --speculative-eagle-topk 4 --speculative-num-draft-tokens 8")
    launch, findings = _findings(f"exec env SGLANG_ENABLE_SPEC_V2=1 {spec_v2_tree}")
    assert launch["found"]
    assert [f.code for f in findings] == ["SD102"] and "SGLANG_ENABLE_SPEC_V2=1" in findings[0].evidence[0]
