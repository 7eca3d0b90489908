"""SpecStory Markdown of a Cursor extension session, shaped as the real files in
puyuan-yang-ai/quant-dca ``.specstory/history/`` (tests/session/data_h14/README.md): each tool call
is followed by an empty block of the same tool, and a multi-line command sits in the
``<summary>`` too. Before, each echo was a second tool call (tool_calls doubled) and a summary cut
over lines became the command's description, HTML tags and all."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

_SESSION = '''
_**User**_

why does the EAGLE-3 draft never load on gpu01? I think the config is wrong.

---

_**Agent (claude-opus-4-6)**_

<think><details><summary>Thought Process</summary>
 I should look at the draft config first.</details></think>

_**Agent (claude-opus-4-6)**_

<tool-use data-tool-type="shell" data-tool-name="run_terminal_command_v2">
<details><summary>Tool use: **run_terminal_command_v2** • Run command: ssh gpu01 python -c "
import json
print(json.load(open('/models/eagle3/config.json'))['architectures'])
" 2>&1</summary>

```bash
ssh gpu01 python -c "
import json
print(json.load(open('/models/eagle3/config.json'))['architectures'])
" 2>&1
```

```
Traceback (most recent call last):
  File "<string>", line 3, in <module>
KeyError: 'architectures'

```
</details>
</tool-use>

<tool-use data-tool-type="shell" data-tool-name="run_terminal_command_v2"><details>
<summary>Tool use: **run_terminal_command_v2**</summary>

</details></tool-use>

_**Agent (claude-opus-4-6)**_

<tool-use data-tool-type="unknown" data-tool-name="ask_question">
<details>
<summary>Tool use: **ask_question**</summary>

Parameters:

```json
{"questions": [{"id": "fix", "prompt": "Add the architectures key?"}]}
```
Status: **completed**

</details>
</tool-use>

<tool-use data-tool-type="unknown" data-tool-name="ask_question"><details>
<summary>Tool use: **ask_question**</summary>

</details></tool-use>

Now the same check on gpu02.

<tool-use data-tool-type="shell" data-tool-name="run_terminal_command_v2"><details>
<summary>Tool use: **run_terminal_command_v2**</summary>

</details></tool-use>
'''


def test_each_call_counts_once(tmp_path: Path) -> None:
    path = tmp_path / "2026-05-19_07-17-47Z-eagle3-draft.md"
    path.write_text(_SESSION, encoding="utf-8")
    a = analyze_path(path)
    # the shell call and the question, each once; an empty block after text is a call of its own
    assert a.stats["tool_calls"] == 3
    (cmd,) = a.commands
    assert cmd.command.startswith('ssh gpu01 python -c "\nimport json') and cmd.host == "gpu01"
    assert not cmd.description  # the summary is not prose about the command
    assert [e.exception for e in a.errors] == ["KeyError"]
