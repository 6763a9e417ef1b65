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
    /// A `Box<T>`: a pointer may name it, not step into it. The inner
    /// type's shape is not followed, so that a recursive contract
    /// (`left: Option<Box<Tree>>`) has a finite `SHAPE`; a boxed value
    /// changes as a whole, like a collection.
    Boxed,
    /// A contract struct: its fields' JSON names and shapes.
    Object(&'static [(&'static str, &'static Shape)]),
    /// A tagged union: its tag (a scalar member of every variant) and one
    /// object shape per variant. A segment resolves when one variant has it.
    Union {
        /// The tag member's name.
        tag: &'static str,
        /// The variants' shapes.
        variants: &'static [&'static Shape],
    },
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
    /// The segment steps into a `Box`ed value.
    IntoBox(usize),
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

/// Whether `names` holds `name`; usable in `const` context (a newtype
/// variant's struct must not have a member named like the union's tag).
pub const fn names_contain(names: &[&str], name: &str) -> bool {
    let mut i = 0;
    while i < names.len() {
        if str_eq(names[i], name) {
            return true;
        }
        i += 1;
    }
    false
}

/// Follows unescaped `segments` from `shape`; usable in `const` context.
pub const fn follow(shape: &Shape, segments: &[&str]) -> Result<(), Unresolved> {
    follow_from(shape, segments, 0)
}

// Follows `segments[i..]`; a union tries each variant for the rest, and
// reports the first error that got past its own segment, if any.
const fn follow_from(shape: &Shape, segments: &[&str], start: usize) -> Result<(), Unresolved> {
    let mut current = shape;
    let mut i = start;
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
            Shape::Union { tag, variants } => {
                if str_eq(tag, segments[i]) {
                    current = &Shape::Leaf;
                    i += 1;
                    continue;
                }
                let mut err = Unresolved::NoField(i);
                let mut j = 0;
                while j < variants.len() {
                    match follow_from(variants[j], segments, i) {
                        Ok(()) => return Ok(()),
                        Err(Unresolved::NoField(k)) if k == i => {}
                        Err(e) => err = e,
                    }
                    j += 1;
                }
                return Err(err);
            }
            Shape::Array | Shape::Map => return Err(Unresolved::IntoCollection(i)),
            Shape::Boxed => return Err(Unresolved::IntoBox(i)),
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

    const REFUND: Shape = Shape::Object(&[("order_id", &Shape::Leaf)]);
    const CLOSE: Shape = Shape::Object(&[("reason", &Shape::Leaf)]);
    const STEP: Shape = Shape::Union {
        tag: "action",
        variants: &[&CLOSE, &REFUND],
    };
    const HOLDER: Shape = Shape::Object(&[("step", &STEP)]);

    #[test]
    fn a_union_segment_resolves_when_one_variant_declares_it() {
        assert_eq!(follow(&HOLDER, &["step", "reason"]), Ok(()));
        assert_eq!(follow(&HOLDER, &["step", "order_id"]), Ok(()));
        assert_eq!(follow(&HOLDER, &["step", "action"]), Ok(()));
        assert_eq!(follow(&HOLDER, &["step"]), Ok(()));
        assert_eq!(
            follow(&HOLDER, &["step", "nope"]),
            Err(Unresolved::NoField(1))
        );
        assert_eq!(
            follow(&HOLDER, &["step", "reason", "x"]),
            Err(Unresolved::IntoScalar(2))
        );
        assert_eq!(
            follow(&HOLDER, &["step", "action", "x"]),
            Err(Unresolved::IntoScalar(2))
        );
    }

    // What a recursive tree's derive emits: the boxed fields are opaque, so
    // the shape is finite and following it ends.
    const TREE: Shape = Shape::Object(&[
        ("name", &Shape::Leaf),
        ("children", &Shape::Array),
        ("left", &Shape::Boxed),
    ]);
    const FOREST: Shape = Shape::Object(&[("tree", &TREE)]);

    #[test]
    fn a_pointer_through_a_recursive_type_ends_at_its_box_or_array() {
        assert_eq!(follow(&FOREST, &["tree", "left"]), Ok(()));
        assert_eq!(
            follow(&FOREST, &["tree", "left", "name"]),
            Err(Unresolved::IntoBox(2))
        );
        assert_eq!(
            follow(&FOREST, &["tree", "children", "0", "name"]),
            Err(Unresolved::IntoCollection(2))
        );
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
