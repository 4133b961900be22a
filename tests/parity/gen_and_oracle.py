#!/usr/bin/env python3
"""CAO-parity fixture generator and oracle for skilltui.

Usage (run with a Python that has cli-agent-orchestrator==2.5.4 and skills-ref==0.1.1):

    gen_and_oracle.py ROOT [--seed S] [--count N] [--selfcheck K] [--stats]

Generates N random CAO homes under ROOT (ROOT/home-XXX is the CAO home, ROOT/user-XXX the
fake $HOME, ROOT/ext-XXX holds extra skill/agent dirs outside the home), full of the traps
listed in tests/parity/README.md, then asks CAO itself (its real functions, no rule is
re-implemented here) what it does with each home and writes ROOT/expected.json.

CAO reads CAO_HOME_DIR and $HOME at import time, so one process serves every home by
re-pointing every module-level path CAO captured at import (found generically: any global of
any loaded cli_agent_orchestrator module whose value lives under the scratch home). The
--selfcheck K mode proves the re-pointing complete: for K homes it runs a fresh subprocess
with CAO_HOME_DIR=<home> HOME=<fake home> that imports CAO normally and asserts identical
answers.

Internal mode: gen_and_oracle.py --oracle-home SPEC.json  (used by --selfcheck).
"""

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import types
from pathlib import Path

CAO_VERSION = "2.5.4"
SKILLS_REF_VERSION = "0.1.1"
BUILTIN_PROFILES = [
    "code_supervisor",
    "developer",
    "memory_manager",
    "retrospector",
    "reviewer",
    "workflow_scout",
]

# ---------------------------------------------------------------------------------------------
# small helpers
# ---------------------------------------------------------------------------------------------


def wchoice(rng, pairs):
    """Weighted choice over [(weight, item), ...] (deterministic for a given rng state)."""
    total = sum(w for w, _ in pairs)
    x = rng.random() * total
    for w, item in pairs:
        x -= w
        if x < 0:
            return item
    return pairs[-1][1]


def chance(rng, p):
    return rng.random() < p


def dq(s):
    """A YAML double-quoted scalar for s (escapes only what must be escaped)."""
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif o < 0x20 or o == 0x7F or 0x80 <= o < 0xA0 or ch in "\u2028\u2029\ufeff":
            out.append("\\u%04x" % o)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def sq(s):
    return "'" + s.replace("'", "''") + "'"


_PLAIN_BAD_START = set("-?:,[]{}#&*!|>'\"%@`~ \t")


def plain_ok(s, flow=False):
    """Conservative: can s be written as a plain scalar and stay the same characters?"""
    if not s or s != s.strip() or s[0] in _PLAIN_BAD_START:
        return False
    if ": " in s or " #" in s or s.endswith(":"):
        return False
    if any(c in s for c in "\n\r\t\x85\u2028\u2029\ufeff"):
        return False
    if flow and any(c in s for c in ",[]{}"):
        return False
    return True


def qany(rng, s, flow=False):
    """Plain when possible (mostly), else quoted."""
    if plain_ok(s, flow) and chance(rng, 0.75):
        return s
    if "\n" not in s and chance(rng, 0.3):
        return sq(s)
    return dq(s)


def write(path, data):
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)


# ---------------------------------------------------------------------------------------------
# pools
# ---------------------------------------------------------------------------------------------

COMMON_NAMES = [
    "cao-x", "cao-review", "cao-deploy", "cao-docs", "cao-X", "python-testing", "rust-fmt",
    "data-viz", "pdf", "a1", "b2", "Ab", "ab", "x", "c", "zeta", "my skill", "café", "日本語",
    "a[1]", "cao_y", "web-search", "k8s-ops", "sql", "lint", "UPPER", "x y z", "go-mod",
    "cao-zz", "ca", "abc", "bca", "cab",
]
RARE_NAMES = [".hidden", "a..b", "-dash", "star*", "tab\tname", "trail-", "é", "Ω-omega", "a.b"]
# folder names that YAML 1.1 reads as non-strings when written plain (or surprisingly not)
TYPED_NAMES = [
    "yes", "No", "ON", "off", "true", "False", "TRUE", "y", "n", "yES", "~", "null", "Null",
    "NULL", "1.5", ".5", "1e3", "1e+3", "1.0e+3", "0x1F", "0o17", "017", "08", "1_000",
    "1__0", "1:20", "12:70", "190:20:30", "2024-01-01", "2024-01-01 10:00:00", "2024-1-1",
    ".inf", "-.inf", ".NaN", "0b101", "+1", "-0", "12", "0.", "=", "<<", "0x",
]
TYPED_VALUES = TYPED_NAMES + ["", "6.8523015e+5", "685.230_15e+03", ".Inf", "+.inf"]

DESCS = [
    "Runs the Python test suite with pytest.",
    "Deploys CAO stacks safely",
    "Review code changes for bugs and style",
    "Formats Rust code",
    "Plots data",
    "Ünïcødé – 日本語 🚀 support",
    "Use <b>bold</b> & \"quotes\" 'single' > less",
    "Handles C# and F# projects",
    "50% done; cost $5 — ok",
    "Star *emphasis* and **bold**",
    "Backslash \\ path C:\\tmp",
    "`code` and {braces} [brackets]",
    "Trailing dot.",
    "x",
    "Search the web & summarise <results>",
    "Ends with a dollar $",
    "Émoji 🧪 test ✓",
]
UNSAFE_DESCS = [
    "A skill: with colon-space inside",
    "Note: broken # also a comment",
    "- starts like a list",
    "[starts like a flow list",
    "&anchor-like start",
    "*alias-like start",
    "!tag-like start",
    "'unbalanced",
    "% percent start",
    "@ at start",
    "` backtick start",
    "ends with colon:",
]
BODIES = [
    "# Title\n\nUse this skill when testing.\n",
    "",
    "Body with a rule\n\n---\n\nmore text\n",
    "## Steps\n\n1. one\n2. two\n\n```bash\necho hi\n```\n",
    "Trailing spaces   \n\n\n",
    "name: not-frontmatter\ndescription: body lines\n",
    "---\nname: fake\n---\n",
    "Plain body.",
]
GLOBS = [
    "cao-*", "*", "?", "??", "[abc]*", "[!a]*", "[a-", "[", "*-*", "a*", "[]]*", "[!]]*",
    "[z-a]*", "[a-c-e]*", "*[0-9]", "a.b", "a+", "(x)", "*\\*", "cao-?", "CAO-*", "[A-Z]*",
    "*t*", "[[]*", "py*ing", "**", "[!!]*", "*.*", "[-a]*", "[a-]*", "[^a]*", "???*",
    "[ -~]*", "{a,b}", "*]", "]", "!x",
]
JUNK_PATTERNS = ["zzz-*", "nope", "cao-x ", " cao-x", "", "Cao-x", "cao-x/", "../x"]

PROFILE_NAMES = [
    "alpha", "beta-agent", "gamma", "ops_bot", "writer", "qa", "tester2", "doc-agent", "sec",
    "planner", "Zed", "data.eng", "r2d2", "x", "my agent",
]
RESERVED_EPHEMERAL = ["Dev-helper-1a2b", "Ab-xyz-0f0f"]


# ---------------------------------------------------------------------------------------------
# SKILL.md generation
# ---------------------------------------------------------------------------------------------


class Labels:
    def __init__(self):
        self.items = []

    def add(self, label):
        self.items.append(label)


def name_variant(rng, n, typed, L):
    """-> (pre, main, post) frontmatter line lists for the name key."""
    if typed:
        v = wchoice(rng, [(5, "plain"), (2, "dq"), (1, "sq"), (1, "tag"), (1, "block")])
        L.add("name-typed-" + v)
        if v == "plain":
            return [], ["name: " + n], []
        if v == "dq":
            return [], ["name: " + dq(n)], []
        if v == "sq":
            return [], ["name: " + sq(n)], []
        if v == "tag":
            return [], ["name: !!str " + n], []
        return [], ["name: |-", "  " + n], []
    v = wchoice(rng, [
        (40, "plain"), (8, "dq"), (5, "sq"), (3, "quoted-key"), (4, "padded"), (3, "ws-escape"),
        (5, "uni-ws"), (4, "comment"), (4, "block"), (2, "folded"), (3, "dup-last"),
        (2, "dup-first"), (3, "anchor"), (2, "merge"), (3, "case"), (3, "mismatch"),
        (2, "missing"), (1, "empty"), (1, "null"), (2, "ws-only"), (1, "multiline"),
        (1, "tag"), (1, "tab-sep"), (1, "hash-nospace"), (1, "block-keep"),
    ])
    L.add("name-" + v)
    if v == "plain":
        return [], ["name: " + qany(rng, n)], []
    if v == "dq":
        return [], ["name: " + dq(n)], []
    if v == "sq":
        return [], ["name: " + sq(n)], []
    if v == "quoted-key":
        return [], [wchoice(rng, [(1, '"name"'), (1, "'name'")]) + ": " + dq(n)], []
    if v == "padded":
        pad = rng.choice(["  ", " ", "   ", "\t "])
        return [], ["name: " + dq(pad + n + pad[::-1])], []
    if v == "ws-escape":
        return [], ["name: " + dq(rng.choice(["\t", "\n", " \n "]) + n + rng.choice(["\n", "\t", "  "]))], []
    if v == "uni-ws":
        w = rng.choice(["\u3000", "\u00a0", "\x1f", "\x1c", "\x1e", "\x85", "\u2028", "\x0b", "\x0c", "\u2003", "\u200b", "\ufeff", "\u180e"])
        s = (w + n) if chance(rng, 0.5) else (n + w)
        if chance(rng, 0.3) and w in "\u3000\u00a0\u2003\u200b":
            return [], ["name: " + '"' + s + '"'], []  # raw inside quotes
        return [], ["name: " + dq(s)], []
    if v == "comment":
        if plain_ok(n):
            return [], ["name: " + n + " # the name" + rng.choice(["", " ###", ": x"])], []
        return [], ["name: " + dq(n) + "  # quoted then comment"], []
    if v == "block":
        ind = rng.choice(["|", "|-", ">", ">-", "|+", ">+", "|2"])
        body = ["  " + n] if not ind.startswith("|2") else ["   " + n]
        if "+" in ind:
            body += [""]
        return [], ["name: " + ind] + body, []
    if v == "block-keep":
        return [], ["name: |+", "  " + n, "", ""], []
    if v == "folded":
        return [], ["name: >", "  " + n, ""], []
    if v == "dup-last":
        return ["name: " + dq("wrong-" + n)], ["name: " + dq(n)], []
    if v == "dup-first":
        return [], ["name: " + dq(n)], ["name: " + dq(n + "-other")]
    if v == "anchor":
        return ["x-name: &nm " + dq(n)], ["name: *nm"], []
    if v == "merge":
        if chance(rng, 0.5):
            return [], ["<<: {name: " + dq(n) + "}"], []
        return ["base: &base", "  name: " + dq(n)], ["<<: *base"], []
    if v == "case":
        s = n.swapcase()
        if s == n:
            s = n + "X"
        return [], ["name: " + dq(s)], []
    if v == "mismatch":
        return [], ["name: " + dq(rng.choice(COMMON_NAMES) + "-mis")], []
    if v == "missing":
        return [], [], []
    if v == "empty":
        return [], ["name:" + rng.choice(["", " ", "  # nothing"])], []
    if v == "null":
        return [], ["name: " + rng.choice(["~", "null", "Null", "NULL"])], []
    if v == "ws-only":
        return [], ["name: " + dq(rng.choice(["   ", "\t", " \n ", "\u3000"]))], []
    if v == "multiline":
        return [], ["name: " + (n if plain_ok(n) else "cao"), "  continued"], []
    if v == "tag":
        return [], ["name: !!str " + (n if plain_ok(n) else dq(n))], []
    if v == "tab-sep":
        return [], ["name:\t" + (dq(n) if not plain_ok(n) or chance(rng, 0.3) else n)], []
    if v == "hash-nospace":
        return [], ["name: " + (n if plain_ok(n) else "cao") + "#frag"], []
    raise AssertionError(v)


