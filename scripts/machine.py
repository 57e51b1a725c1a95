"""Where a benchmark ran, for the benchmark scripts (`bench-reference.sh`,
`bench-examples.sh`) to print under their tables."""

import json
import subprocess


def machine(regula):
    """The CPU's name and the speed of `regula bench`'s calibration loop: ratios measured on
    different machines of one kind differ by the machine (an EPYC and a Xeon gave the same
    build 65% and 51% of a hand-written engine's Tablut), so every table says where it ran."""
    try:
        with open("/proc/cpuinfo") as f:
            name = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        name = "unknown CPU"
    game = "docs/examples/tictactoe.game"
    bench = [regula, "bench", game, "--seconds", "0.3", "--threads", "1", "--format", "json"]
    out = subprocess.run(bench, capture_output=True, text=True, check=True).stdout
    steps = json.loads(out.splitlines()[0])["calibration_steps_per_second"]
    return f"machine: {name}; calibration loop {steps / 1e6:,.0f} million steps/s"
