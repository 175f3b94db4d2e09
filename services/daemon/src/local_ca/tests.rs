use super::*;
use rustls::client::danger::ServerCertVerifier;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};

fn names(list: &[&str]) -> LocalCaConfig {
    LocalCaConfig::new(list.iter().map(|n| (*n).to_owned()).collect()).unwrap()
}

/// 2026-11-27, the day this was written.
fn day_one() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(1_795_737_600)
}

fn served(data: &Path) -> CertificateDer<'static> {
    let pem = std::fs::read(data.join("local-ca/server.pem")).unwrap();
    CertificateDer::pem_slice_iter(&pem).next().unwrap().unwrap()
}

/// What a browser that installed `root` says of `leaf` for `name` at `at`: rustls's WebPKI
/// verifier, as strict as a browser on names, usages, validity and the chain.
fn verify(root: &[u8], leaf: &CertificateDer<'_>, name: &str, at: SystemTime) -> Result<(), rustls::Error> {
    let mut roots = rustls::RootCertStore::empty();
    roots.add(CertificateDer::from(root.to_vec())).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let verifier =
        rustls::client::WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider).build().unwrap();
    let name = ServerName::try_from(name.to_owned()).unwrap();
    let at = UnixTime::since_unix_epoch(at.duration_since(SystemTime::UNIX_EPOCH).unwrap());
    verifier.verify_server_cert(leaf, &[], &name, &[], at).map(drop)
}

#[test]
fn the_flag_takes_names_and_addresses() {
    let config = names(&["Hall.Example", "192.168.1.10", "[fe80::1]", "hall.example"]);
    assert_eq!(
        config.names,
        [
            HallName::Dns("hall.example".into()),
            HallName::Ip("192.168.1.10".parse().unwrap()),
            HallName::Ip("fe80::1".parse().unwrap())
        ]
    );
    assert_eq!(config.hosts(), ["hall.example", "192.168.1.10", "[fe80::1]"]);
    assert_eq!(LocalCaConfig::new(vec![]), Err(LocalCaConfigError::NoName));
    for bad in ["", "a b", "hall_1.example", "évora.pt", "http://hall.example", "hall.example:8443"] {
        assert_eq!(LocalCaConfig::new(vec![bad.to_owned()]), Err(LocalCaConfigError::Name(bad.to_owned())), "{bad}");
    }
}

#[test]
fn a_root_is_made_once_and_signs_the_pages_certificate_for_the_halls_names() {
    let dir = tempfile::tempdir().unwrap();
    let config = names(&["hall.example", "192.168.1.10"]);
    let root = prepare(&config, dir.path(), day_one()).unwrap();
    let leaf = served(dir.path());
    // A browser that trusts the root accepts the pages under each name, from a day ago (a tablet
    // clock behind) to 397 days on; not under another name, not without the root.
    for name in ["hall.example", "192.168.1.10"] {
        verify(&root.der, &leaf, name, day_one()).unwrap();
    }
    verify(&root.der, &leaf, "hall.example", day_one() - Duration::from_secs(23 * 3_600)).unwrap();
    verify(&root.der, &leaf, "hall.example", day_one() + Duration::from_secs(396 * 86_400)).unwrap();
    assert!(verify(&root.der, &leaf, "hall.example", day_one() + Duration::from_secs(398 * 86_400)).is_err());
    assert!(verify(&root.der, &leaf, "other.example", day_one()).is_err());
    assert!(verify(&root.der, &leaf, "192.168.1.11", day_one()).is_err());
    let stranger = rcgen::generate_simple_self_signed(vec!["hall.example".to_owned()]).unwrap();
    assert!(verify(stranger.cert.der(), &leaf, "hall.example", day_one()).is_err());

    // The root: a CA of path length 0, named for the hall, ten years; kept with its key.
    let (_, cert) = x509_parser::parse_x509_certificate(&root.der).unwrap();
    assert_eq!(
        cert.subject().iter_common_name().next().unwrap().as_str().unwrap(),
        "Tournament Ledger hall root — hall.example"
    );
    let constraints = cert.basic_constraints().unwrap().unwrap().value;
    assert!(constraints.ca);
    assert_eq!(constraints.path_len_constraint, Some(0));
    assert!(cert.validity().not_after.timestamp() - cert.validity().not_before.timestamp() > 3_650 * 86_400);
    assert_eq!(root.path, dir.path().join("local-ca/root.pem"));
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &str| std::fs::metadata(dir.path().join(p)).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode("local-ca"), 0o700);
    for kept in ["local-ca/root-key.pem", "local-ca/root.pem", "local-ca/server.pem"] {
        assert_eq!(mode(kept), 0o600, "{kept}");
    }
    // The pages' port reads it.
    crate::tls::WebCertificate::load(&LocalCaConfig::files(dir.path())).unwrap();

    // Started again: the same root and the same certificate.
    let again = prepare(&config, dir.path(), day_one() + Duration::from_secs(86_400)).unwrap();
    assert_eq!(again.der, root.der);
    assert_eq!(served(dir.path()), leaf);

    // Other names: a new certificate at once, from the same root (nothing to install again).
    let moved = names(&["hall.example", "10.0.0.5"]);
    let again = prepare(&moved, dir.path(), day_one() + Duration::from_secs(86_400)).unwrap();
    assert_eq!(again.der, root.der);
    let renamed = served(dir.path());
    assert_ne!(renamed, leaf);
    verify(&root.der, &renamed, "10.0.0.5", day_one() + Duration::from_secs(86_400)).unwrap();
    assert!(verify(&root.der, &renamed, "192.168.1.10", day_one() + Duration::from_secs(86_400)).is_err());

    // A third of its validity left: signed again by the same root.
    let later = day_one() + Duration::from_secs(270 * 86_400);
    assert_eq!(prepare(&moved, dir.path(), later).unwrap().der, root.der);
    let renewed = served(dir.path());
    assert_ne!(renewed, renamed);
    verify(&root.der, &renewed, "hall.example", later + Duration::from_secs(390 * 86_400)).unwrap();
}

