"""A secret command written over several lines with a backslash at each line's end, as a playbook's
`run: |` block often has it:

    aws secretsmanager get-secret-value \\
      --secret-id prod/hf --query SecretString --output text

The shlex tokenizer secret_commands.py had kept each escaped new line in the next word
(`"\\n--query"`), so no option was found and the step was not one printing a secret; a backslash
right after a word (`get-secret-value\\`) glued the new line to that word (`"get-secret-value\\n"`),
so even the shared splitter missed it: the step's output (the value) was kept in clear in run.json
and the reports. Now the line continuations are removed before the words are read, as bash does
(bash(1), QUOTING: "a \\<newline> pair is treated as a line continuation"): masked whole."""

from __future__ import annotations

import pytest

from spec_debug.secret_commands import prints_secret_value


@pytest.mark.parametrize(("command", "prints"), [
    ("aws secretsmanager get-secret-value \\\n  --secret-id prod/hf \\\n  --query SecretString \\\n  --output text", True),
    ("aws secretsmanager get-secret-value\\\n  --secret-id prod/hf --query SecretString --output text", True),
    ("vault kv get \\\n  -field=token secret/hf", True),
    ("vault kv get\\\n  -field=token secret/hf", True),
    ("kubectl get secret hf \\\n  -o jsonpath='{.data.token}' \\\n  | base64 -d", True),
    ("vault kv get \\\n  -field=token secret/hf \\\n  > /tmp/token", False),
    ("vault kv get \\\n  secret/hf", False),
])
def test_a_continued_line_is_one_command(command, prints):
    assert prints_secret_value(command) is prints
