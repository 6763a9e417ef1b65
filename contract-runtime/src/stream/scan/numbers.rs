//! Numbers: JSON's number grammar one byte at a time, and what a number
//! decides once its delimiter arrives.
use super::{ANY, Plan, Reader, Scanner, Seen, Stop, verdict};

// Where a number is in JSON's grammar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Num {
    Minus,
    Zero,
    Int,
    Dot,
    Frac,
    Exp,
    ExpSign,
    ExpDigits,
}

impl Scanner {
    // The number that ends before offset `end`.
    pub(super) fn end_number(&mut self, plan: &Plan, text: &str, end: usize) -> Result<(), Stop> {
        let written = text.get(self.number_start..end).unwrap_or_default();
        let number = Reader::new(written, 1)
            .read_number()
            .map_err(|_| Stop::Syntax)?;
        let expect = self.number_expect;
        if expect.node != ANY {
            let v = verdict::number(plan.node(expect.node), &number, expect.quarantine);
            self.judge(v)?;
        }
        if self.watched() {
            let seen = match number.as_i128() {
                Some(v) if number.integer_syntax => Seen::Integer(v),
                _ => Seen::Float(number.as_f64()),
            };
            self.record(plan, seen)?;
        }
        self.value_done(end);
        Ok(())
    }
}

// The next grammar state of a number after `b`, or `None` if `b` is not
// part of it.
pub(super) fn number_step(num: Num, b: u8) -> Option<Num> {
    Some(match (num, b) {
        (Num::Minus, b'0') => Num::Zero,
        (Num::Minus, b'1'..=b'9') => Num::Int,
        (Num::Int, b'0'..=b'9') => Num::Int,
        (Num::Zero | Num::Int, b'.') => Num::Dot,
        (Num::Zero | Num::Int | Num::Frac, b'e' | b'E') => Num::Exp,
        (Num::Dot | Num::Frac, b'0'..=b'9') => Num::Frac,
        (Num::Exp, b'+' | b'-') => Num::ExpSign,
        (Num::Exp | Num::ExpSign | Num::ExpDigits, b'0'..=b'9') => Num::ExpDigits,
        _ => return None,
    })
}
