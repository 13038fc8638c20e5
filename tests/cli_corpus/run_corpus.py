#!/usr/bin/python3
"""tests/cli_corpus/run_corpus.py: the command-line corpus, a byte-for-byte guard of what
`exactdp` prints.

commands.txt holds one command line a line (blank lines and '#' lines are skipped):

    ID [FLAGS]: ARGUMENTS [< FILE] [<<< TEXT]

ARGUMENTS are split as a POSIX shell would (shlex) and passed to the binary; '< FILE' feeds FILE
on standard input, '<<< TEXT' the rest of the line with \\n, \\t and \\\\ unescaped (nothing: an
empty standard input). Placeholders: {tmp} a fresh empty folder for this command, {examples}
the repository's examples/ folder, {seed} a fixed 64-hex-digit test seed. FLAGS: 'timing' for a
command whose output depends on the machine (audit-timing): only its exit status (0 or 3
counted alike) and the keys of its JSON object are recorded.

For each command the exit status, stdout, stderr and every file the command left in {tmp} are
written, in that order, to expected/ID.txt (paths of {tmp} and {examples} written back as the
placeholders). --record writes these files from the given binary; without it the outputs are
compared and every difference is printed; exit status 1 when any differs.

    run_corpus.py --exactdp build/cli/exactdp            # compare
    run_corpus.py --exactdp build/cli/exactdp --record   # record (after a deliberate change)
    run_corpus.py --exactdp build/cli/exactdp --only compose-zcdp-limit
"""
import argparse
import concurrent.futures
import difflib
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.normpath(os.path.join(HERE, "..", "..", "examples"))
SEED = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
LINE = re.compile(r"^([A-Za-z0-9][A-Za-z0-9_.-]*)(?:\s+\[([a-z, ]+)\])?:\s*(.*)$")
KNOWN_FLAGS = {"timing"}
TIMEOUT_S = 120


class Command:
    def __init__(self, ident, flags, args, stdin_file, stdin_text):
        self.ident, self.flags, self.args = ident, flags, args
        self.stdin_file, self.stdin_text = stdin_file, stdin_text


def unescape(text):
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text) and text[i + 1] in "nt\\":
            out.append({"n": "\n", "t": "\t", "\\": "\\"}[text[i + 1]])
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def parse_commands(path):
    commands, seen = [], set()
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            m = LINE.match(line)
            if not m:
                raise SystemExit(f"{path}:{number}: expected 'ID [FLAGS]: ARGUMENTS'")
            ident, flags, rest = m.group(1), m.group(2), m.group(3)
            flags = {x.strip() for x in flags.split(",")} if flags else set()
            if flags - KNOWN_FLAGS or ident in seen:
                raise SystemExit(f"{path}:{number}: unknown flag or repeated id '{ident}'")
            seen.add(ident)
            stdin_text = None
            if " <<<" in rest or rest.startswith("<<<"):
                rest, _, text = rest.partition("<<<")
                stdin_text = unescape(text[1:] if text.startswith(" ") else text)
            tokens = shlex.split(rest)
            stdin_file = None
            if "<" in tokens:
                at = tokens.index("<")
                stdin_file = tokens[at + 1]
                tokens = tokens[:at] + tokens[at + 2:]
            commands.append(Command(ident, flags, tokens, stdin_file, stdin_text))
    return commands


def substitute(text, tmp):
    return text.replace("{tmp}", tmp).replace("{examples}", EXAMPLES).replace("{seed}", SEED)


def normalise(data, tmp):
    return data.replace(tmp.encode(), b"{tmp}").replace(EXAMPLES.encode(), b"{examples}")


def timing_summary(stdout):
    try:
        keys = sorted(json.loads(stdout.decode()).keys())
    except ValueError:
        return b"(not one JSON object)\n"
    return ("json keys: " + " ".join(keys) + "\n").encode()


def run_one(exactdp, command):
    """The recorded text of one command: exit status, stdout, stderr, the files left in {tmp}."""
    with tempfile.TemporaryDirectory(prefix="exactdp-corpus-") as tmp:
        args = [substitute(a, tmp) for a in command.args]
        stdin = b""
        if command.stdin_file is not None:
            with open(substitute(command.stdin_file, tmp), "rb") as f:
                stdin = f.read()
        elif command.stdin_text is not None:
            stdin = substitute(command.stdin_text, tmp).encode()
        env = dict(os.environ, LC_ALL="C")
        try:
            p = subprocess.run([exactdp] + args, input=stdin, capture_output=True, cwd=tmp, env=env,
                               timeout=TIMEOUT_S)
            code, out, err = p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired:
            code, out, err = "timeout", b"", b""
        if "timing" in command.flags:
            code = "0 or 3" if code in (0, 3) else code
            out, err = timing_summary(out), b"(not recorded: depends on the machine)\n"
        parts = [f"exit: {code}\n".encode(), b"=== stdout\n", normalise(out, tmp), b"\n=== stderr\n",
                 normalise(err, tmp)]
        for name in sorted(os.listdir(tmp)):
            path = os.path.join(tmp, name)
            if os.path.isfile(path):
                with open(path, "rb") as f:
                    parts += [f"\n=== file {name}\n".encode(), normalise(f.read(), tmp)]
        return b"".join(parts)


def show_difference(ident, expected, actual):
    lines = difflib.unified_diff(expected.decode(errors="replace").splitlines(True),
                                 actual.decode(errors="replace").splitlines(True),
                                 f"expected/{ident}.txt", "actual", n=2)
    sys.stdout.write("".join(list(lines)[:60]) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--exactdp", required=True, help="the exactdp binary to run")
    parser.add_argument("--record", action="store_true", help="write expected/ from this binary")
    parser.add_argument("--only", action="append", help="run only this id (repeatable)")
    parser.add_argument("--jobs", type=int, default=2)
    options = parser.parse_args()
    exactdp = os.path.abspath(options.exactdp)
    commands = parse_commands(os.path.join(HERE, "commands.txt"))
    if options.only:
        commands = [c for c in commands if c.ident in options.only]
    expected_dir = os.path.join(HERE, "expected")
    with concurrent.futures.ThreadPoolExecutor(max_workers=options.jobs) as pool:
        results = list(pool.map(lambda c: (c, run_one(exactdp, c)), commands))
    failures = 0
    for command, actual in results:
        path = os.path.join(expected_dir, command.ident + ".txt")
        if options.record:
            with open(path, "wb") as f:
                f.write(actual)
            continue
        expected = open(path, "rb").read() if os.path.exists(path) else b"(no expected output recorded)\n"
        if expected != actual:
            failures += 1
            print(f"DIFFERS: {command.ident}: {' '.join(command.args)}")
            show_difference(command.ident, expected, actual)
    if not options.record and not options.only:
        known = {c.ident + ".txt" for c in commands}
        for stale in sorted(set(os.listdir(expected_dir)) - known):
            failures += 1
            print(f"STALE: expected/{stale} has no command in commands.txt")
    verb = "recorded" if options.record else "compared"
    print(f"cli corpus: {len(results)} commands {verb}, {failures} differ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
