"""The people and organizations of the register (owners, contractors, designers, payers), one
module per concern:

- edit: update_party (name, addresses, phone, email, notes, with the version the form showed)
- retire: retire_party, restore_party (never deleted)
- merge: merge_preview, merge_parties (roles on permits, bonds, certificates, licences,
  payments, deposits and notices move to the record kept; a credit balance is transferred)
- credentials: record_credential, renew_credential (a renewal keeps the credential it replaces
  as history)
- contractors: the contractors' spreadsheet, its template, dry run and import

Adding one from the application form is desk.services.permits.add_party.
"""