def desc_variant(rng, L):
    v = wchoice(rng, [
        (30, "plain"), (8, "dq"), (4, "sq"), (3, "comment"), (2, "hash-nospace"), (3, "padded"),
        (3, "uni-ws"), (8, "block"), (4, "multiline"), (3, "alias"), (1, "alias-nonstr"),
        (6, "typed-plain"), (3, "typed-quoted"), (1, "typed-tag"), (1, "empty"),
        (1, "empty-quoted"), (1, "null"), (2, "missing"), (2, "unsafe-plain"),
        (2, "dash-indented"), (2, "dash-col0"), (1, "cr-escape"), (1, "tab-escape"),
        (1, "long"), (2, "raw-linesep"), (0.5, "binary"), (0.5, "custom-tag"),
        (0.5, "undefined-alias"), (0.5, "dup-anchor"), (3, "html"), (1, "list"), (1, "map"),
        (1, "nul-escape"), (1, "dollar"), (2, "tab-sep"),
    ])
    L.add("desc-" + v)
    d = rng.choice(DESCS)
    if v == "plain":
        return [], ["description: " + qany(rng, d)], []
    if v == "dq":
        return [], ["description: " + dq(d)], []
    if v == "sq":
        return [], ["description: " + sq(d)], []
    if v == "comment":
        return [], ["description: Handles data # not part of it"], []
    if v == "tab-sep":
        # libyaml takes tabs after the colon as the separator
        sep = rng.choice(["\t", "\t\t", " \t", "\t "])
        return [], ["description:" + sep + rng.choice([qany(rng, d), "Handles data: fast", "x:\ty"])], []
    if v == "hash-nospace":
        return [], ["description: C#-and-F#tools #real comment"], []
    if v == "padded":
        return [], ["description: " + rng.choice([dq, sq])("   " + d + "  ")], []
    if v == "uni-ws":
        w1 = rng.choice(["\u3000", "\x1f", "\x85", "\u00a0", "\u2029", "\x1d", " \t"])
        w2 = rng.choice(["\u3000", "\x1c", "\x85", "\u00a0", "\u2028", "", "\u200b"])
        return [], ["description: " + dq(w1 + d + w2)], []
    if v == "block":
        ind = rng.choice(["|", ">", "|-", ">-", "|+", ">+", "|2", ">2"])
        pad = "   " if ind.endswith("2") else "  "
        lines = [pad + "First line of " + d.replace("\n", " ")]
        if chance(rng, 0.7):
            lines += ["", pad + "Second para", pad + "  more-indented line", pad + "back"]
        if chance(rng, 0.5):
            lines += ["", ""]
        return [], ["description: " + ind + rng.choice(["", " # c"])] + lines, []
    if v == "multiline":
        return [], ["description: first line", "  second line", "", "  third para" + rng.choice(["", "  "])], []
    if v == "alias":
        return ["x-desc: &d " + dq(d)], ["description: *d"], []
    if v == "alias-nonstr":
        return ["x-desc: &d " + rng.choice(["[a, b]", "12", "{k: v}", "yes"])], ["description: *d"], []
    if v == "typed-plain":
        t = rng.choice(TYPED_VALUES)
        L.add("typed:" + t)
        return [], [("description: " + t).rstrip() if t else "description:"], []
    if v == "typed-quoted":
        t = rng.choice([x for x in TYPED_VALUES if x])
        return [], ["description: " + rng.choice([dq, sq])(t)], []
    if v == "typed-tag":
        return [], ["description: !!str " + rng.choice(["yes", "1.5", "2024-01-01", "~", "123"])], []
    if v == "empty":
        return [], ["description:"], []
    if v == "empty-quoted":
        return [], ["description: " + rng.choice(['""', "''", '"  "', "' \t'"])], []
    if v == "null":
        return [], ["description: " + rng.choice(["~", "null", "NULL"])], []
    if v == "missing":
        return [], [], []
    if v == "unsafe-plain":
        return [], ["description: " + rng.choice(UNSAFE_DESCS)], []
    if v == "dash-indented":
        return [], ["description: |", "  before", "  ---", "  after"], []
    if v == "dash-col0":
        return [], ["description: |", "  before", "---", "  after"], []
    if v == "cr-escape":
        return [], ['description: "line one\\rline two\\r\\nthree"'], []
    if v == "tab-escape":
        return [], ['description: "col\\tcol\\tend"'], []
    if v == "long":
        return [], ["description: " + dq(("long text " * 120).strip())], []
    if v == "raw-linesep":
        sep = rng.choice(["\u2028", "\x85", "\u2029"])
        return [], ["description: " + rng.choice(["foo" + sep + "bar", '"foo' + sep + 'bar"', "'foo" + sep + "bar'"])], []
    if v == "binary":
        return [], ["description: !!binary aGVsbG8="], []
    if v == "custom-tag":
        return [], ["description: !custom text"], []
    if v == "undefined-alias":
        return [], ["description: *nowhere"], []
    if v == "dup-anchor":
        return ["x-a: &a one", "x-b: &a two"], ["description: *a"], []
    if v == "html":
        return [], ["description: " + dq("<tag attr=\"v\"> & 'q' </tag> &amp;")], []
    if v == "list":
        return [], ["description:", "  - a", "  - b"], []
    if v == "map":
        return [], ["description: {text: hi}"], []
    if v == "nul-escape":
        return [], ['description: "nul\\0byte and bell\\a"'], []
    if v == "dollar":
        return [], ["description: costs $5 and ${VAR} and $$"], []
    raise AssertionError(v)


def extras(rng, L):
    """-> list of (position, lines); position 'any' | 'pre' | 'post'."""
    out = []
    if chance(rng, 0.3):
        e = rng.choice([
            ["license: MIT"],
            ["metadata: {author: me, version: \"1.0\"}"],
            ["metadata:", "  author: me", "  version: 1.0"],
            ["allowed-tools: [Read, Write]"],
            ["allowed-tools:", "  - Read", "  - Bash(git:*)"],
            ["compatibility: " + dq("Requires python3")],
            ["version: 1.2"],
            ["tags: [a, b]"],
            ["x-empty:"],
            ["nested: {a: {b: c}}"],
            ["license: Apache-2.0", "metadata:", "  k: v"],
        ])
        L.add("extra-benign")
        out.append(("any", e))
    if chance(rng, 0.04):
        e = rng.choice([["1: one"], ["yes: x"], ["~: n"], ["2024-01-01: d"], ["1.5: f"], ["true: t"],
                        ["null: z"], ["[a, b]: c"], ["? [a, b]", ": c"], ["{a: 1}: x"], ["On: x"]])
        L.add("extra-nonstr-key")
        out.append(("any", e))
    if chance(rng, 0.02):
        L.add("extra-post-kwarg")
        out.append(("any", [rng.choice(["content: hi", "handler: x"])]))
    if chance(rng, 0.05):
        L.add("comment-lines")
        out.append(("any", [rng.choice(["# a comment", "#", "   # indented comment", "#name: commented-out"])]))
    if chance(rng, 0.03):
        L.add("blank-lines-in-fm")
        out.append(("any", ["", "  "]))
    return out


BROKEN = [
    ("unclosed-dq", ['description: "abc']),
    ("unclosed-sq", ["description: 'abc"]),
    ("bad-indent", ["description: D", "   name: N"]),
    ("tab-indent", ["\tlicense: MIT"]),
    ("unclosed-flow", ["allowed-tools: [a, b"]),
    ("stray-seq", ["- item"]),
    ("no-colon", ["just some text"]),
    ("bad-key", [": novalue"]),
    ("tab-in-block", ["metadata:", "\tk: v"]),
    ("dup-key-flow", ["x: {a: 1, a: 2}"]),  # fine for PyYAML (last wins)
    ("directive", ["%YAML 1.1"]),
    ("doc-end", ["..."]),
]


def gen_yaml_frontmatter(rng, folder, typed, L, force):
    if force == "valid":
        L.add("forced-valid")
        name_p = ([], ["name: " + dq(folder)], [])
        desc_p = ([], ["description: " + dq(rng.choice(DESCS) + " #" + str(rng.randrange(1000)))], [])
        ex = []
    else:
        name_p = name_variant(rng, folder, typed, L)
        desc_p = desc_variant(rng, L)
        ex = extras(rng, L)
    pre = name_p[0] + desc_p[0]
    post = name_p[2] + desc_p[2]
    mains = [name_p[1], desc_p[1]]
    if chance(rng, 0.3):
        mains.reverse()
    for _pos, lines in ex:
        mains.insert(rng.randrange(len(mains) + 1), lines)
    lines = list(pre)
    for m in mains:
        lines += m
    lines += post
    if force != "valid" and chance(rng, 0.05):
        label, broken = rng.choice(BROKEN)
        L.add("broken-" + label)
        broken = [b.replace("N", folder) for b in broken] if label == "bad-indent" else broken
        at = rng.randrange(len(lines) + 1)
        lines[at:at] = broken
    return lines


def gen_skill_text(rng, folder, typed, L, force=None):
    """-> bytes of a SKILL.md."""
    if force == "invalid":
        kind = rng.choice(["mismatch", "nodesc", "broken", "bom", "unterminated", "typed"])
        L.add("forced-invalid-" + kind)
        d = dq(rng.choice(DESCS))
        if kind == "mismatch":
            return ("---\nname: " + dq(folder + "-x") + "\ndescription: " + d + "\n---\nbody\n").encode()
        if kind == "nodesc":
            return ("---\nname: " + dq(folder) + "\n---\nbody\n").encode()
        if kind == "broken":
            return ("---\nname: " + dq(folder) + "\ndescription: \"unclosed\n---\nbody\n").encode()
        if kind == "bom":
            return ("\ufeff---\nname: " + dq(folder) + "\ndescription: " + d + "\n---\nbody\n").encode()
        if kind == "unterminated":
            return ("---\nname: " + dq(folder) + "\ndescription: " + d + "\nbody\n").encode()
        return ("---\nname: " + dq(folder) + "\ndescription: yes\n---\nbody\n").encode()

    fmt = "yaml" if force == "valid" else wchoice(rng, [
        (90, "yaml"), (5, "json"), (1, "toml"), (1.5, "none"), (1.5, "nonmap"), (1, "empty")])
    if fmt != "yaml":
        L.add("format-" + fmt)
    body = rng.choice(BODIES)
    if fmt == "yaml":
        fm_lines = gen_yaml_frontmatter(rng, folder, typed, L, force)
        fm = "\n".join(fm_lines)
    elif fmt == "json":
        v = wchoice(rng, [(6, "ok"), (1, "trailing-comma"), (1, "name-number"), (1, "dup"),
                          (1, "nan"), (1, "brace-col0"), (1, "open-space"), (1, "escapes"),
                          (1, "big")])
        L.add("json-" + v)
        dsc = rng.choice(DESCS)
        inner = ['  "name": ' + json.dumps(folder, ensure_ascii=False) + ",",
                 '  "description": ' + json.dumps(dsc, ensure_ascii=False)]
        if v == "trailing-comma":
            inner[-1] += ","
        elif v == "name-number":
            inner[0] = '  "name": 12,'
        elif v == "dup":
            inner.insert(0, '  "name": "other",')
        elif v == "nan":
            inner.append('  ,"x": NaN, "y": -Infinity')
        elif v == "brace-col0":
            inner = ['"meta": {"a": 1', "}", ',"name": ' + json.dumps(folder) + ',"description": "d"']
        elif v == "escapes":
            inner = ['"name": ' + json.dumps(folder, ensure_ascii=True) + ",",
                     '"description": "caf\\u00e9 \\t tab \\ud83d\\ude80"']
        elif v == "big":
            inner.append('  ,"n": 1e400')
        opener = "{ " if v == "open-space" else "{"
        text = opener + "\n" + "\n".join(inner) + "\n}\n" + body
        return finish_text(rng, text, L, allow_fences=False)
    elif fmt == "toml":
        text = "+++\nname = " + json.dumps(folder) + "\ndescription = \"d\"\n+++\n" + body
        return finish_text(rng, text, L, allow_fences=False)
    elif fmt == "none":
        text = "# " + folder + "\n\nname: " + folder + "\ndescription: no fences\n" + body
        return finish_text(rng, text, L, allow_fences=False)
    elif fmt == "nonmap":
        fm = rng.choice(["- " + folder + "\n- b", "just a scalar", "42", "[name, " + dq(folder) + "]", "'quoted scalar'"])
    else:  # empty
        fm = rng.choice(["", "\n", "# only a comment", "  "])

    # fences
    if force == "valid":
        open_f, close_f = "---", "---"
    else:
        open_f = wchoice(rng, [(85, "---"), (3, "----"), (3, "--- "), (2, "---\t"), (2, "-----"),
                               (2, "---   "), (1, "---yaml"), (1, "- - -"), (1, "--")])
        close_f = wchoice(rng, [(85, "---"), (3, "----"), (3, "--- "), (2, "-----"), (2, "---\t"),
                                (2, "UNTERMINATED"), (1, "..."), (1, "--- # c"), (1, "---x")])
        if open_f != "---":
            L.add("fence-open-" + repr(open_f))
        if close_f != "---":
            L.add("fence-close-" + repr(close_f))
    if close_f == "UNTERMINATED":
        text = open_f + "\n" + fm + "\n" + body
    else:
        text = open_f + "\n" + fm + "\n" + close_f + "\n" + body
    return finish_text(rng, text, L, allow_fences=True, force=force)


