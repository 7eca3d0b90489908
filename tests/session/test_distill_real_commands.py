"""Distill and analyze on a Claude Code session whose commands are what agents really type:
Go templates (docker ps --format '{{.Names}}'), bash's ${#array[@]}, heredocs, multi-line
python -c with every kind of quote, tokens on the command line. The distilled playbook must
validate, keep no secret, and, run on --host local, do what the session's commands did."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import yaml
from markdown_it import MarkdownIt

from tests.conftest import only_run, run_cli

HF_TOKEN = "hf_abcdefghijklmnopqrstuvwxyz123456"
OPENAI_KEY = "sk-proj-abcdefghijklmnopqrstuvwxyz"

# Each command fails in the session and the next one changes approach, so each is a trigger or
# the first step of a pivot: the commands that "mattered" (issue 6). All are harmless here.
COMMANDS = [
    # Go templates (docker/kubectl --format), a Jinja-looking echo, bash's length operator
    "arr=(a b c); echo \"n=${#arr[@]}\"; printf '%s\\n' '{{.Names}}\\t{{.Image}}'; echo '{% if x %}yes{% endif %} {# note #}'",
    # a heredoc whose body looks like a template, with both kinds of quotes
    "python3 - <<'EOF'\nimport json\nprint(json.dumps({\"k\": \"{{ not jinja }}\", 'q': \"it's\"}))\nEOF",
    "echo 'C:\\Users\\me\\eagle3\\config.json' \"D:\\\\models\\\\draft\"",
    # a token in the environment of one command
    f"HF_TOKEN={HF_TOKEN} python3 -c 'import os; print(len(os.environ[\"HF_TOKEN\"]))'",
    "cat /etc/hostname",
    # multi-line python -c: single, double, triple quotes and a raw string
    "python3 -c \"\nimport sys\nprint('single', \\\"double\\\", '''triple''', r'\\n')\nprint(sys.version_info[0] >= 3, {'a': 1})\n\"",
    # a bearer token inside double quotes, an HTML comment opener in an echo
    f"curl -s -H \"Authorization: Bearer {OPENAI_KEY}\" http://127.0.0.1:9/v1/models || echo '<!-- down -->'",
]


def _session(path: Path) -> Path:
    sid = "distill-real"
    lines = [{"type": "user", "sessionId": sid, "uuid": "u0", "timestamp": "2026-03-01T10:00:00Z",
              "message": {"role": "user", "content": f"The EAGLE-3 draft is slower than baseline. My token is {HF_TOKEN}"}}]
    for i, command in enumerate(COMMANDS):
        lines.append({"type": "assistant", "sessionId": sid, "uuid": f"a{i}", "timestamp": f"2026-03-01T10:0{i}:10Z",
                      "message": {"role": "assistant", "content": [
                          {"type": "text", "text": f"Step {i}: check it."},
                          {"type": "tool_use", "id": f"toolu_{i}", "name": "Bash", "input": {"command": command}}]}})
        lines.append({"type": "user", "sessionId": sid, "uuid": f"r{i}", "timestamp": f"2026-03-01T10:0{i}:20Z",
                      "message": {"role": "user", "content": [{
                          "type": "tool_result", "tool_use_id": f"toolu_{i}", "is_error": True,
                          "content": "Exit code 1\nTraceback (most recent call last):\n  File \"/tmp/x.py\", line 1, in <module>\n"
                                     "\x1b[31mRuntimeError\x1b[0m: boom"}]}})
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


def test_distilled_playbook_runs_the_sessions_commands_unchanged(tmp_path):
    session = _session(tmp_path / "session.jsonl")
    playbook = tmp_path / "playbook.yaml"
    result = run_cli("distill", str(session), "-o", str(playbook))
    assert result.code == 0, result.stderr
    assert run_cli("playbooks", "validate", str(playbook)).code == 0
    text = playbook.read_text(encoding="utf-8")
    assert HF_TOKEN not in text and OPENAI_KEY not in text
    doc = yaml.safe_load(text)
    steps = doc["steps"]
    assert len(steps) >= 5
    # a secret is a var the user must pass, never a default
    secret_steps = [s for s in steps if s.get("requires")]
    assert {v for s in secret_steps for v in s["requires"]} <= {k for k, v in doc["vars"].items() if v == ""}
    assert len(secret_steps) == 2

    out = tmp_path / "runs"
    var_args = []
    for var, value in zip(secret_steps[0]["requires"] + secret_steps[1]["requires"], [HF_TOKEN, OPENAI_KEY]):
        var_args += ["--var", f"{var}={value}"]
    ran = run_cli("run", str(playbook), "--host", "local", "--out", str(out), *var_args)
    assert ran.code == 0, ran.stderr
    run_dir, record = only_run(out)
    # the tokens passed with --var are masked in the record (the vars are named like secrets)
    saved = (run_dir / "run.json").read_text(encoding="utf-8")
    assert HF_TOKEN not in saved and OPENAI_KEY not in saved
    assert [s["status"] for s in record["steps"]] == ["passed"] * len(steps)
    for step, done in zip(steps, record["steps"]):
        original = COMMANDS[(step["provenance"]["seq"] - 1) // 2]
        expected = subprocess.run(["bash", "-c", original], capture_output=True, text=True, timeout=30, check=False).stdout
        assert done["stdout"] == expected, (step["run"], original)


def test_postmortem_keeps_no_token_and_no_raw_html(tmp_path):
    session = _session(tmp_path / "session.jsonl")
    for fmt in ("md", "html"):
        target = tmp_path / f"postmortem.{fmt}"
        result = run_cli("analyze", str(session), "--format", fmt, "-o", str(target))
        assert result.code == 0, result.stderr
        text = target.read_text(encoding="utf-8")
        assert HF_TOKEN not in text and OPENAI_KEY not in text
        assert "REDACTED" in text
        assert "\x1b" not in text  # pytest and logging colour their errors
    # Rendered as CommonMark: the echo of '<!--' stays text, it does not open an HTML comment
    # that would hide every section after it.
    md = (tmp_path / "postmortem.md").read_text(encoding="utf-8")
    tokens = MarkdownIt("commonmark").enable("table").parse(md)
    inline_html = [child.content for tok in tokens if tok.children for child in tok.children if child.type == "html_inline"]
    assert not any("<!--" in html for html in inline_html)
    headings = [tokens[i + 1].content for i, tok in enumerate(tokens) if tok.type == "heading_open"]
    assert "Supporting information" in headings


def test_json_analysis_masks_tokens_unless_told_not_to(tmp_path):
    """The JSON analysis is attached to tickets like the postmortem: masked by default, the
    contract's fields and counts unchanged; --no-redact keeps the session as typed."""
    session = _session(tmp_path / "session.jsonl")
    masked, kept = tmp_path / "masked.json", tmp_path / "kept.json"
    assert run_cli("analyze", str(session), "--format", "json", "-o", str(masked)).code == 0
    assert run_cli("analyze", str(session), "--json", "--no-redact", "-o", str(kept)).code == 0
    masked_text, kept_text = masked.read_text(encoding="utf-8"), kept.read_text(encoding="utf-8")
    assert HF_TOKEN not in masked_text and OPENAI_KEY not in masked_text
    assert HF_TOKEN in kept_text and OPENAI_KEY in kept_text
    a, b = json.loads(masked_text), json.loads(kept_text)
    assert a["stats"] == b["stats"] and len(a["commands"]) == len(b["commands"]) == len(COMMANDS)
    token_command = next(c["command"] for c in a["commands"] if "HF_TOKEN=" in c["command"])
    assert "REDACTED" in token_command and token_command.endswith("print(len(os.environ[\"HF_TOKEN\"]))'")
    # the postmortem follows the same switch
    md = tmp_path / "kept.md"
    assert run_cli("analyze", str(session), "--no-redact", "-o", str(md)).code == 0
    assert HF_TOKEN in md.read_text(encoding="utf-8")


