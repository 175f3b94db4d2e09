//! The two certificates rcgen makes: the hall's root (a CA that signs only end certificates,
//! for the hall's names and private addresses only) and the pages' certificate it signs (a
//! server's, for the hall's names and addresses). Certificates only: where they are kept is
//! the store's, which asks for the root here when it has none.

use super::limits::Permitted;
use super::{HallName, BACKDATE, ROOT_LIFETIME, SERVER_LIFETIME};
use rcgen::{
    BasicConstraints, CertificateParams, DistinguishedName, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose, SanType,
};
use std::time::SystemTime;

/// A certificate's common name is at most 64 characters (RFC 5280's upper bound).
const MAX_COMMON_NAME: usize = 64;
const ROOT_NAME: &str = "Tournament Ledger hall root — ";

/// The root's name as a tablet lists it among its installed profiles: the project and the hall
/// (its first name), so that a tablet that has been to several halls tells them apart.
fn root_common_name(first: &HallName) -> String {
    let room = MAX_COMMON_NAME - ROOT_NAME.chars().count();
    let hall: String = first.host().chars().take(room).collect();
    format!("{ROOT_NAME}{hall}")
}

/// The root's self-signed certificate (PEM) for `key`: a CA with path length 0 (it signs the
/// pages' certificates, never another CA), valid ten years from a day ago, constrained to
/// `names` and the private address ranges ([`Permitted`], issue 42).
pub(super) fn root(key: &KeyPair, names: &[HallName], now: SystemTime) -> Result<String, rcgen::Error> {
    let first = &names[0];
    let mut params = CertificateParams::default();
    let mut name = DistinguishedName::new();
    name.push(DnType::CommonName, root_common_name(first));
    name.push(DnType::OrganizationName, "Tournament Ledger");
    params.distinguished_name = name;
    params.is_ca = IsCa::Ca(BasicConstraints::Constrained(0));
    params.name_constraints = Some(Permitted::for_names(names).constraints());
    params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign, KeyUsagePurpose::DigitalSignature];
    params.not_before = (now - BACKDATE).into();
    params.not_after = (now + ROOT_LIFETIME).into();
    Ok(params.self_signed(key)?.pem())
}

/// A new key and the pages' certificate for `names`, signed by the hall's root (`root`, valid
/// until `root_not_after`): the certificate, then the key, in PEM (the file the pages' port
/// reads). Never valid past the root.
pub(super) fn server(
    root: &Issuer<'_, &KeyPair>,
    root_not_after: SystemTime,
    names: &[HallName],
    now: SystemTime,
) -> Result<String, rcgen::Error> {
    let mut params = CertificateParams::default();
    params.subject_alt_names = names
        .iter()
        .map(|name| match name {
            HallName::Dns(dns) => dns.clone().try_into().map(SanType::DnsName),
            HallName::Ip(ip) => Ok(SanType::IpAddress(*ip)),
        })
        .collect::<Result<_, _>>()?;
    let mut subject = DistinguishedName::new();
    subject.push(DnType::CommonName, names[0].host().chars().take(MAX_COMMON_NAME).collect::<String>());
    params.distinguished_name = subject;
    params.is_ca = IsCa::ExplicitNoCa;
    params.key_usages = vec![KeyUsagePurpose::DigitalSignature];
    params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    params.use_authority_key_identifier_extension = true;
    params.not_before = (now - BACKDATE).into();
    params.not_after = (now + SERVER_LIFETIME).min(root_not_after).into();
    let key = KeyPair::generate()?;
    let cert = params.signed_by(&key, root)?;
    Ok(format!("{}\n{}", cert.pem().trim_end(), key.serialize_pem()))
}
