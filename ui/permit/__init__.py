"""A permit's own window: a header and tabs (ui/permit/tabs.py lists them)."""