def finish_text(rng, text, L, allow_fences, force=None):
    if force != "valid" and chance(rng, 0.12):
        lead = rng.choice(["\n", "\n\n", "  \n", " \t \n\n", " ", "\u3000\n", "\x0c\n", "\x0b",
                           "\x1c\n", "\x1f\n", "\xa0\n", "\u2028\n", "\x85\n", "\ufeff",
                           "\ufeff\n", "\u200b\n", "\r\n", "\t"])
        L.add("leading-" + repr(lead))
        text = lead + text
    if force != "valid" and chance(rng, 0.05):
        text = text + rng.choice(["\n\n\n", "   ", "\u3000", "\x1c"])
        L.add("trailing-ws")
    eol = "lf" if force == "valid" else wchoice(rng, [(70, "lf"), (15, "crlf"), (7, "cr"), (8, "mixed")])
    if eol != "lf":
        L.add("eol-" + eol)
    if eol == "crlf":
        text = text.replace("\n", "\r\n")
    elif eol == "cr":
        text = text.replace("\n", "\r")
    elif eol == "mixed":
        parts = text.split("\n")
        text = "".join(p + rng.choice(["\n", "\r\n", "\r"]) for p in parts[:-1]) + parts[-1]
    data = text.encode("utf-8")
    if force != "valid" and chance(rng, 0.02):
        bad = rng.choice([b"\xff\xfe", b"\xc3", b"\xc0\xaf", b"\xed\xa0\x80", b"\x80", b"\xf8\x88\x80\x80\x80"])
        at = rng.randrange(len(data) + 1)
        data = data[:at] + bad + data[at:]
        L.add("invalid-utf8")
    return data


def place_skill(rng, directory, folder, L, force=None, typed=False, ctx=None):
    """Create directory/folder as a skill (or as one of the folder-level traps)."""
    target = Path(directory) / folder
    kind = "normal" if force else wchoice(rng, [
        (86, "normal"), (2.5, "missing"), (1.5, "skilldir"), (1.5, "lowercase"),
        (2, "symlink-folder"), (1, "dangling-folder"), (1.5, "symlink-skillmd"),
        (1, "dangling-skillmd"), (1.5, "folder-is-file"), (1, "empty-folder")])
    if kind != "normal":
        L.add("folder-" + kind)
    if kind == "normal":
        write(target / "SKILL.md", gen_skill_text(rng, folder, typed, L, force))
        if chance(rng, 0.1):
            write(target / "references" / "notes.md", "# notes\n")
    elif kind == "missing":
        write(target / "README.md", "# no skill file here\n")
    elif kind == "skilldir":
        (target / "SKILL.md").mkdir(parents=True)
        write(target / "SKILL.md" / "inner.md", "---\nname: x\ndescription: y\n---\n")
    elif kind == "lowercase":
        write(target / "skill.md", gen_skill_text(rng, folder, typed, L, "valid"))
    elif kind == "symlink-folder":
        src = ctx["linkroot"] / ("src-" + str(rng.randrange(10**6))) / folder
        write(src / "SKILL.md", gen_skill_text(rng, folder, typed, L, force))
        target.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(src, target)
    elif kind == "dangling-folder":
        target.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(ctx["linkroot"] / "does-not-exist", target)
    elif kind == "symlink-skillmd":
        src = ctx["linkroot"] / ("file-" + str(rng.randrange(10**6)) + ".md")
        write(src, gen_skill_text(rng, folder, typed, L, force))
        target.mkdir(parents=True)
        os.symlink(src, target / "SKILL.md")
    elif kind == "dangling-skillmd":
        target.mkdir(parents=True)
        os.symlink(ctx["linkroot"] / "missing.md", target / "SKILL.md")
    elif kind == "folder-is-file":
        write(target, gen_skill_text(rng, folder, typed, L, force))
    elif kind == "empty-folder":
        target.mkdir(parents=True)


def pick_folder(rng, used, L):
    """-> (folder name, typed?)"""
    for _ in range(50):
        r = rng.random()
        if r < 0.09:
            n, typed = rng.choice(TYPED_NAMES), True
        elif r < 0.12:
            n, typed = rng.choice(RARE_NAMES), False
        else:
            n, typed = rng.choice(COMMON_NAMES), False
        if n not in used:
            used.append(n)
            if typed:
                L.add("folder-typed")
            elif n in RARE_NAMES:
                L.add("folder-rare")
            return n, typed
    n = "gen-" + str(len(used))
    used.append(n)
    return n, False


# ---------------------------------------------------------------------------------------------
# agent profiles
# ---------------------------------------------------------------------------------------------


def pattern_item(rng, pat, flow, L):
    if chance(rng, 0.03):
        L.add("pattern-raw")
        return pat if pat else "''"  # raw even when unsafe: YAML decides
    if plain_ok(pat, flow) and chance(rng, 0.6):
        return pat
    return dq(pat) if chance(rng, 0.6) else sq(pat)


def choose_patterns(rng, names, L):
    pats = []
    for _ in range(rng.randint(1, 4)):
        r = rng.random()
        if r < 0.5 and names:
            pats.append(rng.choice(names))
            L.add("pattern-exact")
        elif r < 0.88:
            pats.append(rng.choice(GLOBS))
            L.add("pattern-glob")
        else:
            pats.append(rng.choice(JUNK_PATTERNS))
            L.add("pattern-junk")
    if chance(rng, 0.05) and pats:
        pats.append(pats[0])
        L.add("pattern-dup")
    return pats


def skills_field(rng, names, env_keys, L):
    """-> list of frontmatter lines for `skills` (possibly empty = omitted)."""
    v = wchoice(rng, [(15, "omitted"), (10, "null"), (7, "empty"), (25, "flow"), (30, "block"),
                      (5, "nonlist"), (5, "nonstr-items"), (8, "env")])
    L.add("skills-" + v)
    if v == "omitted":
        return []
    if v == "null":
        return [rng.choice(["skills:", "skills: ~", "skills: null", "skills: Null", "skills: NULL", "skills:   # none"])]
    if v == "empty":
        return [rng.choice(["skills: []", "skills: [ ]", "skills: []  # nothing"])]
    if v == "nonlist":
        return [rng.choice(["skills: cao-x", "skills: " + dq("cao-*"), "skills: 5", "skills: yes",
                            "skills: {a: b}", "skills: 1.5", "skills: ''", "skills: no",
                            "skills: !!omap []", "skills: !!pairs [a: 1]", "skills: !!set {a}",
                            "skills: [!!binary Y2FvLXg=]", "skills: [!!binary /w==]"])]
    pats = choose_patterns(rng, names, L)
    if v == "nonstr-items":
        bad = rng.choice(["yes", "1", "null", "~", "1.5", "2024-01-01", "[a]", "{a: 1}", "off", "0x1F"])
        L.add("nonstr-item:" + bad)
        pats_txt = [pattern_item(rng, p, False, L) for p in pats]
        pats_txt.insert(rng.randrange(len(pats_txt) + 1), bad)
        return ["skills:"] + ["  - " + p for p in pats_txt]
    if v == "env" and env_keys:
        k = rng.choice(env_keys)
        form = rng.choice(["${%s}", "$%s", "${%s}", "${SKT_UNDEFINED_%s}"]) % k
        L.add("env-pattern")
        if chance(rng, 0.5):
            return ["skills:", "  - " + form] + ["  - " + pattern_item(rng, p, False, L) for p in pats[:1]]
        return ["skills: [" + form + "]"]
    if v == "flow" or (v == "env" and chance(rng, 0.5)):
        items = [pattern_item(rng, p, True, L) for p in pats]
        return ["skills: [" + ", ".join(items) + "]" + rng.choice(["", "  # comment"])]
    lines = ["skills:" + rng.choice(["", "  # list"])]
    ind = rng.choice(["  ", "", "    "])
    for p in pats:
        lines.append(ind + "- " + pattern_item(rng, p, False, L) + rng.choice(["", "", "  # why"]))
        if chance(rng, 0.1):
            lines.append(ind + "# comment between items")
    return lines


MISTYPED = [
    "description: 5", "name: [a]", "name: 5", "name: ~", "description:", "description: yes",
    "provider: 5", "tools: bash", "permissionMode: yolo", "kimiSwarm: \"yes\"", "codexProfile: ''",
    "mcpServers: [a]", "engine: v3", "model: 1.5", "role: {a: 1}", "tags: x",
    "provider_init_timeout: 1.5", "capabilities: [1, 2]", "hooks: []", "name: 2024-01-01",
    "provider_init_timeout: '1.5'", "provider_init_timeout: '1__0'", "provider_init_timeout: '1.'",
    "container: []", "container: {path_maps: [{host: a}]}", "container: {path_maps: {}}",
    "container: {path_maps: [[host, a]]}", "container: {path_maps: [{host: 1, guest: b}]}",
]
WELLTYPED = [
    "role: developer", "tags: [coding, tests]", "capabilities:\n  - review code", "provider: claude_code",
    "engine: v2", "provider_init_timeout: \"30\"", "provider_init_timeout: 2.0",
    "useLegacyMcpJson: \"yes\"", "kimiSwarm: yes", "model: sonnet", "unknown_key: whatever",
    "permissionMode: plan", "x-custom: [1, 2]", "system_prompt: overwritten by body",
    "provider_init_timeout: '1.0'", "provider_init_timeout: ' 1_000 '", "provider_init_timeout: '-12.00'",
    "container: {}", "container: {path_maps: ~}", "container: {path_maps: [{host: a, guest: b, x: 1}]}",
    "container:\n  path_maps:\n    - host: /h\n      guest: /g", "tags: !!omap []",
]


