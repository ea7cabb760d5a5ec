"""``playtest report RUN_DIR``: the balance report of a run, as a click command.

Registered in the ``playtest`` group with ``main.add_command(report)``; bad input raises
``UsageError`` (one line, exit code 2 through the CLI's entry point) before anything is written.
"""

from __future__ import annotations

import time

import click

from reports.build import build_report, terminal_summary
from reports.stats import check_confidence


@click.command()
@click.argument("run_dir", type=click.Path(file_okay=False, path_type=str))
@click.option("--out", "-o", type=click.Path(file_okay=False, path_type=str), default=None,
              help="Report folder (default: RUN_DIR/report; an earlier report there is replaced).")
@click.option("--confidence", "-c", type=float, default=0.95, show_default=True,
              help="Confidence level of every interval and test, strictly between 0 and 1.")
def report(run_dir, out, confidence):
    """Write the balance report of the run in RUN_DIR: report.html, report.md, charts, summary.json.

    Win rates by seat, strategy and role against the fair share, role against role, role
    choice, expected scores, where points come from, game length and the run's provenance.
    """
    check_confidence(confidence)
    start = time.perf_counter()
    path = build_report(run_dir, out, confidence)
    click.echo(terminal_summary(path))
    click.echo(f"report written in {time.perf_counter() - start:.1f} s: {path / 'report.html'}")
    click.echo(str(path))
