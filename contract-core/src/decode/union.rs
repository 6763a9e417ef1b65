//! A tagged union: its tag found, and the variant it names decoded.
//!
//! Decision and cost model, in the order [`decode_union`] tries them:
//!
//! 1. **The tag first**, written plainly (models usually do this): its key is
//!    matched as raw bytes and its value read at once, with no key set and
//!    no path built; the variant's members are decoded in the same pass.
//! 2. **Another member first**: a variant is guessed from it: the first
//!    whose first member's key is that key as written (matched raw, with
//!    no key read), else the first that declares it ([`Tag::members`]).
//!    That variant decodes the object from its first member, as it would
//!    once the tag is known, and reads the tag's value when it meets the
//!    tag ([`TagSeen`](crate::json_type::TagSeen)). When the tag names that
//!    variant, the pass was the decode: every member is read once. The
//!    guess ends as soon as it is known to be wrong: at a key the variant
//!    does not declare, before the tag (nothing recorded for it; the first
//!    variant declaring that key is guessed once more, from the first
//!    member, since variants often share their first members), or at a tag
//!    naming another variant. The errors recorded are taken back
//!    ([`Collector::save`]) and the variant the tag names decodes the
//!    object again; after a key no guess declares, the tag is searched for
//!    from that key on (the members before it were read, well formed and
//!    without a duplicate). No guess is made inside another, nor inside an
//!    object read again after a wrong guess: nested wrong guesses would
//!    multiply the passes level by level. The next union beside it guesses
//!    again.
//! 3. **Otherwise** (the first key is the tag written with escapes, or a key
//!    no variant declares, or the guess met no tag naming a variant, or a
//!    parse error): the reader looks ahead, skipping the members before the
//!    tag, and rewinds to the first member for the variant it names. The
//!    look-ahead keeps no key set: the variant reads every member again and
//!    refuses a duplicate key itself, at the same offset and pointer.
//! 4. Only when the look-ahead finds no tag that names a variant (a
//!    missing, wrong-typed or unknown tag, or a parse error before it) is
//!    the object read by [`scan`]: each key checked against a key set (a
//!    duplicate is a parse error at its pointer), the tag's error recorded
//!    at the tag's pointer, every value skipped, and no value made.
//!
//! Every path reports what the scan-then-decode reading reports (the first
//! parse error in document order, or the same schema errors in the same
//! order): a parse error ends the decode, so the errors recorded before it
//! are never seen, and every way of reading the object meets the parse
//! errors in the same places. The alternative to guessing, buffering the
//! members before the tag as `Value`s, would allocate for every such member
//! and decode them through a second path.
use crate::code;
use crate::error::Stage;
use crate::json::{Checkpoint, KeySet, ParseError, Path, Peek, Reader, duplicate_key};
use crate::json_type::{Collector, Guess, TagSeen};

/// A tagged union's tag: its member name and the variants' names, in order.
#[derive(Debug)]
pub struct Tag {
    /// The tag member's name.
    pub name: &'static str,
    /// The name as its key is written raw in a document, quotes included
    /// (`b"\"action\""`), or empty when the name would need escaping.
    pub quoted: &'static [u8],
    /// The variants' names (the tag's allowed values).
    pub variants: &'static [&'static str],
    /// The same names as string values are written raw, quotes included
    /// (empty for a name that would need escaping).
    pub quoted_variants: &'static [&'static [u8]],
    /// Each variant's member names (a unit variant has none), to guess the
    /// variant from a member written before the tag.
    pub members: &'static [&'static [&'static str]],
    /// "one of: \"a\", \"b\"", for messages.
    pub expected: &'static str,
    /// The code of a tag that names no variant: `unknown_variant`, or
    /// `unknown_tool` for a tools enum's `name`.
    pub unknown: &'static str,
}

impl Tag {
    // The index of the variant named `value`.
    #[inline]
    fn variant(&self, value: &str) -> Option<usize> {
        self.variants.iter().position(|v| *v == value)
    }

