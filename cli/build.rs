//! With feature `docs` (on by default): indexes the reference (`docs/*.md`, the READMEs,
//! `docs/openapi.json`) for `docs:search` and `docs:get`. The index is written to
//! `OUT_DIR/reference-index.bin` and embedded in the binary (`src/commands/docs.rs`), so that a
//! search only decodes it.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=build.rs");
    #[cfg(feature = "docs")]
    {
        use std::path::PathBuf;
        let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?);
        let (builder, read) = jobgraph_docsindex::build::index(&manifest.join(".."))?;
        for path in read {
            println!("cargo:rerun-if-changed={}", path.display());
        }
        let out = PathBuf::from(std::env::var("OUT_DIR")?).join("reference-index.bin");
        std::fs::write(&out, builder.encode())?;
    }
    Ok(())
}
