//! Certificates by ACME (issue 34), against Debian's `pebble` (an RFC 8555 test authority):
//! ledgerd obtains a certificate for its name, serves it on the pages' port, renews it while it
//! runs (pebble issues certificates valid for seconds here) without dropping an open connection,
//! reuses what it kept at a restart, and its plain-HTTP port redirects to HTTPS only for its own
//! names. A missing pebble skips the test loudly, and fails it under `CI=true` (`.ci/run`
//! installs it).

use crate::daemon::Daemon;
use crate::support::{eventually, tls_client_trusting as connector};
use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, IsCa, KeyPair};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The name the certificate is for: pebble's validator resolves it to loopback, where ledgerd's
/// plain-HTTP port answers its HTTP-01 challenge.
const DOMAIN: &str = "localhost";
/// Pebble's certificates' validity: ledgerd renews when a third is left, every 20 s or so.
const VALIDITY_SECS: u64 = 30;

fn pebble_binary() -> Option<PathBuf> {
    crate::support::required_tool("pebble", "apt-get install pebble", "the ACME test")
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Pebble on loopback with its own HTTPS certificate (signed by `ca`), validating HTTP-01 on
/// `http_port`; stopped when dropped.
struct Pebble {
    child: Child,
    directory: String,
    management: String,
}

impl Pebble {
    fn start(dir: &Path, ca: &CertifiedIssuer<'static, KeyPair>, http_port: u16) -> Pebble {
        let key = KeyPair::generate().unwrap();
        let params = CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()]).unwrap();
        let cert = params.signed_by(&key, ca).unwrap();
        std::fs::write(dir.join("pebble.pem"), cert.pem()).unwrap();
        std::fs::write(dir.join("pebble.key"), key.serialize_pem()).unwrap();
        let (listen, management) = (free_port(), free_port());
        let config = serde_json::json!({ "pebble": {
            "listenAddress": format!("127.0.0.1:{listen}"),
            "managementListenAddress": format!("127.0.0.1:{management}"),
            "certificate": dir.join("pebble.pem"),
            "privateKey": dir.join("pebble.key"),
            "httpPort": http_port,
            "tlsPort": free_port(),
            "ocspResponderURL": "",
            "externalAccountBindingRequired": false,
            "certificateValidityPeriod": VALIDITY_SECS,
        }});
        std::fs::write(dir.join("pebble.json"), config.to_string()).unwrap();
        let child = Command::new("pebble")
            .args(["-config", dir.join("pebble.json").to_str().unwrap()])
            .env("PEBBLE_VA_NOSLEEP", "1")
            .env("PEBBLE_WFE_NONCEREJECT", "0")
            .stdout(std::fs::File::create(dir.join("pebble.log")).unwrap())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        Pebble {
            child,
            directory: format!("https://127.0.0.1:{listen}/dir"),
            management: format!("127.0.0.1:{management}"),
        }
    }
}

