#!/bin/sh
# The README's screenshots, at 1366x768 (the common counter laptop), from fresh demo registers:
#   sh docs/img/make.sh        (from the checkout, after `make install`; needs xvfb-run)
set -e
cd "$(dirname "$0")/../.."
out=docs/img
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pd=.venv/bin/permitdesk
export QT_QPA_PLATFORM=offscreen
"$pd" demo --db "$work/glendale.db" --municipality glendale --years 1 --per-year 120 >/dev/null
"$pd" demo --db "$work/hudson.db" --municipality hudson >/dev/null
shot() {  # DB VIEW FILE [USER]
    xvfb-run -a -s "-screen 0 1366x768x24" "$pd" gui --db "$work/$1.db" --screenshot "$out/$3" \
        --view "$2" --size 1366x768 --user "${4:-admin}"
}
number=$(sqlite3 "$work/glendale.db" "SELECT number FROM permit WHERE number IS NOT NULL ORDER BY id DESC LIMIT 1")
shot glendale home home-clerk.png clerk
shot glendale home home-inspector.png inspector
shot glendale home home-treasurer.png treasurer
shot glendale permits permits.png
shot glendale intake intake.png clerk
shot glendale "permit:$number" permit.png
shot glendale "permit:$number:work" permit-work.png
shot glendale "permit:$number:history" permit-history.png
shot glendale deadlines deadlines.png
shot glendale inspections inspections.png
shot glendale cashier cashier.png clerk
shot glendale treasurer treasurer.png treasurer
shot glendale deposits deposits.png
shot glendale bonds bonds.png
shot glendale condemnations condemnations.png
shot glendale municipality municipality.png
shot glendale users users.png
shot glendale parcels parcels.png
shot glendale people people.png
shot glendale reports reports.png
shot glendale fees fees.png
shot glendale calculator calculator.png
shot hudson enforcement enforcement.png
shot hudson rooming-houses rooming-houses.png
shot hudson occupancy occupancy.png
