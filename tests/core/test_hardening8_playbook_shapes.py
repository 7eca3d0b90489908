"""Playbook shapes people bring from Ansible, docker-compose and GitHub Actions.

`<<: *defaults` (YAML merge keys) is how Ansible playbooks and compose files share settings;
PyYAML's safe_load and Ansible both honour it. It used to be refused outright. And a few
shapes pydantic words badly: a bare command as a step ("a valid dictionary or instance of
Step"), `contains: 200` read as a number, a playbook name with spaces.
"""

from __future__ import annotations

import json
import time

from typer.testing import CliRunner

from spec_debug.cli import app
from spec_debug.playbook.loader import load_playbook
from tests.conftest import run_cli


def validate(path) -> tuple[int, str]:
    """`spec-debug playbooks validate PATH` in this process (the real CLI app; a subprocess per
    broken file would cost a second each): exit code and the message on one line."""
    result = CliRunner().invoke(app, ["playbooks", "validate", str(path)], env={"COLUMNS": "2000"})
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    return result.exit_code, " ".join(result.output.split())

SHARED_DEFAULTS = """\
name: server_checks
vars:
  port: "30000"
  quick: &quick            # every probe of the server: short, retried, stop the run if down
    timeout: 1
    retries: 1
    on_failure: continue
  must_pass: &must_pass
    on_failure: stop
steps:
  - <<: *quick
    id: hangs
    run: sleep 5
  - <<: [*must_pass, *quick]   # the first mapping listed wins: on_failure: stop
    id: health
    run: echo ok
    retries: 0                 # the step's own key wins over the merged one
  - <<: *quick
    id: models
    run: echo llama
"""


def test_merge_keys_share_step_settings_as_pyyaml_and_ansible_read_them(tmp_path, write_playbook):
    playbook = write_playbook(SHARED_DEFAULTS)
    # What the merged keys set, as the loader reads them (a step's own key wins over a merged one,
    # the first mapping of a merge list over the later ones).
    loaded = {s.id: s for s in load_playbook(playbook).playbook.steps}
    assert [(loaded[i].timeout, loaded[i].retries, loaded[i].on_failure) for i in ("hangs", "health", "models")] == [
        (1, 1, "continue"), (1, 0, "stop"), (1, 1, "continue")]
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert "Traceback" not in result.stderr
    record = json.loads(result.stdout)
    steps = {s["id"]: s for s in record["steps"]}
    # The merged timeout of 1 s killed the 5 s sleep, twice (retries: 1 merged too).
    assert steps["hangs"]["status"] == "timeout" and steps["hangs"]["attempts"] == 2
    assert steps["health"]["status"] == "passed" and steps["health"]["attempts"] == 1
    assert steps["models"]["stdout"] == "llama\n"
    assert result.code == 0 or any(f["code"] == "SD002" for f in record["findings"])
    # The merged 1 s timeout (not the default one) is what ended the 5 s sleep, each attempt: the
    # record says so in words, where a bound on the test's wall clock failed on a loaded machine.
    assert steps["hangs"]["message"] == "timed out after 1 s on each of 2 attempts; process tree killed"


def test_a_merge_that_goes_wrong_points_at_the_line_that_is_wrong(tmp_path, write_playbook):
    cases = {
        # a typo inside the shared defaults is reported where it is written, with the fix
        "name: p\nvars:\n  d: &d\n    timout: 30\nsteps:\n  - <<: *d\n    id: s\n    run: echo\n":
            ("p0.yaml:4:5: unknown key 'timout'", "did you mean 'timeout'?"),
        # a merge of something that is not a mapping
        "name: p\nsteps:\n  - <<: 30\n    id: s\n    run: echo\n":
            ("p1.yaml:3:9: a merge key (<<) takes a mapping", "<<: *name"),
        # the step's own duplicate keys are still duplicates
        "name: p\nsteps:\n  - <<: {timeout: 3}\n    id: s\n    run: echo 1\n    run: echo 2\n":
            ("p2.yaml:6:5: duplicate key 'run'", ""),
    }
    # A merge bomb: each level merges the one before twice (2^40 keys if flattened naively).
    bomb = ["name: p", "vars:", "  l0: &l0 {a: 1}"]
    bomb += [f"  l{i}: &l{i}\n    <<: [*l{i - 1}, *l{i - 1}]\n    k{i}: {i}" for i in range(1, 40)]
    cases["\n".join(bomb + ["steps:", "  - id: s", "    run: echo", ""])] = ("p3.yaml:", "fewer nested merges")
    for index, (text, (where, hint)) in enumerate(cases.items()):
        playbook = write_playbook(text, f"p{index}.yaml")
        # This thread's CPU time, not the wall clock: CI's loaded worker once took over 10 s of
        # wall time here for ~0.1-0.35 s of CPU (the bomb's 2^40 keys would take forever).
        started = time.thread_time()
        code, message = validate(playbook)
        assert code == 2, message
        assert where in message and hint in message, message
        assert time.thread_time() - started < 10


