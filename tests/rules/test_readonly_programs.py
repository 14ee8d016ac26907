"""Subprocesses that look like effects but only look something up or play a sound: lookup CLIs
whose reports stay in a scratch directory, programs found with `shutil.which`, PowerShell scripts
that only play a sound. Each read-only shape is paired with its writing twin."""

from __future__ import annotations

import textwrap

import pytest
from siblint.effects import effect_of
from siblint.lint.engine import facts_from_text
from siblint.model.semantic import Scope
from siblint.settings.config import Config


def described(code: str) -> dict[int, str]:
    """line -> description of every call in `code` the table classifies as a side effect."""
    facts = facts_from_text(textwrap.dedent(code), "m.py")
    return {site.call.loc.line: eff.description
            for fn in facts.functions.values() for site in fn.calls
            if (eff := effect_of(site.call, Scope(facts, fn.name), awaited=site.awaited)) is not None}


def sib101_tools(lint, text: str) -> list[int]:
    """The lines of the tools SIB101 reports."""
    found = lint(textwrap.dedent(text), config=Config(select=("SIB101",)))
    return sorted(d.loc.line for d in found)


@pytest.mark.parametrize("read, write", [
    ('subprocess.run(["subfinder", "-silent", "-json", "-d", p], capture_output=True)',
     'subprocess.run(["subfinder", "-silent", "-d", p, "-o", "subs.txt"], capture_output=True)'),
    ('subprocess.run(["httpx", "-silent", "-json", "-title"], input=p)',
     'subprocess.run(["httpx", "-silent", "-store-response", "-title"], input=p)'),
    ('subprocess.run(["sherlock", p, "--print-found", "--no-txt"])', 'subprocess.run(["sherlock", p, "--print-found"])'),
    ('subprocess.run(["maigret", p, "--no-recursion"])', 'subprocess.run(["maigret", p, "--html"])'),
    ('subprocess.run(["dnsx", "-silent", "-resp"])', 'subprocess.run(["dnsx", "-silent", "-output=hosts.txt"])'),
    # `curl URL` is a GET; data, another method or an output file make it write.
    ('subprocess.run(["curl", p], capture_output=True)', 'subprocess.run(["curl", "-X", "POST", p], capture_output=True)'),
    ('subprocess.run(["curl", "-sSL", "-H", "Accept: application/json", p])', 'subprocess.run(["curl", "-sSd", "x=1", p])'),
    ('subprocess.check_output("curl -s https://example.com/status", shell=True)',
     'subprocess.check_output("curl -s -o page.html https://example.com/", shell=True)'),
    ('subprocess.run(["curl", "--fail", p])', 'subprocess.run(["curl", "--json", "{}", p])'),
], ids=["subfinder", "httpx", "sherlock-no-txt", "maigret-no-report", "dnsx", "curl-get", "curl-clustered-flags",
        "curl-shell-string", "curl-long-flag"])
def test_lookup_clis_and_their_report_writing_twins(read, write):
    assert_only_the_twin_writes(read, write)


def assert_only_the_twin_writes(read: str, write: str) -> None:
    code = f"""\
        import subprocess

        def f(p):
            {read}
            {write}
    """
    assert described(code) == {5: "a subprocess"}


def test_reports_into_a_scratch_directory():
    assert described("""\
        import subprocess, tempfile

        def f(p, out):
            with tempfile.TemporaryDirectory() as d:
                subprocess.run(["maigret", p, "--json", "ndjson", "--folderoutput", d])
                subprocess.run(["theHarvester", "-d", p, "-b", "crtsh", "-f", str(d)])
                subprocess.run(["sherlock", p, "--folderoutput", d])
            subprocess.run(["maigret", p, "--json", "ndjson", "--folderoutput", out])
            subprocess.run(["theHarvester", "-d", p, "-f", "report"])
    """) == {8: "a subprocess", 9: "a subprocess"}


def test_programs_found_with_which():
    assert described("""\
        import shutil, subprocess

        def f(p):
            subprocess.run([shutil.which("afplay"), p])
            player = shutil.which("aplay") or shutil.which("paplay")
            subprocess.run([player, p])
            other = shutil.which("aplay") or shutil.which("rm")
            subprocess.run([other, p])
            subprocess.run([shutil.which(p), "-l"])
    """) == {8: "a subprocess", 9: "a subprocess"}


def test_powershell_that_only_plays_a_sound():
    assert described("""\
        import shutil, subprocess

        def f(p):
            ps = shutil.which("powershell") or shutil.which("pwsh")
            play = (
                "[void][System.Reflection.Assembly]::LoadWithPartialName('System.Windows.Forms');"
                f"$p='{p}';"
                "$player = New-Object System.Media.SoundPlayer($p);"
                "$player.PlaySync();"
            )
            subprocess.run([ps, "-NoProfile", "-Command", play], check=False)
            subprocess.run(["powershell", "-Command", "[console]::beep(800, 200)"])
            subprocess.run([ps, "-NoProfile", "-Command", f"$p='{p}'; Remove-Item $p"])
            subprocess.run(["powershell", "-Command", "[console]::beep(800, 200)", "-File", p])
            subprocess.run(["powershell", "-ExecutionPolicy", "Bypass", "-Command", "[console]::beep(800, 200)"])
    """) == {13: "a subprocess", 14: "a subprocess", 15: "a subprocess"}


