//! `pattern = ".."`: a regular expression that must mean the same to our
//! matcher (`regex-lite`, in the runtime) and to an ECMA-262 matcher (JSON
//! Schema's dialect, with the `u` flag draft 2020-12 recommends), since the
//! schema a provider enforces and the decoder must agree.
//!
//! The pattern is parsed with `regex-syntax` (the parser of the `regex`
//! family); a pattern that does not parse is refused with the parser's
//! message, and so are lookaround and backreferences, which it does not
//! support. A pattern that parses is walked, and every construct whose
//! meaning differs between the dialects is refused:
//!
//! | refused | why |
//! |---|---|
//! | `\s`, `\S` | ECMA-262's white space includes U+00A0, U+FEFF, U+2028, …; ours is ASCII |
//! | `\p{..}`, `\pL` | Unicode properties: ECMA-262 reads them only with the `u` flag, and names differ |
//! | `(?i)`, `(?x)`, `(?s)`, `(?m)`, `(?U)`, `(?i:..)` | ECMA-262 has no inline flags |
//! | `\A`, `\z`, `\b{start}`, `\<`, `\>` | not ECMA-262 (write `^`, `$`, `\b`) |
//! | `(?P<n>..)`, `(?<n>..)` | named groups: write `(..)` (a name changes nothing that matches) |
//! | `[[:alpha:]]`, `[a[b]]`, `[a&&b]`, `[a--b]`, `[a~~b]` | POSIX classes, nested classes and set operations are literal text to ECMA-262 |
//! | `[]..]` | a leading `]` is a literal to us, an empty class to ECMA-262: write `[\]..]` |
//! | `\x{..}`, `\U........`, `\a`, `\#`, `\&`, `\~`, `\-` (outside a class), `\%`, … | escapes ECMA-262 (`u` flag) does not have |
//! | `{,n}`, `{ n }` | counted repetition other than `{n}`, `{n,}`, `{n,m}` |
//! | a repeated assertion (`^*`, `\b+`) | a syntax error to ECMA-262 |
//! | a repeated repetition (`a++`, `a**`, `a{2}{3}`, `a?+`, `a+??`) | "nothing to repeat" to ECMA-262 (lazy `a+?`, `a{2}?` are one quantifier, kept) |
//! | what our matcher cannot compile (`(a{1000}){1000}`: over its size limit) | the decoder could match nothing |
//!
//! Kept as written, since they mean the same in both: `\d`, `\D`, `\w`,
//! `\W`, `\b`, `\B` (ASCII in both), `^`, `$` (the whole string's start and
//! end: neither dialect is multi-line here), classes, ranges, groups,
//! alternation, greedy and lazy repetition, `\t\n\v\f\r`, `\xHH`, `\uHHHH`,
//! `\u{..}`. `.` is rewritten for our matcher to `[^\n\r\u2028\u2029]`,
//! ECMA-262's "any character but a line terminator". Characters are Unicode
//! scalar values in both (the `u` flag).
//!
//! Last, the rewritten form is compiled here with `regex-lite` itself, as the
//! runtime compiles it ([`SIZE_LIMIT`]): a pattern the decoder could not
//! compile is refused now, so a compiled contract's pattern always compiles
//! at run time.
use regex_syntax::ast::{
    self, Assertion, AssertionKind, Ast, ClassPerlKind, ClassSetBinaryOp, ClassSetItem, GroupKind,
    HexLiteralKind, LiteralKind, RepetitionKind, SpecialLiteralKind, Visitor,
};

/// Why a pattern is refused, with the byte range of the pattern at fault.
pub struct Refusal {
    pub range: std::ops::Range<usize>,
    pub message: String,
}

/// The size limit (bytes of the compiled matcher) a pattern must fit in:
/// `regex-lite`'s default, spelled out. The runtime compiles with twice
/// this (`decode::formats`), so that a pattern that fits on the host that
/// builds fits on any target, whatever its pointer width.
pub const SIZE_LIMIT: usize = 10 * (1 << 20);

/// `.` for our matcher, as ECMA-262 reads it.
const ECMA_DOT: &str = r"[^\n\r\x{2028}\x{2029}]";

