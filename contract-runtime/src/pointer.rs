//! RFC 6901 JSON Pointer.
