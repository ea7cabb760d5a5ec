"""The one error type a user sees: a bad value, named, with what is allowed."""


class UsageError(Exception):
    """Bad input from the command line, an experiment file or the Python API.

    The message is one line that names the bad value and what is allowed; the CLI prints it
    and exits with code 2 before anything is written.
    """

    def __init__(self, message):
        # a bad value quoted in the message may hold a line break (from a file): shown escaped
        super().__init__(str(message).replace("\r", "\\r").replace("\n", "\\n"))
