# Tournament Ledger pages: English. Every message here has its Spanish twin in es/pages.ftl
# (a test checks that both name the same messages). Names of nations, roles, sides, stop
# reasons and outcomes, and the rules' refusals, are in rules.ftl.

site-name = Tournament Ledger
nav-signin = Sign in
nav-signout = Sign out
lang-other = Español
who-public = public
who-unknown = unknown token: sign in again
who-open = open ledgerd
# $table (Number); $tournament (String) - a table's code signed in
who-table = table { $table } of { $tournament }

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
table-at = Table { $table }, round { $round }
table-at-final = Table { $table }, the final
table-deal = Deal the standard cards for turn { $turn }
table-deal-changed = Deal these cards
table-deal-legend = Tactical cards this turn: change a nation only where a Card of Fate lowers its deal.
table-dealt-all = Tactical cards dealt for turn { $turn }.
table-more-stage = Action stage or retreat
table-more-drop = A nation drops out
table-more-switch = The Imperial Army changes hands
table-more-offensive = The Prussian offensive
table-more-end = End the game
table-more-jury = Call the jury
table-close = Close
table-take-back = Take back
table-taken-back = Taken back: it never reached the ledger.
table-take-back-too-late = That action is already on its way to the ledger: once it is recorded, ask the jury to correct it.
table-correct = Correct…
table-correct-title = Ask the jury to correct this event
table-correcting = Ask the jury to correct event { $seq }: { $event }
table-correct-should = What it should be
table-correct-send = Ask the jury to correct it
table-correct-empty = Say what it should be.
table-correction-reason = Table asks to correct event { $seq } ({ $event }): it should be: { $should }
table-score-pending = pending
table-score-running = Turn { $turn }, the game goes on:
table-score-ended = Ended in turn { $turn }: { $outcome }
table-score-in-game = still in the game
table-score-won = won, { $score } points
table-score-lost = { $score } points
table-score-out = out in turn { $turn } with { $held } of { $total } objectives, { $score } points
table-score-held = { $held } of { $total } objectives, { $score } points
table-event-unknown = An event the table does not record
table-event-objectives-of = { $nation } { $held } of { $total }
table-event-game_started = The game started at { $time }
table-event-turn_started = Turn { $turn } started
table-event-tc_dealt = { $count ->
    [one] { $nation } was dealt 1 tactical card
   *[other] { $nation } was dealt { $count } tactical cards
}
table-event-clock_started = { $side }'s clock started at { $time }
table-event-clock_pressed = The clock was handed over at { $time }
table-event-clock_stopped = The clock was stopped ({ $reason }) at { $time }
table-event-action_stage_started = { $nation }'s action stage started at { $time }
table-event-action_stage_ended = { $nation }'s action stage ended at { $time }
table-event-retreat_started = A retreat of { $length } started at { $time }
table-event-retreat_ended = The retreat ended at { $time }
table-event-fate_card_drawn = Card of Fate drawn: { $card }
table-event-nation_dropped_out = { $nation } dropped out with { $objectives_held } of { $objectives_total } objectives
table-event-imperial_army_switched = The Imperial Army passed to { $to } with { $objectives_held } of { $objectives_total } objectives
table-event-offensive_launched = Frederick launched the offensive, setting aside a card worth { $set_aside_tc }
table-event-austria_claimed_objectives = Austria claimed { $count } objectives
table-event-set_aside_tc_picked_up = Austria picked up the card Frederick set aside
table-event-offensive_called_off = The offensive was called off, Prussia holding { $bohemian_held_by_prussia } Bohemian objectives
table-event-game_ended = The game ended: { $outcome }; winners { $winners }; objectives { $objectives }
table-event-fate_horizon_recorded = The jury read the Clock of Fate: turn { $turn }
table-event-jury_called = The jury was called: { $reason }
table-event-jury_ruling = The jury ruled: { $text }
table-event-event_voided = The jury voided event { $seq }: { $reason }
table-event-name-game_started = the start of the game
table-event-name-turn_started = the start of a turn
table-event-name-tc_dealt = the tactical cards dealt
table-event-name-clock_started = the clock's start
table-event-name-clock_pressed = a press of the clock
table-event-name-clock_stopped = the clock's stop
table-event-name-action_stage_started = the start of an action stage
table-event-name-action_stage_ended = the end of an action stage
table-event-name-retreat_started = the start of a retreat
table-event-name-retreat_ended = the end of a retreat
table-event-name-nation_dropped_out = a nation's drop-out
table-event-name-imperial_army_switched = the Imperial Army's change of hands
table-event-name-offensive_launched = the launch of the offensive
table-event-name-austria_claimed_objectives = Austria's claim
table-event-name-set_aside_tc_picked_up = the pick-up of the set-aside card
table-event-name-offensive_called_off = the call-off of the offensive
table-event-name-game_ended = the end of the game
table-event-name-jury_called = a call to the jury

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
# Clearances, as the header names who is signed in (the table's script rewords it).
clearance-public = public
clearance-analyst = analyst
clearance-table = table
clearance-organiser = organiser
clearance-jury = jury

# A player the tournament knows by no pseudonym, numbered by the ledger (ledger_house::words::alias, table.js).
# $n (Number)
alias-player = player { $n }
# $n (Number)
alias-stand-in = stand-in { $n }