def test_a_cli_helper_reads_the_arguments_and_scratch_folder_its_caller_passes(lint):
    """`run_cli("sherlock", [...])` runs `[shutil.which(binary), *args]`: each tool is judged by
    the program and flags it passes, and by whether the folder it names is its own scratch dir."""
    assert sib101_tools(lint, """\
        import shutil, subprocess, tempfile
        from crewai.tools import BaseTool

        def run_cli(binary: str, args: list[str], timeout: float = 60.0):
            path = shutil.which(binary)
            return subprocess.run([path, *args], capture_output=True, text=True, timeout=timeout)

        class Sherlock(BaseTool):
            name: str = "sherlock"
            description: str = "Find a username across sites."

            def _run(self, username: str) -> str:
                return run_cli("sherlock", [username, "--print-found", "--no-txt"]).stdout

        class SherlockReport(BaseTool):
            name: str = "sherlock_report"
            description: str = "Find a username and keep the report."

            def _run(self, username: str) -> str:
                return run_cli("sherlock", [username, "--print-found"]).stdout

        class Maigret(BaseTool):
            name: str = "maigret"
            description: str = "Find a username across more sites."

            def _run(self, username: str) -> str:
                with tempfile.TemporaryDirectory() as tmpdir:
                    return run_cli("maigret", [username, "--json", "ndjson", "--folderoutput", tmpdir]).stdout

        class MaigretReports(BaseTool):
            name: str = "maigret_reports"
            description: str = "Find a username and keep the reports."

            def _run(self, username: str, folder: str) -> str:
                return run_cli("maigret", [username, "--json", "ndjson", "--folderoutput", folder]).stdout
    """) == [19, 34]


def test_a_service_getter_that_rewrites_its_token_file_is_upkeep(lint):
    """`get_gmail_service()` rewrites `token.json` on every call: a read tool that uses it has no
    effect of its own; a tool that also writes a report file still has one."""
    assert sib101_tools(lint, """\
        import os
        from langchain.tools import tool

        def get_gmail_service():
            creds = load_creds("token.json") if os.path.exists("token.json") else run_flow()
            with open("token.json", "w") as token:
                token.write(creds.to_json())
            return build("gmail", "v1", credentials=creds)

        def save_report(text):
            with open("report.json", "w") as fh:
                fh.write(text)

        @tool
        def list_unread() -> str:
            \"\"\"List unread mail.\"\"\"
            return str(get_gmail_service().users().messages().list(userId="me").execute())

        @tool
        def save_unread(text: str) -> str:
            \"\"\"Save a digest of unread mail.\"\"\"
            get_gmail_service()
            save_report(text)
            return "saved"
    """) == [20]



@pytest.mark.parametrize("read, write", [
    ('subprocess.run(["pacman", "-Qe"], capture_output=True)', 'subprocess.run(["pacman", "-S", "--noconfirm", p])'),
    ('subprocess.run(["pacman", "-Ss", p], capture_output=True)', 'subprocess.run(["pacman", "-Syu"])'),
    ('subprocess.run(["dpkg", "-l"], capture_output=True)', 'subprocess.run(["dpkg", "-i", p])'),
    ('subprocess.run(["apt", "search", p], capture_output=True)', 'subprocess.run(["apt", "install", "-y", p])'),
    ('subprocess.run(["systemctl", "status", p], capture_output=True)', 'subprocess.run(["systemctl", "restart", p])'),
    ('subprocess.run(["journalctl", "-u", p, "-n", "30"], capture_output=True)',
     'subprocess.run(["journalctl", "--vacuum-time=2d"])'),
    ('subprocess.run(["ip", "link", "show"], capture_output=True)', 'subprocess.run(["ip", "link", "set", p, "down"])'),
    ('subprocess.run("ip a", shell=True, capture_output=True)', 'subprocess.run(f"ip link set {p} up", shell=True)'),
    ('subprocess.run(["nmcli", "device", "wifi", "list"], capture_output=True)',
     'subprocess.run(["nmcli", "device", "wifi", "connect", p])'),
    ('subprocess.run(["nmap", "-sn", p], capture_output=True)', 'subprocess.run(["nmap", "-sn", p, "-oN", "hosts.txt"])'),
    ('subprocess.run(["lsof", "-i", ":8080"], capture_output=True)', 'subprocess.run(["kill", "-9", p])'),
    # W14's SRE agent: `helm repo list --output json`; `helm repo add` writes the repositories file.
    ('subprocess.run(["helm", "repo", "list", "--output", "json"], capture_output=True)',
     'subprocess.run(["helm", "repo", "add", p, "https://charts.example.com"])'),
    ('subprocess.run(["helm", "repo", "update"], capture_output=True)',
     'subprocess.run(["helm", "upgrade", p, "chart/app"])'),
], ids=["pacman-query", "pacman-search", "dpkg-list", "apt-search", "systemctl-status", "journalctl", "ip-show",
        "ip-shell-string", "nmcli-list", "nmap", "lsof", "helm-repo-list", "helm-repo-update"])
