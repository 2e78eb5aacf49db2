"""Speed targets, measured on a 100,000-permit demo database (`make bench`)."""
