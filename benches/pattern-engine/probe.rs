//! `pattern` engine probe (benches/pattern-engine/run.sh): first-use compile
//! time and ns per `is_match` over the tests' patterns, in their engine form.
use contract_runtime::__private::Pattern;
use std::hint::black_box;
use std::time::Instant;

static PATTERNS: &[(&str, &[&str])] = &[
    ("^[A-Z]{2}-[0-9]{4}$", &["AB-1234", "ab-1234", "AB-12345", "XY-0000"]),
    (r"^\d+(\.\d{1,2})?$", &["12.50", "1.234", "100", "x"]),
    ("^[a-z]+$", &["ok", "NOT LOWER", "abcdefghijklmnop"]),
    ("[0-9]{3}", &["order 123 today", "12", "a long sentence a model wrote about shipping with no digits at all"]),
    (r"^a[^\n\r\x{2028}\x{2029}]c$", &["abc", "a\nc", "aéc"]),
    (r"^\w+(-\w+)*$", &["well-formed-slug", "not a slug", "x"]),
    ("^[0-9]{4}-[0-9]{2}-[0-9]{2}$", &["2027-06-01", "2027-6-1"]),
];

fn main() {
    let pats: Vec<(Pattern, &[&str])> = PATTERNS.iter().map(|(p, s)| (Pattern::new(p), *s)).collect();
    let t0 = Instant::now();
    for (p, s) in &pats { black_box(p.is_match(s[0])); }
    let first = t0.elapsed();
    let rounds = 200_000;
    let mut n = 0u64;
    let t = Instant::now();
    for _ in 0..rounds {
        for (p, s) in &pats {
            for x in s.iter() { black_box(p.is_match(black_box(x))); n += 1; }
        }
    }
    let e = t.elapsed();
    println!("first use (compile all {} patterns + 1 match each): {:?}", pats.len(), first);
    println!("{} matches, {:.1} ns/match", n, e.as_nanos() as f64 / n as f64);
}