def profile_text(rng, pname, names, env_keys, L):
    v = wchoice(rng, [(85, "fm"), (5, "nofm"), (3, "nonmap"), (4, "broken"), (2, "bom"), (1, "unterminated")])
    L.add("profile-" + v)
    body = rng.choice(["You are a helpful agent.\n", "", "# Agent\n\nDo things with $HOME and ${SKT_A}.\n", "Body $$ dollars\n", "Trap: [${SKT_TRAP}] [${SKT_ONE}] [$SKT_REF]\n"])
    if v == "nofm":
        return finish_profile(rng, body or "Just a body.\n", L)
    if v == "nonmap":
        return finish_profile(rng, "---\n- skills\n- cao-x\n---\n" + body, L)
    groups = []  # each group is a list of lines kept together
    if chance(rng, 0.6):
        groups.append(["name: " + rng.choice([pname, dq(pname), "other-name", "'" + pname + "'"])])
    if chance(rng, 0.7):
        groups.append(["description: " + rng.choice(["An agent", dq("Agent: quoted"), "'single'", "${SKT_DESC}", "Uses $SKT_A"])])
    sk = skills_field(rng, names, env_keys, L)
    if sk:
        groups.append(sk)
    if chance(rng, 0.08):
        m = rng.choice(MISTYPED)
        L.add("profile-mistyped:" + m)
        groups.append(m.split("\n"))
    if chance(rng, 0.3):
        groups.append(rng.choice(WELLTYPED).split("\n"))
        L.add("profile-welltyped")
    if chance(rng, 0.03):
        groups.append([rng.choice(["1: x", "yes: x", "~: z", "content: hi", "handler: h"])])
        L.add("profile-nonstr-or-kwarg-key")
    rng.shuffle(groups)
    if v == "broken":
        groups.insert(rng.randrange(len(groups) + 1), [rng.choice(['description: "unclosed', "\tname: tab", "skills: [a, b", "- stray", "*undefined"])])
    lines = [ln for g in groups for ln in g]
    if v == "bom":
        text = "\ufeff---\n" + "\n".join(lines) + "\n---\n" + body
    elif v == "unterminated":
        text = "---\n" + "\n".join(lines) + "\n" + body
    else:
        text = "---\n" + "\n".join(lines) + "\n---\n" + body
    return finish_profile(rng, text, L)


def finish_profile(rng, text, L):
    eol = wchoice(rng, [(80, "lf"), (10, "crlf"), (5, "cr"), (5, "mixed")])
    if eol != "lf":
        L.add("profile-eol-" + eol)
    if eol == "crlf":
        text = text.replace("\n", "\r\n")
    elif eol == "cr":
        text = text.replace("\n", "\r")
    elif eol == "mixed":
        parts = text.split("\n")
        text = "".join(p + rng.choice(["\n", "\r\n", "\r"]) for p in parts[:-1]) + parts[-1]
    if chance(rng, 0.06):
        text = rng.choice(["\n\n", "  \n", "\u3000\n", "\x1c\n"]) + text
        L.add("profile-leading-ws")
    data = text.encode("utf-8")
    if chance(rng, 0.015):
        data = data + b"\xff"
        L.add("profile-invalid-utf8")
    return data


# ---------------------------------------------------------------------------------------------
# settings.json and .env
# ---------------------------------------------------------------------------------------------


def skill_dir_entries(rng, real_dirs, ctx, L):
    entries = []
    for d in real_dirs:
        s = str(d)
        form = wchoice(rng, [(70, "plain"), (10, "padded"), (10, "slash"), (5, "dotted"), (5, "dup")])
        if form != "plain":
            L.add("extra-entry-" + form)
        if form == "padded":
            entries.append(rng.choice(["  ", "\t", " \n"]) + s + rng.choice(["  ", "\n", " \t"]))
        elif form == "slash":
            entries.append(s + "/")
        elif form == "dotted":
            entries.append(str(d.parent) + "//" + d.name + "/.")
        elif form == "dup":
            entries.append(s)
            entries.append(s)
        else:
            entries.append(s)
    for _ in range(rng.randint(0, 3)):
        junk = wchoice(rng, [(3, None), (3, 5), (3, ""), (3, "   "), (1, True), (1, {"a": 1}),
                             (1, ["x"]), (4, "MISSING"), (2, "FILE"), (3, "TILDE"), (3, "REL"),
                             (2, "STORE"), (1, 1.5)])
        L.add("extra-junk-" + repr(junk))
        if junk == "MISSING":
            junk = str(ctx["ext"] / "missing-dir")
        elif junk == "FILE":
            write(ctx["ext"] / "a-file", "not a dir\n")
            junk = str(ctx["ext"] / "a-file")
        elif junk == "TILDE":
            junk = "~/tilde-skills"
        elif junk == "REL":
            junk = "rel-skills"
        elif junk == "STORE":
            junk = str(ctx["home"] / "skills")
        entries.insert(rng.randrange(len(entries) + 1), junk)
    return entries


def settings_text(rng, skill_entries, agents_obj, legacy_agents, L):
    """-> (text or None, description)."""
    if skill_entries is None and agents_obj is None and legacy_agents is None:
        v = wchoice(rng, [(80, "absent"), (5, "bad-json"), (4, "nonobject"), (3, "empty-obj"),
                          (2, "dir"), (3, "other-keys")])
    else:
        v = wchoice(rng, [(45, "nested"), (20, "legacy"), (10, "both"), (7, "nested-nonlist"),
                          (4, "skills-nondict"), (3, "legacy-nonlist"), (3, "nested-null"),
                          (4, "bad-json"), (3, "nonobject"), (2, "nan"), (2, "dupkey"), (1, "dir"),
                          (6, "bigint")])
    L.add("settings-" + v)
    if v == "absent":
        return None
    if v == "dir":
        return "DIR"
    if v == "empty-obj":
        return "{}"
    if v == "other-keys":
        return json.dumps({"memory": {"enabled": True}, "skills": {"projection_mode": "copy"}})
    obj = {}
    se = skill_entries or []
    if v == "nested":
        obj["skills"] = {"extra_dirs": se}
    elif v == "legacy":
        obj["extra_skill_dirs"] = se
    elif v == "both":
        obj["skills"] = {"extra_dirs": se}
        obj["extra_skill_dirs"] = list(reversed(se)) + ["/nonexistent/legacy-only"]
    elif v == "nested-nonlist":
        obj["skills"] = {"extra_dirs": se[0] if se else "/x"}
        obj["extra_skill_dirs"] = se
    elif v == "skills-nondict":
        obj["skills"] = se
        obj["extra_skill_dirs"] = se
    elif v == "legacy-nonlist":
        obj["extra_skill_dirs"] = se[0] if se else "/x"
    elif v == "nested-null":
        obj["skills"] = {"extra_dirs": None}
        obj["extra_skill_dirs"] = se
    else:
        obj["skills"] = {"extra_dirs": se}
    if agents_obj is not None:
        obj["agents"] = agents_obj
    if legacy_agents is not None:
        obj.update(legacy_agents)
    text = json.dumps(obj, indent=rng.choice([None, 2]), ensure_ascii=chance(rng, 0.5))
    if v == "bad-json":
        return rng.choice([text[:-1], text.replace('"', "'"), text[:-1] + ",}" if text.endswith("}") else text + ",",
                           "\ufeff" + text, "", "{", "null,", "BADUTF8"])
    if v == "nonobject":
        return rng.choice([json.dumps(se), '"a string"', "5", "null", "true"])
    if v == "nan":
        return text[:-1] + ', "x": NaN, "y": Infinity, "z": 1e400}'
    if v == "dupkey":
        return '{"skills": {"extra_dirs": []}, ' + text[1:]
    if v == "bigint":  # Python's int() takes at most 4300 digits: one more and the file is unreadable
        return text[:-1] + ', "n": -%s}' % ("9" * rng.choice([4300, 4301]))
    return text


def env_text(rng, names, L):
    keys = []
    lines = []
    if chance(rng, 0.5):
        lines.append("# managed by cao")
    pat = rng.choice(["cao-*", rng.choice(names) if names else "a1", "[ab]*", "*"])
    form = rng.choice(["SKT_PAT=%s", "SKT_PAT=\"%s\"", "SKT_PAT='%s'", "export SKT_PAT=%s", "SKT_PAT = %s"])
    lines.append(form % pat)
    keys.append("SKT_PAT")
    one = rng.choice(names) if names else "cao-x"
    lines.append("SKT_ONE=" + rng.choice([one, '"' + one + '"', one + " # inline comment"]))
    keys.append("SKT_ONE")
    if chance(rng, 0.4):
        lines.append("SKT_REF=${SKT_ONE}")
        keys.append("SKT_REF")
        L.add("env-interpolation")
    if chance(rng, 0.3):
        lines.append("SKT_NOVAL")
        keys.append("SKT_NOVAL")
        L.add("env-novalue")
    if chance(rng, 0.3):
        lines.append("SKT_EMPTY=")
        keys.append("SKT_EMPTY")
    lines.append("SKT_DESC=" + wchoice(rng, [(8, "Described by env"), (1, '"multi\\nline"'), (1, "'x: y'")]))
    if chance(rng, 0.6):
        # python-dotenv's parser: escapes, comments, bad lines, BOM, CR
        for _ in range(rng.randint(1, 3)):
            lines.append(rng.choice([
                'SKT_TRAP="say \\"hi\\""', 'SKT_TRAP="a\\tb"', 'SKT_TRAP="a\\\\b"', 'SKT_TRAP="a\\qb"',
                'SKT_TRAP="multi\nline"', 'SKT_TRAP="x" trailing', "SKT_TRAP='it\\'s'", "SKT_TRAP='a\\nb'",
                "SKT_TRAP=a\t#b", "SKT_TRAP=a#b", "SKT_TRAP= # c", "SKT_TRAP=  a b  # c", "'SKT_TRAP'=qk",
                "SKT_TRAP=a\rSKT_ONE=cr", "SKT_TRAP=${SKT_TRAP}x", "SKT_TRAP=${SKT_NONE:-dflt}", "SKT_TRAP=${A:x}",
                'SKT_TRAP="open', "=novalue", "exportSKT_TRAP=glued", "SKT_TRAP=\u3000spaced\u3000",
            ]))
        keys.append("SKT_TRAP")
        L.add("env-dotenv-trap")
    if chance(rng, 0.1):
        lines.insert(0, "\ufeff" + lines.pop(0) if lines else "\ufeff")
        L.add("env-bom")
    lines.append("SKT_A=alpha")
    return "\n".join(lines) + "\n", keys


# ---------------------------------------------------------------------------------------------
# one home
# ---------------------------------------------------------------------------------------------


