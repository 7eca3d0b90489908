"""`when: steps.gpu.status == 'pass'`: a word no step's status is, refused at load.

The comparison is false (or, with !=, true) on every host, so the step was skipped (or run)
everywhere and the run passed with nothing to say the word was misspelt. A step's status is
one of record.StepStatus; Ansible's `ok`/`success` and a capitalised `Failed` name the one meant.
"""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook

PLAYBOOK = """name: p
steps:
  - id: gpu
    run: nvidia-smi
  - id: fallback
    when: {when}
    run: echo cpu
"""


@pytest.mark.parametrize("when, word, meant", [
    ("steps.gpu.status == 'pass'", "pass", "'passed'"),
    ("steps['gpu'].status in ['ok', 'failed']", "ok", "'passed'"),
    ("'Failed' != steps.gpu.status", "Failed", "'failed'"),
    ("steps.gpu.status == 'broken'", "broken", None),
])
def test_a_status_word_no_step_has_is_refused_where_it_is_written(write_playbook, when, word, meant):
    with pytest.raises(PlaybookError) as raised:
        load_playbook(write_playbook(PLAYBOOK.format(when=f'"{when}"')))
    error = raised.value
    assert (error.line, error.column) == (6, 11) and f"steps.gpu.status with {word!r}" in error.message, error
    assert error.hint.endswith("one of passed, failed, error, skipped, timeout")
    assert (f"write {meant};" in error.hint) if meant else not error.hint.startswith("write")


def test_every_status_and_other_comparisons_load(write_playbook):
    when = "steps.gpu.status in ('failed', 'error', 'timeout') or steps.gpu.status == 'skipped' or steps.gpu.stdout == 'ok'"
    assert load_playbook(write_playbook(PLAYBOOK.format(when=f'"{when}"'))).playbook.steps[1].when == when


@pytest.mark.parametrize("field, check, shown, hint", [
    ("that", 'exit_code == "0"', "exit_code", "write the number without quotes: 0, not '0'"),
    ("that", "steps.gpu.duration_s > '5.5'", "steps.gpu.duration_s", "write the number without quotes: 5.5, not '5.5'"),
    ("that", "steps['gpu'].exit_code in ['0', '1']", "steps.gpu.exit_code", "write the number without quotes: 0, not '0'"),
    ("until", "exit_code != 'ok'", "exit_code", "exit_code is a number (0 for success)"),
])
def test_a_result_number_compared_with_text_is_refused(write_playbook, field, check, shown, hint):
    # `that: exit_code == "0"` was false on every host: a false SD001 'expected that ... observed False'.
    text = (f"name: p\nsteps:\n  - id: gpu\n    run: nvidia-smi\n  - id: check\n    run: 'true'\n"
            f"    retries: 1\n    {'until' if field == 'until' else 'expect'}: {check!r}\n")
    if field == "that":
        text = text.replace(f"    expect: {check!r}\n", f"    expect:\n      - that: {check!r}\n")
    with pytest.raises(PlaybookError) as raised:
        load_playbook(write_playbook(text))
    error = raised.value
    assert f"compares {shown}, a number, with the text" in error.message and error.hint == hint, error
    assert error.line == 8 + (field == "that") and error.key_path.startswith("steps[1].")


def test_numbers_and_text_fields_compared_as_written_load(write_playbook):
    text = ("name: p\nsteps:\n  - id: gpu\n    run: nvidia-smi\n  - id: check\n    run: 'true'\n    expect:\n"
            "      - that: exit_code == 0 and steps.gpu.exit_code in [0, 1] and steps.gpu.stdout != '0'\n")
    load_playbook(write_playbook(text))


CAPTURED = """name: p
steps:
  - id: batch
    run: "echo 'running-req: 5'"
    capture:
      - regex: 'running-req: (?P<running>\\d+)'
{extra}    expect:
      - that: {that}
"""


@pytest.mark.parametrize("extra", ["", "        type: int\n"])
def test_a_captured_number_compared_with_quoted_digits_is_refused(write_playbook, extra):
    # A regex capture of '5' (type auto or int) is the number 5: `facts.running == "5"` was a
    # false SD001 on every host.
    with pytest.raises(PlaybookError) as raised:
        load_playbook(write_playbook(CAPTURED.format(extra=extra, that="facts.running == \"5\"")))
    error = raised.value
    assert "compares facts.running, a number once captured, with the text '5'" in error.message
    assert error.hint == "write the number without quotes: 5, not '5' (or give the capture type: str)"
    assert error.line == 8 + extra.count("\n")


@pytest.mark.parametrize("extra, that", [
    ("        type: str\n", 'facts.running == "5"'),
    ("        default: 'none'\n", 'facts.running != "5"'),
    ("", "facts.running == 5"),
    ("", "facts.running | string == '5'"),
])
def test_text_facts_and_numbers_compared_as_numbers_load(write_playbook, extra, that):
    load_playbook(write_playbook(CAPTURED.format(extra=extra, that=that)))
