//! Golden hashes: the chain hash of one representative record of every event variant (optional
//! fields absent and present), of every envelope field changed on its own, and the storage bytes
//! of a few records, all pinned as literals.
//!
//! A recorded chain must verify for ever, so nothing that feeds the hash — field order, serde
//! attributes, postcard, the canonical JSON, the hash input — may change silently. When one of
//! these tests fails, do not paste the new value: a change to the hash needs a new chain scheme
//! (the hash input's `scheme` string) with the old chains still verifying under
//! `tournament-ledger/chain/v1` (docs/DECISIONS.md, "Golden hashes pin the chain").
//!
//! Each entry also pins its canonical JSON text, so a failure says whether the JSON changed (a
//! `canonical JSON changed` line) or only the hash input around it (a `chain hash changed` line
//! alone). `hash_input_layout` spells that input out byte by byte without calling the ledger.

use ledger::andes::{AndesEvent, EndReason, PieceKind, Side, Square};
use ledger::envelope::{chain_hash, decode_record, encode_record, Draft, Hash, GENESIS};
use ledger::event::{from_canonical_json, to_canonical_json, DrawnGame, Family, Seats};
use ledger::{ClockSide, Event, Nation, Outcome, Recorded, Role, Ruleset, Stage, StopReason, StreamId};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};

/// The fixed, non-zero previous hash every golden record points back to. Not a repeated byte, so
/// that a reversed or shifted hash would show.
const PREV_HASH: &str = "0f1e2d3c4b5a69788796a5b4c3d2e1f00123456789abcdeffedcba9876543210";

fn prev_hash() -> Hash {
    hex::decode(PREV_HASH).unwrap().try_into().unwrap()
}

/// The fixed envelope of every golden record; the stream follows the event's family (jury
/// events go on a game stream, where they are most often recorded).
fn draft_for(event: &Event) -> Draft {
    let stream = match event.family() {
        Family::Tournament => StreamId::tournament("golden").unwrap(),
        Family::Game | Family::Jury => StreamId::game("golden").unwrap(),
        Family::Andes => StreamId::andes("golden").unwrap(),
    };
    Draft {
        stream,
        seq: 7,
        position: 1234,
        event_id: "golden-7".into(),
        recorded_at_ms: 1_767_225_600_000, // 2026-01-01T00:00:00Z
        actor: "jury".into(),
    }
}

/// One pinned case: a representative event, its canonical JSON text and the hash of its record.
struct Golden {
    label: &'static str,
    event: Event,
    json: &'static str,
    hash: &'static str,
}

fn golden(label: &'static str, event: Event, json: &'static str, hash: &'static str) -> Golden {
    Golden { label, event, json, hash }
}

fn seats(a: &str, b: &str, c: &str, d: &str) -> Seats {
    Seats { frederick: a.into(), elisabeth: b.into(), maria_theresa: c.into(), pompadour: d.into() }
}

