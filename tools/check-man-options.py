#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The man pages document the options the commands parse.

For each object of `tagger help` and each command line of the SYNOPSIS of
Documentation/tagger-OBJ.8.rst, runs the command with $TAGGER_OPTS_TABLE
set: the option parser (userspace/cli/opts.c) then prints the command's
option table, one "opt --name [enum values]" line per option, and exits
(a command line of a generic KIND stands for its kinds' lines).

Every option of every table must have its one-line help (the OPT_*()
macros' last argument) and be listed in the command's help (`tagger OBJ
[VERB] help`), one "  --name METAVAR  help" line each, as opts_usage()
prints it; every such line of the help must name an option of a table of
the object. UNTYPED lists the options still without help, for now; one
that has its help is an error there too.

Every option of every table must be in the page's OPTIONS section, and
every value of an enum in that option's own entry (the ``--name`` line and
the text indented under it); every option the OPTIONS section names must
be in a table of the object. The bash completion must offer, after
`tagger OBJ [VERB] -`, exactly the options of the command's tables, and
after an enum option its values. Prints each mismatch; exit 1 if any.

usage: check-man-options.py TAGGER [DOCS_DIR [COMPLETION]]
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

OPT = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*|-[a-z])(?![\w-])")
# "--X V or --X=V" describes the syntax of every option and names none.
PLACEHOLDER = re.compile(r"(?<![\w-])--([a-z][a-z0-9-]*) V or --\1=V(?![\w-])")
GLOBAL = {"-j", "-p", "-v", "-q"}  # tagger(8)'s, not an object's
# Options whose tables are not typed yet (userspace/cli/cmd_pfc.c,
# cmd_pfc_show.c): no help in the table, none listed in the help. Remove
# an entry when its table gets the OPT_*() macros.
UNTYPED = set()


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


def entries(optsec):
    """[(term, text)] of a definition list: a line at the margin and the
    lines indented under it."""
    out = []
    for line in optsec.splitlines():
        if line.strip() and not line[0].isspace():
            out.append([line, line + "\n"])
        elif out:
            out[-1][1] += line + "\n"
    return out


def entry_words(optsec, opt):
    """The words of opt's own entries (those naming it in their term, else
    those naming it at all)."""
    ents = entries(optsec)
    mine = [t for term, t in ents if opt in options_in(term)] or \
        [t for _, t in ents if opt in options_in(t)]
    return set(re.findall(r"[A-Za-z0-9][\w.-]*", "\n".join(mine)))


def complete(completion, queries, cwd):
    """What _tagger offers for each list of words (the last is completed)."""
    script = [f"source {shlex.quote(completion)}",
              'q() { COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 ));'
              ' COMPREPLY=(); _tagger 2>/dev/null;'
              ' printf "%s\\n" "${COMPREPLY[@]}"; echo "#END"; }']
    script += ["q " + " ".join(shlex.quote(w) for w in q) for q in queries]
    p = subprocess.run(["bash", "--norc", "--noprofile", "-c",
                        "\n".join(script)], capture_output=True, text=True,
                       cwd=cwd)
    res, cur = [], []
    for line in p.stdout.splitlines():
        if line == "#END":
            res.append(set(cur))
            cur = []
        elif line:
            cur.append(line)
    return res + [set()] * (len(queries) - len(res))


def usage_options(text):
    """The options a help lists as opts_usage() prints them: a line of
    two spaces, the option, its METAVAR, and two spaces before its help
    (or nothing, or the help on the next line)."""
    return set(re.findall(r"^  (--?[a-z][a-z0-9-]*)(?: \{[^}]*\}| [^ ]+)?"
                          r"(?:  +\S.*)?$", text, re.M))


