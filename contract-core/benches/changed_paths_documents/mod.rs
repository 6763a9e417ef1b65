//! The documents of the `changed_paths` benchmark and its profile driver:
//! generated, about 1 KiB, 64 KiB and 1 MiB.
//!
//! Each document is an object of groups, each an object of sections with
//! strings, integers, floats, booleans, arrays and a nested object. `after`
//! is `before` with three leaf edits (first, middle and last section), so the
//! walk goes through the whole tree.

use serde_json::{Map, Value, json};

/// The benchmark's sizes: label and target size in bytes.
pub const SIZES: [(&str, usize); 3] = [("1KiB", 1 << 10), ("64KiB", 64 << 10), ("1MiB", 1 << 20)];

const SECTIONS_PER_GROUP: usize = 16;

// Deterministic xorshift, so every run measures the same documents.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn word(&mut self) -> String {
        const WORDS: [&str; 8] = [
            "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
        ];
        WORDS[self.below(WORDS.len() as u64) as usize].to_owned()
    }
}

fn section(rng: &mut Rng, id: usize) -> Value {
    let tags: Vec<Value> = (0..rng.below(4) + 1)
        .map(|_| Value::String(rng.word()))
        .collect();
    json!({
        "id": id,
        "name": format!("{} {}", rng.word(), rng.word()),
        "enabled": rng.below(2) == 0,
        "ratio": rng.below(1000) as f64 / 7.0,
        "tags": tags,
        "limits": {"min": rng.below(10), "max": 10 + rng.below(100), "unit": "ms"},
        "description": format!("{} {} {} {}", rng.word(), rng.word(), rng.word(), rng.word()),
    })
}

/// Adds sections until the serialized document reaches `target` bytes.
pub fn document(target: usize) -> Value {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut groups = Map::new();
    let mut size = 2; // `{}`
    let mut id = 0;
    while size < target {
        let group_key = format!("group_{}", id / SECTIONS_PER_GROUP);
        let section_key = format!("section_{id}");
        let value = section(&mut rng, id);
        // Approximate: `"key":value,` plus the group's own braces when new.
        size += section_key.len() + 4 + value.to_string().len();
        if !groups.contains_key(&group_key) {
            size += group_key.len() + 6;
        }
        if let Value::Object(group) = groups
            .entry(group_key)
            .or_insert_with(|| Value::Object(Map::new()))
        {
            group.insert(section_key, value);
        }
        id += 1;
    }
    Value::Object(groups)
}

fn edit_leaf(doc: &mut Value, id: usize, field: &str, value: Value) {
    let group = format!("group_{}", id / SECTIONS_PER_GROUP);
    let section = format!("section_{id}");
    if let Some(slot) = doc
        .get_mut(&group)
        .and_then(|g| g.get_mut(&section))
        .and_then(|s| s.get_mut(field))
    {
        *slot = value;
    }
}

/// `before` with three leaf edits: the first, middle and last section.
pub fn edited(before: &Value) -> Value {
    let sections: usize = before
        .as_object()
        .map(|groups| {
            groups
                .values()
                .filter_map(Value::as_object)
                .map(Map::len)
                .sum()
        })
        .unwrap_or(0);
    let mut after = before.clone();
    edit_leaf(&mut after, 0, "enabled", json!("maybe"));
    edit_leaf(&mut after, sections / 2, "name", json!("edited"));
    edit_leaf(&mut after, sections.saturating_sub(1), "ratio", json!(-1));
    after
}

/// The size of `doc` serialized: the bytes a benchmark reports.
pub fn bytes(doc: &Value) -> usize {
    serde_json::to_string(doc).map_or(0, |s| s.len())
}

/// `before` with a member `"note": null` added first in every section: a
/// candidate whose objects leave the baseline's key order by one member
/// (one change per section). Against `before` the other way round, a
/// member removed from every section. The profile driver's; the criterion
/// benchmark does not use it.
#[allow(dead_code)]
pub fn with_a_member_added(before: &Value) -> Value {
    let mut after = before.clone();
    for group in after
        .as_object_mut()
        .into_iter()
        .flat_map(|g| g.values_mut())
    {
        for section in group
            .as_object_mut()
            .into_iter()
            .flat_map(|s| s.values_mut())
        {
            if let Value::Object(members) = section {
                let old = std::mem::take(members);
                members.insert("note".to_owned(), Value::Null);
                members.extend(old);
            }
        }
    }
    after
}