/// Every variant of [`Event`], with each optional field both absent and present.
fn goldens() -> Vec<Golden> {
    vec![
        // --- tournament stream ---
        golden(
            "tournament_created",
            Event::TournamentCreated {
                name: "Friedrich World Championship 2026".into(),
                ruleset: Ruleset::Wm2015,
                clock_ms_per_side: None,
            },
            r#"{"type":"tournament_created","name":"Friedrich World Championship 2026","ruleset":"wm2015"}"#,
            "16e662b2376ca439c60a934965343633888677cccea9efc53a66272aa0f6e5e5",
        ),
        golden(
            "tournament_created with clock_ms_per_side",
            Event::TournamentCreated {
                name: "CAFE Open 2026".into(),
                ruleset: Ruleset::Cafe2023,
                clock_ms_per_side: Some(5_400_000),
            },
            r#"{"type":"tournament_created","name":"CAFE Open 2026","ruleset":"cafe2023","clock_ms_per_side":5400000}"#,
            "9cb6c7968fc5a80280df10fcb5e87bb0e5057f007b72be147036a404a07d8c1d",
        ),
        golden(
            "player_registered",
            Event::PlayerRegistered { player: "p01".into(), name: "Łukasz Müller".into(), pseudonym: None },
            r#"{"type":"player_registered","player":"p01","name":"Łukasz Müller"}"#,
            "53759fd700e180a8f8c0c56051a78504ff3242415a6893aa7359022e7e4b1168",
        ),
        golden(
            "player_registered with pseudonym",
            Event::PlayerRegistered {
                player: "p02".into(),
                name: "Anna Kowalska".into(),
                pseudonym: Some("Old Fritz".into()),
            },
            r#"{"type":"player_registered","player":"p02","name":"Anna Kowalska","pseudonym":"Old Fritz"}"#,
            "1d79a3cf9bb7d291215130acf1ebe57c37532abe5c0db890d759d269933a4591",
        ),
        golden(
            "qualifying_drawn",
            Event::QualifyingDrawn {
                // Above 2^53: the seed must stay exact in JSON.
                seed: 0xDEAD_BEEF_CAFE_F00D,
                games: vec![
                    DrawnGame { game: "q1-t1".into(), round: 1, table: 1, seats: seats("p01", "p02", "p03", "p04") },
                    DrawnGame { game: "q1-t2".into(), round: 1, table: 2, seats: seats("p05", "p06", "p07", "p08") },
                ],
            },
            r#"{"type":"qualifying_drawn","seed":16045690984503111693,"games":[{"game":"q1-t1","round":1,"table":1,"seats":{"frederick":"p01","elisabeth":"p02","maria_theresa":"p03","pompadour":"p04"}},{"game":"q1-t2","round":1,"table":2,"seats":{"frederick":"p05","elisabeth":"p06","maria_theresa":"p07","pompadour":"p08"}}]}"#,
            "02248f5992e1ea987fc8c457c668c77b8b181bce2bf53fec209c9d051df77ece",
        ),
        golden(
            "game_scheduled",
            Event::GameScheduled {
                game: "final-t1".into(),
                stage: Stage::Final,
                round: 5,
                table: 1,
                seats: seats("p03", "p01", "p04", "p02"),
            },
            r#"{"type":"game_scheduled","game":"final-t1","stage":"final","round":5,"table":1,"seats":{"frederick":"p03","elisabeth":"p01","maria_theresa":"p04","pompadour":"p02"}}"#,
            "22d04a621d470a3d298cf766095ff12eb92c63a4b0e4f46ec110230601e6113b",
        ),
        golden(
            "final_role_chosen",
            Event::FinalRoleChosen { player: "p01".into(), role: Role::MariaTheresa },
            r#"{"type":"final_role_chosen","player":"p01","role":"maria_theresa"}"#,
            "73706e53a6f5bc172df67d81d1c8334ba42d2ea80cdc3ffa1a4bc0c8611dfd70",
        ),
        golden(
            "lot_drawn",
            Event::LotDrawn {
                purpose: "final seating".into(),
                seed: 42,
                order: vec!["p03".into(), "p01".into(), "p04".into(), "p02".into()],
            },
            r#"{"type":"lot_drawn","purpose":"final seating","seed":42,"order":["p03","p01","p04","p02"]}"#,
            "09901319217132fe42ca2244cdd300206f7ab5e9f1b58dac7f64e6ebe742c4fc",
        ),
        // --- game stream ---
        golden(
            "game_started",
            Event::GameStarted { at_ms: 0, ruleset: None, tournament: None },
            r#"{"type":"game_started","at_ms":0}"#,
            "b5d61c56fc9734deac8271b253f825e4b827fc71e68a1015748a88a1e15a44c1",
        ),
        golden(
            "game_started with ruleset",
            Event::GameStarted { at_ms: 1_000, ruleset: Some(Ruleset::Cafe2019), tournament: None },
            r#"{"type":"game_started","at_ms":1000,"ruleset":"cafe2019"}"#,
            "a7fa50faa9e6bba38d652fc53b33473c51261cb8f944dad357976026150a126f",
        ),
        golden(
            "game_started with tournament",
            Event::GameStarted { at_ms: 2_000, ruleset: None, tournament: Some("wm26".into()) },
            r#"{"type":"game_started","at_ms":2000,"tournament":"wm26"}"#,
            "f05dbbb4838fe4dae1bc1ef30b1c31200687b2fccad0a019ffb577794ac128ac",
        ),
        golden(
            "game_started with ruleset and tournament",
            Event::GameStarted { at_ms: 3_000, ruleset: Some(Ruleset::Wm2015), tournament: Some("wm26".into()) },
            r#"{"type":"game_started","at_ms":3000,"ruleset":"wm2015","tournament":"wm26"}"#,
            "dda0e3b62401f193dad62083496f7416872134fa45b3d07a1c04377e2bbc9705",
        ),
        golden(
            "turn_started",
            Event::TurnStarted { turn: 1, at_ms: None },
            r#"{"type":"turn_started","turn":1}"#,
            "a2fae94eb2b584d51f63319645ff708f272c5e06074e7728276686b8a670834c",
        ),
        golden(
            "turn_started with at_ms",
            Event::TurnStarted { turn: 3, at_ms: Some(4_200_000) },
            r#"{"type":"turn_started","turn":3,"at_ms":4200000}"#,
            "bcb3a9b26d249e69a6d1ee60273e42ea1109efa75167e35fb1e4241c2ef70a55",
        ),
        golden(
            "tc_dealt",
            Event::TcDealt { nation: Nation::Prussia, count: 7 },
            r#"{"type":"tc_dealt","nation":"prussia","count":7}"#,
            "7cee4d6c3e13d8b6fdbd61b466cb6a50dae55a52024db562c022b8ab7bd70bb0",
        ),
        golden(
            "clock_started",
            Event::ClockStarted { side: ClockSide::Attackers, at_ms: 60_000 },
            r#"{"type":"clock_started","side":"attackers","at_ms":60000}"#,
            "61801897b4485194707ec26e07aa32aabf0cdcfc0a897487661a7b3f490ca5a1",
        ),
        golden(
            "clock_pressed",
            Event::ClockPressed { at_ms: 61_500 },
            r#"{"type":"clock_pressed","at_ms":61500}"#,
            "6afb6eab23c728163039709207957334407401868da84c999524b307f0f9e3ef",
        ),
        golden(
            "clock_stopped",
            Event::ClockStopped { reason: StopReason::TurnEnd, at_ms: 62_250 },
            r#"{"type":"clock_stopped","reason":"turn_end","at_ms":62250}"#,
            "cdbb349a3792a7e9e2d64b8ad78ac153defce10c11e8f06f61f595cd50ee875d",
        ),
        golden(
            "action_stage_started",
            Event::ActionStageStarted { nation: Nation::ImperialArmy, at_ms: 70_000 },
            r#"{"type":"action_stage_started","nation":"imperial_army","at_ms":70000}"#,
            "6f8fd0a0e4ac57d48526136b2eca5a011abc14c10fbdb78afe6ab16291c7f76e",
        ),
        golden(
            "action_stage_ended",
            Event::ActionStageEnded { nation: Nation::France, at_ms: 80_000 },
            r#"{"type":"action_stage_ended","nation":"france","at_ms":80000}"#,
            "ec9fd6b61db14f19dfca1186eafa32a8f65324551b0f6d04a7f1ee73be5407ac",
        ),
        golden(
            "retreat_started",
            Event::RetreatStarted { length: 3, at_ms: 90_000 },
            r#"{"type":"retreat_started","length":3,"at_ms":90000}"#,
            "f839125fc48a657c4d36643412f50b7a26724e2289c6b94b1150f6b0d9739625",
        ),
        golden(
            "retreat_ended",
            Event::RetreatEnded { at_ms: 91_000 },
            r#"{"type":"retreat_ended","at_ms":91000}"#,
            "2f29fa5b68483d597226384ed45aec441b8c28b2df7ec5d78f47ff7682052c03",
        ),
        golden(
            "fate_card_drawn",
            Event::FateCardDrawn { card: "card-11".into() },
            r#"{"type":"fate_card_drawn","card":"card-11"}"#,
            "0e7f75260f4a90d9a74580a210922a4ea2b9b5210c18d1a5624a0379ccd5f008",
        ),
        golden(
            "nation_dropped_out",
            Event::NationDroppedOut { nation: Nation::Sweden, objectives_held: 4, objectives_total: 10, turn: None },
            r#"{"type":"nation_dropped_out","nation":"sweden","objectives_held":4,"objectives_total":10}"#,
            "0e7c4453a4e9d28b820b1c82051c3cccd39cfda98bea25248b058ce135dfb210",
        ),
        golden(
            "nation_dropped_out with turn",
            Event::NationDroppedOut { nation: Nation::Russia, objectives_held: 7, objectives_total: 10, turn: Some(9) },
            r#"{"type":"nation_dropped_out","nation":"russia","objectives_held":7,"objectives_total":10,"turn":9}"#,
            "17ac3dd89f718fe82f2c5db046e79eedb39ee36906899cf4327cefc08b2db8d5",
        ),
        golden(
            "imperial_army_switched",
            Event::ImperialArmySwitched { to: Role::Elisabeth, objectives_held: 2, objectives_total: 5, turn: None },
            r#"{"type":"imperial_army_switched","to":"elisabeth","objectives_held":2,"objectives_total":5}"#,
            "74308cc508d880aa9c730abf64d3a3ea6c1b17c8c3d0d5b17b647edbb5a8df5f",
        ),
        golden(
            "imperial_army_switched with turn",
            Event::ImperialArmySwitched { to: Role::Pompadour, objectives_held: 3, objectives_total: 5, turn: Some(6) },
            r#"{"type":"imperial_army_switched","to":"pompadour","objectives_held":3,"objectives_total":5,"turn":6}"#,
            "af08600074683d6dce2a4bcf85f1636f332bb69935e6e52c1b1a806d96dc9063",
        ),
        golden(
            "offensive_launched",
            Event::OffensiveLaunched { set_aside_tc: 10, turn: None },
            r#"{"type":"offensive_launched","set_aside_tc":10}"#,
            "ae6520331e8c654d16bc5ec2fd75549d23bb25b0d0d3d7531512e27d8b09c6b1",
        ),
        golden(
            "offensive_launched with turn",
            Event::OffensiveLaunched { set_aside_tc: 12, turn: Some(8) },
            r#"{"type":"offensive_launched","set_aside_tc":12,"turn":8}"#,
            "b0f52a2314b8e007920732306b305e7a7873e30ee7a86b611773bdaf2ecb200d",
        ),
        golden(
            "austria_claimed_objectives",
            Event::AustriaClaimedObjectives { count: 4 },
            r#"{"type":"austria_claimed_objectives","count":4}"#,
            "d1b14d32493e06e948043d5a583a2bb4afb92cfbb2fd7d8b3fc265c8a16ed2e4",
        ),
        golden(
            "set_aside_tc_picked_up",
            Event::SetAsideTcPickedUp {},
            r#"{"type":"set_aside_tc_picked_up"}"#,
            "bbc32c28ca1f745c37ee5430e64e420ea60f18e004adf5162ff7553938215181",
        ),
        golden(
            "offensive_called_off",
            Event::OffensiveCalledOff { bohemian_held_by_prussia: 5, turn: None },
            r#"{"type":"offensive_called_off","bohemian_held_by_prussia":5}"#,
            "9efcc84041473486d04cf2a297a7fba2b82d5b9fb9a2438bbfd02f65d1f08fe2",
        ),
        golden(
            "offensive_called_off with turn",
            Event::OffensiveCalledOff { bohemian_held_by_prussia: 11, turn: Some(10) },
            r#"{"type":"offensive_called_off","bohemian_held_by_prussia":11,"turn":10}"#,
            "6f739b041d8856dc79c29676352f76241ade0b20dac7532d4641ff3896099dd2",
        ),
        golden(
            "game_ended",
            Event::GameEnded {
                outcome: Outcome::AlliedVictory,
                winners: vec![Nation::Russia, Nation::France],
                objectives: BTreeMap::from([
                    (Nation::Russia, (10, 10)),
                    (Nation::Sweden, (3, 10)),
                    (Nation::Austria, (6, 10)),
                    (Nation::ImperialArmy, (2, 5)),
                    (Nation::France, (10, 10)),
                ]),
                bohemian_held_by_prussia: None,
            },
            r#"{"type":"game_ended","outcome":"allied_victory","winners":["russia","france"],"objectives":{"russia":[10,10],"sweden":[3,10],"austria":[6,10],"imperial_army":[2,5],"france":[10,10]}}"#,
            "d382f146d9bfb498038d317e132e1c93d5a4e36655e6fc73b26a68f3a679300d",
        ),
        golden(
            "game_ended with bohemian_held_by_prussia",
            Event::GameEnded {
                outcome: Outcome::PrussianOffensiveVictory,
                winners: vec![],
                objectives: BTreeMap::from([(Nation::Austria, (4, 10)), (Nation::ImperialArmy, (0, 5))]),
                bohemian_held_by_prussia: Some(14),
            },
            r#"{"type":"game_ended","outcome":"prussian_offensive_victory","winners":[],"objectives":{"austria":[4,10],"imperial_army":[0,5]},"bohemian_held_by_prussia":14}"#,
            "b54d0518ddb5d895fc08d105bc390d44d9cff7e5be55a8762ec5d878b1e2517e",
        ),
        golden(
            "fate_horizon_recorded",
            Event::FateHorizonRecorded { turn: 6 },
            r#"{"type":"fate_horizon_recorded","turn":6}"#,
            "2d92be921000703600f275315863d1d6c5e4fa766d21d0ffc77a0ad8947bd4f3",
        ),
        // --- jury ---
        golden(
            "jury_called",
            Event::JuryCalled { reason: "retreat length disputed".into() },
            r#"{"type":"jury_called","reason":"retreat length disputed"}"#,
            "c51b2d80c8a7364a5e832454d7ee32f35a8d5167a1cddbf9e1276ad3b438fe01",
        ),
        golden(
            "jury_ruling",
            // Quotes, a backslash and a line break: the JSON escapes are pinned too.
            Event::JuryRuling { text: "\"Retreat\" is 3 hexes\\spaces;\nreplay from turn 4.".into() },
            r#"{"type":"jury_ruling","text":"\"Retreat\" is 3 hexes\\spaces;\nreplay from turn 4."}"#,
            "94894a948b84b0cb2dd9c7b4ba52858f0df749a56809013d9dab72248c0cf8f0",
        ),
        golden(
            "event_voided",
            Event::EventVoided { seq: 5, reason: "wrong nation".into() },
            r#"{"type":"event_voided","seq":5,"reason":"wrong nation"}"#,
            "c671675892f79f4626d8d21382f7e564a6b646cbbb4316b7c0056a4cda7822d2",
        ),
        // --- andes stream (docs/ANDES.md) ---
        golden(
            "match_created",
            Event::Andes(AndesEvent::MatchCreated {
                first_sol: "ana".into(),
                first_luna: "bruno".into(),
                clock_ms: 720_000,
            }),
            r#"{"type":"match_created","first_sol":"ana","first_luna":"bruno","clock_ms":720000}"#,
            "9e150c0eda5ec78c8cc10b5680fe8d4545cfa5b02487425f33924e1c3d4b5579",
        ),
        golden(
            "game_started (andes)",
            Event::Andes(AndesEvent::GameStarted { game: 1, at_ms: 0 }),
            r#"{"type":"game_started","game":1,"at_ms":0}"#,
            "56dbe415e3829ecfae545749fd6b0e39e9772e71a637b8ccf423d7bb22b69179",
        ),
        golden(
            "move_played",
            Event::Andes(AndesEvent::MovePlayed { notation: "2c3c5".into(), at_ms: 61_250 }),
            r#"{"type":"move_played","notation":"2c3c5","at_ms":61250}"#,
            "5610e7c38be96acbf9287e929b4b80b047f40e84abdf4ad0c17d2f5cfdace6bc",
        ),
        golden(
            "piece_attacked",
            Event::Andes(AndesEvent::PieceAttacked {
                square: square("e2"),
                owner: Side::Sol,
                kind: PieceKind::Persona,
            }),
            r#"{"type":"piece_attacked","square":"e2","owner":"sol","kind":"persona"}"#,
            "8367b149ea6bfe6e9e12da787f2ac078203c9c63f1b6c69152b9d0631824aced",
        ),
        golden(
            "piece_captured",
            Event::Andes(AndesEvent::PieceCaptured {
                square: square("c4"),
                owner: Side::Luna,
                kind: PieceKind::EstatalLeft,
            }),
            r#"{"type":"piece_captured","square":"c4","owner":"luna","kind":"estatal_left"}"#,
            "1957472ecd3704fcd46618c1b87c43b96e9285e2f2a28cffdd2fa201171e2d8f",
        ),
        golden(
            "game_ended (andes)",
            Event::Andes(AndesEvent::GameEnded { reason: EndReason::ContinentEmptied, side: Side::Luna }),
            r#"{"type":"game_ended","reason":"continent_emptied","side":"luna"}"#,
            "77c177689c0e2c5587b91811e11d62ef8500b4e0b2f7fba8af1637e5a27c4ca9",
        ),
        golden(
            "flag_fell",
            Event::Andes(AndesEvent::FlagFell { side: Side::Sol, at_ms: 720_100 }),
            r#"{"type":"flag_fell","side":"sol","at_ms":720100}"#,
            "76c1097c74b4d2ec8a18a5a9f3e98bad8f9676534c439bf6644ecaf36f6e6a11",
        ),
        golden(
            "resigned",
            Event::Andes(AndesEvent::Resigned { side: Side::Luna, at_ms: 300_000 }),
            r#"{"type":"resigned","side":"luna","at_ms":300000}"#,
            "5181d4327614f4f74bc9687209e77a3767931368951b3d0614cd2bff21cca06d",
        ),
        // --- tournament stream, later additions ---
        golden(
            "stand_in_registered",
            Event::StandInRegistered { player: "designer".into(), name: "Richard Sivél".into() },
            r#"{"type":"stand_in_registered","player":"designer","name":"Richard Sivél"}"#,
            "06fd4b2f5f2a34524141bd2f652c6c6958c4d94f59e68cd5e194b2043283474a",
        ),
        golden(
            "player_withdrew",
            Event::PlayerWithdrew { player: "p07".into(), from_round: 3, stand_in: Some("designer".into()) },
            r#"{"type":"player_withdrew","player":"p07","from_round":3,"stand_in":"designer"}"#,
            "e3f96cdad26c1f6c9f851ed04463723afa0ef815a95e155265005e742796180d",
        ),
        golden(
            "player_withdrew before the final",
            Event::PlayerWithdrew { player: "p02".into(), from_round: 5, stand_in: None },
            r#"{"type":"player_withdrew","player":"p02","from_round":5}"#,
            "2500eeee3de806354969d9a71e2a8f46bdd62029c69e3cd47d9a41c46895a53f",
        ),
        golden(
            "player_unregistered",
            Event::PlayerUnregistered { player: "p09".into() },
            r#"{"type":"player_unregistered","player":"p09"}"#,
            "3dedcba4d2ef1b97778e5d3a3be634013b002989413a59da6dd74b06ddd547da",
        ),
    ]
}

