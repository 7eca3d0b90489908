"""distill: a Python script that rewrites a file is a change, not a diagnostic step.

An agent fixes a draft's config.json without an editor: `python3 - <<'PY'` (or `python3 -c`)
loads it, sets a field and dumps it back with `json.dump(c, open(p, 'w'))`. The script was read
as a read (it is a python command whose text names config.json), so after a failed health check
it became the playbook's "inspect_config" step, and every run of the playbook rewrote the config
of the host it ran on. A write is an `open` with a mode that writes ('w', 'a', 'x', '+': Python's
built-in open), Path.write_text/write_bytes, torch.save / safetensors save_file / save_pretrained,
or a file removed or moved (os.remove, shutil.rmtree, ...); one whose paths are all scratch
(/tmp/, /dev/null) is none, as a shell redirection there is none.
"""

from __future__ import annotations

import pytest

from spec_debug.session.host_changes import changes_host
from tests.session.test_hardening38_distill import HEALTH, _session

PATCH = ("import json\np = '/models/eagle3/config.json'\nc = json.load(open(p))\n"
         "c['draft_vocab_size'] = 32000\njson.dump(c, open(p, 'w'), indent=2)\nprint('patched')")


@pytest.mark.parametrize("command, why", [
    (f"python3 - <<'PY'\n{PATCH}\nPY", "python open(…, 'w')"),
    (f"python3 <<'PY'\n{PATCH}\nPY", "python open(…, 'w')"),
    ("python3 -c \"import json; p='/models/eagle3/config.json'; c=json.load(open(p)); c['x']=1; "
     "json.dump(c, open(p, 'w'))\"", "python open(…, 'w')"),
    ("python3 -c \"open('/etc/sglang/env', mode='a').write('STEPS=3')\"", "python open(…, 'a')"),
    ("python3 -c \"from pathlib import Path; p = Path('/etc/sglang/env'); "
     "p.write_text(p.read_text().replace('STEPS=1', 'STEPS=3'))\"", "python write_text"),
    ("python3 -c \"from pathlib import Path; Path('/models/e3/config.json').open('w').write('{}')\"",
     "python open(…, 'w')"),
    ("python -c \"import torch; sd = torch.load('/models/e3/pytorch_model.bin'); sd.pop('t2d'); "
     "torch.save(sd, '/models/e3/pytorch_model.bin')\"", "python torch.save"),
    ("python3 -c \"import shutil; shutil.rmtree('/root/.cache/flashinfer')\"", "python shutil.rmtree"),
    ("~/ml-env/bin/python - <<'PY'\nfrom safetensors.torch import load_file, save_file\n"
     "s = load_file('/models/e3/model.safetensors')\ns['d2t'] = s['d2t'] - 0\n"
     "save_file(s, '/models/e3/model.safetensors')\nPY", "python save_file"),
])
def test_a_python_script_that_writes_changes_the_host(command, why):
    assert changes_host(command) == why


@pytest.mark.parametrize("command", [
    f"python3 - <<'PY'\nimport json\nprint(json.load(open('/models/eagle3/config.json'))['draft_vocab_size'])\nPY",
    "python3 -c \"import json; print(json.load(open('/models/eagle3/config.json', 'r'))['draft_vocab_size'])\"",
    "python3 -c \"from safetensors import safe_open; f = safe_open('/models/e3/model.safetensors', 'pt'); "
    "print(list(f.keys()))\"",
    "python3 -c \"import torch; torch.save({}, '/tmp/probe.pt')\"",
    "python3 -c \"open('/tmp/out.json', 'w').write('{}')\"",
    "python3 -c \"print(open('/var/log/sglang.log', encoding='utf-8').read().replace('a', 'b')[-200:])\"",
    "cat <<'EOF' > /tmp/check.py\nopen('/models/x', 'w')\nEOF",
])
def test_a_python_script_that_only_reads_reads(command):
    assert changes_host(command) is None


@pytest.mark.parametrize("patch", [
    f"ssh root@gpu01 \"python3 - <<'PY'\n{PATCH}\nPY\"",
    "ssh root@gpu01 \"python3 -c 'import json; p=\\\"/models/eagle3/config.json\\\"; c=json.load(open(p)); "
    "c[\\\"norm_before_residual\\\"]=True; json.dump(c, open(p, \\\"w\\\"))'\"",
])
def test_a_config_patched_by_python_after_a_failure_is_no_playbook_step(tmp_path, patch):
    """Before: the playbook's second step was the script itself (`p = '{{ config_json }}'` ...
    `json.dump(c, open(p, 'w'))`), rewriting the draft's config.json on every host it ran on."""
    doc, _ = _session(tmp_path, HEALTH, (patch, "patched", 0))
    assert [s["run"] for s in doc["steps"]] == ["curl -sf http://localhost:30000/health"], doc["steps"]
