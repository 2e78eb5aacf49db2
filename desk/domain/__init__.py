"""Plain-Python domain: value objects, enums, rules. Imports neither Qt nor SQLAlchemy."""
