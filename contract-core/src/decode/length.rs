//! `min_len`/`max_len`: lengths in Unicode scalar values, or items.

/// Where a length falls against `min_len`/`max_len`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LenCheck {
    /// Below `min_len`.
    Short,
    /// Above `max_len`.
    Long,
    /// Within both bounds.
    Within,
}

impl LenCheck {
    /// Where `len` falls against `min` and `max`.
    #[inline]
    pub(crate) fn of(len: usize, min: usize, max: usize) -> LenCheck {
        if len < min {
            LenCheck::Short
        } else if len > max {
            LenCheck::Long
        } else {
            LenCheck::Within
        }
    }
}

/// Number of Unicode scalar values of a string, or items of a collection.
pub trait Length {
    /// The length `min_len`/`max_len` compare against.
    fn contract_len(&self) -> usize;

    /// Compares the length with both bounds at once.
    #[inline]
    fn check_len(&self, min: usize, max: usize) -> LenCheck {
        LenCheck::of(self.contract_len(), min, max)
    }
}

impl Length for str {
    #[inline]
    fn contract_len(&self) -> usize {
        self.chars().count()
    }

    #[inline]
    fn check_len(&self, min: usize, max: usize) -> LenCheck {
        // A string of `b` bytes has between `ceil(b / 4)` and `b` characters:
        // when both bounds hold for that range, nothing needs counting.
        let bytes = self.len();
        if bytes <= max && bytes.div_ceil(4) >= min {
            return LenCheck::Within;
        }
        LenCheck::of(self.contract_len(), min, max)
    }
}

// Owned or borrowed from the text, a string is measured as a `str`.
macro_rules! str_length {
    ($($t:ty)*) => {$(
        impl Length for $t {
            #[inline]
            fn contract_len(&self) -> usize {
                str::contract_len(self)
            }

            #[inline]
            fn check_len(&self, min: usize, max: usize) -> LenCheck {
                str::check_len(self, min, max)
            }
        }
    )*};
}

str_length!(String &str std::borrow::Cow<'_, str>);

impl<T> Length for Vec<T> {
    #[inline]
    fn contract_len(&self) -> usize {
        self.len()
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{LenCheck, Length};

    proptest! {
        #[test]
        fn string_length_check_agrees_with_counting(s in "\\PC{0,12}", min in 0usize..14, extra in 0usize..14) {
            let max = min + extra;
            let n = s.chars().count();
            let naive = if n < min { LenCheck::Short } else if n > max { LenCheck::Long } else { LenCheck::Within };
            prop_assert_eq!(s.check_len(min, max), naive);
        }
    }
}
