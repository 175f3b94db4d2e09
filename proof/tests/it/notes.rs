//! Signed notes and checkpoints against published examples and against tampering.
//!
//! The keys, the text and the signatures are the known answers of golang.org/x/mod/sumdb/note,
//! the reference implementation of C2SP signed-note (`note_test.go`:
//! https://github.com/golang/mod/blob/02c991387e35f9e4c0a9b7ce137717055f8d716d/sumdb/note/note_test.go).
//! Ed25519 signatures are deterministic, so signing the same text with the same key must give the
//! published note byte for byte. The checkpoint text is the example of c2sp.org/tlog-checkpoint.

use ledger_proof::*;

const PETER_SIGNING: &str = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz";
const PETER: &str = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW";
const ENOCH: &str = "EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop";
const TEXT: &str =
    "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const PETER_SIG: &str =
    "— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n";
const ENOCH_SIG: &str =
    "— EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n";

fn key(vkey: &str) -> VerifierKey {
    VerifierKey::parse(vkey).unwrap()
}

#[test]
fn signing_gives_the_published_note_byte_for_byte() {
    let signer = SigningKey::parse(PETER_SIGNING).unwrap();
    assert_eq!(signer.id(), 0xc74f20a3);
    assert_eq!(signer.verifier().to_string(), PETER);
    assert_eq!(signer.to_private_string(), PETER_SIGNING);
    assert_eq!(format!("{signer:?}"), "SigningKey(PeterNeumann+c74f20a3)");
    let mut note = Note::new(TEXT).unwrap();
    note.sign(&signer);
    assert_eq!(note.to_string(), format!("{TEXT}\n{PETER_SIG}"));
    // Signing again replaces the signature instead of adding one.
    note.sign(&signer);
    assert_eq!(note.signatures().len(), 1);
    assert_eq!(Note::parse(&note.to_string()).unwrap(), note);
}

#[test]
fn a_verifier_key_round_trips_and_its_id_is_the_hash_of_name_and_key() {
    for vkey in [PETER, ENOCH] {
        let parsed = key(vkey);
        assert_eq!(parsed.to_string(), vkey);
        assert_eq!(parsed.id(), key_id(parsed.name(), &parsed.public_key()));
    }
    assert_eq!(key(ENOCH).id(), 0xaf0cfe78);
}

/// note_test.go's `TestNewVerifier` and `TestNewSigner`: every substring and every byte changed
/// is refused.
#[test]
fn mangled_keys_are_refused() {
    for (good, parse) in [
        (PETER, (|s: &str| VerifierKey::parse(s).is_ok()) as fn(&str) -> bool),
        (PETER_SIGNING, |s: &str| SigningKey::parse(s).is_ok()),
    ] {
        let bytes = good.as_bytes();
        for i in 0..=bytes.len() {
            for j in i + 1..=bytes.len() {
                if (i, j) != (0, bytes.len()) {
                    assert!(!parse(&good[i..j]), "{:?} accepted", &good[i..j]);
                }
            }
        }
        for i in 0..bytes.len() {
            let mut changed = bytes.to_vec();
            changed[i] += 1;
            let changed = String::from_utf8(changed).unwrap();
            assert!(!parse(&changed), "{changed:?} accepted");
        }
    }
    // A key of the wrong length and an unknown algorithm, each with its ID adjusted.
    assert!(VerifierKey::parse("PeterNeumann+cc469956+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TWBADKEY==").is_err());
    assert!(VerifierKey::parse("PeterNeumann+173116ae+ZRpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW").is_err());
}

