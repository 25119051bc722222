"""The bot's SQLite store: one connection, one write path, migrations, and the table families."""

from bot.store.audits import AuditRecord, audit_key, get_audit, list_audits, save_audit
from bot.store.db import MigrationFailed, SchemaTooNew, Store, StoreError, default_db_path
from bot.store.fetch_cache import SqliteRawStore
from bot.store.migrations import SCHEMA_VERSION

__all__ = [
    "SCHEMA_VERSION",
    "AuditRecord",
    "MigrationFailed",
    "SchemaTooNew",
    "SqliteRawStore",
    "Store",
    "StoreError",
    "audit_key",
    "default_db_path",
    "get_audit",
    "list_audits",
    "save_audit",
]
