"""The command-line face of test_faces.py and test_faces_tolerance.py: a refused request's error
text, the command exiting 2 with nothing on stdout. Imported as a plain module (pytest puts this
folder on sys.path, the test files having no __init__.py)."""
import os
import subprocess

CLI = os.environ.get("EXACTDP_CLI")


def cli_error(*args):
    p = subprocess.run([CLI, *args], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2, p.stderr
    assert p.stdout == ""
    prefix = "exactdp: "
    assert p.stderr.startswith(prefix) and p.stderr.endswith("\n"), p.stderr
    return p.stderr[len(prefix):-1]
