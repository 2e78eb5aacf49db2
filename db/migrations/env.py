"""Alembic environment: runs on the connection db/migrate.py hands it."""

from alembic import context

from db.schema import metadata

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=True,  # SQLite cannot ALTER most things; batch mode copies the table
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
