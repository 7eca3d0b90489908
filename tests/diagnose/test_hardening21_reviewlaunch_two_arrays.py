"""A line that expands two bash arrays (session 12 review of 58b0829).

The array reader replaced only the first `"${NAME[@]}"` of a line, so a script that keeps the
launcher and the flags apart (`"${LAUNCHER[@]}" "${ARGS[@]}"`, or the common and the speculative
flags: `python3 -m sglang.launch_server "${COMMON[@]}" "${SPEC[@]}"`) was audited without the
second array: its speculative flags unread (SD004), the SD101 for one step lost.
"""

from __future__ import annotations

from spec_debug.diagnose.launch import split_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


SPEC = ("--speculative-algorithm EAGLE3 --speculative-draft-model-path /models/eagle3 "
        "--speculative-num-steps 1 --speculative-eagle-topk 1 --speculative-num-draft-tokens 2")


def test_the_launcher_and_its_flags_in_two_arrays():
    launch, findings = _findings(f"LAUNCHER=(python3 -m sglang.launch_server)\n"
                                 f"ARGS=(--model-path /models/llama {SPEC})\n"
                                 f'"${{LAUNCHER[@]}}" "${{ARGS[@]}}" 2>&1 | tee server.log\n')
    assert (launch["engine"], launch["algorithm"], launch["num_steps"]) == ("sglang", "EAGLE3", 1)
    assert [f.code for f in findings] == ["SD101"]


def test_common_and_speculative_flags_in_two_arrays():
    launch, findings = _findings(f"COMMON=(--model-path /models/llama --tp 8)\n"
                                 f"SPEC=({SPEC})\n"
                                 f'python3 -m sglang.launch_server "${{COMMON[@]}}" "${{SPEC[@]}}" --port 30000\n')
    assert launch["argv"][-2:] == ["--port", "30000"] and launch["draft_model"] == "/models/eagle3"
    assert [f.code for f in findings] == ["SD101"]


def test_each_value_of_each_array():
    # an array given two values (the branches of an `if`) is written once per value, with the other's
    argv = split_command("if [ -n \"$FAST\" ]; then\n  SPEC=(--speculative-num-steps 3)\nelse\n  SPEC=(--speculative-num-steps 1)\nfi\n"
                         "BASE=(python3 -m sglang.launch_server --model-path m)\n"
                         '"${BASE[@]}" --speculative-algorithm EAGLE3 "${SPEC[@]}"\n')
    assert argv[:3] == ["python3", "-m", "sglang.launch_server"] and "--speculative-num-steps" in argv
