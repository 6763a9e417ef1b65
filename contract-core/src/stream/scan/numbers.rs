//! Numbers: what a number decides once its delimiter arrives (its grammar,
//! one byte at a time, is the lexical number machine that `feed` steps).
use super::{ANY, Plan, Scanner, Seen, Stop, verdict};
use crate::json::lexical;

impl Scanner {
    // The number that ends before offset `end`.
    pub(super) fn end_number(&mut self, plan: &Plan, text: &str, end: usize) -> Result<(), Stop> {
        let written = text.get(self.number_start..end).unwrap_or_default();
        let (number, _) = lexical::read_number(written, 0).map_err(|_| Stop::Syntax)?;
        let expect = self.number_expect;
        if expect.node != ANY {
            let v = verdict::number(plan.node(expect.node), &number, expect.quarantine);
            self.judge(text, v)?;
        }
        if self.watched() {
            let seen = match number.as_i128() {
                Some(v) if number.integer_syntax => Seen::Integer(v),
                _ => Seen::Float(number.as_f64()),
            };
            self.record(text, seen)?;
        }
        self.value_done(end);
        Ok(())
    }
}
