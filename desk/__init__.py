"""Permit Desk application core: domain rules and services (no Qt, no SQL)."""

__version__ = "0.1.0"