/// The pattern in our matcher's syntax, or why it is refused.
pub fn engine_form(pattern: &str) -> Result<String, Refusal> {
    let parsed = ast::parse::Parser::new()
        .parse(pattern)
        .map_err(|e| Refusal {
            range: range(e.span()),
            message: format!(
                "this pattern does not parse: {}{}",
                e.kind(),
                match e.kind() {
                    ast::ErrorKind::UnsupportedLookAround
                    | ast::ErrorKind::UnsupportedBackreference => {
                        " (JSON Schema's matchers would support it, ours cannot: rewrite the pattern without it)"
                    }
                    _ => "",
                }
            ),
        })?;
    let walk = Walk {
        pattern,
        dots: Vec::new(),
        class_depth: 0,
    };
    check_nothing_to_repeat(&parsed)?;
    let dots = ast::visit(&parsed, walk)?;
    let mut out = String::with_capacity(pattern.len());
    let mut at = 0;
    for dot in dots {
        out.push_str(&pattern[at..dot]);
        out.push_str(ECMA_DOT);
        at = dot + 1;
    }
    out.push_str(&pattern[at..]);
    compiles(pattern, &out)?;
    Ok(out)
}

// The runtime compiles the engine form with `regex-lite` on first use; what
// it could not compile must not compile here either, or every value would
// be refused at run time.
fn compiles(pattern: &str, engine: &str) -> Result<(), Refusal> {
    regex_lite::RegexBuilder::new(engine)
        .size_limit(SIZE_LIMIT)
        .build()
        .map(drop)
        .map_err(|e| Refusal {
            range: 0..pattern.len(),
            message: format!(
                "our matcher (`regex-lite`) cannot compile this pattern ({e}), so the decoder could match nothing: make it smaller (fewer or smaller counted repetitions, less nesting)"
            ),
        })
}

// ECMA-262's "nothing to repeat": a quantifier must follow an atom, so one
// on an assertion (`^*`) or right after another quantifier (`a++`, `a**`,
// `a{2}{3}`) is a syntax error, which `regex-syntax` accepts. A lazy
// quantifier (`a+?`, `a{2}?`) is one quantifier.
fn check_nothing_to_repeat(node: &Ast) -> Result<(), Refusal> {
    match node {
        Ast::Repetition(r) => match &*r.ast {
            Ast::Assertion(a) => refuse(
                &a.span,
                "a repeated assertion (`^*`, `\\b+`) is a syntax error to JSON Schema's ECMA-262 matchers: remove the quantifier",
            ),
            Ast::Repetition(_) => refuse(
                &r.op.span,
                "a quantifier right after another (`a++`, `a**`, `a{2}{3}`) is a syntax error to JSON Schema's ECMA-262 matchers (\"nothing to repeat\"): write one quantifier, or group the repeated part (`(?:a+)+`)",
            ),
            inner => check_nothing_to_repeat(inner),
        },
        Ast::Group(g) => check_nothing_to_repeat(&g.ast),
        Ast::Alternation(a) => a.asts.iter().try_for_each(check_nothing_to_repeat),
        Ast::Concat(c) => c.asts.iter().try_for_each(check_nothing_to_repeat),
        _ => Ok(()),
    }
}

fn range(span: &ast::Span) -> std::ops::Range<usize> {
    span.start.offset..span.end.offset
}

fn refuse(span: &ast::Span, message: impl Into<String>) -> Result<(), Refusal> {
    Err(Refusal {
        range: range(span),
        message: message.into(),
    })
}

struct Walk<'p> {
    pattern: &'p str,
    /// Byte offsets of each top-level `.`.
    dots: Vec<usize>,
    class_depth: usize,
}

impl Walk<'_> {
    fn literal(&self, lit: &ast::Literal) -> Result<(), Refusal> {
        let in_class = self.class_depth > 0;
        match &lit.kind {
            LiteralKind::Verbatim => match lit.c {
                ']' | '{' | '}' if !in_class => refuse(
                    &lit.span,
                    format!(
                        "an unescaped `{}` is a syntax error to JSON Schema's ECMA-262 matchers: write `\\{}`",
                        lit.c, lit.c
                    ),
                ),
                _ => Ok(()),
            },
            LiteralKind::Meta | LiteralKind::Superfluous => {
                let ecma = "^$\\.*+?()[]{}|/".contains(lit.c) || (in_class && lit.c == '-');
                if ecma {
                    Ok(())
                } else {
                    refuse(
                        &lit.span,
                        format!(
                            "`\\{}` is not an escape JSON Schema's ECMA-262 matchers accept: write `{}` unescaped",
                            lit.c, lit.c
                        ),
                    )
                }
            }
            LiteralKind::HexFixed(HexLiteralKind::X | HexLiteralKind::UnicodeShort)
            | LiteralKind::HexBrace(HexLiteralKind::UnicodeShort) => Ok(()),
            LiteralKind::HexFixed(HexLiteralKind::UnicodeLong) | LiteralKind::HexBrace(_) => {
                refuse(
                    &lit.span,
                    "`\\x{..}` and `\\U` are not ECMA-262 escapes: write `\\xHH`, `\\uHHHH` or `\\u{H..}`",
                )
            }
            LiteralKind::Special(SpecialLiteralKind::Bell | SpecialLiteralKind::Space)
            | LiteralKind::Octal => refuse(
                &lit.span,
                "this escape is not ECMA-262's: write the character, or `\\xHH`",
            ),
            LiteralKind::Special(_) => Ok(()),
        }
    }
}

