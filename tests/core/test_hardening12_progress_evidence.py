"""A failed download's evidence shows its progress bar as the terminal did: one line, last state.

`huggingface-cli download`, pip and tqdm redraw one line with \\r. Before: the finding's evidence
(the output's last 6 lines) split at every \\r, so five of its six lines were redraws of the bar
and the lines before the error (the traceback's head, what was being fetched) were pushed out.
"""

from __future__ import annotations

import sys

from tests.conftest import only_run, run_cli

DOWNLOAD = f"""
name: fetch_draft
steps:
  - id: download_draft
    run: |
      {sys.executable} -c "
      import sys
      sys.stderr.write('Fetching 3 files:  33%|###3      | 1/3 [00:01<00:02, 1.00s/it]\\n')
      for i in range(0, 971):
          sys.stderr.write(f'\\rmodel.safetensors:  {{i/10:.0f}}%|' + '#' * (i // 100) + ' ' * (10 - i // 100) + f'| {{i*5.1:.0f}}M/5.00G [00:{{i//20:02d}}<00:10, 52.1MB/s]')
      sys.stderr.write('\\n')
      sys.stderr.write('Traceback (most recent call last):\\n  File \\"hf.py\\", line 9, in <module>\\n')
      sys.stderr.write('requests.exceptions.ChunkedEncodingError: Connection broken: IncompleteRead(5001 bytes read)\\n')
      sys.exit(1)
      "
"""


def test_a_progress_bar_is_one_evidence_line_in_its_last_state(tmp_path, write_playbook):
    out = tmp_path / "runs"
    result = run_cli("run", str(write_playbook(DOWNLOAD)), "--host", "local", "--out", str(out))
    assert result.code == 1, result.stderr
    _, record = only_run(out)
    (finding,) = record["findings"]
    assert finding["evidence"] == [
        "exit code 1",
        "Fetching 3 files:  33%|###3      | 1/3 [00:01<00:02, 1.00s/it]",
        "model.safetensors:  97%|######### | 4947M/5.00G [00:48<00:10, 52.1MB/s]",
        "Traceback (most recent call last):",
        '  File "hf.py", line 9, in <module>',
        "requests.exceptions.ChunkedEncodingError: Connection broken: IncompleteRead(5001 bytes read)",
    ], finding["evidence"]
