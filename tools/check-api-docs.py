#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make lint: a header's API block says what the prototypes take.

Each header of userspace/ and bpf/ documents its functions in an "API:"
block, as calls: "dp_record_write(dir, name, rec, extra, len)". Prose
drifts from code unnoticed, so every documented call of a function the
header declares must name the prototype's parameters: as many of them, in
order (with & or * where the caller passes an address), each by a name
that is the parameter's or plainly stands for it (its first word, a word
of it, its initials, a prefix: "len" for extra_len, "o" for opts, "tp" for
topo_path), or by an example value ("100mbit", 3). A parameter the
prototype lost or gained, or two swapped, fails. Prints each mismatch as
"file: call: what"; exit 1 if any.
"""
import glob
import re
import sys

CALL = re.compile(r'^\s*\*\s+([a-z_][a-z0-9_]*)\(([^()]*)\)', re.M)
PROTO = re.compile(r'\b([a-z_][a-z0-9_]*)\s*\(([^;{}()]*(?:\([^()]*\)[^;{}()]*)*)\)\s*;')
NAME = re.compile(r'([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[[^]]*\])*\s*$')
FUNCPTR = re.compile(r'\(\s*\*\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)')
LITERAL = re.compile(r'^("[^"]*"|-?[0-9][0-9.]*[a-z]*|NULL)$')


def stands_for(doc, param):
    """doc, a documented name, plainly names the parameter param."""
    words = param.split('_')
    return (doc == param or param.startswith(doc) or doc.startswith(param)
            or param.endswith(doc)
            or doc in words or param in doc.split('_')
            or doc == ''.join(w[:1] for w in words))


def top_level(code):
    """The code outside every brace: prototypes, not calls in bodies."""
    out, depth = [], 0
    for ch in code:
        if ch == '{':
            depth += 1
        elif ch == '}':
            depth -= 1
            if depth == 0:
                out.append(';')
        elif depth == 0:
            out.append(ch)
    return ''.join(out)


def prototypes(text):
    code = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    code = re.sub(r'//[^\n]*', '', code)
    code = re.sub(r'^#[^\n]*(?:\\\n[^\n]*)*', '', code, flags=re.M)
    protos = {}
    for m in PROTO.finditer(top_level(code)):
        args = m.group(2).strip()
        params = []
        if args not in ('', 'void'):
            for a in re.split(r',(?![^(]*\))', args):
                f = FUNCPTR.search(a)
                n = f or NAME.search(a.strip())
                params.append(n.group(1) if n else a.strip())
        protos[m.group(1)] = params
    return protos


def check(path):
    text = open(path, encoding='utf-8').read()
    blocks = [c for c in re.findall(r'/\*(.*?)\*/', text, re.S) if 'API:' in c]
    if not blocks:
        return []
    protos = prototypes(text)
    bad = []
    for m in CALL.finditer(blocks[0].split('API:', 1)[1]):
        name, args = m.group(1), m.group(2)
        if name not in protos:
            continue
        want = protos[name]
        got = [a.strip() for a in args.split(',')] if args.strip() else []
        if len(got) != len(want):
            bad.append(f'{path}: {name}({args}): {len(got)} parameters, '
                       f'the prototype has {len(want)} ({", ".join(want)})')
            continue
        for g, w in zip(got, want):
            if not stands_for(g.lstrip('&*'), w) and not LITERAL.match(g):
                bad.append(f'{path}: {name}({args}): "{g}" is not the '
                           f'parameter "{w}"')
    return bad


def main():
    files = sys.argv[1:] or sorted(glob.glob('userspace/*/*.h') +
                                   glob.glob('bpf/*.h') +
                                   glob.glob('bpf/lib/*.h'))
    bad = [b for f in files for b in check(f)]
    for b in bad:
        print(b)
    if not bad:
        print(f'api docs: ok ({len(files)} headers)')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