/// note_test.go's `TestOpen`: known keys verify, unknown ones are ignored, a bad signature of a
/// known key refuses the note.
#[test]
fn known_signatures_verify_and_unknown_ones_are_ignored() {
    let (peter, enoch) = (key(PETER), key(ENOCH));
    let note = Note::parse(&format!("{TEXT}\n{PETER_SIG}{ENOCH_SIG}")).unwrap();
    assert_eq!(note.text(), TEXT);
    assert_eq!(note.signatures().len(), 2);
    assert_eq!(note.verify(std::slice::from_ref(&peter)).unwrap(), [&peter]);
    assert_eq!(note.verify(&[peter.clone(), enoch.clone()]).unwrap(), [&peter, &enoch]);
    assert_eq!(note.verify(&[]), Err(NoteError::NoKnownSignature));

    let broken = format!("{TEXT}\n{}ABCD{}", &PETER_SIG[..60], &PETER_SIG[60..]);
    assert_eq!(
        Note::parse(&broken).unwrap().verify(std::slice::from_ref(&peter)),
        Err(NoteError::InvalidSignature { name: "PeterNeumann".into(), id: 0xc74f20a3 })
    );
    // The same key named otherwise, or another key ID: not the known key, so ignored.
    for unknown in [PETER_SIG.replace("PeterNeumann", "CarmenSandiego"), PETER_SIG.replace("x08g", "xxxx")] {
        let note = Note::parse(&format!("{TEXT}\n{unknown}")).unwrap();
        assert_eq!(note.verify(std::slice::from_ref(&peter)), Err(NoteError::NoKnownSignature));
    }
    // Duplicated lines count once; a bad line of a key not known does not matter.
    let enoch_broken = format!("{}ABCD{}", &ENOCH_SIG[..60], &ENOCH_SIG[60..]);
    let many = format!("{TEXT}\n{PETER_SIG}{PETER_SIG}{ENOCH_SIG}{ENOCH_SIG}{enoch_broken}");
    assert_eq!(Note::parse(&many).unwrap().verify(std::slice::from_ref(&peter)).unwrap(), [&peter]);
}

#[test]
fn malformed_notes_are_refused() {
    let bad = [
        TEXT.to_owned(),
        format!("{TEXT}\n"),
        format!("{TEXT}\n{}", &PETER_SIG[..PETER_SIG.len() - 1]),
        format!("\x01{TEXT}\n{PETER_SIG}"),
        format!("{TEXT}\n— Bad Name x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n"),
        format!("{TEXT}\n{PETER_SIG}Unexpected line.\n"),
        format!("{TEXT}\n— PeterNeumann AAAA\n"),
        format!("{TEXT}\n{}", PETER_SIG.repeat(MAX_SIGNATURES + 1)),
    ];
    for note in bad {
        assert!(matches!(Note::parse(&note), Err(NoteError::Malformed(_))), "{note:?} accepted");
    }
    assert!(Note::parse(&format!("{TEXT}\n{}", PETER_SIG.repeat(MAX_SIGNATURES))).is_ok());
    assert!(Note::new("no final newline").is_err());
}

fn log_key() -> SigningKey {
    SigningKey::from_seed("ledger.example/open26", &[7; 32]).unwrap()
}

fn witness_key(n: u8) -> SigningKey {
    SigningKey::from_seed(&format!("witness.example/{n}"), &[n; 32]).unwrap()
}

#[test]
fn the_published_checkpoint_text_parses_and_round_trips() {
    let text = "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n";
    let checkpoint = Checkpoint::parse_text(text).unwrap();
    assert_eq!(checkpoint.origin, "example.com/behind-the-sofa");
    assert_eq!(checkpoint.size, 20852163);
    assert_eq!(checkpoint.text().unwrap(), text);
    let extended = format!("{text}time 2026-11-26T12:00:00Z\n");
    let checkpoint = Checkpoint::parse_text(&extended).unwrap();
    assert_eq!(checkpoint.extensions, ["time 2026-11-26T12:00:00Z"]);
    assert_eq!(checkpoint.text().unwrap(), extended);
}

