//! Compiles the .proto files with protox (pure Rust), so no `protoc` is needed.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let files = [
        "tournament_ledger/v1/ledger.proto",
        "tournament_ledger/v1/events.proto",
        "tournament_ledger/v1/projections.proto",
    ];
    for file in files {
        println!("cargo:rerun-if-changed={file}");
    }
    let descriptors = protox::compile(files, ["."])?;
    let out_dir = std::path::PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(out_dir.join("descriptor.bin"), prost::Message::encode_to_vec(&descriptors))?;
    // `RecordedEventPage` is written by hand (src/page.rs): same wire format, and it can carry
    // events a server encoded once, while reading them.
    tonic_prost_build::configure()
        .extern_path(".tournament_ledger.v1.RecordedEventPage", "crate::page::RecordedEventPage")
        .compile_fds(descriptors)?;
    Ok(())
}
