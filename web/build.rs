//! Embeds the puzzle set into the site, after validating it with the same
//! loader the command-line tool uses: a broken puzzle set fails the build with the
//! loader's messages (file, line, field). Two forms: the files themselves,
//! which the judge's worker loads (it needs the reference functions and the
//! random-case generators), and the page's copy of the loaded set, baked
//! with `postcard` (statements and hints rendered from Markdown to sanitised
//! HTML here, once): its table of contents compiled into the page, and each
//! puzzle's page data as a file the page fetches when the puzzle is opened.

use gpu_puzzles_core::markdown::to_safe_html;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("..");
    // The page's wasm keeps its relocations, which wasm-split reads to cut
    // it at the split points of src/deferred.rs (scripts/split/wasm-bindgen
    // runs it before wasm-bindgen); the worker's wasm is not split.
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-bin=gpu-puzzles-web=--emit-relocs");
    }
    // GPU_PUZZLES_SET=<dir> builds the site from another puzzle set (a folder
    // holding puzzles/ and shaders/), e.g. a workshop's own.
    println!("cargo:rerun-if-env-changed=GPU_PUZZLES_SET");
    let set =
        std::env::var_os("GPU_PUZZLES_SET").map(PathBuf::from).unwrap_or_else(|| root.clone());
    let puzzles = set.join("puzzles");
    let shaders = set.join("shaders");
    println!("cargo:rerun-if-changed={}", puzzles.display());
    println!("cargo:rerun-if-changed={}", shaders.display());
    let files = gpu_puzzles_core::load::read_dir(&puzzles).unwrap_or_else(|e| fail(&e.to_string()));
    for name in files.keys() {
        println!("cargo:rerun-if-changed={}", puzzles.join(name).display());
    }
    // Our solutions are validated with the set (a stray or unreadable file
    // fails the build) but not embedded: scripts/post-build.mjs puts them
    // beside the site as files, fetched when asked for. A set without
    // shaders/ builds a site without solutions.
    let solutions = shaders.is_dir().then(|| {
        let s = gpu_puzzles_core::load::read_solutions(&shaders)
            .unwrap_or_else(|e| fail(&e.to_string()));
        for slug in s.keys() {
            println!("cargo:rerun-if-changed={}", shaders.join(format!("{slug}.wgsl")).display());
        }
        s
    });
    let set =
        gpu_puzzles_core::load_puzzle_set(&files, solutions.as_ref()).unwrap_or_else(|problems| {
            let text: Vec<String> = problems.iter().map(|p| format!("puzzles/{p}")).collect();
            fail(&format!(
                "the puzzle set has {} problem(s):\n{}",
                problems.len(),
                text.join("\n")
            ));
        });
    // The page's copy of the set, baked: parsed, checked and with every
    // written case's expected values computed here, so that neither the
    // TOML reader nor the loader nor the reference functions are in the
    // page's wasm. Statements and hints are rendered from Markdown to
    // sanitised HTML here, so the Markdown renderer stays out too.
    // Hidden cases' data is left out: the page never shows it (the judge's
    // worker has its own copy of the set), and it is most of the set's
    // numbers. Their expected values go, and their inputs become a recipe
    // of zeros of the same length, which keeps the sizes the page states.
    let mut baked = set.clone();
    for p in &mut baked.puzzles {
        p.solution = None;
        p.statement = to_safe_html(&p.statement);
        p.hints = p.hints.iter().map(|h| to_safe_html(h)).collect();
        let elements: Vec<_> = p.buffers.iter().map(|b| b.element).collect();
        for c in p.cases.iter_mut().filter(|c| c.hidden) {
            let performance = c.is_performance();
            for (b, &element) in c.buffers.iter_mut().zip(&elements) {
                b.expected = None;
                if !performance {
                    b.initial = gpu_puzzles_core::contents::Contents::generated(
                        b.initial.len(),
                        gpu_puzzles_core::contents::Recipe::Zeros(element),
                    );
                }
            }
        }
    }
    // The page's wasm holds the set's table of contents only; each
    // puzzle's page data is a file of its own, `puzzle-data/<slug>.postcard`,
    // which scripts/post-build.mjs copies beside the site and the page
    // fetches when the puzzle is opened (src/puzzle_data.rs). A version
    // (FNV-1a, 64 bits, over the files' names and bytes) goes into the
    // page's wasm and into `puzzle-data/VERSION`, so post-build.mjs can
    // tell this build's files from another's, and the page asks for them
    // with `?v=VERSION`.
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let bake = |what: &str, value: Result<Vec<u8>, postcard::Error>| {
        value.unwrap_or_else(|e| fail(&format!("{what} could not be baked: {e}")))
    };
    let index = bake("the puzzle set's index", postcard::to_stdvec(&baked.index()));
    std::fs::write(out_dir.join("puzzle_index.postcard"), index).unwrap();
    let data_dir = out_dir.join("puzzle-data");
    let _ = std::fs::remove_dir_all(&data_dir);
    std::fs::create_dir_all(&data_dir).unwrap();
    let mut version: u64 = 0xcbf2_9ce4_8422_2325;
    for p in &baked.puzzles {
        let name = format!("{}.postcard", p.slug);
        let bytes = bake(&format!("puzzle `{}`", p.slug), postcard::to_stdvec(p));
        for b in name.bytes().chain(bytes.iter().copied()) {
            version = (version ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        std::fs::write(data_dir.join(name), bytes).unwrap();
    }
    std::fs::write(data_dir.join("VERSION"), format!("{version:016x}")).unwrap();
    println!("cargo:rustc-env=GPU_PUZZLES_DATA_VERSION={version:016x}");
    let mut out = String::new();
    // The judge's worker loads each puzzle from these files with the
    // loader, which cannot decode a photograph in wasm: manifests that use
    // one are embedded with its grey levels written in (written out beside
    // the others), and the PNG files are left out.
    let resolved = gpu_puzzles_core::load::with_photographs_resolved(&files)
        .unwrap_or_else(|p| fail(&format!("a photograph could not be resolved: {p:?}")));
    let resolved_dir = out_dir.join("resolved");
    let _ = std::fs::remove_dir_all(&resolved_dir);
    out.push_str("/// Files of `puzzles/`: path relative to it, contents.\npub const PUZZLE_FILES: &[(&str, &str)] = &[\n");
    for (name, text) in resolved.iter().filter(|(n, _)| !n.ends_with('/')) {
        let path = if files.get(name) == Some(text) {
            puzzles.join(name)
        } else {
            let path = resolved_dir.join(name);
            std::fs::create_dir_all(path.parent().expect("a manifest is in a folder")).unwrap();
            std::fs::write(&path, text).unwrap();
            path
        };
        writeln!(out, "    ({name:?}, include_str!({:?})),", abs(&path)).unwrap();
    }
    out.push_str("];\n");
    std::fs::write(out_dir.join("puzzle_files.rs"), out).unwrap();
    fingerprint(&root);
}

/// The page and the worker check every message against a fingerprint of
/// the sources that define the messages (`protocol::FINGERPRINT`), so a page
/// never reads a worker of another build: FNV-1a over the Rust sources of
/// the site and of the crates its messages carry types from, and the lock
/// file (the serde and postcard versions).
fn fingerprint(root: &Path) {
    fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, files);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    let mut files = vec![root.join("Cargo.lock")];
    for dir in [
        "web/src",
        "crates/values/src",
        "crates/reference/src",
        "crates/core/src",
        "crates/interp/src",
    ] {
        println!("cargo:rerun-if-changed={}", root.join(dir).display());
        walk(&root.join(dir), &mut files);
    }
    println!("cargo:rerun-if-changed={}", root.join("Cargo.lock").display());
    files.sort();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for f in &files {
        let name = f.strip_prefix(root).unwrap_or(f).to_string_lossy().into_owned();
        for b in name.bytes().chain(std::fs::read(f).unwrap_or_default()) {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    println!("cargo:rustc-env=GPU_PUZZLES_PROTOCOL={hash:016x}");
}

fn abs(p: &Path) -> String {
    p.canonicalize().unwrap_or_else(|_| p.to_path_buf()).display().to_string()
}

fn fail(message: &str) -> ! {
    for line in message.lines() {
        println!("cargo:warning={line}");
    }
    eprintln!("{message}");
    std::process::exit(1);
}
