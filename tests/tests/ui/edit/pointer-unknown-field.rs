use contract_runtime::Contract;

#[derive(Contract)]
#[contract(edit(retheme = ["/colour"]))]
pub struct Settings {
    pub notifications: Notifications,
    pub channels: Vec<String>,
    pub labels: std::collections::BTreeMap<String, String>,
    pub theme: String,
}

#[derive(Contract)]
pub struct Notifications {
    pub email: bool,
    pub sms: bool,
}

fn main() {}
