"""A Ctrl-C during a call: KeyboardInterrupt carrying what the call computed before it stopped."""


def stopped(message, **computed):
    """KeyboardInterrupt(message) with each of `computed` as an attribute (e.g. .result)."""
    error = KeyboardInterrupt(message)
    for name, value in computed.items():
        setattr(error, name, value)
    return error
