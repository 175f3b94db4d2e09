# The jury's typed values in words (ledger_house::words::sheet): a game's score sheet and the
# game at an audited point, as the desk and the replay viewer show them.

## The score sheet.

# $ruleset (String); $turn (Number)
sheet-in-progress = { $ruleset }: turn { $turn }, the game is in progress
# $ruleset (String); $turns (Number); $outcome (String); $winners (String)
sheet-ended = { $ruleset }: { $turns } turns, { $outcome }, won by { $winners }
sheet-pending = not yet
sheet-won = won
# $turn (Number)
sheet-out-in = out in turn { $turn }
sheet-col-role = Role
sheet-col-score = Score
sheet-col-nations = Nations
sheet-col-used = Counts
sheet-entry-at-switch = Imperial Army at the switch
# $value (String)
sheet-tcc = TCC { $value }
sheet-tcc-none = No TCC yet
# $value (String)
sheet-stcc = sTCC { $value }
# $why (String)
sheet-stcc-none = No sTCC: { $why }
# $turn (Number)
sheet-horizon = Fate horizon: turn { $turn }
# $ruleset (String)
sheet-stcc-not-in-ruleset = { $ruleset } uses no sTCC
sheet-stcc-not-ended = the game has not ended
sheet-stcc-no-tcc = there is no TCC
sheet-stcc-no-horizon = the jury has not recorded the fate horizon
sheet-error-not-started = No score sheet: the game has not started.
sheet-error-no-ruleset = No score sheet: the game names no ruleset and no tournament scheduled it.
sheet-error-not-a-game = No score sheet: the stream holds events of another kind.
sheet-error-inconsistent = No score sheet: the events do not make a game that can be scored.

## The game at a point.

# $seq (Number); $time (String); $event (String)
point-after = After event { $seq } (table time { $time }): { $event }
point-no-time = none yet
point-voids = Voided by the jury so far:
# $seq (Number); $reason (String)
point-voided-by = voided by event { $seq }: { $reason }
point-no-ruleset = no ruleset yet
point-not-started = not started
# $turn (Number); $outcome (String)
point-ended = ended in turn { $turn }: { $outcome }
point-no-turn = started, no turn yet
# $turn (Number)
point-turn = turn { $turn }, in progress
# $ruleset (String); $standing (String)
point-game = Game: { $ruleset }, { $standing }
# $role (String)
point-imperial-army = The Imperial Army is { $role }'s
point-offensive-none = Prussian offensive: not launched
# $turn (Number)
point-offensive-active = Prussian offensive: under way since turn { $turn }
# $launched (Number); $called_off (Number)
point-offensive-called-off = Prussian offensive: launched in turn { $launched }, called off in turn { $called_off }
point-austria-claimed = Austria claimed her objectives
point-set-aside-picked-up = The set-aside card was picked up
# $nation (String)
point-stage = Action stage open: { $nation }
point-stage-none = No action stage open
point-retreat = A retreat is under way
# $side (String)
point-clock-running = { $side }'s clock runs
# $reason (String)
point-clock-stopped = the clock is stopped ({ $reason })
point-clock-idle = the clock is not running
# $running (String); $prussia (String); $attackers (String)
point-clock = Clock: { $running }; Prussia { $prussia } left, Attackers { $attackers } left
point-in-game = in the game
point-col-nation = Nation
point-col-status = Standing
point-col-controller = Played by
point-col-tc = Tactical cards

## The timeline.

# $seq (Number); $reason (String)
timeline-voided = voided by event { $seq }: { $reason }
# $seq (Number); $text (String)
timeline-ruling = ruling { $seq }: { $text }
