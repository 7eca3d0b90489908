"""zeveck/claude-session-logger's Markdown log of a Claude Code session (its py/log-converter.py:
"# Session `b735bf9a` — <date>", "**User:**" and the prompt quoted, each call "● `Bash(command)`"
with a short result "  ⎿  " under it, "**Error:** " first where it failed, a result of more than 4
lines in a <details> block whose summary is the call and whose <pre><code> the HTML-escaped output).
Before: a text log with no prompt, no command, no error. Now its lines are read as the /export it
redraws, the statuses it records kept. The log below is in that shape (the commands mine)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LOG = """# Session `b735bf9a` — 2026-02-16 10:30

---

**User:**
> why does the draft server crash on start?
> it worked yesterday

I'll start the check script.

● `Bash(python3 checks/load_draft.py)`
  ⎿  **Error:** Exit code 1
     Traceback (most recent call last):
       File "checks/load_draft.py", line 4, in <module>
     ModuleNotFoundError: No module named 'safetensors'

● `Bash(grep -n Error logs/server.log || true)`
  ⎿  40:ERROR: failed to load draft weights

<details>
<summary><b>Error:</b> ● `Bash(pip install safetensors &amp;&amp; python3 -c "import safetensors")`</summary>
<pre><code>Exit code 1
Collecting safetensors
  Downloading safetensors-0.6.2.whl
ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device
&lt;end&gt;
</code></pre>
</details>
<br>

● `Read(checks/load_draft.py)`
  ⎿  Read 40 lines
"""


def test_the_loggers_prompt_commands_and_errors(tmp_path: Path) -> None:
    path = tmp_path / "2026-02-16-b735bf9a.md"
    path.write_text(LOG, encoding="utf-8")
    doc = analyze_path(path).to_json()
    assert [p["text"] for p in doc["prompts"]] == ["why does the draft server crash on start?\nit worked yesterday"]
    assert [(c["command"], c["is_error"], c["exit_code"]) for c in doc["commands"]] == [
        ("python3 checks/load_draft.py", True, 1),
        ("grep -n Error logs/server.log || true", False, 0),
        ('pip install safetensors && python3 -c "import safetensors"', True, 1)]
    assert [(e["kind"], e["message"]) for e in doc["errors"]] == [
        ("traceback", "No module named 'safetensors'"),
        ("exit_code", "ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device")]
