"""The bot's SQLite store: one connection, one write path, migrations, and the table families."""

from bot.store.audits import (
    AuditPlace,
    AuditRecord,
    audit_key,
    get_audit,
    latest_for_subject,
    list_audits,
    save_audit,
    set_answer,
)
from bot.store.db import MigrationFailed, SchemaTooNew, Store, StoreError, default_db_path
from bot.store.fetch_cache import SqliteRawStore
from bot.store.migrations import SCHEMA_VERSION

__all__ = [
    "SCHEMA_VERSION",
    "AuditPlace",
    "AuditRecord",
    "MigrationFailed",
    "SchemaTooNew",
    "SqliteRawStore",
    "Store",
    "StoreError",
    "audit_key",
    "default_db_path",
    "get_audit",
    "latest_for_subject",
    "list_audits",
    "save_audit",
    "set_answer",
]
