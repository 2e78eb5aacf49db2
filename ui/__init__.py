"""Permit Desk's PySide6 interface: thin views over Qt-free presenters (ui/presenters)."""
