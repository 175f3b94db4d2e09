# The table's refusals (table-rules.js), in English: each message is the sentence the ledger
# itself gives (ledger/src/rules/game.rs, ledger/src/event/shape.rs), word for word, so that an
# offline refusal reads like the ledger's. Names (nations, roles, sides, event types, rulesets)
# arrive as their snake_case spelling, as the ledger prints them; numbers are written without
# grouping, as Rust prints them. Format with `useIsolating: false` to get the ledger's text.

## Names, for labels and for translating the names the refusals carry.

nation-prussia = Prussia
nation-hanover = Hanover
nation-russia = Russia
nation-sweden = Sweden
nation-austria = Austria
nation-imperial_army = Imperial Army
nation-france = France

role-frederick = Frederick
role-elisabeth = Elisabeth
role-maria_theresa = Maria Theresa
role-pompadour = Pompadour

side-prussia = Prussia
side-attackers = Attackers

stop-combat = Combat
stop-jury = Jury
stop-discussion = Rules discussion
stop-break = Break
stop-turn_end = End of turn

outcome-prussian_defensive_victory = Prussian defensive victory
outcome-prussian_offensive_victory = Prussian offensive victory
outcome-allied_victory = Allied victory

ruleset-wm2015 = World Championship 2015 (WM)
ruleset-cafe2019 = CAFE 2019
ruleset-cafe2023 = CAFE 2023

## An event the table cannot read or does not record.

# $detail (String) - what is wrong with the event, as the ledger's parser says it
refusal-unreadable = { $detail }
# $type (String) - the event's type
refusal-not-at-the-table = { $type } is not recorded at the table

## Malformed whatever the game (ledger/src/event/shape.rs).

# $field (String) - e.g. jury_called.reason; $code (String) - hex, e.g. 001B; $position (Number) - 1-based
refusal-control-character = { $field } must not contain control characters: found U+{ $code } at character { NUMBER($position, useGrouping: 0) }
# $field (String); $length (Number); $max (Number)
refusal-too-long = { $field } is { NUMBER($length, useGrouping: 0) } characters long; at most { NUMBER($max, useGrouping: 0) } are allowed
# $field (String)
refusal-blank = { $field } must not be blank
refusal-turn-zero = turns start at 1
# $count (Number)
refusal-tc-count-negative = a count of tactical cards dealt must not be negative, got { NUMBER($count, useGrouping: 0) }
# $total (Number)
refusal-objectives-total = objectives total must be more than 0, got { NUMBER($total, useGrouping: 0) }
# $held (Number); $total (Number)
refusal-objectives-held = objectives held must be between 0 and the total { NUMBER($total, useGrouping: 0) }, got { NUMBER($held, useGrouping: 0) }
# $nation (String); $total (Number)
refusal-nation-objectives-total = { $nation }: objectives total must be more than 0, got { NUMBER($total, useGrouping: 0) }
# $nation (String); $held (Number); $total (Number)
refusal-nation-objectives-held = { $nation }: objectives held must be between 0 and the total { NUMBER($total, useGrouping: 0) }, got { NUMBER($held, useGrouping: 0) }
# $value (Number)
refusal-set-aside-tc-below-one = the card set aside is the value of a tactical card, at least 1, got { NUMBER($value, useGrouping: 0) }
# $count (Number)
refusal-austria-count-negative = the objectives Austria claims must not be negative, got { NUMBER($count, useGrouping: 0) }
# $held (Number); $max (Number) - 14
refusal-bohemian-range = the Bohemian objectives Prussia holds must be between 0 and { NUMBER($max, useGrouping: 0) }, got { NUMBER($held, useGrouping: 0) }
# $nation (String)
refusal-objectives-not-attacking = objectives are reported for attacking nations only, not { $nation }
# $nation (String)
refusal-winner-twice = { $nation } is listed twice among the winners
# $role (String) - the role named in imperial_army_switched
refusal-imperial-army-role = the imperial army can pass only to elisabeth or pompadour, not { $role }

## Refused in the game as it stands (ledger/src/rules/game.rs).