def help_options(tagger, obj, verb, helps, cwd):
    """The options `tagger OBJ help` and `tagger OBJ VERB help` (where VERB
    has its own) list, and the last of the two that answered; helps keeps
    each text."""
    out, name = set(), None
    for args in ([obj, "help"], [obj, *verb, "help"]):
        where = "tagger " + " ".join(args)
        if where not in helps:
            p = run(tagger, args, cwd=cwd)
            helps[where] = p.stderr if p.returncode == 0 else ""
        out |= usage_options(helps[where])
        name = where if helps[where] else name
    return out, name


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
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    docs = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        top, "Documentation")
    completion = sys.argv[3] if len(sys.argv) > 3 else os.path.join(
        top, "bash-completion", "tagger")
    problems = []
    checked = []
    untyped_seen = set()

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
        table, enums, seen, helps = set(), {}, set(), {}
        commands = []  # (completion words, {option: values})
        for line in secs.get("SYNOPSIS", "").splitlines():
            words = command_words(line.strip(), obj, files)
            if words is None or tuple(words) in seen:
                continue
            seen.add(tuple(words))
            p = run(tagger, [obj, *words], env=env, cwd=tmp)
            rows = [r.split()[1:] for r in p.stdout.splitlines()
                    if r.startswith("opt ")]
            nohelp = {r.split()[1] for r in p.stdout.splitlines()
                      if r.startswith("nohelp ")} if not p.returncode else set()
            for o in sorted(nohelp):
                if (obj, o) in UNTYPED:
                    untyped_seen.add((obj, o))
                    continue
                bad(f"`tagger {obj} {' '.join(words)}`: {o} has no help in "
                    f"its option table (the OPT_*() macros' last argument)")
            if (p.returncode or not rows) and options_in(line):
                bad(f"`tagger {obj} {' '.join(words)}` printed no "
                    f"option table (exit {p.returncode}: "
                    f"{p.stderr.strip()[:120]})")
            if p.returncode:
                continue
            for name, *vals in rows:
                table.add(name)
                enums.setdefault(name, set()).update(vals)
            if rows:
                verb = words[:1] if words and re.fullmatch(
                    r"[a-z][a-z0-9-]*(=\d+)?", words[0]) else []
                listed, where = help_options(tagger, obj, verb, helps, tmp)
                for name, *_ in rows:
                    if name not in listed and name not in nohelp:
                        bad(f"`{where}` does not list {name} in its OPTIONS "
                            f"(print them with opts_usage())")
                commands.append(([obj, *verb],
                                 {r[0]: set(r[1:]) for r in rows}))
        for where, text in helps.items():
            for o in sorted(usage_options(text) - table):
                bad(f"`{where}` lists {o} in its OPTIONS but no option "
                    f"table of tagger {obj} has it")
        optsec = secs.get("OPTIONS", "")
        documented = options_in(optsec)
        for o in sorted(table - documented):
            bad(f"tagger {obj} takes {o} but the OPTIONS of {page} "
                f"do not document it")
        for o in sorted(documented - table):
            bad(f"the OPTIONS of {page} document {o} but no option "
                f"table of tagger {obj} has it")
        for o, vals in sorted(enums.items()):
            for v in sorted(vals - entry_words(optsec, o)):
                bad(f"tagger {obj} {o} takes {v} but its entry in the "
                    f"OPTIONS of {page} does not say so")
        queries, what = [], []
        for cmd, opts in commands:
            queries.append(["tagger", *cmd, "-"])
            what.append((cmd, None, opts))
            for o, vals in opts.items():
                if vals:
                    queries.append(["tagger", *cmd, o, ""])
                    what.append((cmd, o, vals))
        checked.extend(queries)
        for (cmd, o, want), got in zip(what, complete(completion, queries,
                                                      tmp)):
            where = "tagger " + " ".join(cmd)
            if o is None:
                got = {g for g in got if g.startswith("-")}
                for x in sorted(set(want) - got):
                    bad(f"`{where}` takes {x} but {completion} does not "
                        f"complete it there")
                for x in sorted(got - set(want)):
                    bad(f"{completion} completes {x} for `{where}` but no "
                        f"option table of it has {x}")
                continue
            for x in sorted(want - got):
                bad(f"`{where}` {o} takes {x} but {completion} does not "
                    f"complete it there")
            for x in sorted(got - want):
                bad(f"{completion} completes {x} after `{where} {o}` but "
                    f"{o} does not take it")
    subprocess.run(["rm", "-rf", tmp])
    for obj, o in sorted(UNTYPED - untyped_seen):
        bad(f"UNTYPED lists {o} of tagger {obj}, which has its help now: "
            f"take it out of {__file__}")
    if problems:
        print(f"man options: {len(problems)} problems")
        return 1
    print(f"man options: ok ({len(objects)} objects; the completion of "
          f"{len(checked)} options and values against the tables)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
