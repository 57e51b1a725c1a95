"""The Python examples of python/README.md run, and print what it says they print."""

import re
import subprocess
import sys

from conftest import ROOT


def test_the_readme_examples_run():
    text = (ROOT / "python" / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 2
    # A fresh interpreter: the OpenSpiel example registers a game name of its own.
    out = subprocess.run([sys.executable, "-c", "\n".join(blocks)], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    # Every output the comments state.
    for line in ("Tablut ['white', 'black'] 9 x 9", "white [1.0, -1.0] 77", "(7, 9, 9) 7061",
                 "625", "[1.0, -1.0]"):
        assert line in out, line
