"""Qt-free presenters: state and formatting of the views, tested without a QApplication.

Nothing under ui/presenters imports PySide6 (tests/ui/test_presenters.py checks it).
"""