fn square(name: &str) -> Square {
    Square::parse(name).unwrap()
}

/// Every variant of `Event` with its fields, as serde's derived `Deserialize` declares them: the
/// full set is read from the type itself, not from one more list kept by hand.
fn serde_shape() -> Vec<(&'static str, &'static [&'static str])> {
    use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, IntoDeserializer, Visitor};

    /// A deserializer that answers nothing and only records what the derive asks for.
    struct Grab {
        pick: u32,
        variants: &'static [&'static str],
        fields: Option<&'static [&'static str]>,
        /// The variant wraps another enum (`Event::Andes`): its variants count as Event's.
        newtype: bool,
        /// Binary (postcard's view): a wrapped enum shows its positional stored form.
        human_readable: bool,
    }

    type Error = de::value::Error;

    fn refuse<T>() -> Result<T, Error> {
        Err(de::Error::custom("only the shape is read"))
    }

    impl<'de> Deserializer<'de> for &mut Grab {
        type Error = Error;

        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Error> {
            refuse()
        }

        fn is_human_readable(&self) -> bool {
            self.human_readable
        }

        fn deserialize_enum<V: Visitor<'de>>(
            self,
            _name: &'static str,
            variants: &'static [&'static str],
            visitor: V,
        ) -> Result<V::Value, Error> {
            self.variants = variants;
            visitor.visit_enum(self)
        }

        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option
            unit unit_struct newtype_struct seq tuple tuple_struct map struct identifier ignored_any
        }
    }

    impl<'de> de::EnumAccess<'de> for &mut Grab {
        type Error = Error;
        type Variant = Self;

        fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self), Error> {
            let variant = seed.deserialize(self.pick.into_deserializer())?;
            Ok((variant, self))
        }
    }

    impl<'de> de::VariantAccess<'de> for &mut Grab {
        type Error = Error;

        fn unit_variant(self) -> Result<(), Error> {
            refuse()
        }

        fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, _: T) -> Result<T::Value, Error> {
            self.newtype = true;
            refuse()
        }

        fn tuple_variant<V: Visitor<'de>>(self, _: usize, _: V) -> Result<V::Value, Error> {
            refuse()
        }

        fn struct_variant<V: Visitor<'de>>(self, fields: &'static [&'static str], _: V) -> Result<V::Value, Error> {
            self.fields = Some(fields);
            refuse()
        }
    }

    let grab = |pick: u32| {
        let mut grab = Grab { pick, variants: &[], fields: None, newtype: false, human_readable: true };
        assert!(Event::deserialize(&mut grab).is_err(), "the grabbing deserializer never yields a value");
        grab
    };
    // `Event::Andes` wraps the Andes events, stored through their positional twin.
    let grab_andes = |pick: u32| {
        let mut grab = Grab { pick, variants: &[], fields: None, newtype: false, human_readable: false };
        assert!(ledger::andes::stored::deserialize(&mut grab).is_err(), "never yields a value");
        grab
    };
    let variants = grab(0).variants;
    assert!(!variants.is_empty(), "Event deserialises as an enum");
    let mut shape = Vec::new();
    for (pick, &name) in (0..).zip(variants) {
        let grabbed = grab(pick);
        if grabbed.newtype {
            let andes = grab_andes(0).variants;
            for (pick, &name) in (0..).zip(andes) {
                shape.push((name, grab_andes(pick).fields.unwrap_or_else(|| panic!("{name} is not a struct variant"))));
            }
            continue;
        }
        shape.push((name, grabbed.fields.unwrap_or_else(|| panic!("{name} is not a struct variant"))));
    }
    shape
}