    // The variant whose name is the next value, written plainly, consumed.
    #[inline]
    fn eat_variant(&self, r: &mut Reader<'_>) -> Option<usize> {
        self.quoted_variants.iter().position(|q| r.eat_str(q))
    }

    // The first variant whose first member's key, written plainly, is the
    // next key (the reader at its `"`; nothing is consumed): a guess that
    // costs no key read. Any guess is safe (a wrong one is taken back);
    // this one is usually right, as models write a variant's members in
    // order.
    #[inline]
    fn leading(&self, r: &Reader<'_>) -> Option<usize> {
        let rest = r.input().as_bytes().get(r.offset()..)?;
        let key = rest.strip_prefix(b"\"")?;
        self.members.iter().position(|names| {
            names.first().is_some_and(|name| {
                key.strip_prefix(name.as_bytes())
                    .is_some_and(|after| after.first() == Some(&b'"'))
            })
        })
    }

    // The first variant that declares a member `key`.
    #[inline]
    fn declaring(&self, key: &str) -> Option<usize> {
        self.members.iter().position(|names| names.contains(&key))
    }
}

/// Decodes a variant of a union: `(reader, path, collector, variant index,
/// a member follows, the tag's state)`, with the reader at a member's key
/// (or past the `}` when none follows). The derive passes a function item,
/// so that every call is a direct one.
pub trait DecodeVariant<'de, T>:
    Copy
    + Fn(
        &mut Reader<'de>,
        &Path<'_>,
        &mut Collector,
        usize,
        bool,
        &mut TagSeen,
    ) -> Result<Option<T>, ParseError>
{
}

impl<'de, T, F> DecodeVariant<'de, T> for F where
    F: Copy
        + Fn(
            &mut Reader<'de>,
            &Path<'_>,
            &mut Collector,
            usize,
            bool,
            &mut TagSeen,
        ) -> Result<Option<T>, ParseError>
{
}

/// With the reader at an object's `{`: finds the tag and decodes the variant
/// it names with `variant`. `Ok(None)` when the tag is missing, of the
/// wrong type or names no variant: the error is recorded at the tag's
/// pointer, the object is skipped (still checked, as any skipped value) and
/// no member error is invented.
///
/// A recursive union goes through here at every level, so what stays on
/// the stack while the variant is decoded is kept small (unoptimised builds
/// give every local its own slot): the variant is called from here, after
/// the functions that found the tag have returned, or from the guess.
#[inline]
pub fn decode_union<'de, T>(
    r: &mut Reader<'de>,
    path: &Path<'_>,
    cx: &mut Collector,
    tag: &'static Tag,
    variant: impl DecodeVariant<'de, T>,
) -> Result<Option<T>, ParseError> {
    if !r.begin_object()? {
        crate::decode::missing_tag(cx, path, tag.name, tag.expected);
        return Ok(None);
    }
    let start = r.checkpoint();
    let mut seen = TagSeen::read();
    let (index, more) = match first_tag(r, tag)? {
        Some(index) => (index, r.object_more()?),
        None => match find(r, path, cx, tag, start, &mut seen)? {
            Find::Variant(index, more) => (index, more),
            Find::Guess(guessed) => return guess(r, path, cx, tag, start, guessed, variant),
            Find::Nothing => return Ok(None),
        },
    };
    variant(r, path, cx, index, more, &mut seen)
}

// 1.: the variant named by the tag written plainly as the first member,
// with its value read in place. `None` (the reader then anywhere in the
// first member) when the first member is not that, or its value names no
// variant: `find` starts again from the first member.
#[inline]
fn first_tag(r: &mut Reader<'_>, tag: &Tag) -> Result<Option<usize>, ParseError> {
    if !r.eat_quoted_key(tag.quoted) {
        return Ok(None);
    }
    match tag.eat_variant(r) {
        Some(index) => Ok(Some(index)),
        None if r.peek()? == Peek::String => Ok(tag.variant(r.read_str_ref()?)),
        None => Ok(None),
    }
}

