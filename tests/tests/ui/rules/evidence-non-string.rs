use contract_runtime::{Contract, EvidenceSource};

pub struct Source(String);

impl EvidenceSource for Source {
    fn source_text(&self) -> &str {
        &self.0
    }
}

#[derive(Contract)]
#[contract(context = Source)]
pub struct Extraction {
    #[contract(evidence)]
    pub amount: u64,
}

fn main() {}
