"""``playtest report RUN_DIR``: the balance report of a run, as a click command.

Registered in the ``playtest`` group with ``main.add_command(report)``; bad input raises
``UsageError`` (one line, exit code 2 through the CLI's entry point) before anything is written.
"""

from __future__ import annotations

import time
from pathlib import Path

import click

from reports.build import build_report, terminal_summary
from reports.stats import check_confidence
from reports.verdicts import PlayerSet, build_verdicts
from simulator.core.errors import UsageError


@click.command()
@click.argument("run_dirs", nargs=-1, required=True,
                type=click.Path(file_okay=False, path_type=str))
@click.option("--out", "-o", type=click.Path(file_okay=False, path_type=str), default=None,
              help="Report folder (default: RUN_DIR/report; with several runs a fresh folder "
                   "under runs/; an earlier report there is replaced).")
@click.option("--labels", default=None,
              help="With several runs: a name for each run's players (default: the folder names).")
@click.option("--confidence", "-c", type=float, default=0.95, show_default=True,
              help="Confidence level of every interval and test, strictly between 0 and 1.")
def report(run_dirs, out, labels, confidence):
    """Write the balance report of the run in RUN_DIR: report.html, report.md, charts, summary.json.

    Win rates by seat, strategy and role against the fair share, role against role, role
    choice, expected scores, where points come from, game length and the run's provenance.

    Given several runs of the same game and rules with different players (weakest first, for
    example the default mix, a tuned mix, the search player), it writes instead the verdicts
    under each set of players side by side, flagging every verdict that changes sign or loses
    significance when the players change (verdicts.html, verdicts.md, verdicts.json).
    """
    check_confidence(confidence)
    start = time.perf_counter()
    if len(run_dirs) == 1:
        if labels:
            raise UsageError("--labels: only with several runs")
        path = build_report(run_dirs[0], out, confidence)
        click.echo(terminal_summary(path))
        click.echo(f"report written in {time.perf_counter() - start:.1f} s: {path / 'report.html'}")
        click.echo(str(path))
        return
    names = [x.strip() for x in labels.split(",")] if labels else [Path(d).name for d in run_dirs]
    if len(names) != len(run_dirs) or len(set(names)) != len(names):
        raise UsageError(f"--labels {labels}: give one different name per run ({len(run_dirs)})")
    path = build_verdicts([PlayerSet(n, Path(d)) for n, d in zip(names, run_dirs)], out, confidence)
    click.echo((path / "verdicts.md").read_text().split("\n## The players")[0].strip())
    click.echo(str(path))
