//! Calendar dates.
