"""The `progress` argument of the functions whose work can take long."""


def progress_argument(progress):
    """`progress` checked: True (the CLI's progress display on sys.stderr once a call has taken a second),
    False (nothing), or a callable called as progress(done, total) after each chunk of the work."""
    if isinstance(progress, bool) or callable(progress):
        return progress
    raise TypeError(f"progress: expected True, False or a callable(done, total), got {type(progress).__name__}")
