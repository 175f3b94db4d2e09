# A hall without internet (ledgerd --tls-local-ca): the sheet that makes a tablet trust the
# hall's own root. English; every message has its Spanish twin in es/hall.ftl. The menu names
# are those iPadOS and Android show in English.

hall-trust-title = Trust this hall's ledger on a tablet
hall-trust-intro = This hall has no internet, so the ledger signs its own certificate. Each tablet trusts it once: scan the code with the tablet, install the certificate and turn on its trust. Until then the tablet refuses the ledger's pages, and the table cannot work offline.
hall-trust-qr-label = Download of the hall's certificate
hall-trust-fingerprint-title = Check before you trust
hall-trust-fingerprint-intro = The tablet shows the certificate's SHA-256 fingerprint. It must be exactly this one; if it differs, do not install it and tell the organiser.
hall-trust-root-name = The certificate is called
hall-trust-ipad = iPad
hall-trust-ipad-1 = Scan the code with the Camera and open the link in Safari. Allow the download: "Profile Downloaded".
hall-trust-ipad-2 = Settings → General → VPN & Device Management → "{ $root }" → Install (check the fingerprint under More Details).
hall-trust-ipad-3 = Settings → General → About → Certificate Trust Settings → turn on full trust for "{ $root }".
hall-trust-ipad-4 = Without this last step Safari still refuses the pages.
hall-trust-android = Android tablet
hall-trust-android-1 = Scan the code and download the file: it is kept in Downloads.
hall-trust-android-2 = Settings → Security → Encryption & credentials → Install a certificate → CA certificate → Install anyway, and choose the downloaded file. (Some makers name the menus a little differently: search the settings for "CA certificate".)
hall-trust-android-3 = Check the fingerprint under Trusted credentials → User → "{ $root }".
hall-trust-then = Then open { $pages } on the tablet: the address bar shows a padlock and no warning.
hall-trust-limited = This certificate vouches only for this hall: the addresses of a private network and { $names }. A tablet that installs it trusts no other site because of it.
hall-trust-limited-addresses = This certificate vouches only for this hall: the addresses of a private network. A tablet that installs it trusts no other site because of it.
hall-trust-unlimited = This certificate was made by an older ledger and is not limited to this hall: it could vouch for any site. Ask the organiser to make a new one before installing it.
hall-trust-after = After the tournament remove the certificate (iPad: VPN & Device Management → Remove Profile; Android: Trusted credentials → User). Its key never leaves the ledger's computer.
hall-trust-none = This ledger has no certificate of its own to install: its pages use a certificate every tablet already trusts.
