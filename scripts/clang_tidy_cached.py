#!/usr/bin/env python3
"""clang-tidy over the project's translation units, skipping those it has already found clean.

A translation unit's result depends only on what clang-tidy reads: its preprocessed text, its compile command (less
the object file's name, which depends on CMake's generator), the checks' configuration (.clang-tidy), the extra
arguments and clang-tidy's version (not the processor it runs on). The key of a unit is the SHA-256 of all of these,
with the source and build folders' paths replaced by placeholders (a fresh clone elsewhere, built by Make or Ninja,
has the same keys). A unit whose key is in the cache file (one "key path" per line, kept in the repository) passed
before and is skipped; the others run, and the cache is rewritten with the keys of every unit that is clean now. Any
change to a unit's own code, to a header it includes (the project's, Qt's, Eigen's...) or to the configuration
changes its key, so that unit runs again. The same approach as ctcache / clang-tidy-cache.

Usage: clang_tidy_cached.py --build BUILD --cache FILE --group NAME:FOLDERS[:CHECKS] [--group ...]
  A group: a name (its log is BUILD/clang-tidy-NAME.log), a regex of top-level folders (e.g. 'core|io'), and
  optionally checks added to .clang-tidy's (clang-tidy's -checks, e.g. '-clang-analyzer-*').
Exit status 1 when a unit has findings (printed), 0 when every unit is clean.
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

CLANG_TIDY = shutil.which("clang-tidy-14") or "clang-tidy"
CLANG = shutil.which("clang++-14") or "clang++"
BASE_ARGS = ["-extra-arg=-Wno-unknown-warning-option", "--quiet"]


def tool_version(text):
    """clang-tidy's --version text without its "Host CPU:" line, which names the processor it runs on (rocketlake,
    znver3, ...) and not what it checks: no compile command here targets the host's processor (-march=native), so a
    host of another processor finds the same units clean. With that line, every unit's key changed from one CI host to
    the next and the whole project was checked again (10-30 min)."""
    return "".join(line for line in text.splitlines(keepends=True) if not line.strip().startswith("Host CPU:"))


def parse_groups(values):
    groups = []
    for value in values:
        fields = value.split(":")
        if len(fields) not in (2, 3) or not fields[0] or not fields[1]:
            sys.exit(f"clang_tidy_cached.py: --group '{value}': expected NAME:FOLDERS[:CHECKS]")
        groups.append((fields[0], fields[1], [f"-checks={fields[2]}"] if len(fields) == 3 else []))
    return groups


def normalise(text, root, build):
    # The build folder usually lies inside the source folder: replace the longer path first.
    for path, token in sorted([(str(build), "@BUILD@"), (str(root), "@ROOT@")], key=lambda p: -len(p[0])):
        text = text.replace(path, token)
    return text


def command_of(entry):
    """The unit's compile command without what names the object file or the folder it runs in, which differ between
    CMake's generators (Make: -o CMakeFiles/core.dir/x.cpp.o run in build/core; Ninja: -o core/CMakeFiles/core.dir/
    x.cpp.o run in build/) and change nothing clang-tidy reads: CMake passes every source and include folder as an
    absolute path, and the preprocessed text in the key holds what the includes found."""
    args = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    kept = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg == "-o":
            skip = True
        else:
            kept.append(arg)
    return kept


def preprocess(entry):
    """The unit's preprocessed text as clang sees it (clang-tidy parses with clang, not with the build's GCC)."""
    out = [CLANG] + [arg for arg in command_of(entry)[1:] if arg != "-c"]
    out += ["-E", "-Wno-unknown-warning-option", "-o", "-"]
    run = subprocess.run(out, cwd=entry["directory"], capture_output=True, check=False)
    if run.returncode != 0:
        return None  # clang-tidy will report why
    return run.stdout


def key_of(entry, extra, shared, root, build):
    text = preprocess(entry)
    if text is None:
        return None
    digest = hashlib.sha256()
    digest.update(shared)
    digest.update(normalise(json.dumps([command_of(entry), extra]), root, build).encode())
    digest.update(normalise(text.decode(errors="surrogateescape"), root, build).encode(errors="surrogateescape"))
    return digest.hexdigest()


def tidy(entry, extra, build):
    run = subprocess.run([CLANG_TIDY, "-p", str(build), *BASE_ARGS, *extra, entry["file"]], capture_output=True,
                         text=True, check=False)
    return run.returncode == 0 and "warning:" not in run.stdout and "error:" not in run.stdout, run.stdout + run.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", required=True)
    parser.add_argument("--cache", required=True)
    parser.add_argument("--group", action="append", required=True)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    options = parser.parse_args()
    root = Path(__file__).resolve().parent.parent
    build = Path(options.build).resolve()
    cache_path = Path(options.cache)
    cached = set()
    if cache_path.exists():
        cached = {line.split()[0] for line in cache_path.read_text().splitlines() if line.strip()}
    version = tool_version(subprocess.run([CLANG_TIDY, "--version"], capture_output=True, text=True, check=True).stdout)
    shared = (version + (root / ".clang-tidy").read_text() + " ".join(BASE_ARGS)).encode()
    entries = json.loads((build / "compile_commands.json").read_text())

    clean = []  # (key, relative path)
    failed = False
    for name, folders, extra in parse_groups(options.group):
        pattern = re.compile(re.escape(str(root)) + "/(" + folders + ")/")
        units = sorted((e for e in entries if pattern.match(e["file"])), key=lambda e: e["file"])
        with concurrent.futures.ThreadPoolExecutor(options.jobs) as pool:
            keys = list(pool.map(lambda e, x=extra: key_of(e, x, shared, root, build), units))
            todo = [(e, k) for e, k in zip(units, keys) if k is None or k not in cached]
            for e, k in zip(units, keys):
                if k is not None and k in cached:
                    clean.append((k, os.path.relpath(e["file"], root)))
            print(f"lint: clang-tidy on {name}: {len(units)} units, {len(units) - len(todo)} unchanged since found "
                  f"clean, {len(todo)} to check", flush=True)
            results = list(pool.map(lambda ek, x=extra: tidy(ek[0], x, build), todo))
        with open(build / f"clang-tidy-{name}.log", "w", encoding="utf-8") as log:
            for (e, k), (ok, output) in zip(todo, results):
                log.write(f"== {e['file']}: {'clean' if ok else 'findings'}\n{output}\n")
                if ok and k is not None:
                    clean.append((k, os.path.relpath(e["file"], root)))
                elif not ok:
                    failed = True
                    findings = [line for line in output.splitlines() if "warning:" in line or "error:" in line]
                    print("\n".join(findings or output.splitlines()[-20:]), flush=True)
    # The keys of this run only: a stale key (a unit since changed or removed) does not stay, a unit with findings
    # is not there.
    cache_path.write_text("".join(f"{k} {p}\n" for k, p in sorted(clean, key=lambda kp: kp[1])))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
