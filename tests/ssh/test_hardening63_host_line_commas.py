"""A comma in a Host line's pattern, above an Include: the included blocks as ssh(1) applies them.

On a Host line a comma separates nothing: `Host gpu*,*.lab` is one glob holding a comma
(openssh-portable: readconf.c, oHost calls match_pattern per word, not match_pattern_list, as
the Match criteria and known_hosts do), so it matches no host, and `Host * !gpu01,x` excludes
only a host named "gpu01,x". People write the comma form from Match and known_hosts lines.
The Host line itself was matched right, but the blocks of a file included under it are tested
against the line's patterns joined into one comma list: `Host gpu*,*.lab` + `Include lab.conf`
applied lab.conf's `Match all` (a HostKeyAlias, a ProxyJump) to gpu01, and `Host * !gpu01,x`
kept them from gpu01. Found by comparing random configs with `ssh -G` (OpenSSH 9.2p1).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ssh.test_hardening19_config_differential import differences, ours, ssh_g, write_config


@pytest.mark.parametrize("host_line, applies", [
    ("Host gpu*,*.lab", False),       # one glob with a comma: was gpu* or *.lab
    ("Host * !gpu01,x", True),        # negates only "gpu01,x": was a veto of gpu01
    ("Host gpu* x,y", True),          # the word without a comma still matches
    ("Host * !gpu0*", False),
])
def test_blocks_included_under_a_host_line_with_a_comma_apply_as_in_ssh(tmp_path: Path, host_line: str, applies: bool) -> None:
    included = write_config(tmp_path, "Match all\n  HostKeyAlias lab-key\n  Port 2201\n", "lab.conf")
    config = write_config(tmp_path, f"{host_line}\n  Include {included}\n")
    seen = ssh_g(config, "gpu01")
    assert isinstance(seen, dict) and (seen.get("hostkeyalias") == ["lab-key"]) == applies, seen
    target = ours(config, "gpu01")
    assert (target.host_key_alias, target.port) == (("lab-key", 2201) if applies else (None, 22))
    assert differences(config, "gpu01") == []