def test_system_inspection_and_its_changing_twins(read, write):
    assert_only_the_twin_writes(read, write)


def test_a_command_line_built_with_plus_equals_reads_whole():
    """evalW3's grep tool: `cmd = "grep"` then `cmd += f' "{pattern}"'` is a shell line with the
    model's text in it, not `grep`; literal flags added the same way keep a read a read."""
    assert described("""\
        import subprocess

        def f(pattern, long):
            listing = "ls"
            if long:
                listing += " -la"
            subprocess.run(listing, shell=True)
            command = "grep -rn"
            command += f' "{pattern}" .'
            subprocess.run(command, shell=True)
    """) == {10: "a subprocess"}


@pytest.mark.parametrize("read, write", [
    # SynkBot's `synkctl`: a CLI no table knows, read by its verb.
    ('subprocess.run("synkctl battery get --short", shell=True, capture_output=True)',
     'subprocess.run("synkctl inverter update --grid-charge", shell=True, capture_output=True)'),
    ('subprocess.run(["mycli", "orders", "list", p], capture_output=True)',
     'subprocess.run(["mycli", "orders", "delete", p], capture_output=True)'),
    # A verb and a write verb together, or a verb after an option, is no lookup.
    ('subprocess.run(["mycli", "status"], capture_output=True)', 'subprocess.run(["mycli", "set", "status"])'),
    ('subprocess.run(["mycli", "show", p], capture_output=True)', 'subprocess.run(["mycli", "--yes", "show", p])'),
    # A program that runs the command it is given is never read by the verbs.
    ('subprocess.run(["mycli", "info"], capture_output=True)', 'subprocess.run(["ssh", p, "ls"], capture_output=True)'),
    # The cloud CLIs whose tables list only their logins.
    ('subprocess.run(["gh", "issue", "list"], capture_output=True)', 'subprocess.run(["gh", "issue", "close", p])'),
    ('subprocess.run(["az", "vm", "show", "-n", p], capture_output=True)', 'subprocess.run(["az", "vm", "start", "-n", p])'),
], ids=["unknown-cli-get", "unknown-cli-list", "write-verb-beside", "verb-after-option", "command-runner", "gh", "az"])
def test_an_unknown_cli_asked_by_its_verb_to_look_up_and_its_changing_twins(read, write):
    assert_only_the_twin_writes(read, write)


def test_a_number_formatted_into_a_shell_line_keeps_a_read_a_read():
    """evalW1's SynkBot: `cmd += " -i " + str(serial)` of `serial: Optional[int]` cannot change what
    the line runs; the model's text formatted the same way can (`"; rm -rf ~"`)."""
    assert described("""\
        import subprocess
        from typing import Optional

        def f(serial: Optional[int], lines: int, name: str):
            cmd = "synkctl battery get --short"
            if serial:
                cmd += " -i " + str(serial)
            subprocess.run(cmd, shell=True)
            subprocess.run(f"tail -n {lines} app.log", shell=True)
            other = "synkctl battery get --short"
            other += " -i " + name
            subprocess.run(other, shell=True)
    """) == {12: "a subprocess"}


def test_an_argv_a_tool_builds_and_a_helper_quotes_word_by_word(lint):
    """evalW2's aletheia: the tool builds `cmd = ["kubectl"]`, extends it (an option in an `if`
    arm, then the subcommand), and hands it to a helper that runs `sanitize_command(command)`,
    which quotes each word. The words decide, as if written in one list."""
    assert sib101_tools(lint, """\
        import shlex, subprocess
        from agents import function_tool

        def sanitize_command(command: list) -> list:
            sanitized = []
            for part in command:
                sanitized.append(shlex.quote(part))
            return sanitized

        def quoted(command: list) -> list:
            return [shlex.quote(p) for p in command]

        def run(command: list) -> str:
            return subprocess.run(args=sanitize_command(command), capture_output=True).stdout.decode()

        @function_tool
        def pods(context: str) -> str:
            cmd = ["kubectl"]
            if context:
                cmd.extend(["--context", context])
            cmd.extend(["get", "pods", "-A"])
            return run(cmd)

        @function_tool
        def sigquit(context: str, pod: str) -> str:
            cmd = ["kubectl"]
            if context:
                cmd.extend(["--context", context])
            cmd.extend(["exec", pod, "--", "kill", "-QUIT", "1"])
            return run(cmd)

        @function_tool
        def lookup(host: str) -> str:
            return subprocess.run(quoted(["dig", host]), capture_output=True).stdout.decode()

        @function_tool
        def remove(path: str) -> str:
            return subprocess.run(quoted(["rm", path]), capture_output=True).stdout.decode()
    """) == [25, 37]
