"""The user's config file: how to send mail and where to read it (``docs/pbem-protocol.md``,
"Armour and transport").

The file is TOML, ``$ARDENNES_CONFIG`` or else ``config.toml`` in
``platformdirs.user_config_dir("ardennes")`` (``~/.config/ardennes/config.toml`` on Linux)::

    [smtp]
    host = "smtp.example.org"
    port = 587                          # default: 587 starttls, 465 ssl, 25 none
    security = "starttls"               # "starttls" (default), "ssl" or "none"
    user = "me@example.org"             # no user: no login
    password_command = "pass show smtp" # or password = "...", file mode 0600
    from = "Me <me@example.org>"
    timeout = 30                        # seconds

    [mailbox]
    path = "~/Mail/ardennes"            # an mbox file or a Maildir, for `ardennes import`

Unknown keys are refused (a typo must not silently fall back to a default), as is a plain
``password`` in a file other users can read.
"""

from __future__ import annotations

import os
import shlex
import stat
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import platformdirs

from pbem.core.errors import PbemError

__all__ = ["Config", "ConfigError", "MailboxConfig", "SmtpConfig", "config_path", "load_config"]

Security = Literal["starttls", "ssl", "none"]
_DEFAULT_PORT: dict[str, int] = {"starttls": 587, "ssl": 465, "none": 25}
_SMTP_KEYS = frozenset(
    {"host", "port", "security", "user", "password", "password_command", "from", "timeout"}
)
_MAILBOX_KEYS = frozenset({"path"})
_MAX_CONFIG = 64 * 1024


class ConfigError(PbemError):
    """A config file that cannot be used, or a password that cannot be had. One line."""


@dataclass(frozen=True)
class SmtpConfig:
    """The ``[smtp]`` table."""

    host: str
    from_addr: str
    port: int = 587
    security: Security = "starttls"
    user: str | None = None
    password: str | None = None
    password_command: str | None = None
    timeout: float = 30.0

    def __repr__(self) -> str:  # never show the password
        return (
            f"SmtpConfig(host={self.host!r}, port={self.port}, security={self.security!r}, "
            f"user={self.user!r}, from_addr={self.from_addr!r})"
        )

    def resolve_password(self) -> str | None:
        """The password: ``password``, or the first line ``password_command`` prints (run
        without a shell), or ``None`` if neither is set."""
        if self.password is not None:
            return self.password
        if self.password_command is None:
            return None
        try:
            argv = shlex.split(self.password_command)
            done = subprocess.run(
                argv, capture_output=True, timeout=60, check=False, stdin=subprocess.DEVNULL
            )
        except (OSError, ValueError, subprocess.SubprocessError) as exc:
            raise ConfigError(f"password_command failed: {exc}") from None
        if done.returncode != 0:
            raise ConfigError(f"password_command exited with status {done.returncode}")
        lines = done.stdout.decode("utf-8", "replace").splitlines()
        if not lines or not lines[0]:
            raise ConfigError("password_command printed no password")
        return lines[0]


@dataclass(frozen=True)
class MailboxConfig:
    """The ``[mailbox]`` table: where ``ardennes import`` looks without a file."""

    path: Path


@dataclass(frozen=True)
class Config:
    """The whole file; a table that is absent is ``None``."""

    path: Path
    smtp: SmtpConfig | None = None
    mailbox: MailboxConfig | None = None


def config_path() -> Path:
    """Where the config file is: ``$ARDENNES_CONFIG``, else the user config directory."""
    env = os.environ.get("ARDENNES_CONFIG")
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_config_dir("ardennes")) / "config.toml"


def _str(table: dict[str, Any], key: str, where: str) -> str | None:
    value = table.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value or "\n" in value or "\r" in value:
        raise ConfigError(f"{where}: {key} must be a non-empty one-line string")
    return value


def _smtp(table: Any, path: Path) -> SmtpConfig:
    where = f"{path} [smtp]"
    if not isinstance(table, dict):
        raise ConfigError(f"{where} must be a table")
    unknown = sorted(set(table) - _SMTP_KEYS)
    if unknown:
        raise ConfigError(f"{where}: unknown key {unknown[0]!r} (known: {sorted(_SMTP_KEYS)})")
    host = _str(table, "host", where)
    from_addr = _str(table, "from", where)
    if host is None or from_addr is None:
        raise ConfigError(f"{where}: host and from are required")
    security = table.get("security", "starttls")
    if security not in _DEFAULT_PORT:
        raise ConfigError(f"{where}: security must be 'starttls', 'ssl' or 'none'")
    port = table.get("port", _DEFAULT_PORT[security])
    if isinstance(port, bool) or not isinstance(port, int) or not 0 < port < 65536:
        raise ConfigError(f"{where}: port must be an integer from 1 to 65535")
    timeout = table.get("timeout", 30)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0:
        raise ConfigError(f"{where}: timeout must be a positive number of seconds")
    password = _str(table, "password", where)
    password_command = _str(table, "password_command", where)
    if password is not None and password_command is not None:
        raise ConfigError(f"{where}: give password or password_command, not both")
    if password is not None and sys.platform != "win32":
        mode = path.stat().st_mode
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise ConfigError(
                f"{path} holds a password and other users can read it: chmod 600 it, or use "
                "password_command"
            )
    return SmtpConfig(
        host=host,
        from_addr=from_addr,
        port=port,
        security=security,
        user=_str(table, "user", where),
        password=password,
        password_command=password_command,
        timeout=float(timeout),
    )


def _mailbox(table: Any, path: Path) -> MailboxConfig:
    where = f"{path} [mailbox]"
    if not isinstance(table, dict):
        raise ConfigError(f"{where} must be a table")
    unknown = sorted(set(table) - _MAILBOX_KEYS)
    if unknown:
        raise ConfigError(f"{where}: unknown key {unknown[0]!r} (known: ['path'])")
    value = _str(table, "path", where)
    if value is None:
        raise ConfigError(f"{where}: path is required")
    return MailboxConfig(path=Path(value).expanduser())


def load_config(path: Path | None = None) -> Config:
    """Read the config file (:func:`config_path` by default); a missing file is an empty
    config. Raises :class:`ConfigError` with the file and the fault."""
    path = config_path() if path is None else path
    try:
        with path.open("rb") as f:
            data = f.read(_MAX_CONFIG + 1)
    except FileNotFoundError:
        return Config(path=path)
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > _MAX_CONFIG:
        raise ConfigError(f"{path} is over {_MAX_CONFIG} bytes")
    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from None
    unknown = sorted(set(doc) - {"smtp", "mailbox"})
    if unknown:
        raise ConfigError(f"{path}: unknown table {unknown[0]!r} (known: smtp, mailbox)")
    smtp = _smtp(doc["smtp"], path) if "smtp" in doc else None
    mailbox = _mailbox(doc["mailbox"], path) if "mailbox" in doc else None
    return Config(path=path, smtp=smtp, mailbox=mailbox)