fn sealed(event: Event) -> Recorded {
    Recorded::seal(draft_for(&event), prev_hash(), event)
}

#[test]
fn every_variant_has_a_golden_entry() {
    let covered: BTreeSet<&str> = goldens().iter().map(|g| g.event.type_name()).collect();
    let all: BTreeSet<&str> = serde_shape().into_iter().map(|(name, _)| name).collect();
    assert_eq!(covered, all, "every variant of Event needs a golden entry");
    for g in goldens() {
        assert!(g.label.starts_with(g.event.type_name()), "label `{}` names its variant", g.label);
    }
    let labels: BTreeSet<&str> = goldens().iter().map(|g| g.label).collect();
    assert_eq!(labels.len(), goldens().len(), "labels are unique");
}

/// Every field of every variant appears in some golden entry, and every optional field (one the
/// parser accepts missing) is also left out of one: both encodings are pinned.
#[test]
fn every_field_is_pinned_and_every_optional_one_also_absent() {
    let goldens = goldens();
    for (variant, fields) in serde_shape() {
        let objects: Vec<serde_json::Map<String, serde_json::Value>> = goldens
            .iter()
            .filter(|g| g.event.type_name() == variant)
            .map(|g| match to_canonical_json(&g.event) {
                serde_json::Value::Object(map) => map,
                other => panic!("{}: not an object: {other}", g.label),
            })
            .collect();
        for &field in fields {
            let with = objects.iter().find(|o| o.contains_key(field));
            let with = with.unwrap_or_else(|| panic!("{variant}.{field} is present in no golden entry"));
            let mut without = with.clone();
            without.remove(field);
            if from_canonical_json(&serde_json::Value::Object(without)).is_ok() {
                assert!(
                    objects.iter().any(|o| !o.contains_key(field)),
                    "{variant}.{field} is optional: pin a golden entry without it too"
                );
            }
        }
    }
}

