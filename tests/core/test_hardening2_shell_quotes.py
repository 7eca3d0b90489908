"""`run: cat "{{ model_path }}/config.json"`: the Ansible habit of quoting a template.

Values are shell-quoted for the author, so inside the author's own quotes a value with a space
or a special character used to arrive with literal single quotes around it (the file was not
found), and inside single quotes (`python -c '...open("{{ path }}")...'`) the quoting closed
the author's quote early. Each value must reach the command exactly, and never as shell code.
"""

from __future__ import annotations

import json
import sys

from tests.conftest import only_run, run_cli


def _run(tmp_path, run: str, **values: str) -> dict:
    playbook = tmp_path / "p.yaml"
    playbook.write_text(
        "name: quotes\nvars:\n" + "".join(f"  {k}: {json.dumps(v)}\n" for k, v in values.items())
        + "steps:\n  - id: a\n    run: |\n" + "".join(f"      {line}\n" for line in run.splitlines())
    )
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    assert "Traceback" not in result.stderr, result.stderr
    return only_run(out)[1]["steps"][0]


def test_a_quoted_template_with_a_space_in_the_value_names_the_real_file(tmp_path):
    model = tmp_path / "My Models" / "EAGLE3-LLaMA3.1-8B (v2)"
    model.mkdir(parents=True)
    (model / "config.json").write_text('{"architectures": ["LlamaForCausalLMEagle3"]}')
    step = _run(tmp_path, 'cat "{{ model_path }}/config.json"', model_path=str(model))
    assert step["status"] == "passed", step
    assert "LlamaForCausalLMEagle3" in step["stdout"]


def test_a_template_inside_single_quotes_of_python_c_reaches_python_intact(tmp_path):
    model = tmp_path / "it's here"
    model.mkdir()
    (model / "config.json").write_text('{"num_hidden_layers": 1}')
    step = _run(
        tmp_path,
        f"{sys.executable} -c 'import json; print(json.load(open(\"{{{{ model_path }}}}/config.json\"))[\"num_hidden_layers\"])'",
        model_path=str(model),
    )
    assert step["status"] == "passed", step
    assert step["stdout"] == "1\n"


def test_quoted_templates_never_run_a_value_as_shell_code(tmp_path):
    victim = tmp_path / "pwned"
    evil = f'a"; touch {victim}; echo "$(touch {victim}) `touch {victim}` \\" \'; touch {victim}; \''
    step = _run(
        tmp_path,
        'printf "%s\\n" "[{{ evil }}]"\nprintf "%s\\n" \'[{{ evil }}]\'\nprintf "%s\\n" [{{ evil }}]',
        evil=evil,
    )
    assert not victim.exists(), "a value became shell code"
    assert step["stdout"] == f"[{evil}]\n" * 3, step


def test_scripts_the_quote_tracker_cannot_follow_keep_plain_quoting(tmp_path):
    # Backquotes nest quoting the tracker does not follow: every value is quoted as a word,
    # which is exact where the author left the quotes off.
    victim = tmp_path / "pwned"
    step = _run(tmp_path, "echo \"it's\" `echo {{ evil }}`\necho {{ evil }}", evil=f"; touch {victim}")
    assert not victim.exists()
    assert step["stdout"] == f"it's ; touch {victim}\n; touch {victim}\n", step


def test_templates_in_heredocs_reach_the_text_exactly(tmp_path):
    # How agent sessions (and distilled playbooks) write inline Python: a quoted heredoc.
    model = tmp_path / "it's a \"model\" $HOME"
    model.mkdir()
    (model / "config.json").write_text('{"num_hidden_layers": 1}')
    script = (
        f"{sys.executable} - <<'PY'\nimport json\npath = r'''{{{{ model_path }}}}'''\n"
        "print(json.load(open(path + '/config.json'))['num_hidden_layers'])\nPY\n"
        "cat <<EOF\nmodel: {{ model_path }} (it's quoted)\nEOF"
    )
    step = _run(tmp_path, script, model_path=str(model))
    assert step["status"] == "passed", step
    assert step["stdout"] == f"1\nmodel: {model} (it's quoted)\n"


def test_a_value_holding_the_heredocs_end_line_is_refused_not_run(tmp_path):
    victim = tmp_path / "pwned"
    step = _run(tmp_path, "cat <<'EOF'\n{{ note }}\nEOF", note=f"harmless\nEOF\ntouch {victim}")
    assert not victim.exists()
    assert step["status"] == "error" and "would end the heredoc early" in step["message"], step


# Script shapes seen in real playbooks, each with one template inside. A value from remote
# output (a captured fact) holding every shell metacharacter must come out as exactly itself.
SHAPES = [
    'printf "%s\\n" {{ v }}',
    'printf "%s\\n" "{{ v }}"',
    "printf '%s\\n' '{{ v }}'",
    'printf "%s\\n" "pre {{ v }} post" # don\'t worry',
    "# it's a comment with a quote\nprintf '%s\\n' \"{{ v }}\"",
    'x="{{ v }}"; printf "%s\\n" "$x"',
    "printf '%s\\n' \"it's {{ v }}\"",
    "python3 -c 'import sys; print(sys.argv[1])' \"{{ v }}\"",
    "python3 -c 'print(\"{{ v }}\")'",
    'printf "%s\\n" "\\"{{ v }}\\""',
    'printf "%s\\n" {% raw %}"{{ not a template }}"{% endraw %} "{{ v }}"',
    'printf "%s\\n" "{{- v -}}"',
    "cat <<EOF\n{{ v }}\nEOF",
    "cat <<'EOF'\n{{ v }} it's\nEOF\nprintf '%s\\n' '{{ v }}'",
    "cat <<-\"EOF\"\n\t{{ v }}\n\tEOF",
    "cat <<< \"{{ v }}\"",
    'printf "%s\\n" {% if v %}{{ v }}{% endif %}',
]


def test_every_quoting_shape_passes_a_hostile_value_through_exactly(tmp_path):
    import subprocess

    from spec_debug.playbook.templating import TemplateSite, render

    victim = tmp_path / "pwned"
    value = f"a b\"c'd$(touch {victim})`touch {victim}`\\e;f|g&h*i$HOME!j\nk"
    for shape in SHAPES:
        command = render(shape, {"v": value}, TemplateSite("a", "run"), shell=True)
        proc = subprocess.run(["/bin/bash", "-c", command], capture_output=True, text=True, timeout=60)
        assert not victim.exists(), f"{shape!r} ran the value: {command!r}"
        expected = value if "\\\"{{" not in shape else f'"{value}"'
        if "python3 -c 'print" in shape:
            continue  # Python itself reads the escapes in its string literal; only safety matters here
        assert expected in proc.stdout, (shape, command, proc.stdout, proc.stderr)
