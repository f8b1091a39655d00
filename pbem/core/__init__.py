"""The protocol core of play by email: packets and their signatures, keys as values, the dice
chains, what a packet may hold, the email game and its checks, writing packets, the armour,
verifying a whole game and its rolls (``docs/pbem-protocol.md``).

Nothing here reads or writes a file, talks to a mailbox, a socket or an agent, or reads the
clock: the store, mail, config, keys on disk, ``ssh-agent`` and self-play sit above it, in
:mod:`pbem`. An import-linter contract (``pyproject.toml``) keeps it so.
"""