def make_home(root, seed, idx):
    rng = random.Random("skilltui-parity:%s:%d" % (seed, idx))
    L = Labels()
    hid = "home-%03d" % idx
    home = root / hid
    user = root / ("user-%03d" % idx)
    ext = root / ("ext-%03d" % idx)
    home.mkdir(parents=True)
    user.mkdir(parents=True)
    ext.mkdir(parents=True)
    ctx = {"home": home, "user": user, "ext": ext, "linkroot": ext / "links"}
    names_all = []  # every folder name placed anywhere (for patterns)

    # --- the store
    store = home / "skills"
    store_kind = wchoice(rng, [(88, "dir"), (5, "missing"), (3, "file"), (4, "empty")])
    L.add("store-" + store_kind)
    store_names = []
    if store_kind == "file":
        write(store, "not a directory\n")
    elif store_kind == "empty":
        store.mkdir()
    elif store_kind == "dir":
        store.mkdir()
        for _ in range(rng.randint(2, 9)):
            folder, typed = pick_folder(rng, store_names, L)
            place_skill(rng, store, folder, L, typed=typed, ctx=ctx)
        if chance(rng, 0.1):
            write(store / "README.md", "not a skill\n")
            L.add("store-loose-file")
    names_all += store_names

    # --- extra skill dirs
    real_dirs = []
    skill_entries = None
    if chance(rng, 0.55):
        for k in range(rng.randint(1, 3)):
            where = rng.choice(["ext", "ext", "home", "user"])
            d = {"ext": ext / ("skills-%d" % k), "home": home / ("extra-%d" % k), "user": user / ("skills-%d" % k)}[where]
            kind = wchoice(rng, [(85, "dir"), (7, "missing"), (4, "file"), (4, "empty")])
            if kind != "dir":
                L.add("extra-dir-" + kind)
            used = []
            if kind == "file":
                write(d, "file\n")
            elif kind == "empty":
                d.mkdir(parents=True)
            elif kind == "dir":
                d.mkdir(parents=True)
                for _ in range(rng.randint(1, 5)):
                    if store_names and chance(rng, 0.5):
                        folder = rng.choice(store_names)
                        if folder in used:
                            continue
                        used.append(folder)
                        typed = folder in TYPED_NAMES
                        force = wchoice(rng, [(4, "valid"), (1, "invalid"), (5, None)])
                        L.add("shadow-" + str(force))
                        place_skill(rng, d, folder, L, force=force, typed=typed, ctx=ctx)
                    else:
                        folder, typed = pick_folder(rng, used, L)
                        place_skill(rng, d, folder, L, typed=typed, ctx=ctx)
                names_all += used
            real_dirs.append(d)
        if store_names and chance(rng, 0.3):
            # an invalid store copy that must not reserve the name, a valid later copy that wins
            folder = "cao-shadowed-" + str(rng.randrange(100))
            if store.is_dir():
                place_skill(rng, store, folder, L, force="invalid", ctx=ctx)
            for d in real_dirs:
                if d.is_dir() and not (d / folder).exists():
                    place_skill(rng, d, folder, L, force="valid", ctx=ctx)
                    L.add("invalid-earlier-copy")
            names_all.append(folder)
        skill_entries = skill_dir_entries(rng, real_dirs, ctx, L)
        # real skills behind the junk entries, to catch ~ expansion and relative-to-home resolution
        if any(e == "~/tilde-skills" for e in skill_entries):
            place_skill(rng, user / "tilde-skills", "tilde-skill", L, force="valid", ctx=ctx)
        if any(e == "rel-skills" for e in skill_entries):
            place_skill(rng, home / "rel-skills", "rel-skill", L, force="valid", ctx=ctx)

    # --- extra agent dirs and provider dir overrides
    agent_dirs = []  # real extra agent dirs
    want_ghost = False
    agents_obj = None
    legacy_agents = None
    if chance(rng, 0.25):
        agent_dirs = [ext / ("agents-%d" % k) for k in range(rng.randint(1, 2))]
        for d in agent_dirs:
            d.mkdir(parents=True)
        entries = [str(d) for d in agent_dirs]
        if chance(rng, 0.3):
            # CAO neither strips, expands nor filters extra agent dirs: a padded path is a relative
            # path, `~` stays literal, a relative dir is relative to the cwd, and a non-string entry
            # makes every lookup that reaches it fail. A profile only reachable through the junk
            # entry (if it were cleaned up) tells.
            junk = rng.choice(["", "   ", "~/agents", "PADDED", "relative-agents", None, 7])
            L.add("agent-extra-junk-" + repr(junk))
            ghost = "---\nskills: []\n---\nonly reachable through a junk entry\n"
            if junk == "~/agents":
                write(user / "agents" / "ghost-agent.md", ghost)
            elif junk == "relative-agents":
                write(home / "relative-agents" / "ghost-agent.md", ghost)
            elif junk == "PADDED":
                write(ext / "agents-padded" / "ghost-agent.md", ghost)
                junk = rng.choice(["  ", "\t", " \n"]) + str(ext / "agents-padded") + rng.choice(["  ", "\n"])
            entries.insert(rng.randrange(len(entries) + 1), junk)
            want_ghost = True
        if chance(rng, 0.7):
            agents_obj = {"extra_dirs": entries}
            L.add("agents-nested")
        else:
            legacy_agents = {"extra_agent_dirs": entries}
            L.add("agents-legacy")
    if chance(rng, 0.08):
        prov = ext / "provider-dir"
        prov.mkdir(parents=True, exist_ok=True)
        dirs = rng.choice([
            {"kiro_cli": str(prov)},
            {"myprov": str(prov)},
            {"claude_code": "", "codex": "relative"},
            {"kiro_cli": 5, "custom": str(prov)},
            {"cao_installed": str(prov)},
        ])
        L.add("agents-dirs-override-" + ",".join(sorted(dirs)))
        if chance(rng, 0.7):
            agents_obj = dict(agents_obj or {})
            agents_obj["dirs"] = dirs
        else:
            legacy_agents = dict(legacy_agents or {})
            legacy_agents["agent_dirs"] = dirs
        agent_dirs.append(prov)  # profiles may be placed here too

    st = settings_text(rng, skill_entries, agents_obj, legacy_agents, L)
    if st == "DIR":
        (home / "settings.json").mkdir()
    elif st == "BADUTF8":
        write(home / "settings.json", b'{"skills": {"extra_dirs": ["\xff"]}}')
    elif st is not None:
        write(home / "settings.json", st)

    # --- .env
    env_keys = []
    if chance(rng, 0.3):
        txt, env_keys = env_text(rng, names_all, L)
        write(home / ".env", txt)
        L.add("env-file")

    # --- profiles
    profiles = []
    pool = list(PROFILE_NAMES)
    rng.shuffle(pool)
    for pname in pool[: rng.randint(3, 6)]:
        loc = wchoice(rng, [(60, "store"), (10, "kiro"), (3, "kiro-nested"), (5, "context"),
                            (4, "store-nested"), (8, "extra-flat"), (6, "extra-nested"), (1, "store-dir"),
                            (2, "missing")])
        if loc.startswith("extra") and not agent_dirs:
            loc = "store"
        L.add("profile-loc-" + loc)
        data = profile_text(rng, pname, names_all, env_keys, L)
        if loc == "store":
            write(home / "agent-store" / (pname + ".md"), data)
        elif loc == "kiro":
            write(user / ".kiro" / "agents" / (pname + ".md"), data)
        elif loc == "kiro-nested":
            write(user / ".kiro" / "agents" / pname / "agent.md", data)
        elif loc == "context":
            write(home / "agent-context" / (pname + ".md"), data)
        elif loc == "store-nested":
            write(home / "agent-store" / pname / "agent.md", data)
        elif loc == "extra-flat":
            write(rng.choice(agent_dirs) / (pname + ".md"), data)
        elif loc == "extra-nested":
            write(rng.choice(agent_dirs) / pname / "agent.md", data)
        elif loc == "store-dir":
            (home / "agent-store" / (pname + ".md")).mkdir(parents=True)
        if loc != "missing" and chance(rng, 0.1):
            # a second copy further down the lookup order (must lose)
            L.add("profile-shadow-copy")
            other = profile_text(rng, pname, names_all, env_keys, L)
            write(user / ".kiro" / "agents" / (pname + ".md") if loc == "store" else home / "agent-context" / (pname + ".md"), other)
        profiles.append(pname)
    if chance(rng, 0.3):
        builtin = rng.choice(BUILT_IN_PROFILES)
        profiles.append(builtin)
        L.add("profile-builtin-" + builtin)
    if chance(rng, 0.03):
        p = rng.choice(RESERVED_EPHEMERAL)
        write(home / "agent-store" / (p + ".md"), "---\nskills: ['*']\n---\nreserved\n")
        profiles.append(p)
        L.add("profile-reserved-ephemeral")
    if want_ghost or chance(rng, 0.05):
        profiles.append("ghost-agent")
        L.add("profile-ghost-agent")

    # --- folders to validate: every immediate child of every real search dir + odd paths
    folders = []
    for d in [store] + real_dirs + [user / "tilde-skills", home / "rel-skills"]:
        if d.is_dir():
            for item in sorted(d.iterdir(), key=lambda p: p.name):
                folders.append(str(item))
    for p in list(folders):
        if chance(rng, 0.04):
            folders.append(p + rng.choice(["/", "/.", "/../" + Path(p).name]))
            L.add("validate-path-variant")
    folders.append(str(home / "skills" / "no-such-skill"))
    folders.append(str(home / "settings.json") if (home / "settings.json").exists() else str(ext / "nope"))
    if chance(rng, 0.3):
        write(ext / "plain-file.md", "---\nname: plain-file.md\ndescription: a file\n---\n")
        folders.append(str(ext / "plain-file.md"))
    seen = []
    for p in folders:
        if p not in seen:
            seen.append(p)

    return {
        "id": hid,
        "home": str(home),
        "fake_home": str(user),
        "profiles": profiles,
        "folders": seen,
        "labels": L.items,
    }


# ---------------------------------------------------------------------------------------------
# the oracle
# ---------------------------------------------------------------------------------------------


BUILT_IN_PROFILES = ["code_supervisor", "developer", "memory_manager", "retrospector", "reviewer", "workflow_scout"]


def import_cao():
    import logging

    logging.disable(logging.CRITICAL)
    import cli_agent_orchestrator.agent_store  # noqa: F401  (the built-in profiles package)
    import cli_agent_orchestrator.constants  # noqa: F401
    import cli_agent_orchestrator.providers.base  # noqa: F401  (the prompt's composition)
    import cli_agent_orchestrator.services.settings_service  # noqa: F401
    import cli_agent_orchestrator.utils.agent_profiles  # noqa: F401
    import cli_agent_orchestrator.utils.env  # noqa: F401
    import cli_agent_orchestrator.utils.paths  # noqa: F401
    import cli_agent_orchestrator.utils.skills  # noqa: F401
    import skills_ref.parser  # noqa: F401
    import skills_ref.prompt  # noqa: F401


BEHAVIOUR_LIBS = ["PyYAML", "python-frontmatter", "pydantic", "pydantic-core", "python-dotenv", "strictyaml"]


def check_versions():
    from importlib.metadata import version

    got = (version("cli-agent-orchestrator"), version("skills-ref"))
    if got != (CAO_VERSION, SKILLS_REF_VERSION):
        raise SystemExit("oracle needs cli-agent-orchestrator==%s skills-ref==%s, found %s" % (CAO_VERSION, SKILLS_REF_VERSION, got))
    import yaml

    libs = {name: version(name) for name in BEHAVIOUR_LIBS}
    libs["libyaml"] = bool(yaml.__with_libyaml__)  # python-frontmatter uses CSafeLoader when present
    libs["python"] = sys.version.split()[0]
    return libs


class Repointer:
    """Re-points every module-level path CAO captured at import time.

    At construction, every global of every loaded cli_agent_orchestrator module whose value is a
    Path or str under the scratch CAO home or the scratch $HOME (directly, or as a value of a dict
    or an item of a list) is recorded as a template; point(home, user) rewrites each of them.
    """

    def __init__(self, scratch_home, scratch_user):
        self.roots = [("home", Path(scratch_home)), ("user", Path(scratch_user))]
        self.slots = []  # (kind, container, key, root_label, relative, type)
        self.modules = sorted(m for m in sys.modules if m.split(".")[0] == "cli_agent_orchestrator")
        for mname in self.modules:
            mod = sys.modules[mname]
            if not isinstance(mod, types.ModuleType):
                continue
            g = vars(mod)
            for key, val in list(g.items()):
                hit = self._match(val)
                if hit:
                    self.slots.append(("global", g, key) + hit)
                elif isinstance(val, dict):
                    for k2, v2 in val.items():
                        hit = self._match(v2)
                        if hit:
                            self.slots.append(("item", val, k2) + hit)
                elif isinstance(val, list):
                    for i, v2 in enumerate(val):
                        hit = self._match(v2)
                        if hit:
                            self.slots.append(("item", val, i) + hit)
                elif isinstance(val, (tuple, frozenset, set)):
                    if any(self._match(v2) for v2 in val):
                        raise SystemExit("cannot re-point immutable container %s.%s" % (mname, key))
        # the globals the skill/profile code reads; all must have been found above
        must = [
            ("cli_agent_orchestrator.utils.skills", "SKILLS_DIR"),
            ("cli_agent_orchestrator.services.settings_service", "SETTINGS_FILE"),
            ("cli_agent_orchestrator.services.settings_service", "CAO_HOME_DIR"),
            ("cli_agent_orchestrator.utils.agent_profiles", "LOCAL_AGENT_STORE_DIR"),
            ("cli_agent_orchestrator.utils.agent_profiles", "EPHEMERAL_LIVE_DIR"),
            ("cli_agent_orchestrator.utils.agent_profiles", "CAO_HOME_DIR"),
            ("cli_agent_orchestrator.utils.env", "CAO_ENV_FILE"),
            ("cli_agent_orchestrator.constants", "CAO_HOME_DIR"),
        ]
        found = {(id(c), k) for kind, c, k, *_ in self.slots if kind == "global"}
        for mname, key in must:
            if (id(vars(sys.modules[mname])), key) not in found:
                raise SystemExit("re-pointer did not find %s.%s" % (mname, key))
        defaults = vars(sys.modules["cli_agent_orchestrator.services.settings_service"])["_DEFAULTS"]
        for k in ("kiro_cli", "claude_code", "codex", "cao_installed"):
            if not any(c is defaults and kk == k for _kind, c, kk, *_ in self.slots):
                raise SystemExit("re-pointer did not find settings_service._DEFAULTS[%r]" % k)

    def _match(self, val):
        if isinstance(val, (Path, str)) and not isinstance(val, bool):
            p = Path(val) if isinstance(val, Path) or val.startswith("/") else None
            if p is None:
                return None
            for label, root in self.roots:
                try:
                    rel = p.relative_to(root)
                except ValueError:
                    continue
                return (label, rel, type(val))
        return None

    def point(self, home, user):
        new_roots = {"home": Path(home), "user": Path(user)}
        for kind, container, key, label, rel, typ in self.slots:
            newp = new_roots[label] / rel if str(rel) != "." else new_roots[label]
            container[key] = newp if typ is not str else str(newp)
        os.environ["CAO_HOME_DIR"] = str(home)
        os.environ["HOME"] = str(user)


