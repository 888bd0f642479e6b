#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# One source of truth: `tagger OBJ help`, the man page
# Documentation/tagger-OBJ.8.rst and bash-completion/tagger agree on every
# object, verb, option, keyword argument and option value, and every page
# renders without a warning. The help text is the reference:
#   - every Usage line of `tagger OBJ help` (and `tagger OBJ KIND help`)
#     is in the page's SYNOPSIS, word for word (spacing aside);
#   - every --option, keyword and verb of the help is in the page's OPTIONS
#     (verbs: DESCRIPTION) and is offered by the completion where the help
#     says it applies; every enum value is documented and completed;
#   - every option the page documents and the completion offers is in the
#     help.
# Failure messages name the object, the word and the file to change.
#
#   DOCS_DIR=DIR  check the pages in DIR (default Documentation/)
source "$(dirname "$0")/../lib.sh"
require_cmd rst2man
require_cmd groff
require_cmd man

export TAGGER TOP
export DOCS_DIR=${DOCS_DIR:-$TOP/Documentation}
export COMPLETION=${COMPLETION:-$TOP/bash-completion/tagger}
export TGR_TMP

python3 - <<'EOF' || fail "help, man pages and completion disagree (see above)"
import os, re, subprocess, sys, shlex

T = os.environ["TAGGER"]
DOCS = os.environ["DOCS_DIR"]
COMP = os.environ["COMPLETION"]
TMP = os.environ["TGR_TMP"]
rel = lambda p: os.path.relpath(p, os.environ["TOP"])
problems = []
def bad(msg):
    problems.append(msg)
    print("FAIL:", msg)

def help_text(*args):
    """`tagger ARGS help`: the usage goes to stderr, nothing to stdout."""
    p = subprocess.run([T, *args, "help"], capture_output=True, text=True)
    if p.returncode != 0:
        bad(f"`tagger {' '.join(args)} help` exits {p.returncode}")
    if p.stdout.strip():
        bad(f"`tagger {' '.join(args)} help` writes to stdout (help goes to stderr)")
    return p.stderr

def usage_block(text):
    """The lines from 'Usage:' to the first blank line, 'Usage: ' cut."""
    lines = text.splitlines()
    for i, l in enumerate(lines):
        if l.startswith("Usage:"):
            break
    else:
        return []
    out = []
    for l in lines[i:]:
        if not l.strip():
            break
        out.append(l)
    out[0] = out[0][len("Usage:"):]
    return [" ".join(l.split()) for l in out]

# The objects, from `tagger help`.
top = help_text()
m = re.search(r"OBJECT := \{([^}]*)\}", top, re.S)
objects = m.group(1).replace("|", " ").split() if m else []
if not objects:
    bad("cannot find 'OBJECT := { ... }' in `tagger help`")

# ---- completion: run _tagger for a batch of command lines
def complete_batch(queries):
    script = [f"source {shlex.quote(COMP)}",
              'q() { COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMPREPLY=();'
              ' _tagger 2>/dev/null; printf "%s\\n" "${COMPREPLY[@]}"; echo "#END"; }']
    for words in queries:
        script.append("q " + " ".join(shlex.quote(w) for w in words))
    p = subprocess.run(["bash", "--norc", "--noprofile", "-c", "\n".join(script)],
                       capture_output=True, text=True, cwd=TMP)
    res, cur = [], []
    for l in p.stdout.splitlines():
        if l == "#END":
            res.append(cur); cur = []
        elif l:
            cur.append(l)
    if len(res) != len(queries):
        bad(f"{rel(COMP)}: completion script failed: {p.stderr.strip()[:300]}")
        res += [[]] * (len(queries) - len(res))
    return res

def norm_val(v):
    return v.split("=")[0] + ("=" if "=" in v else "")

# ---- pages
def sections(path):
    """{SECTION TITLE: text} of an rst page (titles underlined with ===)."""
    text = open(path).read()
    secs, name = {}, None
    lines = text.splitlines()
    for i, l in enumerate(lines):
        if i + 1 < len(lines) and re.fullmatch(r"=+", lines[i + 1]) and l.strip() \
                and len(lines[i + 1]) >= len(l.strip()) and l.isupper():
            name = l.strip(); secs[name] = ""
            continue
        if name:
            secs[name] += l + "\n"
    return secs