impl Visitor for Walk<'_> {
    type Output = Vec<usize>;
    type Err = Refusal;

    fn finish(self) -> Result<Vec<usize>, Refusal> {
        Ok(self.dots)
    }

    fn visit_pre(&mut self, node: &Ast) -> Result<(), Refusal> {
        match node {
            Ast::Empty(_) | Ast::Alternation(_) | Ast::Concat(_) => Ok(()),
            Ast::Dot(span) => {
                self.dots.push(span.start.offset);
                Ok(())
            }
            Ast::Literal(lit) => self.literal(lit),
            Ast::Flags(f) => refuse(
                &f.span,
                "inline flags (`(?i)`, `(?x)`, `(?s)`, `(?m)`, `(?U)`) do not exist in JSON Schema's ECMA-262 patterns: write the cases out (`[Aa]`) instead",
            ),
            Ast::Assertion(a) => assertion(a),
            Ast::ClassUnicode(c) => refuse(&c.span, UNICODE_CLASS),
            Ast::ClassPerl(c) if c.kind == ClassPerlKind::Space => refuse(&c.span, PERL_SPACE),
            Ast::ClassPerl(_) => Ok(()),
            Ast::ClassBracketed(c) => {
                self.class_depth += 1;
                let first = match &c.kind {
                    ast::ClassSet::Item(ClassSetItem::Union(u)) => u.items.first(),
                    ast::ClassSet::Item(item) => Some(item),
                    ast::ClassSet::BinaryOp(_) => None,
                };
                if let Some(ClassSetItem::Literal(l)) = first
                    && l.c == ']'
                    && l.kind == LiteralKind::Verbatim
                {
                    return refuse(
                        &l.span,
                        "a `]` first in a class is a literal to us and closes an empty class to ECMA-262: write `\\]`",
                    );
                }
                Ok(())
            }
            Ast::Repetition(r) => match &r.op.kind {
                RepetitionKind::Range(_) => {
                    let text = &self.pattern[range(&r.op.span)];
                    let text = text.strip_suffix('?').unwrap_or(text);
                    let inner = text
                        .strip_prefix('{')
                        .and_then(|t| t.strip_suffix('}'))
                        .unwrap_or("");
                    let (min, max) = inner.split_once(',').unwrap_or((inner, "0"));
                    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
                    if digits(min) && (max.is_empty() || digits(max)) {
                        Ok(())
                    } else {
                        refuse(
                            &r.op.span,
                            "write counted repetition as `{n}`, `{n,}` or `{n,m}` (no spaces, a lower bound always): other forms are literal text to ECMA-262",
                        )
                    }
                }
                _ => Ok(()),
            },
            Ast::Group(g) => match &g.kind {
                GroupKind::CaptureIndex(_) => Ok(()),
                GroupKind::CaptureName { .. } => refuse(
                    &g.span,
                    "named groups (`(?P<name>..)`, `(?<name>..)`) are refused: a name changes nothing that matches; write `(..)`",
                ),
                GroupKind::NonCapturing(flags) if flags.items.is_empty() => Ok(()),
                GroupKind::NonCapturing(flags) => refuse(
                    &flags.span,
                    "inline flags (`(?i:..)`) do not exist in JSON Schema's ECMA-262 patterns: write the cases out (`[Aa]`) instead",
                ),
            },
        }
    }

    fn visit_post(&mut self, node: &Ast) -> Result<(), Refusal> {
        if let Ast::ClassBracketed(_) = node {
            self.class_depth -= 1;
        }
        Ok(())
    }

    fn visit_class_set_item_pre(&mut self, item: &ClassSetItem) -> Result<(), Refusal> {
        match item {
            ClassSetItem::Empty(_) | ClassSetItem::Union(_) => Ok(()),
            ClassSetItem::Literal(lit) => self.literal(lit),
            ClassSetItem::Range(r) => {
                self.literal(&r.start)?;
                self.literal(&r.end)
            }
            ClassSetItem::Ascii(c) => refuse(
                &c.span,
                "POSIX classes (`[[:alpha:]]`) are literal text to ECMA-262: write the range (`[A-Za-z]`)",
            ),
            ClassSetItem::Unicode(c) => refuse(&c.span, UNICODE_CLASS),
            ClassSetItem::Perl(c) if c.kind == ClassPerlKind::Space => refuse(&c.span, PERL_SPACE),
            ClassSetItem::Perl(_) => Ok(()),
            ClassSetItem::Bracketed(c) => refuse(
                &c.span,
                "a class inside a class (`[a[b]]`) is not ECMA-262: list the characters in one class",
            ),
        }
    }

    fn visit_class_set_binary_op_pre(&mut self, op: &ClassSetBinaryOp) -> Result<(), Refusal> {
        refuse(
            &op.span,
            "class set operations (`&&`, `--`, `~~`) are not ECMA-262: list the characters in one class",
        )
    }
}

