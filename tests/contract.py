"""What every game's rows keep, whatever the mode, table and players: the dataset's part of the
contract (tests/test_contract.py plays it over every game; a game's own dataset tests check it
on the mixes the contract does not play, such as those with a search player)."""

import numpy as np
import polars as pl

from simulator.core.game import get_game


def assert_rows_keep_the_contract(game: str, seats: pl.DataFrame, games: pl.DataFrame,
                                  n_players: int, n_games: int) -> None:
    """One row per seat per game, win shares summing to one, each score the sum of its point
    sources, the best score the game's ``winning_score``, and ranks that follow the scores."""
    assert games["game_id"].sort().to_list() == list(range(n_games))
    assert seats.height == n_games * n_players
    by_game = seats.sort("game_id", "seat").group_by("game_id", maintain_order=True)
    assert (by_game.agg(pl.col("seat"))["seat"].to_list()
            == [list(range(n_players))] * n_games)

    shares = by_game.agg(pl.col("win_share").sum())["win_share"].to_numpy()
    assert np.allclose(shares, 1.0), shares

    # A mode's tables leave out the sources it cannot score (El Grande's base game has none of
    # the expansion's columns); the rest must add up to the score.
    sources = [c for c in get_game(game).report_columns["point_sources"] if c in seats.columns]
    assert sources, f"{game} declares no point source its seats table holds"
    total = pl.sum_horizontal(pl.col(sources).cast(pl.Int64))
    broken = seats.filter(pl.col("score").cast(pl.Int64) != total)
    assert broken.is_empty(), broken.select("game_id", "seat", "score", *sources)

    best = by_game.agg(pl.col("score").max().alias("best")).join(games, on="game_id")
    assert (best["best"] == best["winning_score"]).all()

    # A rank is 1 + the seats strictly ahead (score, then the game's tie-break): a higher score
    # is a better rank, seats equal on both share one, and the winners are the seats ranked first.
    ranks = seats.sort("game_id", "seat")
    rank = ranks["rank"].to_numpy().reshape(n_games, n_players).astype(np.int64)
    score = ranks["score"].to_numpy().reshape(n_games, n_players).astype(np.int64)
    winner = ranks["winner"].to_numpy().reshape(n_games, n_players)
    ahead = (rank[:, None, :] < rank[:, :, None]).sum(axis=2)
    assert (rank == 1 + ahead).all()
    higher = score[:, :, None] > score[:, None, :]
    better = rank[:, :, None] < rank[:, None, :]
    assert (better | ~higher).all()
    assert (winner == (rank == 1)).all()
