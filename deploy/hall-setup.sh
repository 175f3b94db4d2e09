#!/usr/bin/env bash
# From a fresh machine to a signed-in organiser on HTTPS, in one command (run as root, from the
# repository, after `cargo build --release`):
#
#   deploy/hall-setup.sh ledger.example.org olga [mailto:olga@example.org]
#
# installs ledgerd, its systemd unit and deploy/hall.env for that name (a certificate by ACME,
# port 443, plain HTTP on 80 redirected), keeps the first organiser's code in the data
# directory, starts ledgerd and prints the organiser's sign-in link.
#
# A hall without internet (no authority to ask for a certificate):
#
#   deploy/hall-setup.sh --local-ca 192.168.1.10,ledger.lan olga
#
# gives the venue laptop's LAN address(es) and name instead (the first is what the tablets open);
# ledgerd makes its own root in the data directory and signs the pages' certificate with it.
# Then print http://<first name>/hall/trust and install the root on each tablet, once.
set -euo pipefail
cd "$(dirname "$0")/.."
local_ca=""
if [ "${1:-}" = "--local-ca" ]; then
  local_ca=yes
  shift
fi
if [ $# -lt 2 ]; then
  echo "usage: $0 <the hall's DNS name> <the organiser's name> [mailto:contact]" >&2
  echo "       $0 --local-ca <LAN address,name,…> <the organiser's name>" >&2
  exit 2
fi
domain="$1" organiser="$2" contact="${3:-}"
install -m 0755 target/release/ledgerd /usr/local/bin/ledgerd
install -m 0644 deploy/ledgerd.service /etc/systemd/system/ledgerd.service
if [ -n "$local_ca" ]; then
  names="$domain"
  domain="${names%%,*}"
  sed -e "s|^LEDGER_ACME_DOMAIN=.*|# LEDGER_ACME_DOMAIN=|" \
      -e "s|^# LEDGER_TLS_LOCAL_CA=.*|LEDGER_TLS_LOCAL_CA=$names|" \
      deploy/hall.env > /etc/default/ledgerd
else
  sed -e "s|^LEDGER_ACME_DOMAIN=.*|LEDGER_ACME_DOMAIN=$domain|" \
      -e "s|^# LEDGER_ACME_CONTACT=.*|${contact:+LEDGER_ACME_CONTACT=$contact}|" \
      deploy/hall.env > /etc/default/ledgerd
fi
systemctl daemon-reload
# ledgerd refuses to serve a network open, so the organiser's code comes first. With
# DynamicUser, systemd keeps the data directory in /var/lib/private/ledgerd (/var/lib/ledgerd
# links to it) and, at start, gives what is in it to ledgerd's user.
install -d -m 0700 /var/lib/private
data=/var/lib/private/ledgerd/data
mkdir -p "$data"
ledgerd organiser --data-dir "$data" --url "https://$domain" --name "$organiser"
systemctl enable ledgerd
systemctl restart ledgerd
if [ -z "$local_ca" ]; then
  echo "ledgerd runs; its certificate arrives within a minute (journalctl -u ledgerd: 'ACME: a new certificate is served')."
  exit 0
fi
# The root is made at start: wait for it, and say what the tablets must see.
for _ in $(seq 1 30); do
  [ -s "$data/local-ca/root.pem" ] && break
  sleep 1
done
echo "ledgerd runs with the hall's own root ($data/local-ca/root.pem; its key never leaves this machine)."
if command -v openssl >/dev/null; then
  echo "Its $(openssl x509 -in "$data/local-ca/root.pem" -noout -fingerprint -sha256)"
fi
echo "Print http://$domain/hall/trust (or http://localhost/hall/trust on this machine) and install the root on each tablet:"
echo "the tablet scans the sheet's code, installs the certificate and turns on its trust; then it opens https://$domain/."
