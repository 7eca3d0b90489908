"""`spec-debug --version`: what a new user types first to say which release they run.

The version was a subcommand alone (`spec-debug version`, README's command reference); the
option every CLI takes (pip, git, ssh, sglang's launch_server) was "No such option: --version",
exit 2. Both now print the package version and exit 0."""
from __future__ import annotations

from spec_debug import __version__
from tests.conftest import run_cli


def test_version_option_prints_the_version() -> None:
    result = run_cli("--version")
    assert result.code == 0, result.stderr
    assert result.stdout.strip() == __version__


def test_version_option_matches_the_version_command() -> None:
    assert run_cli("--version").stdout == run_cli("version").stdout


def test_commands_still_run_after_the_new_top_level_option() -> None:
    result = run_cli("findings", "SD101")
    assert result.code == 0, result.stderr
    assert result.stdout.startswith("## SD101")
    assert "--version" in run_cli("--help").stdout