#[test]
fn every_variant_pins_its_canonical_json_and_hash() {
    let mut failures = Vec::new();
    for Golden { label, event, json, hash } in goldens() {
        assert!(event.check_shape().is_ok(), "{label}: a golden event is a well-formed one");
        let canonical = to_canonical_json(&event);
        assert_eq!(from_canonical_json(&canonical).as_ref(), Ok(&event), "{label}: round trip");
        let pinned: serde_json::Value = serde_json::from_str(json).unwrap();
        assert_eq!(from_canonical_json(&pinned).as_ref(), Ok(&event), "{label}: the pinned JSON parses");

        let record = sealed(event);
        let e = &record.envelope;
        assert_eq!(record.recomputed_hash(), e.hash, "{label}");
        assert_eq!(
            chain_hash(&e.prev_hash, &e.stream, e.seq, &e.event_id, e.recorded_at_ms, &e.actor, &record.event),
            e.hash,
            "{label}"
        );
        assert_eq!(decode_record(&encode_record(&record)).as_ref(), Ok(&record), "{label}: storage round trip");

        let text = canonical.to_string();
        if text != json {
            failures.push(format!("{label}: canonical JSON changed\n  pinned: {json}\n  now:    {text}"));
        }
        let now = hex::encode(e.hash);
        if now != hash {
            failures.push(format!("{label}: chain hash changed\n  pinned: {hash}\n  now:    {now}"));
        }
    }
    assert!(failures.is_empty(), "a recorded chain would no longer verify:\n{}", failures.join("\n"));
}