def answers(spec):
    """CAO's answers for one home (CAO must already point at it)."""
    from cli_agent_orchestrator.utils import agent_profiles as AP
    from cli_agent_orchestrator.utils import skills as S
    from skills_ref.parser import read_properties
    from skills_ref.prompt import to_prompt

    listed = S.list_skills()
    out = {"list": [[s.name, s.description] for s in listed]}

    # every candidate folder in CAO's search order, with what CAO makes of it
    statuses = []
    seen = set()
    taken = set()
    for d in S._skill_search_dirs():
        if not d.is_dir():
            continue
        for item in sorted(d.iterdir(), key=lambda p: p.name):
            if not item.is_dir() or not (item / "SKILL.md").is_file():
                continue
            try:
                S._load_skill_folder(item)
                valid = True
            except Exception:
                valid = False
            if valid:
                status = "shadowed" if item.name in taken else "ok"
                taken.add(item.name)
            else:
                status = "invalid"
            key = os.path.normpath(str(item))
            if key in seen:
                continue
            seen.add(key)
            statuses.append({"path": str(item), "status": status})
    out["statuses"] = statuses
    ok_names = sorted(Path(s["path"]).name for s in statuses if s["status"] == "ok")
    if ok_names != [s.name for s in listed]:
        raise SystemExit("internal: statuses disagree with list_skills in " + spec["id"])

    profiles = []
    for pname in spec["profiles"]:
        entry = {"name": pname}
        try:
            prof = AP.load_agent_profile(pname)
        except Exception as exc:
            entry.update(ok=False, error=type(exc).__name__)
            profiles.append(entry)
            continue
        catalog = S.build_skill_catalog(prof.skills)
        entry.update(ok=True, catalog=catalog, skills=prof.skills)
        # the runtime prompt: CAO's own composition of body and block
        from cli_agent_orchestrator.providers.base import BaseProvider
        stub = types.SimpleNamespace(_skill_prompt=catalog)
        entry["prompt"] = BaseProvider._apply_skill_prompt(stub, prof.system_prompt or "")
        # which skills CAO offered: run CAO's own filter over tokenised stand-ins
        real = S.list_skills
        try:
            S.list_skills = lambda: [types.SimpleNamespace(name=s.name, description="\x00%d\x00" % i) for i, s in enumerate(listed)]
            tokened = S.build_skill_catalog(prof.skills)
        finally:
            S.list_skills = real
        offered = [listed[int(m)] for m in re.findall("\x00(\\d+)\x00", tokened)]
        paths = []
        for sk in offered:
            win = None
            for d in S._skill_search_dirs():
                cand = d / sk.name
                if not (cand / "SKILL.md").is_file():
                    continue
                try:
                    S._load_skill_folder(cand)
                    win = cand
                    break
                except Exception:
                    continue
            if win is None:
                raise SystemExit("internal: no winning folder for %r in %s" % (sk.name, spec["id"]))
            paths.append(str(win))
        comparable = True
        why = None
        for sk, p in zip(offered, paths):
            try:
                props = read_properties(Path(p))
            except Exception as exc:
                comparable, why = False, "skills-ref %s on %s" % (type(exc).__name__, p)
                break
            if (props.name, props.description) != (sk.name, sk.description):
                comparable, why = False, "skills-ref reads %r/%r for %s" % (props.name, props.description, p)
                break
        xml = None
        if comparable:
            try:
                xml = to_prompt([Path(p) for p in paths])
            except Exception as exc:
                comparable, why = False, "to_prompt %s" % type(exc).__name__
        entry.update(offered=[s.name for s in offered], xml_paths=paths, xml_comparable=comparable, xml=xml)
        if why:
            entry["xml_skip_reason"] = why
        profiles.append(entry)
    out["profiles"] = profiles

    folders = []
    for p in spec["folders"]:
        try:
            m = S.validate_skill_folder(Path(p))
            folders.append({"path": p, "valid": True, "name": m.name, "description": m.description})
        except Exception as exc:
            folders.append({"path": p, "valid": False, "error": type(exc).__name__})
    out["folders"] = folders
    return out


def built_in_profiles():
    """The profiles packaged in CAO, name -> text, which skilltui embeds."""
    from importlib import resources

    store = resources.files("cli_agent_orchestrator.agent_store")
    return {
        item.name[:-3]: item.read_text(encoding="utf-8")
        for item in sorted(store.iterdir(), key=lambda i: i.name)
        if item.name.endswith(".md")
    }


def oracle_home_mode(spec_file):
    """Subprocess side of --selfcheck: CAO imported normally from the environment."""
    check_versions()
    import_cao()
    spec = json.loads(Path(spec_file).read_text())
    sys.stdout.write(json.dumps(answers(spec), ensure_ascii=True, sort_keys=True))


# ---------------------------------------------------------------------------------------------
# differential fuzz: hand-written frontmatters, compared on validity, name and description
# ---------------------------------------------------------------------------------------------

FUZZ_FOLDER = "demo"

# What people type between and after lines: comments, blank lines, tabs where spaces belong.
FUZZ_NOISE = ["", "# a comment", "  # indented comment", "\t# tab comment", "\t", "   \t", " \t# mixed",
              "\t\t", "#", "  ", "#\tcomment\t", "\u3000", " \u00a0"]
FUZZ_TRAIL = ["", "", "", " ", "\t", " # c", "\t# c", "#c", "  #", " \u00a0"]
FUZZ_WORDS = ["demo", "Use it", "x", "C#", "a: b", "a #b", "tab\there", "caf\u00e9", "\u65e5\u672c", "\U0001f600",
              "yes", "1.5", "0x1F", "~", "null", "2024-01-01", "a\u2028b", "a\u2029b", "a\u0085b", "\ufeffx",
              "x\ufeff", "<b>&amp;", "{a}", "[a]", "*a", "&a", "!a", "|", ">", "-", "'q'", '"q"', "%x", "@x", "`x`"]


def fuzz_scalar(rng, text, risky):
    """One way of writing text as a value, as people do (the risky ones often broken)."""
    kind = wchoice(rng, [(8, "plain"), (4, "dq"), (4, "sq"), (3, "block"), (2, "multi"), (1, "anchor")]
                   + [(1, "dq-raw"), (1, "tagged"), (1, "flow"), (1, "odd")] * risky)
    if kind == "plain":
        return text + (rng.choice(FUZZ_TRAIL) if risky else "")
    if kind == "dq":
        return dq(text) + rng.choice(FUZZ_TRAIL)
    if kind == "sq":
        return sq(text) + rng.choice(FUZZ_TRAIL)
    if kind == "dq-raw":
        return '"' + text + '"' + rng.choice(FUZZ_TRAIL)
    if kind == "block":
        head = rng.choice(["|", ">", "|-", ">-", "|+", ">+", "|2"] + [">1", "| # c", ">\t", "|-\t# c"] * risky)
        ind = rng.choice(["  ", "    "] + ["\t", " \t", "  \t"] * risky)
        body = [ind + text]
        for _ in range(rng.randrange(3)):
            body.append(rng.choice(["", ind + rng.choice(FUZZ_WORDS), ind + "  more", "\t", ind + "\tx", "  # not a comment"]))
        return head + "\n" + "\n".join(body)
    if kind == "multi":
        quote = rng.choice(["", '"', "'"])
        cont = rng.choice(["  ", "    "] + ["\t", " \t", "", "\t  "] * risky)
        more = rng.choice(FUZZ_WORDS).replace(quote, "") if quote else rng.choice(FUZZ_WORDS)
        return quote + text + "\n" + cont + more + quote + rng.choice(FUZZ_TRAIL)
    if kind == "tagged":
        tag = rng.choice(["!!str", "!", "!<tag:yaml.org,2002:str>", "!!binary", "!!int", "!custom",
                          "!<!x>", "!!str\t", "!!null", "!!bool", "!!float"])
        anchor = rng.choice(["", "", "&a0 ", "&a1 "])
        return tag + " " + anchor + rng.choice([text, dq(text), sq(text)])
    if kind == "flow":
        return rng.choice(["[%s]", "{%s: }", "{a: %s}", "[%s, >]", "[|]", "{k: %s,}", "[%s]#c"]).replace("%s", text)
    if kind == "anchor":
        return "&a%d %s" % (rng.randrange(3), rng.choice([text, dq(text)]))
    return rng.choice(["*a0", "*nope", ": x", "- " + text, text + ":", "? " + text, "%s #" % text,
                       text + "\t", "'" + text, '"' + text + '"x', text * 80, "k" * 1030])


def fuzz_entry(rng, key, risky):
    value = FUZZ_FOLDER if key == "name" and chance(rng, 0.9) else rng.choice(FUZZ_WORDS)
    if key == "description" and chance(rng, 0.5):
        value = rng.choice(["Use it when testing", "Helps with PDFs", "x"])
    k = key
    if risky and chance(rng, 0.2):
        k = rng.choice([dq(key), sq(key), "? " + key + "\n", key + " ", "\t" + key, key.upper()])
    sep = rng.choice([": "] * 6 + [":\t", ":  ", " : ", ":", ": \t"] * risky)
    return k + sep + fuzz_scalar(rng, value, risky)


def fuzz_extra(rng):
    if chance(rng, 0.5):
        return rng.choice(["license: MIT", "version: 1.0", "metadata:\n  author: me", "tags: [a, b]"])
    return rng.choice([
        "license: MIT", "metadata: {a: 1, b: }", "metadata:\n  a: 1\n\tb: 2", "metadata:\n  a: 1\n  # c\n  b: 2",
        "tags: [a, b]", "tags:\n  - a\n  -\tb", "tags:\n- a\n- b", "allowed-tools: Bash(git:*)",
        "base: &b {name: demo, description: merged}", "<<: *b", "t: !!str &a0 x", "s: !!seq &a1 [a]",
        "m: &a0 !!map {k: v}", "y: &a1 y", "<<: {description: merged}", "x: *a0",
        "%s: v" % ("k" * rng.choice([1000, 1024, 1025, 1100])), "{%s: v}" % ("k" * 1030),
        "nested:\n  deep:\n    - {a: }\n    - [b, c]", "empty:", "n: 99999999999999999999999999999999999999",
        "n: !!int ' 12 '", "b: !!binary aGk=x", "b: !!binary 'a'", "d: 2024-02-30", "set: !!set {a, b}",
        "o: !!omap [a: 1, b: 2]", "f: 1:30.5", "t: !<tag:yaml.org,2002:int> 7", "k: \"x\"#c", "k: 'x'#c",
        "? complex\n: value", "emoji: \U0001f600", "ls: a\u2028b", "nel: a\u0085b", "bom: a\ufeffb",
        "content: x", "handler: y", "1: one", "...", "--- ", "- item"])


