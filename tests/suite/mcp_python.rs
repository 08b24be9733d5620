//! A real client: the official Python MCP SDK (PyPI `mcp`, which `.ci/run` installs) runs a
//! whole session of `deckbox mcp` (`mcp_python.py`): initialize with one root, list the
//! tools, call every tool with good and bad arguments, read a resource, and see a path
//! outside the root refused.

#![allow(clippy::unwrap_used, reason = "tests fail loudly")]

use crate::common::{deckbox_command, needs, repo, tool};

#[test]
fn a_python_client_runs_a_whole_session() {
    let test = "mcp_python::a_python_client_runs_a_whole_session";
    if !tool("python3", "--version", test) {
        return;
    }
    let sdk = std::process::Command::new("python3")
        .args(["-c", "import mcp.client.stdio"])
        .output()
        .is_ok_and(|out| out.status.success());
    if !needs(sdk, test, "the Python MCP SDK (pip install mcp)") {
        return;
    }
    // The root and, beside it, a list the session may not read.
    let outer = tempfile::tempdir().unwrap();
    let outside = outer.path().join("outside.txt");
    std::fs::copy(repo().join("examples/broken.txt"), &outside).unwrap();
    let root_path = outer.path().join("root");
    std::fs::create_dir(&root_path).unwrap();
    for file in [
        "examples/dragapult.txt",
        "examples/broken.txt",
        "examples/collection/binder.txt",
    ] {
        let name = std::path::Path::new(file).file_name().unwrap();
        std::fs::copy(repo().join(file), root_path.join(name)).unwrap();
    }
    let root_path = std::fs::canonicalize(root_path).unwrap();
    // The binary's environment (its fixed date) reaches the server through the client.
    let command = deckbox_command();
    let envs: Vec<(String, String)> = command
        .get_envs()
        .filter_map(|(key, value)| Some((key.to_str()?.to_string(), value?.to_str()?.to_string())))
        .collect();
    let output = std::process::Command::new("python3")
        .arg(repo().join("tests/suite/mcp_python.py"))
        .arg(env!("CARGO_BIN_EXE_deckbox"))
        .arg(&root_path)
        .arg(&outside)
        .envs(envs)
        .env("DECKBOX_CACHE_DIR", root_path.join(".cache"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.ends_with("ok\n"),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
