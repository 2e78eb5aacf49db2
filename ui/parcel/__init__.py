"""A parcel's window and the dialogs that correct a parcel (edit, retire, merge)."""