def fuzz_text(rng):
    """A SKILL.md whose frontmatter is assembled from hand-written fragments."""
    lines = []
    keys = ["name", "description"]
    if chance(rng, 0.05):
        keys.remove(rng.choice(keys))
    if chance(rng, 0.1):
        keys.append(rng.choice(["name", "description"]))
    # how many fragments in this file may be the odd kind (most files have few)
    risky = wchoice(rng, [(4, 0), (3, 1), (2, 2), (1, 3)])
    pick = lambda: chance(rng, risky / 4.0)
    entries = [fuzz_entry(rng, k, pick()) for k in keys] + [fuzz_extra(rng) for _ in range(rng.randrange(3))]
    rng.shuffle(entries)
    for e in entries:
        if chance(rng, 0.3):
            lines.append(rng.choice(FUZZ_NOISE if pick() else ["", "# a comment", "  # c"]))
        lines.append(e)
    if chance(rng, 0.2):
        lines.append(rng.choice(FUZZ_NOISE))
    fences = ["--- ", "---\t", "--- # c", "----", "\ufeff---", " ---", "---yaml"]
    open_fence = rng.choice(fences) if pick() and chance(rng, 0.3) else "---"
    close_fence = rng.choice(fences + ["..."]) if pick() and chance(rng, 0.3) else "---"
    text = "\n".join([open_fence] + lines + [close_fence, "", "Body with --- inside.", ""])
    eol = rng.choice(["\n"] * 6 + ["\r\n", "\r\n", "mixed"])
    if eol == "mixed":
        text = "".join(ch + ("\r" if ch == "\n" and chance(rng, 0.5) else "") for ch in text)
        text = text.replace("\n\r", "\r\n")
    elif eol != "\n":
        text = text.replace("\n", eol)
    return text


def run_fuzz(root, seed, count):
    """Writes ROOT/fuzz/<i>/demo/SKILL.md for each case and ROOT/fuzz.json with CAO's verdicts."""
    from cli_agent_orchestrator.utils import skills as S

    rng = random.Random("fuzz-%s" % seed)
    cases = []
    for i in range(count):
        text = fuzz_text(rng)
        folder = root / "fuzz" / str(i) / FUZZ_FOLDER
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_bytes(text.encode("utf-8"))
        try:
            m = S.validate_skill_folder(folder)
            cases.append({"path": str(folder), "text": text, "valid": True, "name": m.name, "description": m.description})
        except Exception as exc:
            why = str(exc).replace(str(folder / "SKILL.md"), "SKILL.md").replace(str(folder), FUZZ_FOLDER)
            cases.append({"path": str(folder), "text": text, "valid": False, "error": "%s: %s" % (type(exc).__name__, why)})
    (root / "fuzz.json").write_text(json.dumps({"seed": seed, "cases": cases}, ensure_ascii=True))
    valid = sum(c["valid"] for c in cases)
    sys.stderr.write("fuzz: %d frontmatters (seed %s), %d valid for CAO\n" % (count, seed, valid))


# ---------------------------------------------------------------------------------------------
# --delivery N: what each provider's agent receives (issue 15), asked of CAO's own functions
# ---------------------------------------------------------------------------------------------

DELIVERY_MODULES = [
    "cli_agent_orchestrator.services.terminal_service",  # RUNTIME_SKILL_PROMPT_PROVIDERS
    "cli_agent_orchestrator.services.install_service",  # install_agent, the agent files
    "cli_agent_orchestrator.utils.skill_injection",  # compose_agent_prompt, the refresh
    "cli_agent_orchestrator.utils.opencode_config",  # the skills link
]
# Descriptions that make PyYAML quote, escape and fold: typed words, astral characters, quotes,
# breaks, control characters, long lines.
DLV_DESCS = [
    "Plain words", "yes", "123", "1.5", "", "a #b", "tab\there", "line1\n\n  line2", "~", "null",
    "Ünïcode — ok ✓ 日本", "emoji \U0001F600 and \U0001F9EA", "x" * 70 + " \U0001F680 " + "y" * 30,
    "Copilot agent: test, with 'quotes' and a very long description that exceeds the eighty column limit of yaml",
    "ends with colon:", "- dash start", "nel\x85sep\u2028para\u2029", "bom\ufeffin", "ctl\x01\x1f",
    "\"double\" and \\ back", "  lead and trail  ", "2024-01-01", "<<", "=", "on",
]
DLV_SKILLS = ["alpha", "beta-tool", "cao-x", "cao-y", "zeta", "pdf", "k8s-ops", "ab", "Ab", "data-viz"]
DLV_BODIES = ["", "You are an agent.", "  Body with spaces.  \n\nSecond paragraph.\n", "# Heading\n\n- list\n"]
DLV_PROMPTS = [None, "", "  Prompt field  ", "Prompt\nwith lines", "   "]


def dlv_skill(directory, folder, desc, valid=True):
    text = "---\nname: %s\ndescription: %s\n---\nBody of %s.\n" % (folder, dq(desc), folder)
    if not valid:
        text = "---\nname: %s\ndescription: bad: colon\n---\n" % folder
    write(Path(directory) / folder / "SKILL.md", text)


def dlv_profile(rng, stem, names, providers):
    lines = ["---"]
    name = stem if chance(rng, 0.9) else stem + "-renamed"
    if chance(rng, 0.9):
        lines.append("name: %s" % name)
    else:
        name = stem
    if chance(rng, 0.85):
        lines.append("description: %s" % dq(rng.choice(DLV_DESCS)))
    prov = rng.choice(providers)
    if prov is not None:
        lines.append("provider: %s" % prov)
    if prov == "claude_code" or chance(rng, 0.1):
        native = rng.choice([None, None, "my-native", ""])
        if native is not None:
            lines.append("native_agent: %s" % dq(native))
    kind = rng.choice(["absent", "empty", "names", "globs"])
    if kind == "empty":
        lines.append("skills: []")
    elif kind == "names":
        lines.append("skills: [%s]" % ", ".join(rng.sample(names + ["missing-one"], k=min(2, len(names) + 1))))
    elif kind == "globs":
        lines.append("skills:\n  - %s" % dq(rng.choice(["cao-*", "*", "[ab]*", "z?ta", "nope-*"])))
    prompt = rng.choice(DLV_PROMPTS)
    if prompt is not None:
        lines.append("prompt: %s" % dq(prompt))
    if chance(rng, 0.3):
        lines.append("resources: [file://README.md, \"file://docs/x.md\"]")
    lines.append("---")
    return "\n".join(lines) + "\n" + rng.choice(DLV_BODIES), name, prov


def make_delivery_home(root, seed, idx):
    """A CAO home, a fake $HOME and an extra skill dir, with profiles over every provider."""
    rng = random.Random("%s-delivery-%d" % (seed, idx))
    home, user, ext = root / ("dhome-%03d" % idx), root / ("duser-%03d" % idx), root / ("dext-%03d" % idx)
    (home / "agent-store").mkdir(parents=True)
    user.mkdir()
    names = rng.sample(DLV_SKILLS, k=rng.randint(0, 6))
    for n in names:
        dlv_skill(home / "skills", n, rng.choice(DLV_DESCS))
    if chance(rng, 0.5):
        dlv_skill(home / "skills", "broken", "", valid=False)
    if chance(rng, 0.5):
        dlv_skill(home / "skills" / "group", "nested", "Nested skill")
    settings = {}
    if chance(rng, 0.5):
        dlv_skill(ext, "gamma", rng.choice(DLV_DESCS))
        settings = {"skills": {"extra_dirs": [str(ext)]}}
        names.append("gamma")
    if settings:
        write(home / "settings.json", json.dumps(settings))
    # the providers with agent files come up more often, so more of them get installed
    providers = [None, "Claude_Code", "bogus", "''"] + list(PROVIDERS_254) + ["copilot_cli"] * 4 + [
        "kiro_cli", "opencode_cli"]
    profiles = []
    for i in range(rng.randint(4, 8)):
        stem = "agent%d" % i
        text, name, prov = dlv_profile(rng, stem, names, providers)
        write(home / "agent-store" / (stem + ".md"), text)
        profiles.append({"stem": stem, "name": name, "provider": prov})
    if chance(rng, 0.3):
        write(home / "agent-store" / "badtype.md", "---\nname: badtype\nprovider: 5\n---\nx\n")
    return {"id": "d%03d" % idx, "home": str(home), "fake_home": str(user), "seed": rng.random(),
            "profiles": profiles}


PROVIDERS_254 = ["kiro_cli", "claude_code", "codex", "kimi_cli", "copilot_cli", "opencode_cli", "hermes",
                 "cursor_cli", "antigravity_cli", "omp", "grok_cli", "mcode", "mock_cli"]


def dlv_case(stem, explicit):
    """CAO's answer for one profile under one provider (None: the profile's, else the fallback)."""
    from cli_agent_orchestrator.constants import DEFAULT_PROVIDER, PROVIDERS
    from cli_agent_orchestrator.providers.base import BaseProvider
    from cli_agent_orchestrator.services import install_service as IS
    from cli_agent_orchestrator.services.terminal_service import RUNTIME_SKILL_PROMPT_PROVIDERS
    from cli_agent_orchestrator.utils import opencode_config as OC
    from cli_agent_orchestrator.utils import skill_injection as SI
    from cli_agent_orchestrator.utils.agent_profiles import load_agent_profile, resolve_provider
    from cli_agent_orchestrator.utils.skills import build_skill_catalog

    assert list(PROVIDERS) == PROVIDERS_254
    try:
        p = load_agent_profile(stem)
        provider = explicit or resolve_provider(stem, DEFAULT_PROVIDER)
    except Exception as e:  # noqa: BLE001  (CAO cannot launch it either)
        return {"error": type(e).__name__}
    source = "explicit" if explicit else ("profile" if provider == p.provider else "fallback")
    out = {"provider": provider, "provider_source": source, "catalog": None, "prompt": None,
           "resources": [], "filtered": False, "extra_dirs": False, "installed": None}
    native = provider == "claude_code" and isinstance(p.native_agent, str) and p.native_agent
    if provider in RUNTIME_SKILL_PROMPT_PROVIDERS and not native:
        cat = build_skill_catalog(p.skills)
        base = (p.system_prompt or p.prompt or "") if provider == "omp" else (p.system_prompt or "")
        stub = types.SimpleNamespace(_skill_prompt=cat)
        out.update(delivery="prompt", catalog=cat, prompt=BaseProvider._apply_skill_prompt(stub, base),
                   filtered=True, extra_dirs=True)
    elif provider == "copilot_cli":
        path = IS._provider_artifact_path(provider, p.name)
        base = (p.system_prompt or "").strip() or (p.prompt.strip() if p.prompt else "")
        installed = {"path": str(path), "exists": os.path.lexists(path), "stale": None, "managed": False}
        if path.is_file():
            import frontmatter

            meta_name = frontmatter.load(path).metadata.get("name")
            installed["managed"] = isinstance(meta_name, str) and SI._is_cao_managed_copilot_agent(meta_name)
            if installed["managed"]:
                try:
                    prof = load_agent_profile(meta_name)
                except Exception:  # noqa: BLE001
                    prof = None
                if prof is not None:  # CAO's own rewrite, on a copy
                    copy = Path(str(path) + ".oracle-copy")
                    shutil.copyfile(path, copy)
                    SI.refresh_agent_md_prompt(copy, prof)
                    installed["stale"] = copy.read_bytes() != path.read_bytes()
                    copy.unlink()
        out.update(delivery="baked", catalog=build_skill_catalog(),
                   prompt=(SI.compose_agent_prompt(p, base_prompt=base) or "").rstrip(),
                   resources=[str(path)], extra_dirs=True, installed=installed)
    elif provider == "kiro_cli":
        path = IS._provider_artifact_path(provider, p.name)
        prompt = p.prompt.strip() if p.prompt and p.prompt.strip() else None
        context = os.path.realpath(IS.AGENT_CONTEXT_DIR) + "/" + p.name + ".md"
        resources = ["file://" + context, "skill://%s/**/SKILL.md" % IS.SKILLS_DIR,
                     "skill://%s/*/SKILL.md" % IS.SKILLS_DIR] + list(p.resources or [])
        installed = {"path": str(path), "exists": os.path.lexists(path), "stale": None}
        if path.is_file():
            data = json.loads(path.read_text())
            installed["stale"] = data.get("resources") != resources or data.get("prompt") != prompt
        out.update(delivery="skill-resource", prompt=prompt, resources=resources, installed=installed)
    elif provider == "opencode_cli":
        link = OC.OPENCODE_CONFIG_DIR / "skills"
        body = p.system_prompt or p.prompt or ""
        exists = os.path.lexists(link)
        right = link.is_symlink() and link.resolve() == IS.SKILLS_DIR.resolve()
        out.update(delivery="symlink", prompt=body.rstrip(), resources=[str(link)],
                   installed={"path": str(link), "exists": exists, "stale": (not right) if exists else None})
    else:
        out.update(delivery="none")
    return out


