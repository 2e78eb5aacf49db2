"""A person's or organization's own window (ui/person/window.py) and the dialogs that correct
the record (ui/person/dialogs.py): edit, retire, merge, and the state credentials."""
