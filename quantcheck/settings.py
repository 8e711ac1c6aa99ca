"""Every setting the service reads, as one pydantic model.

A setting is a field of :class:`Settings`: its type and bounds, its default and its help.
It is read from its ``QUANTCHECK_<NAME>`` environment variable, and a command-line flag
(``--name-with-dashes``; a yes/no setting as ``--name``/``--no-name``) beats the variable.
The variables are read here rather than by pydantic-settings, whose import (asyncio, ssl,
dotenv and cloud secret stores among it) cost every command a tenth of its start-up.
A command adds the flags of the settings it uses with :func:`add_settings` and reads them
all with :func:`load_settings`; a bad value, from a flag or a variable, is a one-line usage
error naming the setting and where the value came from. One model, so that the CLI, the
README and the deployment files cannot disagree about a name.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal, get_args, get_origin

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PositiveInt,
    SecretStr,
    StringConstraints,
    ValidationError,
    model_validator,
)
from pydantic.fields import FieldInfo

from quantcheck.errors import UsageError
from quantcheck.quantities import budget

ENV_PREFIX = "QUANTCHECK_"
# The unit of the bounds the settings give in MiB.
MIB = budget.MIB

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
Count = Annotated[int, Field(ge=0)]
Port = Annotated[int, Field(ge=0, le=65535)]


def _literal_values(annotation: object) -> tuple[str, ...]:
    """The values a ``Literal`` setting (or an optional one) allows; () for any other."""
    for candidate in (annotation, *get_args(annotation)):
        if get_origin(candidate) is Literal:
            return tuple(str(choice) for choice in get_args(candidate))
    return ()


def _flag(flag: str) -> dict[str, Any]:
    """A flag spelled other than after the setting's name."""
    return {"flag": flag}


