"""The one error type a user sees: a bad value, named, with what is allowed."""


class UsageError(Exception):
    """Bad input from the command line, an experiment file or the Python API.

    The message is one line that names the bad value and what is allowed; the CLI prints it
    and exits with code 2 before anything is written.
    """

    def __init__(self, message):
        # a bad value quoted in the message may hold a line break (from a file): shown escaped
        super().__init__(str(message).replace("\r", "\\r").replace("\n", "\\n"))


class InvariantBroken(Exception):
    """A checked run found a game breaking one of its game's invariants: a fault of the engine,
    not of the input. The message is one line naming the seed, the game's index and the
    invariant, and the command that replays the game."""

    def __init__(self, message, game_index: int, invariant: str):
        super().__init__(message)
        self.game_index = game_index
        self.invariant = invariant

    def __reduce__(self):  # from a Dask worker to the client, whole
        return InvariantBroken, (str(self), self.game_index, self.invariant)
