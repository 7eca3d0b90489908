"""A script an agent feeds Python through ssh in a heredoc runs to several thousand characters;
the distilled step runs all of it. One longer than the analysis keeps whole is left out, and
distill says so. Sessions are written the way Claude Code writes them (incident_story._Writer)."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

from spec_debug.playbook import load_playbook_text
from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook, dump_playbook
from spec_debug.session.records import MAX_COMMAND_CHARS
from tests.session.incident_story import _Writer

HEALTH = ("ssh root@gpu01 'curl -sf http://localhost:30000/health'",
          "curl: (7) Failed to connect to localhost port 30000 after 0 ms: Connection refused", 7)


def _script(lines: int) -> str:
    body = "\n".join(f"print('aux layer', {i}, {i} * 2)  # each layer id the drafter was trained on, one by one"
                     for i in range(lines))
    return f"import json\n{body}\nprint(json.load(open('/models/eagle3/config.json'))['draft_vocab_size'])"


def _session(tmp_path: Path, script: str) -> Path:
    m = _Writer("9a1b0000-0000-4000-8000-00000000d239", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    m.prompt("EAGLE-3 on gpu01 accepts almost nothing.")
    m.bash(*HEALTH[:2], exit_code=HEALTH[2])
    m.bash(f"ssh root@gpu01 \"python3 - <<'EOF'\n{script}\nEOF\"", "aux layer 0 0\n32000")
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    return path


def test_a_long_heredoc_script_is_the_step_whole(tmp_path):
    """A 6,000-character script. Before, the record kept 4,000 characters and the step ran the
    script cut mid-line, with no EOF: python3 failed with a SyntaxError on every host."""
    script = _script(60)
    assert 4000 < len(script) < MAX_COMMAND_CHARS
    doc = distill_playbook(analyze_path(_session(tmp_path, script)))
    text = dump_playbook(doc)
    load_playbook_text(text, "distilled.yaml")
    (step,) = [s for s in doc["steps"] if "python3" in s["run"]]
    assert step["run"] == "python3 - <<'EOF'\n" + script.replace("/models/eagle3/config.json", "{{ config_json }}") \
        + "\nEOF"
    playbook = tmp_path / "distilled.yaml"
    playbook.write_text(text, encoding="utf-8")
    config = tmp_path / "config.json"
    config.write_text('{"draft_vocab_size": 32000}', encoding="utf-8")
    subprocess.run([sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "--var",
                    f"config_json={config}", "--out", str(tmp_path / "runs")], capture_output=True, text=True,
                   timeout=120, stdin=subprocess.DEVNULL)
    (run_json,) = (tmp_path / "runs").glob("*/run.json")
    (ran,) = [s for s in json.loads(run_json.read_text(encoding="utf-8"))["steps"] if s["id"] == step["id"]]
    assert ran["status"] == "passed" and ran["stdout"].splitlines()[-1] == "32000", ran


def test_a_script_longer_than_the_analysis_keeps_is_left_out_and_named(tmp_path):
    """Past MAX_COMMAND_CHARS the record holds the script's start only: no step runs part of
    it, and distill's stderr names the command, as it names those that change the host."""
    script = _script(MAX_COMMAND_CHARS // 80 + 10)
    assert len(script) > MAX_COMMAND_CHARS
    out = subprocess.run([sys.executable, "-m", "spec_debug", "distill", str(_session(tmp_path, script)), "-o", "-"],
                         capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stderr
    assert "python3 -" not in out.stdout and "curl -sf" in out.stdout
    assert f"left out 1 command longer than {MAX_COMMAND_CHARS} characters, kept only in part: `python3 - <<'EOF' " \
           "import json print('aux layer'," in out.stderr, out.stderr
