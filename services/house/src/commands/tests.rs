use super::roster::{parse, slug, LineProblem};
use super::*;

fn tournament(events: &[Event]) -> Tournament {
    let id = StreamId::tournament("open26").unwrap();
    let mut stream = StreamState::new(&id, None);
    for event in events {
        stream.apply(event).unwrap();
    }
    Tournament { id, stream, version: events.len() as u64 }
}

fn created() -> Vec<Event> {
    vec![Event::TournamentCreated { name: "Open 26".into(), ruleset: Ruleset::Cafe2023, clock_ms_per_side: None }]
}

fn person(name: &str, pseudonym: Option<&str>, id: Option<&str>) -> Registration {
    Registration {
        player: id.map(str::to_owned),
        name: name.into(),
        pseudonym: pseudonym.map(str::to_owned),
        stand_in: false,
    }
}

#[test]
fn a_pasted_list_reads_in_any_of_the_three_separators_and_skips_a_header() {
    for text in [
        "Nombre\tSeudónimo\nAna García\tLoba\nJosé Núñez\t\tjn7\n",
        "name;pseudonym;id\nAna García;Loba\nJosé Núñez;;jn7\n",
        "\u{feff}Ana García, Loba\n\n\"José Núñez\",,jn7\n",
    ] {
        let (good, bad) = parse(text, false);
        assert!(bad.is_empty(), "{text:?}: {bad:?}");
        let people: Vec<_> = good.iter().map(|l| l.registration.clone()).collect();
        assert_eq!(people, vec![person("Ana García", Some("Loba"), None), person("José Núñez", None, Some("jn7"))]);
    }
}

#[test]
fn a_malformed_line_is_named_by_its_number() {
    let (good, bad) = parse("Ana, Loba\n, nobody\nJosé, Lince, jn, extra\n", false);
    assert_eq!(good.len(), 1);
    assert_eq!(
        bad.iter().map(|b| (b.number, b.problem.clone())).collect::<Vec<_>>(),
        vec![(2, LineProblem::NoName), (3, LineProblem::Columns(4))]
    );
    assert_eq!(bad[1].text, "José, Lince, jn, extra");
}

#[test]
fn ids_are_made_from_names_and_never_taken_twice() {
    assert_eq!(slug("José García-Núñez"), "jose-garcia-nunez");
    assert_eq!(slug("  Łódź 2 "), "odz-2");
    assert_eq!(slug("王"), "player");
    let mut events = created();
    events.push(Event::PlayerRegistered { player: "ana-garcia".into(), name: "Ana García".into(), pseudonym: None });
    let t = tournament(&events);
    let plan =
        plan(&t, Command::Register(vec![person("Ana García", None, None), person("Ana Garcia", None, None)])).unwrap();
    let ids: Vec<_> = plan
        .events
        .iter()
        .map(|e| match e {
            Event::PlayerRegistered { player, .. } => player.clone(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(ids, ["ana-garcia-2", "ana-garcia-3"]);
}

#[test]
fn every_refused_line_of_a_list_is_found_and_the_plan_is_refused() {
    let mut events = created();
    events.push(Event::PlayerRegistered { player: "p1".into(), name: "Ann".into(), pseudonym: Some("Loba".into()) });
    let t = tournament(&events);
    let list = vec![
        person("Bea", Some("loba "), None),        // the pseudonym is Ann's
        person("Carl", Some("Lince"), Some("p1")), // the id is Ann's
        person("Dora", Some("Lince"), None),       // Carl's pseudonym, were Carl recorded: he is not
        person("Eve", Some("Oso"), None),
    ];
    let events: Vec<Event> =
        roster::with_ids(t.state().unwrap(), list.clone()).iter().map(Registration::to_event).collect();
    let refused = check(&t, &events).unwrap_err();
    assert_eq!(refused.iter().map(|r| r.index).collect::<Vec<_>>(), vec![0, 1]);
    assert!(refused[0].rejection.message.contains("already p1's"), "{:?}", refused[0]);
    let error = plan(&t, Command::Register(list)).unwrap_err();
    assert!(error.to_string().contains("event 1 of 4"), "{error}");
}

#[test]
fn the_draw_and_a_withdrawal_show_what_they_will_record() {
    let mut events = created();
    for n in 1..=6 {
        events.push(Event::PlayerRegistered { player: format!("p{n}"), name: format!("P {n}"), pseudonym: None });
    }
    events.push(Event::StandInRegistered { player: "s1".into(), name: "S 1".into() });
    events.push(Event::StandInRegistered { player: "s2".into(), name: "S 2".into() });
    events.push(Event::StandInRegistered { player: "s3".into(), name: "S 3".into() });
    let t = tournament(&events);
    let draw = plan(&t, Command::Draw { seed: 7 }).unwrap();
    let Shows::Draw(shown) = &draw.shows else { panic!("{:?}", draw.shows) };
    assert_eq!(shown.stand_ins, ["s1", "s2"]);
    assert!(shown.games.iter().all(|g| g.game.starts_with("open26-q")));
    events.extend(draw.events);
    let t = tournament(&events);
    let withdrawal = plan(&t, Command::Withdraw { player: "p1".into(), from_round: 3, stand_in: None }).unwrap();
    let Shows::Withdrawal { stand_in, games } = &withdrawal.shows else { panic!() };
    assert_eq!(stand_in.as_deref(), Some("s3"), "the first stand-in free in rounds 3 and 4");
    assert_eq!(games.len(), 2);
    // Nothing is decided twice: a second draw is the rules' refusal.
    assert!(plan(&t, Command::Draw { seed: 7 }).unwrap_err().to_string().contains("already recorded"));
}

#[test]
fn a_fix_takes_the_registration_back_and_makes_it_again_in_one_plan() {
    let mut events = created();
    events.push(Event::PlayerRegistered { player: "ana".into(), name: "Anna".into(), pseudonym: None });
    let t = tournament(&events);
    let fixed = plan(&t, Command::Fix { player: "ana".into(), with: person("Ana", Some("Loba"), None) }).unwrap();
    assert_eq!(
        fixed.events,
        vec![
            Event::PlayerUnregistered { player: "ana".into() },
            Event::PlayerRegistered { player: "ana".into(), name: "Ana".into(), pseudonym: Some("Loba".into()) },
        ]
    );
    let missing = tournament(&[]);
    assert_eq!(plan(&missing, Command::Draw { seed: 1 }).unwrap_err().code(), crate::error::Code::NotFound);
}
