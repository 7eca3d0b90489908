"""A systemd unit's `UnsetEnvironment=` takes its variable away from the audited server.

systemd.exec(5), UnsetEnvironment=: a space-separated list of names or `NAME=value` assignments;
a name removes every assignment of it, an assignment only that exact one, and "the effect of
UnsetEnvironment= is applied as final step when the environment list passed to executed processes
is compiled" (so it undoes an Environment= wherever the lines stand); an empty assignment resets
the list. Before: a unit with `Environment=SGLANG_ENABLE_SPEC_V2=1` and
`UnsetEnvironment=SGLANG_ENABLE_SPEC_V2` was audited as if the server ran with spec v2 on. Now
the server's environment is what systemd gives it.
"""

from __future__ import annotations

from spec_debug.diagnose.launch import parse_launch_command

_EXEC = ("ExecStart=/opt/venv/bin/python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
         "--speculative-algorithm EAGLE3 --speculative-draft-model-path lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B "
         "--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4\n")


def _unit(*lines: str) -> str:
    return "[Unit]\nDescription=SGLang\n\n[Service]\n" + "".join(line + "\n" for line in lines)


def test_a_name_unsets_the_variable_set_above_it() -> None:
    cfg = parse_launch_command(_unit("Environment=SGLANG_ENABLE_SPEC_V2=1 SGLANG_LOG_LEVEL=debug",
                                     "UnsetEnvironment=SGLANG_ENABLE_SPEC_V2") + _EXEC)
    assert cfg.env == {"SGLANG_LOG_LEVEL": "debug"}


def test_unset_applies_wherever_the_line_stands() -> None:
    cfg = parse_launch_command(_unit("UnsetEnvironment=SGLANG_ENABLE_SPEC_V2") + _EXEC
                               + "Environment=SGLANG_ENABLE_SPEC_V2=1\n")
    assert cfg.env == {}


def test_an_assignment_unsets_only_that_exact_value() -> None:
    cfg = parse_launch_command(_unit("Environment=SGLANG_ENABLE_SPEC_V2=1",
                                     "UnsetEnvironment=SGLANG_ENABLE_SPEC_V2=0") + _EXEC)
    assert cfg.env == {"SGLANG_ENABLE_SPEC_V2": "1"}
    cfg = parse_launch_command(_unit("Environment=SGLANG_ENABLE_SPEC_V2=1",
                                     "UnsetEnvironment=SGLANG_ENABLE_SPEC_V2=1") + _EXEC)
    assert cfg.env == {}


def test_a_drop_in_empty_unset_resets_the_list() -> None:
    text = (_unit("Environment=SGLANG_ENABLE_SPEC_V2=1", "UnsetEnvironment=SGLANG_ENABLE_SPEC_V2") + _EXEC
            + "\n# /etc/systemd/system/sglang.service.d/override.conf\n[Service]\nUnsetEnvironment=\n")
    assert parse_launch_command(text).env == {"SGLANG_ENABLE_SPEC_V2": "1"}


def test_a_unit_without_unset_reads_as_before() -> None:
    cfg = parse_launch_command(_unit("Environment=SGLANG_ENABLE_SPEC_V2=1") + _EXEC)
    assert (cfg.num_steps, cfg.env) == (3, {"SGLANG_ENABLE_SPEC_V2": "1"})