// Where the variant's members begin, or a variant to decode on a guess.
enum Find {
    Variant(usize, bool),
    Guess(usize),
    Nothing,
}

// 2. to 4., from the first member: a guess when the first key is declared
// by a variant (and guessing is allowed), else the look-ahead. `seen` says
// whether the tag was consumed.
#[inline]
fn find(
    r: &mut Reader<'_>,
    path: &Path<'_>,
    cx: &mut Collector,
    tag: &Tag,
    start: Checkpoint,
    seen: &mut TagSeen,
) -> Result<Find, ParseError> {
    r.rewind(start);
    let guessing = !cx.guesses.active && !cx.guesses.failed;
    if guessing && let Some(guessed) = tag.leading(r) {
        return Ok(Find::Guess(guessed));
    }
    let key = r.read_key()?;
    let declaring = if key == tag.name {
        None
    } else {
        tag.declaring(key)
    };
    r.rewind(start);
    if let Some(guessed) = declaring
        && guessing
    {
        return Ok(Find::Guess(guessed));
    }
    Ok(match look_ahead(r, path, cx, tag, start)? {
        Some((index, more, tag_seen)) => {
            *seen = TagSeen::after(tag_seen);
            Find::Variant(index, more)
        }
        None => Find::Nothing,
    })
}

// 2.: the variant declaring the first member decodes the object; the tag it
// meets says whether that was right. A guess ends as soon as it is known
// to be wrong (a key the variant does not declare before the tag, or a tag
// naming another variant), and what it recorded is taken back. After such
// a key, the first variant declaring it is guessed once more (variants
// often share their first members); after that the search for the tag goes
// on from the key (the members before it were read, well formed and
// without a duplicate). The variant the tag names then decodes the object
// again.
#[inline]
fn guess<'de, T>(
    r: &mut Reader<'de>,
    path: &Path<'_>,
    cx: &mut Collector,
    tag: &'static Tag,
    start: Checkpoint,
    first: usize,
    variant: impl DecodeVariant<'de, T>,
) -> Result<Option<T>, ParseError> {
    let saved = cx.save();
    let mut guessed = first;
    let after = loop {
        let mut seen = TagSeen::guessing(Guess {
            variants: tag.variants,
            quoted: tag
                .quoted_variants
                .get(guessed)
                .copied()
                .unwrap_or_default(),
            index: guessed,
            members: tag.members,
        });
        cx.guesses.active = true;
        let decoded = variant(r, path, cx, guessed, true, &mut seen);
        cx.guesses.active = false;
        let after = match (decoded, seen.found()) {
            (Ok(value), Some(named)) if named == guessed => return Ok(value),
            (Ok(_), Some(named)) => After::Named(named),
            (Ok(None), None) => match seen.ended_at_key() {
                Some(next) => After::Key(next),
                None => After::Start,
            },
            _ => After::Start,
        };
        cx.rollback(saved);
        match after {
            After::Key(Some(next)) if guessed == first && next != first => {
                r.rewind(start);
                guessed = next;
            }
            after => break after,
        }
    };
    // The variant the tag names, with the reader where it reads from.
    let found = match after {
        // The tag names another variant: that one reads the object.
        After::Named(named) => {
            r.rewind(start);
            Some((named, true, false))
        }
        After::Key(_) => {
            let found = find_tag_after(r, path, tag);
            r.rewind(start);
            match found {
                Ok(Some(index)) => Some((index, true, false)),
                _ => scan(r, path, cx, tag)?,
            }
        }
        After::Start => {
            r.rewind(start);
            look_ahead(r, path, cx, tag, start)?
        }
    };
    let Some((index, more, tag_seen)) = found else {
        return Ok(None);
    };
    // No guess below this object while it is read again: a wrong guess
    // inside would read its part a third time, and so on level by level.
    cx.guesses.failed = true;
    let decoded = variant(r, path, cx, index, more, &mut TagSeen::after(tag_seen));
    cx.guesses.failed = false;
    decoded
}