def test_shapes_from_other_tools_get_a_hint_in_the_authors_words(tmp_path, write_playbook):
    cases = {
        "name: GPU smoke test\nsteps:\n  - id: s\n    run: echo\n":
            ("1:7:", "name: GPU_smoke_test"),
        "name: p\nsteps:\n  - nvidia-smi -L\n":
            ("3:5: Input should be a mapping of keys (a step) (got str 'nvidia-smi -L')", "'- id: step_1' and below it 'run: nvidia-smi -L'"),
        "name: p\nsteps:\n  - id: health\n    run: curl -s -o /dev/null -w '%{http_code}' localhost:30000/health\n"
        "    expect:\n      - contains: 200\n":
            ("6:19: Input should be a valid string (got int 200)", 'contains: "200"'),
        "name: p\nsteps:\n":
            ("2:7:", "give it at least one step"),
        # entries deleted, the key left behind
        "name: p\nvars:\nsteps:\n  - id: s\n    run: echo\n":
            ("2:6: Input should be a valid dictionary (got NoneType None)", "vars: is empty: remove the key"),
        # curl --max-time 0 means no limit
        "name: p\nsteps:\n  - id: s\n    run: sleep 1\n    timeout: 0\n":
            ("5:14: Input should be greater than 0", "for no time limit, leave timeout: out"),
        # the command forgotten: not "a step needs exactly one action"
        "name: p\nsteps:\n  - id: s\n    run:\n    timeout: 5\n":
            ("4:5: run: is empty", "give it the command on the same line"),
    }
    for index, (text, (where, hint)) in enumerate(cases.items()):
        playbook = write_playbook(text, f"s{index}.yaml")
        code, message = validate(playbook)
        assert code == 2, message
        assert f"s{index}.yaml:{where}" in message and hint in message, message
        assert "instance of Step" not in message


def test_a_command_with_a_colon_space_says_how_to_keep_it_and_the_fix_loads(tmp_path, write_playbook):
    # The request from SGLang's OpenAI-compatible API docs, pasted as a step: its header holds ': '.
    curl = ("curl -s http://localhost:30000/v1/chat/completions -H \"Content-Type: application/json\" "
            "-d '{\"model\": \"default\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}'")
    broken = write_playbook(f"name: p\nsteps:\n  - id: chat\n    run: {curl}\n    expect:\n      - contains: HTTP/1.1 200\n", "broken.yaml")
    code, message = validate(broken)
    assert code == 2, message
    assert "broken.yaml:4:" in message and "write 'run: |' and put the text on the next line" in message, message

    fixed = write_playbook(f"name: p\nsteps:\n  - id: chat\n    run: |\n      {curl}\n", "fixed.yaml")
    assert validate(fixed)[0] == 0
    assert load_playbook(fixed).playbook.steps[0].run == curl + "\n"  # the header reaches curl as written

    needle = write_playbook("name: p\nsteps:\n  - id: s\n    run: \"echo 'Status: 200'\"\n    expect:\n      - contains: Status: 200\n", "needle.yaml")
    code, message = validate(needle)
    assert "needle.yaml:6:" in message and "quote it: contains: 'Status: 200'" in message, message


ANSIBLE_PLAY = """\
- hosts: gpu_nodes
  tasks:
    - name: Check GPU memory
      shell: nvidia-smi --query-gpu=memory.used --format=csv
"""


def test_an_ansible_playbook_is_answered_in_ansibles_words(tmp_path, write_playbook):
    cases = [
        # The play list as Ansible writes it.
        (ANSIBLE_PLAY, "1:1: a playbook is a mapping", "this is an Ansible play list"),
        # One play's keys at the top.
        ("name: gpu\nhosts: gpu_nodes\ntasks:\n  - id: mem\n    run: nvidia-smi\n",
         "2:1: unknown key 'hosts'", "--host gpu01, --hosts gpu[01-04] or --inventory FILE"),
        ("name: gpu\ntasks:\n  - id: mem\n    run: nvidia-smi\n", "2:1: unknown key 'tasks'", "write steps:"),
        # A task as Ansible writes it: the unknown `name:` is named, not the missing id.
        ("name: gpu\nsteps:\n  - name: Check GPU memory\n    run: nvidia-smi\n",
         "3:5: unknown key 'name'", "write title: ... and give it an id: (e.g. id: check_gpu_memory)"),
        ("name: gpu\nsteps:\n  - id: mem\n    shell: nvidia-smi\n", "4:5: unknown key 'shell'", "under run:"),
        ("name: gpu\nsteps:\n  - id: mem\n    run: nvidia-smi\n    register: mem_out\n",
         "5:5: unknown key 'register'", "steps.<id>"),
        ("name: gpu\nsteps:\n  - id: mem\n    run: nvidia-smi\n    ignore_errors: true\n",
         "5:5: unknown key 'ignore_errors'", "exit_code: [0, 1]"),
    ]
    for index, (text, where, hint) in enumerate(cases):
        playbook = write_playbook(text, f"a{index}.yaml")
        code, message = validate(playbook)
        assert code == 2, message
        assert f"a{index}.yaml:{where}" in message and hint in message, message


def test_a_command_pasted_with_typographic_quotes_is_caught_before_it_runs(write_playbook):
    # Slack, Notion and Google Docs turn " into “ ” as you type; bash then runs python with the
    # argument “import and the step fails on the host, a run later.
    pasted = write_playbook(
        "name: p\nsteps:\n  - id: torch\n    run: |\n      nvidia-smi -L\n"
        "      python3 -c \u201cimport torch; print(torch.cuda.is_available())\u201d\n", "pasted.yaml")
    code, message = validate(pasted)
    assert code == 2, message
    assert "pasted.yaml:6:18: the command of step 'torch' has a typographic quote \u201c" in message, message
    assert 'replace \u201c \u201d with "' in message
    # Curly quotes as text (inside real quotes, an apostrophe, a heredoc's body) are fine.
    text = write_playbook(
        "name: p\nsteps:\n  - id: note\n    run: |\n      echo \"it\u2019s \u201cready\u201d\"\n"
        "      cat <<'EOF'\n      He said \u201chi\u201d\n      EOF\n", "text.yaml")
    assert validate(text) == (0, f"ok {text} (1 step)")