const UNICODE_CLASS: &str = "Unicode classes (`\\p{..}`, `\\pL`) are refused: ECMA-262 reads them only with the `u` flag, with other names; write the ranges (`[A-Za-z]`)";

const PERL_SPACE: &str = "`\\s`/`\\S` mean ASCII white space to us and Unicode white space (U+00A0, U+FEFF, U+2028, …) to ECMA-262: write the characters (`[ \\t\\n\\r]`)";

fn assertion(a: &Assertion) -> Result<(), Refusal> {
    match a.kind {
        AssertionKind::StartLine
        | AssertionKind::EndLine
        | AssertionKind::WordBoundary
        | AssertionKind::NotWordBoundary => Ok(()),
        AssertionKind::StartText | AssertionKind::EndText => refuse(
            &a.span,
            "`\\A` and `\\z` are not ECMA-262: write `^` and `$` (both mean the whole string's start and end here)",
        ),
        _ => refuse(
            &a.span,
            "only `\\b` and `\\B` are word boundaries in ECMA-262: write `\\b`",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::engine_form;

    fn refused(p: &str) -> bool {
        engine_form(p).is_err()
    }

    #[test]
    fn keeps_what_means_the_same_and_rewrites_dot() {
        assert_eq!(
            engine_form("^[A-Z]{2}-[0-9]{4}$").ok().as_deref(),
            Some("^[A-Z]{2}-[0-9]{4}$")
        );
        assert_eq!(
            engine_form(r"^a.b[.]$").ok().as_deref(),
            Some(r"^a[^\n\r\x{2028}\x{2029}]b[.]$")
        );
        for ok in [
            r"\d+\w*\b\B\D\W",
            r"(?:ab)+?|c{2,}|d{1,3}",
            r"[\-a-z\]\^]",
            r"\/\.\*",
            r"\x41\u0041\u{1F600}",
            r"\t\n\r\f\v",
            r"^a+?b*?c??d{2}?e{2,}?f{1,3}?$",
            r"(?:a+)+(b*)*",
        ] {
            assert!(!refused(ok), "{ok}");
        }
    }

    #[test]
    fn refuses_what_differs_or_does_not_parse() {
        for bad in [
            r"a(?=b)",
            r"(a)\1",
            r"\s",
            r"[\S]",
            r"\pL",
            r"\p{Greek}",
            r"(?i)a",
            r"(?i:a)",
            r"(?x)a",
            r"\Aa\z",
            r"\<a\>",
            r"\b{start}",
            r"(?P<n>a)",
            r"(?<n>a)",
            r"[[:alpha:]]",
            r"[a[b]]",
            r"[a&&b]",
            r"[a--b]",
            r"[]a]",
            r"\x{41}",
            r"\U00000041",
            r"\a",
            r"\#",
            r"\-",
            r"\%",
            r"a{,3}",
            r"a{ 2 }",
            r"^*",
            r"(",
            r"a{2",
            r"a]",
        ] {
            assert!(refused(bad), "{bad}");
        }
    }

    #[test]
    fn refuses_a_quantifier_after_a_quantifier() {
        for bad in [
            r"^a++$", r"a**", r"a{2}{3}", r"a?+", r"a+??", r"a{2}?+", r"(a|b*+)",
        ] {
            assert!(refused(bad), "{bad}");
        }
    }

    #[test]
    fn refuses_what_the_runtime_matcher_cannot_compile() {
        assert!(refused(r"^(a{1000}){1000}$"));
        assert!(!refused(r"^(a{100}){100}$"));
    }
}
