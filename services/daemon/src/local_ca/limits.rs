//! What the hall's root may vouch for (issue 42): a tablet that installs it must trust it for
//! this hall and nothing else. The root carries X.509 name constraints (RFC 5280, 4.2.1.10),
//! which browsers and rustls enforce on every certificate it signs: the DNS names given to
//! `--tls-local-ca` when the root was made (and their subdomains), and the private address
//! ranges a hall's network uses (with any other address given then), never a public site.
//!
//! A root made before this had no constraints. ledgerd never replaces a root (every tablet
//! would have to install the new one), so it goes on with it, says so at start and on the
//! trust sheet; moving `<data dir>/local-ca/` away makes a constrained one. A name given later
//! that the root does not permit is refused at start: its certificate would be refused by
//! every tablet.

use super::HallName;
use rcgen::{CidrSubnet, GeneralSubtree, NameConstraints};
use std::net::IpAddr;

/// The private ranges a hall's network uses: RFC 1918, loopback, link-local, IPv6 unique local
/// and link-local, IPv6 loopback.
const PRIVATE: [(&str, u8); 8] = [
    ("10.0.0.0", 8),
    ("172.16.0.0", 12),
    ("192.168.0.0", 16),
    ("127.0.0.0", 8),
    ("169.254.0.0", 16),
    ("fc00::", 7),
    ("fe80::", 10),
    ("::1", 128),
];

/// What a root permits: DNS names (each with its subdomains) and address ranges (network and
/// mask, 4 or 16 bytes each).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Permitted {
    pub dns: Vec<String>,
    pub nets: Vec<(Vec<u8>, Vec<u8>)>,
}

fn octets(ip: IpAddr) -> Vec<u8> {
    match ip {
        IpAddr::V4(ip) => ip.octets().to_vec(),
        IpAddr::V6(ip) => ip.octets().to_vec(),
    }
}

fn subnet(net: &CidrSubnet) -> (Vec<u8>, Vec<u8>) {
    match net {
        CidrSubnet::V4(addr, mask) => (addr.to_vec(), mask.to_vec()),
        CidrSubnet::V6(addr, mask) => (addr.to_vec(), mask.to_vec()),
    }
}

impl Permitted {
    /// What a new root for `names` permits: their DNS names, the private ranges, and each
    /// address given outside them.
    pub fn for_names(names: &[HallName]) -> Permitted {
        let nets = PRIVATE
            .iter()
            .map(|(net, prefix)| subnet(&CidrSubnet::from_addr_prefix(net.parse().expect("a literal"), *prefix)))
            .collect();
        let private = Permitted { dns: Vec::new(), nets };
        let mut permitted = private.clone();
        for name in names {
            match name {
                HallName::Dns(dns) => permitted.dns.push(dns.clone()),
                HallName::Ip(ip) if !private.allows(name) => {
                    let full = if ip.is_ipv4() { 32 } else { 128 };
                    permitted.nets.push(subnet(&CidrSubnet::from_addr_prefix(*ip, full)));
                }
                HallName::Ip(_) => {}
            }
        }
        permitted
    }

    /// Whether a certificate the root signs may name `name`.
    pub fn allows(&self, name: &HallName) -> bool {
        match name {
            HallName::Dns(name) => {
                self.dns.iter().any(|p| name == p || name.strip_suffix(p.as_str()).is_some_and(|h| h.ends_with('.')))
            }
            HallName::Ip(ip) => {
                let ip = octets(*ip);
                self.nets.iter().any(|(net, mask)| {
                    net.len() == ip.len() && ip.iter().zip(mask).zip(net).all(|((byte, mask), net)| byte & mask == *net)
                })
            }
        }
    }

    /// The constraints rcgen writes into the root.
    pub fn constraints(&self) -> NameConstraints {
        let dns = self.dns.iter().map(|name| GeneralSubtree::DnsName(name.clone()));
        let nets = self.nets.iter().map(|(net, mask)| {
            GeneralSubtree::IpAddress(match (<[u8; 4]>::try_from(&net[..]), <[u8; 4]>::try_from(&mask[..])) {
                (Ok(net), Ok(mask)) => CidrSubnet::V4(net, mask),
                _ => CidrSubnet::V6(
                    <[u8; 16]>::try_from(&net[..]).unwrap_or_default(),
                    <[u8; 16]>::try_from(&mask[..]).unwrap_or_default(),
                ),
            })
        });
        NameConstraints { permitted_subtrees: dns.chain(nets).collect(), excluded_subtrees: Vec::new() }
    }

    /// A root's constraints as read from its certificate; `None` when it has none (a root made
    /// before issue 42), which permits anything.
    pub fn of_root(cert: &x509_parser::certificate::X509Certificate<'_>) -> Option<Permitted> {
        use x509_parser::extensions::GeneralName;
        let constraints = cert.name_constraints().ok().flatten()?.value;
        let mut permitted = Permitted { dns: Vec::new(), nets: Vec::new() };
        for subtree in constraints.permitted_subtrees.iter().flatten() {
            match &subtree.base {
                GeneralName::DNSName(name) => permitted.dns.push(name.to_ascii_lowercase()),
                GeneralName::IPAddress(bytes) if bytes.len() == 8 || bytes.len() == 32 => {
                    let half = bytes.len() / 2;
                    permitted.nets.push((bytes[..half].to_vec(), bytes[half..].to_vec()));
                }
                _ => {}
            }
        }
        Some(permitted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_root_permits_the_halls_names_and_private_addresses_only() {
        let names = [
            HallName::Dns("hall.example".into()),
            HallName::Ip("192.168.1.10".parse().unwrap()),
            HallName::Ip("203.0.113.7".parse().unwrap()),
        ];
        let permitted = Permitted::for_names(&names);
        for ok in ["hall.example", "tablets.hall.example", "10.1.2.3", "192.168.77.1", "fe80::1", "::1", "203.0.113.7"]
        {
            let name = match ok.parse() {
                Ok(ip) => HallName::Ip(ip),
                Err(_) => HallName::Dns(ok.into()),
            };
            assert!(permitted.allows(&name), "{ok}");
        }
        for refused in ["example", "evilhall.example", "bank.example", "8.8.8.8", "203.0.113.8", "2001:db8::1"] {
            let name = match refused.parse() {
                Ok(ip) => HallName::Ip(ip),
                Err(_) => HallName::Dns(refused.into()),
            };
            assert!(!permitted.allows(&name), "{refused}");
        }
        assert_eq!(permitted.nets.len(), PRIVATE.len() + 1, "the public address given, and no other");
    }
}