impl Drop for Pebble {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

type Tls = tokio_rustls::client::TlsStream<tokio::net::TcpStream>;

async fn connect(connector: &tokio_rustls::TlsConnector, addr: &str, name: &str) -> std::io::Result<Tls> {
    let tcp = tokio::net::TcpStream::connect(addr).await?;
    let name = rustls::pki_types::ServerName::try_from(name.to_owned()).unwrap();
    connector.connect(name, tcp).await
}

fn leaf(stream: &Tls) -> Vec<u8> {
    stream.get_ref().1.peer_certificates().unwrap()[0].to_vec()
}

/// One request, the answer read until the server closes (`Connection: close`; pebble, in Go,
/// closes without TLS's close_notify, which is no loss after a whole answer).
async fn exchange<S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin>(stream: &mut S, request: &str) -> String {
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    if let Err(error) = stream.read_to_end(&mut answer).await {
        assert_eq!(error.kind(), std::io::ErrorKind::UnexpectedEof, "{error}");
    }
    String::from_utf8_lossy(&answer).into_owned()
}

/// Pebble's root, from its management port (a new one each time pebble starts).
async fn pebble_root(
    pebble: &Pebble,
    ca: &CertifiedIssuer<'static, KeyPair>,
) -> Result<rustls::pki_types::CertificateDer<'static>, String> {
    use rustls::pki_types::pem::PemObject;
    let connector = connector(ca.der().clone());
    let mut stream = connect(&connector, &pebble.management, "127.0.0.1").await.map_err(|e| e.to_string())?;
    let answer = exchange(
        &mut stream,
        &format!("GET /roots/0 HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n", pebble.management),
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    Ok(rustls::pki_types::CertificateDer::from_pem_slice(answer.as_bytes()).unwrap())
}

/// Issue 34, items 1 to 3: a certificate obtained by ACME, served, renewed while a connection
/// stays open, reused at a restart; plain HTTP redirected to HTTPS for our own name only.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ledgerd_obtains_serves_and_renews_a_certificate_from_pebble() {
    if pebble_binary().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let ca = CertifiedIssuer::self_signed(ca_params, KeyPair::generate().unwrap()).unwrap();
    std::fs::write(dir.path().join("pebble-ca.pem"), ca.pem()).unwrap();
    let redirect_port = free_port();
    let pebble = Pebble::start(dir.path(), &ca, redirect_port);
    let data = dir.path().join("data");
    let redirect_listen = format!("127.0.0.1:{redirect_port}");
    let ca_root = dir.path().join("pebble-ca.pem");
    // A kept-alive connection waits for its next request as long as the header timeout lets it:
    // long enough here to outlive a renewal.
    let args = [
        "--http-header-timeout-secs",
        "120",
        "--http-idle-timeout-secs",
        "120",
        "--http-listen",
        "127.0.0.1:0",
        "--http-redirect-listen",
        &redirect_listen,
        "--acme-domain",
        DOMAIN,
        "--acme-directory",
        &pebble.directory,
        "--acme-contact",
        "mailto:organiser@example.org",
        "--acme-ca-root",
        ca_root.to_str().unwrap(),
    ];
    // Pebble may take a moment to listen: ledgerd's first order is retried until it does.
    let daemon = Daemon::spawn_with(&data, &args);
    let web = daemon.announced("http").to_owned();
    let root = eventually("pebble's root", Duration::from_secs(20), || async {
        match tokio::time::timeout(Duration::from_secs(5), pebble_root(&pebble, &ca)).await {
            Ok(root) => root,
            Err(_) => Err("pebble's management port did not answer".to_owned()),
        }
    })
    .await;
    let pebble_trusted = connector(root);
    // The certificate chains to pebble's root and is for our name: rustls checked both.
    let mut open = eventually("the pages to serve a certificate from pebble", Duration::from_secs(60), || async {
        connect(&pebble_trusted, &web, DOMAIN).await
    })
    .await;
    let first = leaf(&open);

    plain_http_is_redirected_for_our_name_only(&redirect_listen, &web).await;

    // Renewal: a new certificate (a new serial, so other bytes) for new connections, while the
    // connection opened before goes on.
    let second = eventually("a renewed certificate", Duration::from_secs(60), || async {
        let stream = connect(&pebble_trusted, &web, DOMAIN).await.map_err(|e| e.to_string())?;
        let served = leaf(&stream);
        if served == first {
            Err("still the first certificate".to_owned())
        } else {
            Ok(served)
        }
    })
    .await;
    assert_ne!(first, second);
    let page = exchange(&mut open, &format!("GET / HTTP/1.1\r\nHost: {DOMAIN}\r\nConnection: close\r\n\r\n")).await;
    assert!(page.starts_with("HTTP/1.1 200"), "the connection opened before the renewal goes on: {page}");

    // What ledgerd keeps: the account and the certificate with its key, owner-only.
    use std::os::unix::fs::PermissionsExt;
    for kept in ["account.json", "certificate.pem"] {
        let mode = std::fs::metadata(data.join("acme").join(kept)).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "{kept} is readable by ledgerd's user only");
    }
    let account = std::fs::read_to_string(data.join("acme/account.json")).unwrap();

    // A restart serves the kept certificate at once and keeps the account.
    let kept = newest_kept(&data);
    drop(daemon);
    let daemon = Daemon::spawn_with(&data, &args);
    let web = daemon.announced("http").to_owned();
    let stream = connect(&pebble_trusted, &web, DOMAIN).await.unwrap();
    let served = leaf(&stream);
    assert_eq!(served, kept, "the kept certificate is served at once after a restart (no new order)");
    assert_eq!(std::fs::read_to_string(data.join("acme/account.json")).unwrap(), account);
}

/// The leaf of `<data>/acme/certificate.pem`.
fn newest_kept(data: &Path) -> Vec<u8> {
    use rustls::pki_types::pem::PemObject;
    let pem = std::fs::read(data.join("acme/certificate.pem")).unwrap();
    rustls::pki_types::CertificateDer::pem_slice_iter(&pem).next().unwrap().unwrap().to_vec()
}