// --- the envelope: each field the hash covers, changed on its own ---

/// The base record of the envelope tests: the `nation_dropped_out with turn` golden entry.
fn base_event() -> Event {
    Event::NationDroppedOut { nation: Nation::Russia, objectives_held: 7, objectives_total: 10, turn: Some(9) }
}

const BASE_HASH: &str = "17ac3dd89f718fe82f2c5db046e79eedb39ee36906899cf4327cefc08b2db8d5";

/// The hash of the base record after `change`.
fn hash_with(change: impl FnOnce(&mut Draft, &mut Hash, &mut Event)) -> String {
    let mut event = base_event();
    let mut draft = draft_for(&event);
    let mut prev = prev_hash();
    change(&mut draft, &mut prev, &mut event);
    hex::encode(Recorded::seal(draft, prev, event).envelope.hash)
}

fn assert_pinned_change(case: &str, now: &str, pinned: &str) {
    assert_ne!(now, BASE_HASH, "{case}: the hash must cover this field");
    assert_eq!(now, pinned, "{case}: the pinned hash changed");
}

#[test]
fn base_record_hash() {
    assert_eq!(hash_with(|_, _, _| {}), BASE_HASH);
}

/// The hash input spelled out byte by byte: SHA-256 of the postcard encoding of the scheme
/// name, the previous hash (32 raw bytes), the stream name, seq, event id, recorded_at, actor
/// and the canonical JSON text, in that order; strings are a varint length and UTF-8, integers
/// varints. It does not call the ledger: it shows that the pinned hashes are this documented
/// scheme and not merely whatever the code computed, and gives another implementation (a
/// verifier in another language) something to check itself against.
#[test]
fn hash_input_layout() {
    fn varint(mut n: u64, out: &mut Vec<u8>) {
        while n >= 0x80 {
            out.push(u8::try_from(n & 0x7f).unwrap() | 0x80);
            n >>= 7;
        }
        out.push(u8::try_from(n).unwrap());
    }
    fn text(s: &str, out: &mut Vec<u8>) {
        varint(u64::try_from(s.len()).unwrap(), out);
        out.extend_from_slice(s.as_bytes());
    }
    let mut input = Vec::new();
    text("tournament-ledger/chain/v1", &mut input);
    input.extend_from_slice(&prev_hash());
    text("game/golden", &mut input);
    varint(7, &mut input);
    text("golden-7", &mut input);
    varint(1_767_225_600_000, &mut input);
    text("jury", &mut input);
    text(
        r#"{"type":"nation_dropped_out","nation":"russia","objectives_held":7,"objectives_total":10,"turn":9}"#,
        &mut input,
    );
    assert_eq!(hex::encode(Sha256::digest(&input)), BASE_HASH);
}

