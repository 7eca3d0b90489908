"""Playbooks as people really hand them over: through a pipe, and with shell text that Jinja
reads as its own syntax (bash `${#array[@]}`, docker's Go-template `--format '{{.Names}}'`)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook
from tests.conftest import only_run

PLAYBOOK = "name: piped\nsteps:\n  - id: hello\n    run: echo hello from a pipe\n"


def _cli(*args: str, stdin: str | None = None, shell: str | None = None) -> subprocess.CompletedProcess[str]:
    command = shell if shell is not None else [sys.executable, "-m", "spec_debug", *args]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=60,
                          shell=shell is not None, executable="/bin/bash" if shell else None,
                          env={**os.environ, "COLUMNS": "300"})


def test_a_playbook_piped_on_stdin_validates_and_runs(tmp_path):
    # `curl -s https://.../perf_regression.yaml | spec-debug run /dev/stdin --host gpu01` used to
    # say "no playbook file '/dev/stdin' and no shipped playbook by that name".
    validated = _cli("playbooks", "validate", "/dev/stdin", stdin=PLAYBOOK)
    assert validated.returncode == 0, validated.stderr
    assert "1 steps" in validated.stdout or "1 step" in validated.stdout, validated.stdout
    out = tmp_path / "runs"
    ran = _cli("run", "/dev/stdin", "--host", "local", "--out", str(out), stdin=PLAYBOOK)
    assert ran.returncode == 0, ran.stderr
    _, record = only_run(out)
    assert record["steps"][0]["stdout"] == "hello from a pipe\n"
    assert record["playbook"]["name"] == "piped" and len(record["playbook"]["sha256"]) == 64
    dash = _cli("playbooks", "validate", "-", stdin=PLAYBOOK)
    assert dash.returncode == 0, dash.stderr


def test_process_substitution_and_a_broken_piped_playbook_name_the_place(tmp_path):
    source = tmp_path / "p.yaml"
    source.write_text(PLAYBOOK)
    ok = _cli(shell=f"{sys.executable} -m spec_debug playbooks validate <(cat {source})")
    assert ok.returncode == 0, ok.stderr
    broken = _cli("playbooks", "validate", "/dev/stdin", stdin="name: x\nsteps:\n  - id: a\n    run: [\n")
    assert broken.returncode == 2 and "Traceback" not in broken.stderr
    assert broken.stderr.startswith("error: /dev/stdin:"), broken.stderr
    assert "YAML syntax error" in broken.stderr


def test_a_piped_stream_is_read_only_up_to_the_size_limit(tmp_path):
    # /dev/zero (or a log piped by mistake) is endless: refuse after the limit, do not hang.
    result = _cli("playbooks", "validate", "/dev/zero")
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert "is not a playbook" in result.stderr


SHELL_BRACES = {
    # bash's length operator: Jinja took `{#` as an unclosed comment.
    "bash_array_length": (
        "name: x\nsteps:\n  - id: gpus\n    run: |\n      ids=($(nvidia-smi --query-gpu=index --format=csv,noheader))\n"
        "      echo ${#ids[@]}\n",
        "6:13", "{#", "{% raw %}",
    ),
    # docker's Go template: Jinja reads {{.State.Status}} and stops at the dot.
    "docker_go_template": (
        "name: x\nsteps:\n  - id: container\n    title: Is the server container up?\n"
        "    run: docker inspect --format '{{.State.Status}}' sglang\n",
        "5:35", "Go template", "{% raw %}",
    ),
    "kubectl_go_template_in_block": (
        "name: x\nsteps:\n  - id: pods\n    run: |\n      set -e\n      kubectl get pods -o go-template='{{range .items}}{{.metadata.name}}{{end}}'\n",
        "6:40", "Go template", "{% raw %}",
    ),
}


@pytest.mark.parametrize("case", sorted(SHELL_BRACES))
def test_shell_text_that_jinja_misreads_points_at_it_and_says_how_to_keep_it(tmp_path, case):
    text, where, explains, fix = SHELL_BRACES[case]
    path = tmp_path / "p.yaml"
    path.write_text(text)
    with pytest.raises(PlaybookError) as caught:
        load_playbook(path)
    assert caught.value.message.startswith(f"{path}:{where}: template syntax error"), caught.value.message
    assert explains in (caught.value.hint or "") and fix in (caught.value.hint or ""), caught.value.hint


def test_the_raw_block_the_hint_suggests_really_reaches_the_shell(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text(
        "name: x\nvars:\n  who: world\nsteps:\n  - id: a\n    run: |\n"
        "      arr=(a b c); echo {% raw %}${#arr[@]} '{{.Names}}'{% endraw %} {{ who }}\n"
    )
    out = tmp_path / "runs"
    ran = _cli("run", str(path), "--host", "local", "--out", str(out))
    assert ran.returncode == 0, ran.stderr
    assert only_run(out)[1]["steps"][0]["stdout"] == "3 {{.Names}} world\n"


def test_a_template_error_deep_in_a_long_script_points_at_its_line(tmp_path):
    # It used to point at `run: |` (line 5) for an error 30 lines further down.
    script = "".join(f"      echo line {i}\n" for i in range(30)) + "      echo {{ model_path | }}\n"
    path = tmp_path / "p.yaml"
    path.write_text("name: x\nvars:\n  model_path: /m\nsteps:\n  - id: a\n    run: |\n" + script)
    with pytest.raises(PlaybookError) as caught:
        load_playbook(path)
    assert caught.value.message.startswith(f"{path}:37:12: template syntax error"), caught.value.message


# Shapes that people write out of habit (Ansible, docker-compose, GitHub Actions): one line
# that says how to write it, and never the whole value echoed back.
HABITS = {
    "steps_as_mapping": (
        "name: x\nsteps:\n" + "".join(f"  step{i}:\n    run: echo {i} {'x' * 60}\n" for i in range(300)),
        "3:3", "start each item with '- '",
    ),
    "expect_as_mapping": ("name: x\nsteps:\n  - id: a\n    run: echo ok\n    expect:\n      exit_code: 0\n", "6:7", "- exit_code: 0"),
    "timeout_with_unit": ("name: x\nsteps:\n  - id: a\n    run: sleep 1\n    timeout: 30s\n", "5:14", "timeout: 30"),
    "timeout_in_minutes": ("name: x\nsteps:\n  - id: a\n    run: sleep 1\n    timeout: 5m\n", "5:14", "timeout: 300"),
    "run_as_list": ("name: x\nsteps:\n  - id: a\n    run:\n      - nvidia-smi\n      - df -h\n", "5:7", "run: |"),
}


@pytest.mark.parametrize("case", sorted(HABITS))
def test_habits_from_other_tools_get_a_short_message_that_says_how(tmp_path, case):
    text, where, fix = HABITS[case]
    path = tmp_path / "p.yaml"
    path.write_text(text)
    with pytest.raises(PlaybookError) as caught:
        load_playbook(path)
    assert caught.value.message.startswith(f"{path}:{where}:"), caught.value.message
    assert len(caught.value.message) < len(str(path)) + 200, caught.value.message
    assert fix in (caught.value.hint or ""), caught.value.hint


def test_two_playbooks_in_one_file_say_so(tmp_path):
    # "YAML syntax error: but found another document" did not say what was wrong.
    path = tmp_path / "p.yaml"
    path.write_text("---\nname: a\nsteps:\n  - id: a\n    run: echo\n---\nname: b\nsteps:\n  - id: b\n    run: echo\n")
    with pytest.raises(PlaybookError) as caught:
        load_playbook(path)
    assert caught.value.message.startswith(f"{path}:6:1: the file holds more than one YAML document"), caught.value.message
    assert "file of its own" in (caught.value.hint or "")
