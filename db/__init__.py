"""Persistence: SQLAlchemy 2.x tables, mappings, unit of work, numbering, migrations, backups."""
