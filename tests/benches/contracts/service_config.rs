//! A settings-like contract for the patch benchmark (`patch.rs`): a
//! service's configuration with nested objects, arrays of objects,
//! strings, numbers, booleans and enums, whose [`baseline`] pretty-prints to
//! about 500 lines. Its edit policy `tune` allows seven leaves.
#![allow(dead_code)]

use contract_runtime::Contract;
use serde_json::{Value, json};

#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(rename_all = "snake_case")]
pub enum Environment {
    Development,
    Staging,
    Production,
}

#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(rename_all = "snake_case")]
pub enum LogLevel {
    Error,
    Warn,
    Info,
    Debug,
}

#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Tls {
    pub enabled: bool,
    #[contract(min_len = 1, max_len = 256)]
    pub cert_path: String,
    #[contract(min_len = 1, max_len = 256)]
    pub key_path: String,
    pub min_version: String,
}

#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Cors {
    pub enabled: bool,
    #[contract(max_len = 32)]
    pub origins: Vec<String>,
    #[contract(max = 86400)]
    pub max_age_s: u32,
}

#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Server {
    #[contract(min_len = 1, max_len = 253)]
    pub host: String,
    #[contract(min = 1)]
    pub port: u16,
    #[contract(min = 100, max = 600000)]
    pub timeout_ms: u32,
    #[contract(min = 1, max = 256)]
    pub workers: u16,
    pub tls: Tls,
    pub cors: Cors,
}

#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Migrations {
    pub auto: bool,
    pub table: String,
}

#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Database {
    #[contract(min_len = 1)]
    pub url: String,
    #[contract(min = 1, max = 1000)]
    pub pool_size: u16,
    pub replica_urls: Vec<String>,
    pub statement_timeout_ms: u32,
    pub migrations: Migrations,
}

#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Cache {
    pub enabled: bool,
    pub ttl_s: u32,
    pub max_entries: u64,
    pub backend: String,
}

#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Sink {
    pub kind: String,
    pub target: String,
    pub enabled: bool,
}

#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Logging {
    pub level: LogLevel,
    pub format: String,
    pub sinks: Vec<Sink>,
}

#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Limits {
    #[contract(min = 1)]
    pub max_connections: u32,
    pub rate_per_minute: u32,
    pub burst: u32,
    pub max_body_bytes: u64,
}

#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Notifications {
    pub email: bool,
    pub sms: bool,
    pub webhook: Option<String>,
    #[contract(max = 23)]
    pub digest_hour: u8,
}

#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Feature {
    #[contract(min_len = 1, max_len = 64)]
    pub name: String,
    pub enabled: bool,
    #[contract(max = 100)]
    pub rollout_percent: u8,
    pub owners: Vec<String>,
}

#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Region {
    pub name: String,
    pub primary: bool,
    pub replicas: u8,
    pub zones: Vec<String>,
    #[contract(min = 0.0, max = 1.0)]
    pub weight: f64,
}

#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Maintenance {
    pub enabled: bool,
    #[contract(max_len = 500)]
    pub message: String,
    pub window: String,
}

/// A service's configuration, edited by a model under `tune`.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(edit(tune = [
    "/server/timeout_ms",
    "/database/pool_size",
    "/logging/level",
    "/limits/max_connections",
    "/limits/rate_per_minute",
    "/notifications/email",
    "/maintenance/message",
]))]
pub struct ServiceConfig {
    #[contract(min_len = 1, max_len = 64)]
    pub name: String,
    pub version: u32,
    pub environment: Environment,
    pub server: Server,
    pub database: Database,
    pub cache: Cache,
    pub logging: Logging,
    pub limits: Limits,
    pub notifications: Notifications,
    #[contract(max_len = 200)]
    pub features: Vec<Feature>,
    pub regions: Vec<Region>,
    pub maintenance: Maintenance,
}

/// The stored configuration: 36 features and 9 regions, about 500 lines
/// pretty-printed.
pub fn baseline() -> Value {
    let features: Vec<Value> = (0..36)
        .map(|i| {
            json!({
                "name": format!("feature_{i:02}"),
                "enabled": i % 3 != 0,
                "rollout_percent": (i * 7) % 101,
                "owners": [format!("team-{}", i % 5), format!("oncall-{}", i % 3)],
            })
        })
        .collect();
    let regions: Vec<Value> = (0..9)
        .map(|i| {
            let weight = [0.5, 0.25, 0.125][i % 3];
            json!({
                "name": format!("region-{i}"),
                "primary": i == 0,
                "replicas": 2 + i % 3,
                "zones": [format!("z{i}a"), format!("z{i}b"), format!("z{i}c")],
                "weight": weight,
            })
        })
        .collect();
    json!({
        "name": "billing-api",
        "version": 42,
        "environment": "production",
        "server": {
            "host": "billing.internal.example.com",
            "port": 8443,
            "timeout_ms": 30000,
            "workers": 16,
            "tls": {
                "enabled": true,
                "cert_path": "/etc/billing/tls/cert.pem",
                "key_path": "/etc/billing/tls/key.pem",
                "min_version": "1.2"
            },
            "cors": {
                "enabled": true,
                "origins": ["https://app.example.com", "https://admin.example.com"],
                "max_age_s": 600
            }
        },
        "database": {
            "url": "postgres://billing@db.internal.example.com:5432/billing",
            "pool_size": 20,
            "replica_urls": [
                "postgres://billing@replica-1.internal.example.com:5432/billing",
                "postgres://billing@replica-2.internal.example.com:5432/billing"
            ],
            "statement_timeout_ms": 15000,
            "migrations": {"auto": false, "table": "schema_migrations"}
        },
        "cache": {"enabled": true, "ttl_s": 300, "max_entries": 100000, "backend": "redis"},
        "logging": {
            "level": "info",
            "format": "json",
            "sinks": [
                {"kind": "stdout", "target": "-", "enabled": true},
                {"kind": "file", "target": "/var/log/billing/app.log", "enabled": true},
                {"kind": "syslog", "target": "udp://logs.internal.example.com:514", "enabled": false}
            ]
        },
        "limits": {
            "max_connections": 2000,
            "rate_per_minute": 6000,
            "burst": 200,
            "max_body_bytes": 1048576
        },
        "notifications": {
            "email": true,
            "sms": false,
            "webhook": "https://hooks.example.com/billing",
            "digest_hour": 8
        },
        "features": features,
        "regions": regions,
        "maintenance": {
            "enabled": false,
            "message": "Billing is briefly unavailable for maintenance.",
            "window": "Sun 02:00-04:00 UTC"
        }
    })
}

/// The changed leaves of the benchmark's edits, in the policy's order: the
/// pointer and the new value.
pub fn changes() -> [(&'static str, Value); 5] {
    [
        ("/notifications/email", json!(false)),
        ("/server/timeout_ms", json!(45000)),
        ("/limits/max_connections", json!(3000)),
        ("/limits/rate_per_minute", json!(9000)),
        ("/logging/level", json!("debug")),
    ]
}