class Settings(BaseModel):
    """The service's settings; each field is one ``QUANTCHECK_*`` variable and one flag.
    Made from given values alone: :func:`load_settings` adds the variables."""

    model_config = ConfigDict(frozen=True, extra="forbid", validate_default=True)

    # fmt: off
    store_url: str = Field(
        "sqlite:///./quantcheck.db",
        description="document store: sqlite:///PATH or postgresql://USER@HOST:PORT/DB",
        json_schema_extra=_flag("--store"))
    kb_version: str = Field("", description="knowledge-base version to resolve documents from")
    bootstrap_servers: str = Field(
        "localhost:9092", description="Kafka bootstrap servers, comma-separated")
    security_protocol: Literal["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"] = Field(
        "PLAINTEXT", description="Kafka security protocol")
    sasl_mechanism: Literal["", "PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"] = Field(
        "", description="SASL mechanism")
    sasl_username: str = Field("", description="SASL user name")
    sasl_password: SecretStr = Field(SecretStr(""), description="SASL password (never logged)")
    ssl_cafile: str = Field("", description="CA bundle for TLS connections to Kafka")
    ssl_certfile: str = Field("", description="client certificate for TLS connections to Kafka")
    ssl_keyfile: str = Field("", description="client key for TLS connections to Kafka")
    claims_topic: Name = Field("claims", description="topic the claims are read from")
    verdicts_topic: Name = Field(
        "claim-verdicts", description="topic the verdicts are written to")
    dlq_topic: Name = Field("claims-dlq", description="dead-letter topic")
    group_id: Name = Field("quantcheck", description="consumer group of the workers")
    instance_id: str = Field(
        "", description="stable name of this worker process, one per process (default: the host"
        " name)")
    delivery: Literal["exactly-once", "at-least-once"] = Field(
        "exactly-once", description="delivery guarantee")
    batch_max_records: PositiveInt = Field(
        500, description="largest batch committed in one transaction")
    batch_max_ms: PositiveInt = Field(
        200, description="longest a batch collects records before it is committed")
    max_message_bytes: PositiveInt = Field(
        1_000_000, description="larger claim messages are dead-lettered as oversize")
    shutdown_timeout_s: PositiveInt = Field(
        20, description="bound on a graceful shutdown after SIGTERM")
    metrics_port: Port = Field(
        9464, description="port of /metrics, /healthz and /readyz (0 disables)")
    metrics_bind: str = Field("0.0.0.0", description="address the metrics endpoint binds to")
    label_value_limit: PositiveInt = Field(
        50, description="free-text label combinations per metric before new ones count as"
        " 'other'")
    log_format: Literal["auto", "json", "console"] = Field(
        "auto", description="log renderer: auto (console on a terminal, else JSON)")
    log_level: Literal["debug", "info", "warning", "error"] = Field(
        "info", description="lowest log level written")
    log_claim_text: bool = Field(False, description="include claim text and prompt in logs")
    scope: Literal["all", "units"] = Field(
        "all", description="numbers checked: all (every number: counts, years, identifiers too)"
        " or units (quantities with units, currency, percent, dates and times)")
    bare_numbers: Literal["true", "false"] | None = Field(
        None, description="deprecated alias: true means --scope all, false --scope units")
    citation_mode: Literal["combined", "single"] = Field(
        "combined", description="combined: any cited document may support each fact; single:"
        " one must support all")
    uncited: Literal["missing_citation", "retrieved"] = Field(
        "missing_citation", description="what a sentence of an answer with a number and no"
        " citation marker cites: nothing (missing_citation), or every retrieved document"
        " (retrieved; which one the sentence rests on is then unknown)")
    evidence_cache_size: PositiveInt = Field(
        4096, description="documents whose extracted facts stay cached")
    evidence_cache_mib: Count = Field(
        256, description="bound on the memory the cached facts of documents hold")
    document_facts_mib: PositiveInt = Field(
        budget.DEFAULT_DOCUMENT_FACTS_MIB, description="bound on the memory one document's facts"
        " may take: docs load refuses a document over it, and a claim citing one is"
        " dead-lettered as check_failed")
    document_cache_size: Count = Field(
        10_000, description="documents kept in the in-process store cache (0: none, every"
        " lookup reads the store)")
    document_cache_mib: Count = Field(
        256, description="bound on the document text the store cache holds")
    store_statement_timeout_ms: PositiveInt = Field(
        5000, description="PostgreSQL lookups running longer fail and are retried (a lock, a"
        " stalled server)")
    store_connect_timeout_s: PositiveInt = Field(
        5, description="bound on connecting to PostgreSQL")
    store_keepalive_idle_s: PositiveInt = Field(
        30, description="TCP keepalive probes start after this long idle, to notice a vanished"
        " server")
    kafka_call_timeout_s: PositiveInt = Field(
        15, description="bound on each transactional call to the broker; the producer is"
        " replaced after it")
    session_timeout_ms: PositiveInt = Field(
        10_000, description="a worker that stops heartbeating loses its partitions after this"
        " long")
    processes: PositiveInt = Field(
        1, description="worker processes in this container, one per core, under one supervisor"
        " with one /metrics")
    static_membership: bool = Field(
        False, description="join the group as the static member named by the instance id:"
        " restarted with the same id, a worker gets its partitions back without a rebalance,"
        " but stopped, it holds them for the session timeout")
    # fmt: on

    @model_validator(mode="before")
    @classmethod
    def _spelled_as_a_choice(cls, data: Any) -> Any:
        # A choice is read in any case, spaces around it ignored: "Info", " sasl_ssl" and
        # "TRUE" name the choices "info", "SASL_SSL" and "true".
        if not isinstance(data, dict):
            return data
        return {name: _as_choice(cls.model_fields.get(name), value) for name, value in data.items()}


def _as_choice(field: FieldInfo | None, value: object) -> object:
    if field is None or not isinstance(value, str):
        return value
    wanted = value.strip().casefold()
    for choice in _literal_values(field.annotation):
        if choice.casefold() == wanted:
            return choice
    return value


@dataclass(frozen=True, slots=True)
class Setting:
    """How one setting is written: its variable, its flag, its default and its help."""

    name: str
    default: str
    help: str
    choices: tuple[str, ...]
    secret: bool
    boolean: bool
    flag: str

    @property
    def env(self) -> str:
        """The environment variable that sets it."""
        return ENV_PREFIX + self.name.upper()


def _setting(name: str, field: FieldInfo) -> Setting:
    annotation = field.annotation
    # "" is how an optional choice is left unset, not a choice to offer.
    choices = tuple(choice for choice in _literal_values(annotation) if choice)
    default = field.default
    if isinstance(default, SecretStr):
        default = default.get_secret_value()
    extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
    return Setting(
        name=name,
        default=_shown(default),
        help=field.description or "",
        choices=choices,
        secret=annotation is SecretStr,
        boolean=annotation is bool,
        flag=str(extra.get("flag", "--" + name.replace("_", "-"))),
    )


