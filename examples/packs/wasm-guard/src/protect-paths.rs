// A wasm hook in Rust (WASI preview 1, built by ../build.sh with Debian's rustc and
// libstd-rust-dev-wasm32): the same guard as examples/hooks/protect-paths.js. It reads the HookInput
// JSON on stdin, denies a write to a system path (exit 2, the reason on stderr), asks before a lock
// file is written (JSON on stdout), and says nothing otherwise. std only: a small JSON scanner,
// enough to find "file_path".
use std::io::{Read, Write};
use std::process::exit;

const SYSTEM: [&str; 4] = ["/etc/", "/usr/", "/bin/", "/boot/"];
const LOCKS: [&str; 3] = ["package-lock.json", "yarn.lock", "pnpm-lock.yaml"];

/// Reads the JSON string starting at `i` (just after its opening quote): its text and the index after it.
fn read_string(s: &[u8], mut i: usize) -> Option<(String, usize)> {
    let mut out = Vec::new();
    while i < s.len() && s[i] != b'"' {
        let mut c = s[i];
        i += 1;
        if c == b'\\' {
            let e = *s.get(i)?;
            i += 1;
            c = match e {
                b'n' => b'\n',
                b't' => b'\t',
                b'r' => b'\r',
                b'b' => 8,
                b'f' => 12,
                b'u' => {
                    let hex = std::str::from_utf8(s.get(i..i + 4)?).ok()?;
                    i += 4;
                    let v = u32::from_str_radix(hex, 16).ok()?;
                    if v < 128 { v as u8 } else { b'?' }
                }
                other => other,
            };
        }
        out.push(c);
    }
    if i >= s.len() {
        return None;
    }
    Some((String::from_utf8_lossy(&out).into_owned(), i + 1))
}

fn skip_space(s: &[u8], mut i: usize) -> usize {
    while i < s.len() && matches!(s[i], b' ' | b'\n' | b'\r' | b'\t') {
        i += 1;
    }
    i
}

/// The first key "file_path" whose value is a string, anywhere in the JSON.
fn find_file_path(s: &[u8]) -> Option<String> {
    let mut i = 0;
    while i < s.len() {
        if s[i] != b'"' {
            i += 1;
            continue;
        }
        let (key, after) = read_string(s, i + 1)?;
        let t = skip_space(s, after);
        i = after;
        if key != "file_path" || s.get(t) != Some(&b':') {
            continue;
        }
        let v = skip_space(s, t + 1);
        if s.get(v) == Some(&b'"') {
            return read_string(s, v + 1).map(|(p, _)| p);
        }
        i = v;
    }
    None
}

fn main() {
    let mut input = Vec::new();
    if std::io::stdin().read_to_end(&mut input).is_err() {
        exit(1);
    }
    let path = match find_file_path(&input) {
        Some(p) => p,
        None => return,
    };
    if SYSTEM.iter().any(|p| path.starts_with(p)) {
        eprint!("protect-paths: {} is a system path", path);
        exit(2);
    }
    let lock = LOCKS.iter().any(|l| path == *l || path.ends_with(&format!("/{}", l)));
    if lock {
        let answer = r#"{"decision":"ask","reason":"lock files are normally written by the package manager"}"#;
        let _ = std::io::stdout().write_all(answer.as_bytes());
    }
}
