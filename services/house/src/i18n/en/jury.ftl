# The jury's desk (/jury) and a ruling recorded from a game's viewer.
desk-title = The jury's desk
desk-lead = { $count ->
    [0] No call waits for the jury.
    [one] 1 call waits for a ruling, oldest first. The page follows by itself.
   *[other] { $count } calls wait for a ruling, oldest first. The page follows by itself.
}
desk-none = Nothing to rule on.
desk-col-game = Game
desk-col-event = Event
desk-col-when = Called at
desk-col-reason = Reason
desk-rule-title = Rule
desk-field-ruling = The ruling
desk-field-void = Correct an event recorded in error
desk-field-voids = Events to void (their numbers; the game's end after it too, so the whole ruling is judged at once)
desk-void-none = none
desk-field-corrected = Record instead (one event a line, as JSON; choosing an event above fills in every field, to edit)
desk-rule-hint = The ruling, its voids and what it records are recorded together or not at all, and judged as a whole: the game after the ruling must be valid. The voided events stay in the game, struck through, with the ruling beside them.
desk-preview-title = Check the ruling before recording it
desk-preview-lead = The ruling records these events in game { $game }, in this order:
desk-sheet-before = The score sheet now
desk-sheet-after = The score sheet after the ruling
desk-back = Back to the game
desk-ruled = The ruling is recorded.
desk-error-void = The event to void is a number of the game's events.
desk-error-corrected = The corrected event cannot be read: it is one event as JSON, as the list above shows them.
index-jury = The jury's desk: every call waiting for a ruling
desk-horizons-title = Games ended without the fate horizon
desk-horizons-hint = The CAFE 2023 sTCC tie-breaker needs, for a game Prussia did not win defensively, the turn the Cards of Fate would have ended it. Record it while the table remembers: without it the tie-breaker is unavailable for these players.
desk-horizon-turn = Turn
desk-horizons-more = The first { $shown } of { $count } games are listed; each one recorded brings the next.
jury-proof-title = In the ledger's signed log
jury-proof-lead = The game's { $seq } events, from its first to its last (chain head { $digest }), are in the ledger's signed checkpoint of { $size } events, which commits to the game's last event as its head: the proof file shows the game whole, nothing left out at either end. Save it and check it offline with the ledger's public key.
jury-proof-download = Download the proof file
jury-proof-pending = No signed checkpoint holds this game's last event yet: ledgerd signs one when a round ends and at its checkpoint interval. Reload the page later.
jury-proof-unsigned = This ledgerd signs no checkpoints (it was started without --signing-key), so it cannot prove the game to anyone who does not trust it.
