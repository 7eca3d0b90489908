"""Valid commands with non-ASCII that the pasted-character check (pasted_characters.py) refused
when it loaded: a double-quoted string over two lines (`git log --format="%s\n— x"`) read line
by line, an emoji ZWJ sequence or a Persian word's zero-width non-joiner, French typography's
no-break space before `!`. The shell reads each as the author wrote it; refusing the playbook
is the worst outcome. A pasted character in the shell's words is still refused."""

from __future__ import annotations

import pytest
import yaml

from spec_debug.errors import PlaybookError
from spec_debug.playbook import load_playbook_text


def _playbook(command: str) -> str:
    return yaml.safe_dump({"name": "p", "description": "d",
                           "steps": [{"id": "s", "title": "t", "why": "w", "run": command}]}, allow_unicode=True)


@pytest.mark.parametrize("command", [
    'git log -1 --format="%s\n\u2014x\u00a0y"',
    "python3 -c '\nprint(\"ok\")\nx = 1  \u2014n'",
    "echo \U0001f469\u200d\U0001f52c done",
    "echo \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",
    "echo Termin\u00e9\u00a0!",
    "echo \u00ab\u00a0oui\u00a0\u00bb",
])
def test_valid_non_ascii_loads(command):
    load_playbook_text(_playbook(command), "p.yaml")


@pytest.mark.parametrize("command", [
    'echo "a\nb"\nnvidia\u2011smi',
    "ls\u00a0-la",
    "echo a\u200db",
    "echo # it's\nvllm serve m \u2014port 1",
])
def test_pasted_in_shell_words_is_still_refused(command):
    with pytest.raises(PlaybookError, match="pasted from"):
        load_playbook_text(_playbook(command), "p.yaml")


def test_a_heredocs_body_is_text_and_the_commands_after_it_are_checked():
    # The check stopped at the first heredoc: `nvidia‑smi` after its EOF line failed on the host.
    body = "cat > /tmp/prompt.txt <<'EOF'\n\u2014model-path\u00a0x, it's\nEOF\n"
    load_playbook_text(_playbook(body + "nvidia-smi -L"), "p.yaml")
    load_playbook_text(_playbook("cat <<-EOF\n\t\u2014x\n\tEOF\nls -l"), "p.yaml")
    with pytest.raises(PlaybookError, match="U\\+2011 NON-BREAKING HYPHEN"):
        load_playbook_text(_playbook(body + "nvidia\u2011smi -L"), "p.yaml")
    with pytest.raises(PlaybookError, match="typographic quote"):
        load_playbook_text(_playbook(body + "echo \u201cdone\u201d"), "p.yaml")