OPT = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*|-[a-z])(?![\w-])")
# The one generic placeholder: the phrase "--X V or --X=V" (the same X twice,
# the value literally V), as in "Every option is --opt V or --opt=V.",
# describes the syntax of every option and names none.
PLACEHOLDER = re.compile(r"(?<![\w-])--([a-z][a-z0-9-]*) V or --\1=V(?![\w-])")
def options_in(text):
    text = PLACEHOLDER.sub("", text)
    # -j, -p, -v, -q are global options (tagger(8)), not the object's
    return set(o for o in OPT.findall(text) if o not in ("-j", "-p", "-v", "-q"))

def words_in(text):
    return set(re.findall(r"[A-Za-z0-9][\w=-]*", text))

def entry_words(optsec, opt):
    """The words of opt's own entries of a definition list (a line at the
    margin naming it and the lines indented under it; else any entry that
    names it)."""
    ents = []
    for l in optsec.splitlines():
        if l.strip() and not l[0].isspace():
            ents.append([l, l + "\n"])
        elif ents:
            ents[-1][1] += l + "\n"
    mine = [t for term, t in ents if opt in options_in(term)] or \
        [t for _, t in ents if opt in options_in(t)]
    return words_in("\n".join(mine))

comp_objects = complete_batch([["tagger", ""]])[0]
for obj in objects:
    page = os.path.join(DOCS, f"tagger-{obj}.8.rst")
    h = help_text(obj)
    usage = usage_block(h)
    if not usage:
        bad(f"`tagger {obj} help` has no 'Usage:' line")
        continue
    if obj not in comp_objects:
        bad(f"`tagger help` lists object {obj} but {rel(COMP)} does not complete it after 'tagger'")

    # Command lines (a 'tagger ...' line and its continuations) and the rest
    # (definitions such as 'OPTIONS := {...}', '(each also takes ...)').
    cmds, other = [], []
    for l in usage:
        if l.startswith("tagger "):
            cmds.append(l)
        elif cmds and not re.match(r"(where\s+)?[A-Z]+ :=|\(", l) and not other:
            cmds[-1] += " " + l
        else:
            other.append(l)

    def parse_cmd(c):
        w = c.split()[1:]
        while w and w[0].startswith("[-"):
            w = w[1:]
        assert w[0] == obj, c
        w = w[1:]
        verb = None
        if w and re.fullmatch(r"[a-z][a-z0-9-]*(=[A-Z]+)?", w[0]):
            verb = w[0].split("=")[0]; w = w[1:]
        pos = []
        for x in w:
            if x[0] in "[{|(" or x.startswith("-") or x == "help":
                break
            if re.match(r"[A-Z]", x):
                pos.append(x)
        return verb, pos, " ".join(w)

    # Verb-level help of kinds (topo KIND help, paths KIND help) when it
    # says more than the object's help.
    usage_all = list(usage)
    verbs = {}
    for c in cmds:
        v, pos, rest = parse_cmd(c)
        if v is None or v == "help":
            if v is None:
                verbs.setdefault(None, []).append((pos, rest))
            continue
        verbs.setdefault(v, []).append((pos, rest))
    for v in [v for v in verbs if v]:
        vu = usage_block(help_text(obj, v))
        if vu and vu != usage:
            usage_all += vu
            for c in [l for l in vu if l.startswith("tagger ")]:
                cont = [l for l in vu if not l.startswith("tagger ")]
                _, pos, rest = parse_cmd(" ".join([c] + cont) if len(vu) > 1 else c)
                verbs[v].append((pos, rest))

    help_opts = options_in(h)
    for v in [v for v in verbs if v]:
        vh = help_text(obj, v)
        if vh != h:
            help_opts |= options_in(vh)
    keywords = {}          # verb -> set of keywords
    enums = {}             # option or keyword -> set of values
    defs = {}
    for l in other:
        for name, vals in re.findall(r"([A-Z]+) := \{([^}]*)\}", l):
            defs[name] = [x for x in vals.replace("|", " ").split()]
    full_usage = " ".join(usage_all)
    # an enum's values: on a command line, or in the OPTIONS list that
    # follows the usage (generated from the option table)
    for opt, vals in re.findall(r"(--[a-z][a-z0-9-]*) \{([^}]*)\}", full_usage + "\n" + h):
        enums[opt] = vals.replace("|", " ").split()
    for opt, vals in re.findall(r"(--[a-z][a-z0-9-]*)[ =]([a-z0-9=.-]+(?:\|[A-Za-z0-9=.-]+)+)", full_usage):
        enums[opt] = vals.split("|")
    for opt, name in re.findall(r"(--[a-z][a-z0-9-]*) ([A-Z]+)\]", full_usage):
        if name in defs:
            enums[opt] = defs[name]
    for opt in enums:
        enums[opt] = [x for x in enums[opt] if re.match(r"[a-z0-9]", x)]
    for v, forms in verbs.items():
        for pos, rest in forms:
            keywords.setdefault(v, set()).update(re.findall(r"\[([a-z][a-z-]*) [A-Z]", rest))

    # ---- the page
    if not os.path.exists(page):
        bad(f"`tagger help` lists object {obj} but there is no {rel(page)}")
        continue
    secs = sections(page)
    for s in ("SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXAMPLES", "EXIT STATUS", "SEE ALSO"):
        if s not in secs:
            bad(f"{rel(page)} has no {s} section")
    syn = [" ".join(l.split()) for l in secs.get("SYNOPSIS", "").splitlines()]
    syn_text = "\n".join(syn)
    for l in usage_all:
        if l not in syn:
            bad(f"`tagger {obj} help` Usage line '{l}' is not in the SYNOPSIS of {rel(page)} (copy it there)")
    optsec = secs.get("OPTIONS", "")
    for o in sorted(help_opts):
        if o not in options_in(optsec):
            bad(f"`tagger {obj} help` lists {o} but the OPTIONS of {rel(page)} do not")
    page_opts = options_in(optsec) | options_in(syn_text)
    for o in sorted(page_opts - help_opts):
        bad(f"{rel(page)} documents {o} but `tagger {obj} help` does not list it")
    desc_words = words_in(secs.get("DESCRIPTION", ""))
    for v in sorted(v for v in verbs if v and v != "help"):
        if v not in desc_words:
            bad(f"`tagger {obj} help` has verb '{v}' but the DESCRIPTION of {rel(page)} does not mention it")
    opt_words = words_in(optsec)
    for v, ks in keywords.items():
        for k in sorted(ks):
            if k not in opt_words:
                bad(f"`tagger {obj} help` has keyword '{k}' but the OPTIONS of {rel(page)} do not")
    for o, vals in enums.items():
        ow = entry_words(optsec, o)
        for x in vals:
            if not any(w == x or norm_val(w) == norm_val(x) for w in ow):
                bad(f"`tagger {obj} help` lists '{x}' for {o} but its entry in the OPTIONS of {rel(page)} does not")

    # ---- the completion
    q, what = [], []
    real_verbs = sorted(v for v in verbs if v and v != "help")
    if real_verbs:
        q.append(["tagger", obj, ""]); what.append(("verbs", None, None))
    # 'tagger topo KIND ...' stands for every kind: checked through the kinds
    forms = [(v, pos, rest) for v, fs in verbs.items() for pos, rest in fs
             if v != "help" and not (v is None and real_verbs)]
    on_lines = set().union(*[options_in(r) for _, _, r in forms]) if forms else set()
    enum_any = {}          # option -> values offered by some verb
    for v, pos, rest in forms:
        base = ["tagger", obj] + ([v] if v else []) + ["x"] * len(pos)
        q.append(base + ["-"]); what.append(("opts", v, options_in(rest)))
        if keywords.get(v):
            q.append(base + [""]); what.append(("keywords", v, keywords[v]))
        for o, vals in enums.items():
            if o in options_in(rest):
                q.append(base + [o, ""]); what.append(("enum", v, (o, vals)))
            elif o not in on_lines:
                # from a definition (OPTIONS := ...): some verb completes it
                q.append(base + [o, ""]); what.append(("enum-any", v, (o, vals)))
    res = complete_batch(q)
    offered = set()
    for (kind, v, arg), got in zip(what, res):
        ctx = f"tagger {obj}" + (f" {v}" if v else "")
        if kind == "verbs":
            gotv = {norm_val(g).rstrip("=") for g in got}
            for x in real_verbs:
                if x not in gotv:
                    bad(f"`tagger {obj} help` has verb '{x}' but {rel(COMP)} does not complete it after 'tagger {obj}'")
        elif kind == "opts":
            offered |= set(got)
            for o in sorted(arg):
                if o not in got:
                    bad(f"`tagger {obj} help` lists {o} for '{ctx}' but {rel(COMP)} does not complete it there")
        elif kind == "keywords":
            for k in sorted(arg):
                if k not in got:
                    bad(f"`tagger {obj} help` has keyword '{k}' for '{ctx}' but {rel(COMP)} does not complete it there")
        elif kind == "enum-any":
            enum_any.setdefault(arg[0], set()).update(norm_val(x) for x in got)
        elif kind == "enum":
            o, vals = arg
            g = {norm_val(x) for x in got}
            for x in vals:
                if norm_val(x) not in g:
                    bad(f"`tagger {obj} help` lists '{x}' for {o} but {rel(COMP)} does not complete it after '{ctx} {o}'")
    for o, vals in enums.items():
        if o in enum_any:
            for x in vals:
                if norm_val(x) not in enum_any[o]:
                    bad(f"`tagger {obj} help` lists '{x}' for {o} but {rel(COMP)} does not complete it after '{o}' for any verb of 'tagger {obj}'")
    # Options the help mentions outside a command line apply to some verb.
    for o in sorted(help_opts - offered):
        bad(f"`tagger {obj} help` lists {o} but {rel(COMP)} never completes it for 'tagger {obj}'")
    for o in sorted(offered - help_opts):
        bad(f"{rel(COMP)} completes {o} for 'tagger {obj}' but `tagger {obj} help` does not list it")