// Where a wrong guess leaves the search for the tag.
enum After {
    // The tag was read and names this variant.
    Named(usize),
    // At the value of a key the guessed variant does not declare, no tag
    // read yet; the first variant declaring that key, if any.
    Key(Option<usize>),
    // Anywhere (a parse error, no tag, a tag naming nothing): from the
    // first member.
    Start,
}

// The first tag's variant, with the reader at the value of a member before
// it (not the tag), as `find_tag`.
fn find_tag_after(
    r: &mut Reader<'_>,
    path: &Path<'_>,
    tag: &Tag,
) -> Result<Option<usize>, ParseError> {
    r.skip_value(path)?;
    if !r.object_more()? {
        return Ok(None);
    }
    find_tag(r, path, tag)
}

// The variant the tag names, whether a member follows and whether the tag
// was consumed; `None` when no tag names a variant (the error is recorded).
type Found = Option<(usize, bool, bool)>;

// 3.: the members before the tag are skipped, without a key set, and the
// reader rewinds to the first member for the variant to read them.
// Whatever else (no tag, a tag naming no variant, a parse error) is left to
// `scan`, from the start.
fn look_ahead(
    r: &mut Reader<'_>,
    path: &Path<'_>,
    cx: &mut Collector,
    tag: &Tag,
    start: Checkpoint,
) -> Result<Found, ParseError> {
    if let Ok(Some(index)) = find_tag(r, path, tag) {
        r.rewind(start);
        return Ok(Some((index, true, false)));
    }
    r.rewind(start);
    scan(r, path, cx, tag)
}

// The variant named by the first member called like the tag, if its value
// is a string naming one; `None` at the end of the object or for any other
// value. An error here is not final: `scan` reads the object again and
// finds the error that comes first (a duplicate key may precede it), so the
// members are skipped below `path` itself, with no pointer of their own.
fn find_tag(r: &mut Reader<'_>, path: &Path<'_>, tag: &Tag) -> Result<Option<usize>, ParseError> {
    loop {
        if r.read_key()? == tag.name {
            if r.peek()? != Peek::String {
                return Ok(None);
            }
            let value = r.read_str_ref()?;
            return Ok(tag.variant(value));
        }
        r.skip_value(path)?;
        if !r.object_more()? {
            return Ok(None);
        }
    }
}

// 4.: from the first member, every key checked against a key set, the
// tag's value read and checked (an error recorded at the tag's pointer),
// the other values skipped. Returns the variant when the first tag names
// one, with the reader rewound to the first member unless the tag was that
// member.
#[cold]
#[inline(never)]
fn scan(
    r: &mut Reader<'_>,
    path: &Path<'_>,
    cx: &mut Collector,
    tag: &Tag,
) -> Result<Found, ParseError> {
    let tag_path = path.key(tag.name);
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
                let Some(index) = tag_value(r, &tag_path, cx, tag)? else {
                    found = true;
                    first = false;
                    if r.object_more()? {
                        continue;
                    }
                    break;
                };
                if first {
                    return Ok(Some((index, r.object_more()?, true)));
                }
                r.rewind(start);
                return Ok(Some((index, true, false)));
            }
            Some(key) => r.skip_value(&path.key(&key))?,
        }
        first = false;
        if !r.object_more()? {
            break;
        }
    }
    if !found {
        crate::decode::missing_tag(cx, path, tag.name, tag.expected);
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
            let index = tag.variant(value);
            if index.is_none() {
                let message = if cx.is_full() {
                    String::new()
                } else if tag.unknown == code::UNKNOWN_TOOL {
                    format!("no tool has this name: expected {}", tag.expected)
                } else {
                    format!("this tag names no variant: expected {}", tag.expected)
                };
                cx.error(Stage::Schema, tag_path, tag.unknown, message, tag.expected);
            }
            Ok(index)
        }
        other => crate::decode::invalid_type(r, tag_path, cx, tag.expected, other),
    }
}
