use contract_runtime::{Contract, EditPolicy};

#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(edit(disable_email = ["/notifications/email"]))]
pub struct Settings {
    pub notifications: Notifications,
    pub theme: String,
}

#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Notifications {
    pub email: bool,
    pub sms: bool,
}

fn main() {
    let by_const: EditPolicy<Settings> = Settings::DISABLE_EMAIL;
    let by_name = Settings::edit_policy("disable_email");
    assert_eq!(by_name.map(|p| p.name()), Some(by_const.name()));
}