#[test]
fn malformed_checkpoints_are_refused() {
    let root = "CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=";
    for text in [
        format!("o\n5\n{root}"),
        "o\n5\n".to_owned(),
        format!("\n5\n{root}\n"),
        format!("o\n05\n{root}\n"),
        format!("o\n+5\n{root}\n"),
        format!("o\n\n{root}\n"),
        format!("o\n18446744073709551616\n{root}\n"),
        "o\n5\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2==\n".to_owned(),
        format!("o\n5\n{root}\n\nextension\n"),
        format!("o\n5\n{}\n", &root[..40]),
    ] {
        assert!(Checkpoint::parse_text(&text).is_err(), "{text:?} accepted");
    }
    assert_eq!(Checkpoint::parse_text(&format!("o\n0\n{root}\n")).unwrap().size, 0);
}

/// The log signs, two witnesses cosign; a reader who knows the log's key and one witness sees
/// that witness's cosignature and ignores the other.
#[test]
fn a_checkpoint_signed_by_the_log_and_cosigned_by_witnesses() {
    let log = log_key();
    let checkpoint = Checkpoint::new(log.name(), 8, root_of(&[leaf_hash(b"event")]));
    let mut note = checkpoint.sign(&log).unwrap();
    let published = note.to_string();
    // A witness reads what the log published and adds its line.
    for n in [1, 2] {
        let mut seen = Note::parse(&note.to_string()).unwrap();
        seen.sign(&witness_key(n));
        note = seen;
    }
    let opened = Checkpoint::open(&note.to_string(), &log.verifier(), &[witness_key(2).verifier()]).unwrap();
    assert_eq!(opened.checkpoint, checkpoint);
    assert_eq!(opened.cosigned_by, [witness_key(2).verifier()]);
    assert!(Checkpoint::open(&published, &log.verifier(), &[]).unwrap().cosigned_by.is_empty());

    // A witness's line that does not verify refuses the note, as a log's would.
    let signed = note.to_string();
    let witness_line = signed.lines().last().unwrap();
    let at = witness_line.len() - 10;
    let swapped = if &witness_line[at..=at] == "A" { "B" } else { "A" };
    let tampered =
        signed.replace(witness_line, &format!("{}{swapped}{}", &witness_line[..at], &witness_line[at + 1..]));
    assert!(matches!(
        Checkpoint::open(&tampered, &log.verifier(), &[witness_key(2).verifier()]),
        Err(CheckpointError::Note(NoteError::InvalidSignature { .. }))
    ));
}

#[test]
fn a_checkpoint_needs_the_logs_own_signature_over_its_own_origin() {
    let log = log_key();
    let checkpoint = Checkpoint::new(log.name(), 3, root_of(&[leaf_hash(b"a"), leaf_hash(b"b"), leaf_hash(b"c")]));
    let signed = checkpoint.sign(&log).unwrap().to_string();

    // Only a witness signed: not the log's checkpoint.
    let mut witnessed_only = Note::new(checkpoint.text().unwrap()).unwrap();
    witnessed_only.sign(&witness_key(1));
    assert!(matches!(
        Checkpoint::open(&witnessed_only.to_string(), &log.verifier(), &[witness_key(1).verifier()]),
        Err(CheckpointError::NotSignedByLog(_))
    ));

    // Another size or root under the log's signature: the signature no longer verifies.
    let resized = signed.replacen("\n3\n", "\n4\n", 1);
    assert!(matches!(
        Checkpoint::open(&resized, &log.verifier(), &[]),
        Err(CheckpointError::Note(NoteError::InvalidSignature { .. }))
    ));

    // The log's key does not sign (or vouch for) another origin.
    let other = Checkpoint::new("other.example/log", 3, checkpoint.root);
    assert!(matches!(other.sign(&log), Err(CheckpointError::OriginMismatch { .. })));
    let mut foreign = Note::new(other.text().unwrap()).unwrap();
    foreign.sign(&log);
    assert!(matches!(
        Checkpoint::open(&foreign.to_string(), &log.verifier(), &[]),
        Err(CheckpointError::OriginMismatch { .. })
    ));
}

