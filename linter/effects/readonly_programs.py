"""Programs that only look something up unless an option makes them write, and scripts that only
play a sound: the data `readonly.read_only_command` reads beside `processes.READ_ONLY_PROGRAMS`."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Lookup:
    """A program that queries the network and prints what it finds.

    `writes`: options that make it write a report (`-o out.json`, `--csv`). `into`: options naming
    the folder its reports go to. `unless`: when given, it writes a report by default and one of
    these flags turns that off (sherlock writes `<name>.txt` unless `--no-txt`). A report counts as
    written nowhere when its own value or the `into` folder is a scratch directory the tool made."""

    writes: frozenset[str]
    into: frozenset[str] = frozenset()
    unless: frozenset[str] = frozenset()
    sends: frozenset[str] = frozenset()  # options that send data or pick a method: never read-only
    clustered: bool = False  # short options combine (`curl -sSo f`): each letter counts on its own


def _options(text: str) -> frozenset[str]:
    return frozenset(text.split())


# OSINT and recon command-line tools (usernames, subdomains, live hosts, public sources).
LOOKUPS: dict[str, Lookup] = {
    "sherlock": Lookup(_options("-o --output --csv --xlsx"), _options("-fo --folderoutput"), _options("--no-txt")),
    "maigret": Lookup(_options("-T --txt -C --csv -H --html -X --xmind -P --pdf -G --graph -J --json"),
                      _options("-fo --folderoutput")),
    "theHarvester": Lookup(_options("-f --filename")),
    "subfinder": Lookup(_options("-o -output -oD -output-dir")),
    "dnsx": Lookup(_options("-o -output")),
    "httpx": Lookup(_options("-o -output -sr -store-response -srd -store-response-dir")),
    # `curl URL` is a GET whose body is printed; data, uploads or another method make it send.
    "curl": Lookup(_options("-o --output -O --remote-name --remote-name-all -c --cookie-jar -D --dump-header "
                            "--output-dir --trace --trace-ascii --libcurl"),
                   sends=_options("-d --data --data-raw --data-binary --data-urlencode --data-ascii --json -F --form "
                                  "--form-string -T --upload-file -X --request -K --config -Q --quote --mail-rcpt "
                                  "--mail-from"),
                   clustered=True),
}

# `shutil.which("afplay")`: the program a path was looked up for.
PROGRAM_FINDERS = frozenset({"shutil.which"})

# Shells whose `-Command` script is judged statement by statement, and the statements that only
# load an assembly, bind a literal, or play a sound (`New-Object System.Media.SoundPlayer`).
SCRIPT_SHELLS: dict[str, frozenset[str]] = {
    "powershell": _options("-Command -c"), "powershell.exe": _options("-Command -c"), "pwsh": _options("-Command -c"),
}
INERT_STATEMENTS: tuple[re.Pattern[str], ...] = tuple(re.compile(p, re.IGNORECASE) for p in (
    r"\[void\]\s*\[(System\.)?Reflection\.Assembly\]::LoadWithPartialName\('[\w.]+'\)",
    r"Add-Type\s+-AssemblyName\s+[\w.]+",
    r"\$\w+\s*=\s*'[^']*'",
    r"\$\w+\s*=\s*New-Object\s+(System\.)?Media\.SoundPlayer\s*(\(?\s*\$?[\w'{}]*\s*\)?)?",
    r"\$\w+\.(Play|PlaySync|Load)\(\)",
    r"\[(System\.)?Media\.SystemSounds\]::\w+\.Play\(\)",
    r"\[console\]::beep\([\d,\s]*\)",
))
# Options of a shell that only set up the session; anything else keeps the command an effect.
SHELL_SETUP_OPTIONS = _options("-NoProfile -NonInteractive -NoLogo -Sta -Mta")