# $type (String)
refusal-not-started = the game has not started: its start comes before { $type }
refusal-already-started = the game has already started
# $turn (Number); $outcome (String); $type (String)
refusal-game-over = the game ended in turn { NUMBER($turn, useGrouping: 0) } ({ $outcome }); only the jury may record events now, not { $type }
# $type (String); $turn (Number) - the corrected turn; $current (Number)
refusal-turn-ahead = { $type } is recorded for turn { NUMBER($turn, useGrouping: 0) }, but the game is in turn { NUMBER($current, useGrouping: 0) }
# $at_ms (Number); $last_at_ms (Number)
refusal-time-goes-back = the table time { NUMBER($at_ms, useGrouping: 0) } goes back: the table clock already read { NUMBER($last_at_ms, useGrouping: 0) }
# $given (String); $scheduled (String) - rulesets
refusal-ruleset-differs = the game names the ruleset { $given }, but the tournament plays { $scheduled }
refusal-ruleset-missing = this game is not scheduled in any tournament: choose its ruleset when it starts
# $turn (Number); $next (Number)
refusal-turn-repeats = turn { NUMBER($turn, useGrouping: 0) } repeats a turn: turn { NUMBER($next, useGrouping: 0) } comes next
# $turn (Number); $next (Number)
refusal-turn-skips = turn { NUMBER($turn, useGrouping: 0) } skips a turn: turn { NUMBER($next, useGrouping: 0) } comes next
# $turn (Number); $max (Number) - 23
refusal-turn-past-last = turn { NUMBER($turn, useGrouping: 0) } is past the last turn: a game has at most { NUMBER($max, useGrouping: 0) } turns (Frederick's maximum of 23/2 = 11.5 points)
refusal-no-turn-yet = no turn has started yet: turn 1 comes first
# $nation (String); $turn (Number)
refusal-nation-out = { $nation } already dropped out in turn { NUMBER($turn, useGrouping: 0) }
# $side (String) - prussia or attackers
refusal-clock-already-runs = the clock already runs for { $side }
refusal-no-clock-to-press = no clock is running to press
refusal-no-clock-to-stop = no clock is running to stop
# $nation (String) - the nation still acting
refusal-stage-open = the action stage of { $nation } has not ended
# $nation (String); $acting (String)
refusal-stage-other-acting = the action stage of { $nation } was not started: { $acting } is acting
# $nation (String)
refusal-stage-not-started = the action stage of { $nation } was not started
refusal-retreat-open = a retreat is already under way
refusal-no-retreat = no retreat was started
# $nation (String)
refusal-cannot-drop-out = { $nation } cannot drop out: only russia, sweden and france leave by a Card of Fate
# $role (String)
refusal-imperial-army-already = the imperial army is already controlled by { $role }
# $turn (Number)
refusal-offensive-already-launched = the prussian offensive was already launched in turn { NUMBER($turn, useGrouping: 0) }
# $ruleset (String) - cafe2019; $min (Number) - 10; $value (Number)
refusal-set-aside-tc-too-low = { $ruleset }: the tactical card set aside for the offensive must be worth at least { NUMBER($min, useGrouping: 0) }, got { NUMBER($value, useGrouping: 0) }
refusal-claim-no-offensive = austria can claim objectives only during a prussian offensive, and none was launched
# $turn (Number)
refusal-claim-offensive-called-off = austria can claim objectives only during a prussian offensive, and it was called off in turn { NUMBER($turn, useGrouping: 0) }
refusal-pick-up-no-offensive = the set-aside tactical card can be picked up only during a prussian offensive, and none was launched
# $turn (Number)
refusal-pick-up-offensive-called-off = the set-aside tactical card can be picked up only during a prussian offensive, and it was called off in turn { NUMBER($turn, useGrouping: 0) }
refusal-call-off-no-offensive = the offensive can be called off only during a prussian offensive, and none was launched
# $turn (Number)
refusal-call-off-offensive-called-off = the offensive can be called off only during a prussian offensive, and it was called off in turn { NUMBER($turn, useGrouping: 0) }
refusal-austria-already-claimed = austria already claimed her objectives
# $ruleset (String); $expected (Number) - 4; $count (Number)
refusal-austria-claims-four = { $ruleset }: austria claims exactly { NUMBER($expected, useGrouping: 0) } objectives, got { NUMBER($count, useGrouping: 0) }
refusal-set-aside-already-picked-up = the set-aside tactical card was already picked up
# $earliest (Number) - 3; $turn (Number)
refusal-set-aside-too-early = the set-aside tactical card can be picked up from turn { NUMBER($earliest, useGrouping: 0) } on, and the game is in turn { NUMBER($turn, useGrouping: 0) }
# $turn (Number); $launched_in (Number)
refusal-call-off-before-launch = the offensive cannot be called off in turn { NUMBER($turn, useGrouping: 0) }: it was launched in turn { NUMBER($launched_in, useGrouping: 0) }
# $outcome (String); $winners (String) - the winners as listed, joined by ", "
refusal-prussian-winners = a { $outcome } has prussia as its only winner, not [{ $winners }]
refusal-allied-no-winner = an allied victory needs at least one attacking winner
# $nation (String)
refusal-winner-not-attacking = { $nation } cannot win an allied victory
# $nation (String); $turn (Number)
refusal-winner-out = winner: { $nation } already dropped out in turn { NUMBER($turn, useGrouping: 0) }
# $nation (String)
refusal-objectives-missing = the end of the game must report the objectives of { $nation }, still in the game
# $nation (String); $turn (Number)
refusal-objectives-fixed = { $nation } dropped out in turn { NUMBER($turn, useGrouping: 0) }: its objectives were fixed then
refusal-bohemian-missing = the prussian offensive is still active: the end of the game must say how many Bohemian objectives Prussia holds
refusal-bohemian-not-active = the Bohemian objectives Prussia holds are reported only while the prussian offensive is active
refusal-offensive-victory-not-active = a Prussian offensive victory needs an active prussian offensive
# $max (Number) - 14; $held (Number)
refusal-offensive-victory-bohemian = a Prussian offensive victory means prussia holds all { NUMBER($max, useGrouping: 0) } Bohemian objectives, got { NUMBER($held, useGrouping: 0) }

# A public hall is hostile (issue 35): a tactical-card count beyond any deal
# $count (Number); $max (Number)
refusal-tc-count-above-deal = { NUMBER($count, useGrouping: 0) } tactical cards are more than a nation is dealt in one turn: at most { NUMBER($max, useGrouping: 0) }
# $nation (String); $before (Number); $turn (Number); $count (Number); $max (Number)
refusal-tc-turn-above-deal = { $nation } was dealt { NUMBER($before, useGrouping: 0) } tactical cards in turn { NUMBER($turn, useGrouping: 0) } already; { NUMBER($count, useGrouping: 0) } more is more than a deal: at most { NUMBER($max, useGrouping: 0) } a turn