def test_another_users_home_is_not_the_session_users(tmp_path):
    """~/x is the ssh user's home (/home/ubuntu); ~alice/x is alice's and must stay as typed
    (it became /home/ubuntualice/eagle3)."""
    log = tmp_path / "tilde.txt"
    log.write_text("\n".join([
        "[msg 1] user: the draft is slow on gpu01",
        "[msg 2] assistant: Load the shared checkpoint. [bash] ssh ubuntu@gpu01 '~/ml-env/bin/python /tmp/load.py ~alice/eagle3 ~/ckpt/config.json'",
        "[msg 3] Traceback (most recent call last):",
        '  File "/tmp/load.py", line 3, in <module>',
        "FileNotFoundError: [Errno 2] No such file or directory: '/home/alice/eagle3'",
        "[msg 4] assistant: Read the reference source. [bash] ssh ubuntu@gpu01 'grep -n forward ~/ml-env/lib/python3.12/site-packages/speculators/models/eagle3/core.py'",
        "[msg 5] 357: def forward",
    ]) + "\n", encoding="utf-8")
    playbook = tmp_path / "playbook.yaml"
    assert run_cli("distill", str(log), "-o", str(playbook)).code == 0
    doc = yaml.safe_load(playbook.read_text(encoding="utf-8"))
    assert doc["steps"][0]["run"] == "{{ python }} {{ load_py }} ~alice/eagle3 {{ config_json }}"
    assert doc["vars"]["config_json"] == "/home/ubuntu/ckpt/config.json"
    assert "/home/ubuntualice/eagle3" not in playbook.read_text(encoding="utf-8")