/// What a player does offline, end to end: the round's checkpoint and an event's inclusion
/// proof, then a later checkpoint and the consistency proof that it extends the first; a log that
/// showed one client a rewritten history is caught against the checkpoint signed before.
#[test]
fn a_player_checks_an_event_and_the_logs_growth_offline() {
    let log = log_key();
    let events: Vec<Hash> = (0u32..100).map(|i| leaf_hash(format!("event {i}").as_bytes())).collect();
    let mut tree = MemoryTree::new();
    events[..60].iter().for_each(|e| tree.append(*e));
    let round = Checkpoint::new(log.name(), 60, tree.frontier().root()).sign(&log).unwrap().to_string();
    let proof = inclusion_proof(&tree, 42, 60).unwrap();
    events[60..].iter().for_each(|e| tree.append(*e));
    let later = Checkpoint::new(log.name(), 100, tree.frontier().root()).sign(&log).unwrap().to_string();
    let growth = consistency_proof(&tree, 60, 100).unwrap();

    let round = Checkpoint::open(&round, &log.verifier(), &[]).unwrap().checkpoint;
    verify_inclusion(42, round.size, &events[42], &proof, &round.root).unwrap();
    let later = Checkpoint::open(&later, &log.verifier(), &[]).unwrap().checkpoint;
    verify_consistency(round.size, later.size, &round.root, &later.root, &growth).unwrap();

    // The log rewrites event 7 and signs a new head over the rewritten history.
    let mut rewritten = events.clone();
    rewritten[7] = leaf_hash(b"event 7, edited");
    let forked = MemoryTree::default();
    let forked = rewritten.iter().fold(forked, |mut t, e| {
        t.append(*e);
        t
    });
    let forked_head = Checkpoint::new(log.name(), 100, forked.frontier().root()).sign(&log).unwrap().to_string();
    let forked_head = Checkpoint::open(&forked_head, &log.verifier(), &[]).unwrap().checkpoint;
    let claimed = consistency_proof(&forked, 60, 100).unwrap();
    assert!(verify_consistency(round.size, forked_head.size, &round.root, &forked_head.root, &claimed).is_err());
    let edited_proof = inclusion_proof(&forked, 7, 60).unwrap();
    assert!(verify_inclusion(7, round.size, &rewritten[7], &edited_proof, &round.root).is_err());
}

/// A checkpoint computed independently, with Python's `cryptography` (pyca, OpenSSL's Ed25519) and
/// `hashlib`, from the seed `[7; 32]`: the key ID, the verifier key and the signed note of the
/// RFC 6962 test tree of 8 leaves (its root `5dc9da79…` from tests/vectors.rs). The same example
/// stands in docs/PROOFS.md.
#[test]
fn an_independently_computed_checkpoint_is_reproduced() {
    const VKEY: &str = "ledger.example/open26+05b8b39b+AepKbGPinFIKvvVQexMuxfmVR3auvr57kkIe6mkURtIs";
    const SIGNED: &str = "ledger.example/open26\n8\nXcnaeacGWamtVZy3Ad7ZoqudgjqtL0lgz+Nw7/RgQyg=\n\n\
        — ledger.example/open26 Bbizm0PjJtQAEnFHIeEhWE+yERY5ke8g/Tdmq/nJ5MCUkEnaH2Z1O5usODrtfnIOOLTMpPfz86C1x3xlLYT/2PPcmwc=\n";
    let log = log_key();
    assert_eq!(log.verifier().to_string(), VKEY);
    let leaves: Vec<Hash> =
        ["", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f"]
            .iter()
            .map(|leaf| leaf_hash(&hex::decode(leaf).unwrap()))
            .collect();
    let checkpoint = Checkpoint::new(log.name(), 8, root_of(&leaves));
    assert_eq!(checkpoint.sign(&log).unwrap().to_string(), SIGNED);
    assert_eq!(Checkpoint::open(SIGNED, &key(VKEY), &[]).unwrap().checkpoint, checkpoint);
}
