# Tournament Ledger pages: English. Every message here has its Spanish twin in es/pages.ftl
# (a test checks that both name the same messages). Names of nations, roles, sides, stop
# reasons and outcomes, and the rules' refusals, are in rules.ftl.

site-name = Tournament Ledger
nav-signin = Sign in
lang-other = Español
who-public = public
who-unknown = unknown token: sign in again
who-open = open ledgerd

## The table page
table-title = Game { $game }
table-no-ruleset = no ruleset yet
table-phase-not-started = not started
table-phase-turn = turn { $turn }
table-phase-ended = ended in turn { $turn }: { $outcome }
table-watch-only = You may watch this game; to record, sign in with a table token.
table-noscript = The table page needs JavaScript: it keeps every tap on this tablet until the ledger has it.
table-loading = Loading the game…
table-never-seen = This tablet has not opened this game yet, and the ledger cannot be reached. Open it once with a connection.
table-start-failed = This page could not start on this tablet: its storage or its words could not be read. Reload it; if it fails again, note the game on paper and tell the jury.
table-tap-hand-over = tap to hand over
table-tap-start = tap to start
table-time-ran-out = time ran out
table-stop = Stop: { $reason }
table-clock-stopped = Clock stopped: { $reason }
table-stopwatch = Stopwatch ({ $who }): { $left } left of { $allowance }
table-stopwatch-over = over by { $over }
table-start-game = Start the game
table-ruleset = Ruleset
table-start-turn = Start turn { $turn }
table-nation = Nation
table-start-stage = Start action stage
table-end-stage = End the action stage of { $nation }
table-retreat-length = Retreat length
table-start-retreat = Start retreat
table-end-retreat = End retreat
table-cards = Cards
table-record-tc = Record TCs dealt
table-objectives-held = Objectives held
table-objectives-of = of
table-record-drop = Record drop-out
table-switch-to = To
table-switch-ia = Switch the Imperial Army
table-set-aside = Tactical card set aside (value)
table-launch-offensive = Launch the offensive
table-austria-claims = Objectives Austria claims
table-record-claim = Record Austria's claim
table-pick-up = Austria picks up the set-aside TC
table-bohemian = Bohemian objectives Prussia holds
table-call-off = Call off the offensive
table-outcome = Outcome
table-winners = Winners
table-end-game = End the game
table-reason = Reason
table-call-jury = Call the jury
table-score-sheet = Score sheet
table-last-events = Last events
table-waiting-events = Waiting on this tablet
table-not-a-number = { $field } must be a whole number

## Where the table stands with the ledger
sync-all-recorded = All recorded
sync-waiting = { $count ->
    [one] 1 action waiting — not yet in the ledger
   *[other] { $count } actions waiting — not yet in the ledger
}
sync-offline = no connection: kept on this tablet, sent as soon as the ledger can be reached
sync-sending = sending…
sync-refused = { $count ->
    [one] 1 action refused — see below
   *[other] { $count } actions refused — see below
}
sync-conflict = { $count ->
    [one] Another device recorded 1 event meanwhile: your waiting actions were decided again.
   *[other] Another device recorded { $count } events meanwhile: your waiting actions were decided again.
}
sync-signin = The ledger asks this tablet to sign in again: your actions stay here until then.
sync-not-kept = This tablet could not keep that action: it is NOT recorded and will not be sent. Do it again.
refused-title = Refused — kept on this tablet
refused-tapped-at = tapped at { $time }
refused-hand-to-jury = Hand them to the jury
refused-export = Export
refused-handed = Handed to the jury as event { $seq }.
refused-jury-text = Actions refused by the ledger, kept by table { $actor }: { $actions }
refusal-by-ledger = The ledger refused it: { $message }
refusal-stale = The game moved on: another device recorded first.
refusal-exhausted = This game holds every event a game may ever need: call the jury, who will look at what filled it.
refusal-unreachable = The ledger cannot be reached.
manifest-table = Table

# The plain-HTTP port's redirect to HTTPS (issue 34, ledgerd --http-redirect-listen).
redirect-unknown-host = This address is not one of this ledger's. Open the address the organiser gave you, starting with https://.
