"""Subprocesses, programs and code run for the tool. A literal read-only command (`git status`, `ls`,
`rg`) is not a side effect; which commands read is the data below (`check="process"`)."""

from __future__ import annotations

import re

from .rows import Row, calls, methods

_ARGV = ("subprocess.run subprocess.call subprocess.check_call subprocess.check_output subprocess.Popen "
         "subprocess.getoutput subprocess.getstatusoutput os.system os.popen")

_E2B_VERBS = "run_code exec_cell run write make_dir remove rename"

ROWS: tuple[Row, ...] = (
    *calls(_ARGV, "a subprocess", True, "subprocess", "process"),
    *calls("os.startfile os.execv os.execve os.execvp os.execvpe os.execl os.execlp os.spawnv os.spawnl os.posix_spawn "
           "pexpect.spawn pexpect.run", "a subprocess", True, "subprocess"),
    *calls("asyncio.create_subprocess_exec asyncio.create_subprocess_shell", "a subprocess", False, "subprocess",
           "process"),
    # A signal to another process (stopping the server a tool started, or any pid the model names).
    *calls("os.kill os.killpg", "a signal to a process ({name})", True, "subprocess", "signal"),
    # GitPython runs git: cloning, committing, pushing or switching branches changes a repository
    # (`Repo(p).remotes.origin.push()`, `repo.index.commit(m)`, `repo.git.checkout(b)`); `status`,
    # `log` and `diff` read, and so does `repo.commit(rev)`, which looks a commit up.
    *calls("git.Repo.clone_from git.Repo.init git.Git.clone", "{name} (git)", True, "subprocess"),
    *methods("git.Repo git.Repo.init git.Repo.clone_from git.Git", "clone clone_from push pull fetch commit checkout switch merge rebase reset revert "
             "cherry_pick add rm remove mv stash tag create_head create_tag create_remote delete_head delete_tag "
             "delete_remote apply am init", "{name} (git)", True, "subprocess", "git"),
    # E2B cloud sandboxes: code and commands run there, and the files they write, outlive the call
    # (`Sandbox().run_code(code)`, `sandbox.commands.run(cmd)`, `sandbox.files.write(...)`, the older
    # `CodeInterpreter().notebook.exec_cell(code)`).
    *methods("e2b_code_interpreter.Sandbox e2b_code_interpreter.Sandbox.create e2b_code_interpreter.CodeInterpreter "
             "e2b.Sandbox e2b.Sandbox.create", _E2B_VERBS, "{name} (E2B sandbox)", True, "subprocess"),
    *methods("e2b_code_interpreter.AsyncSandbox.create e2b.AsyncSandbox.create", _E2B_VERBS, "{name} (E2B sandbox)",
             False, "subprocess"),
    # Python code the model wrote, run in-process: it can do whatever a subprocess can.
    *calls("exec builtins.exec", "code executed at run time (exec)", True, "exec", "dynamic_code"),
)

