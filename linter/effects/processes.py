"""Subprocesses, programs and code run for the tool. A literal read-only command (`git status`, `ls`,
`rg`) is not a side effect; which commands read is the data below (`check="process"`)."""

from __future__ import annotations

from .rows import Row, calls

_ARGV = ("subprocess.run subprocess.call subprocess.check_call subprocess.check_output subprocess.Popen "
         "subprocess.getoutput subprocess.getstatusoutput os.system os.popen")

ROWS: tuple[Row, ...] = (
    *calls(_ARGV, "a subprocess", True, "subprocess", "process"),
    *calls("os.startfile os.execv os.execve os.execvp os.execvpe os.execl os.execlp os.spawnv os.spawnl os.posix_spawn "
           "pexpect.spawn pexpect.run", "a subprocess", True, "subprocess"),
    *calls("asyncio.create_subprocess_exec asyncio.create_subprocess_shell", "a subprocess", False, "subprocess",
           "process"),
    # Python code the model wrote, run in-process: it can do whatever a subprocess can.
    *calls("exec builtins.exec", "code executed at run time (exec)", True, "exec", "dynamic_code"),
)

# Programs that only read, whatever their (literal) arguments, except the flags listed for them.
READ_ONLY_PROGRAMS: dict[str, frozenset[str]] = {
    "ls": frozenset(), "cat": frozenset(), "head": frozenset(), "tail": frozenset(), "wc": frozenset(),
    "grep": frozenset(), "egrep": frozenset(), "fgrep": frozenset(), "pwd": frozenset(), "which": frozenset(),
    "stat": frozenset(), "du": frozenset(), "df": frozenset(), "tree": frozenset(), "file": frozenset(),
    "rg": frozenset({"--pre"}),  # --pre runs a program per file
    "find": frozenset({"-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls"}),
}
# `git <subcommand>` that reads the repository; `--output` (diff, log) writes a file.
READ_ONLY_GIT = frozenset({"ls-files", "status", "log", "diff", "show", "rev-parse", "blame", "grep", "cat-file",
                           "ls-tree", "describe", "shortlog", "rev-list", "ls-remote"})
WRITING_FLAGS = ("--output",)
# Options of `git` itself that take a value (`git -C repo status`).
GIT_VALUE_OPTIONS = frozenset({"-C", "-c", "--git-dir", "--work-tree"})
# A command string with these runs more than one program or redirects output.
SHELL_OPERATORS = frozenset(">|;&`$<\n")
