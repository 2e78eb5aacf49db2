"""A code enforcement case's window (Hudson 140-3)."""
