"""Generates two crates with the same 100 structs of 8 fields each:

- `ours`: `#[derive(Contract)]` with bounds (schema, strict decoder, checks);
- `stack`: `#[derive(Deserialize, JsonSchema, Validate)]` (serde + schemars +
  garde), the nearest stack a user would otherwise assemble.

Usage: python3 generate.py OUT_DIR REPO_DIR
"""
import os
import sys

N_TYPES = 100

FIELDS = [
    ("id", "u64", "#[contract(min = 1)]", "#[garde(range(min = 1))]"),
    ("name", "String", "#[contract(min_len = 1, max_len = 80)]", "#[garde(length(chars, min = 1, max = 80))]"),
    ("note", "Option<String>", "#[contract(max_len = 500)]", "#[garde(length(chars, max = 500))]"),
    ("score", "f64", "#[contract(min = 0, max = 1)]", "#[garde(range(min = 0.0, max = 1.0))]"),
    ("count", "u32", "", "#[garde(skip)]"),
    ("active", "bool", "", "#[garde(skip)]"),
    ("tags", "Vec<String>", "#[contract(max_len = 10)]", "#[garde(length(max = 10))]"),
    ("level", "i16", "#[contract(min = -5, max = 5)]", "#[garde(range(min = -5, max = 5))]"),
]


def ours(repo):
    body = ["use contract_runtime::Contract;", ""]
    for i in range(N_TYPES):
        body.append(f"/// Contract number {i}.")
        body.append("#[derive(Contract, Debug)]")
        body.append(f"pub struct Contract{i} {{")
        for name, ty, attr, _ in FIELDS:
            if attr:
                body.append(f"    {attr}")
            body.append(f"    pub {name}: {ty},")
        body.append("}")
        body.append("")
    cargo = f"""[package]
name = "ours"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
contract-runtime = {{ path = "{repo}/contract-runtime" }}

# Built as a user's build builds them from crates.io, as the stack's crates
# are: cargo compiles path dependencies incrementally (they are "local"),
# registry ones not, and the incremental cache made the clean build of
# these three about 0.9 s of CPU slower.
[profile.dev.package.contract-core]
incremental = false
[profile.dev.package.contract-runtime]
incremental = false
[profile.dev.package.contract-macros]
incremental = false

[workspace]
"""
    return cargo, "\n".join(body)


def stack():
    body = ["use garde::Validate;", "use schemars::JsonSchema;", "use serde::Deserialize;", ""]
    for i in range(N_TYPES):
        body.append(f"/// Struct number {i}.")
        body.append("#[derive(Deserialize, JsonSchema, Validate, Debug)]")
        body.append("#[serde(deny_unknown_fields)]")
        body.append(f"pub struct Contract{i} {{")
        for name, ty, _, garde in FIELDS:
            body.append(f"    {garde}")
            body.append(f"    pub {name}: {ty},")
        body.append("}")
        body.append("")
    cargo = """[package]
name = "stack"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
serde = { version = "1", features = ["derive"] }
schemars = "1"
garde = { version = "0.23", features = ["derive"] }

[workspace]
"""
    return cargo, "\n".join(body)


def write(out, name, cargo, lib):
    os.makedirs(os.path.join(out, name, "src"), exist_ok=True)
    with open(os.path.join(out, name, "Cargo.toml"), "w") as f:
        f.write(cargo)
    with open(os.path.join(out, name, "src", "lib.rs"), "w") as f:
        f.write(lib)


def main():
    out, repo = sys.argv[1], os.path.abspath(sys.argv[2])
    write(out, "ours", *ours(repo))
    write(out, "stack", *stack())


if __name__ == "__main__":
    main()
