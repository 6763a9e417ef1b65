//! Strict JSON reading.
