//! A tagged union's tag: found before the variant's members are decoded.
//!
//! Decision and cost model. Models write the tag first; then the tag is read
//! and the variant's members are decoded in the same pass (no extra work).
//! When a member comes before the tag, the members before it are skipped
//! (checked strictly, duplicate keys included) until the tag is found, the
//! reader rewinds to the first member, and the variant decodes the object
//! from there: the bytes before the tag are scanned twice, the rest once.
//! Only a missing tag or a tag that names no variant costs a scan of the
//! whole object, which then yields no value. The alternative, buffering the
//! members before the tag as `Value`s, would allocate for every such member
//! and decode them through a second path; skipping allocates only the keys.
use crate::code;
use crate::core::Collector;
use crate::error::Stage;
use crate::json::{KeySet, ParseError, Path, Peek, Reader, duplicate_key};

/// A tagged union's tag: its member name and the variants' names, in order.
#[derive(Debug)]
pub struct Tag {
    /// The tag member's name.
    pub name: &'static str,
    /// The variants' names (the tag's allowed values).
    pub variants: &'static [&'static str],
    /// "one of: \"a\", \"b\"", for messages.
    pub expected: &'static str,
}

/// Where the tag was found and where the variant's members begin.
#[derive(Debug, Clone, Copy)]
pub struct TagFound {
    /// The index of the variant the tag names.
    pub variant: usize,
    /// Whether a member follows (the reader is at its key).
    pub more: bool,
    /// Whether the tag member was consumed already (it was first): a second
    /// one is then a duplicate.
    pub tag_seen: bool,
}

/// With the reader at an object's `{`: finds the tag. `Ok(None)` when the
/// tag is missing, of the wrong type or names no variant: the error is
/// recorded at the tag's pointer, the object is skipped (still checked, as
/// any skipped value) and no member error is invented.
pub fn read_tag(
    r: &mut Reader<'_>,
    path: &Path<'_>,
    cx: &mut Collector,
    tag: &Tag,
) -> Result<Option<TagFound>, ParseError> {
    let tag_path = path.key(tag.name);
    if !r.begin_object()? {
        crate::decode::missing_key(cx, path, tag.name);
        return Ok(None);
    }
    let start = r.checkpoint();
    let mut keys = KeySet::default();
    let mut first = true;
    // Whether a tag was read (and named no variant).
    let mut found = false;
    loop {
        let at = r.offset();
        let key = r.read_key()?;
        // Only a key that is not the tag is copied (it outlives the skip).
        let key = (key != tag.name).then(|| key.to_owned());
        let fresh = keys.insert(key.as_deref().unwrap_or(tag.name));
        if !fresh {
            return Err(duplicate_key(at, path, key.as_deref().unwrap_or(tag.name)));
        }
        match key {
            None => {
                let Some(variant) = tag_value(r, &tag_path, cx, tag)? else {
                    found = true;
                    first = false;
                    if r.object_more()? {
                        continue;
                    }
                    break;
                };
                if first {
                    let more = r.object_more()?;
                    return Ok(Some(TagFound {
                        variant,
                        more,
                        tag_seen: true,
                    }));
                }
                r.rewind(start);
                return Ok(Some(TagFound {
                    variant,
                    more: true,
                    tag_seen: false,
                }));
            }
            Some(key) => r.skip_value(&path.key(&key))?,
        }
        first = false;
        if !r.object_more()? {
            break;
        }
    }
    if !found {
        crate::decode::missing_key(cx, path, tag.name);
    }
    Ok(None)
}

// The tag's value: a string naming a variant; anything else is recorded.
fn tag_value(
    r: &mut Reader<'_>,
    tag_path: &Path<'_>,
    cx: &mut Collector,
    tag: &Tag,
) -> Result<Option<usize>, ParseError> {
    match r.peek()? {
        Peek::String => {
            let value = r.read_str_ref()?;
            let index = tag.variants.iter().position(|v| *v == value);
            if index.is_none() {
                let message = if cx.is_full() {
                    String::new()
                } else {
                    format!("this tag names no variant: expected {}", tag.expected)
                };
                cx.error(
                    Stage::Schema,
                    tag_path,
                    code::UNKNOWN_VARIANT,
                    message,
                    tag.expected,
                );
            }
            Ok(index)
        }
        other => crate::decode::invalid_type(r, tag_path, cx, tag.expected, other),
    }
}
