"""The parcel register's use cases, one module per concern:

- edit: update_parcel (every field a person typed, with the version the form showed)
- retire: retire_parcel, restore_parcel (never deleted; what points at it stays readable)
- merge: merge_preview, merge_parcels (everything on the duplicate moves to the one kept)
- owner: owner_of_record, owner_as_party (the county's owner of record as a person or company
  for a permit's owner role)
- imports: read_parcel_file, dry_run, import_parcels (the county's parcel file, V10 or mapped)

Adding a parcel by hand is desk.services.permits.add_parcel. Each takes (uow, clock, actor,
...), checks the permission, locks the parcels it decides on, and writes in one transaction
with its audit rows.
"""