#[test]
fn prev_hash_is_hashed() {
    assert_pinned_change(
        "genesis prev_hash",
        &hash_with(|_, prev, _| *prev = GENESIS),
        "bf78add627d4bfb790b3acf9f379cb050acf87f0e602f3f401a0394f417f8e70",
    );
    assert_pinned_change(
        "last byte of prev_hash",
        &hash_with(|_, prev, _| prev[31] ^= 1),
        "0601b6a8645c7231a490d5903153abd7900995e25d7d5f76869f8411b88455dc",
    );
}

#[test]
fn stream_is_hashed() {
    let kind = hash_with(|d, _, _| d.stream = StreamId::tournament("golden").unwrap());
    assert_pinned_change("stream kind", &kind, "02ce4d5417dc69e78235bd96a62629986949dc4a82e510c32bdcb7bd125782f2");
    let id = hash_with(|d, _, _| d.stream = StreamId::game("golden2").unwrap());
    assert_pinned_change("stream id", &id, "0972d5a89a9073daa252071e565859df5754078716936b3ef8bbe7894dbdeddb");
}

#[test]
fn seq_is_hashed() {
    assert_pinned_change(
        "seq",
        &hash_with(|d, _, _| d.seq = 8),
        "c76d2e191e08b68da95b721c4d91a35ce1639ecd53137cfa14f3e10a8743a7b9",
    );
}

