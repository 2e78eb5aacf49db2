"""The `permitdesk` command: composition root that wires desk/, db/, ui/ and reports/.

It lives outside desk/ because it must import db/ (and, for `gui`, ui/), which the application
core may not (ARCHITECTURE.md's one-way rule).
"""
