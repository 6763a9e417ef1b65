use contract_runtime::Contract;

#[derive(Contract)]
#[contract(tools)]
pub enum Tool {
    #[contract(rename = "close ticket")]
    Close { reason: String },
    #[contract(rename = "a_name_of_sixty_five_characters_is_one_more_than_any_provider_takes")]
    Open,
}

fn main() {}
