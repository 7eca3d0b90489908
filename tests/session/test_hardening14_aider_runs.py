"""Aider chat history as a real session writes it (shape of 151henry151/my-webserver-setup
``.aider.chat.history.md``, an nginx debugging session; see tests/session/data_h14/README.md):
the commands that ran are ``#### /run CMD`` inputs and ``> Running CMD`` notes (Aider-AI/aider
``aider/commands.py`` ``cmd_run``, ``aider/coders/base_coder.py`` ``handle_shell_commands``).
Before, ``/run`` inputs were prompts, the ``Running`` notes tool output, and every shell block
the model proposed a command, run or not; the session had no time."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path


def _history() -> str:
    """Two launches; a ``/run`` and a ``!`` input; a reply proposing two commands, both run after
    a failed edit; a later reply proposing one that the user declined."""
    out = "\n# aider chat started at 2025-05-10 14:37:07\n\n"
    out += "\n# aider chat started at 2025-05-10 15:17:26\n\n"
    out += "> /home/me/.local/bin/aider --model gemini/gemini-2.5-pro  \n> Aider v0.83.0  \n\n"
    out += "#### /run ssh gpu01 nvidia-smi  \n> Add 0.1k tokens of command output to the chat? (Y)es/(N)o [Yes]: y  \n" \
           "> Added 12 lines of output to the chat.  \n\n"
    out += "#### the EAGLE-3 server on gpu01 answers 502 behind nginx, can you find out why?  \n\n"
    out += "The upstream port looks wrong. After the edit, reload nginx:\n\n" \
           "```bash\nsudo systemctl reload nginx\n```\nor\n```bash\nsudo nginx -s reload\n```\n\n"
    out += "> Tokens: 5.4k sent, 435 received.  \n" \
           "> Unable to write file /etc/nginx/conf.d/sglang.conf after 5 attempts: [Errno 13] Permission denied  \n" \
           "> sudo systemctl reload nginx  \n> Run shell command? (Y)es/(N)o/(S)kip all/(D)on't ask again [Yes]: y  \n" \
           "> Running sudo systemctl reload nginx  \n" \
           "> Add command output to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: y  \n> Added 2 lines of output to the chat.  \n" \
           "> sudo nginx -s reload  \n> Run shell command? (Y)es/(N)o/(S)kip all/(D)on't ask again [Yes]: y  \n" \
           "> Running sudo nginx -s reload  \n\n"
    out += "#### !ls -lah /etc/nginx/conf.d/sglang.conf  \n\n"
    out += "#### try again, I fixed the ownership  \n\n"
    out += "Done. Restart the server:\n\n```bash\nsudo systemctl restart sglang\n```\n\n" \
           "> sudo systemctl restart sglang  \n> Run shell command? (Y)es/(N)o/(S)kip all/(D)on't ask again [Yes]: n  \n"
    return out


def test_the_commands_are_those_aider_ran(tmp_path: Path) -> None:
    path = tmp_path / ".aider.chat.history.md"
    path.write_text(_history(), encoding="utf-8")
    a = analyze_path(path)
    assert [c.command for c in a.commands] == [
        "ssh gpu01 nvidia-smi", "sudo systemctl reload nginx", "sudo nginx -s reload", "ls -lah /etc/nginx/conf.d/sglang.conf"]
    assert a.commands[0].host == "gpu01"
    assert [p.text for p in a.prompts] == ["the EAGLE-3 server on gpu01 answers 502 behind nginx, can you find out why?",
                                           "try again, I fixed the ownership"]
    # the launch banners give the session its times (local, as Aider writes them)
    assert (a.sessions[0]["first_timestamp"], a.sessions[0]["last_timestamp"]) == ("2025-05-10T14:37:07",
                                                                                   "2025-05-10T15:17:26")


def test_markdown_that_is_not_aider_keeps_its_shell_blocks(tmp_path: Path) -> None:
    """Without Aider's banner, a shell block in Markdown notes is what was run."""
    path = tmp_path / "notes.md"
    path.write_text("# gpu01 502\n\n```bash\nsudo nginx -s reload\n```\n\n> Running late today\n\n#### !important\n",
                    encoding="utf-8")
    a = analyze_path(path)
    assert [c.command for c in a.commands] == ["sudo nginx -s reload"]