#[test]
fn a_root_without_its_key_is_never_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let config = names(&["hall.example"]);
    let root = prepare(&config, dir.path(), day_one()).unwrap();
    std::fs::remove_file(dir.path().join("local-ca/root-key.pem")).unwrap();
    let error = prepare(&config, dir.path(), day_one()).unwrap_err();
    assert!(error.to_string().contains("its key is missing"), "{error}");
    let kept = std::fs::read(&root.path).unwrap();
    assert_eq!(CertificateDer::from_pem_slice(&kept).unwrap().as_ref(), &root.der[..], "the root stays as it was");
    assert!(!dir.path().join("local-ca/root-key.pem").exists(), "no new key was made");

    // A key whose certificate was never written (a crash between the two): completed.
    let fresh = tempfile::tempdir().unwrap();
    prepare(&config, fresh.path(), day_one()).unwrap();
    let key = std::fs::read(fresh.path().join("local-ca/root-key.pem")).unwrap();
    std::fs::remove_file(fresh.path().join("local-ca/root.pem")).unwrap();
    let completed = prepare(&config, fresh.path(), day_one()).unwrap();
    assert_eq!(std::fs::read(fresh.path().join("local-ca/root-key.pem")).unwrap(), key);
    // Same key, same name: the pages' certificate is the completed root's as well.
    verify(&completed.der, &served(fresh.path()), "hall.example", day_one()).unwrap();
}

/// Issue 42: a tablet that installs the hall's root trusts it for the hall alone. A certificate
/// the root signs for another site is refused by a browser's verifier (rustls's WebPKI enforces
/// the root's name constraints), and ledgerd refuses to start for a name the root does not
/// permit rather than serve a certificate every tablet would refuse.
#[test]
fn the_root_vouches_only_for_the_halls_names_and_private_addresses() {
    let dir = tempfile::tempdir().unwrap();
    let config = names(&["hall.example", "192.168.1.10"]);
    let root = prepare(&config, dir.path(), day_one()).unwrap();
    assert_eq!(root.limited_to, Some(vec!["hall.example".to_owned()]));
    let kept = store::Store::new(dir.path()).root_or_create(&config.names, day_one()).unwrap();
    for (name, vouched) in [
        ("hall.example", true),
        ("tablets.hall.example", true),
        ("10.0.0.5", true),
        ("192.168.44.2", true),
        ("bank.example", false),
        ("evilhall.example", false),
        ("8.8.8.8", false),
    ] {
        let pem = sign_server(&kept, &names(&[name]).names, day_one()).unwrap();
        let leaf = CertificateDer::pem_slice_iter(pem.as_bytes()).next().unwrap().unwrap();
        assert_eq!(verify(&root.der, &leaf, name, day_one()).is_ok(), vouched, "{name}");
    }
    let refused = prepare(&names(&["hall.example", "other.example"]), dir.path(), day_one()).unwrap_err();
    assert!(refused.reason.contains("not for other.example"), "{}", refused.reason);
    prepare(&names(&["hall.example", "10.9.8.7"]), dir.path(), day_one()).unwrap();
}

/// A root made before roots were limited is kept (every tablet trusts it), and said to be
/// unlimited.
#[test]
fn a_root_without_constraints_is_kept_and_said_to_be_unlimited() {
    let dir = tempfile::tempdir().unwrap();
    let local_ca = dir.path().join("local-ca");
    std::fs::create_dir_all(&local_ca).unwrap();
    let key = rcgen::KeyPair::generate().unwrap();
    let mut params = rcgen::CertificateParams::default();
    params.distinguished_name.push(rcgen::DnType::CommonName, "Tournament Ledger hall root — old.example");
    params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Constrained(0));
    params.key_usages = vec![rcgen::KeyUsagePurpose::KeyCertSign, rcgen::KeyUsagePurpose::DigitalSignature];
    params.not_before = (day_one() - Duration::from_secs(86_400)).into();
    params.not_after = (day_one() + Duration::from_secs(3_000 * 86_400)).into();
    let old = params.self_signed(&key).unwrap();
    std::fs::write(local_ca.join("root-key.pem"), key.serialize_pem()).unwrap();
    std::fs::write(local_ca.join("root.pem"), old.pem()).unwrap();
    let root = prepare(&names(&["old.example", "anything.example"]), dir.path(), day_one()).unwrap();
    assert_eq!(root.der, old.der().to_vec(), "the old root is kept");
    assert_eq!(root.limited_to, None);
}
