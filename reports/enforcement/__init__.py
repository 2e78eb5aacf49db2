"""Printed documents of code enforcement (Hudson 140-3): the notice of violation or emergency
order, the written notice of hearing, the record of hearing and the Council's hearing docket."""
