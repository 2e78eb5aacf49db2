"""Renderers: report data in, .pdf and .xlsx out. No queries here (ARCHITECTURE.md)."""