def cao_install_cli(spec, stem, provider):
    """`cao install STEM --provider P` in a fresh process configured by the environment only."""
    env = dict(os.environ, CAO_HOME_DIR=spec["home"], HOME=spec["fake_home"], PYTHONUTF8="1")
    home = Path(spec["home"])
    before = set(os.listdir(home))
    proc = subprocess.run(
        [sys.executable, "-c", "import sys; from cli_agent_orchestrator.cli.main import cli; sys.argv[0] = 'cao'; cli()",
         "install", stem, "--provider", provider], env=env, capture_output=True, text=True)
    for extra in sorted(set(os.listdir(home)) - before - {"agent-context", "locks"}):
        shutil.rmtree(home / extra)  # importing CAO made logs/, fifos/, db/
    # a failed install still exits 0 (it prints `Error: ...`)
    return proc.returncode == 0 and "agent:" in proc.stdout


def dlv_answers(spec, rng):
    """Install with CAO, change the store, then ask CAO every case and let it refresh Copilot."""
    import frontmatter  # noqa: F401
    from cli_agent_orchestrator.services.install_service import install_agent
    from cli_agent_orchestrator.utils.skill_injection import refresh_all_cao_managed_agents

    home, user = Path(spec["home"]), Path(spec["fake_home"])
    installs = []
    for prof in spec["profiles"]:
        # a profile whose provider is one with agent files is installed for it; a fallback one
        # sometimes for Kiro (without recording the provider, so it stays a fallback case)
        prov = prof["provider"]
        if prov in ("copilot_cli", "kiro_cli", "opencode_cli") and chance(rng, 0.85):
            if spec["id"] < "d003":  # the first homes through the `cao install` command itself
                installs.append([prof["stem"], prov, cao_install_cli(spec, prof["stem"], prov)])
                continue
            r = install_agent(prof["stem"], prov)
            installs.append([prof["stem"], prov, bool(r.success)])
        elif prov in (None, "bogus") and chance(rng, 0.4):
            r = install_agent(prof["stem"], "kiro_cli", preserve_recorded_provider=True)
            installs.append([prof["stem"], "kiro_cli", bool(r.success)])
    # stale the baked catalogs the ways skilltui does: a skill added, one removed, a profile edited
    if chance(rng, 0.7):
        dlv_skill(home / "skills", "late-%d" % rng.randint(0, 9), rng.choice(DLV_DESCS))
    skills = sorted(d for d in (home / "skills").iterdir() if d.is_dir() and d.name != "group")
    if skills and chance(rng, 0.3):
        shutil.rmtree(skills[0])
    if spec["profiles"] and chance(rng, 0.4):
        f = home / "agent-store" / (spec["profiles"][0]["stem"] + ".md")
        f.write_text(f.read_text() + "\nEdited later.\n")
    cases = []
    stems = [p["stem"] for p in spec["profiles"]] + (["badtype"] if (home / "agent-store/badtype.md").exists() else [])
    for stem in stems:
        for explicit in [None] + PROVIDERS_254:
            cases.append({"profile": stem, "explicit": explicit, "cao": dlv_case(stem, explicit)})
    copilot = user / ".copilot" / "agents"
    before = {p.name: p.read_bytes() for p in sorted(copilot.glob("*.agent.md"))} if copilot.is_dir() else {}
    refreshed = [str(p) for p in refresh_all_cao_managed_agents()]
    after = {p.name: p.read_text(encoding="utf-8") for p in sorted(copilot.glob("*.agent.md"))} if copilot.is_dir() else {}
    for name, data in before.items():  # put the stale files back: skilltui refreshes them
        (copilot / name).write_bytes(data)
    return {"installs": installs, "cases": cases, "refreshed": refreshed, "copilot_after": after}


def run_delivery(root, seed, count):
    root.mkdir(parents=True, exist_ok=True)
    if any(root.iterdir()):
        raise SystemExit("ROOT must be empty: %s" % root)
    cwd = root / "cwd"
    cwd.mkdir()
    scratch_home, scratch_user = root / ".scratch" / "cao-home", root / ".scratch" / "user"
    scratch_user.mkdir(parents=True)
    os.environ["CAO_HOME_DIR"] = str(scratch_home)
    os.environ["HOME"] = str(scratch_user)
    os.environ.pop("CAO_AGENTS_DIR", None)
    os.chdir(cwd)
    specs = [make_delivery_home(root, seed, i) for i in range(count)]
    import_cao()
    for m in DELIVERY_MODULES:
        __import__(m)
    rp = Repointer(scratch_home.resolve(), scratch_user.resolve())
    homes = []
    for spec in specs:
        rp.point(spec["home"], spec["fake_home"])
        rng = random.Random(spec["seed"])
        homes.append(dict(spec, **dlv_answers(spec, rng)))
    (root / "delivery.json").write_text(json.dumps({"seed": seed, "homes": homes}, ensure_ascii=True, indent=1))
    n = sum(len(h["cases"]) for h in homes)
    sys.stderr.write("delivery oracle: %d homes, %d cases, %d installs, %d refreshed Copilot files\n" % (
        len(homes), n, sum(len(h["installs"]) for h in homes), sum(len(h["refreshed"]) for h in homes)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", nargs="?")
    ap.add_argument("--seed", default="1")
    ap.add_argument("--count", type=int, default=320)
    ap.add_argument("--selfcheck", type=int, default=0, metavar="K")
    ap.add_argument("--stats", action="store_true", help="print trap label counts to stderr")
    ap.add_argument("--oracle-home", metavar="SPEC_JSON", help=argparse.SUPPRESS)
    ap.add_argument("--fuzz", type=int, default=0, metavar="N", help="only write N fuzzed SKILL.md files and fuzz.json")
    ap.add_argument("--delivery", type=int, default=0, metavar="N",
                    help="only write N homes with installed agents and delivery.json (issue 15)")
    args = ap.parse_args()
    if args.oracle_home:
        return oracle_home_mode(args.oracle_home)
    if not args.root:
        ap.error("ROOT is required")
    libs = check_versions()
    if args.fuzz:
        root = Path(args.root).resolve()
        root.mkdir(parents=True, exist_ok=True)
        return run_fuzz(root, args.seed, args.fuzz)
    if args.delivery:
        return run_delivery(Path(args.root).resolve(), args.seed, args.delivery)

    root = Path(args.root).resolve()
    root.mkdir(parents=True, exist_ok=True)
    if any(root.iterdir()):
        raise SystemExit("ROOT must be empty: %s" % root)
    cwd = root / "cwd"  # an empty directory: CAO resolves relative dirs against the cwd
    cwd.mkdir()
    scratch_home = root / ".scratch" / "cao-home"
    scratch_user = root / ".scratch" / "user"
    scratch_user.mkdir(parents=True)
    os.environ["CAO_HOME_DIR"] = str(scratch_home)
    os.environ["HOME"] = str(scratch_user)
    os.chdir(cwd)

    specs = [make_home(root, args.seed, i) for i in range(args.count)]

    import_cao()
    rp = Repointer(scratch_home.resolve(), scratch_user.resolve())
    loaded = set(m for m in sys.modules if m.split(".")[0] == "cli_agent_orchestrator")
    results = []
    for spec in specs:
        rp.point(spec["home"], spec["fake_home"])
        ans = answers(spec)
        now = set(m for m in sys.modules if m.split(".")[0] == "cli_agent_orchestrator")
        if now != loaded:
            raise SystemExit("CAO imported new modules while answering (%s): re-pointing may be incomplete" % sorted(now - loaded))
        results.append(dict(spec, cwd=str(cwd), **ans))

    # self-check: a fresh process per home, CAO configured by the environment only
    mismatches = 0
    if args.selfcheck:
        step = max(1, len(specs) // args.selfcheck)
        picks = list(range(0, len(specs), step))[: args.selfcheck]
        for i in picks:
            spec, res = specs[i], results[i]
            spec_file = root / ".scratch" / ("spec-%d.json" % i)
            spec_file.write_text(json.dumps(spec))
            home = Path(spec["home"])
            before = set(os.listdir(home))
            env = dict(os.environ, CAO_HOME_DIR=spec["home"], HOME=spec["fake_home"], PYTHONUTF8="1")
            proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--oracle-home", str(spec_file)],
                                  cwd=str(cwd), env=env, capture_output=True, text=True)
            # importing CAO creates logs/ and fifos/ in its home; remove what it added
            for extra in sorted(set(os.listdir(home)) - before):
                shutil.rmtree(home / extra)
            if proc.returncode != 0:
                raise SystemExit("selfcheck subprocess failed for %s:\n%s" % (spec["id"], proc.stderr))
            fresh = json.loads(proc.stdout)
            mine = json.loads(json.dumps({k: res[k] for k in fresh}, ensure_ascii=True, sort_keys=True))
            if fresh != mine:
                mismatches += 1
                for k in fresh:
                    if fresh[k] != mine[k]:
                        sys.stderr.write("SELFCHECK MISMATCH %s key %s\n fresh: %s\n mine:  %s\n" % (
                            spec["id"], k, json.dumps(fresh[k])[:800], json.dumps(mine[k])[:800]))
        sys.stderr.write("selfcheck: %d homes compared against fresh CAO processes, %d mismatches\n" % (len(picks), mismatches))

    out = {
        "cao_version": CAO_VERSION,
        "skills_ref_version": SKILLS_REF_VERSION,
        "libraries": libs,
        "seed": args.seed,
        "count": args.count,
        "root": str(root),
        "cwd": str(cwd),
        "repointed_globals": len(rp.slots),
        "built_in_profiles": built_in_profiles(),
        "homes": results,
    }
    (root / "expected.json").write_text(json.dumps(out, ensure_ascii=True, indent=1))

    n_prof = sum(len(r["profiles"]) for r in results)
    n_ok = sum(1 for r in results for p in r["profiles"] if p["ok"])
    n_xml = sum(1 for r in results for p in r["profiles"] if p["ok"] and p["xml_comparable"])
    n_fold = sum(len(r["folders"]) for r in results)
    n_valid = sum(1 for r in results for f in r["folders"] if f["valid"])
    n_list = sum(len(r["list"]) for r in results)
    n_stat = {}
    for r in results:
        for s in r["statuses"]:
            n_stat[s["status"]] = n_stat.get(s["status"], 0) + 1
    sys.stderr.write(
        "oracle: %d homes, %d listed skills, candidates %s, %d profiles (%d load, %d xml-comparable), "
        "%d folders (%d valid), %d re-pointed globals\n"
        % (len(results), n_list, json.dumps(n_stat, sort_keys=True), n_prof, n_ok, n_xml, n_fold, n_valid, len(rp.slots)))
    if args.stats:
        counts = {}
        for r in results:
            for lab in r["labels"]:
                counts[lab] = counts.get(lab, 0) + 1
        for lab in sorted(counts):
            sys.stderr.write("  %5d  %s\n" % (counts[lab], lab))
    if mismatches:
        raise SystemExit("selfcheck FAILED: %d homes differ" % mismatches)


if __name__ == "__main__":
    main()
