//! The shape of a contract type as a compile-time constant, so that an edit
//! pointer can be followed through nested contract types by a `const`
//! assertion in the derive of the outer type.

/// What a pointer segment can step into.
#[derive(Debug, Clone, Copy)]
pub enum Shape {
    /// A scalar (boolean, number, string, date, enum).
    Leaf,
    /// An array: atomic for edits; a pointer may name it, not its elements.
    Array,
    /// A map: atomic for edits, like an array.
    Map,
    /// A contract struct: its fields' JSON names and shapes.
    Object(&'static [(&'static str, &'static Shape)]),
}

/// Why a pointer does not resolve, with the index of the segment at fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unresolved {
    /// The object at this point has no field of that name.
    NoField(usize),
    /// The segment steps into an array or map element.
    IntoCollection(usize),
    /// The segment steps into a scalar.
    IntoScalar(usize),
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Follows unescaped `segments` from `shape`; usable in `const` context.
pub const fn follow(shape: &Shape, segments: &[&str]) -> Result<(), Unresolved> {
    let mut current = shape;
    let mut i = 0;
    while i < segments.len() {
        match current {
            Shape::Object(fields) => {
                let mut j = 0;
                let mut found: Option<&Shape> = None;
                while j < fields.len() {
                    if str_eq(fields[j].0, segments[i]) {
                        found = Some(fields[j].1);
                        break;
                    }
                    j += 1;
                }
                match found {
                    Some(next) => current = next,
                    None => return Err(Unresolved::NoField(i)),
                }
            }
            Shape::Array | Shape::Map => return Err(Unresolved::IntoCollection(i)),
            Shape::Leaf => return Err(Unresolved::IntoScalar(i)),
        }
        i += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const INNER: Shape = Shape::Object(&[("email", &Shape::Leaf)]);
    const OUTER: Shape = Shape::Object(&[("notifications", &INNER), ("channels", &Shape::Array)]);

    #[test]
    fn resolves_through_nested_objects() {
        assert_eq!(follow(&OUTER, &["notifications", "email"]), Ok(()));
        assert_eq!(follow(&OUTER, &["channels"]), Ok(()));
        assert_eq!(follow(&OUTER, &[]), Ok(()));
    }

    #[test]
    fn names_the_segment_at_fault() {
        assert_eq!(
            follow(&OUTER, &["notifications", "emial"]),
            Err(Unresolved::NoField(1))
        );
        assert_eq!(
            follow(&OUTER, &["channels", "0"]),
            Err(Unresolved::IntoCollection(1))
        );
        assert_eq!(
            follow(&OUTER, &["notifications", "email", "x"]),
            Err(Unresolved::IntoScalar(2))
        );
    }
}