#[test]
fn event_id_is_hashed() {
    assert_pinned_change(
        "event_id",
        &hash_with(|d, _, _| d.event_id = "golden-8".into()),
        "d632d50316db8fb3e1e338b8bcc923f2ddc61e64a9c27cd2a75a47897ca769cd",
    );
}

#[test]
fn recorded_at_ms_is_hashed() {
    assert_pinned_change(
        "recorded_at_ms",
        &hash_with(|d, _, _| d.recorded_at_ms += 1),
        "ec62a45b65026d77f15fa7451f0f23d531b7383668201b8e58013d2fb0f7fc9c",
    );
}

#[test]
fn actor_is_hashed() {
    assert_pinned_change(
        "actor",
        &hash_with(|d, _, _| d.actor = "table".into()),
        "cb5ecd539060119e1db2ae59a41e763b24fe008b68a94c5e3b68c8d24c4ea6e8",
    );
}

#[test]
fn event_is_hashed() {
    let turn = hash_with(|_, _, e| {
        *e =
            Event::NationDroppedOut { nation: Nation::Russia, objectives_held: 7, objectives_total: 10, turn: Some(10) }
    });
    assert_pinned_change("event field", &turn, "071b42eabae3b8b862a856d3901bdb3b3165efa859233d620e42d1958d531322");
    // The optional turn left out: the golden `nation_dropped_out` entry's encoding, other values.
    let absent = hash_with(|_, _, e| {
        *e = Event::NationDroppedOut { nation: Nation::Russia, objectives_held: 7, objectives_total: 10, turn: None }
    });
    assert_pinned_change(
        "event optional field absent",
        &absent,
        "fe298c96f4b16cbee0b917aa8e15ab07516172aa72c3c5b8b93afa18f99e6829",
    );
}

/// The global position is not hashed, by design: it belongs to one log backend (sled's commit
/// order), and an export replayed into another backend gets other positions but keeps its
/// chain. Hashing it would also make the hash depend on how writes to other streams interleave.
#[test]
fn position_is_not_hashed() {
    assert_eq!(hash_with(|d, _, _| d.position = 1), BASE_HASH);
    assert_eq!(hash_with(|d, _, _| d.position = u64::MAX), BASE_HASH);
}

// --- the storage encoding: stored sled logs must keep decoding ---

/// The committed version-1 sample of `store` (never regenerated) re-encodes to the same bytes,
/// so what is written today is still what version 1 wrote.
#[test]
fn storage_sample_v1_reencodes_byte_for_byte() {
    let sample = include_str!("../../../store/tests/samples/record-v1.hex").trim();
    let record = decode_record(&hex::decode(sample).unwrap()).unwrap();
    assert_eq!(hex::encode(encode_record(&record)), sample);
    assert_eq!(record.recomputed_hash(), record.envelope.hash);
}

#[test]
fn storage_encoding_of_a_tournament_record() {
    let record = sealed(goldens().into_iter().find(|g| g.label == "qualifying_drawn").unwrap().event);
    let pinned = "010006676f6c64656e07d20908676f6c64656e2d3780d0eab6b733046a7572790f1e2d3c4b5a69788796a5b4c3d2e1f00123456789abcdeffedcba987654321002248f5992e1ea987fc8c457c668c77b8b181bce2bf53fec209c9d051df77ece028de0fbd7fcddefd6de01020571312d74310101037030310370303203703033037030340571312d7432010203703035037030360370303703703038";
    assert_eq!(hex::encode(encode_record(&record)), pinned);
    assert_eq!(decode_record(&hex::decode(pinned).unwrap()), Ok(record));
}

#[test]
fn storage_encoding_of_a_game_ended_record() {
    let label = "game_ended with bohemian_held_by_prussia";
    let record = sealed(goldens().into_iter().find(|g| g.label == label).unwrap().event);
    let pinned = "010106676f6c64656e07d20908676f6c64656e2d3780d0eab6b733046a7572790f1e2d3c4b5a69788796a5b4c3d2e1f00123456789abcdeffedcba9876543210b54d0518ddb5d895fc08d105bc390d44d9cff7e5be55a8762ec5d878b1e2517e1701000204081405000a011c";
    assert_eq!(hex::encode(encode_record(&record)), pinned);
    assert_eq!(decode_record(&hex::decode(pinned).unwrap()), Ok(record));
}
