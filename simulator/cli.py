"""The ``playtest`` command: a thin layer over ``simulator.api``.

Bad input anywhere ends with one line on stderr naming the value and what is allowed, exit
code 2, and nothing written.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import sys

import click

from simulator import api
from simulator.core.errors import InvariantBroken, UsageError
from simulator.core.folders import resume_command
from simulator.core.ruledata import parse_settings


def _split(value: str | None) -> list[str] | None:
    if value is None:
        return None
    items = [v.strip() for v in value.split(",") if v.strip()]
    return items or None


def _resume_command(command: str, options, out) -> str:
    """The command line that goes on with an interrupted ``command``: the options (a dataclass
    whose fields are the command's options) not at their defaults, then --out and --resume."""
    given = {}
    for f in dataclasses.fields(options):
        value = getattr(options, f.name)
        default = (f.default_factory() if f.default_factory is not dataclasses.MISSING
                   else f.default)
        if f.name != "game" and value != default:
            given[f.name] = value
    return resume_command(command, options.game, given, out)


@contextlib.contextmanager
def _kept_when_interrupted(again: str):
    """Ctrl-C: what was played stays in the folder; say which command goes on with it."""
    try:
        yield
    except KeyboardInterrupt:
        click.echo(f"playtest: interrupted; what was played is kept: go on with {again}", err=True)
        sys.exit(130)


def joined(ctx, param, values):
    """An option given several times (``-s a -s b``) as its comma-separated form (``a,b``),
    rather than click's default of keeping only the last."""
    return ",".join(values) if values else None


def run_options(f):
    """Options shared by ``run`` and ``replay`` (the replayed game must match the run)."""
    options = [
        click.option("--players", "-p", type=int, default=None,
                     help="Number of players (default: the mode's largest)."),
        click.option("--strategies", "-s", multiple=True, callback=joined,
                     help="Comma-separated strategies, seated by the balanced design (default: the "
                          "game's mix); may be given more than once."),
        click.option("--mode", "-m", default=None,
                     help="Game mode (default: the game's first: standard; family for gemmis)."),
        click.option("--roles", multiple=True, callback=joined,
                     help="Comma-separated role per seat ('any' = dealt; 'a+b' in two-role modes); "
                          "may be given more than once."),
        click.option("--set", "settings", multiple=True, metavar="KEY=VALUE",
                     help="Override a rule parameter (repeatable); see 'playtest games'."),
        click.option("--seed", type=int, default=0, show_default=True, help="Run seed."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


@click.group()
@click.version_option(package_name="playtest")
def main():
    """playtest: Monte-Carlo balance and statistics for tabletop games."""


@main.command()
@click.argument("game", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the catalogue as JSON.")
def games(game, as_json):
    """The games, their player counts, modes, roles, strategies and every parameter."""
    catalog = api.catalog()
    if game is not None:
        catalog = [g for g in catalog if g["game"] == game]
        if not catalog:
            from simulator.core.game import GAME_NAMES
            from simulator.core.ruledata import unknown_name
            raise UsageError(unknown_name("game", game, GAME_NAMES))
    if as_json:
        click.echo(json.dumps(catalog, indent=2))
        return
    for g in catalog:
        click.echo(f"{g['game']} ({g['title']}), rules version {g['rules_version']}: "
                   f"{', '.join(map(str, g['player_counts']))} players")
        click.echo("  modes:")
        for name, m in g["modes"].items():
            click.echo(f"    {name:<16} {'/'.join(map(str, m['players']))} players: {m['description']}")
        if g["roles"]:
            click.echo(f"  roles: {', '.join(g['roles'])}")
        click.echo(f"  strategies (default mix: {', '.join(g['default_mix'])}):")
        for name, text in g["strategies"].items():
            click.echo(f"    {name:<20} {text}")
        click.echo(f"  strategy weights: {', '.join(g['weights'])}")
        click.echo("  parameters (value, allowed, source; * = assumption):")
        for p in g["parameters"]:
            mark = "*" if p["assumption"] else " "
            click.echo(f"   {mark}{p['name']:<34} {str(p['value']):>6}  [{p['allowed']}]  {p['source']}")
        if g["notes"]:
            click.echo("  modelling notes:")
            for key, text in g["notes"].items():
                click.echo(f"    {key}: {text}")


def backend_options(f):
    f = click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
                     help="An existing Dask scheduler (with --backend dask).")(f)
    return click.option("--backend", type=click.Choice(["local", "dask"]), default="local",
                        show_default=True,
                        help="Play here with numba threads, or on a Dask cluster.")(f)


@main.command()
@click.argument("game", required=False)
@run_options
@click.option("--games", "-n", "n_games", type=int, default=10_000, show_default=True,
              help="Number of games.")
@click.option("--out", "-o", type=click.Path(), default=None,
              help="Output folder (must be new or empty; default: a fresh folder under runs/).")
@click.option("--threads", "-t", type=int, default=None, help="Threads (default: all cores).")
@click.option("--chunk-size", type=int, default=None,
              help="Games per kernel call (memory/progress granularity; results do not change).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar or summary.")
@click.option("--resume", "resume_dir", type=click.Path(), default=None,
              help="Finish the interrupted run in this folder (give no GAME or game options).")
@click.option("--check", is_flag=True,
              help="Check the game's invariants after every turn; stop at the first game that "
                   "breaks one (the same rows either way).")
@backend_options
def run(game, players, strategies, mode, roles, settings, seed, n_games, out, threads, chunk_size,
        quiet, resume_dir, check, backend, scheduler):
    """Play GAME many times and write the Parquet dataset."""
    progress = False if quiet else None
    if resume_dir is not None:
        if game is not None:
            raise UsageError(f"--resume {resume_dir}: the run folder knows its game and options; "
                             f"give no GAME ({game})")
        path = api.resume(resume_dir, threads, chunk_size, progress, backend, scheduler, check)
    else:
        if game is None:
            raise UsageError("run: give a GAME (see playtest games), or --resume DIR")
        path = api.run(game, players, n_games, seed, out, _split(strategies), mode, _split(roles),
                       parse_settings(settings), None, threads, chunk_size, progress=progress,
                       command=" ".join(sys.argv), backend=backend, scheduler=scheduler,
                       check=check)
    if not quiet:
        from reports.summary import summary_table
        click.echo(summary_table(path))
    click.echo(str(path))


@main.command()
@click.argument("game")
@run_options
@click.option("--game-index", "-i", type=int, default=0, show_default=True,
              help="Which game of the run to replay.")
@click.option("--format", "fmt", type=click.Choice(["text", "jsonl"]), default="text",
              show_default=True)
def replay(game, players, strategies, mode, roles, settings, seed, game_index, fmt):
    """Tell one game turn by turn, exactly as it was played in the run with these options."""
    events = api.replay(game, seed, game_index, players, _split(strategies), mode, _split(roles),
                        parse_settings(settings))
    for event in events:
        if fmt == "jsonl":
            click.echo(json.dumps(event))
        else:
            click.echo(event["text"])


@main.command()
@click.argument("run_dir", type=click.Path())
def verify(run_dir):
    """Check a run's dataset: parts, row counts, game ids, columns and checksums."""
    problems = api.verify(run_dir)
    if problems:
        for problem in problems:
            click.echo(f"FAIL {problem}", err=True)
        sys.exit(1)
    click.echo(f"OK {run_dir}")


@main.command()
@click.argument("file", type=click.Path())
@click.option("--out", "-o", type=click.Path(), default=None,
              help="Output folder (new or empty; default: a fresh folder under runs/).")
@click.option("--games", "-n", "n_games", type=int, default=None,
              help="Games per configuration (overrides the file).")
@click.option("--precision", type=float, default=None,
              help="Add games until every headline win rate is within ±P (e.g. 0.01), up to "
                   "the file's max_games.")
@click.option("--confidence", type=float, default=0.95, show_default=True)
@click.option("--min-effect", type=float, default=None,
              help="The smallest change that matters, in points (of a win rate, or of a score): "
                   "a change shown to be smaller reads 'no change larger than N pts'.")
@click.option("--resume", is_flag=True,
              help="Go on with the interrupted experiment in --out (the same file and options).")
@click.option("--threads", "-t", type=int, default=None)
@backend_options
def experiment(file, out, n_games, precision, confidence, min_effect, resume, threads, backend,
               scheduler):
    """Run every configuration of an experiment FILE, then compare them with the baseline."""
    import datetime
    from pathlib import Path

    from tqdm import tqdm

    from reports.comparison import check_min_effect
    from reports.stats import check_confidence
    from simulator.experiment import experiment_report, load_experiment, run_experiment

    check_confidence(confidence)
    check_min_effect(min_effect)
    if n_games is not None and n_games < 1:
        raise UsageError(f"--games {n_games}: must be at least 1")
    if resume and not out:
        raise UsageError("--resume: give the interrupted experiment's folder with --out")
    exp = load_experiment(file, n_games)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    out = Path(out) if out else Path("runs") / f"experiment-{Path(file).stem}-{stamp}"
    total = len(exp.configurations)
    again = resume_command("experiment", file, {"games": n_games, "precision": precision},
                                     out)
    with _kept_when_interrupted(again), \
            tqdm(total=total, unit="config", desc=exp.title, file=sys.stderr,
                 disable=not sys.stderr.isatty()) as bar:
        run_experiment(exp, out, threads, progress=False, precision=precision,
                       backend=backend, scheduler=scheduler, resume=resume,
                       on_config=lambda c, games: (bar.set_postfix_str(f"{c.label}: {games:,} games"),
                                                   bar.update(1)))
    report = experiment_report(exp, out, confidence, min_effect)
    click.echo((report / "comparison.md").read_text().split("\n## Balance index")[0].strip())
    click.echo(str(report / "comparison.html"))


@main.command()
@click.argument("runs", nargs=-1, required=True, type=click.Path())
@click.option("--out", "-o", type=click.Path(), default=None,
              help="Output folder (default: a fresh folder under runs/).")
@click.option("--confidence", type=float, default=0.95, show_default=True)
@click.option("--min-effect", type=float, default=None,
              help="The smallest change that matters, in points (of a win rate, or of a score): "
                   "a change shown to be smaller reads 'no change larger than N pts'.")
def compare(runs, out, confidence, min_effect):
    """Compare existing runs: each against the first (the baseline) of its player count."""
    import datetime
    from pathlib import Path

    from reports.comparison import Entry, build_comparison

    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    out = Path(out) if out else Path("runs") / f"comparison-{stamp}"
    if out.exists() and any(out.iterdir()) and not (out / "comparison.json").exists():
        raise UsageError(f"--out {out}: folder is not empty and holds no earlier comparison")
    entries = [Entry(Path(r).name, Path(r)) for r in runs]
    report = build_comparison(entries, out, confidence, "Comparison of runs", min_effect=min_effect)
    click.echo((report / "comparison.md").read_text().split("\n## Balance index")[0].strip())
    click.echo(str(report / "comparison.html"))


@main.command()
@click.argument("game")
@click.option("--players", "-p", multiple=True, callback=joined,
              help="Comma-separated player counts to record at (default: the mode's smallest "
                   "and largest).")
@click.option("--mode", "-m", default=None,
              help="Game mode (default: the game's first: standard; family for gemmis).")
@click.option("--games", "-n", "n_games", type=int, default=200, show_default=True,
              help="Search games recorded each round, shared among the player counts.")
@click.option("--held-out-games", type=int, default=40, show_default=True,
              help="Search games each round's fit is judged on (never fitted to).")
@click.option("--rounds", type=int, default=3, show_default=True,
              help="Rounds of expert iteration (the search rolls out with the last expert).")
@click.option("--match-games", type=int, default=2000, show_default=True,
              help="Games of the expert against each heuristic of the mix, each round.")
@click.option("--calibrate-games", type=int, default=0, show_default=True,
              help="Search games at each player count whose role win rates the chosen expert is "
                   "then calibrated to (0: no calibration).")
@click.option("--calibrate-steps", type=int, default=40, show_default=True,
              help="CMA-ES generations of the calibration.")
@click.option("--set", "settings", multiple=True, metavar="KEY=VALUE",
              help="Override a rule parameter (repeatable).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--out", "-o", type=click.Path(), default=None,
              help="The expert's weights file (default: runs/expert-GAME-...json).")
@click.option("--resume", is_flag=True, help="Go on with the interrupted distillation kept beside --out.")
@click.option("--threads", "-t", type=int, default=None)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def distill(game, players, mode, n_games, held_out_games, rounds, match_games, calibrate_games,
            calibrate_steps, settings, seed, out, resume, threads, quiet):
    """Fit GAME's fast expert to its search player's decisions; writes a file for tuned:FILE."""
    import datetime
    from pathlib import Path

    from simulator.distill import DistillOptions, distill as run_distill

    counts = []
    for entry in _split(players) or []:
        try:
            counts.append(int(entry))
        except ValueError:
            raise UsageError(f"--players {entry}: not a whole number") from None
    options = DistillOptions(game, tuple(counts), mode, n_games, held_out_games, rounds,
                             match_games, seed, parse_settings(settings), calibrate_games,
                             calibrate_steps)
    if out is None:
        if resume:
            raise UsageError("--resume: give the --out file of the distillation to go on with")
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        out = Path("runs") / f"expert-{game}-{stamp}.json"
    path = run_distill(options, out, resume, progress=False if quiet else None, threads=threads)
    made = json.loads(Path(path).read_text())["distilled"]
    for r in made["rounds"]:
        rates = r["against_heuristics"]
        weakest = min(rates, key=lambda k: rates[k]["win_rate"])
        click.echo(f"round {r['round']} (rollouts by {r['rollout_policy']}): makes the search's choice "
                   f"in {100 * r['held_out_agreement']['expert']:.1f}% of held-out decisions "
                   f"(its rollout policy {100 * r['held_out_agreement']['rollout_policy']:.1f}%); "
                   f"wins {100 * rates[weakest]['win_rate']:.1f}% against {weakest}, its strongest rival")
    cal = made["calibration"]
    if cal:
        for n, t in cal["tables"].items():
            click.echo(f"calibrated at {n} players: its table's role win rates are "
                       f"{t['distance_calibrated']:.1f} points from the search's (fitted: "
                       f"{t['distance_fitted']:.1f}); makes the search's choice in "
                       f"{100 * t['held_out_agreement']['calibrated']['expert']:.1f}% of held-out "
                       f"decisions (fitted: {100 * t['held_out_agreement']['fitted']['expert']:.1f}%)")
        rates = cal["against_heuristics"]
        weakest = min(rates, key=lambda k: rates[k]["win_rate"])
        click.echo(f"calibrated: wins {100 * rates[weakest]['win_rate']:.1f}% against {weakest}, "
                   "its strongest rival")
    click.echo(f"kept round {made['chosen_round']}{', calibrated' if cal else ''}; "
               f"use it as --strategies tuned:{path}")
    click.echo(str(path))


@main.command()
@click.argument("game")
@click.option("--strategy", "-s", "strategy", required=True, help="The heuristic to tune.")
@click.option("--players", "-p", type=int, default=None,
              help="Number of players (default: the mode's largest).")
@click.option("--mode", "-m", default=None,
              help="Game mode (default: the game's first: standard; family for gemmis).")
@click.option("--role", default=None, help="Tune the best response of a player holding this role.")
@click.option("--table", multiple=True, callback=joined,
              help="Comma-separated strategies the tuned player meets (default: the game's mix); "
                   "may be given more than once.")
@click.option("--games", "-n", "n_games", type=int, default=2000, show_default=True,
              help="Games per candidate weight vector.")
@click.option("--budget", "-b", type=int, default=120, show_default=True,
              help="Candidate weight vectors to try.")
@click.option("--held-out-games", type=int, default=20_000, show_default=True,
              help="Games comparing untuned and tuned weights on seeds the search never used.")
@click.option("--popsize", type=int, default=None, help="CMA-ES population (default: cma's).")
@click.option("--set", "settings", multiple=True, metavar="KEY=VALUE",
              help="Override a rule parameter (repeatable).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--out", "-o", type=click.Path(), default=None,
              help="The tuned-weights file (default: runs/tuned-GAME-STRATEGY-...json).")
@click.option("--resume", is_flag=True, help="Go on with the interrupted tuning kept beside --out.")
@click.option("--threads", "-t", type=int, default=None)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def tune(game, strategy, players, mode, role, table, n_games, budget, held_out_games, popsize,
         settings, seed, out, resume, threads, quiet):
    """Evolve a heuristic's weights against a table (CMA-ES); writes a file for tuned:FILE."""
    import datetime
    from pathlib import Path

    from simulator.tuning import TuneOptions, tune as run_tune

    options = TuneOptions(game, strategy, players, mode, role, _split(table), n_games, budget,
                          held_out_games, seed, parse_settings(settings), popsize)
    if out is None:
        if resume:
            raise UsageError("--resume: give the --out file of the tuning to go on with")
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        out = Path("runs") / f"tuned-{game}-{strategy}{'-' + role if role else ''}-{stamp}.json"
    path = run_tune(options, out, resume, progress=False if quiet else None, threads=threads)
    held = json.loads(Path(path).read_text())["held_out"]
    click.echo(f"held-out games ({held['games']:,}, seed {held['seed']}): win rate "
               f"{100 * held['before']['win_rate']:.1f}% untuned, {100 * held['after']['win_rate']:.1f}% "
               f"tuned ({100 * held['difference']['mean']:+.1f} points, 95% interval "
               f"{100 * held['difference']['interval_95'][0]:+.1f} to "
               f"{100 * held['difference']['interval_95'][1]:+.1f})")
    click.echo(f"use it as --strategies tuned:{path}")
    click.echo(str(path))


@main.command()
@click.argument("game")
@click.option("--strategies", "-s", multiple=True, required=True, callback=joined,
              help="Comma-separated strategies to rate; may be given more than once.")
@click.option("--players", "-p", type=int, default=None,
              help="Number of players (default: the mode's largest).")
@click.option("--mode", "-m", default=None,
              help="Game mode (default: the game's first: standard; family for gemmis).")
@click.option("--games", "-n", "n_games", type=int, default=20_000, show_default=True)
@click.option("--set", "settings", multiple=True, metavar="KEY=VALUE",
              help="Override a rule parameter (repeatable).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--out", "-o", type=click.Path(), default=None,
              help="Output folder (new or empty; default: a fresh folder under runs/).")
@click.option("--confidence", type=float, default=0.95, show_default=True)
@click.option("--resume", is_flag=True,
              help="Go on with the interrupted tournament in --out (the same options).")
@click.option("--threads", "-t", type=int, default=None)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def tournament(game, strategies, players, mode, n_games, settings, seed, out, confidence, resume,
               threads, quiet):
    """Every strategy in every seat against every combination of the others, then ratings."""
    import datetime
    from pathlib import Path

    from simulator.tournament import TournamentOptions, tournament as play

    if resume and out is None:
        raise UsageError("--resume: give the --out folder of the tournament to go on with")
    o = TournamentOptions(game, _split(strategies) or [], players, mode, n_games,
                          parse_settings(settings), seed, confidence)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    out = Path(out) if out else Path("runs") / f"tournament-{game}-{stamp}"
    with _kept_when_interrupted(_resume_command("tournament", o, out)):
        report = play(o, out, resume, threads, progress=False if quiet else None)
    click.echo((report / "tournament.md").read_text().strip())
    click.echo(str(report))


@main.command()
@click.argument("game")
@click.option("--players", "-p", type=int, default=None,
              help="Number of players (default: the mode's largest).")
@click.option("--mode", "-m", default=None, help="Game mode (default: the game's first).")
@click.option("--games", "-n", "n_games", type=int, default=10_000, show_default=True,
              help="Games of each rung of heuristic players (random, the mix, tuned).")
@click.option("--search-games", type=int, default=200, show_default=True,
              help="Games of each search rung (every seat searching: thousands of times dearer).")
@click.option("--match-games", type=int, default=1000, show_default=True,
              help="Games of the match that rates the rungs against each other.")
@click.option("--rollouts", default=None,
              help="The search rungs' two budgets, rollouts per option (default: a quarter of "
                   "the game's and the game's).")
@click.option("--rollout-turns", type=int, default=None,
              help="The search rungs' rollout depth in turns (default: the game's).")
@click.option("--tuned", multiple=True, callback=joined,
              help="Tuned-weights files whose players make the expert rung; may be given more "
                   "than once.")
@click.option("--real", default=None, type=click.Path(),
              help="Real games (CSV or Parquet: game, seat, role, score, winner) to put beside "
                   "the rungs.")
@click.option("--set", "settings", multiple=True, metavar="KEY=VALUE",
              help="Override a rule parameter (repeatable).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--confidence", type=float, default=0.95, show_default=True)
@click.option("--out", "-o", type=click.Path(), default=None,
              help="Output folder (new or empty; default: a fresh folder under runs/).")
@click.option("--resume", is_flag=True, help="Go on with the interrupted ladder in --out.")
@click.option("--threads", "-t", type=int, default=None)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@backend_options
def ladder(game, players, mode, n_games, search_games, match_games, rollouts, rollout_turns,
           tuned, real, settings, seed, confidence, out, resume, threads, quiet, backend,
           scheduler):
    """GAME's verdicts under players of increasing strength: random, the heuristic mix, tuned
    experts, the search player at two budgets; which verdicts are settled, drift or flip."""
    import datetime
    from pathlib import Path

    from tqdm import tqdm

    from reports.ladder import terminal_summary
    from simulator.ladder import LadderOptions, ladder as climb, rungs

    if resume and out is None:
        raise UsageError("--resume: give the --out folder of the ladder to go on with")
    budgets = []
    for word in _split(rollouts) or []:
        if not word.isdigit():
            raise UsageError(f"--rollouts {rollouts}: give two whole numbers, e.g. 8,32")
        budgets.append(int(word))
    o = LadderOptions(game, players, mode, n_games, search_games, match_games, budgets,
                      rollout_turns, _split(tuned) or [], real, parse_settings(settings), seed,
                      confidence)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    out = Path(out) if out else Path("runs") / f"ladder-{game}-{stamp}"
    with _kept_when_interrupted(_resume_command("ladder", o, out)), \
            tqdm(total=len(rungs(o)) + 1, unit="rung", desc=f"ladder {game}", file=sys.stderr,
                 disable=quiet or not sys.stderr.isatty()) as bar:
        folder = climb(o, out, resume, threads, backend, scheduler, progress=False,
                       on_rung=lambda name: (bar.set_postfix_str(name), bar.update(1)))
    click.echo(terminal_summary(folder / "report"))
    click.echo(str(folder / "report" / "ladder.html"))


@main.command()
@click.argument("game")
@click.option("--against", "-a", required=True, help="The heuristic the search player meets.")
@click.option("--players", "-p", type=int, default=None,
              help="Number of players (default: the game's largest).")
@click.option("--rollouts", default="2,4,8,16,32", show_default=True,
              help="Comma-separated budgets: rollouts per option.")
@click.option("--games", "-n", "n_games", type=int, default=400, show_default=True,
              help="Games per budget.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--out", "-o", type=click.Path(), default=None,
              help="Output folder (default: a fresh folder under runs/).")
@click.option("--threads", "-t", type=int, default=None)
def strength(game, against, players, rollouts, n_games, seed, out, threads):
    """The search player's win rate and speed against a heuristic, by rollouts per option."""
    import datetime
    from pathlib import Path

    from simulator.strength import measure, write

    try:
        budgets = [int(x) for x in _split(rollouts) or []]
    except ValueError:
        raise UsageError(f"--rollouts {rollouts}: give whole numbers, e.g. 4,8,16") from None
    result = measure(game, against, budgets, n_games, players, seed, threads,
                     log=lambda m: click.echo(m, err=True))
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    folder = write(result, Path(out) if out else Path("runs") / f"strength-{game}-{stamp}")
    click.echo((folder / "strength.md").read_text().strip())
    click.echo(str(folder))


@main.command()
@click.argument("game")
@click.option("--players", "-p", type=int, default=None,
              help="Number of players (default: the mode's largest).")
@click.option("--mode", "-m", default=None, help="Game mode (default: the game's first).")
@click.option("--strategies", "-s", multiple=True, callback=joined,
              help="Comma-separated strategies (default: the game's mix); may be given more than once.")
@click.option("--games", "-n", "n_games", type=int, default=2000, show_default=True,
              help="Games per configuration.")
@click.option("--metric", default="balance", show_default=True,
              help="balance, first_seat, turns, truncation, role:NAME or strategy:NAME.")
@click.option("--params", multiple=True, callback=joined,
              help="Comma-separated parameters or shell patterns (default: every parameter); may "
                   "be given more than once.")
@click.option("--steps", type=int, default=2, show_default=True,
              help="Values tried between the ends of a number's range.")
@click.option("--near", type=int, default=2, show_default=True,
              help="First, values 1 to NEAR steps either side of the printed one.")
@click.option("--method", type=click.Choice(["oat", "morris"]), default="oat", show_default=True,
              help="oat: one at a time; morris: also SALib's global Morris screen.")
@click.option("--trajectories", type=int, default=10, show_default=True, help="Morris trajectories.")
@click.option("--levels", type=int, default=4, show_default=True, help="Morris grid levels.")
@click.option("--set", "settings", multiple=True, metavar="KEY=VALUE",
              help="The baseline's overrides (repeatable).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--confidence", type=float, default=0.95, show_default=True)
@click.option("--out", "-o", type=click.Path(), default=None,
              help="Output folder (new or empty; default: a fresh folder under runs/).")
@click.option("--resume", is_flag=True,
              help="Go on with the interrupted scan in --out (the same options).")
@click.option("--threads", "-t", type=int, default=None)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@backend_options
def sensitivity(game, players, mode, strategies, n_games, metric, params, steps, near, method,
                trajectories, levels, settings, seed, confidence, out, resume, threads, quiet,
                backend, scheduler):
    """Which rule number moves the balance most: each parameter alone, against the printed rules."""
    import datetime
    from pathlib import Path

    from simulator.sensitivity import SensitivityOptions, sensitivity as scan

    if resume and out is None:
        raise UsageError("--resume: give the --out folder of the scan to go on with")
    o = SensitivityOptions(game, players, mode, _split(strategies), n_games, metric, _split(params),
                           steps, method, trajectories, levels, parse_settings(settings), seed,
                           confidence, near)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    out = Path(out) if out else Path("runs") / f"sensitivity-{game}-{stamp}"
    with _kept_when_interrupted(_resume_command("sensitivity", o, out)):
        folder = scan(o, out, resume, threads, backend, scheduler, progress=False if quiet else None)
    click.echo((folder / "sensitivity.md").read_text().split("\n## Every value tried")[0].strip())
    click.echo(str(folder / "sensitivity.html"))


@main.command()
@click.argument("game")
@click.option("--goal", type=click.Choice(["roles", "seats", "strategies"]), default="roles",
              show_default=True, help="Whose win rates to bring toward the fair share.")
@click.option("--players", "-p", type=int, default=None,
              help="Number of players (default: the mode's largest).")
@click.option("--mode", "-m", default=None, help="Game mode (default: the game's first).")
@click.option("--strategies", "-s", multiple=True, callback=joined,
              help="Comma-separated strategies (default: the game's mix); may be given more than once.")
@click.option("--keep", default=None, help="Comma-separated parameters never to change.")
@click.option("--params", multiple=True, callback=joined,
              help="Comma-separated parameters or shell patterns it may change (default: all); may "
                   "be given more than once.")
@click.option("--max-changes", type=int, default=2, show_default=True,
              help="Most numbers a proposal changes.")
@click.option("--budget", "-b", type=int, default=60, show_default=True,
              help="Candidates the search tries (optuna trials).")
@click.option("--games", "-n", "n_games", type=int, default=2000, show_default=True,
              help="Games a candidate plays unless pruned early.")
@click.option("--candidates", type=int, default=8, show_default=True,
              help="Numbers from the screen the search works on.")
@click.option("--proposals", type=int, default=3, show_default=True)
@click.option("--verify-games", type=int, default=10_000, show_default=True,
              help="Fresh games each proposal is verified on.")
@click.option("--expert-games", type=int, default=10_000, show_default=True,
              help="Fresh games each proposal is verified on with the learnt expert in every "
                   "seat (0: not verified so).")
@click.option("--search-games", type=int, default=100, show_default=True,
              help="Fresh games each proposal is verified on with the search player in every "
                   "seat (0: not verified so).")
@click.option("--length-tolerance", type=float, default=0.25, show_default=True,
              help="Largest relative change of the mean game length allowed.")
@click.option("--max-truncation", type=float, default=0.01, show_default=True,
              help="Largest share of truncated games allowed (or the baseline's).")
@click.option("--set", "settings", multiple=True, metavar="KEY=VALUE",
              help="The baseline's overrides (repeatable).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--confidence", type=float, default=0.95, show_default=True)
@click.option("--out", "-o", type=click.Path(), default=None,
              help="Output folder (default: a fresh folder under runs/).")
@click.option("--resume", is_flag=True, help="Go on with the interrupted search in --out.")
@click.option("--threads", "-t", type=int, default=None)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@backend_options
def balance(game, goal, players, mode, strategies, keep, params, max_changes, budget, n_games,
            candidates, proposals, verify_games, expert_games, search_games, length_tolerance,
            max_truncation, settings, seed, confidence, out, resume, threads, quiet, backend,
            scheduler):
    """Which few rule numbers to change to make GOAL fair: searched, then verified on fresh seeds."""
    import datetime
    from pathlib import Path

    from simulator.balance import BalanceOptions, balance as search

    if resume and out is None:
        raise UsageError("--resume: give the --out folder of the search to go on with")
    o = BalanceOptions(game, goal, players, mode, _split(strategies), _split(keep) or [],
                       _split(params), max_changes, budget, n_games, candidates, proposals,
                       verify_games, expert_games, search_games, length_tolerance, max_truncation,
                       parse_settings(settings), seed, confidence)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    out = Path(out) if out else Path("runs") / f"balance-{game}-{stamp}"
    with _kept_when_interrupted(_resume_command("balance", o, out)):
        folder = search(o, out, resume, threads, progress=False if quiet else None,
                        backend=backend, scheduler=scheduler)
    click.echo((folder / "balance.md").read_text().strip())
    click.echo(str(folder / "balance.html"))


@main.command("check")
@click.argument("game")
@click.option("--games", "-n", "n_games", type=int, default=10_000_000, show_default=True,
              help="Games with the heuristic players and random, shared by every table.")
@click.option("--search-games", type=int, default=20, show_default=True,
              help="Games with the search player at each table (each costs thousands).")
@click.option("--rule-draws", type=int, default=4, show_default=True,
              help="Rule settings drawn at random within their ranges, at each table.")
@click.option("--modes", default=None, help="Comma-separated modes (default: every mode).")
@click.option("--players", "-p", default=None,
              help="Comma-separated player counts (default: every count).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--out", "-o", type=click.Path(), default=None,
              help="Folder for check.json (new or empty; default: a fresh folder under runs/).")
@click.option("--resume", is_flag=True, help="Go on with the interrupted check in --out.")
@click.option("--threads", "-t", type=int, default=None)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@backend_options
def check_command(game, n_games, search_games, rule_draws, modes, players, seed, out, resume,
                  threads, quiet, backend, scheduler):
    """Play GAME's every mode, player count and mix, and drawn rule settings, with its
    invariants checked after every turn; stop at the first game that breaks one."""
    import datetime
    from pathlib import Path

    from simulator.check import CheckOptions, check, summary

    if resume and out is None:
        raise UsageError("--resume: give the --out folder of the check to go on with")
    counts = []
    for word in _split(players) or []:
        if not word.isdigit():
            raise UsageError(f"--players {word}: must be a player count (a whole number)")
        counts.append(int(word))
    o = CheckOptions(game, n_games, search_games, rule_draws, seed, _split(modes) or [], counts)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    out = Path(out) if out else Path("runs") / f"check-{game}-{stamp}"
    with _kept_when_interrupted(_resume_command("check", o, out)):
        state = check(o, out, resume, threads, backend, scheduler,
                      progress=False if quiet else None)
    click.echo(summary(state))
    click.echo(str(out / "check.json"))


@main.command("new-game")
@click.argument("name")
def new_game(name):
    """Write NAME, a small playable game (rules, players, replay, tests) to make your own."""
    from simulator.newgame import new_game as write_game, next_steps
    write_game(name)
    click.echo(next_steps(name))


@main.command()
@click.argument("games", nargs=-1)
@click.option("--repeats", "-r", type=int, default=5, show_default=True, help="Runs per figure.")
@click.option("--engine-games", type=int, default=200_000, show_default=True)
@click.option("--run-games", type=int, default=1_000_000, show_default=True,
              help="Games of the end-to-end playtest run.")
@click.option("--interpreted-games", type=int, default=20, show_default=True)
@click.option("--quick", is_flag=True,
              help="Tiny sizes, one run each and no empty-cache start-up (a full compile): a smoke test.")
@click.option("--compile", "compile_only", is_flag=True,
              help="Only the compile: each game's game loops from an empty cache (wall, CPU, "
                   "what compiled), --repeats times (default 1).")
@click.option("--determinism", is_flag=True,
              help="Only reproducibility: --run-games games (and --search-games with the search "
                   "player) on one thread and on every thread, in different chunk sizes; are "
                   "the bytes the same?")
@click.option("--search-games", type=int, default=20, show_default=True,
              help="With --determinism: games with the search player seated.")
@click.option("--experts", is_flag=True,
              help="Only the learnt experts' cost: the expert in every seat, the default mix and "
                   "four-player Gremios timed in turn (one thread, --repeats rounds), at the "
                   "smallest and largest table.")
@click.option("--out", "-o", type=click.Path(), default="bench.json", show_default=True)
def bench(games, repeats, engine_games, run_games, interpreted_games, quick, compile_only,
          determinism, search_games, experts, out):
    """Measure each GAME (default: all): engine speed, end to end, memory, start-up, JIT gain."""
    from simulator.bench import compile_table, run_bench, run_compile_bench, table
    from simulator.core.game import GAME_NAMES, get_game

    for g in games:
        get_game(g)
    if compile_only:
        if repeats < 1:
            raise UsageError(f"--repeats {repeats}: must be at least 1")
        explicit = click.get_current_context().get_parameter_source("repeats").name != "DEFAULT"
        report = run_compile_bench(list(games) or list(GAME_NAMES), repeats if explicit else 1,
                                   out, log=lambda m: click.echo(m, err=True))
        click.echo(compile_table(report["results"]))
        click.echo(f"written: {out}")
        return
    if determinism:
        from simulator.bench import determinism_table, run_determinism_bench
        if run_games < 1 or search_games < 0:
            raise UsageError(f"--run-games {run_games} / --search-games {search_games}: at least "
                             "1 / 0")
        report = run_determinism_bench(list(games) or list(GAME_NAMES), run_games, search_games,
                                       out, log=lambda m: click.echo(m, err=True))
        click.echo(determinism_table(report["results"]))
        click.echo(f"written: {out}")
        if not all(run["identical"] for r in report["results"] for run in r["runs"]):
            raise SystemExit(1)
        return
    if experts:
        from simulator.bench import EXPERT_TIMING_S, expert_table, run_expert_bench
        if repeats < 1:
            raise UsageError(f"--repeats {repeats}: must be at least 1")
        report = run_expert_bench(list(games) or list(GAME_NAMES), 1 if quick else repeats,
                                  0.05 if quick else EXPERT_TIMING_S, out,
                                  log=lambda m: click.echo(m, err=True))
        click.echo(expert_table(report["results"]))
        click.echo(f"written: {out}")
        return
    for name, value in (("--repeats", repeats), ("--engine-games", engine_games),
                        ("--run-games", run_games), ("--interpreted-games", interpreted_games)):
        if value < 1:
            raise UsageError(f"{name} {value}: must be at least 1")
    if quick:
        repeats, engine_games, run_games, interpreted_games = 1, 2000, 2000, 2
    report = run_bench(list(games) or list(GAME_NAMES), repeats, engine_games, run_games,
                       interpreted_games, out, log=lambda m: click.echo(m, err=True),
                       empty_cache=not quick)
    click.echo(table(report["results"]))
    click.echo(f"written: {out}")


from reports.cli import report  # noqa: E402  (the report command lives with the reports)

main.add_command(report)


def entry():
    """Console entry point: usage errors become one line and exit code 2."""
    try:
        main.main(standalone_mode=False)
    except UsageError as e:
        click.echo(f"playtest: error: {e}", err=True)
        sys.exit(2)
    except click.UsageError as e:
        click.echo(f"playtest: error: {UsageError(e.format_message())}", err=True)
        sys.exit(2)
    except InvariantBroken as e:
        click.echo(f"playtest: invariant broken: {e}", err=True)
        sys.exit(1)
    except click.exceptions.Abort:
        click.echo("playtest: aborted", err=True)
        sys.exit(130)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except BrokenPipeError:
        sys.exit(0)