# Programs that only read (or leave nothing behind), whatever their (literal) arguments, except the
# flags listed for them.
READ_ONLY_PROGRAMS: dict[str, frozenset[str]] = {
    "ls": frozenset(), "cat": frozenset(), "head": frozenset(), "tail": frozenset(), "wc": frozenset(),
    "grep": frozenset(), "egrep": frozenset(), "fgrep": frozenset(), "pwd": frozenset(), "which": frozenset(),
    "stat": frozenset(), "du": frozenset(), "df": frozenset(), "tree": frozenset(), "file": frozenset(),
    "rg": frozenset({"--pre"}),  # --pre runs a program per file
    "whoami": frozenset(), "hostname": frozenset(), "uname": frozenset(), "date": frozenset({"-s", "--set"}),
    "uptime": frozenset(), "ping": frozenset(), "dig": frozenset(), "traceroute": frozenset(), "traceroute6": frozenset(),
    "tracert": frozenset(), "tracepath": frozenset(), "mtr": frozenset(), "nslookup": frozenset(), "whois": frozenset(), "host": frozenset(),
    "nproc": frozenset(), "free": frozenset(), "ps": frozenset(), "printenv": frozenset(),
    # Programs that play a sound leave nothing behind.
    "afplay": frozenset(), "aplay": frozenset(), "paplay": frozenset(), "say": frozenset({"-o", "--output-file"}),
    "find": frozenset({"-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls"}),
    # System inspection: users, hardware, sockets, logs, files by name, hosts on a network.
    "id": frozenset(), "groups": frozenset(), "who": frozenset(), "w": frozenset(), "last": frozenset(),
    "getent": frozenset(), "lsblk": frozenset(), "lscpu": frozenset(), "lsusb": frozenset(), "lspci": frozenset(),
    "lsof": frozenset(), "netstat": frozenset(), "ss": frozenset({"-K", "--kill"}), "locate": frozenset(),
    "top": frozenset(),
    "journalctl": frozenset({"--vacuum-size", "--vacuum-time", "--vacuum-files", "--rotate", "--flush", "--sync",
                             "--relinquish-var", "--smart-relinquish-var", "--setup-keys", "--update-catalog"}),
    "nmap": frozenset({"-oN", "-oX", "-oG", "-oA", "-oS", "--resume", "--script"}),
}
# Programs whose first subcommand decides: the subcommands that only read, and the program's own
# options that take a value before it (`git -C repo status`, `kubectl -n ns get pods`), and the
# flags that make even those write (`git diff --output=f`; kubectl's `--output` is a format).
READ_ONLY_SUBCOMMANDS: dict[str, tuple[frozenset[str], frozenset[str], tuple[str, ...]]] = {
    "git": (frozenset({"ls-files", "status", "log", "diff", "show", "rev-parse", "blame", "grep", "cat-file", "ls-tree",
                       "describe", "shortlog", "rev-list", "ls-remote"}),
            frozenset({"-C", "-c", "--git-dir", "--work-tree"}), ("--output",)),
    "kubectl": (frozenset({"get", "describe", "logs", "top", "explain", "api-resources", "api-versions", "version",
                           "cluster-info", "events"}),
                frozenset({"-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s", "--server"}), ()),
    "docker": (frozenset({"ps", "logs", "inspect", "images", "version", "info", "stats", "top", "port", "history",
                          "diff", "events", "search"}),
               frozenset({"-H", "--host", "--context", "--config", "-c", "--log-level"}), ()),
    "helm": (frozenset({"list", "ls", "status", "history", "get", "show", "search", "version", "env"}),
             frozenset({"-n", "--namespace", "--kube-context", "--kubeconfig"}), ()),
    "systemctl": (frozenset({"status", "show", "cat", "list-units", "list-unit-files", "list-timers", "list-sockets",
                             "list-dependencies", "list-jobs", "is-active", "is-enabled", "is-failed", "is-system-running"}),
                  frozenset({"-H", "--host", "-M", "--machine", "-t", "--type", "--state", "-p", "--property"}), ()),
    "apt": (frozenset({"list", "search", "show", "policy", "depends", "rdepends"}), frozenset({"-o", "-c"}), ()),
    "apt-cache": (frozenset({"search", "show", "showpkg", "policy", "depends", "rdepends", "pkgnames", "stats"}),
                  frozenset({"-o", "-c"}), ()),
    # Credential logins: they leave only the user's own credential cache (upkeep, as `incidental`
    # counts a token file), whatever follows (`gcloud auth application-default login --scopes=...`).
    "gcloud": (frozenset({"auth"}), frozenset({"--project", "--account", "--configuration", "--verbosity"}), ()),
    "gh": (frozenset({"auth"}), frozenset({"-R", "--repo", "--hostname"}), ()),
    "az": (frozenset({"login"}), frozenset(), ()),
    "ip": (frozenset(), frozenset({"-n", "-netns", "-b", "-batch", "-f", "-family"}), ()),
    "nmcli": (frozenset(), frozenset({"-f", "--fields", "-m", "--mode", "-e", "--escape", "-w", "--wait"}), ()),
}
# Package managers whose operation is their first option: the operations that only query.
READ_ONLY_OPERATIONS: dict[str, re.Pattern[str]] = {
    "pacman": re.compile(r"-Q[a-zA-Z]*|-S[silgyq]*[silg][silgq]*|--query"),
    "dpkg": re.compile(r"-[lLsSp]|--list|--listfiles|--status|--search|--print-avail|--get-selections"),
    "rpm": re.compile(r"-q[a-zA-Z]*|--query"),
}
# Subcommands that only list when every argument after them is one of these options: `git branch
# --show-current` reads, `git branch new` and `git branch --unset-upstream` write.
READ_ONLY_LISTINGS: dict[str, dict[str, frozenset[str]]] = {
    "git": {
        "branch": frozenset({"--show-current", "-a", "--all", "-r", "--remotes", "-v", "-vv", "--verbose", "-l",
                             "--list", "--no-color", "--color=never", "--no-column"}),
        "tag": frozenset({"-l", "--list", "-n"}),
        "remote": frozenset({"-v", "--verbose"}),
    },
    # `helm repo list --output json`, and `helm repo update` (refreshing the local cache of every
    # repository's index: upkeep, as a cache file is); `helm repo add name url` writes.
    "helm": {"repo": frozenset({"list", "ls", "update", "up", "-o", "--output", "json", "yaml", "table"}),
             "plugin": frozenset({"list", "ls", "-o", "--output", "json", "yaml", "table"})},
    # `ip a`, `ip link show`; `ip link set dev eth0 down` writes.
    "ip": {sub: frozenset({"show", "list", "ls"}) for sub in ("a", "addr", "address", "l", "link", "r", "route",
                                                            "n", "neigh", "neighbour")},
    # `nmcli device wifi list`, `nmcli connection show`; `nmcli device wifi connect ...` writes.
    "nmcli": {**{sub: frozenset({"status", "show", "wifi", "list"}) for sub in ("d", "dev", "device")},
              **{sub: frozenset({"show"}) for sub in ("c", "con", "connection")},
              "general": frozenset({"status"}), "g": frozenset({"status"})},
}
# Subcommands that read when given at most one operand and only these options: `git symbolic-ref
# refs/remotes/origin/HEAD` and `git config user.email` read; with a second operand (the value to
# set) or `-d`/`--unset` they write.
READ_ONLY_QUERIES: dict[str, dict[str, frozenset[str]]] = {
    "git": {
        "symbolic-ref": frozenset({"-q", "--quiet", "--short", "--no-recurse"}),
        "config": frozenset({"--get", "--get-all", "--get-regexp", "-l", "--list", "--global", "--local", "--system",
                             "--show-origin", "--show-scope", "--bool", "--int", "--path", "-z", "--null",
                             "--name-only"}),
    },
}
# A program none of the tables above knows: by the convention of subcommand CLIs (`synkctl battery
# get`, `gh pr list`, `az vm show`), a read verb among its leading literal words, and no write verb
# there, makes the command a lookup. Programs that run another command they are given are never
# judged so (`ssh host ls`, `sudo ...`).
READ_VERBS = frozenset({"get", "list", "ls", "show", "describe", "status", "info", "view", "inspect", "version"})
WRITE_VERBS = frozenset({"set", "update", "create", "delete", "rm", "remove", "add", "apply", "put", "post", "patch",
                         "send", "run", "exec", "start", "stop", "restart", "kill", "deploy", "install", "uninstall",
                         "upgrade", "push", "write", "edit", "reset", "enable", "disable", "import", "upload", "sync"})
COMMAND_RUNNERS = frozenset({"ssh", "sudo", "su", "doas", "env", "xargs", "sh", "bash", "zsh", "dash", "fish", "cmd",
                             "cmd.exe", "python", "python3", "node", "npx", "uvx", "pipx", "deno", "bun", "ruby", "perl",
                             "timeout", "nohup", "nice", "watch", "time", "stdbuf", "setsid", "flock", "parallel"})
LEADING_WORDS = 3  # how many leading literal words a verb is looked for in
# Cloud CLIs whose table above lists only their logins: their other subcommands go by the verbs
# (`gh issue list`, `az vm show`, `gcloud compute instances list`).
VERB_CLIS = frozenset({"gh", "az", "gcloud"})
# A command string with these runs more than one program or redirects output.
SHELL_OPERATORS = frozenset(">|;&`$<\n")
