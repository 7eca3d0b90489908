"""Helpers of tests/ssh/test_hardening8_*.py: sshd variants built from a real sshd_config."""

from __future__ import annotations

from dataclasses import dataclass

from tests.sshd_fixture import SshServer


@dataclass
class SftpLineServer(SshServer):
    """sshd whose `Subsystem sftp` line is replaced: "" removes it (hardened images do), a
    path names an external sftp-server (one that may not be installed)."""

    subsystem: str = ""

    def _sshd_config(self) -> str:
        line = f"Subsystem sftp {self.subsystem}\n" if self.subsystem else ""
        config = super()._sshd_config()
        assert "Subsystem sftp internal-sftp\n" in config
        return config.replace("Subsystem sftp internal-sftp\n", line)