/// A plain-HTTP request to `addr` with this `Host`, the answer read to its end.
async fn plain_get(addr: &str, host: &str, path: &str, lang: &str) -> String {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept-Language: {lang}\r\nConnection: close\r\n\r\n");
    exchange(&mut stream, &request).await
}

async fn plain_http_is_redirected_for_our_name_only(redirect: &str, web: &str) {
    let port = web.rsplit_once(':').unwrap().1;
    let ours = plain_get(redirect, "LocalHost:80", "/board/t1?lang=es", "en").await;
    assert!(ours.starts_with("HTTP/1.1 308"), "{ours}");
    assert!(ours.contains(&format!("location: https://localhost:{port}/board/t1?lang=es\r\n")), "{ours}");
    for host in ["evil.example", "localhost.evil.example", "localhost@evil.example", "127.0.0.1"] {
        let theirs = plain_get(redirect, host, "/", "es").await;
        assert!(theirs.starts_with("HTTP/1.1 400"), "{host}: {theirs}");
        assert!(!theirs.to_ascii_lowercase().contains("location:"), "{host}: {theirs}");
        assert!(theirs.contains("Esta dirección no es de este registro"), "{host}: in the reader's language: {theirs}");
    }
    let unknown = plain_get(redirect, "localhost", "/.well-known/acme-challenge/not-a-token", "en").await;
    assert!(unknown.starts_with("HTTP/1.1 404"), "{unknown}");
}

/// Issue 34, item 3 with a certificate file (no ACME, so no list of names): plain HTTP goes to
/// the host the browser asked for, over HTTPS, if that host is well formed; and ledgerd refuses
/// to start a redirect with no certificate to redirect to.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_a_certificate_file_plain_http_goes_to_the_same_host_over_https() {
    let dir = tempfile::tempdir().unwrap();
    let key = KeyPair::generate().unwrap();
    let cert = CertificateParams::new(vec!["192.168.1.10".to_owned()]).unwrap().self_signed(&key).unwrap();
    let (cert_path, key_path) = (dir.path().join("cert.pem"), dir.path().join("key.pem"));
    std::fs::write(&cert_path, cert.pem()).unwrap();
    std::fs::write(&key_path, key.serialize_pem()).unwrap();
    let data = dir.path().join("data");
    let daemon = Daemon::spawn_with(
        &data,
        &[
            "--tls-cert",
            cert_path.to_str().unwrap(),
            "--tls-key",
            key_path.to_str().unwrap(),
            "--http-listen",
            "127.0.0.1:0",
            "--http-redirect-listen",
            "127.0.0.1:0",
        ],
    );
    let port = daemon.announced("http").rsplit_once(':').unwrap().1.to_owned();
    let redirect = daemon.announced("http-redirect").to_owned();
    let hall = plain_get(&redirect, "192.168.1.10", "/table/t1/g1", "en").await;
    assert!(hall.starts_with("HTTP/1.1 308"), "{hall}");
    assert!(hall.contains(&format!("location: https://192.168.1.10:{port}/table/t1/g1\r\n")), "{hall}");
    for host in ["evil.example/x", "a b", "evil.example:80@x"] {
        let bad = plain_get(&redirect, host, "/", "en").await;
        assert!(bad.starts_with("HTTP/1.1 400"), "{host}: {bad}");
        assert!(bad.contains("This address is not one of this ledger's"), "{host}: {bad}");
    }
    drop(daemon);
    let refusal = |flags: &[&str]| {
        let refused = Command::new(env!("CARGO_BIN_EXE_ledgerd"))
            .args(["--data-dir", data.to_str().unwrap(), "--listen", "127.0.0.1:0", "--http-listen", "127.0.0.1:0"])
            .args(flags)
            .output()
            .unwrap();
        assert!(!refused.status.success(), "{flags:?}");
        String::from_utf8_lossy(&refused.stderr).into_owned()
    };
    let said = refusal(&["--http-redirect-listen", "127.0.0.1:0"]);
    assert!(said.contains("--http-redirect-listen needs --http-listen and a certificate"), "{said}");
    // ACME without the plain-HTTP port could never answer its challenge: refused at start.
    let said = refusal(&["--acme-domain", "localhost"]);
    assert!(said.contains("--acme-domain needs --http-listen (the HTTPS pages) and --http-redirect-listen"), "{said}");
    let said = refusal(&["--acme-domain", "bad_name.example", "--http-redirect-listen", "127.0.0.1:0"]);
    assert!(said.contains("not a DNS name"), "{said}");
    assert!(!data.join("acme").exists(), "a refused start keeps nothing");
}
