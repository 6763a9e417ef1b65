//! Changed paths between two JSON documents.
