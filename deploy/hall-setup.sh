#!/usr/bin/env bash
# From a fresh machine to a signed-in organiser on HTTPS, in one command (run as root, from the
# repository, after `cargo build --release`):
#
#   deploy/hall-setup.sh ledger.example.org olga [mailto:olga@example.org]
#
# installs ledgerd, its systemd unit and deploy/hall.env for that name (a certificate by ACME,
# port 443, plain HTTP on 80 redirected), keeps the first organiser's code in the data
# directory, starts ledgerd and prints the organiser's sign-in link.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
  echo "usage: $0 <the hall's DNS name> <the organiser's name> [mailto:contact]" >&2
  exit 2
fi
domain="$1" organiser="$2" contact="${3:-}"
install -m 0755 target/release/ledgerd /usr/local/bin/ledgerd
install -m 0644 deploy/ledgerd.service /etc/systemd/system/ledgerd.service
sed -e "s|^LEDGER_ACME_DOMAIN=.*|LEDGER_ACME_DOMAIN=$domain|" \
    -e "s|^# LEDGER_ACME_CONTACT=.*|${contact:+LEDGER_ACME_CONTACT=$contact}|" \
    deploy/hall.env > /etc/default/ledgerd
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
echo "ledgerd runs; its certificate arrives within a minute (journalctl -u ledgerd: 'ACME: a new certificate is served')."
