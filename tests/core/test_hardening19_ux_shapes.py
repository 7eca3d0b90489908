"""First-playbook shapes that said what was wrong but not what to write.

`capture: '(?P<n>...)'` and `expect: exit_code == 0` (a string where a list of mappings goes),
`vars:` written as a list of `- name: value` items, a step id written as a task name
(`GPU-Check`): validation gave pydantic's "Input should be a valid list" or "must match
[a-z0-9_]+" and no way forward. Each now gives the line to write, and that line loads."""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text


@pytest.mark.parametrize("wrong, hint_prefix", [
    ("name: t\nsteps:\n  - id: tps\n    run: echo '54.8 tok/s'\n    capture: '(?P<tok_s>[\\d.]+) tok/s'\n",
     "capture is a list of {regex: ...} or {json: ...}: "),
    ("name: t\nsteps:\n  - id: tps\n    run: echo hi\n    expect: exit_code == 0\n",
     "expect is a list of checks: "),
])
def test_a_string_where_a_list_goes_gets_a_line_that_loads(wrong, hint_prefix):
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(wrong, "t.yaml")
    hint = caught.value.hint or ""
    assert hint.startswith(hint_prefix), hint
    written = hint[len(hint_prefix):]
    key = written.split(":", 1)[0]
    fixed = "\n".join(f"    {written}" if line.startswith(f"    {key}:") else line for line in wrong.splitlines()) + "\n"
    load_playbook_text(fixed, "t.yaml")


def test_vars_written_as_a_list_is_told_to_drop_the_dashes():
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text("name: t\nvars:\n  - port: \"30000\"\n  - python: python3\nsteps:\n  - id: a\n    run: echo\n",
                           "t.yaml")
    assert (caught.value.line, caught.value.column) == (3, 3)
    assert caught.value.hint == "vars is a mapping, not a list: write 'port: ...' under vars: without the '- '"


@pytest.mark.parametrize("written, suggested", [("GPU-Check", "gpu_check"), ("Check GPU memory", "check_gpu_memory")])
def test_a_task_name_as_a_step_id_gets_an_id(written, suggested):
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(f"name: t\nsteps:\n  - id: {written}\n    run: echo\n", "t.yaml")
    assert f"must match [a-z0-9_]+: write id: {suggested}" in caught.value.message
    load_playbook_text(f"name: t\nsteps:\n  - id: {suggested}\n    run: echo\n", "t.yaml")


@pytest.mark.parametrize("written, seconds", [("1h30m", "5400"), ("2m30s", "150"), ("1h 5m", "3900")])
def test_a_go_style_duration_gets_its_seconds(written, seconds):
    # Go's time.ParseDuration and systemd.time(7) spell durations so (kubectl --request-timeout, systemd units).
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(f"name: t\nsteps:\n  - id: a\n    run: echo\n    timeout: {written}\n", "t.yaml")
    assert caught.value.hint == f"timeout is a number of seconds: write timeout: {seconds}"
    load_playbook_text(f"name: t\nsteps:\n  - id: a\n    run: echo\n    timeout: {seconds}\n", "t.yaml")


def test_a_copied_step_with_its_id_unchanged_names_the_first_and_a_free_id():
    text = ("name: t\nsteps:\n  - id: tail_log\n    run: tail -n 100 /var/log/sglang.log\n"
            "  - id: tail_log_2\n    run: echo\n  - id: tail_log\n    run: tail -n 100 /var/log/vllm.log\n")
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(text, "t.yaml")
    assert (caught.value.line, caught.value.column) == (7, 9)
    assert caught.value.hint == ("the first step with id 'tail_log' is on line 3; each id names one step (in run.json and "
                                 "in steps.ID): rename this one, e.g. id: tail_log_3")
    load_playbook_text(text.replace("  - id: tail_log\n    run: tail -n 100 /var/log/vllm",
                                    "  - id: tail_log_3\n    run: tail -n 100 /var/log/vllm"), "t.yaml")
