"""The main window's sections (one widget per entry in the navigation list)."""
