"""Rooming house licences (Hudson 140-10): a licence's window and its dialogs."""