def _shown(value: object) -> str:
    """A default as the README and ``--help`` show it: ``false``, ``500``, empty for none."""
    if value is None:
        return ""
    return str(value).lower() if isinstance(value, bool) else str(value)


SETTINGS: tuple[Setting, ...] = tuple(
    _setting(name, field) for name, field in Settings.model_fields.items()
)
BY_NAME: Mapping[str, Setting] = {s.name: s for s in SETTINGS}


def known_env_vars() -> frozenset[str]:
    """The ``QUANTCHECK_*`` variables the service understands."""
    return frozenset(s.env for s in SETTINGS)


def add_settings(parser: argparse.ArgumentParser, names: Iterable[str]) -> None:
    """Add the named settings to ``parser`` as flags; a flag not given leaves the setting to
    its environment variable, then to its default."""
    for name in names:
        setting = BY_NAME[name]
        kwargs: dict[str, Any] = {
            "dest": setting.name,
            "default": argparse.SUPPRESS,
            "help": f"{setting.help} (env {setting.env}, default {setting.default!r})",
        }
        if setting.boolean:
            # ``--flag`` alone means true; ``--flag false`` (the older spelling) still works.
            kwargs.update(nargs="?", const="true", metavar="true|false")
            parser.add_argument(
                "--no-" + setting.flag.removeprefix("--"),
                dest=setting.name,
                action="store_const",
                const="false",
                default=argparse.SUPPRESS,
                help=f"same as {setting.flag} false",
            )
        elif setting.choices:
            # Named in the help only: the model checks the value, so a flag accepts the
            # same spellings (any case) as its variable, and says the same when it is wrong.
            kwargs["metavar"] = "{" + ",".join(setting.choices) + "}"
        parser.add_argument(setting.flag, **kwargs)


def _environment() -> dict[str, str]:
    """The values of the settings' variables, by setting name. A variable's name is read in
    any case; an empty variable means "not set", as it did before there was a model, and as
    a deployment template that leaves a value blank intends."""
    names = {setting.env.lower(): setting.name for setting in SETTINGS}
    return {
        names[variable.lower()]: value
        for variable, value in os.environ.items()
        if value and variable.lower() in names
    }


def load_settings(args: argparse.Namespace, names: Iterable[str]) -> Settings:
    """The settings: the flags of ``names`` given in ``args``, else their environment
    variables, else their defaults. A bad value is a one-line UsageError naming the setting
    and where its value came from."""
    wanted = frozenset(names)
    given = {name: getattr(args, name) for name in wanted if hasattr(args, name)}
    environment = _environment()
    try:
        return Settings.model_validate({**environment, **given})
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
    ours = [
        error
        for error in errors
        if _setting_of(error) in wanted or _setting_of(error) not in Settings.model_fields
    ]
    if not ours:
        # Only variables of settings this command does not use are bad (a worker's
        # QUANTCHECK_PROCESSES seen by ``docs load``): not its concern; they keep their
        # defaults here, and the command that uses them reports them.
        defaults: dict[str, Any] = {
            name: Settings.model_fields[name].default
            for name in {_setting_of(error) for error in errors}
        }
        try:
            return Settings.model_validate({**environment, **defaults, **given})
        except ValidationError as exc:
            ours = exc.errors(include_url=False)
    raise _usage_error(ours[0], given) from None


def _setting_of(error: Any) -> str:
    return str(error["loc"][0]) if error["loc"] else ""


def _usage_error(error: Any, given: Mapping[str, object]) -> UsageError:
    """One line naming the setting, where its value came from, and what is wrong with it."""
    name = _setting_of(error)
    setting = BY_NAME.get(name)
    if setting is None:
        return UsageError(f"{name}: {error['msg']}")
    source = setting.flag if name in given else setting.env
    # A password is never repeated back, not even a wrong one.
    got = "" if setting.secret else f", got {error['input']!r}"
    return UsageError(f"{source}: {error['msg'][0].lower()}{error['msg'][1:]}{got}")


def environment_of(settings: Settings, names: Iterable[str]) -> dict[str, str]:
    """The named settings as the environment variables that would set them."""
    values: dict[str, str] = {}
    for name in names:
        value = getattr(settings, name)
        if isinstance(value, SecretStr):
            value = value.get_secret_value()
        if value is not None:
            values[BY_NAME[name].env] = _shown(value)
    return values
