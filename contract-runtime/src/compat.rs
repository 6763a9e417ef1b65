//! Compatibility between two versions of a contract's schema.
