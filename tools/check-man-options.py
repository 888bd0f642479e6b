#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The man pages document the options the commands parse.

For each object of `tagger help` and each command line of the SYNOPSIS of
Documentation/tagger-OBJ.8.rst, runs the command with $TAGGER_OPTS_TABLE
set: the option parser (userspace/cli/opts.c) then prints the command's
option table, one "opt --name [enum values]" line per option, and exits
(a command line of a generic KIND stands for its kinds' lines). Every option of every table must be in the page's OPTIONS section,
with every value of an enum; every option the OPTIONS section names must
be in a table of the object. Prints each mismatch; exit 1 if any.

usage: check-man-options.py TAGGER [DOCS_DIR]
"""
import os
import re
import subprocess
import sys
import tempfile

OPT = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*|-[a-z])(?![\w-])")
# "--X V or --X=V" describes the syntax of every option and names none.
PLACEHOLDER = re.compile(r"(?<![\w-])--([a-z][a-z0-9-]*) V or --\1=V(?![\w-])")
GLOBAL = {"-j", "-p", "-v", "-q"}  # tagger(8)'s, not an object's


def options_in(text):
    return set(OPT.findall(PLACEHOLDER.sub("", text))) - GLOBAL


def sections(path):
    """{TITLE: text} of an rst page, titles in capitals underlined with =."""
    secs, name = {}, None
    lines = open(path).read().splitlines()
    for i, line in enumerate(lines):
        if (i + 1 < len(lines) and re.fullmatch(r"=+", lines[i + 1])
                and line.strip() and line.isupper()):
            name = line.strip()
            secs[name] = ""
        elif name:
            secs[name] += line + "\n"
    return secs


def run(tagger, args, env=None, cwd=None):
    return subprocess.run([tagger, *args], capture_output=True, text=True,
                          env=env, cwd=cwd)


def command_words(line, obj, files):
    """The words of a SYNOPSIS command line up to its options, with the
    placeholders replaced by something the command takes."""
    words = line.split()[1:]
    while words and words[0].startswith("[-"):
        words = words[1:]
    if not words or words[0] != obj:
        return None
    if len(words) > 1 and words[1] == "KIND":
        return None
    out = []
    for w in words[1:]:
        if w[0] in "[{(|-" or w == "help":
            break
        if re.fullmatch(r"[a-z][a-z0-9-]*(=[A-Z])?", w):
            out.append(w.split("=")[0] + ("=2" if "=" in w else ""))
        elif w.startswith("TOPO"):
            out.append(files["topo"])
        elif w.startswith("ELP"):
            out.append(files["elp"])
        elif re.fullmatch(r"[A-Z]", w):
            out.append("4")
        else:
            out.append("x")
    return out


def main():
    tagger = os.path.abspath(sys.argv[1])
    docs = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "Documentation")
    problems = []

    def bad(msg):
        problems.append(msg)
        print("FAIL:", msg)

    tmp = tempfile.mkdtemp()
    files = {"topo": os.path.join(tmp, "topo.json"),
             "elp": os.path.join(tmp, "elp.json")}
    if (run(tagger, ["topo", "line", "3", "-o", files["topo"]]).returncode
            or run(tagger, ["paths", "shortest", files["topo"], "-o",
                            files["elp"]]).returncode):
        print("cannot write a topology and its paths with", tagger)
        return 2
    m = re.search(r"OBJECT := \{([^}]*)\}", run(tagger, ["help"]).stderr)
    objects = m.group(1).replace("|", " ").split() if m else []
    if not objects:
        bad("no 'OBJECT := { ... }' in `tagger help`")
    env = dict(os.environ, TAGGER_OPTS_TABLE="1")
    for obj in objects:
        page = os.path.join(docs, f"tagger-{obj}.8.rst")
        if not os.path.exists(page):
            bad(f"no {page} for object {obj}")
            continue
        secs = sections(page)
        table, enums, seen = set(), {}, set()
        for line in secs.get("SYNOPSIS", "").splitlines():
            words = command_words(line.strip(), obj, files)
            if words is None or tuple(words) in seen:
                continue
            seen.add(tuple(words))
            p = run(tagger, [obj, *words], env=env, cwd=tmp)
            rows = [r.split()[1:] for r in p.stdout.splitlines()
                    if r.startswith("opt ")]
            if (p.returncode or not rows) and options_in(line):
                bad(f"`tagger {obj} {' '.join(words)}` printed no "
                    f"option table (exit {p.returncode}: "
                    f"{p.stderr.strip()[:120]})")
            if p.returncode:
                continue
            for name, *vals in rows:
                table.add(name)
                enums.setdefault(name, set()).update(vals)
        optsec = secs.get("OPTIONS", "")
        documented = options_in(optsec)
        words = set(re.findall(r"[A-Za-z0-9][\w.-]*", optsec))
        for o in sorted(table - documented):
            bad(f"tagger {obj} takes {o} but the OPTIONS of {page} "
                f"do not document it")
        for o in sorted(documented - table):
            bad(f"the OPTIONS of {page} document {o} but no option "
                f"table of tagger {obj} has it")
        for o, vals in sorted(enums.items()):
            for v in sorted(vals - words):
                bad(f"tagger {obj} {o} takes {v} but the OPTIONS of "
                    f"{page} do not say so")
    subprocess.run(["rm", "-rf", tmp])
    if problems:
        print(f"man options: {len(problems)} problems")
        return 1
    print(f"man options: ok ({len(objects)} objects)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
