//! `rename_all` conventions, as serde names them.

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

pub const NAMES: &[(&str, RenameRule)] = &[
    ("lowercase", RenameRule::Lower),
    ("UPPERCASE", RenameRule::Upper),
    ("PascalCase", RenameRule::Pascal),
    ("camelCase", RenameRule::Camel),
    ("snake_case", RenameRule::Snake),
    ("SCREAMING_SNAKE_CASE", RenameRule::ScreamingSnake),
    ("kebab-case", RenameRule::Kebab),
    ("SCREAMING-KEBAB-CASE", RenameRule::ScreamingKebab),
];

impl RenameRule {
    pub fn from_str(s: &str) -> Option<Self> {
        NAMES.iter().find(|(n, _)| *n == s).map(|(_, r)| *r)
    }

    /// Renames a variant written in PascalCase.
    pub fn apply_to_variant(self, variant: &str) -> String {
        match self {
            RenameRule::Pascal => variant.to_owned(),
            RenameRule::Lower => variant.to_ascii_lowercase(),
            RenameRule::Upper => variant.to_ascii_uppercase(),
            RenameRule::Camel => {
                let mut chars = variant.chars();
                match chars.next() {
                    Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
                    None => String::new(),
                }
            }
            RenameRule::Snake
            | RenameRule::ScreamingSnake
            | RenameRule::Kebab
            | RenameRule::ScreamingKebab => {
                let mut snake = String::new();
                for (i, ch) in variant.char_indices() {
                    if i > 0 && ch.is_uppercase() {
                        snake.push('_');
                    }
                    snake.push(ch.to_ascii_lowercase());
                }
                RenameRule::Snake
                    .apply_to_field(&snake)
                    .pipe(|s| self.recase_snake(s))
            }
        }
    }

    /// Renames a field written in snake_case.
    pub fn apply_to_field(self, field: &str) -> String {
        match self {
            RenameRule::Lower | RenameRule::Snake => field.to_owned(),
            RenameRule::Upper | RenameRule::ScreamingSnake => field.to_ascii_uppercase(),
            RenameRule::Kebab => field.replace('_', "-"),
            RenameRule::ScreamingKebab => field.to_ascii_uppercase().replace('_', "-"),
            RenameRule::Pascal | RenameRule::Camel => {
                let mut out = String::new();
                let mut capitalize = self == RenameRule::Pascal;
                for ch in field.chars() {
                    if ch == '_' {
                        capitalize = true;
                    } else if capitalize {
                        out.push(ch.to_ascii_uppercase());
                        capitalize = false;
                    } else {
                        out.push(ch);
                    }
                }
                out
            }
        }
    }

    fn recase_snake(self, snake: String) -> String {
        match self {
            RenameRule::ScreamingSnake => snake.to_ascii_uppercase(),
            RenameRule::Kebab => snake.replace('_', "-"),
            RenameRule::ScreamingKebab => snake.to_ascii_uppercase().replace('_', "-"),
            _ => snake,
        }
    }
}

trait Pipe: Sized {
    fn pipe<R>(self, f: impl FnOnce(Self) -> R) -> R {
        f(self)
    }
}

impl<T> Pipe for T {}

#[cfg(test)]
mod tests {
    use super::RenameRule::*;

    #[test]
    fn variants_follow_serde() {
        assert_eq!(
            Snake.apply_to_variant("NeedsClarification"),
            "needs_clarification"
        );
        assert_eq!(
            ScreamingSnake.apply_to_variant("NotARequest"),
            "NOT_A_REQUEST"
        );
        assert_eq!(Kebab.apply_to_variant("NotARequest"), "not-a-request");
        assert_eq!(Camel.apply_to_variant("NotARequest"), "notARequest");
        assert_eq!(Lower.apply_to_variant("NotARequest"), "notarequest");
    }

    #[test]
    fn fields_follow_serde() {
        assert_eq!(Camel.apply_to_field("start_date"), "startDate");
        assert_eq!(Pascal.apply_to_field("start_date"), "StartDate");
        assert_eq!(ScreamingKebab.apply_to_field("start_date"), "START-DATE");
    }
}