# ---- tagger(8): global options and every object
main = os.path.join(DOCS, "tagger.8.rst")
if not os.path.exists(main):
    bad(f"no {rel(main)}")
else:
    text = open(main).read()
    syn = [" ".join(l.split()) for l in sections(main).get("SYNOPSIS", "").splitlines()]
    for l in usage_block(top):
        if l not in syn:
            bad(f"`tagger help` Usage line '{l}' is not in the SYNOPSIS of {rel(main)}")
    for obj in objects:
        if f"**tagger-{obj}**\\ (8)" not in sections(main).get("SEE ALSO", ""):
            bad(f"{rel(main)} SEE ALSO does not name tagger-{obj}(8)")
    got = complete_batch([["tagger", "-"]])[0]
    for o in re.findall(r"-([a-z])\[", top):
        if "-" + o not in got:
            bad(f"`tagger help` lists -{o} but {rel(COMP)} does not complete it after 'tagger'")
        if f"``-{o}``" not in sections(main).get("OPTIONS", ""):
            bad(f"`tagger help` lists -{o} but the OPTIONS of {rel(main)} do not")

# ---- every page renders without a warning
for f in sorted(os.listdir(DOCS)):
    m = re.fullmatch(r"(.+)\.(\d)\.rst", f)
    if not m:
        continue
    src = os.path.join(DOCS, f)
    out = os.path.join(TMP, f"{m.group(1)}.{m.group(2)}")
    p = subprocess.run(["rst2man", "--halt=warning", "--no-datestamp", src, out],
                       capture_output=True, text=True)
    if p.returncode or p.stderr.strip():
        bad(f"rst2man {rel(src)}: {p.stderr.strip()}")
        continue
    p = subprocess.run(["groff", "-ww", "-man", "-z", out], capture_output=True, text=True)
    if p.stderr.strip():
        bad(f"groff -ww {rel(src)}: {p.stderr.strip()}")
    p = subprocess.run(["man", "--warnings", "-l", out], capture_output=True, text=True,
                       env=dict(os.environ, MANWIDTH="80", MAN_KEEP_FORMATTING="0"))
    if p.returncode or p.stderr.strip():
        bad(f"man --warnings -l {rel(src)}: {p.stderr.strip()}")
    elif not p.stdout.strip():
        bad(f"man -l {rel(src)}: empty page")
    else:
        print(f"ok: {f} renders without warnings")

if problems:
    print(f"{len(problems)} problems")
    sys.exit(1)
print("ok: help, man pages and completion agree")
EOF
