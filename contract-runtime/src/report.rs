//! Per-stage counts and rates over many documents.
