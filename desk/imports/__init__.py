"""Bringing the office's own data in from files: the county's parcel file (the Wisconsin
statewide parcel schema, V10, or any other layout through a mapping) and a contractors'
spreadsheet.

- files: what a file holds (its layers and columns) and its rows as text, read with a library
  of the field (pyogrio with its bundled GDAL for file geodatabases, shapefiles and
  GeoPackages; the csv module and openpyxl for CSV and workbooks); a file too big, a zip bomb
  or an encoding it cannot read is refused in one sentence naming the file.
- mapping: which column of the file fills which field of a parcel, the V10 preset.
- parcels: a row of the file as a parcel, or the reason it is rejected; the dry run (new,
  changed field by field, unchanged, missing from the file, conflicts with what the office
  keeps, rejected); the sync rules.
- contractors: the same for people and their state credentials.

Plain Python: pyogrio and openpyxl are imported only when a file is read, never on start-up.
"""
