"""Qt table models: thin adapters from presenters to QAbstractTableModel."""
