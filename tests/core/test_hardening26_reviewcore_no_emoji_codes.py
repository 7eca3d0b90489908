"""A path, line number or host name is printed as written, never as an emoji.

rich reads ':100:' as an emoji code by default: an error on line 100 of a playbook printed
'p.yaml💯1: YAML syntax error ...' (test_playbook_fuzz met it once perf_regression.yaml grew
past 100 lines), and ':1234:' or ':a:' in a path or host name changed the same way.
"""

from __future__ import annotations

import pytest

from spec_debug.cli import out_console
from spec_debug.cli_common import print_error
from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook


def test_an_error_on_line_100_names_the_line(tmp_path, capsys):
    playbook = tmp_path / "p.yaml"
    playbook.write_text("name: p\n" + "# note\n" * 97 + "steps:\n\t- id: a\n", encoding="utf-8")
    with pytest.raises(PlaybookError) as raised:
        load_playbook(playbook)
    print_error(raised.value)
    err = capsys.readouterr().err
    assert f"{playbook}:100:1: " in err, err


def test_standard_output_keeps_colon_words(capsys):
    out_console.print("ok runs/gpu:1234:a:/p.yaml (1 steps)", highlight=False)
    assert "ok runs/gpu:1234:a:/p.yaml (1 steps)" in capsys.readouterr().out
